//! `fixtures batch DIR`: many scenarios solved in parallel (`jobs` at a time, each solve on its
//! own rayon pool), one result folder each, and a
//! `summary.csv` with a row per scenario.
//!
//! A scenario is a folder of DIR holding `league.toml`, optionally `current.csv` (the fixture
//! list in force) and `scenario.toml`:
//!
//! ```toml
//! from = 2027-01-12            # reschedule: fixtures before this date are played and stay
//! withdraw = ["Lewes 2"]       # teams that leave the league
//! time_limit = 30              # seconds (default 60)
//! seed = 0
//! ```
//!
//! With `current.csv` and `from` it is a rerun (`fixtures reschedule`), else a fresh solve.
//! Results go to `<scenario>/result/`: `fixtures.csv`, and for a rerun `fixtures.diff.csv` and
//! `changes.txt`; `row.csv` keeps the scenario's summary row, so a second run skips scenarios
//! already done (unless forced). One failing scenario never stops the others.

use crate::check;
use crate::model::{self, parse_iso_date, League};
use crate::report;
use crate::reschedule;
use crate::solve::{self, Options, Outcome};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The summary columns.
pub const COLUMNS: [&str; 8] = [
    "scenario", "status", "valid", "fixtures", "moves", "breaks", "seconds", "error",
];

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    from: Option<toml::Value>,
    #[serde(default)]
    withdraw: Vec<String>,
    time_limit: Option<f64>,
    seed: Option<u64>,
}

/// One summary row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub scenario: String,
    /// optimal, feasible, infeasible, timed-out, error, or skipped (done before).
    pub status: String,
    pub valid: Option<bool>,
    pub fixtures: Option<usize>,
    pub moves: Option<usize>,
    pub breaks: Option<usize>,
    pub seconds: f64,
    pub error: String,
}

impl Row {
    fn record(&self) -> Vec<String> {
        let opt = |v: Option<usize>| v.map_or(String::new(), |n| n.to_string());
        vec![
            self.scenario.clone(),
            self.status.clone(),
            self.valid.map_or(String::new(), |v| v.to_string()),
            opt(self.fixtures),
            opt(self.moves),
            opt(self.breaks),
            format!("{:.2}", self.seconds),
            self.error.clone(),
        ]
    }

    fn from_record(r: &csv::StringRecord) -> Option<Row> {
        let num = |i: usize| r.get(i).and_then(|s| s.parse::<usize>().ok());
        Some(Row {
            scenario: r.get(0)?.to_string(),
            status: r.get(1)?.to_string(),
            valid: r.get(2).and_then(|s| s.parse().ok()),
            fixtures: num(3),
            moves: num(4),
            breaks: num(5),
            seconds: r.get(6).and_then(|s| s.parse().ok()).unwrap_or(0.0),
            error: r.get(7).unwrap_or("").to_string(),
        })
    }
}

fn csv_text(rows: &[Vec<String>]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(COLUMNS);
    for r in rows {
        let _ = w.write_record(r);
    }
    String::from_utf8_lossy(&w.into_inner().unwrap_or_default()).into_owned()
}

/// Scenario folders of `dir` (those holding a `league.toml`), sorted by name.
pub fn scenarios(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("league.toml").is_file())
        .collect();
    out.sort();
    Ok(out)
}

/// Runs every scenario of `dir` on `jobs` threads and writes `dir/summary.csv`.
pub fn run(dir: &Path, force: bool, jobs: usize) -> std::io::Result<Vec<Row>> {
    let list = scenarios(dir)?;
    // `jobs` worker threads take scenarios in turn; each scenario's solve runs its own rayon
    // pool of one search thread. (Scenarios on a rayon pool would steal one another while a
    // solve waits on its own pool, running them all at once on a shared clock.)
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done: std::sync::Mutex<Vec<(usize, Row)>> = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1).min(list.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(p) = list.get(i) else { break };
                let row = one(p, force);
                if let Ok(mut d) = done.lock() {
                    d.push((i, row));
                }
            });
        }
    });
    let mut rows = done.into_inner().unwrap_or_default();
    rows.sort_by_key(|r| r.0);
    let rows: Vec<Row> = rows.into_iter().map(|r| r.1).collect();
    let records: Vec<Vec<String>> = rows.iter().map(Row::record).collect();
    report::write_atomically(&dir.join("summary.csv"), &csv_text(&records))?;
    Ok(rows)
}

/// One scenario: skipped when done before (unless `force`), else solved; its row is saved.
fn one(p: &Path, force: bool) -> Row {
    let name = p
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let done = p.join("result").join("row.csv");
    if !force {
        if let Some(mut row) = read_row(&done) {
            row.status = format!("skipped ({})", row.status);
            return row;
        }
    }
    let started = Instant::now();
    // A panic in one scenario must not take the others down.
    let result = std::panic::catch_unwind(|| scenario(p))
        .unwrap_or_else(|_| Err("internal error: the solver panicked (please report it)".into()));
    let mut row = match result {
        Ok(row) => row,
        Err(e) => Row {
            scenario: String::new(),
            status: "error".into(),
            valid: None,
            fixtures: None,
            moves: None,
            breaks: None,
            seconds: 0.0,
            error: e,
        },
    };
    row.scenario = name;
    row.seconds = started.elapsed().as_secs_f64();
    let _ = std::fs::create_dir_all(p.join("result"));
    let _ = report::write_atomically(&done, &csv_text(&[row.record()]));
    row
}

