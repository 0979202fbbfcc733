//! `fixtures serve`: the optimiser as a small HTTP service with a web page.
//!
//! - JSON API on axum: submit a league (`POST /api/jobs`, the TOML as the body), watch it
//!   (`GET /api/jobs/{id}`: state, progress, figures, errors in the CLI's words), fetch the
//!   result (`fixtures.csv`, the published site under `report/`, calendars under `ics/`), cancel
//!   (`DELETE`), check any list (`POST /api/check`); `GET /api/openapi.json` describes it all.
//! - Jobs run on `workers` threads fed by a bounded queue; beyond it the API answers 429 with
//!   Retry-After. Every job lives in `DATA/jobs/<id>/` (league, status, result) written through
//!   temporary files and renames, so a restart loses no finished result; jobs that were queued
//!   or running when the service stopped are marked failed ("interrupted by a restart").
//! - Request bodies are limited to 4 MiB; job ids and report file names are checked against a
//!   strict alphabet, so no request reaches the file system outside `DATA`.

mod page;

use crate::files::write_atomically;
use crate::{check, model, pipeline, report, solve};
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path as UrlPath, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Largest request body.
pub const MAX_BODY: usize = 4 * 1024 * 1024;
/// Longest time limit a job may ask for.
pub const MAX_TIME_LIMIT: f64 = 600.0;

/// A job's state, as stored in `status.json` and returned by the API.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Status {
    /// The job's id.
    pub id: String,
    /// queued, running, done, infeasible, timed-out, failed, cancelled
    pub state: String,
    /// The league's name.
    pub league: String,
    /// Seconds the solve may take.
    pub time_limit: f64,
    /// When it was submitted (Unix seconds).
    pub submitted: u64,
    /// Seconds since the job started, while it runs; its total when it ends.
    pub elapsed: f64,
    /// The best objective so far.
    pub incumbent: Option<f64>,
    /// The best proven bound so far.
    pub bound: Option<f64>,
    /// The proven relative gap, when the job is done.
    pub gap: Option<f64>,
    /// Fixtures in the result.
    pub fixtures: Option<usize>,
    /// Breaks in the result.
    pub breaks: Option<usize>,
    /// Whether the checker accepted the result (always, for a result offered).
    pub valid: Option<bool>,
    /// Why the job failed or has no schedule, in the words of the CLI.
    pub messages: Vec<String>,
    /// Rescheduling: fixtures moved from the current list.
    #[serde(default)]
    pub moves: Option<usize>,
    /// Alternative drafts written (`files/draft-N.csv`).
    #[serde(default)]
    pub drafts: Option<usize>,
}

/// What a job asks for besides the league file (stored as `job.json`).
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct JobSpec {
    #[serde(default)]
    /// Drafts to solve (1 to 5).
    pub alternatives: Option<usize>,
    #[serde(default)]
    /// The random seed.
    pub seed: Option<u64>,
    /// Rescheduling: the current fixture list (CSV text), the first date that may change, and
    /// teams that withdraw.
    #[serde(default)]
    pub current: Option<String>,
    #[serde(default)]
    /// Rescheduling: the first date that may change.
    pub from: Option<String>,
    #[serde(default)]
    /// Rescheduling: teams that withdraw.
    pub withdraw: Vec<String>,
}

/// A JSON job: the league file and the options.
#[derive(Debug, Deserialize)]
struct JsonJob {
    league: String,
    time_limit: Option<f64>,
    #[serde(flatten)]
    spec: JobSpec,
}

struct Job {
    status: Status,
    started: Option<Instant>,
    cancel: bool,
    /// Tells a running solve to stop.
    stop: Arc<std::sync::atomic::AtomicBool>,
}

struct App {
    data: PathBuf,
    jobs: Mutex<HashMap<String, Job>>,
    queue: SyncSender<String>,
    next: AtomicU64,
}

type Shared = Arc<App>;

