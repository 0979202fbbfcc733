//! The JSON API's handlers: thin, each one caller check, one or two store calls, one answer.
//! Anything not the caller's answers 404, exactly as what does not exist.

use super::worker::JobSpec;
use super::{changing, error, internal, not_found, reading, Shared, MAX_TIME_LIMIT};
use crate::store::{is_id, Access, Job, Store, User};
use crate::{check, model, report};
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;

/// 400 with the messages the CLI gives for a bad league file (file, line, key).
fn invalid_league(e: &model::InputErrors) -> Response {
    let messages: Vec<String> = e.0.iter().map(|x| format!("error: {x}")).collect();
    (
        StatusCode::BAD_REQUEST,
        Json(serde_json::json!({ "error": "invalid league file", "messages": messages })),
    )
        .into_response()
}

/// The caller's access to a league; `None` (answer 404) when none or no such league.
async fn access(store: &Store, league: &str, user: &User) -> Result<Option<Access>, Response> {
    if !is_id(league) {
        return Ok(None);
    }
    store.access(league, user).await.map_err(internal)
}

/// A job the caller may read (owner or committee), with the access; else the 404 to give.
async fn readable_job(app: &Shared, id: &str, user: &User) -> Result<(Job, Access), Response> {
    if !is_id(id) {
        return Err(not_found());
    }
    let job = app
        .store
        .job(id)
        .await
        .map_err(internal)?
        .ok_or_else(not_found)?;
    match access(&app.store, &job.league, user).await? {
        Some(a) => Ok((job, a)),
        None => Err(not_found()),
    }
}

/// The caller of a request on an id: for a state-changing one (`write`) with its CSRF check;
/// nobody logged in gets 404, as for an id that does not exist.
async fn caller_for(
    app: &Shared,
    headers: &HeaderMap,
    write: bool,
) -> Result<super::Caller, Response> {
    if write {
        changing(app, headers, None).await
    } else {
        reading(app, headers).await
    }
    .map_err(super::hide)
}

/// The caller of a request on league `id` and their access (`write`: a state-changing
/// request, which must be the owner's); else the answer: 404 for nobody, another account or
/// no such league alike.
async fn league_caller(
    app: &Shared,
    headers: &HeaderMap,
    id: &str,
    write: bool,
) -> Result<(super::Caller, Access), Response> {
    let c = caller_for(app, headers, write).await?;
    match access(&app.store, id, &c.user).await? {
        Some(Access::Committee) if write => Err(not_found()),
        Some(a) => Ok((c, a)),
        None => Err(not_found()),
    }
}

/// The caller of a request on job `id`, the job and their access (`write`: the owner's);
/// else the answer, 404 as for a job that does not exist.
async fn job_caller(
    app: &Shared,
    headers: &HeaderMap,
    id: &str,
    write: bool,
) -> Result<(super::Caller, Job), Response> {
    let c = caller_for(app, headers, write).await?;
    match readable_job(app, id, &c.user).await? {
        (_, Access::Committee) if write => Err(not_found()),
        (job, _) => Ok((c, job)),
    }
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
pub(crate) async fn leagues(State(app): State<Shared>, headers: HeaderMap) -> Response {
    let c = match reading(&app, &headers).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    match app.store.leagues_of(&c.user).await {
        Ok(list) => Json(list).into_response(),
        Err(e) => internal(e),
    }
}

// An axum `Response` is the natural error of a handler's helper: it is what the client gets.
#[allow(clippy::result_large_err)]
fn league_text(body: &Bytes) -> Result<(String, model::League), Response> {
    let text = std::str::from_utf8(body)
        .map_err(|_| error(StatusCode::BAD_REQUEST, "the league file is not UTF-8 text"))?;
    let league = model::parse_league(text, "league.toml").map_err(|e| invalid_league(&e))?;
    Ok((text.to_string(), league))
}

/// `POST /api/leagues` (the league file as the body): a new league owned by the caller.
pub(crate) async fn create_league(
    State(app): State<Shared>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let c = match changing(&app, &headers, None).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let (text, league) = match league_text(&body) {
        Ok(v) => v,
        Err(r) => return r,
    };
    match app.store.create_league(&c.user, &league.name, &text).await {
        Ok((id, _)) => (
            StatusCode::CREATED,
            Json(serde_json::json!({ "id": id, "name": league.name, "versions": 1 })),
        )
            .into_response(),
        Err(e) => internal(e),
    }
}

/// `GET /api/leagues/{id}`: the league, its jobs and its publications (owner or committee).
pub(crate) async fn league(
    State(app): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let a = match league_caller(&app, &headers, &id, false).await {
        Ok((_, a)) => a,
        Err(r) => return r,
    };
    let (Ok(Some(l)), Ok(jobs), Ok(pubs)) = (
        app.store.league(&id).await,
        app.store.jobs_of_league(&id).await,
        app.store.publications(&id).await,
    ) else {
        return error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the service failed; try again",
        );
    };
    let mut statuses = Vec::new();
    for j in &jobs {
        statuses.push(status_json(&app.store, j).await);
    }
    let publications: Vec<serde_json::Value> = pubs
        .iter()
        .map(|p| serde_json::json!({ "id": p.id, "number": p.number, "created": p.created, "url": format!("/p/{}/", p.id) }))
        .collect();
    Json(serde_json::json!({
        "id": l.id, "name": l.name, "versions": l.versions,
        "access": if a == Access::Owner { "owner" } else { "committee" },
        "jobs": statuses, "publications": publications,
    }))
    .into_response()
}

