//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod bombs;
pub mod service;

use fixtures::check::{self, Report};
use fixtures::model::{parse_league, League};
use fixtures::solve::{self, Options, Outcome, Solved};

pub fn league(text: &str) -> League {
    match parse_league(text, "test.toml") {
        Ok(l) => l,
        Err(e) => panic!("test league does not parse:\n{e}"),
    }
}

/// Rule tests need valid schedules, not the best ones: only `avoid` is weighed.
pub fn opts() -> Options {
    Options {
        time_limit: 30.0,
        seed: 0,
        threads: 1,
        weights: Some(fixtures::model::Weights::avoid_only()),
        ..Options::default()
    }
}

pub fn solve(league: &League) -> Solved {
    solve::solve(league, &opts()).expect("solver error")
}

/// Solves and returns the schedule as CSV text, asserting the checker accepts it.
pub fn solve_valid(league: &League) -> String {
    let solved = solve(league);
    let schedule = match (&solved.outcome, &solved.schedule) {
        (Outcome::Optimal { .. } | Outcome::Feasible { .. }, Some(s)) => s,
        other => panic!("expected a schedule, got {:?}", other.0),
    };
    let csv = schedule.to_csv(league);
    let r = check_csv(league, &csv);
    assert!(
        r.is_valid(),
        "checker refuses the solver's schedule: {:#?}\n{csv}",
        r.violations
    );
    csv
}

pub fn check_csv(league: &League, csv: &str) -> Report {
    let list = check::parse_fixtures(league, csv.as_bytes(), "test.csv").expect("csv parses");
    check::check(league, &list)
}

/// The rules the checker reports for a fixture list.
pub fn broken_rules(league: &League, csv: &str) -> Vec<&'static str> {
    let mut rules: Vec<&'static str> = check_csv(league, csv)
        .violations
        .iter()
        .map(|v| v.rule)
        .collect();
    rules.sort();
    rules.dedup();
    rules
}

/// (date, home, away) rows of a fixture list CSV, skipping the header.
pub fn rows(csv: &str) -> Vec<(String, String, String)> {
    csv.lines()
        .skip(1)
        .map(|l| {
            let mut r = csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(l.as_bytes());
            let rec = r.records().next().unwrap().unwrap();
            (rec[0].to_string(), rec[2].to_string(), rec[3].to_string())
        })
        .collect()
}

#[allow(unused_imports)]
pub use fixtures::model::testing::{Lg, ALL_NIGHTS};

/// A CSV fixture list from (date, division, home, away, venue) rows.
pub fn csv_of(rows: &[(&str, &str, &str, &str, &str)]) -> String {
    let mut s = String::from("date,division,home,away,venue\n");
    for (d, div, h, a, v) in rows {
        s.push_str(&format!("{d},{div},{h},{a},{v}\n"));
    }
    s
}

/// A screenshot of `url` by headless Chromium, kept as `target/tmp/<name>`. Fails where the
/// machine has no Chromium: `scripts/test` installs Debian's `chromium` first, so a rendering
/// test never passes without rendering.
pub fn screenshot(url: &str, name: &str) -> Vec<u8> {
    let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .expect("no Chromium on this machine: run scripts/test, which installs Debian's chromium");
    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&shot);
    let out = std::process::Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--window-size=1280,900",
            &format!("--screenshot={}", shot.display()),
            url,
        ])
        .output()
        .unwrap();
    let png = std::fs::read(&shot)
        .unwrap_or_else(|_| panic!("no screenshot: {}", String::from_utf8_lossy(&out.stderr)));
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    png
}

/// Every weight 0 but breaks (the objective is the break count), one thread, 60 s.
pub fn breaks_only() -> Options {
    Options {
        time_limit: 60.0,
        threads: 1,
        weights: Some(fixtures::model::Weights {
            breaks: 1.0,
            ..fixtures::model::Weights::none()
        }),
        ..Options::default()
    }
}

/// A temporary folder to run the `fixtures` binary in, with files written into it.
pub struct Dir(tempfile::TempDir);

impl Dir {
    /// An empty folder.
    pub fn new() -> Self {
        Dir(tempfile::tempdir().unwrap())
    }
    /// A folder holding these files (name, text).
    pub fn with(files: &[(&str, &str)]) -> Self {
        let d = Dir::new();
        for (name, text) in files {
            d.write(name, text);
        }
        d
    }
    pub fn path(&self, name: &str) -> std::path::PathBuf {
        self.0.path().join(name)
    }
    pub fn write(&self, name: &str, text: &str) -> std::path::PathBuf {
        let p = self.path(name);
        std::fs::write(&p, text).unwrap();
        p
    }
    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.path(name)).unwrap()
    }
    /// Runs `fixtures` with `args` in the folder.
    pub fn run(&self, args: &[&str]) -> std::process::Output {
        std::process::Command::new(env!("CARGO_BIN_EXE_fixtures"))
            .args(args)
            .current_dir(self.0.path())
            .output()
            .unwrap()
    }
}
