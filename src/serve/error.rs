//! The handlers' one error and the extractors that open every handler: who is calling (`Reader`,
//! `Writer`) and what of theirs the URL names (`LeagueOf`, `JobOf`). A handler returns
//! `Result<Response, ApiError>` and uses `?`; what the caller is told is decided here.

use super::{changing, reading, Caller, Shared};
use crate::store::{is_id, Access, Job, StoreError};
use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use std::collections::HashMap;

/// Why a request gets no ordinary answer.
#[derive(Debug)]
pub(crate) enum ApiError {
    /// 404: what does not exist and what is not the caller's alike.
    NotFound,
    /// 401: nobody is logged in.
    LogIn,
    /// 403: a session's state-changing request without its CSRF token.
    Csrf,
    /// Any other status with a message for the caller.
    Message(StatusCode, String),
    /// A status with a JSON body of more than a message (a list of messages, bad cells).
    Detailed(StatusCode, serde_json::Value),
    /// 500: the store failed (logged; the caller learns nothing of the database).
    Store(StoreError),
    /// An answer the handler has made itself: a redirect to the login page, a form with its
    /// errors, a 429 with `Retry-After`.
    Answer(Box<Response>),
}

impl ApiError {
    /// What the error says, in words, for a page (its message, and a refusal's reasons).
    pub(crate) fn in_words(&self) -> String {
        match self {
            ApiError::Message(_, m) => m.clone(),
            ApiError::Detailed(_, body) => {
                let mut said = vec![body["error"].as_str().unwrap_or("refused").to_string()];
                for key in ["messages", "changes"] {
                    if let Some(list) = body[key].as_array() {
                        said.extend(list.iter().filter_map(|m| m.as_str()).map(String::from));
                    }
                }
                said.join(": ")
            }
            ApiError::NotFound => "not found".into(),
            _ => "the service failed; try again".into(),
        }
    }

    /// For URLs that carry an id: nobody logged in gets 404 too, as for what does not exist
    /// or is not theirs.
    pub(crate) fn hide(self) -> Self {
        match self {
            ApiError::LogIn => ApiError::NotFound,
            e => e,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, body) = match self {
            ApiError::NotFound => (StatusCode::NOT_FOUND, message("not found")),
            ApiError::LogIn => (StatusCode::UNAUTHORIZED, message("log in first")),
            ApiError::Csrf => (
                StatusCode::FORBIDDEN,
                message("missing or wrong CSRF token: reload the page and try again"),
            ),
            ApiError::Message(status, m) => (status, message(&m)),
            ApiError::Detailed(status, body) => (status, body),
            ApiError::Store(e) => {
                eprintln!("store: {e}");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    message("the service failed; try again"),
                )
            }
            ApiError::Answer(r) => return *r,
        };
        (status, Json(body)).into_response()
    }
}

fn message(m: &str) -> serde_json::Value {
    serde_json::json!({ "error": m })
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        ApiError::Store(e)
    }
}

impl From<Response> for ApiError {
    fn from(r: Response) -> Self {
        ApiError::Answer(Box::new(r))
    }
}

/// What a handler returns.
pub(crate) type Answer = Result<Response, ApiError>;

/// The logged-in caller of a reading request (else 401).
pub(crate) struct Reader(pub(crate) Caller);

/// The caller of a state-changing request, with its CSRF token checked (else 401 or 403).
pub(crate) struct Writer(pub(crate) Caller);

impl FromRequestParts<Shared> for Reader {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> Result<Self, ApiError> {
        reading(app, &parts.headers).await.map(Reader)
    }
}

impl FromRequestParts<Shared> for Writer {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> Result<Self, ApiError> {
        changing(app, &parts.headers, None).await.map(Writer)
    }
}

/// The `{id}` of the URL.
pub(crate) async fn id_of(parts: &mut Parts, app: &Shared) -> Result<String, ApiError> {
    let Path(params) = Path::<HashMap<String, String>>::from_request_parts(parts, app)
        .await
        .map_err(|_| ApiError::NotFound)?;
    params.get("id").cloned().ok_or(ApiError::NotFound)
}

/// The caller, for a state-changing request (`WRITE`) or a reading one; nobody logged in gets
/// 404, as for an id that does not exist.
pub(crate) async fn caller_of<const WRITE: bool>(
    parts: &mut Parts,
    app: &Shared,
) -> Result<Caller, ApiError> {
    if WRITE {
        changing(app, &parts.headers, None).await
    } else {
        reading(app, &parts.headers).await
    }
    .map_err(ApiError::hide)
}

/// The caller's access to league `id`, when they have any.
pub(crate) async fn access(
    app: &Shared,
    id: &str,
    user: &crate::store::User,
) -> Result<Option<Access>, ApiError> {
    if !is_id(id) {
        return Ok(None);
    }
    Ok(app.store.access(id, user).await?)
}

/// The league `{id}` of the URL and the caller's access to it: with `OWNER`, a state-changing
/// request of its secretary; else the secretary's or a committee member's reading. Everything
/// else (nobody, another account, no such league) is 404 alike.
pub(crate) struct LeagueOf<const OWNER: bool> {
    pub(crate) caller: Caller,
    pub(crate) id: String,
    pub(crate) access: Access,
}

impl<const OWNER: bool> FromRequestParts<Shared> for LeagueOf<OWNER> {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> Result<Self, ApiError> {
        let id = id_of(parts, app).await?;
        let caller = caller_of::<OWNER>(parts, app).await?;
        league_access(app, caller, id).await
    }
}

/// `caller`'s access to league `id` (`OWNER`: only the secretary's), else 404.
pub(crate) async fn league_access<const OWNER: bool>(
    app: &Shared,
    caller: Caller,
    id: String,
) -> Result<LeagueOf<OWNER>, ApiError> {
    match access(app, &id, &caller.user).await? {
        Some(Access::Committee) if OWNER => Err(ApiError::NotFound),
        Some(access) => Ok(LeagueOf { caller, id, access }),
        None => Err(ApiError::NotFound),
    }
}

/// The job `{id}` of the URL, the caller and their access to its league (`OWNER`: a
/// state-changing request of the secretary); else 404, as for a job that does not exist.
pub(crate) struct JobOf<const OWNER: bool> {
    pub(crate) caller: Caller,
    pub(crate) job: Job,
    pub(crate) access: Access,
}

impl<const OWNER: bool> FromRequestParts<Shared> for JobOf<OWNER> {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> Result<Self, ApiError> {
        let id = id_of(parts, app).await?;
        let caller = caller_of::<OWNER>(parts, app).await?;
        if !is_id(&id) {
            return Err(ApiError::NotFound);
        }
        let job = app.store.job(&id).await?.ok_or(ApiError::NotFound)?;
        let LeagueOf { caller, access, .. } =
            league_access::<OWNER>(app, caller, job.league.clone()).await?;
        Ok(JobOf {
            caller,
            job,
            access,
        })
    }
}
