//! The JSON API's handlers: thin, each one extractor for the caller and what of theirs the URL
//! names (`error.rs`), one or two store calls, one answer. Anything not the caller's answers
//! 404, exactly as what does not exist.

use super::error::{access, JobOf, LeagueOf, Reader, Writer};
use super::worker::JobSpec;
use super::{error, Answer, ApiError, Shared, MAX_TIME_LIMIT};
use crate::season::record::Season;
use crate::store::{is_id, Access, Job, Store, User};
use crate::{check, model, report};
use axum::body::Bytes;
use axum::extract::{FromRequestParts, Path, Query, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use std::sync::Arc;

/// 400 with the messages the CLI gives for a bad league file (file, line, key).
fn invalid_league(e: &model::InputErrors) -> ApiError {
    let messages: Vec<String> = e.0.iter().map(|x| format!("error: {x}")).collect();
    ApiError::Detailed(
        StatusCode::BAD_REQUEST,
        serde_json::json!({ "error": "invalid league file", "messages": messages }),
    )
}

/// 400 with a message.
fn bad_request(message: String) -> ApiError {
    ApiError::Message(StatusCode::BAD_REQUEST, message)
}

/// A league file the service stored, read again (it read when it was stored).
fn stored_league(toml: &str) -> Result<model::League, ApiError> {
    model::parse_league(toml, "league.toml").map_err(|_| {
        error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the league version does not read",
        )
    })
}

/// A job's status as the API shows it.
async fn status_json(store: &Store, job: &Job) -> serde_json::Value {
    let name = match store.league(&job.league).await {
        Ok(Some(l)) => l.name,
        _ => String::new(),
    };
    let now = crate::store::now();
    let elapsed = match (job.started, job.finished, job.state) {
        (Some(s), _, crate::store::JobState::Running) => (now - s).max(0),
        (Some(s), Some(f), _) => (f - s).max(0),
        _ => 0,
    };
    let f = &job.figures;
    serde_json::json!({
        "id": job.id, "state": job.state, "league": name, "league_id": job.league,
        "time_limit": job.time_limit, "submitted": job.submitted, "elapsed": elapsed as f64,
        "incumbent": f.incumbent, "bound": f.bound, "gap": f.gap, "fixtures": f.fixtures,
        "breaks": f.breaks, "valid": f.valid, "messages": f.messages, "moves": f.moves,
        "drafts": f.drafts, "status": f.status, "attempts": job.attempts, "peak_mib": f.peak_mib,
    })
}

/// `GET /api/leagues`: the caller's leagues.
pub(crate) async fn leagues(State(app): State<Shared>, Reader(c): Reader) -> Answer {
    Ok(Json(app.store.leagues_of(&c.user).await?).into_response())
}

/// A league file sent as a request's body, read.
fn league_text(body: &Bytes) -> Result<(String, model::League), ApiError> {
    let text = std::str::from_utf8(body)
        .map_err(|_| error(StatusCode::BAD_REQUEST, "the league file is not UTF-8 text"))?;
    let league = model::parse_league(text, "league.toml").map_err(|e| invalid_league(&e))?;
    Ok((text.to_string(), league))
}

/// `POST /api/leagues` (the league file as the body): a new league owned by the caller.
pub(crate) async fn create_league(
    State(app): State<Shared>,
    Writer(c): Writer,
    body: Bytes,
) -> Answer {
    let (text, league) = league_text(&body)?;
    let (id, _) = app
        .store
        .create_league(&c.user, &league.name, &text)
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(serde_json::json!({ "id": id, "name": league.name, "versions": 1 })),
    )
        .into_response())
}

/// `GET /api/leagues/{id}`: the league, its jobs and its publications (owner or committee).
pub(crate) async fn league(State(app): State<Shared>, l: LeagueOf<false>) -> Answer {
    let league = app.store.league(&l.id).await?.ok_or(ApiError::NotFound)?;
    let jobs = app.store.jobs_of_league(&l.id).await?;
    let pubs = app.store.publications(&l.id).await?;
    let mut statuses = Vec::new();
    for j in &jobs {
        statuses.push(status_json(&app.store, j).await);
    }
    let mut publications = Vec::new();
    for p in &pubs {
        // The league version it was checked against (`versions/{n}` gives its file).
        let v = app.store.version(&p.version).await?.map(|v| v.number);
        publications.push(serde_json::json!({
            "id": p.id, "number": p.number, "created": p.created, "url": format!("/p/{}/", p.id),
            "league_version": v,
        }));
    }
    Ok(Json(serde_json::json!({
        "id": league.id, "name": league.name, "versions": league.versions,
        "access": if l.access == Access::Owner { "owner" } else { "committee" },
        "jobs": statuses, "publications": publications,
    }))
    .into_response())
}

/// `POST /api/leagues/{id}/versions` (owner; the league file as the body): a new version.
pub(crate) async fn add_version(
    State(app): State<Shared>,
    l: LeagueOf<true>,
    body: Bytes,
) -> Answer {
    let (text, league) = league_text(&body)?;
    app.store.add_version(&l.id, &league.name, &text).await?;
    let stored = app.store.league(&l.id).await?.ok_or(ApiError::NotFound)?;
    Ok((StatusCode::CREATED, Json(stored)).into_response())
}

/// `GET /api/leagues/{id}/versions/{n}`: a version's league file (owner or committee).
pub(crate) async fn version_file(
    State(app): State<Shared>,
    l: LeagueOf<false>,
    Path((_, n)): Path<(String, i64)>,
) -> Answer {
    let v = app
        .store
        .version_number(&l.id, n)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(text(v.toml, "application/toml; charset=utf-8"))
}

/// Days an invitation can be accepted.
const INVITATION_DAYS: i64 = 14;

