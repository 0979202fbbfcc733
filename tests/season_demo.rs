//! Issue 44's acceptance: a whole Sussex season driven by `scripts/season-demo` through
//! `fixtures season` (cups drawn and played to their finals, postponements, a weekend change
//! the clubs agreed, a withdrawal, a replay, penalties, play-offs between two and among three), every
//! version checked against its own league version and nothing before --today moved. The
//! script fails on the first step that breaks any of these.

use std::process::Command;

#[test]
fn the_scripted_sussex_season_keeps_every_competition_at_every_step() {
    let out = tempfile::tempdir().unwrap();
    let run = Command::new("scripts/season-demo")
        .env("FIXTURES", env!("CARGO_BIN_EXE_fixtures"))
        .env("OUT", out.path())
        .output()
        .expect("scripts/season-demo runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(run.status.success(), "{said}");
    assert!(said.contains("every version passes the checker"), "{said}");
    for step in [
        "cup draw: Knock-Out Cup",
        "cup draw: Paul Watson Trophy",
        "cup draw: McArthur Cup",
        "postponement:",
        "agreed change (2.6):",
        "withdrawal (11.2): Lewes 2 withdrew",
        "replay (6.2.2):",
        "penalty: number 2: ",
        "penalty lifted: number 2 (",
        "penalty 1: 2 match points off",
        "play-off (12):",
    ] {
        assert!(said.contains(step), "no step {step}: {said}");
    }
    let log = std::fs::read_to_string(out.path().join("log.txt")).unwrap();
    // Three postponements, three play-offs among three and one between two.
    assert_eq!(log.matches(" postponement: ").count(), 3, "{log}");
    assert_eq!(log.matches("new Division 2 Play-off").count(), 3, "{log}");
    assert_eq!(log.matches("new Division 1 Play-off").count(), 1, "{log}");
}