/// Runs the service until interrupted. Prints "listening on http://ADDR" on stderr.
pub fn serve(bind: &str, data: &Path, workers: usize, queue: usize) -> std::io::Result<()> {
    std::fs::create_dir_all(data.join("jobs"))?;
    let (tx, rx) = sync_channel::<String>(queue.max(1));
    let app = Arc::new(App {
        data: data.to_path_buf(),
        jobs: Mutex::new(recover(data)?),
        queue: tx,
        next: AtomicU64::new(0),
    });
    let rx = Arc::new(Mutex::new(rx));
    for _ in 0..workers.max(1) {
        let (app, rx) = (app.clone(), rx.clone());
        std::thread::spawn(move || worker(app, rx));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(bind).await?;
        eprintln!("listening on http://{}", listener.local_addr()?);
        axum::serve(listener, router(app))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
    })
}

fn router(app: Shared) -> Router {
    Router::new()
        .route("/", get(|| async { Html(page::PAGE) }))
        .route("/api/openapi.json", get(openapi))
        .route("/api/jobs", post(submit))
        .route("/api/jobs/{id}", get(status).delete(cancel))
        .route("/api/jobs/{id}/fixtures.csv", get(fixtures_csv))
        .route("/api/jobs/{id}/report/", get(report_index))
        .route("/api/jobs/{id}/report/{file}", get(report_file))
        .route("/api/jobs/{id}/report/ics/{file}", get(ics_file))
        .route("/api/jobs/{id}/ics/{file}", get(ics_file))
        .route("/api/jobs/{id}/files/{file}", get(job_file))
        .route("/api/check", post(check_list))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Ids and file names: lowercase letters, digits, '-', '_' and '.', no "..": nothing a request
/// names can leave the job's folder.
fn safe(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 200
        && !name.contains("..")
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_.".contains(&b))
}

fn job_dir(app: &App, id: &str) -> PathBuf {
    app.data.join("jobs").join(id)
}

fn save(app: &App, s: &Status) {
    if let Ok(text) = serde_json::to_string_pretty(s) {
        let _ = write_atomically(&job_dir(app, &s.id).join("status.json"), &text);
    }
}

/// Jobs found in `data` at start: the finished as they were, the unfinished marked failed.
fn recover(data: &Path) -> std::io::Result<HashMap<String, Job>> {
    let mut jobs = HashMap::new();
    for e in std::fs::read_dir(data.join("jobs"))? {
        let dir = e?.path();
        let Ok(text) = std::fs::read_to_string(dir.join("status.json")) else {
            continue;
        };
        let Ok(mut status) = serde_json::from_str::<Status>(&text) else {
            continue;
        };
        if status.state == "queued" || status.state == "running" {
            status.state = "failed".into();
            status
                .messages
                .push("interrupted by a restart of the service; submit it again".into());
            if let Ok(t) = serde_json::to_string_pretty(&status) {
                let _ = write_atomically(&dir.join("status.json"), &t);
            }
        }
        jobs.insert(
            status.id.clone(),
            Job {
                status,
                started: None,
                cancel: false,
                stop: Arc::default(),
            },
        );
    }
    Ok(jobs)
}

/// 400 with the messages the CLI gives for a bad league file (file, line, key).
fn invalid_league(e: &model::InputErrors) -> Response {
    let messages: Vec<String> = e.0.iter().map(|x| format!("error: {x}")).collect();
    (
        StatusCode::BAD_REQUEST,
        Json(serde_json::json!({ "error": "invalid league file", "messages": messages })),
    )
        .into_response()
}

fn error(code: StatusCode, message: &str) -> Response {
    (code, Json(serde_json::json!({ "error": message }))).into_response()
}

#[derive(Deserialize)]
struct SubmitQuery {
    time_limit: Option<f64>,
    seed: Option<u64>,
    alternatives: Option<usize>,
}

async fn submit(
    State(app): State<Shared>,
    Query(q): Query<SubmitQuery>,
    headers: axum::http::HeaderMap,
    body: Bytes,
) -> Response {
    let Ok(raw) = std::str::from_utf8(&body) else {
        return error(StatusCode::BAD_REQUEST, "the league file is not UTF-8 text");
    };
    // The body is the league file, or JSON with the league file and the options.
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    let (text, mut spec, json_limit) = if json {
        match serde_json::from_str::<JsonJob>(raw) {
            Ok(j) => (j.league, j.spec, j.time_limit),
            Err(e) => return error(StatusCode::BAD_REQUEST, &format!("bad JSON job: {e}")),
        }
    } else {
        (raw.to_string(), JobSpec::default(), None)
    };
    let text = text.as_str();
    spec.seed = spec.seed.or(q.seed);
    spec.alternatives = spec.alternatives.or(q.alternatives);
    if spec.alternatives.is_some_and(|k| !(1..=5).contains(&k)) {
        return error(StatusCode::BAD_REQUEST, "alternatives must be from 1 to 5");
    }
    if spec.current.is_some() != spec.from.is_some() {
        return error(
            StatusCode::BAD_REQUEST,
            "rescheduling needs both `current` (the fixture list) and `from` (a date)",
        );
    }
    let league = match model::parse_league(text, "league.toml") {
        Ok(l) => l,
        Err(e) => return invalid_league(&e),
    };
    if let Some(from) = &spec.from {
        if model::parse_iso_date(from).is_none() {
            return error(
                StatusCode::BAD_REQUEST,
                &format!("from: \"{from}\" is not a date (YYYY-MM-DD)"),
            );
        }
    }
    if let Some(bad) = spec
        .withdraw
        .iter()
        .find(|t| league.team_by_name(t).is_none())
    {
        return error(
            StatusCode::BAD_REQUEST,
            &format!("withdraw: no team \"{bad}\""),
        );
    }
    let time_limit = json_limit.or(q.time_limit).unwrap_or(30.0);
    if !(time_limit.is_finite() && time_limit > 0.0 && time_limit <= MAX_TIME_LIMIT) {
        return error(
            StatusCode::BAD_REQUEST,
            &format!("time_limit must be a number of seconds from 0 to {MAX_TIME_LIMIT}"),
        );
    }
    let n = app.next.fetch_add(1, Ordering::SeqCst);
    let id = format!("{}-{n}-{}", now(), q.seed.unwrap_or(0));
    let dir = job_dir(&app, &id);
    let spec_text = serde_json::to_string_pretty(&spec).unwrap_or_default();
    if std::fs::create_dir_all(&dir).is_err()
        || write_atomically(&dir.join("league.toml"), text).is_err()
        || write_atomically(&dir.join("job.json"), &spec_text).is_err()
    {
        return error(StatusCode::INTERNAL_SERVER_ERROR, "cannot store the job");
    }
    let status = Status {
        id: id.clone(),
        state: "queued".into(),
        league: league.name.clone(),
        time_limit,
        submitted: now(),
        elapsed: 0.0,
        incumbent: None,
        bound: None,
        gap: None,
        fixtures: None,
        breaks: None,
        valid: None,
        messages: Vec::new(),
        moves: None,
        drafts: None,
    };
    save(&app, &status);
    if let Ok(mut jobs) = app.jobs.lock() {
        jobs.insert(
            id.clone(),
            Job {
                status: status.clone(),
                started: None,
                cancel: false,
                stop: Arc::default(),
            },
        );
    }
    match app.queue.try_send(id.clone()) {
        Ok(()) => (StatusCode::ACCEPTED, Json(status)).into_response(),
        Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
            if let Ok(mut jobs) = app.jobs.lock() {
                jobs.remove(&id);
            }
            let _ = std::fs::remove_dir_all(&dir);
            let mut r = error(
                StatusCode::TOO_MANY_REQUESTS,
                "the queue is full; try again shortly",
            );
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("10"));
            r
        }
    }
}

