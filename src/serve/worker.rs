//! Workers: claim queued jobs from the store, solve them through the pipeline on a blocking
//! thread, renew the lease while solving, and store the checked result.
//!
//! Any number of workers, in `fixtures serve` or as `fixtures worker` on other machines, share
//! one store. A worker killed mid-solve loses nothing: its lease runs out and another worker
//! claims the job again. A result is stored only by the attempt that holds the job (the store
//! fences the write), so no job is completed twice. Cancel reaches a job on any worker: the
//! next renewal finds the job no longer this attempt's, and the solve stops and stores nothing.

use crate::store::{Claim, Figures, Store};
use crate::{check, model, pipeline, solve};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What a job asks for besides the league file (stored as its `spec`, JSON).
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct JobSpec {
    /// Drafts to solve (1 to 5).
    #[serde(default)]
    pub alternatives: Option<usize>,
    /// The random seed.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Rescheduling: the fixture list in force (CSV text).
    #[serde(default)]
    pub current: Option<String>,
    /// Rescheduling: the first date that may change.
    #[serde(default)]
    pub from: Option<String>,
    /// Rescheduling: teams that withdraw.
    #[serde(default)]
    pub withdraw: Vec<String>,
    /// Rescheduling: the publication the current list comes from (its diff is kept when the
    /// result is published).
    #[serde(default)]
    pub rerun_of: Option<String>,
    /// Rescheduling: a postponement, as new dates teams cannot play ("TEAM=YYYY-MM-DD").
    #[serde(default)]
    pub unavailable: Vec<String>,
}

/// A worker's settings.
#[derive(Debug, Clone)]
pub struct WorkerConfig {
    /// Its name in the store (host and process).
    pub name: String,
    /// Seconds a claim lasts without renewal.
    pub lease: i64,
    /// Seconds between looks at an empty queue.
    pub idle: Duration,
}

impl WorkerConfig {
    /// A worker named after this host, process and `n`, with a lease of `lease` seconds.
    pub fn new(n: usize, lease: i64) -> WorkerConfig {
        let host = std::fs::read_to_string("/etc/hostname")
            .map(|h| h.trim().to_string())
            .unwrap_or_else(|_| "host".into());
        WorkerConfig {
            name: format!("{host}-{}-{n}", std::process::id()),
            lease: lease.max(2),
            idle: Duration::from_millis(250),
        }
    }
}

