//! The real binary, run in a temporary directory.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_fixtures");
const MID_DOWNS: &str = include_str!("../instances/examples/mid-downs.toml");

struct Dir(tempfile::TempDir);

impl Dir {
    fn new() -> Self {
        Dir(tempfile::tempdir().unwrap())
    }
    fn path(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }
    fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, text).unwrap();
        p
    }
    fn run(&self, args: &[&str]) -> Output {
        Command::new(BIN)
            .args(args)
            .current_dir(self.0.path())
            .output()
            .unwrap()
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

#[test]
fn solve_then_check_round_trip() {
    let d = Dir::new();
    d.write("league.toml", MID_DOWNS);
    let o = d.run(&[
        "solve",
        "league.toml",
        "-o",
        "out.csv",
        "--threads",
        "1",
        "--seed",
        "3",
        "--time-limit",
        "5",
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let csv = std::fs::read_to_string(d.path("out.csv")).unwrap();
    assert!(csv.starts_with("date,division,home,away,venue"));
    assert_eq!(csv.lines().count(), 1 + 12);
    assert!(text(&o.stderr).contains("12 fixtures"));
    let c = d.run(&["check", "league.toml", "out.csv"]);
    assert_eq!(code(&c), 0, "{}", text(&c.stdout));
    let out = text(&c.stdout);
    assert!(out.contains("valid") && out.contains("breaks:"), "{out}");
    // No temporary file is left behind.
    let left: Vec<_> = std::fs::read_dir(d.0.path()).unwrap().collect();
    assert_eq!(left.len(), 2);
}

#[test]
fn solve_to_stdout_is_sorted_and_reproducible() {
    let d = Dir::new();
    d.write("league.toml", MID_DOWNS);
    // Quality off (breaks only, weight 0 everywhere else) so both runs finish well inside
    // the limit and the seed alone decides the result.
    let quiet = MID_DOWNS.replace(
        "[rules]",
        "[weights]\nbreaks = 0\nspread = 0\nspread_max = 0\nlong_rest = 0\nshort_rest = 0\nwinter = 0\n\n[rules]",
    );
    d.write("league.toml", &quiet);
    let a = d.run(&["solve", "league.toml", "--threads", "2", "--seed", "7"]);
    let b = d.run(&["solve", "league.toml", "--threads", "2", "--seed", "7"]);
    assert_eq!(code(&a), 0);
    assert_eq!(a.stdout, b.stdout, "same seed, same schedule");
    let out = text(&a.stdout);
    let dates: Vec<&str> = out.lines().skip(1).map(|l| &l[..10]).collect();
    let mut sorted = dates.clone();
    sorted.sort();
    assert_eq!(dates, sorted);
}

#[test]
fn check_reports_violations_with_rule_fixture_and_date() {
    let d = Dir::new();
    d.write("league.toml", MID_DOWNS);
    d.write(
        "bad.csv",
        "date,division,home,away,venue\n2026-12-25,Division 1,\"Horsham 1\",Lewes 1,Methodist Church Hall\n",
    );
    let o = d.run(&["check", "league.toml", "bad.csv"]);
    assert_eq!(code(&o), 1);
    let out = text(&o.stdout);
    assert!(
        out.contains("VIOLATION [1 closed] Horsham 1 v Lewes 1 on 2026-12-25"),
        "{out}"
    );
    assert!(out.contains("missing from the fixture list"), "{out}");
    assert!(out.contains("INVALID"), "{out}");
}

#[test]
fn bad_input_exits_1_naming_file_line_and_key() {
    let d = Dir::new();
    d.write(
        "league.toml",
        &MID_DOWNS.replace("nights = [\"Mon\"]", "nights = [\"Mnday\"]"),
    );
    let o = d.run(&["solve", "league.toml"]);
    assert_eq!(code(&o), 1);
    let err = text(&o.stderr);
    assert!(
        err.contains("league.toml:") && err.contains("key `nights`") && err.contains("Mnday"),
        "{err}"
    );
    assert!(!err.contains("panicked"));

    let o = d.run(&["solve", "missing.toml"]);
    assert_eq!(code(&o), 1);
    assert!(text(&o.stderr).contains("missing.toml"));

    let o = d.run(&["solve"]);
    assert_eq!(
        code(&o),
        1,
        "usage errors are input errors, not 'infeasible'"
    );
    let o = d.run(&["solve", "league.toml", "--time-limit", "-1"]);
    assert_eq!(code(&o), 1);
}

#[test]
fn impossible_league_exits_2_and_says_why() {
    let d = Dir::new();
    // Lewes 2 now starts after the season's last Tuesday... no date left for its matches.
    d.write(
        "league.toml",
        &MID_DOWNS.replace(
            "start = 2026-11-01           # joins late",
            "start = 2027-05-10",
        ),
    );
    let o = d.run(&["solve", "league.toml", "-o", "out.csv"]);
    assert_eq!(code(&o), 2, "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(err.contains("Lewes 2"), "{err}");
    assert!(!d.path("out.csv").exists(), "no schedule is claimed");
}

#[test]
fn never_overwrites_the_league_file() {
    let d = Dir::new();
    let p = d.write("league.toml", MID_DOWNS);
    let o = d.run(&["solve", "league.toml", "-o", "./league.toml"]);
    assert_eq!(code(&o), 1);
    assert_eq!(std::fs::read_to_string(&p).unwrap(), MID_DOWNS);
}

#[test]
fn check_refuses_unreadable_csv() {
    let d = Dir::new();
    d.write("league.toml", MID_DOWNS);
    d.write("x.csv", "when,who\n1,2\n");
    let o = d.run(&["check", "league.toml", "x.csv"]);
    assert_eq!(code(&o), 1);
    assert!(
        text(&o.stderr).contains("no `date` column"),
        "{}",
        text(&o.stderr)
    );
    let o = d.run(&["check", "league.toml", "nope.csv"]);
    assert_eq!(code(&o), 1);
}

#[test]
fn every_instance_solves_and_checks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances");
    let mut files = Vec::new();
    for dir in [root.clone(), root.join("examples")] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "toml") {
                files.push(p);
            }
        }
    }
    assert!(files.len() >= 4);
    let d = Dir::new();
    for f in files {
        let out = d.path("out.csv");
        let o = d.run(&[
            "solve",
            f.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--time-limit",
            "10",
        ]);
        assert_eq!(code(&o), 0, "{}: {}", f.display(), text(&o.stderr));
        let c = d.run(&["check", f.to_str().unwrap(), out.to_str().unwrap()]);
        assert_eq!(code(&c), 0, "{}: {}", f.display(), text(&c.stdout));
    }
}

