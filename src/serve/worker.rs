//! Workers: claim queued jobs from the store, solve them through the pipeline on a blocking
//! thread, renew the lease while solving, and store the checked result.
//!
//! Any number of workers, in `fixtures serve` or as `fixtures worker` on other machines, share
//! one store. A worker killed mid-solve loses nothing: its lease runs out and another worker
//! claims the job again. A result is stored only by the attempt that holds the job (the store
//! fences the write), so no job is completed twice. Cancel reaches a job on any worker: the
//! next renewal finds the job no longer this attempt's, and the solve stops and stores nothing.

use crate::store::{Claim, Figures, JobState, Store};
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
    /// MiB of memory one solve may use: jobs the size model says need more fail at once, and
    /// the solve's own process cannot allocate past it.
    pub memory_mib: u64,
}

/// Default MiB of memory one solve may use: a 2-core, 4 GiB worker.
pub const DEFAULT_MEMORY_MIB: u64 = 4096;

/// Attempts at a job, counting workers that stopped while solving it (killed, or their
/// machine lost); after these the job fails with the reason instead of being tried again.
pub const MAX_ATTEMPTS: i64 = 2;

impl WorkerConfig {
    /// A worker named after this host, process and `n`, with a lease of `lease` seconds.
    pub fn new(n: usize, lease: i64, memory_mib: u64) -> WorkerConfig {
        WorkerConfig {
            name: format!("{}{n}", process_prefix()),
            lease: lease.max(2),
            idle: Duration::from_millis(250),
            memory_mib: memory_mib.max(1024),
        }
    }
}