async fn status(State(app): State<Shared>, UrlPath(id): UrlPath<String>) -> Response {
    if !safe(&id) {
        return error(StatusCode::NOT_FOUND, "no such job");
    }
    let jobs = match app.jobs.lock() {
        Ok(j) => j,
        Err(_) => return error(StatusCode::INTERNAL_SERVER_ERROR, "state lock"),
    };
    match jobs.get(&id) {
        Some(job) => {
            let mut s = job.status.clone();
            if let Some(t) = job.started {
                if s.state == "running" {
                    s.elapsed = t.elapsed().as_secs_f64();
                }
            }
            Json(s).into_response()
        }
        None => error(StatusCode::NOT_FOUND, "no such job"),
    }
}

async fn cancel(State(app): State<Shared>, UrlPath(id): UrlPath<String>) -> Response {
    if !safe(&id) {
        return error(StatusCode::NOT_FOUND, "no such job");
    }
    let mut jobs = match app.jobs.lock() {
        Ok(j) => j,
        Err(_) => return error(StatusCode::INTERNAL_SERVER_ERROR, "state lock"),
    };
    let Some(job) = jobs.get_mut(&id) else {
        return error(StatusCode::NOT_FOUND, "no such job");
    };
    match job.status.state.as_str() {
        "queued" | "running" => {
            // A running solve stops at its next check; its result is discarded.
            job.cancel = true;
            job.stop.store(true, Ordering::Relaxed);
            job.status.state = "cancelled".into();
            save(&app, &job.status);
            Json(job.status.clone()).into_response()
        }
        _ => {
            let _ = std::fs::remove_dir_all(job_dir(&app, &id));
            jobs.remove(&id);
            StatusCode::NO_CONTENT.into_response()
        }
    }
}

