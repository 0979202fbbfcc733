//! `suggest`: every date offered keeps the list valid by the checker, none that would not is
//! missed among the team's playable dates, and they come best first.

mod common;
use common::*;
use fixtures::model::{FixtureList, Match};
use fixtures::season::suggest;

const MID_DOWNS: &str = include_str!("../instances/examples/mid-downs.toml");

#[test]
fn every_suggested_date_passes_check_and_none_is_missed() {
    let league = league(MID_DOWNS);
    let csv = solve_valid(&league);
    let list = fixtures::check::parse_fixtures(&league, csv.as_bytes(), "c.csv")
        .unwrap()
        .to_neutral(&league);
    for index in 0..list.matches.len() {
        let m = list.matches[index];
        let found = suggest::suggest(&league, &list, index, league.start);
        let offered: Vec<_> = found.iter().map(|s| s.date).collect();
        for d in league.season_dates().filter(|&d| d != m.date) {
            let mut moved = list.matches.clone();
            moved[index] = Match { date: d, ..m };
            let moved = FixtureList::new(moved, &league);
            let valid = check_csv(&league, &moved.to_csv(&league)).is_valid();
            assert_eq!(valid, offered.contains(&d), "fixture {index} on {d}");
        }
        assert!(
            found.windows(2).all(|w| w[0].change <= w[1].change),
            "best first"
        );
    }
}

#[test]
fn the_cli_names_the_fixture_and_refuses_an_unknown_one() {
    let dir = tempfile::tempdir().unwrap();
    let league_file = dir.path().join("league.toml");
    std::fs::write(&league_file, MID_DOWNS).unwrap();
    let league = league(MID_DOWNS);
    let csv = solve_valid(&league);
    let current = dir.path().join("current.csv");
    std::fs::write(&current, &csv).unwrap();
    let first = rows(&csv)[0].clone();
    let fixture = format!("{} v {}", first.1, first.2);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fixtures"))
        .arg("suggest")
        .arg(&league_file)
        .arg("--current")
        .arg(&current)
        .args(["--fixture", &fixture, "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v.as_array().is_some_and(|a| !a.is_empty()), "{v}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fixtures"))
        .arg("suggest")
        .arg(&league_file)
        .arg("--current")
        .arg(&current)
        .args(["--fixture", "Nobody v Lewes 1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Nobody v Lewes 1"));
    // --today: a fixture before it is played and does not move; none is offered before it.
    let suggest_on = |today: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_fixtures"))
            .arg("suggest")
            .arg(&league_file)
            .arg("--current")
            .arg(&current)
            .args(["--fixture", &fixture, "--json", "--today", today])
            .output()
            .unwrap()
    };
    let after = (chrono::NaiveDate::parse_from_str(&first.0, "%Y-%m-%d").unwrap()
        + chrono::Days::new(1))
    .to_string();
    let out = suggest_on(&after);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("before today"));
    let out = suggest_on(&first.0);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let dates: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["date"].as_str().unwrap())
        .collect();
    assert!(dates.iter().all(|d| *d >= first.0.as_str()), "{dates:?}");
}
