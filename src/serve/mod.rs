//! `fixtures serve`: the optimiser as a service for many leagues, with accounts.
//!
//! - State lives in a relational store (`crate::store`): SQLite under `--data` by default (one
//!   file; nothing to install), or PostgreSQL (`--db postgres://...`) shared by any number of
//!   API nodes and `fixtures worker` machines. Jobs are claimed by workers with a lease
//!   (`worker`), so a worker or server killed mid-solve loses nothing.
//! - Who may see and change what: accounts with argon2 password hashes; a session cookie
//!   (HttpOnly, SameSite=Strict) with a CSRF token required on every state-changing request made
//!   with it, or an API token (`Authorization: Bearer`). A league belongs to its secretary, who
//!   may invite committee members (read and compare drafts). Every id in a URL is random (128
//!   bits); anything not yours answers 404, as if it did not exist. Published fixture lists and
//!   calendars are public, read-only, at unguessable URLs. Login attempts are rate-limited.
//! - Handlers are thin (`api`, `auth`); every query is in `store`; pages in `page`.

mod api;
mod auth;
mod editor;
mod error;
mod forms;
mod hub;
mod hub_page;
mod page;
mod season;
pub mod worker;

use crate::store::{Store, StoreError, User};
use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
pub(crate) use error::{Answer, ApiError};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Largest request body.
pub const MAX_BODY: usize = 4 * 1024 * 1024;
/// Longest time limit a job may ask for.
pub const MAX_TIME_LIMIT: f64 = 600.0;

/// How the service runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// Address to listen on.
    pub bind: String,
    /// Folder of the embedded database (`DATA/fixtures.db`).
    pub data: PathBuf,
    /// A database URL instead (`postgres://...` or `sqlite://FILE`).
    pub db: Option<String>,
    /// Workers in this process (0: an API-only node).
    pub workers: usize,
    /// Jobs waiting at most, over all accounts; beyond, 429.
    pub queue: i64,
    /// Jobs one account may have queued or running at once; beyond, 429.
    pub per_account: i64,
    /// Days finished jobs and their drafts are kept.
    pub keep_days: i64,
    /// Seconds a worker's claim lasts without renewal.
    pub lease: i64,
    /// Send cookies with `Secure` (behind HTTPS).
    pub secure_cookies: bool,
    /// Whether anyone may create an account from the login page (rate-limited per address).
    pub signup: bool,
    /// MiB of memory one solve may use (the size model refuses larger jobs).
    pub worker_memory: u64,
    /// Proxies whose `X-Forwarded-For` names the client (for per-address login limits).
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// The date taken as today (`--today`); `None`: the real date (UTC).
    pub today: Option<chrono::NaiveDate>,
}

impl Config {
    /// Today: `--today`, else the real date (UTC).
    pub fn today(&self) -> chrono::NaiveDate {
        self.today
            .unwrap_or_else(|| chrono::Utc::now().date_naive())
    }

    /// The store's URL: `--db`, else SQLite under `--data`.
    pub fn db_url(&self) -> String {
        self.db
            .clone()
            .unwrap_or_else(|| format!("sqlite://{}", self.data.join("fixtures.db").display()))
    }
}

/// The service's state, shared by handlers.
pub(crate) struct App {
    pub(crate) store: Store,
    pub(crate) cfg: Config,
    /// Login attempts being checked and recent failures (`auth::Limiter`).
    pub(crate) logins: auth::Limiter,
    /// Workbook imports read at once (each within `import::bounded`'s budget).
    pub(crate) imports: tokio::sync::Semaphore,
    /// Sites (pages and calendars) rendered lately, served again without rendering.
    pub(crate) sites: api::SiteCache,
}

/// Workbook imports read at once.
const IMPORTS: usize = 2;

pub(crate) type Shared = Arc<App>;