fn file_response(path: &Path, content_type: &'static str) -> Response {
    match std::fs::read(path) {
        Ok(bytes) => ([(header::CONTENT_TYPE, content_type)], bytes).into_response(),
        Err(_) => error(
            StatusCode::NOT_FOUND,
            "no such file (has the job finished?)",
        ),
    }
}

async fn fixtures_csv(State(app): State<Shared>, UrlPath(id): UrlPath<String>) -> Response {
    if !safe(&id) {
        return error(StatusCode::NOT_FOUND, "no such job");
    }
    file_response(
        &job_dir(&app, &id).join("fixtures.csv"),
        "text/csv; charset=utf-8",
    )
}

async fn job_file(
    State(app): State<Shared>,
    UrlPath((id, file)): UrlPath<(String, String)>,
) -> Response {
    if !safe(&id) || !safe(&file) || file == "status.json" || file == "job.json" {
        return error(StatusCode::NOT_FOUND, "no such file");
    }
    let kind = if file.ends_with(".csv") {
        "text/csv; charset=utf-8"
    } else {
        "text/plain; charset=utf-8"
    };
    file_response(&job_dir(&app, &id).join(file), kind)
}

async fn report_index(State(app): State<Shared>, UrlPath(id): UrlPath<String>) -> Response {
    report_file(State(app), UrlPath((id, "index.html".into()))).await
}

async fn report_file(
    State(app): State<Shared>,
    UrlPath((id, file)): UrlPath<(String, String)>,
) -> Response {
    if !safe(&id) || !safe(&file) {
        return error(StatusCode::NOT_FOUND, "no such file");
    }
    let kind = if file.ends_with(".html") {
        "text/html; charset=utf-8"
    } else {
        "application/octet-stream"
    };
    file_response(&job_dir(&app, &id).join("report").join(file), kind)
}

async fn ics_file(
    State(app): State<Shared>,
    UrlPath((id, file)): UrlPath<(String, String)>,
) -> Response {
    if !safe(&id) || !safe(&file) || !file.ends_with(".ics") {
        return error(StatusCode::NOT_FOUND, "no such calendar");
    }
    file_response(
        &job_dir(&app, &id).join("report").join("ics").join(file),
        "text/calendar; charset=utf-8",
    )
}

#[derive(Deserialize)]
struct CheckRequest {
    league: String,
    fixtures: String,
}

