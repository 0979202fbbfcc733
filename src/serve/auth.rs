//! Logging in and out, and accepting an invitation: sessions, API tokens, rate limits.

use super::{changing, error, internal, page, session_cookie, Shared, COOKIE};
use axum::extract::{ConnectInfo, Form, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
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

fn too_many() -> Response {
    let mut r = error(
        StatusCode::TOO_MANY_REQUESTS,
        "too many failed logins; try again in 15 minutes",
    );
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("900"));
    r
}

/// Checks a login against the rate limits and the store: the user, or the response to give.
async fn attempt(
    app: &Shared,
    ip: std::net::IpAddr,
    login: &Login,
) -> Result<crate::store::User, Response> {
    let now = crate::store::now();
    let name = crate::store::name_key(&login.name);
    let keys = [
        (format!("pair:{name}|{ip}"), MAX_PAIR_FAILURES),
        (format!("ip:{ip}"), MAX_ADDRESS_FAILURES),
        (format!("name:{name}"), MAX_ACCOUNT_FAILURES),
    ];
    let mut stored = Vec::new();
    for (key, _) in &keys {
        match app.store.login_failures(key, now - WINDOW).await {
            Ok(n) => stored.push(n),
            Err(e) => return Err(internal(e)),
        }
    }
    if !app.logins.reserve(&keys, &stored, now) {
        return Err(too_many());
    }
    let result = app.store.login(&login.name, &login.password).await;
    let failed = matches!(result, Ok(None));
    if failed {
        for (key, _) in &keys {
            if let Err(e) = app.store.login_failed(key).await {
                app.logins.release(&keys, true, now);
                return Err(internal(e));
            }
        }
    }
    app.logins.release(&keys, failed, now);
    match result {
        Ok(Some(user)) => Ok(user),
        Ok(None) => Err(error(StatusCode::UNAUTHORIZED, "wrong name or password")),
        Err(e) => Err(internal(e)),
    }
}

/// `POST /login` (the page's form): a session cookie, then back to the page.
pub(crate) async fn login_form(
    State(app): State<Shared>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Form(login): Form<Login>,
) -> Response {
    let ip = client_ip(addr, &headers, &app.cfg.trusted_proxies);
    let user = match attempt(&app, ip, &login).await {
        Ok(u) => u,
        Err(r) => {
            let status = r.status();
            let message = if status == StatusCode::TOO_MANY_REQUESTS {
                "Too many failed logins: try again in 15 minutes."
            } else if status == StatusCode::UNAUTHORIZED {
                "Wrong name or password."
            } else {
                "The service failed; try again."
            };
            return (status, page::login_page(Some(message), app.cfg.signup)).into_response();
        }
    };
    logged_in(&app, &user, "/").await
}

/// `POST /api/login` (JSON `name`, `password`): a new API token for scripts.
pub(crate) async fn login_api(
    State(app): State<Shared>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Json(login): Json<Login>,
) -> Response {
    let ip = client_ip(addr, &headers, &app.cfg.trusted_proxies);
    let user = match attempt(&app, ip, &login).await {
        Ok(u) => u,
        Err(r) => return r,
    };
    match app.store.create_api_token(&user).await {
        Ok(token) => Json(serde_json::json!({ "token": token })).into_response(),
        Err(e) => internal(e),
    }
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
) -> Response {
    if let Err(r) = changing(&app, &headers, Some(&form.csrf)).await {
        return r;
    }
    if let Some(token) = super::cookie(&headers, COOKIE) {
        if let Err(e) = app.store.end_session(&token).await {
            return internal(e);
        }
    }
    (
        StatusCode::SEE_OTHER,
        [
            (
                header::SET_COOKIE,
                session_cookie("", app.cfg.secure_cookies, 0),
            ),
            (header::LOCATION, HeaderValue::from_static("/")),
        ],
    )
        .into_response()
}

/// `POST /invite/{token}` (form with the CSRF token): joins the league's committee.
pub(crate) async fn accept_form(
    State(app): State<Shared>,
    Path(token): Path<String>,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Response {
    let c = match changing(&app, &headers, Some(&form.csrf)).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    match app.store.accept(&token, &c.user).await {
        Ok(Some(_)) => (
            StatusCode::SEE_OTHER,
            [(header::LOCATION, HeaderValue::from_static("/"))],
        )
            .into_response(),
        Ok(None) => super::not_found(),
        Err(e) => internal(e),
    }
}

/// Accounts one address may create in `WINDOW` seconds.
const MAX_SIGNUPS: i64 = 5;
/// The shortest password accepted.
const MIN_PASSWORD: usize = 10;

/// `GET /signup`: the form to create an account (404 when the service allows none).
pub(crate) async fn signup_page(State(app): State<Shared>) -> Response {
    if !app.cfg.signup {
        return super::not_found();
    }
    page::signup_page(None, "").into_response()
}

/// A new account, from the page's form.
#[derive(Deserialize)]
pub(crate) struct Signup {
    name: String,
    password: String,
    again: String,
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
) -> Response {
    if !app.cfg.signup {
        return super::not_found();
    }
    let refuse = |status: StatusCode, m: &str| {
        (status, page::signup_page(Some(m), form.name.trim())).into_response()
    };
    if let Some(m) = signup_problem(&form) {
        return refuse(StatusCode::UNPROCESSABLE_ENTITY, &m);
    }
    let key = format!(
        "signup:{}",
        client_ip(addr, &headers, &app.cfg.trusted_proxies)
    );
    match app
        .store
        .login_failures(&key, crate::store::now() - WINDOW)
        .await
    {
        Ok(n) if n >= MAX_SIGNUPS => {
            return refuse(
                StatusCode::TOO_MANY_REQUESTS,
                "Too many accounts created from here: try again in 15 minutes.",
            )
        }
        Ok(_) => {}
        Err(e) => return internal(e),
    }
    if let Err(e) = app.store.login_failed(&key).await {
        return internal(e);
    }
    let user = match app
        .store
        .create_user(form.name.trim(), &form.password)
        .await
    {
        Ok(Some(u)) => u,
        Ok(None) => {
            return refuse(
                StatusCode::CONFLICT,
                "That name is taken: choose another, or log in.",
            )
        }
        Err(e) => return internal(e),
    };
    logged_in(&app, &user, "/leagues").await
}

/// A new session for `user`: its cookie, and on to `to`.
async fn logged_in(app: &Shared, user: &crate::store::User, to: &'static str) -> Response {
    match app.store.create_session(user, SESSION_DAYS).await {
        Ok((token, _)) => (
            StatusCode::SEE_OTHER,
            [
                (
                    header::SET_COOKIE,
                    session_cookie(&token, app.cfg.secure_cookies, SESSION_DAYS * 86_400),
                ),
                (header::LOCATION, HeaderValue::from_static(to)),
            ],
        )
            .into_response(),
        Err(e) => internal(e),
    }
}