/// The start of the names of this process's workers: host and process id.
pub fn process_prefix() -> String {
    let host = std::fs::read_to_string("/etc/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "host".into());
    format!("{host}-{}-", std::process::id())
}

/// Runs workers until SIGINT or SIGTERM, then stops their solves and hands their jobs back to
/// the queue at once (the attempt not counted), so another worker takes them up without
/// waiting for the lease.
pub async fn run_until_stopped(store: Store, workers: Vec<WorkerConfig>) {
    let stop = Arc::new(AtomicBool::new(false));
    let handles: Vec<_> = workers
        .into_iter()
        .map(|w| tokio::spawn(run(store.clone(), w, stop.clone())))
        .collect();
    stopped().await;
    stop.store(true, Ordering::Relaxed);
    release(&store, handles).await;
}

/// Stops these workers (their solves' processes are killed) and hands their jobs back.
pub async fn release(store: &Store, handles: Vec<tokio::task::JoinHandle<()>>) {
    for h in &handles {
        h.abort();
    }
    for h in handles {
        let _ = h.await;
    }
    match store.release(&process_prefix()).await {
        Ok(n) if n > 0 => eprintln!("worker: {n} jobs handed back to the queue"),
        Ok(_) => {}
        Err(e) => {
            eprintln!("worker: cannot hand jobs back ({e}); they return when their leases end")
        }
    }
}

/// Waits for SIGINT (Ctrl-C) or SIGTERM.
pub async fn stopped() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut term = match signal(SignalKind::terminate()) {
            Ok(t) => t,
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = tokio::signal::ctrl_c().await;
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
#[derive(Debug, Serialize, Deserialize)]
struct Outcome {
    state: JobState,
    figures: Figures,
    files: Vec<(String, String)>,
}

/// What the solve's process reads on its standard input.
#[derive(Serialize, Deserialize)]
struct JobInput {
    toml: String,
    spec: String,
    time_limit: f64,
    memory_mib: u64,
}

/// A line the solve's process writes on its standard output.
#[derive(Serialize, Deserialize)]
enum JobMessage {
    Progress(Figures),
    Done(Outcome),
}

/// Solves one claimed job in a process of its own (so that no job can take the worker down),
/// renewing its lease, and stores the result if the claim still holds.
async fn one(store: &Store, cfg: &WorkerConfig, claim: Claim) -> Result<(), String> {
    let outcome = if claim.attempt > MAX_ATTEMPTS {
        failed(&format!(
            "this job stopped its worker {} times while solving; it is not tried again",
            claim.attempt - 1
        ))
    } else {
        let version = store
            .version(&claim.job.version)
            .await
            .map_err(|e| e.to_string())?
            .ok_or("the job's league version is gone")?;
        let input = JobInput {
            toml: version.toml,
            spec: claim.job.spec.clone(),
            time_limit: claim.job.time_limit,
            memory_mib: cfg.memory_mib,
        };
        match watched(store, cfg, &claim, &input).await? {
            Some(o) => o,
            None => return Ok(()), // cancelled, or another worker has it: nothing is stored
        }
    };
    store
        .finish(
            &claim,
            &cfg.name,
            outcome.state,
            &outcome.figures,
            &outcome.files,
        )
        .await
        .map_err(|e| e.to_string())?;
    Ok(())
}

/// Runs the solve's process and watches it: its progress goes to the store with each lease
/// renewal, and it is killed when the claim is lost (checked every second). The outcome, or
/// `None` when the claim was lost.
async fn watched(
    store: &Store,
    cfg: &WorkerConfig,
    claim: &Claim,
    input: &JobInput,
) -> Result<Option<Outcome>, String> {
    let mut child =
        spawn_solve(cfg.memory_mib).map_err(|e| format!("cannot start a solve: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no input to the solve")?;
    let stdout = child.stdout.take().ok_or("no output from the solve")?;
    let line = serde_json::to_vec(input).map_err(|e| e.to_string())?;
    tokio::spawn(async move {
        use tokio::io::AsyncWriteExt;
        let _ = stdin.write_all(&line).await;
        let _ = stdin.shutdown().await;
    });
    let mut lines = tokio::io::AsyncBufReadExt::lines(tokio::io::BufReader::new(stdout));
    let (mut figures, mut outcome) = (Figures::default(), None);
    let renew_every = Duration::from_secs((cfg.lease / 3).max(1) as u64);
    let mut last_renewal = tokio::time::Instant::now();
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    loop {
        tokio::select! {
            line = lines.next_line() => match line {
                Ok(Some(text)) => match serde_json::from_str::<JobMessage>(&text) {
                    Ok(JobMessage::Progress(f)) => figures = f,
                    Ok(JobMessage::Done(o)) => outcome = Some(o),
                    Err(_) => {}
                },
                _ => break,
            },
            _ = tick.tick() => {
                let still = if last_renewal.elapsed() >= renew_every {
                    last_renewal = tokio::time::Instant::now();
                    store.renew(claim, &cfg.name, cfg.lease, &figures).await
                } else {
                    store.holds(claim, &cfg.name).await
                };
                // A store that does not answer keeps the solve going; a claim lost stops it.
                if let Ok(false) = still {
                    let _ = child.start_kill();
                    let _ = child.wait().await;
                    return Ok(None);
                }
            }
        }
    }
    let status = child.wait().await.map_err(|e| e.to_string())?;
    Ok(Some(outcome.unwrap_or_else(|| {
        failed(&format!(
            "the solve stopped without a result ({status}): it may have needed more than the \
             {} MiB a solve may use",
            cfg.memory_mib
        ))
    })))
}

/// Starts `fixtures solve-job` (this program) with its address space capped at `memory_mib`
/// MiB plus room for the program itself, killed if the worker drops it.
fn spawn_solve(memory_mib: u64) -> std::io::Result<tokio::process::Child> {
    let mut cmd = tokio::process::Command::new(std::env::current_exe()?);
    cmd.arg("solve-job")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
        .kill_on_drop(true);
    #[cfg(unix)]
    {
        // Address space, not resident memory: threads' stacks and the allocator's arenas take
        // address space they do not fill, hence the 1 GiB of room.
        let bytes = (memory_mib + 1024).saturating_mul(1 << 20);
        // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                let limit = libc::rlimit {
                    rlim_cur: bytes as libc::rlim_t,
                    rlim_max: bytes as libc::rlim_t,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    cmd.spawn()
}

/// This process's peak resident memory in MiB.
fn peak_mib() -> Option<u64> {
    #[cfg(unix)]
    // SAFETY: getrusage only writes the struct passed.
    unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut u) == 0 {
            return Some(u.ru_maxrss.max(0) as u64 / 1024); // KiB on Linux
        }
    }
    None
}

/// `fixtures solve-job`: the solve of one job, in a process of its own. Reads the job from
/// standard input, writes its progress and then its outcome as JSON lines.
pub fn solve_job_stdio() -> Result<(), String> {
    use std::io::{Read, Write};
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| e.to_string())?;
    let input: JobInput = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let progress = Arc::new(Mutex::new(Figures::default()));
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let p = progress.clone();
    let reporter = std::thread::spawn(move || {
        // Twice a second until the solve ends (then at once, not at the next tick).
        while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
            finished.recv_timeout(Duration::from_millis(500))
        {
            let f = p.lock().map(|f| f.clone()).unwrap_or_default();
            if let Ok(line) = serde_json::to_string(&JobMessage::Progress(f)) {
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "{line}");
                let _ = out.flush();
            }
        }
    });
    let stop = Arc::new(AtomicBool::new(false));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        execute(&input, stop, progress)
    }))
    .unwrap_or_else(|_| failed("internal error: the solver panicked (please report it)"));
    let _ = done.send(());
    let _ = reporter.join();
    let mut outcome = outcome;
    outcome.figures.peak_mib = peak_mib();
    let line = serde_json::to_string(&JobMessage::Done(outcome)).map_err(|e| e.to_string())?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}").map_err(|e| e.to_string())?;
    out.flush().map_err(|e| e.to_string())
}