/// Opens the store (creating `--data` for the embedded default).
pub async fn open_store(cfg: &Config) -> Result<Store, StoreError> {
    if cfg.db.is_none() {
        std::fs::create_dir_all(&cfg.data).map_err(|e| StoreError::Url(e.to_string()))?;
        // The data folder is the service's alone.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&cfg.data, std::fs::Permissions::from_mode(0o700))
                .map_err(|e| StoreError::Url(e.to_string()))?;
        }
    }
    Store::open(&cfg.db_url()).await
}

fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
}

/// Creates an account (`serve --create-user NAME`): prints its name, password and an API token.
/// The password is `password` when given, else random.
pub fn create_user(cfg: &Config, name: &str, password: Option<&str>) -> Result<(), String> {
    runtime().map_err(|e| e.to_string())?.block_on(async {
        let store = open_store(cfg).await.map_err(|e| e.to_string())?;
        let password =
            password.map_or_else(|| crate::store::new_token()[..20].to_string(), String::from);
        let user = store
            .create_user(name, &password)
            .await
            .map_err(|e| e.to_string())?
            .ok_or(format!("an account called \"{name}\" exists already"))?;
        let token = store
            .create_api_token(&user)
            .await
            .map_err(|e| e.to_string())?;
        println!("user: {name}\npassword: {password}\ntoken: {token}");
        Ok(())
    })
}

/// Runs the service until interrupted. Prints "listening on http://ADDR" on stderr.
pub fn serve(cfg: Config) -> Result<(), String> {
    runtime().map_err(|e| e.to_string())?.block_on(async move {
        let store = open_store(&cfg).await.map_err(|e| e.to_string())?;
        first_account(&store).await.map_err(|e| e.to_string())?;
        let stop = Arc::new(AtomicBool::new(false));
        let workers: Vec<_> = (0..cfg.workers)
            .map(|n| {
                let w = worker::WorkerConfig::new(n, cfg.lease, cfg.worker_memory);
                tokio::spawn(worker::run(store.clone(), w, stop.clone()))
            })
            .collect();
        tokio::spawn(purge(store.clone(), cfg.keep_days));
        let store_for_workers = store.clone();
        let app = Arc::new(App {
            store,
            cfg: cfg.clone(),
            imports: tokio::sync::Semaphore::new(IMPORTS),
            sites: api::SiteCache::default(),
            logins: auth::Limiter::default(),
        });
        let listener = tokio::net::TcpListener::bind(&cfg.bind)
            .await
            .map_err(|e| e.to_string())?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        eprintln!("listening on http://{addr}");
        accept(listener, router(app)).await;
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        worker::release(&store_for_workers, workers).await;
        Ok(())
    })
}

/// Connections served at once; a connection beyond is closed as soon as it is accepted.
const MAX_CONNECTIONS: usize = 512;
/// Seconds a client has to send a request's headers before its connection is closed.
const HEADER_SECONDS: u64 = 10;

/// Serves connections until SIGINT or SIGTERM: at most `MAX_CONNECTIONS` at once, each closed
/// when its headers take longer than `HEADER_SECONDS`; then lets requests in progress finish
/// for a few seconds.
async fn accept(listener: tokio::net::TcpListener, app: Router) {
    use std::time::Duration;
    raise_open_files();
    let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    let stop = worker::stopped();
    tokio::pin!(stop);
    loop {
        let (stream, remote) = tokio::select! {
            _ = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(_) => {
                    // Out of file descriptors, or the client gave up: wait, then go on.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            continue; // dropping the stream closes it
        };
        let service = app
            .clone()
            .layer(axum::Extension(axum::extract::ConnectInfo(remote)));
        tokio::spawn(async move {
            let _slot = slot;
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(Duration::from_secs(HEADER_SECONDS))
                .serve_connection(
                    hyper_util::rt::TokioIo::new(stream),
                    hyper_util::service::TowerToHyperService::new(service),
                )
                .await;
        });
    }
    let _ = tokio::time::timeout(
        Duration::from_secs(5),
        slots.acquire_many(MAX_CONNECTIONS as u32),
    )
    .await;
}

/// Lets the process hold as many open files as its hard limit allows (a connection is one).
fn raise_open_files() {
    #[cfg(unix)]
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        let mut l = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut l) == 0 && l.rlim_cur < l.rlim_max {
            l.rlim_cur = l.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &l);
        }
    }
}