#[test]
fn check_survives_extreme_dates_in_the_csv() {
    let d = Dir::new();
    d.write(
        "league.toml",
        &MID_DOWNS.replace("[rules]", "[rules]\nmax_consecutive_weeks = 2"),
    );
    d.write(
        "x.csv",
        "date,division,home,away,venue\n-262143-01-01,Division 1,Horsham 1,Lewes 1,x\n+262142-12-31,Division 1,Lewes 1,Horsham 1,x\n",
    );
    let o = d.run(&["check", "league.toml", "x.csv"]);
    assert_eq!(code(&o), 1);
    assert!(!text(&o.stderr).contains("panicked"), "{}", text(&o.stderr));
}

/// `solve league.toml --alternatives 2 -o drafts` on one thread.
fn two_drafts(d: &Dir, time_limit: &str) -> Output {
    d.run(&[
        "solve",
        "league.toml",
        "--alternatives",
        "2",
        "-o",
        "drafts",
        "--threads",
        "1",
        "--time-limit",
        time_limit,
    ])
}

#[test]
fn alternatives_write_drafts_into_a_folder_and_say_how_different_they_are() {
    let d = Dir::new();
    d.write("league.toml", MID_DOWNS);
    let o = two_drafts(&d, "8");
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    for draft in ["drafts/draft-1.csv", "drafts/draft-2.csv"] {
        let c = d.run(&["check", "league.toml", draft]);
        assert_eq!(code(&c), 0, "{draft}: {}", text(&c.stdout));
    }
    let err = text(&o.stderr);
    assert!(
        err.contains("draft-1 v draft-2:") && err.contains("% of fixtures on different dates"),
        "{err}"
    );
    // -o must name a folder, not a file.
    d.write("file.csv", "x");
    let o = d.run(&[
        "solve",
        "league.toml",
        "--alternatives",
        "2",
        "-o",
        "file.csv",
    ]);
    assert_eq!(code(&o), 1);
    assert_eq!(std::fs::read_to_string(d.path("file.csv")).unwrap(), "x");
}

