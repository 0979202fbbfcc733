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
//! With `--db URL` (`run_on_store`) the scenarios become jobs of a shared store, solved by
//! whichever workers serve it.
//! Results go to `<scenario>/result/`: `fixtures.csv`, and for a rerun `fixtures.diff.csv` and
//! `changes.txt`; `row.csv` keeps the scenario's summary row, so a second run skips scenarios
//! already done (unless forced). One failing scenario never stops the others.

use crate::check;
use crate::files::write_atomically;
use crate::model::{self, parse_iso_date};
use crate::pipeline::{self, Failure, Solution};
use crate::solve::Options;
use crate::store::Store;
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
    /// The scenario's folder name.
    pub scenario: String,
    /// optimal, optimal-within, feasible, infeasible, timed-out, rejected, error, or skipped
    /// (done before).
    pub status: String,
    /// Whether the checker accepted the result (always, for a result written).
    pub valid: Option<bool>,
    /// Fixtures in the result.
    pub fixtures: Option<usize>,
    /// A rerun: fixtures moved.
    pub moves: Option<usize>,
    /// Breaks in the result.
    pub breaks: Option<usize>,
    /// Seconds the scenario took.
    pub seconds: f64,
    /// Why it has no result, if it has none.
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

/// Runs every scenario of `dir` as a job of the shared store at `db` (`fixtures batch --db`), so
/// that every worker of a cluster takes part; waits for them, writes each result (checked again
/// on arrival) and `dir/summary.csv`. The jobs belong to the account `batch` (created when
/// missing, with no usable password).
pub fn run_on_store(dir: &Path, db: &str, force: bool) -> std::io::Result<Vec<Row>> {
    let list = scenarios(dir)?;
    let io = |e: String| std::io::Error::other(e);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let rows = rt.block_on(async {
        let store = Store::open(db).await.map_err(|e| io(e.to_string()))?;
        let user = match store
            .user_named("batch")
            .await
            .map_err(|e| io(e.to_string()))?
        {
            Some(u) => u,
            None => store
                .create_user("batch", &crate::store::new_token())
                .await
                .map_err(|e| io(e.to_string()))?
                .ok_or_else(|| io("cannot create the batch account".into()))?,
        };
        let mut waiting: Vec<(PathBuf, Submitted)> = Vec::new();
        for p in &list {
            let submitted = match (force, read_row(&p.join("result").join("row.csv"))) {
                (false, Some(mut row)) => {
                    row.status = format!("skipped ({})", row.status);
                    Err(row)
                }
                _ => match read_scenario(p) {
                    Ok(sc) => submit(&store, &user, sc).await.map_err(|e| error_row(&e)),
                    Err(e) => Err(error_row(&e)),
                },
            };
            waiting.push((p.clone(), submitted));
        }
        let mut rows = Vec::new();
        for (p, submitted) in waiting {
            let name = p
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned());
            let mut row = match submitted {
                Ok((id, sc)) => collect(&store, &id, &sc, &p)
                    .await
                    .unwrap_or_else(|e| error_row(&e)),
                Err(row) => row,
            };
            row.scenario = name;
            if !row.status.starts_with("skipped") {
                let _ = std::fs::create_dir_all(p.join("result"));
                let _ =
                    write_atomically(&p.join("result").join("row.csv"), csv_text(&[row.record()]));
            }
            rows.push(row);
        }
        Ok::<_, std::io::Error>(rows)
    })?;
    let records: Vec<Vec<String>> = rows.iter().map(Row::record).collect();
    write_atomically(&dir.join("summary.csv"), csv_text(&records))?;
    Ok(rows)
}

/// A scenario submitted (its job id and what it asked for), or the row it gets without a job.
type Submitted = Result<(String, Scenario), Row>;

fn error_row(e: &str) -> Row {
    Row {
        scenario: String::new(),
        status: "error".into(),
        valid: None,
        fixtures: None,
        moves: None,
        breaks: None,
        seconds: 0.0,
        error: one_line(e),
    }
}