/// `POST /api/leagues/{id}/versions` (owner; the league file as the body): a new version.
pub(crate) async fn add_version(
    State(app): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if let Err(r) = league_caller(&app, &headers, &id, true).await {
        return r;
    }
    let (text, league) = match league_text(&body) {
        Ok(v) => v,
        Err(r) => return r,
    };
    match app.store.add_version(&id, &league.name, &text).await {
        Ok(_) => match app.store.league(&id).await {
            Ok(Some(l)) => (StatusCode::CREATED, Json(l)).into_response(),
            Ok(None) => not_found(),
            Err(e) => internal(e),
        },
        Err(e) => internal(e),
    }
}

/// `GET /api/leagues/{id}/versions/{n}`: a version's league file (owner or committee).
pub(crate) async fn version_file(
    State(app): State<Shared>,
    Path((id, n)): Path<(String, i64)>,
    headers: HeaderMap,
) -> Response {
    if let Err(r) = league_caller(&app, &headers, &id, false).await {
        return r;
    }
    match app.store.version_number(&id, n).await {
        Ok(Some(v)) => text(v.toml, "application/toml; charset=utf-8"),
        Ok(None) => not_found(),
        Err(e) => internal(e),
    }
}

/// `POST /api/leagues/{id}/invitations` (owner): a link that makes whoever opens it (logged
/// in) a committee member.
pub(crate) async fn invite(
    State(app): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    if let Err(r) = league_caller(&app, &headers, &id, true).await {
        return r;
    }
    match app.store.invite(&id, INVITATION_DAYS).await {
        Ok(token) => (
            StatusCode::CREATED,
            Json(serde_json::json!({
                "token": token, "link": format!("/invite/{token}"),
                "expires": crate::store::now() + INVITATION_DAYS * 86_400,
            })),
        )
            .into_response(),
        Err(e) => internal(e),
    }
}

/// Days an invitation can be accepted.
const INVITATION_DAYS: i64 = 14;

/// `GET /api/leagues/{id}/invitations` (owner): the invitations, used or not, with their
/// expiry; `members`: the committee.
pub(crate) async fn invitations(
    State(app): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    if let Err(r) = league_caller(&app, &headers, &id, true).await {
        return r;
    }
    match (
        app.store.invitations(&id).await,
        app.store.members(&id).await,
    ) {
        (Ok(inv), Ok(members)) => Json(serde_json::json!({
            "invitations": inv,
            "members": members.iter().map(|(id, name)| serde_json::json!({ "id": id, "name": name })).collect::<Vec<_>>(),
        }))
        .into_response(),
        (Err(e), _) | (_, Err(e)) => internal(e),
    }
}