/// `POST /api/leagues/{id}/invitations` (owner): a link that makes whoever opens it (logged
/// in) a committee member.
pub(crate) async fn invite(State(app): State<Shared>, l: LeagueOf<true>) -> Answer {
    let token = app.store.invite(&l.id, INVITATION_DAYS).await?;
    Ok((
        StatusCode::CREATED,
        Json(serde_json::json!({
            "token": token, "link": format!("/invite/{token}"),
            "expires": crate::store::now() + INVITATION_DAYS * 86_400,
        })),
    )
        .into_response())
}

/// `GET /api/leagues/{id}/invitations` (owner): the invitations, used or not, with their
/// expiry; `members`: the committee.
pub(crate) async fn invitations(State(app): State<Shared>, l: LeagueOf<true>) -> Answer {
    let inv = app.store.invitations(&l.id).await?;
    let members = app.store.members(&l.id).await?;
    Ok(Json(serde_json::json!({
        "invitations": inv,
        "members": members.iter().map(|(id, name)| serde_json::json!({ "id": id, "name": name })).collect::<Vec<_>>(),
    }))
    .into_response())
}

/// `DELETE /api/leagues/{id}/invitations/{inv}` (owner): the invitation's link stops working.
pub(crate) async fn revoke_invitation(
    State(app): State<Shared>,
    l: LeagueOf<true>,
    Path((_, inv)): Path<(String, String)>,
) -> Answer {
    deleted(app.store.revoke_invitation(&l.id, &inv).await?)
}

/// `DELETE /api/leagues/{id}/members/{user}` (owner): the member leaves the committee.
pub(crate) async fn remove_member(
    State(app): State<Shared>,
    l: LeagueOf<true>,
    Path((_, user)): Path<(String, String)>,
) -> Answer {
    deleted(app.store.remove_member(&l.id, &user).await?)
}

/// `DELETE /api/leagues/{id}` (owner): the league with all its versions, jobs, drafts,
/// publications (their public pages go too), members and invitations.
pub(crate) async fn delete_league(State(app): State<Shared>, l: LeagueOf<true>) -> Answer {
    app.store.delete_league(&l.id).await?;
    deleted(true)
}

/// `DELETE /api/leagues/{id}/versions/{n}` (owner): a league version no publication uses.
pub(crate) async fn delete_version(
    State(app): State<Shared>,
    l: LeagueOf<true>,
    Path((_, n)): Path<(String, i64)>,
) -> Answer {
    let found = app
        .store
        .delete_version(&l.id, n)
        .await?
        .map_err(|why| error(StatusCode::CONFLICT, &why.to_string()))?;
    deleted(found)
}

/// `DELETE /api/leagues/{id}/publications/{p}` (owner): a published version and its public
/// pages.
pub(crate) async fn delete_publication(
    State(app): State<Shared>,
    l: LeagueOf<true>,
    Path((_, p)): Path<(String, String)>,
) -> Answer {
    deleted(app.store.delete_publication(&l.id, &p).await?)
}

/// 204 when something was deleted, 404 when there was nothing to delete.
fn deleted(found: bool) -> Answer {
    if found {
        Ok(StatusCode::NO_CONTENT.into_response())
    } else {
        Err(ApiError::NotFound)
    }
}

/// `GET /api/tokens`: the caller's API tokens (ids, not the tokens), with their expiry.
pub(crate) async fn tokens(State(app): State<Shared>, Reader(c): Reader) -> Answer {
    let t = app.store.api_tokens(&c.user).await?;
    Ok(Json(serde_json::json!({
        "tokens": t.iter().map(|(id, created, expires)| serde_json::json!({ "id": id, "created": created, "expires": expires })).collect::<Vec<_>>(),
    }))
    .into_response())
}

/// `DELETE /api/tokens/{id}`: revokes one of the caller's API tokens.
pub(crate) async fn revoke_token(
    State(app): State<Shared>,
    Path(id): Path<String>,
    Writer(c): Writer,
) -> Answer {
    deleted(app.store.revoke_api_token(&c.user, &id).await?)
}

/// `DELETE /api/account`: the caller's account and everything it owns.
pub(crate) async fn delete_account(State(app): State<Shared>, Writer(c): Writer) -> Answer {
    app.store.delete_user(&c.user).await?;
    deleted(true)
}