async fn check_list(Json(req): Json<CheckRequest>) -> Response {
    let league = match model::parse_league(&req.league, "league.toml") {
        Ok(l) => l,
        Err(e) => return invalid_league(&e),
    };
    let list = match check::parse_fixtures(&league, req.fixtures.as_bytes(), "fixtures.csv") {
        Ok(l) => l,
        Err(e) => return error(StatusCode::BAD_REQUEST, &e.to_string()),
    };
    let r = check::check(&league, &list);
    Json(serde_json::json!({
        "valid": r.is_valid(),
        "violations": r.violations.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        "breaks": r.quality.breaks,
        "objective": r.quality.objective,
        "quality": r.quality.to_string(),
    }))
    .into_response()
}

async fn openapi() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], page::OPENAPI).into_response()
}

/// Takes jobs off the queue and solves them, one at a time, on this thread.
fn worker(app: Shared, rx: Arc<Mutex<Receiver<String>>>) {
    loop {
        let id = match rx.lock().map(|r| r.recv()) {
            Ok(Ok(id)) => id,
            _ => return,
        };
        let (time_limit, stop, skip) = match app.jobs.lock() {
            Ok(mut jobs) => match jobs.get_mut(&id) {
                Some(job) if !job.cancel => {
                    job.status.state = "running".into();
                    job.started = Some(Instant::now());
                    save(&app, &job.status);
                    (job.status.time_limit, job.stop.clone(), false)
                }
                _ => (0.0, Arc::default(), true),
            },
            Err(_) => return,
        };
        if skip {
            continue;
        }
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_job(&app, &id, time_limit, stop)
        }));
        let update = |f: &dyn Fn(&mut Status)| {
            if let Ok(mut jobs) = app.jobs.lock() {
                if let Some(job) = jobs.get_mut(&id) {
                    if job.cancel {
                        return;
                    }
                    f(&mut job.status);
                    if let Some(t) = job.started {
                        job.status.elapsed = t.elapsed().as_secs_f64();
                    }
                    save(&app, &job.status);
                }
            }
        };
        match outcome {
            Ok(Ok(done)) => update(&|s| {
                s.state = done.state.clone();
                s.fixtures = done.fixtures;
                s.breaks = done.breaks;
                s.valid = done.valid;
                s.incumbent = done.objective.or(s.incumbent);
                s.bound = done.bound.or(s.bound);
                s.gap = done.gap;
                s.messages = done.messages.clone();
                s.moves = done.moves;
                s.drafts = done.drafts;
            }),
            Ok(Err(message)) => update(&|s| {
                s.state = "failed".into();
                s.messages = vec![message.clone()];
            }),
            Err(_) => update(&|s| {
                s.state = "failed".into();
                s.messages = vec!["internal error: the solver panicked (please report it)".into()];
            }),
        }
    }
}

struct Done {
    state: String,
    fixtures: Option<usize>,
    breaks: Option<usize>,
    valid: Option<bool>,
    objective: Option<f64>,
    bound: Option<f64>,
    gap: Option<f64>,
    messages: Vec<String>,
    moves: Option<usize>,
    drafts: Option<usize>,
}