/// `DELETE /api/leagues/{id}/invitations/{inv}` (owner): the invitation's link stops working.
pub(crate) async fn revoke_invitation(
    State(app): State<Shared>,
    Path((id, inv)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    owner_deletes(&app, &headers, &id, |s, id| async move {
        s.revoke_invitation(&id, &inv).await
    })
    .await
}

/// `DELETE /api/leagues/{id}/members/{user}` (owner): the member leaves the committee.
pub(crate) async fn remove_member(
    State(app): State<Shared>,
    Path((id, user)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    owner_deletes(&app, &headers, &id, |s, id| async move {
        s.remove_member(&id, &user).await
    })
    .await
}

/// `DELETE /api/leagues/{id}` (owner): the league with all its versions, jobs, drafts,
/// publications (their public pages go too), members and invitations.
pub(crate) async fn delete_league(
    State(app): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    owner_deletes(&app, &headers, &id, |s, id| async move {
        s.delete_league(&id).await.map(|()| true)
    })
    .await
}

/// `DELETE /api/leagues/{id}/versions/{n}` (owner): a league version no publication uses.
pub(crate) async fn delete_version(
    State(app): State<Shared>,
    Path((id, n)): Path<(String, i64)>,
    headers: HeaderMap,
) -> Response {
    if let Err(r) = league_caller(&app, &headers, &id, true).await {
        return r;
    }
    match app.store.delete_version(&id, n).await {
        Ok(Err(why)) => error(StatusCode::CONFLICT, &why),
        Ok(Ok(found)) => deleted(Ok(found)),
        Err(e) => internal(e),
    }
}

/// `DELETE /api/leagues/{id}/publications/{p}` (owner): a published version and its public
/// pages.
pub(crate) async fn delete_publication(
    State(app): State<Shared>,
    Path((id, p)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    owner_deletes(&app, &headers, &id, |s, id| async move {
        s.delete_publication(&id, &p).await
    })
    .await
}

/// The owner's deletion of something of league `id`: 204, or 404 when there was nothing to
/// delete or the caller is not the league's secretary.
async fn owner_deletes<F, Fut>(app: &Shared, headers: &HeaderMap, id: &str, delete: F) -> Response
where
    F: FnOnce(Store, String) -> Fut,
    Fut: std::future::Future<Output = Result<bool, crate::store::StoreError>>,
{
    if let Err(r) = league_caller(app, headers, id, true).await {
        return r;
    }
    deleted(delete(app.store.clone(), id.to_string()).await)
}

/// 204 when something was deleted, 404 when there was nothing to delete.
fn deleted(r: Result<bool, crate::store::StoreError>) -> Response {
    match r {
        Ok(true) => StatusCode::NO_CONTENT.into_response(),
        Ok(false) => not_found(),
        Err(e) => internal(e),
    }
}

/// `GET /api/tokens`: the caller's API tokens (ids, not the tokens), with their expiry.
pub(crate) async fn tokens(State(app): State<Shared>, headers: HeaderMap) -> Response {
    let c = match caller_for(&app, &headers, false).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    match app.store.api_tokens(&c.user).await {
        Ok(t) => Json(serde_json::json!({
            "tokens": t.iter().map(|(id, created, expires)| serde_json::json!({ "id": id, "created": created, "expires": expires })).collect::<Vec<_>>(),
        }))
        .into_response(),
        Err(e) => internal(e),
    }
}

/// `DELETE /api/tokens/{id}`: revokes one of the caller's API tokens.
pub(crate) async fn revoke_token(
    State(app): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let c = match caller_for(&app, &headers, true).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    deleted(app.store.revoke_api_token(&c.user, &id).await)
}

/// `DELETE /api/account`: the caller's account and everything it owns.
pub(crate) async fn delete_account(State(app): State<Shared>, headers: HeaderMap) -> Response {
    let c = match caller_for(&app, &headers, true).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    deleted(app.store.delete_user(&c.user).await.map(|()| true))
}

/// `POST /api/invitations/{token}`: the caller joins the league's committee.
pub(crate) async fn accept(
    State(app): State<Shared>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Response {
    let c = match changing(&app, &headers, None).await {
        Ok(c) => c,
        Err(r) => return super::hide(r),
    };
    if !is_id(&token) {
        return not_found();
    }
    match app.store.accept(&token, &c.user).await {
        Ok(Some(league)) => Json(serde_json::json!({ "league": league })).into_response(),
        Ok(None) => not_found(),
        Err(e) => internal(e),
    }
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
fn known_fields(raw: &str) -> Result<(), String> {
    let value: serde_json::Value =
        serde_json::from_str(raw).map_err(|e| format!("bad JSON job: {e}"))?;
    if let Some(o) = value.as_object() {
        if let Some(k) = o.keys().find(|k| !JOB_FIELDS.contains(&k.as_str())) {
            return Err(format!(
                "bad JSON job: unknown field `{k}`; the fields are {}",
                JOB_FIELDS.join(", ")
            ));
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

/// The league, if its solve fits a worker's memory (the size model, `pipeline::fits`); else
/// the answer to give. Checked before anything of the job is stored.
async fn sized(app: &Shared, league: model::League) -> Result<model::League, Response> {
    let memory = app.cfg.worker_memory;
    let sized = tokio::task::spawn_blocking(move || {
        let fits = crate::pipeline::fits(&league, memory);
        (league, fits)
    })
    .await;
    match sized {
        Ok((league, Ok(_))) => Ok(league),
        Ok((_, Err(why))) => Err(error(StatusCode::UNPROCESSABLE_ENTITY, &why)),
        Err(_) => Err(error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the league could not be sized",
        )),
    }
}

/// The league version a job solves (a league too large to solve is refused before it is
/// stored): (league id, version id, the league).
async fn job_league(
    app: &Shared,
    user: &User,
    text: Option<String>,
    league_id: Option<String>,
) -> Result<(String, String, model::League), Response> {
    let store = &app.store;
    if let Some(id) = league_id {
        if !matches!(access(store, &id, user).await?, Some(Access::Owner)) {
            return Err(not_found());
        }
        let mut v = store
            .latest_version(&id)
            .await
            .map_err(internal)?
            .ok_or_else(not_found)?;
        if let Some(t) = text.filter(|t| *t != v.toml) {
            let league = model::parse_league(&t, "league.toml").map_err(|e| invalid_league(&e))?;
            let league = sized(app, league).await?;
            let vid = store
                .add_version(&id, &league.name, &t)
                .await
                .map_err(internal)?;
            v = store
                .version(&vid)
                .await
                .map_err(internal)?
                .ok_or_else(not_found)?;
        }
        let league = model::parse_league(&v.toml, "league.toml").map_err(|e| invalid_league(&e))?;
        let league = sized(app, league).await?;
        return Ok((id, v.id, league));
    }
    let t = text.ok_or_else(|| {
        error(
            StatusCode::BAD_REQUEST,
            "no league: send its file or league_id",
        )
    })?;
    let league = model::parse_league(&t, "league.toml").map_err(|e| invalid_league(&e))?;
    let league = sized(app, league).await?;
    // The caller's league of that name gets a new version when the file changed.
    let owned = store.leagues_of(user).await.map_err(internal)?;
    if let Some(l) = owned
        .iter()
        .find(|l| l.owner == user.id && l.name == league.name)
    {
        let v = store
            .latest_version(&l.id)
            .await
            .map_err(internal)?
            .ok_or_else(not_found)?;
        let vid = if v.toml == t {
            v.id
        } else {
            store
                .add_version(&l.id, &league.name, &t)
                .await
                .map_err(internal)?
        };
        return Ok((l.id.clone(), vid, league));
    }
    let (id, vid) = store
        .create_league(user, &league.name, &t)
        .await
        .map_err(internal)?;
    Ok((id, vid, league))
}

/// Checks a job's options against its league: a message for a 400 when they do not fit.
fn check_spec(spec: &JobSpec, league: &model::League) -> Result<(), String> {
    if spec.alternatives.is_some_and(|k| !(1..=5).contains(&k)) {
        return Err("alternatives must be from 1 to 5".into());
    }
    if spec.current.is_some() != spec.from.is_some() {
        return Err(
            "rescheduling needs both `current` (the fixture list) and `from` (a date)".into(),
        );
    }
    if let Some(from) = &spec.from {
        if model::parse_iso_date(from).is_none() {
            return Err(format!("from: \"{from}\" is not a date (YYYY-MM-DD)"));
        }
    }
    if let Some(bad) = spec
        .withdraw
        .iter()
        .find(|t| league.team_by_name(t).is_none())
    {
        return Err(format!("withdraw: no team \"{bad}\""));
    }
    Ok(())
}

/// 429 with Retry-After.
fn busy(message: &str) -> Response {
    let mut r = error(StatusCode::TOO_MANY_REQUESTS, message);
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("10"));
    r
}

/// `POST /api/jobs`: the league file as the body, or a JSON job. Always a new job.
pub(crate) async fn submit(
    State(app): State<Shared>,
    Query(q): Query<SubmitQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let c = match changing(&app, &headers, None).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let Ok(raw) = std::str::from_utf8(&body) else {
        return error(StatusCode::BAD_REQUEST, "the league file is not UTF-8 text");
    };
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    let job = if json {
        if let Err(m) = known_fields(raw) {
            return error(StatusCode::BAD_REQUEST, &m);
        }
        match serde_json::from_str::<JsonJob>(raw) {
            Ok(j) => j,
            Err(e) => return error(StatusCode::BAD_REQUEST, &format!("bad JSON job: {e}")),
        }
    } else {
        JsonJob {
            league: Some(raw.to_string()),
            league_id: None,
            time_limit: None,
            spec: JobSpec::default(),
        }
    };
    let mut spec = job.spec;
    spec.seed = spec.seed.or(q.seed);
    spec.alternatives = spec.alternatives.or(q.alternatives);
    let time_limit = job.time_limit.or(q.time_limit).unwrap_or(30.0);
    if !(time_limit.is_finite() && time_limit > 0.0 && time_limit <= MAX_TIME_LIMIT) {
        return error(
            StatusCode::BAD_REQUEST,
            &format!("time_limit must be a number of seconds from 0 to {MAX_TIME_LIMIT}"),
        );
    }
    let (league_id, version, league) =
        match job_league(&app, &c.user, job.league, job.league_id).await {
            Ok(v) => v,
            Err(r) => return r,
        };
    if let Some(p) = spec.rerun_of.clone() {
        // A rerun of a published list: its CSV is the current list.
        match app.store.publication(&p).await {
            Ok(Some(publication)) if publication.league == league_id => {
                spec.current = Some(publication.csv)
            }
            Ok(_) => return not_found(),
            Err(e) => return internal(e),
        }
    }
    if let Err(m) = check_spec(&spec, &league) {
        return error(StatusCode::BAD_REQUEST, &m);
    }
    let spec_text = serde_json::to_string(&spec).unwrap_or_default();
    let caps = crate::store::Caps {
        per_account: app.cfg.per_account,
        queue: app.cfg.queue,
    };
    match app
        .store
        .submit(&c.user, &league_id, &version, &spec_text, time_limit, caps)
        .await
    {
        Ok(Ok(job)) => (
            StatusCode::ACCEPTED,
            Json(status_json(&app.store, &job).await),
        )
            .into_response(),
        Ok(Err(crate::store::Full::Account(n))) => busy(&format!(
            "you have {n} jobs queued or running (at most {}); try again when one ends",
            app.cfg.per_account
        )),
        Ok(Err(crate::store::Full::Queue(_))) => busy("the queue is full; try again shortly"),
        Err(e) => internal(e),
    }
}

/// `GET /api/jobs/{id}`: state, progress and figures (owner or committee).
pub(crate) async fn status(
    State(app): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    match job_caller(&app, &headers, &id, false).await {
        Ok((_, job)) => Json(status_json(&app.store, &job).await).into_response(),
        Err(r) => r,
    }
}

/// `DELETE /api/jobs/{id}` (owner): cancels an open job (nothing of it is kept), deletes a
/// finished one.
pub(crate) async fn cancel(
    State(app): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let job = match job_caller(&app, &headers, &id, true).await {
        Ok((_, job)) => job,
        Err(r) => return r,
    };
    match app.store.cancel(&job.id).await {
        Ok(true) => match app.store.job(&job.id).await {
            Ok(Some(j)) => Json(status_json(&app.store, &j).await).into_response(),
            Ok(None) => not_found(),
            Err(e) => internal(e),
        },
        Ok(false) => match app.store.delete_job(&job.id).await {
            Ok(()) => StatusCode::NO_CONTENT.into_response(),
            Err(e) => internal(e),
        },
        Err(e) => internal(e),
    }
}

fn text(body: String, content_type: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// A result file of a job the caller may read.
async fn stored_file(
    app: &Shared,
    id: &str,
    name: &str,
    headers: &HeaderMap,
) -> Result<String, Response> {
    let (_, job) = job_caller(app, headers, id, false).await?;
    app.store
        .file(&job.id, name)
        .await
        .map_err(internal)?
        .ok_or_else(|| {
            error(
                StatusCode::NOT_FOUND,
                "no such file (has the job finished?)",
            )
        })
}

/// `GET /api/jobs/{id}/fixtures.csv`.
pub(crate) async fn fixtures_csv(
    State(app): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    match stored_file(&app, &id, "fixtures.csv", &headers).await {
        Ok(t) => text(t, "text/csv; charset=utf-8"),
        Err(r) => r,
    }
}

/// `GET /api/jobs/{id}/files/{file}`: drafts, diffs, change summaries.
pub(crate) async fn job_file(
    State(app): State<Shared>,
    Path((id, file)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let kind = if file.ends_with(".csv") {
        "text/csv; charset=utf-8"
    } else {
        "text/plain; charset=utf-8"
    };
    match stored_file(&app, &id, &file, &headers).await {
        Ok(t) => text(t, kind),
        Err(r) => r,
    }
}

/// The published site of a list (pages and calendars), rendered from the league file.
fn site(toml: &str, csv: &str) -> Option<Vec<(String, String)>> {
    site_after(toml, csv, &[])
}

/// The site of a list whose calendars know the lists published before it (oldest first):
/// moved fixtures raise their SEQUENCE, scratched ones stay as cancelled events.
fn site_after(toml: &str, csv: &str, earlier: &[String]) -> Option<Vec<(String, String)>> {
    let league = model::parse_league(toml, "league.toml").ok()?;
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
}

fn site_file(files: Option<Vec<(String, String)>>, name: &str) -> Response {
    let kind = if name.ends_with(".html") {
        "text/html; charset=utf-8"
    } else if name.ends_with(".ics") {
        "text/calendar; charset=utf-8"
    } else if name.ends_with(".csv") {
        "text/csv; charset=utf-8"
    } else {
        "application/octet-stream"
    };
    match files.and_then(|f| f.into_iter().find(|(n, _)| n == name)) {
        Some((_, body)) => text(body, kind),
        None => not_found(),
    }
}

/// A job's report file, rendered from its list and league version.
async fn job_site_file(app: &Shared, id: &str, name: &str, headers: &HeaderMap) -> Response {
    let csv = match stored_file(app, id, "fixtures.csv", headers).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let Ok(Some(job)) = app.store.job(id).await else {
        return not_found();
    };
    let Ok(Some(v)) = app.store.version(&job.version).await else {
        return not_found();
    };
    site_file(site(&v.toml, &csv), name)
}

/// `GET /api/jobs/{id}/report/`.
pub(crate) async fn report_index(
    State(app): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    job_site_file(&app, &id, "index.html", &headers).await
}

/// `GET /api/jobs/{id}/report/{file}`.
pub(crate) async fn report_file(
    State(app): State<Shared>,
    Path((id, file)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    job_site_file(&app, &id, &file, &headers).await
}

/// `GET /api/jobs/{id}/ics/{team}.ics`.
pub(crate) async fn ics_file(
    State(app): State<Shared>,
    Path((id, file)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    job_site_file(&app, &id, &format!("ics/{file}"), &headers).await
}

/// What to publish: a draft of the job (default: its fixture list).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct PublishRequest {
    #[serde(default)]
    draft: Option<usize>,
}

/// `POST /api/jobs/{id}/publish` (owner): the job's list (or a draft) becomes the league's next
/// published version, public at an unguessable URL; earlier versions stay readable. A rerun's
/// diff goes with it.
pub(crate) async fn publish(
    State(app): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let req: PublishRequest = serde_json::from_slice(&body).unwrap_or_default();
    let job = match job_caller(&app, &headers, &id, true).await {
        Ok((_, job)) => job,
        Err(r) => return r,
    };
    let name = req
        .draft
        .map_or("fixtures.csv".to_string(), |n| format!("draft-{n}.csv"));
    let (Ok(csv), Ok(diff)) = (
        app.store.file(&job.id, &name).await,
        app.store.file(&job.id, "fixtures.diff.csv").await,
    ) else {
        return error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the service failed; try again",
        );
    };
    let Some(csv) = csv else {
        return error(
            StatusCode::NOT_FOUND,
            "no such list (has the job finished?)",
        );
    };
    match app.store.publish(&job.league, &job.version, Some(&job.id), &csv, diff.as_deref()).await {
        Ok(p) => (
            StatusCode::CREATED,
            Json(serde_json::json!({ "id": p.id, "number": p.number, "url": format!("/p/{}/", p.id) })),
        )
            .into_response(),
        Err(e) => internal(e),
    }
}

/// A publication's site file, public.
async fn public_site_file(app: &Shared, id: &str, name: &str) -> Response {
    if !is_id(id) {
        return not_found();
    }
    let Ok(Some(p)) = app.store.publication(id).await else {
        return not_found();
    };
    let Ok(Some(v)) = app.store.version(&p.version).await else {
        return not_found();
    };
    let earlier: Vec<String> = match app.store.publications(&p.league).await {
        Ok(all) => all
            .into_iter()
            .filter(|e| e.number < p.number)
            .map(|e| e.csv)
            .collect(),
        Err(e) => return internal(e),
    };
    site_file(site_after(&v.toml, &p.csv, &earlier), name)
}

/// `GET /p/{id}/`: a published list's report (public, read-only).
pub(crate) async fn public_index(State(app): State<Shared>, Path(id): Path<String>) -> Response {
    public_site_file(&app, &id, "index.html").await
}

/// `GET /p/{id}/{file}`: a page of a published report.
pub(crate) async fn public_file(
    State(app): State<Shared>,
    Path((id, file)): Path<(String, String)>,
) -> Response {
    public_site_file(&app, &id, &file).await
}

/// `GET /p/{id}/ics/{team}.ics`: a team's calendar, to subscribe to.
pub(crate) async fn public_ics(
    State(app): State<Shared>,
    Path((id, file)): Path<(String, String)>,
) -> Response {
    public_site_file(&app, &id, &format!("ics/{file}")).await
}

/// `GET /p/{id}/fixtures.csv`: the published list.
pub(crate) async fn public_csv(State(app): State<Shared>, Path(id): Path<String>) -> Response {
    match is_id(&id).then_some(()) {
        Some(()) => match app.store.publication(&id).await {
            Ok(Some(p)) => text(p.csv, "text/csv; charset=utf-8"),
            Ok(None) => not_found(),
            Err(e) => internal(e),
        },
        None => not_found(),
    }
}

/// `GET /p/{id}/changes.csv`: what changed from the version before (a rerun's diff).
pub(crate) async fn public_diff(State(app): State<Shared>, Path(id): Path<String>) -> Response {
    if !is_id(&id) {
        return not_found();
    }
    match app.store.publication(&id).await {
        Ok(Some(p)) => match p.diff {
            Some(d) => text(d, "text/csv; charset=utf-8"),
            None => error(StatusCode::NOT_FOUND, "the first version has no changes"),
        },
        Ok(None) => not_found(),
        Err(e) => internal(e),
    }
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
    headers: HeaderMap,
    Json(req): Json<ImportRequest>,
) -> Response {
    if let Err(r) = caller_for(&app, &headers, true).await {
        return r;
    }
    use base64::Engine;
    let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(req.data.trim()) else {
        return error(StatusCode::BAD_REQUEST, "data is not base64");
    };
    // Off the async threads, and at most `IMPORTS` at once: each is bounded in memory
    // (`import::bounded`), and so are all of them together.
    let Ok(_permit) = app.imports.acquire().await else {
        return error(StatusCode::SERVICE_UNAVAILABLE, "the service is stopping");
    };
    let name = req.name.clone();
    let read =
        tokio::task::spawn_blocking(move || crate::import::read_workbook(&bytes, &name, "Teams"))
            .await;
    let sheets = match read {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => return cell_errors(&[e]),
        Err(_) => {
            return error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the workbook did not read",
            )
        }
    };
    match crate::import::import(&req.league, &sheets) {
        Ok(league) => Json(serde_json::json!({ "league": league })).into_response(),
        Err(errors) => cell_errors(&errors),
    }
}

fn cell_errors(errors: &[crate::import::CellError]) -> Response {
    (
        StatusCode::UNPROCESSABLE_ENTITY,
        Json(serde_json::json!({
            "error": "the workbook does not read; nothing changed",
            "messages": errors.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
            "cells": errors.iter().map(|e| serde_json::json!({ "sheet": e.sheet, "row": e.row, "column": e.column, "message": e.message })).collect::<Vec<_>>(),
        })),
    )
        .into_response()
}

/// `GET /api/template.xlsx`: the empty team-entry workbook (Teams, Clubs, Venues).
pub(crate) async fn template_xlsx() -> Response {
    match crate::import::template_xlsx(None) {
        Ok(bytes) => (
            [
                (
                    axum::http::header::CONTENT_TYPE,
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                ),
                (
                    axum::http::header::CONTENT_DISPOSITION,
                    "attachment; filename=\"entries.xlsx\"",
                ),
            ],
            bytes,
        )
            .into_response(),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, &e),
    }
}

/// `POST /api/check`: checks any list against any league; stores nothing.
pub(crate) async fn check_list(Json(req): Json<CheckRequest>) -> Response {
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

/// A publication, its league file and list, for a caller who may read it (`write`: change it,
/// the owner only); else 404, as for one that does not exist.
async fn published(
    app: &Shared,
    headers: &HeaderMap,
    id: &str,
    write: bool,
) -> Result<
    (
        crate::store::Publication,
        String,
        model::League,
        model::FixtureList,
    ),
    Response,
> {
    if !is_id(id) {
        return Err(not_found());
    }
    let p = app
        .store
        .publication(id)
        .await
        .map_err(internal)?
        .ok_or_else(not_found)?;
    league_caller(app, headers, &p.league, write).await?;
    let v = app
        .store
        .version(&p.version)
        .await
        .map_err(internal)?
        .ok_or_else(not_found)?;
    let league = model::parse_league(&v.toml, "league.toml")
        .map_err(|e| error(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()))?;
    let list = check::parse_fixtures(&league, p.csv.as_bytes(), "fixtures.csv")
        .map_err(|e| error(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()))?
        .to_neutral(&league);
    Ok((p, v.toml, league, list))
}

/// A date of a request (today when absent), or the message saying which is not a date.
fn day(text: Option<&str>, what: &str) -> Result<chrono::NaiveDate, String> {
    match text {
        None => Ok(chrono::Local::now().date_naive()),
        Some(t) => model::parse_iso_date(t.trim())
            .ok_or_else(|| format!("{what} is not a date (YYYY-MM-DD)")),
    }
}

/// `?fixture=HOME v AWAY[&agreed=DATE]`
#[derive(Deserialize)]
pub(crate) struct MovesQuery {
    fixture: String,
    agreed: Option<String>,
}

/// `GET /api/publications/{id}/moves`: every date a published fixture could move to without
/// breaking a rule, best first, with what each costs and what rule 2.6 says of an agreement
/// concluded on `agreed` (default today).
pub(crate) async fn moves(
    State(app): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<MovesQuery>,
) -> Response {
    let (_, _, league, list) = match published(&app, &headers, &id, false).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let agreed = match day(q.agreed.as_deref(), "agreed") {
        Ok(d) => d,
        Err(e) => return error(StatusCode::BAD_REQUEST, &e),
    };
    let index = match crate::season::suggest::find_fixture(&league, &list, &q.fixture) {
        Ok(i) => i,
        Err(e) => return error(StatusCode::BAD_REQUEST, &e.to_string()),
    };
    let m = list.matches[index];
    let found = crate::season::suggest::suggest(&league, &list, index, league.start);
    let moves: Vec<serde_json::Value> = found
        .iter()
        .map(|s| {
            let window = league
                .changes
                .as_ref()
                .map(|ch| crate::season::changes::classify(ch, m.date, s.date, agreed));
            serde_json::json!({
                "date": s.date, "change": s.change, "costs": s.costs,
                "window": window.as_ref().map(|w| w.key()), "reason": window.as_ref().map(|w| w.reason().to_string()),
            })
        })
        .collect();
    Json(serde_json::json!({
        "fixture": format!("{} v {}", league.teams[m.home].name, league.teams[m.away].name),
        "date": m.date, "moves": moves,
    }))
    .into_response()
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

/// `POST /api/publications/{id}/move` (owner): the fixture fixed on its new date, published as
/// the league's next version with its diff; rule 2.6 decides first (422 invalid, 409
/// exceptional unless `exceptional`), then the independent checker.
pub(crate) async fn move_published(
    State(app): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Json(req): Json<MoveRequest>,
) -> Response {
    let (p, toml, league, list) = match published(&app, &headers, &id, true).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let (to, agreed) = match (
        day(Some(&req.date), "date"),
        day(req.agreed.as_deref(), "agreed"),
    ) {
        (Ok(t), Ok(a)) => (t, a),
        (Err(e), _) | (_, Err(e)) => return error(StatusCode::BAD_REQUEST, &e),
    };
    let index = match crate::season::suggest::find_fixture(&league, &list, &req.fixture) {
        Ok(i) => i,
        Err(e) => return error(StatusCode::BAD_REQUEST, &e.to_string()),
    };
    let m = list.matches[index];
    use crate::season::changes::{self, Window};
    let window = league
        .changes
        .as_ref()
        .map(|ch| changes::classify(ch, m.date, to, agreed));
    match &window {
        Some(Window::Invalid(why)) => return error(StatusCode::UNPROCESSABLE_ENTITY, why),
        Some(Window::Exceptional(why)) if !req.exceptional => {
            return error(StatusCode::CONFLICT, &format!("{why}: only under exceptional circumstances (send \"exceptional\": true when the committee allows it)"))
        }
        _ => {}
    }
    let moved = match changes::move_fixture(&league, &list, index, to) {
        Ok(m) => m,
        Err(v) => {
            return (
                StatusCode::UNPROCESSABLE_ENTITY,
                Json(serde_json::json!({ "error": format!("on {to} it breaks the league's rules"), "messages": v })),
            )
                .into_response()
        }
    };
    let (home, away) = (&league.teams[m.home].name, &league.teams[m.away].name);
    let new_toml = match changes::fixed_toml(&toml, home, away, to) {
        Ok(t) => t,
        Err(e) => return error(StatusCode::INTERNAL_SERVER_ERROR, &e),
    };
    let diff = crate::season::reschedule::diff_csv(
        &moved.league,
        &crate::season::reschedule::diff(&moved.league, &list, moved.checked.list()),
    );
    let version = match app
        .store
        .add_version(&p.league, &league.name, &new_toml)
        .await
    {
        Ok(v) => v,
        Err(e) => return internal(e),
    };
    match app
        .store
        .publish(&p.league, &version, None, moved.checked.csv(), Some(&diff))
        .await
    {
        Ok(n) => (
            StatusCode::CREATED,
            Json(
                serde_json::json!({ "id": n.id, "number": n.number, "url": format!("/p/{}/", n.id),
                                     "window": window.as_ref().map(|w| w.key()) }),
            ),
        )
            .into_response(),
        Err(e) => internal(e),
    }
}

/// `GET /api/jobs/{id}/compare`: the job's drafts side by side (every figure of `compare`, the
/// teams that differ most), for the owner and the committee; the owner also gets a button per
/// draft that chooses and publishes it.
pub(crate) async fn compare_drafts(
    State(app): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let c = match caller_for(&app, &headers, false).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let (job, access) = match readable_job(&app, &id, &c.user).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let v = match app.store.version(&job.version).await {
        Ok(Some(v)) => v,
        Ok(None) => return not_found(),
        Err(e) => return internal(e),
    };
    let Ok(league) = model::parse_league(&v.toml, "league.toml") else {
        return error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the league version does not read",
        );
    };
    let mut lists = Vec::new();
    for n in 1..=5 {
        match app.store.file(&job.id, &format!("draft-{n}.csv")).await {
            Ok(Some(csv)) => match check::parse_fixtures(&league, csv.as_bytes(), "draft.csv") {
                Ok(l) => lists.push((format!("draft {n}"), l)),
                Err(e) => return error(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
            },
            Ok(None) => break,
            Err(e) => return internal(e),
        }
    }
    if lists.is_empty() {
        return error(
            StatusCode::NOT_FOUND,
            "this job has no drafts (solve with alternatives of 2 or more)",
        );
    }
    let page = report::compare::compare(&league, &lists)
        .to_html(&format!("{}: drafts compared", league.name));
    // The owner chooses: a button per draft publishes it (the page's session token guards it).
    let choose = match (&access, &c.csrf) {
        (Access::Owner, Some(csrf)) => {
            let buttons: String = (1..=lists.len())
                .map(|n| format!("<button type=\"button\" data-draft=\"{n}\" class=\"choose\">Choose and publish draft {n}</button> "))
                .collect();
            format!(
                r#"<h2>Choose</h2><p>{buttons}</p><p id="chosen" data-job="{}" data-csrf="{}"></p>
<script src="/assets/compare.js"></script>"#,
                super::page::esc(&id),
                super::page::esc(csrf)
            )
        }
        _ => "<p>Only the league's secretary can choose a draft.</p>".to_string(),
    };
    // Each team's weekly strip in every draft, one under the other.
    let drafts: Vec<model::FixtureList> =
        lists.iter().map(|(_, l)| l.to_neutral(&league)).collect();
    let strips = maud::html! {
        h2 { "Each team's weeks" }
        (report::site::strip_legend())
        div style="overflow-x:auto" { table.strip {
            tbody {
                @for t in 0..league.teams.len() {
                    @for (k, d) in drafts.iter().enumerate() {
                        @let rows: Vec<&model::Match> = d.matches.iter().collect();
                        tr {
                            th { (league.teams[t].name) " · draft " (k + 1) }
                            @for (class, tip) in report::site::strip(&league, &rows, t) { td class=(class) title=(tip) {} }
                        }
                    }
                }
            }
        } }
    };
    let page = page.replacen(
        "</body>",
        &format!("{}{choose}</body>", strips.into_string()),
        1,
    );
    text(page, "text/html; charset=utf-8")
}