fn read_row(path: &Path) -> Option<Row> {
    let mut r = csv::Reader::from_path(path).ok()?;
    let rec = r.records().next()?.ok()?;
    Row::from_record(&rec)
}

/// Solves one scenario into its `result/` folder. Errors are messages for the summary.
fn scenario(p: &Path) -> Result<Row, String> {
    let league =
        model::read_league(&p.join("league.toml")).map_err(|e| one_line(&e.to_string()))?;
    let spec: ScenarioFile = match std::fs::read_to_string(p.join("scenario.toml")) {
        Ok(text) => toml::from_str(&text)
            .map_err(|e| one_line(&format!("{}: {e}", p.join("scenario.toml").display())))?,
        Err(_) => ScenarioFile::default(),
    };
    let from = match &spec.from {
        None => None,
        Some(v) => {
            let s = match v {
                toml::Value::Datetime(d) => d.to_string(),
                toml::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            Some(parse_iso_date(&s).ok_or_else(|| {
                format!("scenario.toml: key `from`: \"{s}\" is not a date (YYYY-MM-DD)")
            })?)
        }
    };
    let mut withdraw = Vec::new();
    for name in &spec.withdraw {
        withdraw.push(
            league
                .team_by_name(name)
                .ok_or_else(|| format!("scenario.toml: key `withdraw`: no team \"{name}\""))?,
        );
    }
    let opts = Options {
        time_limit: spec.time_limit.unwrap_or(60.0).max(0.1),
        seed: spec.seed.unwrap_or(0),
        threads: 1,
        ..Options::default()
    };
    let current_path = p.join("current.csv");
    let current = if current_path.is_file() {
        let list = check::read_fixtures(&league, &current_path).map_err(|e| e.to_string())?;
        if let Some(bad) = list.unreadable.first() {
            return Err(format!("current.csv: {bad}"));
        }
        Some(list.rows)
    } else {
        None
    };
    let out_dir = p.join("result");
    std::fs::create_dir_all(&out_dir).map_err(|e| e.to_string())?;
    match (current, from) {
        (Some(rows), Some(from)) => {
            let plan = reschedule::plan(&league, &rows, from, &withdraw);
            let solved =
                solve::solve(&plan.league, &plan.options(&opts)).map_err(|e| e.to_string())?;
            let mut row = finish(&plan.league, &solved, &out_dir)?;
            if let Some(s) = &solved.schedule {
                let changes = reschedule::diff(&league, &rows, s);
                row.moves = Some(
                    changes
                        .iter()
                        .filter(|c| c.status == reschedule::Status::Moved)
                        .count(),
                );
                write(
                    &out_dir.join("fixtures.diff.csv"),
                    &reschedule::diff_csv(&league, &changes),
                )?;
                write(
                    &out_dir.join("changes.txt"),
                    &reschedule::club_summary(&league, &changes),
                )?;
            }
            Ok(row)
        }
        (None, Some(_)) => Err("scenario.toml sets `from` but there is no current.csv".into()),
        _ => {
            if !withdraw.is_empty() {
                return Err("`withdraw` needs current.csv and `from`".into());
            }
            let solved = solve::solve(&league, &opts).map_err(|e| e.to_string())?;
            finish(&league, &solved, &out_dir)
        }
    }
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    report::write_atomically(path, text)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn one_line(s: &str) -> String {
    s.lines().collect::<Vec<_>>().join(" | ")
}

/// Checks and writes a solve's schedule; the summary row without moves.
fn finish(league: &League, solved: &solve::Solved, out_dir: &Path) -> Result<Row, String> {
    let status = match &solved.outcome {
        Outcome::Optimal => "optimal",
        Outcome::Feasible { .. } => "feasible",
        Outcome::Infeasible(_) => "infeasible",
        Outcome::TimedOut => "timed-out",
    };
    let mut row = Row {
        scenario: String::new(),
        status: status.into(),
        valid: None,
        fixtures: None,
        moves: None,
        breaks: None,
        seconds: solved.seconds,
        error: String::new(),
    };
    let Some(schedule) = &solved.schedule else {
        if let Outcome::Infeasible(reasons) = &solved.outcome {
            row.error = reasons.join("; ");
        }
        return Ok(row);
    };
    let csv = report::csv_string(league, schedule);
    let list =
        check::parse_fixtures(league, csv.as_bytes(), "result").map_err(|e| e.to_string())?;
    let r = check::check(league, &list);
    row.valid = Some(r.is_valid());
    row.fixtures = Some(r.quality.fixtures);
    row.breaks = Some(r.quality.breaks);
    write(&out_dir.join("fixtures.csv"), &csv)?;
    Ok(row)
}