/// Runs workers only (`fixtures worker`), on a shared store, until interrupted.
pub fn work(db: &str, workers: usize, lease: i64, memory_mib: u64) -> Result<(), String> {
    runtime().map_err(|e| e.to_string())?.block_on(async move {
        let store = Store::open(db).await.map_err(|e| e.to_string())?;
        eprintln!(
            "worker: {workers} on {}",
            if store.is_postgres() {
                "PostgreSQL"
            } else {
                "SQLite"
            }
        );
        let configs = (0..workers.max(1))
            .map(|n| worker::WorkerConfig::new(n, lease, memory_mib))
            .collect();
        worker::run_until_stopped(store, configs).await;
        Ok(())
    })
}

/// The first start of an empty store creates an account, so the page can be used at once.
async fn first_account(store: &Store) -> Result<(), StoreError> {
    if store.user_count().await? > 0 {
        return Ok(());
    }
    let password = crate::store::new_token()[..20].to_string();
    if let Some(user) = store.create_user("secretary", &password).await? {
        let token = store.create_api_token(&user).await?;
        eprintln!("first account: user secretary, password {password}, API token {token}");
    }
    Ok(())
}

/// Removes finished jobs older than `days`, hourly.
async fn purge(store: Store, days: i64) {
    loop {
        if let Err(e) = store.purge(crate::store::now() - days * 86_400).await {
            eprintln!("purge: {e}");
        }
        tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
    }
}

fn router(app: Shared) -> Router {
    pages()
        .merge(api())
        .route("/assets/{file}", get(asset))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(guard))
        .with_state(app)
}

/// The pages: the solver page, logins, the league editor, invitations.
fn pages() -> Router<Shared> {
    Router::new()
        .route("/", get(page::home))
        .route("/login", post(auth::login_form))
        .route("/logout", post(auth::logout))
        .route("/signup", get(auth::signup_page).post(auth::signup))
        .route("/leagues", get(editor::list).post(editor::create))
        .route("/leagues/upload", post(editor::upload_new))
        .route("/leagues/{id}", get(editor::overview))
        .route("/leagues/{id}/league.toml", get(editor::download))
        .route("/leagues/{id}/hub", post(editor::season_action))
        .route("/leagues/{id}/upload", post(editor::upload))
        .route("/leagues/{id}/entries", post(editor::import_entries))
        .route("/leagues/{id}/moves", get(editor::moves))
        .route(
            "/leagues/{id}/{section}",
            get(editor::table_form).post(editor::save_table),
        )
        .route(
            "/leagues/{id}/{section}/{item}",
            get(editor::item_form).post(editor::save_item),
        )
        .route(
            "/leagues/{id}/{section}/{item}/delete",
            post(editor::delete_item),
        )
        .route(
            "/invite/{token}",
            get(page::invitation).post(auth::accept_form),
        )
}