/// `POST /api/invitations/{token}`: the caller joins the league's committee.
pub(crate) async fn accept(
    State(app): State<Shared>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Answer {
    let c = super::changing(&app, &headers, None)
        .await
        .map_err(ApiError::hide)?;
    if !is_id(&token) {
        return Err(ApiError::NotFound);
    }
    let league = app
        .store
        .accept(&token, &c.user)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(Json(serde_json::json!({ "league": league })).into_response())
}

/// Options of `POST /api/jobs` in the query string.
#[derive(Deserialize)]
pub(crate) struct SubmitQuery {
    time_limit: Option<f64>,
    seed: Option<u64>,
    alternatives: Option<usize>,
}

/// The fields a JSON job may have.
const JOB_FIELDS: [&str; 10] = [
    "league",
    "league_id",
    "time_limit",
    "alternatives",
    "seed",
    "current",
    "from",
    "withdraw",
    "rerun_of",
    "unavailable",
];

/// Refuses a JSON job with a field it does not know (a misspelt option would otherwise be
/// ignored without a word).
fn known_fields(raw: &str) -> Result<(), ApiError> {
    let value: serde_json::Value =
        serde_json::from_str(raw).map_err(|e| bad_request(format!("bad JSON job: {e}")))?;
    if let Some(o) = value.as_object() {
        if let Some(k) = o.keys().find(|k| !JOB_FIELDS.contains(&k.as_str())) {
            return Err(bad_request(format!(
                "bad JSON job: unknown field `{k}`; the fields are {}",
                JOB_FIELDS.join(", ")
            )));
        }
    }
    Ok(())
}

/// A JSON job: the league (its file, or the id of one of the caller's leagues) and options.
#[derive(Debug, Deserialize)]
struct JsonJob {
    #[serde(default)]
    league: Option<String>,
    #[serde(default)]
    league_id: Option<String>,
    time_limit: Option<f64>,
    #[serde(flatten)]
    spec: JobSpec,
}

/// Checks a job's options against its league: a message for a 400 when they do not fit.
fn check_spec(spec: &JobSpec, league: &model::League) -> Result<(), ApiError> {
    if spec.alternatives.is_some_and(|k| !(1..=5).contains(&k)) {
        return Err(bad_request("alternatives must be from 1 to 5".into()));
    }
    if spec.current.is_some() != spec.from.is_some() {
        return Err(bad_request(
            "rescheduling needs both `current` (the fixture list) and `from` (a date)".into(),
        ));
    }
    if let Some(from) = &spec.from {
        if model::parse_iso_date(from).is_none() {
            return Err(bad_request(format!(
                "from: \"{from}\" is not a date (YYYY-MM-DD)"
            )));
        }
    }
    if let Some(bad) = spec
        .withdraw
        .iter()
        .find(|t| league.team_by_name(t).is_none())
    {
        return Err(bad_request(format!("withdraw: no team \"{bad}\"")));
    }
    Ok(())
}

/// The league, if its solve fits a worker's memory (the size model, `pipeline::fits`); else
/// the answer to give. Checked before anything of the job is stored.
async fn sized(app: &Shared, league: model::League) -> Result<model::League, ApiError> {
    let memory = app.cfg.worker_memory;
    let (league, fits) = tokio::task::spawn_blocking(move || {
        let fits = crate::pipeline::fits(&league, memory);
        (league, fits)
    })
    .await
    .map_err(|_| {
        error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the league could not be sized",
        )
    })?;
    fits.map_err(|why| error(StatusCode::UNPROCESSABLE_ENTITY, &why.to_string()))?;
    Ok(league)
}

/// A league file of a job, read and sized.
async fn job_league_file(app: &Shared, text: &str) -> Result<model::League, ApiError> {
    let league = model::parse_league(text, "league.toml").map_err(|e| invalid_league(&e))?;
    sized(app, league).await
}

/// The league version a job solves (a league too large to solve is refused before it is
/// stored): (league id, version id, the league).
async fn job_league(
    app: &Shared,
    user: &User,
    text: Option<String>,
    league_id: Option<String>,
) -> Result<(String, String, model::League), ApiError> {
    let store = &app.store;
    if let Some(id) = league_id {
        if !matches!(access(app, &id, user).await?, Some(Access::Owner)) {
            return Err(ApiError::NotFound);
        }
        let mut v = store.latest_version(&id).await?.ok_or(ApiError::NotFound)?;
        if let Some(t) = text.filter(|t| *t != v.toml) {
            let league = job_league_file(app, &t).await?;
            let vid = store.add_version(&id, &league.name, &t).await?;
            v = store.version(&vid).await?.ok_or(ApiError::NotFound)?;
        }
        let league = job_league_file(app, &v.toml).await?;
        return Ok((id, v.id, league));
    }
    let t = text.ok_or_else(|| {
        error(
            StatusCode::BAD_REQUEST,
            "no league: send its file or league_id",
        )
    })?;
    // Leagues are told apart by id, never by name: a file sent without a league's id starts
    // a league of its own, whatever it is called.
    let league = job_league_file(app, &t).await?;
    let (id, vid) = store.create_league(user, &league.name, &t).await?;
    Ok((id, vid, league))
}

/// 429 with Retry-After.
fn busy(message: &str) -> ApiError {
    let mut r = error(StatusCode::TOO_MANY_REQUESTS, message).into_response();
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("10"));
    ApiError::from(r)
}

/// The job a request's body describes: a JSON job, or a league file alone.
fn posted_job(headers: &HeaderMap, body: &Bytes) -> Result<JsonJob, ApiError> {
    let bad = |m: String| error(StatusCode::BAD_REQUEST, &m);
    let raw =
        std::str::from_utf8(body).map_err(|_| bad("the league file is not UTF-8 text".into()))?;
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !json {
        return Ok(JsonJob {
            league: Some(raw.to_string()),
            league_id: None,
            time_limit: None,
            spec: JobSpec::default(),
        });
    }
    known_fields(raw)?;
    serde_json::from_str::<JsonJob>(raw).map_err(|e| bad_request(format!("bad JSON job: {e}")))
}

/// `POST /api/jobs`: the league file as the body, or a JSON job. Always a new job.
pub(crate) async fn submit(
    State(app): State<Shared>,
    Query(q): Query<SubmitQuery>,
    headers: HeaderMap,
    Writer(c): Writer,
    body: Bytes,
) -> Answer {
    let job = posted_job(&headers, &body)?;
    let mut spec = job.spec;
    spec.seed = spec.seed.or(q.seed);
    spec.alternatives = spec.alternatives.or(q.alternatives);
    let time_limit = job.time_limit.or(q.time_limit).unwrap_or(30.0);
    if !(time_limit.is_finite() && time_limit > 0.0 && time_limit <= MAX_TIME_LIMIT) {
        return Err(error(
            StatusCode::BAD_REQUEST,
            &format!("time_limit must be a number of seconds from 0 to {MAX_TIME_LIMIT}"),
        ));
    }
    let (league_id, version, league) = job_league(&app, &c.user, job.league, job.league_id).await?;
    if let Some(p) = spec.rerun_of.clone() {
        // A rerun of a published list: its CSV is the current list.
        match app.store.publication(&p).await? {
            Some(publication) if publication.league == league_id => {
                spec.current = Some(publication.csv)
            }
            _ => return Err(ApiError::NotFound),
        }
    }
    check_spec(&spec, &league)?;
    let spec_text = serde_json::to_string(&spec).unwrap_or_default();
    let caps = crate::store::Caps {
        per_account: app.cfg.per_account,
        queue: app.cfg.queue,
    };
    let queued = app
        .store
        .submit(&c.user, &league_id, &version, &spec_text, time_limit, caps)
        .await?;
    match queued {
        Ok(job) => Ok((
            StatusCode::ACCEPTED,
            Json(status_json(&app.store, &job).await),
        )
            .into_response()),
        Err(crate::store::Full::Account(n)) => Err(busy(&format!(
            "you have {n} jobs queued or running (at most {}); try again when one ends",
            app.cfg.per_account
        ))),
        Err(crate::store::Full::Queue(_)) => Err(busy("the queue is full; try again shortly")),
    }
}