fn run_job(
    app: &Shared,
    id: &str,
    time_limit: f64,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> Result<Done, String> {
    let dir = job_dir(app, id);
    let league = model::read_league(&dir.join("league.toml")).map_err(|e| e.to_string())?;
    let spec: JobSpec = std::fs::read_to_string(dir.join("job.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    let progress_app = app.clone();
    let progress_id = id.to_string();
    let opts = solve::Options {
        time_limit,
        threads: 1,
        on_progress: Some(solve::ProgressSink(Arc::new(move |inc, bound, _| {
            if let Ok(mut jobs) = progress_app.jobs.lock() {
                if let Some(job) = jobs.get_mut(&progress_id) {
                    if inc.is_finite() {
                        job.status.incumbent = Some(inc);
                    }
                    if bound.is_finite() {
                        job.status.bound = Some(bound);
                    }
                }
            }
        }))),
        seed: spec.seed.unwrap_or(0),
        cancel: Some(stop),
        ..solve::Options::default()
    };
    let mut done = Done {
        state: String::new(),
        fixtures: None,
        breaks: None,
        valid: None,
        objective: None,
        bound: None,
        gap: None,
        messages: Vec::new(),
        moves: None,
        drafts: None,
    };
    // Everything below goes through the pipeline: only checked lists come back, and a
    // cancelled job gets none, so it writes nothing and offers nothing to download.
    let result = match (&spec.current, &spec.from) {
        (Some(current), Some(from)) => {
            rerun_job(&league, current, from, &spec, &opts, &dir).map(|(solution, moves)| {
                done.moves = Some(moves);
                vec![solution]
            })
        }
        _ => match spec.alternatives {
            Some(k) if k > 1 => pipeline::drafts(&league, &opts, k).map(|d| {
                if let Some(why) = &d.stopped {
                    done.messages = why.lines();
                }
                d.drafts
            }),
            _ => pipeline::solve(&league, &opts).map(|s| vec![s]),
        },
    };
    let solutions = match result {
        Ok(s) => s,
        Err(pipeline::Failure::Solver(e)) => return Err(e),
        Err(e) => {
            done.state = match &e {
                pipeline::Failure::Infeasible { .. } => "infeasible",
                pipeline::Failure::TimedOut { .. } => "timed-out",
                pipeline::Failure::Cancelled => "cancelled",
                _ => "failed",
            }
            .into();
            done.messages = e.lines();
            return Ok(done);
        }
    };
    let first = &solutions[0];
    let q = &first.checked.report().quality;
    done.valid = Some(true);
    done.fixtures = Some(q.fixtures);
    done.breaks = Some(q.breaks);
    done.objective = first.solved.objective;
    done.bound = first.solved.bound;
    done.gap = match first.solved.outcome {
        solve::Outcome::Feasible { gap } => gap.is_finite().then_some(gap),
        solve::Outcome::Optimal { .. } => first
            .solved
            .objective
            .zip(first.solved.bound)
            .map(|(o, b)| solve::relative_gap(o, b)),
        _ => None,
    };
    let save = |name: &str, c: &pipeline::Checked| {
        pipeline::save(&dir.join(name), c).map_err(|e| e.to_string())
    };
    save("fixtures.csv", &first.checked)?;
    if spec.alternatives.is_some_and(|k| k > 1) && spec.current.is_none() {
        for (i, d) in solutions.iter().enumerate() {
            save(&format!("draft-{}.csv", i + 1), &d.checked)?;
        }
        done.drafts = Some(solutions.len());
    }
    let files = report::site::site(&league, first.checked.list());
    report::site::write_site(&dir.join("report"), &files).map_err(|e| e.to_string())?;
    done.state = "done".into();
    Ok(done)
}

/// A rerun job: the new list, and the fixtures moved; the diff and club summary written.
fn rerun_job(
    league: &model::League,
    current: &str,
    from: &str,
    spec: &JobSpec,
    opts: &solve::Options,
    dir: &Path,
) -> Result<(pipeline::Solution, usize), pipeline::Failure> {
    let bad = |e: String| pipeline::Failure::Solver(e);
    let from = model::parse_iso_date(from).ok_or_else(|| bad("from is not a date".into()))?;
    let list = check::parse_fixtures(league, current.as_bytes(), "current.csv")
        .map_err(|e| bad(e.to_string()))?;
    if let Some(v) = list.unreadable.first() {
        return Err(bad(format!("current.csv: {v}")));
    }
    let gone: Vec<usize> = spec
        .withdraw
        .iter()
        .filter_map(|t| league.team_by_name(t))
        .collect();
    let r = pipeline::rerun(league, &list.to_neutral(league), from, &gone, opts)?;
    let moves = r.count(crate::reschedule::Status::Moved);
    write_atomically(&dir.join("fixtures.diff.csv"), &r.diff_csv)
        .map_err(|e| bad(e.to_string()))?;
    write_atomically(&dir.join("changes.txt"), &r.summary).map_err(|e| bad(e.to_string()))?;
    Ok((r.solution, moves))
}
