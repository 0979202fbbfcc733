//! Logging in and out, and accepting an invitation: sessions, API tokens, rate limits.

use super::{changing, error, page, session_cookie, Answer, ApiError, Shared, COOKIE};
use crate::store::StoreError;
use axum::extract::{ConnectInfo, Form, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::IntoResponse;
use axum::Json;
use serde::Deserialize;
use std::net::SocketAddr;

/// Failed logins allowed in `WINDOW` seconds: for one account from one address (so an
/// attacker elsewhere cannot lock its owner out), from one address over all accounts, and for
/// one account from everywhere (a guessing attack spread over many addresses).
const MAX_PAIR_FAILURES: i64 = 5;
const MAX_ADDRESS_FAILURES: i64 = 20;
const MAX_ACCOUNT_FAILURES: i64 = 100;
const WINDOW: i64 = 15 * 60;
/// Days a session lasts.
const SESSION_DAYS: i64 = 14;
/// Keys the limiter remembers at most; beyond, the oldest idle ones are forgotten.
const MAX_KEYS: usize = 100_000;

/// A login, from the page's form or the API.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Login {
    name: String,
    password: String,
    /// Where the page form goes after the login (an invitation opened while logged out).
    #[serde(default)]
    next: Option<String>,
}

/// Login failures and logins being checked, per key, in this process. A login is counted
/// before its password is hashed, in one critical section with the check, so concurrent
/// attempts never pass a limit; the store's counts add the other processes' failures.
#[derive(Default)]
pub(crate) struct Limiter {
    keys: std::sync::Mutex<std::collections::HashMap<String, Tally>>,
}

#[derive(Default)]
struct Tally {
    failures: Vec<i64>,
    checking: i64,
}

impl Limiter {
    /// Reserves a check for every key, if none is at its limit (`stored`: the store's counts).
    fn reserve(&self, keys: &[(String, i64)], stored: &[i64], now: i64) -> bool {
        let Ok(mut map) = self.keys.lock() else {
            return false;
        };
        for ((key, limit), stored) in keys.iter().zip(stored) {
            let (local, checking) = map.get_mut(key).map_or((0, 0), |t| {
                t.failures.retain(|&at| at >= now - WINDOW);
                (t.failures.len() as i64, t.checking)
            });
            if local.max(*stored) + checking >= *limit {
                return false;
            }
        }
        if map.len() + keys.len() > MAX_KEYS {
            map.retain(|_, t| t.checking > 0 || t.failures.iter().any(|&at| at >= now - WINDOW));
        }
        for (key, _) in keys {
            map.entry(key.clone()).or_default().checking += 1;
        }
        true
    }

    /// Ends a reserved check, counting a failure for every key when it failed.
    fn release(&self, keys: &[(String, i64)], failed: bool, now: i64) {
        if let Ok(mut map) = self.keys.lock() {
            for (key, _) in keys {
                let t = map.entry(key.clone()).or_default();
                t.checking -= 1;
                if failed {
                    t.failures.push(now);
                }
            }
        }
    }
}

