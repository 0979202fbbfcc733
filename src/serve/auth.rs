//! Logging in and out, and accepting an invitation: sessions, API tokens, rate limits.

use super::{changing, error, internal, page, session_cookie, Shared, COOKIE};
use axum::extract::{ConnectInfo, Form, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use std::net::SocketAddr;

/// Failed logins allowed per name and per address in `WINDOW` seconds.
const MAX_FAILURES: i64 = 5;
const WINDOW: i64 = 15 * 60;
/// Days a session lasts.
const SESSION_DAYS: i64 = 14;

/// A login, from the page's form or the API.
#[derive(Deserialize)]
pub(crate) struct Login {
    name: String,
    password: String,
}

/// Checks a login against the rate limit and the store: the user, or the response to give.
async fn attempt(
    app: &Shared,
    addr: SocketAddr,
    login: &Login,
) -> Result<crate::store::User, Response> {
    let since = crate::store::now() - WINDOW;
    let keys = [format!("name:{}", login.name), format!("ip:{}", addr.ip())];
    for key in &keys {
        match app.store.login_failures(key, since).await {
            Ok(n) if n >= MAX_FAILURES => {
                let mut r = error(
                    StatusCode::TOO_MANY_REQUESTS,
                    "too many failed logins; try again in 15 minutes",
                );
                r.headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static("900"));
                return Err(r);
            }
            Ok(_) => {}
            Err(e) => return Err(internal(e)),
        }
    }
    match app.store.login(&login.name, &login.password).await {
        Ok(Some(user)) => Ok(user),
        Ok(None) => {
            for key in &keys {
                if let Err(e) = app.store.login_failed(key).await {
                    return Err(internal(e));
                }
            }
            Err(error(StatusCode::UNAUTHORIZED, "wrong name or password"))
        }
        Err(e) => Err(internal(e)),
    }
}

/// `POST /login` (the page's form): a session cookie, then back to the page.
pub(crate) async fn login_form(
    State(app): State<Shared>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    Form(login): Form<Login>,
) -> Response {
    let user = match attempt(&app, addr, &login).await {
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
    Json(login): Json<Login>,
) -> Response {
    let user = match attempt(&app, addr, &login).await {
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
    let key = format!("signup:{}", addr.ip());
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