/// Runs a worker until `stop` is set: claim, solve, store; again.
pub async fn run(store: Store, cfg: WorkerConfig, stop: Arc<AtomicBool>) {
    while !stop.load(Ordering::Relaxed) {
        match store.claim(&cfg.name, cfg.lease).await {
            Ok(Some(claim)) => {
                if let Err(e) = one(&store, &cfg, claim).await {
                    eprintln!("worker {}: {e}", cfg.name);
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
            Ok(None) => tokio::time::sleep(cfg.idle).await,
            Err(e) => {
                eprintln!("worker {}: cannot claim a job: {e}", cfg.name);
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// What a solve produced: the job's final state, figures and files.
struct Outcome {
    state: String,
    figures: Figures,
    files: Vec<(String, String)>,
}

/// Solves one claimed job, renewing its lease, and stores the result if the claim still holds.
async fn one(store: &Store, cfg: &WorkerConfig, claim: Claim) -> Result<(), String> {
    let version = store
        .version(&claim.job.version)
        .await
        .map_err(|e| e.to_string())?
        .ok_or("the job's league version is gone")?;
    let stop = Arc::new(AtomicBool::new(false));
    let progress = Arc::new(Mutex::new(Figures::default()));
    let (toml, spec, limit) = (version.toml, claim.job.spec.clone(), claim.job.time_limit);
    let (s, p) = (stop.clone(), progress.clone());
    let mut solving = tokio::task::spawn_blocking(move || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            execute(&toml, &spec, limit, s, p)
        }))
        .unwrap_or_else(|_| failed("internal error: the solver panicked (please report it)"))
    });
    let every = Duration::from_secs((cfg.lease / 3).max(1) as u64);
    let mut held = true;
    let outcome = loop {
        tokio::select! {
            done = &mut solving => break done.map_err(|e| e.to_string())?,
            _ = tokio::time::sleep(every) => {
                let figures = progress.lock().map(|f| f.clone()).unwrap_or_default();
                // A store that does not answer keeps the solve going; a claim lost stops it.
                if let Ok(false) = store.renew(&claim, &cfg.name, cfg.lease, &figures).await {
                    held = false;
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    };
    if !held {
        return Ok(()); // cancelled, or another worker has it: nothing is stored
    }
    store
        .finish(
            &claim,
            &cfg.name,
            &outcome.state,
            &outcome.figures,
            &outcome.files,
        )
        .await
        .map_err(|e| e.to_string())?;
    Ok(())
}

fn failed(message: &str) -> Outcome {
    Outcome {
        state: "failed".into(),
        figures: Figures {
            messages: vec![message.to_string()],
            ..Figures::default()
        },
        files: Vec::new(),
    }
}

/// Solves a job through the pipeline: only checked lists come back.
fn execute(
    toml: &str,
    spec: &str,
    time_limit: f64,
    stop: Arc<AtomicBool>,
    progress: Arc<Mutex<Figures>>,
) -> Outcome {
    let league = match model::parse_league(toml, "league.toml") {
        Ok(l) => l,
        Err(e) => return failed(&e.to_string()),
    };
    let spec: JobSpec = serde_json::from_str(spec).unwrap_or_default();
    let opts = solve::Options {
        time_limit,
        threads: 1,
        seed: spec.seed.unwrap_or(0),
        cancel: Some(stop),
        on_progress: Some(solve::ProgressSink(Arc::new(move |inc, bound, _| {
            if let Ok(mut f) = progress.lock() {
                if inc.is_finite() {
                    f.incumbent = Some(inc);
                }
                if bound.is_finite() {
                    f.bound = Some(bound);
                }
            }
        }))),
        ..solve::Options::default()
    };
    let mut figures = Figures::default();
    let mut files = Vec::new();
    let solutions = match (&spec.current, &spec.from) {
        (Some(current), Some(from)) => {
            rerun(&league, current, from, &spec, &opts, &mut files).map(|(s, moves)| {
                figures.moves = Some(moves);
                vec![s]
            })
        }
        _ => match spec.alternatives {
            Some(k) if k > 1 => pipeline::drafts(&league, &opts, k).map(|d| {
                if let Some(why) = &d.stopped {
                    figures.messages = why.lines();
                }
                d.drafts
            }),
            _ => pipeline::solve(&league, &opts).map(|s| vec![s]),
        },
    };
    let solutions = match solutions {
        Ok(s) => s,
        Err(e) => {
            let state = match &e {
                pipeline::Failure::Infeasible { .. } => "infeasible",
                pipeline::Failure::TimedOut { .. } => "timed-out",
                pipeline::Failure::Cancelled => "cancelled",
                _ => "failed",
            };
            figures.messages = e.lines();
            return Outcome {
                state: state.into(),
                figures,
                files: Vec::new(),
            };
        }
    };
    let first = &solutions[0];
    let q = &first.checked.report().quality;
    figures.valid = Some(true);
    figures.fixtures = Some(q.fixtures);
    figures.breaks = Some(q.breaks);
    figures.incumbent = first.solved.objective;
    figures.bound = first.solved.bound;
    figures.status = Some(first.solved.outcome.key().into());
    figures.gap = first
        .solved
        .objective
        .zip(first.solved.bound)
        .map(|(o, b)| solve::relative_gap(o, b));
    files.push(("fixtures.csv".into(), first.checked.csv().to_string()));
    if spec.alternatives.is_some_and(|k| k > 1) && spec.current.is_none() {
        for (i, d) in solutions.iter().enumerate() {
            files.push((format!("draft-{}.csv", i + 1), d.checked.csv().to_string()));
        }
        figures.drafts = Some(solutions.len());
    }
    Outcome {
        state: "done".into(),
        figures,
        files,
    }
}

/// A rerun: the new list and the fixtures moved; the diff and club summary among the files.
fn rerun(
    league: &model::League,
    current: &str,
    from: &str,
    spec: &JobSpec,
    opts: &solve::Options,
    files: &mut Vec<(String, String)>,
) -> Result<(pipeline::Solution, usize), pipeline::Failure> {
    let bad = |e: String| pipeline::Failure::Solver(e);
    let from = model::parse_iso_date(from).ok_or_else(|| bad("from is not a date".into()))?;
    let list = check::parse_fixtures(league, current.as_bytes(), "current.csv")
        .map_err(|e| bad(e.to_string()))?;
    if let Some(v) = list.unreadable.first() {
        return Err(bad(format!("current.csv: {v}")));
    }
    let mut gone = Vec::new();
    for t in &spec.withdraw {
        gone.push(
            league
                .team_by_name(t)
                .ok_or_else(|| bad(format!("withdraw: no team \"{t}\" in the league")))?,
        );
    }
    // A postponement: the team cannot play on the date; the rerun moves what must move.
    let mut league = league.clone();
    for item in &spec.unavailable {
        let parsed = item.rsplit_once('=').and_then(|(t, d)| {
            Some((
                league.team_by_name(t.trim())?,
                model::parse_iso_date(d.trim())?,
            ))
        });
        let (t, d) = parsed.ok_or_else(|| {
            bad(format!(
                "unavailable: \"{item}\" is not TEAM=YYYY-MM-DD with a team of the league"
            ))
        })?;
        league.teams[t].unavailable.insert(d);
    }
    let league = &league;
    let r = pipeline::rerun(league, &list.to_neutral(league), from, &gone, opts)?;
    let moves = r.count(crate::reschedule::Status::Moved);
    files.push(("fixtures.diff.csv".into(), r.diff_csv.clone()));
    files.push(("changes.txt".into(), r.summary.clone()));
    Ok((r.solution, moves))
}