/// `GET /api/jobs/{id}`: state, progress and figures (owner or committee).
pub(crate) async fn status(State(app): State<Shared>, j: JobOf<false>) -> Answer {
    Ok(Json(status_json(&app.store, &j.job).await).into_response())
}

/// `DELETE /api/jobs/{id}` (owner): cancels an open job (nothing of it is kept), deletes a
/// finished one.
pub(crate) async fn cancel(State(app): State<Shared>, j: JobOf<true>) -> Answer {
    if app.store.cancel(&j.job.id).await? {
        let job = app.store.job(&j.job.id).await?.ok_or(ApiError::NotFound)?;
        return Ok(Json(status_json(&app.store, &job).await).into_response());
    }
    app.store.delete_job(&j.job.id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

fn text(body: String, content_type: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// A result file of a job the caller may read.
async fn stored_file(app: &Shared, job: &Job, name: &str) -> Result<String, ApiError> {
    app.store.file(&job.id, name).await?.ok_or_else(|| {
        error(
            StatusCode::NOT_FOUND,
            "no such file (has the job finished?)",
        )
    })
}

/// `GET /api/jobs/{id}/fixtures.csv`.
pub(crate) async fn fixtures_csv(State(app): State<Shared>, j: JobOf<false>) -> Answer {
    let csv = stored_file(&app, &j.job, "fixtures.csv").await?;
    Ok(text(csv, "text/csv; charset=utf-8"))
}

/// `GET /api/jobs/{id}/files/{file}`: drafts, diffs, change summaries.
pub(crate) async fn job_file(
    State(app): State<Shared>,
    j: JobOf<false>,
    Path((_, file)): Path<(String, String)>,
) -> Answer {
    let kind = if file.ends_with(".csv") {
        "text/csv; charset=utf-8"
    } else {
        "text/plain; charset=utf-8"
    };
    Ok(text(stored_file(&app, &j.job, &file).await?, kind))
}

/// A rendered site: its files (pages, calendars, the list) by name.
type Site = Vec<(String, String)>;

/// Bytes of rendered sites kept at most; a site is rendered once, off the async threads, and
/// its pages and calendars served from here until newer sites push it out.
const SITE_CACHE_BYTES: usize = 64 * 1024 * 1024;

/// Recently rendered sites, most recent last, keyed by what they were rendered from.
#[derive(Default)]
pub(crate) struct SiteCache(std::sync::Mutex<Vec<(String, Arc<Site>, usize)>>);

impl SiteCache {
    fn get(&self, key: &str) -> Option<Arc<Site>> {
        let mut sites = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let i = sites.iter().position(|(k, _, _)| k == key)?;
        let entry = sites.remove(i);
        let site = entry.1.clone();
        sites.push(entry);
        Some(site)
    }

    fn put(&self, key: String, site: Arc<Site>) {
        let size: usize = site.iter().map(|(n, b)| n.len() + b.len()).sum();
        let mut sites = self.0.lock().unwrap_or_else(|e| e.into_inner());
        sites.retain(|(k, _, _)| *k != key);
        sites.push((key, site, size));
        while sites.len() > 1 && sites.iter().map(|e| e.2).sum::<usize>() > SITE_CACHE_BYTES {
            sites.remove(0);
        }
    }
}

/// The site of a list whose calendars know the lists published before it (oldest first):
/// moved fixtures raise their SEQUENCE, scratched ones stay as cancelled events. Rendered off
/// the async threads, once per `key`.
async fn site(
    app: &Shared,
    key: String,
    toml: String,
    csv: String,
    earlier: Vec<String>,
) -> Result<Arc<Site>, ApiError> {
    if let Some(site) = app.sites.get(&key) {
        return Ok(site);
    }
    let rendered = tokio::task::spawn_blocking(move || {
        let league = model::parse_league(&toml, "league.toml").ok()?;
        let list = check::parse_fixtures(&league, csv.as_bytes(), "fixtures.csv").ok()?;
        let history: Vec<model::FixtureList> = earlier
            .iter()
            .filter_map(|c| check::parse_fixtures(&league, c.as_bytes(), "earlier.csv").ok())
            .map(|l| l.to_neutral(&league))
            .collect();
        Some(report::site::site_with_history(
            &league,
            &list.to_neutral(&league),
            &history,
        ))
    })
    .await
    .ok()
    .flatten()
    .ok_or(ApiError::NotFound)?;
    let site = Arc::new(rendered);
    app.sites.put(key, site.clone());
    Ok(site)
}

/// One file of a site, with its content type.
fn site_file(site: &Site, name: &str) -> Answer {
    let kind = if name.ends_with(".html") {
        "text/html; charset=utf-8"
    } else if name.ends_with(".ics") {
        "text/calendar; charset=utf-8"
    } else if name.ends_with(".csv") {
        "text/csv; charset=utf-8"
    } else {
        "application/octet-stream"
    };
    let (_, body) = site
        .iter()
        .find(|(n, _)| n == name)
        .ok_or(ApiError::NotFound)?;
    Ok(text(body.clone(), kind))
}

/// A site's page with `banner` at the top of its body (other files as they are).
fn site_page(site: &Site, name: &str, banner: &str) -> Answer {
    if !name.ends_with(".html") {
        return site_file(site, name);
    }
    let (_, body) = site
        .iter()
        .find(|(n, _)| n == name)
        .ok_or(ApiError::NotFound)?;
    let page = body.replacen("<body>", &format!("<body>{banner}"), 1);
    Ok(text(page, "text/html; charset=utf-8"))
}

/// A job's report file, rendered from its list and league version.
async fn job_site_file(app: &Shared, job: &Job, name: &str) -> Answer {
    draft_site_file(app, job, "fixtures.csv", name).await
}

/// A page of the report of one of a job's lists (`list`: its fixtures or a draft's CSV).
async fn draft_site_file(app: &Shared, job: &Job, list: &str, name: &str) -> Answer {
    let csv = stored_file(app, job, list).await?;
    let v = app
        .store
        .version(&job.version)
        .await?
        .ok_or(ApiError::NotFound)?;
    let key = format!("job {} {list}", job.id);
    let site = site(app, key, v.toml, csv, Vec::new()).await?;
    site_file(&site, name)
}

/// `GET /api/jobs/{id}/drafts/{n}/report/`: draft n's own report, to look at before choosing.
pub(crate) async fn draft_report_index(
    State(app): State<Shared>,
    j: JobOf<false>,
    Path((_, n)): Path<(String, usize)>,
) -> Answer {
    draft_site_file(&app, &j.job, &format!("draft-{n}.csv"), "index.html").await
}

/// `GET /api/jobs/{id}/drafts/{n}/report/{file}`: a page of draft n's report.
pub(crate) async fn draft_report_file(
    State(app): State<Shared>,
    j: JobOf<false>,
    Path((_, n, file)): Path<(String, usize, String)>,
) -> Answer {
    draft_site_file(&app, &j.job, &format!("draft-{n}.csv"), &file).await
}

/// `GET /api/jobs/{id}/report/`.
pub(crate) async fn report_index(State(app): State<Shared>, j: JobOf<false>) -> Answer {
    job_site_file(&app, &j.job, "index.html").await
}

/// `GET /api/jobs/{id}/report/{file}`.
pub(crate) async fn report_file(
    State(app): State<Shared>,
    j: JobOf<false>,
    Path((_, file)): Path<(String, String)>,
) -> Answer {
    job_site_file(&app, &j.job, &file).await
}

/// `GET /api/jobs/{id}/ics/{team}.ics`.
pub(crate) async fn ics_file(
    State(app): State<Shared>,
    j: JobOf<false>,
    Path((_, file)): Path<(String, String)>,
) -> Answer {
    job_site_file(&app, &j.job, &format!("ics/{file}")).await
}

/// What to publish: a draft of the job (default: its fixture list).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct PublishRequest {
    #[serde(default)]
    draft: Option<usize>,
    /// Publish although the list changes fixtures of the published version that it was not
    /// made from (a fresh solve, a draft, a rerun of an older version).
    #[serde(default)]
    confirm: bool,
}

/// `POST /api/jobs/{id}/publish` (owner): the job's list (or a draft) becomes the league's next
/// published version, public at an unguessable URL; earlier versions stay readable. It goes
/// through the league's season (`serve::season::publish_job`): the first publication starts
/// it; a later one moves nothing dated before today (422 naming what), a list not made from
/// the version in force needs `confirm` when it changes any of its fixtures (409 naming them),
/// and a rerun's withdrawals and new dates go into the league version it records.
pub(crate) async fn publish(State(app): State<Shared>, j: JobOf<true>, body: Bytes) -> Answer {
    let req: PublishRequest = serde_json::from_slice(&body).unwrap_or_default();
    let name = req
        .draft
        .map_or("fixtures.csv".to_string(), |n| format!("draft-{n}.csv"));
    let csv = app.store.file(&j.job.id, &name).await?.ok_or_else(|| {
        error(
            StatusCode::NOT_FOUND,
            "no such list (has the job finished?)",
        )
    })?;
    let p = super::season::publish_job(&app, &j.job, &csv, req.confirm).await?;
    Ok((
        StatusCode::CREATED,
        Json(serde_json::json!({ "id": p.id, "number": p.number, "url": format!("/p/{}/", p.id) })),
    )
        .into_response())
}

/// `GET /api/leagues/{id}/season` (owner or committee): today, the matches awaiting a result
/// and the season's log.
pub(crate) async fn season_status(State(app): State<Shared>, l: LeagueOf<false>) -> Answer {
    Ok(Json(super::season::status(&app, &l.id).await?).into_response())
}

/// `POST /api/leagues/{id}/season` (owner): one operation on the season (`season::Action`:
/// a result, a postponement, a cup draw, play-offs, a replay); a new version is published
/// when it makes one. 400 bad input, 422 what the rules refuse, 409 before a publication.
pub(crate) async fn season_act(
    State(app): State<Shared>,
    l: LeagueOf<true>,
    Json(action): Json<super::season::Action>,
) -> Answer {
    Ok(Json(super::season::act(&app, &l.id, action).await?).into_response())
}

/// A publication by the id of a public URL.
async fn public(app: &Shared, id: &str) -> Result<crate::store::Publication, ApiError> {
    if !is_id(id) {
        return Err(ApiError::NotFound);
    }
    app.store.publication(id).await?.ok_or(ApiError::NotFound)
}

/// A publication's site file, public; with `latest`, the league's newest publication's (the
/// stable URL `/p/{id}/latest/` that clubs keep). Pages say which version they show, and an
/// old version's pages say it was replaced, with the stable link.
async fn public_site_file(app: &Shared, id: &str, name: &str, latest: bool) -> Answer {
    let asked = public(app, id).await?;
    let all = app.store.publications(&asked.league).await?;
    let (first, newest) = match (all.first(), all.last()) {
        (Some(f), Some(n)) => (f.id.clone(), n.clone()),
        _ => (asked.id.clone(), asked.clone()),
    };
    let p = if latest { newest.clone() } else { asked };
    match name {
        "fixtures.csv" => return Ok(text(p.csv, "text/csv; charset=utf-8")),
        "changes.csv" => {
            let diff = p
                .diff
                .ok_or_else(|| error(StatusCode::NOT_FOUND, "the first version has no changes"))?;
            return Ok(text(diff, "text/csv; charset=utf-8"));
        }
        _ => {}
    }
    let v = app
        .store
        .version(&p.version)
        .await?
        .ok_or(ApiError::NotFound)?;
    let earlier: Vec<String> = all
        .iter()
        .filter(|e| e.number < p.number)
        .map(|e| e.csv.clone())
        .collect();
    let key = format!("publication {} after {}", p.id, earlier.len());
    let banner = report::site::version_banner(&report::site::Shown {
        number: p.number,
        published: p.created,
        newest: newest.number,
        replaced: newest.created,
        stable: format!("/p/{first}/latest/"),
    });
    let site = site(app, key, v.toml, p.csv, earlier).await?;
    site_page(&site, name, &banner)
}

/// `GET /p/{id}/latest/`: the league's newest published list, at a URL that stays.
pub(crate) async fn latest_index(State(app): State<Shared>, Path(id): Path<String>) -> Answer {
    public_site_file(&app, &id, "index.html", true).await
}

/// `GET /p/{id}/latest/{file}`: a page or file of the newest published list.
pub(crate) async fn latest_file(
    State(app): State<Shared>,
    Path((id, file)): Path<(String, String)>,
) -> Answer {
    public_site_file(&app, &id, &file, true).await
}

/// `GET /p/{id}/latest/ics/{file}`: a calendar that follows every version.
pub(crate) async fn latest_ics(
    State(app): State<Shared>,
    Path((id, file)): Path<(String, String)>,
) -> Answer {
    public_site_file(&app, &id, &format!("ics/{file}"), true).await
}

/// `GET /p/{id}/`: a published list's report (public, read-only).
pub(crate) async fn public_index(State(app): State<Shared>, Path(id): Path<String>) -> Answer {
    public_site_file(&app, &id, "index.html", false).await
}

/// `GET /p/{id}/{file}`: a page of a published report.
pub(crate) async fn public_file(
    State(app): State<Shared>,
    Path((id, file)): Path<(String, String)>,
) -> Answer {
    public_site_file(&app, &id, &file, false).await
}

/// `GET /p/{id}/ics/{team}.ics`: a team's calendar, to subscribe to.
pub(crate) async fn public_ics(
    State(app): State<Shared>,
    Path((id, file)): Path<(String, String)>,
) -> Answer {
    public_site_file(&app, &id, &format!("ics/{file}"), false).await
}

/// `GET /p/{id}/fixtures.csv`: the published list.
pub(crate) async fn public_csv(State(app): State<Shared>, Path(id): Path<String>) -> Answer {
    Ok(text(
        public(&app, &id).await?.csv,
        "text/csv; charset=utf-8",
    ))
}

/// `GET /p/{id}/changes.csv`: what changed from the version before (a rerun's diff).
pub(crate) async fn public_diff(State(app): State<Shared>, Path(id): Path<String>) -> Answer {
    let diff = public(&app, &id)
        .await?
        .diff
        .ok_or_else(|| error(StatusCode::NOT_FOUND, "the first version has no changes"))?;
    Ok(text(diff, "text/csv; charset=utf-8"))
}

/// A check request: a league file and a fixture list.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CheckRequest {
    league: String,
    fixtures: String,
}

/// An import request: the league file to start from and the team-entry workbook.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ImportRequest {
    league: String,
    /// The workbook's file name (its ending says XLSX, ODS or CSV).
    name: String,
    /// The workbook, base64.
    data: String,
}