/// The client's address: the connection's, or, when that is a trusted proxy, the last address
/// in `X-Forwarded-For` that is not a trusted proxy.
pub(crate) fn client_ip(
    addr: SocketAddr,
    headers: &HeaderMap,
    trusted: &[std::net::IpAddr],
) -> std::net::IpAddr {
    let mut ip = addr.ip();
    if !trusted.contains(&ip) {
        return ip;
    }
    let forwarded = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect::<Vec<_>>();
    for hop in forwarded.iter().rev() {
        match hop.parse::<std::net::IpAddr>() {
            Ok(h) => {
                ip = h;
                if !trusted.contains(&h) {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    ip
}

/// Why a login gets no session.
#[derive(Debug)]
enum Refused {
    /// Too many failures lately (for the pair, the address or the account).
    TooMany,
    /// No such name, or not its password.
    Wrong,
    /// The store failed.
    Store(StoreError),
}

impl From<StoreError> for Refused {
    fn from(e: StoreError) -> Self {
        Refused::Store(e)
    }
}

impl From<Refused> for ApiError {
    fn from(r: Refused) -> Self {
        match r {
            Refused::TooMany => {
                let mut r = error(
                    StatusCode::TOO_MANY_REQUESTS,
                    "too many failed logins; try again in 15 minutes",
                )
                .into_response();
                r.headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static("900"));
                ApiError::from(r)
            }
            Refused::Wrong => error(StatusCode::UNAUTHORIZED, "wrong name or password"),
            Refused::Store(e) => ApiError::Store(e),
        }
    }
}

/// Checks a login against the rate limits and the store: the user, or why not.
async fn attempt(
    app: &Shared,
    ip: std::net::IpAddr,
    login: &Login,
) -> Result<crate::store::User, Refused> {
    let now = crate::store::now();
    let name = crate::store::name_key(&login.name);
    let keys = [
        (format!("pair:{name}|{ip}"), MAX_PAIR_FAILURES),
        (format!("ip:{ip}"), MAX_ADDRESS_FAILURES),
        (format!("name:{name}"), MAX_ACCOUNT_FAILURES),
    ];
    let mut stored = Vec::new();
    for (key, _) in &keys {
        stored.push(app.store.login_failures(key, now - WINDOW).await?);
    }
    if !app.logins.reserve(&keys, &stored, now) {
        return Err(Refused::TooMany);
    }
    let result = app.store.login(&login.name, &login.password).await;
    let failed = matches!(result, Ok(None));
    if failed {
        for (key, _) in &keys {
            if let Err(e) = app.store.login_failed(key).await {
                app.logins.release(&keys, true, now);
                return Err(e.into());
            }
        }
    }
    app.logins.release(&keys, failed, now);
    result?.ok_or(Refused::Wrong)
}

/// `POST /login` (the page's form): a session cookie, then back to the page.
pub(crate) async fn login_form(
    State(app): State<Shared>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Form(login): Form<Login>,
) -> Answer {
    let ip = client_ip(addr, &headers, &app.cfg.trusted_proxies);
    let user = match attempt(&app, ip, &login).await {
        Ok(u) => u,
        Err(r) => {
            let (status, message) = match r {
                Refused::TooMany => (
                    StatusCode::TOO_MANY_REQUESTS,
                    "Too many failed logins: try again in 15 minutes.",
                ),
                Refused::Wrong => (StatusCode::UNAUTHORIZED, "Wrong name or password."),
                Refused::Store(e) => {
                    eprintln!("store: {e}");
                    (
                        StatusCode::INTERNAL_SERVER_ERROR,
                        "The service failed; try again.",
                    )
                }
            };
            let next = next_of(login.next.as_deref());
            let page = page::login_page(Some(message), app.cfg.signup, next);
            return Ok((status, page).into_response());
        }
    };
    let to = next_of(login.next.as_deref()).unwrap_or("/");
    logged_in(&app, &user, to).await
}

/// `POST /api/login` (JSON `name`, `password`): a new API token for scripts.
pub(crate) async fn login_api(
    State(app): State<Shared>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Json(login): Json<Login>,
) -> Answer {
    let ip = client_ip(addr, &headers, &app.cfg.trusted_proxies);
    let user = attempt(&app, ip, &login).await?;
    let token = app.store.create_api_token(&user).await?;
    Ok(Json(serde_json::json!({ "token": token })).into_response())
}

/// A form that carries the session's CSRF token.
#[derive(Deserialize)]
pub(crate) struct CsrfForm {
    #[serde(default)]
    csrf: String,
}

/// `POST /logout` (form with the CSRF token): ends the session.
pub(crate) async fn logout(
    State(app): State<Shared>,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Answer {
    changing(&app, &headers, Some(&form.csrf)).await?;
    if let Some(token) = super::cookie(&headers, COOKIE) {
        app.store.end_session(&token).await?;
    }
    Ok((
        StatusCode::SEE_OTHER,
        [
            (
                header::SET_COOKIE,
                session_cookie("", app.cfg.secure_cookies, 0),
            ),
            (header::LOCATION, HeaderValue::from_static("/")),
        ],
    )
        .into_response())
}

/// `POST /invite/{token}` (form with the CSRF token): joins the league's committee.
pub(crate) async fn accept_form(
    State(app): State<Shared>,
    Path(token): Path<String>,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Answer {
    let c = changing(&app, &headers, Some(&form.csrf)).await?;
    let league = app
        .store
        .accept(&token, &c.user)
        .await?
        .ok_or(ApiError::NotFound)?;
    // The member lands on the league's page (ids are hex: the header value is valid).
    let to = HeaderValue::from_str(&format!("/leagues/{league}"))
        .unwrap_or_else(|_| HeaderValue::from_static("/leagues"));
    Ok((StatusCode::SEE_OTHER, [(header::LOCATION, to)]).into_response())
}

/// Accounts one address may create in `WINDOW` seconds.
const MAX_SIGNUPS: i64 = 5;
/// The shortest password accepted.
const MIN_PASSWORD: usize = 10;

/// `?next=/invite/...`: where a sign-up started.
#[derive(Deserialize)]
pub(crate) struct NextQuery {
    next: Option<String>,
}

/// `GET /signup`: the form to create an account (404 when the service allows none); with
/// `next`, it comes back there once the account is made.
pub(crate) async fn signup_page(
    State(app): State<Shared>,
    axum::extract::Query(q): axum::extract::Query<NextQuery>,
) -> Answer {
    if !app.cfg.signup {
        return Err(ApiError::NotFound);
    }
    Ok(page::signup_page(None, "", next_of(q.next.as_deref())).into_response())
}

/// A new account, from the page's form.
#[derive(Deserialize)]
pub(crate) struct Signup {
    name: String,
    password: String,
    again: String,
    /// Where to go once the account is made (an invitation opened while logged out).
    #[serde(default)]
    next: Option<String>,
}

/// A page to come back to after logging in or signing up: only an invitation's own link
/// (`/invite/` and its hex token), so the form cannot send anyone elsewhere.
pub(crate) fn next_of(next: Option<&str>) -> Option<&str> {
    let n = next?;
    let token = n.strip_prefix("/invite/")?;
    (!token.is_empty() && token.len() <= 128 && token.chars().all(|c| c.is_ascii_hexdigit()))
        .then_some(n)
}

/// What is wrong with a new account's name or password, in words.
fn signup_problem(s: &Signup) -> Option<String> {
    let name = s.name.trim();
    if name.is_empty() || name.chars().count() > 40 {
        return Some("Choose a name of 1 to 40 characters.".into());
    }
    if name.chars().any(|c| c.is_control()) {
        return Some("The name may not hold control characters.".into());
    }
    if s.password.chars().count() < MIN_PASSWORD {
        return Some(format!(
            "Choose a password of at least {MIN_PASSWORD} characters."
        ));
    }
    if s.password != s.again {
        return Some("The two passwords differ.".into());
    }
    None
}

/// `POST /signup`: creates the account and logs it in (then the league list). At most
/// `MAX_SIGNUPS` accounts per address in 15 minutes.
pub(crate) async fn signup(
    State(app): State<Shared>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Form(form): Form<Signup>,
) -> Answer {
    if !app.cfg.signup {
        return Err(ApiError::NotFound);
    }
    let refuse = |status: StatusCode, m: &str| {
        let next = next_of(form.next.as_deref());
        Ok((status, page::signup_page(Some(m), form.name.trim(), next)).into_response())
    };
    if let Some(m) = signup_problem(&form) {
        return refuse(StatusCode::UNPROCESSABLE_ENTITY, &m);
    }
    let key = format!(
        "signup:{}",
        client_ip(addr, &headers, &app.cfg.trusted_proxies)
    );
    let recent = app
        .store
        .login_failures(&key, crate::store::now() - WINDOW)
        .await?;
    if recent >= MAX_SIGNUPS {
        return refuse(
            StatusCode::TOO_MANY_REQUESTS,
            "Too many accounts created from here: try again in 15 minutes.",
        );
    }
    app.store.login_failed(&key).await?;
    let Some(user) = app
        .store
        .create_user(form.name.trim(), &form.password)
        .await?
    else {
        return refuse(
            StatusCode::CONFLICT,
            "That name is taken: choose another, or log in.",
        );
    };
    let to = next_of(form.next.as_deref()).unwrap_or("/leagues");
    logged_in(&app, &user, to).await
}

/// A new session for `user`: its cookie, and on to `to`.
async fn logged_in(app: &Shared, user: &crate::store::User, to: &str) -> Answer {
    let (token, _) = app.store.create_session(user, SESSION_DAYS).await?;
    Ok((
        StatusCode::SEE_OTHER,
        [
            (
                header::SET_COOKIE,
                session_cookie(&token, app.cfg.secure_cookies, SESSION_DAYS * 86_400),
            ),
            (
                header::LOCATION,
                HeaderValue::from_str(to).unwrap_or(HeaderValue::from_static("/")),
            ),
        ],
    )
        .into_response())
}