/// A batch queues every scenario at once: its own store, no one else's jobs to share with.
const UNCAPPED: crate::store::Caps = crate::store::Caps {
    per_account: i64::MAX,
    queue: i64::MAX,
};

/// Submits a scenario as a job: its id.
async fn submit(
    store: &Store,
    user: &crate::store::User,
    sc: Scenario,
) -> Result<(String, Scenario), String> {
    let (league, version) = store
        .create_league(user, &sc.league.name, &sc.text)
        .await
        .map_err(|e| e.to_string())?;
    let spec = crate::serve::worker::JobSpec {
        seed: Some(sc.seed),
        current: sc.current.as_ref().map(|c| c.0.clone()),
        from: sc.from.map(|d| d.to_string()),
        withdraw: sc.withdraw_names.clone(),
        ..Default::default()
    };
    let spec = serde_json::to_string(&spec).map_err(|e| e.to_string())?;
    let job = store
        .submit(user, &league, &version, &spec, sc.time_limit, UNCAPPED)
        .await
        .map_err(|e| e.to_string())?
        .map_err(|full| format!("the queue refused the job: {full:?}"))?;
    Ok((job.id, sc))
}

/// Waits for a job, checks its list again and writes the scenario's result files: its row.
async fn collect(store: &Store, id: &str, sc: &Scenario, p: &Path) -> Result<Row, String> {
    let job = loop {
        let job = store
            .job(id)
            .await
            .map_err(|e| e.to_string())?
            .ok_or("the job is gone")?;
        if !job.state.is_open() {
            break job;
        }
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    };
    let f = &job.figures;
    let mut row = Row {
        scenario: String::new(),
        status: f.status.clone().unwrap_or_else(|| job.state.to_string()),
        valid: None,
        fixtures: None,
        moves: f.moves,
        breaks: None,
        seconds: job
            .finished
            .zip(job.started)
            .map_or(0.0, |(e, s)| (e - s) as f64),
        error: one_line(&f.messages.join("\n")),
    };
    let Some(csv) = store
        .file(id, "fixtures.csv")
        .await
        .map_err(|e| e.to_string())?
    else {
        return Ok(row);
    };
    // Checked again here, against the scenario's league and rerun, before it is written.
    let (league, rerun) = match (&sc.current, sc.from) {
        (Some((_, current)), Some(from)) => {
            let plan = crate::season::reschedule::plan(&sc.league, current, from, &sc.withdraw);
            (plan.league, plan.rerun)
        }
        _ => (sc.league.clone(), crate::model::Rerun::default()),
    };
    let checked =
        pipeline::verify_text(&league, csv, &rerun, "fixtures.csv").map_err(|e| e.to_string())?;
    let out = p.join("result");
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    pipeline::save(&out.join("fixtures.csv"), &checked).map_err(|e| e.to_string())?;
    for (name, file) in [
        ("fixtures.diff.csv", "fixtures.diff.csv"),
        ("changes.txt", "changes.txt"),
    ] {
        if let Some(text) = store.file(id, name).await.map_err(|e| e.to_string())? {
            write(&out.join(file), &text)?;
        }
    }
    row.valid = Some(true);
    row.fixtures = Some(checked.report().quality.fixtures);
    row.breaks = Some(checked.report().quality.breaks);
    Ok(row)
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
    write_atomically(&dir.join("summary.csv"), csv_text(&records))?;
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
    let mut row = result.unwrap_or_else(|e| error_row(&e));
    row.scenario = name;
    row.seconds = started.elapsed().as_secs_f64();
    let _ = std::fs::create_dir_all(p.join("result"));
    let _ = write_atomically(&done, csv_text(&[row.record()]));
    row
}

fn read_row(path: &Path) -> Option<Row> {
    let mut r = csv::Reader::from_path(path).ok()?;
    let rec = r.records().next()?.ok()?;
    Row::from_record(&rec)
}