/// `POST /api/import` (logged in): the league file with the workbook's teams, clubs and venues;
/// 422 with every bad cell (sheet, row, column) and no league when any does not read.
pub(crate) async fn import_entries(
    State(app): State<Shared>,
    Writer(_): Writer,
    Json(req): Json<ImportRequest>,
) -> Answer {
    let league = entries(&app, &req.league, &req.name, &req.data).await?;
    Ok(Json(serde_json::json!({ "league": league })).into_response())
}

/// `base` with the teams, clubs and venues of the workbook `data` (base64) named `name`: read
/// off the async threads, at most `IMPORTS` at once, each bounded in memory
/// (`import::bounded`); 422 with every bad cell.
pub(crate) async fn entries(
    app: &Shared,
    base: &str,
    name: &str,
    data: &str,
) -> Result<String, ApiError> {
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data.trim())
        .map_err(|_| error(StatusCode::BAD_REQUEST, "data is not base64"))?;
    let _permit = app
        .imports
        .acquire()
        .await
        .map_err(|_| error(StatusCode::SERVICE_UNAVAILABLE, "the service is stopping"))?;
    let name = name.to_string();
    let sheets =
        tokio::task::spawn_blocking(move || crate::import::read_workbook(&bytes, &name, "Teams"))
            .await
            .map_err(|_| {
                error(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "the workbook did not read",
                )
            })?
            .map_err(|e| cell_errors(&[e]))?;
    crate::import::import(base, &sheets).map_err(|e| cell_errors(&e))
}