/// The JSON API, the published lists and their calendars.
fn api() -> Router<Shared> {
    Router::new()
        .route("/api/openapi.json", get(page::openapi))
        .route("/api/login", post(auth::login_api))
        .route("/api/leagues", get(api::leagues).post(api::create_league))
        .route(
            "/api/leagues/{id}",
            get(api::league).delete(api::delete_league),
        )
        .route(
            "/api/leagues/{id}/invitations/{inv}",
            axum::routing::delete(api::revoke_invitation),
        )
        .route(
            "/api/leagues/{id}/members/{user}",
            axum::routing::delete(api::remove_member),
        )
        .route(
            "/api/leagues/{id}/publications/{p}",
            axum::routing::delete(api::delete_publication),
        )
        .route("/api/tokens", get(api::tokens))
        .route("/api/tokens/{id}", axum::routing::delete(api::revoke_token))
        .route("/api/account", axum::routing::delete(api::delete_account))
        .route("/api/leagues/{id}/versions", post(api::add_version))
        .route(
            "/api/leagues/{id}/season",
            get(api::season_status).post(api::season_act),
        )
        .route(
            "/api/leagues/{id}/versions/{n}",
            get(api::version_file).delete(api::delete_version),
        )
        .route(
            "/api/leagues/{id}/invitations",
            get(api::invitations).post(api::invite),
        )
        .route("/api/invitations/{token}", post(api::accept))
        .route("/api/jobs", post(api::submit))
        .route("/api/jobs/{id}", get(api::status).delete(api::cancel))
        .route("/api/jobs/{id}/fixtures.csv", get(api::fixtures_csv))
        .route("/api/jobs/{id}/files/{file}", get(api::job_file))
        .route("/api/jobs/{id}/report/", get(api::report_index))
        .route(
            "/api/jobs/{id}/drafts/{n}/report/",
            get(api::draft_report_index),
        )
        .route(
            "/api/jobs/{id}/drafts/{n}/report/{file}",
            get(api::draft_report_file),
        )
        .route("/api/jobs/{id}/report/{file}", get(api::report_file))
        .route("/api/jobs/{id}/report/ics/{file}", get(api::ics_file))
        .route("/api/jobs/{id}/ics/{file}", get(api::ics_file))
        .route("/api/jobs/{id}/publish", post(api::publish))
        .route("/api/jobs/{id}/compare", get(api::compare_drafts))
        .route("/p/{id}/", get(api::public_index))
        .route("/p/{id}/latest/", get(api::latest_index))
        .route("/p/{id}/latest/ics/{file}", get(api::latest_ics))
        .route("/p/{id}/latest/{file}", get(api::latest_file))
        .route("/p/{id}/fixtures.csv", get(api::public_csv))
        .route("/p/{id}/changes.csv", get(api::public_diff))
        .route("/p/{id}/ics/{file}", get(api::public_ics))
        .route("/p/{id}/{file}", get(api::public_file))
        .route("/api/check", post(api::check_list))
        .route("/api/import", post(api::import_entries))
        .route("/api/publications/{id}/moves", get(api::moves))
        .route("/api/publications/{id}/move", post(api::move_published))
        .route("/api/template.xlsx", get(api::template_xlsx))
}

/// The pages' scripts, served as files so that the pages carry no inline script.
async fn asset(axum::extract::Path(file): axum::extract::Path<String>) -> Response {
    let body = match file.as_str() {
        "home.js" => include_str!("assets/home.js"),
        "upload.js" => include_str!("assets/upload.js"),
        "calendar.js" => include_str!("assets/calendar.js"),
        "compare.js" => include_str!("assets/compare.js"),
        "kinds.js" => include_str!("assets/kinds.js"),
        "teams.js" => include_str!("assets/teams.js"),
        _ => return not_found().into_response(),
    };
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// Seconds a request may take from its first byte to its answer (a client that sends its body
/// slowly is cut off at this).
const REQUEST_SECONDS: u64 = 60;

/// Every request: a time limit, the security headers, and a line in the access log (method,
/// path with any invitation token hidden, status, milliseconds; never a password or token).
async fn guard(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let method = req.method().clone();
    let path = logged_path(req.uri().path());
    let start = std::time::Instant::now();
    let answer = async {
        match buffered(req).await {
            Ok(req) => next.run(req).await,
            Err(r) => r,
        }
    };
    let r = match tokio::time::timeout(std::time::Duration::from_secs(REQUEST_SECONDS), answer)
        .await
    {
        Ok(r) => r,
        Err(_) => error(StatusCode::REQUEST_TIMEOUT, "the request took too long").into_response(),
    };
    let mut r = json_errors(r).await;
    let h = r.headers_mut();
    for (name, value) in [
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
             img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; \
             frame-ancestors 'self'",
        ),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "SAMEORIGIN"),
        (header::REFERRER_POLICY, "same-origin"),
    ] {
        h.entry(name).or_insert(HeaderValue::from_static(value));
    }
    eprintln!(
        "access: {method} {path} {} {}ms",
        r.status().as_u16(),
        start.elapsed().as_millis()
    );
    r
}