/// A scenario folder, read and checked: the league (file text and data), the options, the
/// rerun's current list, first movable date and withdrawn teams.
struct Scenario {
    text: String,
    league: model::League,
    time_limit: f64,
    seed: u64,
    current: Option<(String, crate::model::FixtureList)>,
    from: Option<chrono::NaiveDate>,
    withdraw: Vec<usize>,
    withdraw_names: Vec<String>,
}

/// Reads a scenario folder. Errors are messages for the summary.
fn read_scenario(p: &Path) -> Result<Scenario, String> {
    let league =
        model::read_league(&p.join("league.toml")).map_err(|e| one_line(&e.to_string()))?;
    let text = std::fs::read_to_string(p.join("league.toml")).map_err(|e| e.to_string())?;
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
    let current_path = p.join("current.csv");
    let current = if current_path.is_file() {
        let list = check::read_fixtures(&league, &current_path).map_err(|e| e.to_string())?;
        if let Some(bad) = list.unreadable.first() {
            return Err(format!("current.csv: {bad}"));
        }
        let csv = std::fs::read_to_string(&current_path).map_err(|e| e.to_string())?;
        Some((csv, list.to_neutral(&league)))
    } else {
        None
    };
    match (&current, from) {
        (None, Some(_)) => {
            return Err("scenario.toml sets `from` but there is no current.csv".into())
        }
        (_, None) if !withdraw.is_empty() => {
            return Err("`withdraw` needs current.csv and `from`".into())
        }
        _ => {}
    }
    Ok(Scenario {
        text,
        league,
        time_limit: spec.time_limit.unwrap_or(60.0).max(0.1),
        seed: spec.seed.unwrap_or(0),
        current,
        from,
        withdraw,
        withdraw_names: spec.withdraw,
    })
}

/// Solves one scenario into its `result/` folder. Errors are messages for the summary.
fn scenario(p: &Path) -> Result<Row, String> {
    let sc = read_scenario(p)?;
    let league = &sc.league;
    let withdraw = &sc.withdraw;
    let opts = Options {
        time_limit: sc.time_limit,
        seed: sc.seed,
        threads: 1,
        ..Options::default()
    };
    let current = sc.current.as_ref().map(|c| c.1.clone());
    let from = sc.from;
    let out_dir = p.join("result");
    std::fs::create_dir_all(&out_dir).map_err(|e| e.to_string())?;
    match (current, from) {
        (Some(current), Some(from)) => {
            match pipeline::rerun(league, &current, from, withdraw, &opts) {
                Ok(r) => {
                    let mut row = finish(&r.solution, &out_dir)?;
                    row.moves = Some(r.count(crate::season::reschedule::Status::Moved));
                    write(&out_dir.join("fixtures.diff.csv"), &r.diff_csv)?;
                    write(&out_dir.join("changes.txt"), &r.summary)?;
                    Ok(row)
                }
                Err(e) => Ok(failed(&e)),
            }
        }
        _ => match pipeline::solve(league, &opts) {
            Ok(s) => finish(&s, &out_dir),
            Err(e) => Ok(failed(&e)),
        },
    }
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    write_atomically(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn one_line(s: &str) -> String {
    s.lines().collect::<Vec<_>>().join(" | ")
}

/// The summary row of a scenario with no result.
fn failed(e: &Failure) -> Row {
    Row {
        scenario: String::new(),
        status: e.key().into(),
        valid: None,
        fixtures: None,
        moves: None,
        breaks: None,
        seconds: 0.0,
        error: one_line(&e.lines().join("\n")),
    }
}

/// Writes a checked solution's list; the summary row without moves.
fn finish(s: &Solution, out_dir: &Path) -> Result<Row, String> {
    let q = &s.checked.report().quality;
    let row = Row {
        scenario: String::new(),
        status: s.solved.outcome.key().into(),
        valid: Some(s.checked.report().is_valid()),
        fixtures: Some(q.fixtures),
        moves: None,
        breaks: Some(q.breaks),
        seconds: s.solved.seconds,
        error: String::new(),
    };
    let path = out_dir.join("fixtures.csv");
    pipeline::save(&path, &s.checked)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(row)
}