fn cell_errors(errors: &[crate::import::CellError]) -> ApiError {
    ApiError::Detailed(
        StatusCode::UNPROCESSABLE_ENTITY,
        serde_json::json!({
            "error": "the workbook does not read; nothing changed",
            "messages": errors.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
            "cells": errors.iter().map(|e| serde_json::json!({ "sheet": e.sheet, "row": e.row, "column": e.column, "message": e.message })).collect::<Vec<_>>(),
        }),
    )
}

/// `GET /api/template.xlsx`: the empty team-entry workbook (Teams, Clubs, Venues).
pub(crate) async fn template_xlsx() -> Answer {
    let bytes = crate::import::template_xlsx(None)
        .map_err(|e| error(StatusCode::INTERNAL_SERVER_ERROR, &e))?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            ),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"entries.xlsx\"",
            ),
        ],
        bytes,
    )
        .into_response())
}

/// `POST /api/check`: checks any list against any league; stores nothing.
pub(crate) async fn check_list(Json(req): Json<CheckRequest>) -> Answer {
    let league = model::parse_league(&req.league, "league.toml").map_err(|e| invalid_league(&e))?;
    let list = check::parse_fixtures(&league, req.fixtures.as_bytes(), "fixtures.csv")
        .map_err(|e| error(StatusCode::BAD_REQUEST, &e.to_string()))?;
    let r = check::check(&league, &list);
    Ok(Json(serde_json::json!({
        "valid": r.is_valid(),
        "violations": r.violations.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        "breaks": r.quality.breaks,
        "objective": r.quality.objective,
        "quality": r.quality.to_string(),
    }))
    .into_response())
}