/// The request with its whole body read (at most `MAX_BODY`) before it is routed, so that a
/// refusal (nobody logged in, another account's league) reaches a client still sending its
/// upload as an answer, not as a connection closed under it.
async fn buffered(req: axum::extract::Request) -> Result<axum::extract::Request, Response> {
    let (parts, body) = req.into_parts();
    match axum::body::to_bytes(body, MAX_BODY).await {
        Ok(bytes) => Ok(axum::extract::Request::from_parts(
            parts,
            axum::body::Body::from(bytes),
        )),
        Err(_) => Err(error(
            StatusCode::PAYLOAD_TOO_LARGE,
            "the request's body is over 4 MiB, or did not arrive whole",
        )
        .into_response()),
    }
}

/// An error answered in plain text (axum's own, for a body or path it cannot read) as JSON,
/// like every other error of the API.
async fn json_errors(r: Response) -> Response {
    let plain = r
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/plain"));
    if !(plain && (r.status().is_client_error() || r.status().is_server_error())) {
        return r;
    }
    let status = r.status();
    let text = axum::body::to_bytes(r.into_body(), 64 * 1024)
        .await
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    error(status, text.trim()).into_response()
}

/// A path as the access log shows it: an invitation's token is a password, so it is hidden.
fn logged_path(path: &str) -> String {
    for prefix in ["/invite/", "/api/invitations/"] {
        if let Some(rest) = path.strip_prefix(prefix) {
            let tail = rest.find('/').map_or("", |i| &rest[i..]);
            return format!("{prefix}…{tail}");
        }
    }
    path.chars().take(200).collect()
}

/// A JSON error.
pub(crate) fn error(code: StatusCode, message: &str) -> ApiError {
    ApiError::Message(code, message.to_string())
}

/// 404: the answer for what does not exist and for what is not yours alike.
pub(crate) fn not_found() -> ApiError {
    ApiError::NotFound
}

/// Who is calling, and how.
pub(crate) struct Caller {
    pub(crate) user: User,
    /// The session's CSRF token, when the caller came with the session cookie.
    pub(crate) csrf: Option<String>,
}

/// The session cookie's name.
pub(crate) const COOKIE: &str = "fixtures_session";

/// The value of a cookie of the request.
pub(crate) fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

/// The caller, from an API token or the session cookie; `None` when anonymous.
pub(crate) async fn caller(app: &App, headers: &HeaderMap) -> Result<Option<Caller>, StoreError> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    if let Some(token) = bearer {
        return Ok(app
            .store
            .api_user(token.trim())
            .await?
            .map(|user| Caller { user, csrf: None }));
    }
    let Some(token) = cookie(headers, COOKIE) else {
        return Ok(None);
    };
    Ok(app.store.session(&token).await?.map(|(user, csrf)| Caller {
        user,
        csrf: Some(csrf),
    }))
}

/// The caller of a state-changing request: a session must also send its CSRF token (the
/// `X-CSRF-Token` header, or `form_token` from a form); an API token needs none. Else the
/// response to give: 401 for nobody, 403 for a missing or wrong CSRF token.
pub(crate) async fn changing(
    app: &App,
    headers: &HeaderMap,
    form_token: Option<&str>,
) -> Result<Caller, ApiError> {
    let c = reading(app, headers).await?;
    if let Some(expected) = &c.csrf {
        let given = headers
            .get("x-csrf-token")
            .and_then(|v| v.to_str().ok())
            .or(form_token);
        if given != Some(expected.as_str()) {
            return Err(ApiError::Csrf);
        }
    }
    Ok(c)
}

/// The caller of a reading request; else 401.
pub(crate) async fn reading(app: &App, headers: &HeaderMap) -> Result<Caller, ApiError> {
    caller(app, headers).await?.ok_or(ApiError::LogIn)
}

/// A `Set-Cookie` value for the session.
pub(crate) fn session_cookie(token: &str, secure: bool, max_age: i64) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static(""))
}