fn failed(message: &str) -> Outcome {
    Outcome {
        state: JobState::Failed,
        figures: Figures {
            messages: vec![message.to_string()],
            ..Figures::default()
        },
        files: Vec::new(),
    }
}

/// Solves a job through the pipeline: only checked lists come back.
fn execute(input: &JobInput, stop: Arc<AtomicBool>, progress: Arc<Mutex<Figures>>) -> Outcome {
    let league = match model::parse_league(&input.toml, "league.toml") {
        Ok(l) => l,
        Err(e) => return failed(&e.to_string()),
    };
    if let Err(why) = pipeline::fits(&league, input.memory_mib) {
        return failed(&why.to_string());
    }
    let spec: JobSpec = serde_json::from_str(&input.spec).unwrap_or_default();
    let opts = job_options(input.time_limit, &spec, stop, progress);
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
            figures.messages = e.lines();
            return Outcome {
                state: JobState::of_failure(&e),
                figures,
                files: Vec::new(),
            };
        }
    };
    let first = &solutions[0];
    first_figures(first, &mut figures);
    files.push(("fixtures.csv".into(), first.checked.csv().to_string()));
    if spec.alternatives.is_some_and(|k| k > 1) && spec.current.is_none() {
        for (i, d) in solutions.iter().enumerate() {
            files.push((format!("draft-{}.csv", i + 1), d.checked.csv().to_string()));
        }
        figures.drafts = Some(solutions.len());
    }
    Outcome {
        state: JobState::Done,
        figures,
        files,
    }
}

/// The search's options for a job: one thread, the job's seed, stopped by `stop`, its
/// incumbent and bound reported to `progress`.
fn job_options(
    time_limit: f64,
    spec: &JobSpec,
    stop: Arc<AtomicBool>,
    progress: Arc<Mutex<Figures>>,
) -> solve::Options {
    solve::Options {
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
    }
}

/// The figures of a job's (first) list.
fn first_figures(first: &pipeline::Solution, figures: &mut Figures) {
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
        let (t, d) = model::parse_team_date(&league, item).ok_or_else(|| {
            bad(format!(
                "unavailable: \"{item}\" is not TEAM=YYYY-MM-DD with a team of the league"
            ))
        })?;
        league.teams[t].unavailable.insert(d);
    }
    let league = &league;
    let r = pipeline::rerun(league, &list.to_neutral(league), from, &gone, opts)?;
    let moves = r.count(crate::season::reschedule::Status::Moved);
    files.push(("fixtures.diff.csv".into(), r.diff_csv.clone()));
    files.push(("changes.txt".into(), r.summary.clone()));
    Ok((r.solution, moves))
}