/// The publication `{id}` of the URL with its league file and list, for a caller who may read
/// it (`OWNER`: change it, the secretary only); else 404, as for one that does not exist.
pub(crate) struct PublicationOf<const OWNER: bool> {
    publication: crate::store::Publication,
    toml: String,
    league: model::League,
    list: model::FixtureList,
}

impl<const OWNER: bool> FromRequestParts<Shared> for PublicationOf<OWNER> {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> Result<Self, ApiError> {
        let Path(id) = Path::<String>::from_request_parts(parts, app)
            .await
            .map_err(|_| ApiError::NotFound)?;
        let p = public(app, &id).await?;
        let c = super::error::caller_of::<OWNER>(parts, app).await?;
        super::error::league_access::<OWNER>(app, c, p.league.clone()).await?;
        let v = app
            .store
            .version(&p.version)
            .await?
            .ok_or(ApiError::NotFound)?;
        let league = stored_league(&v.toml)?;
        let list = check::parse_fixtures(&league, p.csv.as_bytes(), "fixtures.csv")
            .map_err(|e| error(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()))?
            .to_neutral(&league);
        Ok(PublicationOf {
            publication: p,
            toml: v.toml,
            league,
            list,
        })
    }
}

/// A date of a request (`today` when absent), else 400 saying which is not a date.
fn day(
    text: Option<&str>,
    what: &str,
    today: chrono::NaiveDate,
) -> Result<chrono::NaiveDate, ApiError> {
    match text {
        None => Ok(today),
        Some(t) => model::parse_iso_date(t.trim()).ok_or_else(|| {
            error(
                StatusCode::BAD_REQUEST,
                &format!("{what} is not a date (YYYY-MM-DD)"),
            )
        }),
    }
}

/// The fixture `HOME v AWAY` of a list, else 400 saying why.
fn fixture(
    league: &model::League,
    list: &model::FixtureList,
    text: &str,
) -> Result<usize, ApiError> {
    crate::season::suggest::find_fixture(league, list, text)
        .map_err(|e| error(StatusCode::BAD_REQUEST, &e.to_string()))
}

/// `?fixture=HOME v AWAY[&agreed=DATE]`
#[derive(Deserialize)]
pub(crate) struct MovesQuery {
    fixture: String,
    agreed: Option<String>,
}

/// A move of a published fixture.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveRequest {
    fixture: String,
    date: String,
    agreed: Option<String>,
    #[serde(default)]
    exceptional: bool,
}

/// `GET /api/publications/{id}/moves`: every date a published fixture could move to without
/// breaking a rule, best first, with what each costs and what rule 2.6 says of an agreement
/// concluded on `agreed` (default today).
pub(crate) async fn moves(
    State(app): State<Shared>,
    p: PublicationOf<false>,
    Query(q): Query<MovesQuery>,
) -> Answer {
    let (league, list) = (&p.league, &p.list);
    let agreed = day(q.agreed.as_deref(), "agreed", app.cfg.today())?;
    let index = fixture(league, list, &q.fixture)?;
    let m = list.matches[index];
    // From tomorrow: a fixture does not move into the past.
    let moves: Vec<serde_json::Value> = super::season::offers(
        league,
        list,
        index,
        app.cfg.today(),
        agreed,
    )
    .iter()
    .map(|o| {
        serde_json::json!({
            "date": o.date, "change": o.change, "costs": o.costs,
            "window": o.window.as_ref().map(|w| w.0), "reason": o.window.as_ref().map(|w| &w.1),
        })
    })
    .collect();
    Ok(Json(serde_json::json!({
        "fixture": format!("{} v {}", league.teams[m.home].name, league.teams[m.away].name),
        "date": m.date, "moves": moves,
    }))
    .into_response())
}