#[test]
fn compare_and_report_run_on_any_fixture_list() {
    let d = Dir::new();
    d.write("league.toml", MID_DOWNS);
    let args = ["--threads", "1", "--time-limit", "4"];
    for (out, seed) in [("a.csv", "1"), ("b.csv", "2")] {
        let mut a = vec!["solve", "league.toml", "-o", out, "--seed", seed];
        a.extend(args);
        assert_eq!(code(&d.run(&a)), 0);
    }
    let o = d.run(&[
        "compare",
        "league.toml",
        "a.csv",
        "b.csv",
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["lists"], serde_json::json!(["a.csv", "b.csv"]));
    let o = d.run(&["compare", "league.toml", "a.csv", "missing.csv"]);
    assert_eq!(code(&o), 1);
    assert!(text(&o.stderr).contains("missing.csv"));

    let o = d.run(&["report", "league.toml", "a.csv", "-o", "site"]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert!(d.path("site/index.html").exists());
    let names: Vec<String> = std::fs::read_dir(d.path("site/ics"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let teams = names
        .iter()
        .filter(|n| !n.starts_with("club-") && !n.starts_with("division-"));
    assert_eq!(
        teams.count(),
        7,
        "one calendar per team, besides clubs' and divisions': {names:?}"
    );
    assert!(
        names.iter().any(|n| n.starts_with("club-"))
            && names.iter().any(|n| n.starts_with("division-"))
    );
    let o = d.run(&["report", "league.toml", "a.csv", "-o", "b.csv"]);
    assert_eq!(code(&o), 1, "-o must not be a file");
}

#[test]
fn an_impossible_league_explains_itself_as_json() {
    // Three teams on Mondays, A1 and B1 both away on the first of three: one relaxation.
    let d = Dir::new();
    let mut toml = String::from(
        "name = \"Tight\"\nstart = 2027-01-04\nend = 2027-01-24\n\n[rules]\nmin_days_between = 7\nsame_club_first = false\n\n[[division]]\nname = \"D\"\n\n",
    );
    for c in ["A", "B", "C"] {
        toml += &format!("[[venue]]\nname = \"{c} Hall\"\n\n[[club]]\nname = \"{c}\"\nvenue = \"{c} Hall\"\nnights = [\"Mon\"]\n\n");
    }
    for (t, c, extra) in [
        ("A1", "A", "unavailable = [2027-01-04]"),
        ("B1", "B", "unavailable = [2027-01-04]"),
        ("C1", "C", ""),
    ] {
        toml += &format!("[[team]]\nname = \"{t}\"\nclub = \"{c}\"\ndivision = \"D\"\n{extra}\n\n");
    }
    d.write("tight.toml", &toml);
    let o = d.run(&[
        "solve",
        "tight.toml",
        "--explain-json",
        "--threads",
        "1",
        "--time-limit",
        "20",
    ]);
    assert_eq!(code(&o), 2, "{}", text_of(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["status"], "infeasible");
    assert_eq!(v["relaxations"][0]["rule"], "unavailable");
    assert_eq!(v["relaxations"][0]["dates"][0], "2027-01-04");
    assert!(text(&o.stderr).contains("could play on 1 of its unavailable dates (2027-01-04)"));
    // A three-team model is solved to the end: the relaxation is proven the fewest.
    assert_eq!(v["relaxations_proven_fewest"], true, "{v}");
    assert!(
        text(&o.stderr).contains("proven the fewest relaxations"),
        "{}",
        text(&o.stderr)
    );
}

fn text_of(o: &Output) -> String {
    format!("{}\n{}", text(&o.stdout), text(&o.stderr))
}

#[test]
fn berger_cup_draw_scheveningen_and_pair_commands() {
    let d = Dir::new();
    let o = d.run(&["berger", "4"]);
    assert_eq!(
        text(&o.stdout),
        "Rd  1: 1-4  2-3\nRd  2: 4-3  1-2\nRd  3: 2-4  3-1\n"
    );
    let o = d.run(&["scheveningen"]);
    assert!(text(&o.stdout).starts_with("Round 1: V1-H1  V2-H2"));
    d.write("gtcl.toml", include_str!("../instances/gtcl-2009-10.toml"));
    let a = d.run(&["cup-draw", "gtcl.toml", "--seed", "5"]);
    let b = d.run(&["cup-draw", "gtcl.toml", "--seed", "5"]);
    assert_eq!(code(&a), 0);
    assert_eq!(a.stdout, b.stdout, "a seed gives one draw");
    // Pair round 2 of the Premier League from a round-1 results file.
    d.write(
        "results.csv",
        "round,home,away,home_points,away_points\n1,Annex A,Hart House A,3,1\n1,Willowdale A,Aurora A,2,2\n1,Pinoy A,Scarborough A,0.5,3.5\n",
    );
    let o = d.run(&[
        "pair",
        "gtcl.toml",
        "--division",
        "Premier League",
        "--round",
        "2",
        "--results",
        "results.csv",
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert_eq!(out.lines().count(), 4, "{out}");
    for (a, b) in [
        ("Annex A", "Hart House A"),
        ("Willowdale A", "Aurora A"),
        ("Pinoy A", "Scarborough A"),
    ] {
        for line in out.lines() {
            assert!(
                !(line.contains(a) && line.contains(b)),
                "repeat pairing: {line}"
            );
        }
    }
    let o = d.run(&["pair", "gtcl.toml", "--round", "2"]);
    assert_eq!(code(&o), 1, "two divisions: --division is needed");
}

#[test]
fn four_ncl_pools_then_split() {
    let d = Dir::new();
    d.write(
        "4ncl.toml",
        include_str!("../instances/competitions/4ncl-2026-27-division-1.toml"),
    );
    let o = d.run(&["pools", "4ncl.toml", "-o", "prelim.csv"]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let prelim = std::fs::read_to_string(d.path("prelim.csv")).unwrap();
    assert_eq!(prelim.lines().count(), 1 + 56);
    assert!(text(&o.stderr).contains("pool A (mean rating"));
    // The preliminary list is a fixture list `check` accepts.
    let c = d.run(&["check", "4ncl.toml", "prelim.csv"]);
    assert_eq!(code(&c), 0, "{}", text(&c.stdout));
    // Results of rounds 1-7: every home team wins 5-3.
    let mut results = String::from("round,home,away,home_points,away_points\n");
    for line in prelim.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        results += &format!("{},{},{},5,3\n", f[5], f[2], f[3]);
    }
    d.write("results.csv", &results);
    let o = d.run(&[
        "split",
        "4ncl.toml",
        "--results",
        "results.csv",
        "-o",
        "final.csv",
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let fin = std::fs::read_to_string(d.path("final.csv")).unwrap();
    assert_eq!(fin.lines().count(), 1 + 32);
    assert!(fin
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("2027-03-14,Division 1,"));
    assert!(text(&o.stderr).contains("24 of 56 preliminary results carried forward"));
    // The whole season, rounds 1-11, passes `check`; a round with a team missing does not.
    let season = prelim.clone()
        + &fin
            .lines()
            .skip(1)
            .map(|l| format!("{l}\n"))
            .collect::<String>();
    d.write("season.csv", &season);
    let c = d.run(&["check", "4ncl.toml", "season.csv"]);
    assert_eq!(code(&c), 0, "{}", text(&c.stdout));
    // Rule 6.3 from the list: rounds 1-7 within the two pools, rounds 8-11 across them.
    let mut lines: Vec<Vec<String>> = season
        .lines()
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    let across = {
        let mut l = lines.clone();
        // Round 1: the first four rows are pool A's, the next four pool B's.
        let (x, y) = (l[1][3].clone(), l[5][3].clone());
        l[1][3] = y;
        l[5][3] = x;
        l
    };
    let home = lines[57][2].clone();
    let met = lines[1..57]
        .iter()
        .find(|f| f[2] == home)
        .map(|f| f[3].clone())
        .unwrap();
    lines[57][3] = met;
    for (name, rows, rule) in [
        ("across.csv", across, "[4NCL pools]"),
        ("inside.csv", lines, "[4NCL split]"),
    ] {
        let csv: String = rows.iter().map(|f| f.join(",") + "\n").collect();
        d.write(name, &csv);
        let c = d.run(&["check", "4ncl.toml", name]);
        assert_eq!(code(&c), 1, "{name}");
        assert!(
            text(&c.stdout).contains(rule),
            "{name}: {}",
            text(&c.stdout)
        );
    }
    let short: String = season
        .lines()
        .take(season.lines().count() - 1)
        .map(|l| format!("{l}\n"))
        .collect();
    d.write("short.csv", &short);
    let c = d.run(&["check", "4ncl.toml", "short.csv"]);
    assert_eq!(code(&c), 1);
    assert!(
        text(&c.stdout).contains("[5 rounds]"),
        "{}",
        text(&c.stdout)
    );
    // Regression: split once went on without the checks pools makes (a division whose size is
    // no multiple of four could panic); now both refuse it alike.
    d.write("gtcl.toml", include_str!("../instances/gtcl-2009-10.toml"));
    for cmd in ["pools", "split"] {
        let mut args = vec![cmd, "gtcl.toml", "--division", "Premier League"];
        if cmd == "split" {
            args.extend(["--results", "results.csv"]);
        }
        let o = d.run(&args);
        assert_eq!(code(&o), 1, "{cmd}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains("two pools need a division"),
            "{}",
            text(&o.stderr)
        );
    }
}

#[test]
fn swiss_rounds_from_pair_pass_check() {
    let d = Dir::new();
    let mut league = String::from(
        "name = \"Swiss\"\nstart = 2026-10-03\nend = 2026-12-31\n\n[rules]\nmin_days_between = 1\nsame_club_first = false\nhome_away_balance = 3\n\n[[venue]]\nname = \"Hall\"\ncapacity = 10\n\n[[division]]\nname = \"Division 3\"\nformat = \"swiss\"\nvenue = \"Hall\"\nrounds = [2026-10-03, 2026-10-04, 2026-11-07]\n\n",
    );
    for i in 1..=7 {
        league += &format!("[[club]]\nname = \"C{i}\"\nvenue = \"Hall\"\nnights = [\"Sat\"]\n\n[[team]]\nname = \"T{i}\"\nclub = \"C{i}\"\ndivision = \"Division 3\"\n\n");
    }
    d.write("swiss.toml", &league);
    let mut season = String::new();
    let mut results = String::from("round,home,away,home_points,away_points\n");
    for round in 1..=3 {
        d.write("results.csv", &results);
        let r = round.to_string();
        let mut args = vec!["pair", "swiss.toml", "--round", r.as_str()];
        if round > 1 {
            args.extend(["--results", "results.csv"]);
        }
        let o = d.run(&args);
        assert_eq!(code(&o), 0, "{}", text(&o.stderr));
        let out = text(&o.stdout);
        assert_eq!(
            out.lines().count(),
            1 + 3,
            "seven teams: three pairs and a bye\n{out}"
        );
        let bye = text(&o.stderr);
        let bye_team = bye
            .split(" has the bye")
            .next()
            .unwrap()
            .rsplit(' ')
            .next()
            .unwrap()
            .to_string();
        if season.is_empty() {
            season = out.lines().next().unwrap().to_string() + "\n";
        }
        for line in out.lines().skip(1) {
            season += line;
            season += "\n";
            let f: Vec<&str> = line.split(',').collect();
            results += &format!("{round},{},{},3,1\n", f[2], f[3]);
        }
        results += &format!("{round},{bye_team},,,\n");
    }
    d.write("season.csv", &season);
    let c = d.run(&["check", "swiss.toml", "season.csv"]);
    assert_eq!(code(&c), 0, "{}\n{season}", text(&c.stdout));
}

/// The four-team league with only breaks and avoid dates weighed: proven optimal at once.
fn quick_four_teams() -> String {
    include_str!("../instances/examples/four-teams-double.toml").replace(
        "[rules]",
        "[weights]\nlong_rest = 0\nshort_rest = 0\nspread = 0\nspread_max = 0\nwinter = 0\n\n[rules]",
    )
}

#[test]
fn a_bound_above_the_objective_is_an_internal_error_never_capped() {
    let d = Dir::new();
    d.write("league.toml", &quick_four_teams());
    let o = Command::new(BIN)
        .args(["solve", "league.toml", "-o", "out.csv", "--threads", "1"])
        .env("FIXTURES_TEST_FAULT", "bound-above-objective")
        .current_dir(d.0.path())
        .output()
        .unwrap();
    assert_eq!(code(&o), 4, "{}", text_of(&o));
    assert!(
        text(&o.stderr).contains("is above the objective"),
        "{}",
        text_of(&o)
    );
    assert!(!d.path("out.csv").exists(), "no list written");
}

#[test]
fn a_gap_above_zero_never_prints_a_bare_optimal() {
    let d = Dir::new();
    d.write("league.toml", &quick_four_teams());
    for gap in ["0.05", "0.0001"] {
        let o = d.run(&[
            "solve",
            "league.toml",
            "-o",
            "out.csv",
            "--threads",
            "1",
            "--gap",
            gap,
        ]);
        assert_eq!(code(&o), 0, "{}", text_of(&o));
        let err = text(&o.stderr);
        for (i, _) in err.match_indices("optimal") {
            let rest = &err[i..];
            assert!(
                rest.starts_with("optimal within") || rest.starts_with("optimal-within"),
                "a bare \"optimal\" with --gap {gap}: {err}"
            );
        }
        assert!(err.contains("optimal within"), "{err}");
    }
    // --gap 0: proven best, and said so plainly.
    let o = d.run(&[
        "solve",
        "league.toml",
        "-o",
        "out.csv",
        "--threads",
        "1",
        "--gap",
        "0",
    ]);
    assert_eq!(code(&o), 0, "{}", text_of(&o));
    assert!(
        text(&o.stderr).contains("12 fixtures, optimal;"),
        "{}",
        text(&o.stderr)
    );
    assert!(
        text(&o.stderr).contains("status=optimal "),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn check_shows_a_bound_above_the_objective_as_a_mismatch() {
    let d = Dir::new();
    d.write("league.toml", &quick_four_teams());
    let o = d.run(&["solve", "league.toml", "-o", "out.csv", "--threads", "1"]);
    assert_eq!(code(&o), 0, "{}", text_of(&o));
    let o = d.run(&["check", "league.toml", "out.csv", "--bound", "0"]);
    assert_eq!(code(&o), 0, "{}", text_of(&o));
    assert!(
        text(&o.stdout).contains("gap: 0.00% to the bound 0.00"),
        "{}",
        text_of(&o)
    );
    let o = d.run(&["check", "league.toml", "out.csv", "--bound", "55"]);
    assert_eq!(code(&o), 1, "{}", text_of(&o));
    assert!(text(&o.stdout).contains("MISMATCH"), "{}", text_of(&o));
    assert!(!text(&o.stdout).contains("gap: 0.00%"), "{}", text_of(&o));
}

#[test]
fn a_league_with_no_teams_says_so_and_exits_1() {
    let d = Dir::new();
    d.write(
        "empty.toml",
        "name = \"Empty\"\nstart = 2026-09-01\nend = 2027-05-31\n",
    );
    let o = d.run(&["solve", "empty.toml", "-o", "out.csv"]);
    assert_eq!(code(&o), 1, "{}", text_of(&o));
    let err = text(&o.stderr);
    assert!(
        err.contains("empty.toml") && err.contains("no teams"),
        "{err}"
    );
    assert!(!err.contains("within 60 seconds"), "{err}");
}

#[test]
fn a_fixed_internal_fixture_after_latest_internal_date_is_impossible_for_both() {
    // One meaning everywhere: latest_internal_date applies to [[fixed]] fixtures too.
    let d = Dir::new();
    let league = quick_four_teams().replace(
        "min_days_between = 7",
        "min_days_between = 7\nlatest_internal_date = 2026-11-30",
    ) + "\n[[fixed]]\nhome = \"Ashby A\"\naway = \"Ashby B\"\ndate = 2027-01-11\n";
    d.write("league.toml", &league);
    let o = d.run(&["solve", "league.toml", "-o", "out.csv", "--threads", "1"]);
    assert_eq!(code(&o), 2, "{}", text_of(&o));
    assert!(
        text(&o.stderr).contains("Ashby A v Ashby B on 2027-01-11")
            && text(&o.stderr).contains("latest_internal_date"),
        "{}",
        text(&o.stderr)
    );
    // The checker reads it the same way: such a fixture breaks rule 8.
    let plain = quick_four_teams().replace(
        "min_days_between = 7",
        "min_days_between = 7\nlatest_internal_date = 2026-11-30",
    );
    d.write("plain.toml", &plain);
    let o = d.run(&["solve", "plain.toml", "-o", "plain.csv", "--threads", "1"]);
    assert_eq!(code(&o), 0, "{}", text_of(&o));
    let csv = std::fs::read_to_string(d.path("plain.csv")).unwrap();
    let moved: String = csv
        .lines()
        .map(|l| {
            if l.contains("Ashby A,Ashby B") {
                l.replacen(&l[..10], "2027-01-11", 1)
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    d.write("moved.csv", &moved);
    let o = d.run(&["check", "league.toml", "moved.csv"]);
    assert!(
        text(&o.stdout).contains("[8 latest_internal_date] Ashby A v Ashby B on 2027-01-11"),
        "{}",
        text_of(&o)
    );
}

#[test]
fn check_verifies_a_reruns_history_and_first_movable_date() {
    let d = Dir::new();
    d.write("league.toml", &quick_four_teams());
    let o = d.run(&["solve", "league.toml", "-o", "old.csv", "--threads", "1"]);
    assert_eq!(code(&o), 0, "{}", text_of(&o));
    let old = std::fs::read_to_string(d.path("old.csv")).unwrap();
    let from = "2027-01-10";
    // The list itself is a valid rerun of itself.
    let o = d.run(&[
        "check",
        "league.toml",
        "old.csv",
        "--current",
        "old.csv",
        "--from",
        from,
    ]);
    assert_eq!(code(&o), 0, "{}", text_of(&o));
    // Swap the dates of one played fixture and one later one: each rule still holds for the
    // league (both are valid dates), but history changed and a fixture moved before --from.
    let lines: Vec<&str> = old.lines().collect();
    let played = (1..lines.len()).find(|&i| &lines[i][..10] < from).unwrap();
    let later = (1..lines.len())
        .rev()
        .find(|&i| &lines[i][..10] >= from)
        .unwrap();
    let mut new: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let (dp, dl) = (&lines[played][..10], &lines[later][..10]);
    new[played] = lines[played].replacen(dp, dl, 1);
    new[later] = lines[later].replacen(dl, dp, 1);
    d.write("new.csv", &new.join("\n"));
    let o = d.run(&[
        "check",
        "league.toml",
        "new.csv",
        "--current",
        "old.csv",
        "--from",
        from,
    ]);
    assert_eq!(code(&o), 1, "{}", text_of(&o));
    let out = text(&o.stdout);
    assert!(out.contains("[rerun history]"), "{out}");
    assert!(out.contains("[rerun from]"), "{out}");
}

#[test]
fn a_draft_that_cannot_differ_enough_says_why() {
    // Two teams meet once, and the season has one Monday: no second draft can put the fixture
    // on another date.
    let d = Dir::new();
    let league = "name = \"Pair\"\nstart = 2027-01-04\nend = 2027-01-10\n\n[rules]\nmin_days_between = 7\n\n[[venue]]\nname = \"Hall\"\ncapacity = 2\n\n[[club]]\nname = \"A\"\nvenue = \"Hall\"\nnights = [\"Mon\"]\n\n[[club]]\nname = \"B\"\nvenue = \"Hall\"\nnights = [\"Mon\"]\n\n[[division]]\nname = \"D\"\n\n[[team]]\nname = \"A1\"\nclub = \"A\"\ndivision = \"D\"\n\n[[team]]\nname = \"B1\"\nclub = \"B\"\ndivision = \"D\"\n";
    d.write("league.toml", league);
    let o = two_drafts(&d, "10");
    assert_eq!(code(&o), 2, "{}", text_of(&o));
    let err = text(&o.stderr);
    assert!(
        err.contains("draft-2: no draft puts enough of its fixtures on other dates"),
        "{err}"
    );
    assert!(err.contains("1 of 2 drafts written"), "{err}");
    assert!(d.path("drafts/draft-1.csv").exists());
    assert!(!d.path("drafts/draft-2.csv").exists());
}

/// Issue 46: `fixtures check INSTANCE.xml SOLUTION.xml` scores a RobinX (ITC2021) solution as
/// the competition did; a schedule with its venues swapped breaks hard constraints (exit 1);
/// a file that is no solution is refused by name.
#[test]
fn check_scores_an_itc2021_solution() {
    let d = Dir::new();
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/check/tests/itc2021");
    let instance = here.join("ITC2021_Early_1.xml");
    let best = here.join("ITC2021_Early_1_best.xml");
    let arg = |p: &Path| p.to_str().unwrap().to_string();
    let o = d.run(&["check", &arg(&instance), &arg(&best)]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("0 hard violations, objective 362"),
        "{}",
        text(&o.stdout)
    );
    let swapped = std::fs::read_to_string(&best)
        .unwrap()
        .replace("home=", "was_home=")
        .replace("away=", "home=")
        .replace("was_home=", "away=");
    let spoiled = d.write("swapped.xml", &swapped);
    let o = d.run(&["check", &arg(&instance), &arg(&spoiled)]);
    assert_eq!(code(&o), 1);
    assert!(
        !text(&o.stdout).contains(" 0 hard violations"),
        "{}",
        text(&o.stdout)
    );
    let not = d.write("not.xml", "<Solution></Solution>");
    let o = d.run(&["check", &arg(&instance), &arg(&not)]);
    assert_eq!(code(&o), 1);
    assert!(
        text(&o.stderr).contains("not a RobinX solution"),
        "{}",
        text(&o.stderr)
    );
}

/// `fixtures robinx` solves a small ITC2021 instance (bounded by moves), writes the
/// competition's solution XML, which `fixtures check` accepts; it refuses to write over the
/// instance, and an instance that is not a compact double round robin is refused by name.
#[test]
fn robinx_solves_an_itc2021_instance() {
    let d = Dir::new();
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/check/tests/itc2021");
    let instance = here.join("Addition_000_Tiny.xml");
    let arg = |p: &Path| p.to_str().unwrap().to_string();
    let out = d.0.path().join("solution.xml");
    let o = d.run(&[
        "robinx",
        &arg(&instance),
        "-o",
        &arg(&out),
        "--threads",
        "1",
        "--steps",
        "200000",
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("hard violations 0"),
        "{}",
        text(&o.stderr)
    );
    let o = d.run(&["check", &arg(&instance), &arg(&out)]);
    assert_eq!(code(&o), 0, "{}", text(&o.stdout));
    assert!(
        text(&o.stdout).contains(" 0 hard violations"),
        "{}",
        text(&o.stdout)
    );
    // The instance itself is never the output.
    let o = d.run(&[
        "robinx",
        &arg(&instance),
        "-o",
        &arg(&instance),
        "--steps",
        "10",
    ]);
    assert_eq!(code(&o), 1);
    assert!(
        text(&o.stderr).contains("over an input"),
        "{}",
        text(&o.stderr)
    );
    // Five teams cannot all play in every slot.
    let odd = std::fs::read_to_string(&instance)
        .unwrap()
        .replace("<team id=\"5\"", "<notateam id=\"5\"");
    let odd = d.write("odd.xml", &odd);
    let o = d.run(&["robinx", &arg(&odd), "--steps", "10"]);
    assert_eq!(code(&o), 1);
    assert!(text(&o.stderr).contains("5 teams"), "{}", text(&o.stderr));
}