/// `POST /api/publications/{id}/move` (owner): the fixture fixed on its new date, published as
/// the league's next version with its diff, through the league's season: rule 2.6 decides
/// (as for `fixtures season change`): 422 invalid, 409 exceptional unless `exceptional`; a
/// fixture dated before today does not move (422), nor one of a version since replaced (409).
pub(crate) async fn move_published(
    State(app): State<Shared>,
    p: PublicationOf<true>,
    Json(req): Json<MoveRequest>,
) -> Answer {
    let to = day(Some(&req.date), "date", app.cfg.today())?;
    let today = app.cfg.today();
    let agreed = match req.agreed.as_deref() {
        Some(a) => day(Some(a), "agreed", today)?,
        None => today,
    };
    let at = &p.publication.league;
    let (season, rev) = super::season::load(&app, at).await?;
    // A league published before the season record existed: its season starts from this list.
    let started = season.is_none();
    let mut season = match season {
        Some(s) => s,
        None => Season::start(&p.toml, "league.toml", &p.publication.csv, today)?,
    };
    let before = season.current()?.list;
    if !started && season.lists.last().map(|v| &v.csv) != Some(&p.publication.csv) {
        return Err(error(
            StatusCode::CONFLICT,
            "a later version of this list is published: move the fixture there",
        ));
    }
    let window = {
        let index = fixture(&p.league, &p.list, &req.fixture)?;
        let m = p.list.matches[index];
        p.league
            .changes
            .as_ref()
            .map(|ch| crate::season::changes::classify(ch, m.date, to, agreed))
    };
    season.change(today, &req.fixture, to, agreed, req.exceptional)?;
    let made = super::season::Made {
        before: Some(&before),
        version: None,
        job: None,
        diff: None,
    };
    let n = super::season::save(&app, at, &season, rev, made).await?;
    Ok((
        StatusCode::CREATED,
        Json(
            serde_json::json!({ "id": n.id, "number": n.number, "url": format!("/p/{}/", n.id),
                                 "window": window.as_ref().map(|w| w.key()) }),
        ),
    )
        .into_response())
}

/// A job's drafts, read (at most five).
async fn drafts(
    app: &Shared,
    job: &Job,
    league: &model::League,
) -> Result<Vec<(String, check::FixtureList)>, ApiError> {
    let mut lists = Vec::new();
    for n in 1..=5 {
        let Some(csv) = app.store.file(&job.id, &format!("draft-{n}.csv")).await? else {
            break;
        };
        let list = check::parse_fixtures(league, csv.as_bytes(), "draft.csv")
            .map_err(|e| error(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()))?;
        lists.push((format!("draft {n}"), list));
    }
    if lists.is_empty() {
        return Err(error(
            StatusCode::NOT_FOUND,
            "this job has no drafts (solve with alternatives of 2 or more)",
        ));
    }
    Ok(lists)
}

/// `GET /api/jobs/{id}/compare`: the job's drafts side by side (every figure of `compare`, the
/// teams that differ most), for the owner and the committee; the owner also gets a button per
/// draft that chooses and publishes it.
pub(crate) async fn compare_drafts(State(app): State<Shared>, j: JobOf<false>) -> Answer {
    let v = app
        .store
        .version(&j.job.version)
        .await?
        .ok_or(ApiError::NotFound)?;
    let league = stored_league(&v.toml)?;
    let mut lists = drafts(&app, &j.job, &league).await?;
    let count = lists.len();
    // The list the clubs have now, side by side with the drafts, when the drafts' league
    // version holds it (a season's withdrawals and cup ties make a league version of their
    // own, under which the page links it instead).
    let mut published = None;
    if let Some(p) = app.store.publications(&j.job.league).await?.pop() {
        match check::parse_fixtures(&league, p.csv.as_bytes(), "published") {
            Ok(l) if check::check(&league, &l).is_valid() => {
                lists.push((format!("published version {}", p.number), l));
            }
            _ => published = Some(p),
        }
    }
    let table = report::compare::compare(&league, &lists);
    let drafts: Vec<model::FixtureList> =
        lists.iter().map(|(_, l)| l.to_neutral(&league)).collect();
    // The owner chooses: a button per draft publishes it (the page's session token guards it).
    let csrf = match (&j.access, &j.caller.csrf) {
        (Access::Owner, Some(csrf)) => Some(csrf.as_str()),
        _ => None,
    };
    let extra = maud::html! {
        h2 { "Each draft's fixtures" }
        ul { @for n in 1..=count {
            li { a href={ "/api/jobs/" (j.job.id) "/drafts/" (n) "/report/" } { "Draft " (n) ": its divisions, teams and calendars" } }
        } }
        @if let Some(p) = &published {
            p { "The published " a href={ "/p/" (p.id) "/" } { "version " (p.number) } " has changes these drafts' league file does not know (withdrawals, cup ties), so it is not in the table." }
        }
        p { a href={ "/leagues/" (j.job.league) "#season" } { "Back to the league" } }
        h2 { "Each team's weeks" }
        (report::site::strip_legend())
        div.scroll tabindex="0" { table.strip {
            tbody {
                @for t in 0..league.teams.len() {
                    @for (k, d) in drafts.iter().enumerate() {
                        @let rows: Vec<&model::Match> = d.matches.iter().collect();
                        tr {
                            th { (league.teams[t].name) " · " (lists[k].0) }
                            @for (class, tip) in report::site::strip(&league, &rows, t) { td class=(class) title=(tip) {} }
                        }
                    }
                }
            }
        } }
        @if let Some(csrf) = csrf {
            h2 { "Choose" }
            p { @for n in 1..=count {
                button type="button" data-draft=(n) class="choose" { "Choose and publish draft " (n) } " "
            } }
            p #chosen data-job=(j.job.id) data-csrf=(csrf) {}
            script src="/assets/compare.js" {}
        } @else {
            p { "Only the league's secretary can choose a draft." }
        }
    };
    let page = table
        .to_html(&format!("{}: drafts compared", league.name))
        .replacen("</body>", &format!("{}</body>", extra.into_string()), 1);
    Ok(text(page, "text/html; charset=utf-8"))
}
