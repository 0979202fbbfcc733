//! The league editor: server-rendered forms over the league file (`crate::edit`), for a
//! secretary who will not write TOML. Every saved form is a new version of the league; the
//! league file downloads and uploads as it is. Only the league's secretary may open the
//! forms; anyone else gets 404. Forms carry the session's CSRF token and the version they were
//! read from, so an edit made on a stale page is refused rather than lost.

use super::page::{esc, small_page_wide};
use super::{caller, changing, not_found, Answer, ApiError, Shared};
use crate::edit::{self, Choices, FormErrors, Kind, Place, Section, Values};
use crate::store::{is_id, Access, User, Version};
use axum::extract::{Form, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use chrono::{Datelike, NaiveDate};
use std::collections::BTreeSet;
use std::fmt::Write;

/// A posted form: every (name, value) pair, repeated names kept.
type Posted = Vec<(String, String)>;

fn posted(form: &Posted, name: &str) -> String {
    form.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.clone())
        .unwrap_or_default()
}

fn form_values(form: &Posted) -> Values {
    let mut v = Values::new();
    for (k, x) in form {
        if k != "csrf" && k != "version" {
            v.entry(k.clone()).or_default().push(x.clone());
        }
    }
    v
}

fn see_other(to: &str) -> Response {
    (
        StatusCode::SEE_OTHER,
        [(
            header::LOCATION,
            HeaderValue::from_str(to).unwrap_or_else(|_| HeaderValue::from_static("/")),
        )],
    )
        .into_response()
}

/// The logged-in user and their session's CSRF token; else `nobody` (the login page, or 404 on
/// a page that names a league, as for one that does not exist).
async fn who(
    app: &Shared,
    headers: &HeaderMap,
    nobody: ApiError,
) -> Result<(User, String), ApiError> {
    let c = caller(app, headers).await?.ok_or(nobody)?;
    Ok((c.user, c.csrf.unwrap_or_default()))
}

/// The league's latest version and the session's CSRF token, for the league's secretary
/// logged in; 404 for anyone else, nobody and what does not exist alike.
async fn secretary(
    app: &Shared,
    headers: &HeaderMap,
    id: &str,
) -> Result<(Version, String), ApiError> {
    let (user, csrf) = who(app, headers, not_found()).await?;
    Ok((owned(app, &user, id).await?, csrf))
}

/// The league's latest version, for its secretary; else 404 (for others, and for what does
/// not exist, alike).
async fn owned(app: &Shared, user: &User, id: &str) -> Result<Version, ApiError> {
    if !is_id(id) || app.store.access(id, user).await? != Some(Access::Owner) {
        return Err(ApiError::NotFound);
    }
    app.store
        .latest_version(id)
        .await?
        .ok_or(ApiError::NotFound)
}

/// A state-changing form's caller (CSRF checked) and the league's latest version; a form read
/// from an older version is refused with 409.
async fn changing_owned(
    app: &Shared,
    headers: &HeaderMap,
    id: &str,
    form: &Posted,
) -> Result<Version, ApiError> {
    let c = changing(app, headers, Some(&posted(form, "csrf")))
        .await
        .map_err(ApiError::hide)?;
    let v = owned(app, &c.user, id).await?;
    if posted(form, "version") != v.number.to_string() {
        return Err(ApiError::Answer((
            StatusCode::CONFLICT,
            Html(small_page_wide(
                "fixtures — changed meanwhile",
                &format!(
                    "<h1>The league changed meanwhile</h1>\n<p>Someone saved version {} of this league after you opened the form, so your changes were not saved. <a href=\"/leagues/{id}\">Open the league again</a> and repeat them.</p>",
                    v.number
                ),
            )),
        )
            .into_response()));
    }
    Ok(v)
}

const NAV: &str = "<nav class=\"row\"><a href=\"/\">Solve and publish</a> <a href=\"/leagues\">Your leagues</a></nav>";

/// `GET /leagues`: the caller's leagues, a form for a new one and one to upload a league file.
pub(crate) async fn list(State(app): State<Shared>, headers: HeaderMap) -> Answer {
    let (user, csrf) = who(&app, &headers, ApiError::Answer(see_other("/"))).await?;
    list_page(
        &app,
        &user,
        &csrf,
        &FormErrors::default(),
        &Values::new(),
        "",
    )
    .await
}

async fn list_page(
    app: &Shared,
    user: &User,
    csrf: &str,
    errors: &FormErrors,
    values: &Values,
    upload_errors: &str,
) -> Answer {
    let leagues = app.store.leagues_of(user).await?;
    let mut body = format!("{NAV}\n<h1>Your leagues</h1>\n");
    if leagues.is_empty() {
        body.push_str("<p class=\"muted\">None yet: start one below.</p>\n");
    } else {
        body.push_str("<ul>\n");
        for l in &leagues {
            let role = if l.owner == user.id {
                ""
            } else {
                " <span class=\"muted\">(committee)</span>"
            };
            let link = if l.owner == user.id {
                format!("<a href=\"/leagues/{}\">{}</a>", l.id, esc(&l.name))
            } else {
                esc(&l.name)
            };
            let _ = writeln!(
                body,
                "<li>{link}{role} <span class=\"muted\">version {}</span></li>",
                l.versions
            );
        }
        body.push_str("</ul>\n");
    }
    let season = edit::section("season").expect("season section");
    body.push_str("<h2>Start a league</h2>\n<form method=\"post\" action=\"/leagues\">\n");
    body.push_str(&general_errors(errors));
    let _ = writeln!(
        body,
        "<input type=\"hidden\" name=\"csrf\" value=\"{}\">",
        esc(csrf)
    );
    for f in &season.fields[..3] {
        body.push_str(&field_html(f, values, errors, &[], None));
    }
    body.push_str("<button type=\"submit\">Create the league</button>\n</form>\n");
    let _ = write!(
        body,
        "<h2>Upload a league file</h2>\n<form method=\"post\" action=\"/leagues/upload\" class=\"upload\">\n{upload_errors}<input type=\"hidden\" name=\"csrf\" value=\"{}\">\n{}\n<button type=\"submit\">Upload</button>\n</form>\n{UPLOAD_SCRIPT}",
        esc(csrf),
        upload_fields()
    );
    Ok(Html(small_page_wide("fixtures — your leagues", &body)).into_response())
}

fn upload_fields() -> String {
    "<label for=\"tomlFile\">League file (TOML)</label>\n<input type=\"file\" id=\"tomlFile\" accept=\".toml,text/plain\">\n<label for=\"toml\">or paste it</label>\n<textarea id=\"toml\" name=\"toml\" rows=\"6\" spellcheck=\"false\"></textarea>".to_string()
}

/// Fills the upload's text box from the chosen file (the form posts text).
const UPLOAD_SCRIPT: &str = "<script src=\"/assets/upload.js\"></script>";

fn general_errors(errors: &FormErrors) -> String {
    if errors.general.is_empty() {
        return String::new();
    }
    let mut s = String::from("<div class=\"error\" role=\"alert\"><p>Not saved:</p><ul>\n");
    for m in &errors.general {
        let _ = writeln!(s, "<li>{}</li>", esc(m));
    }
    s.push_str("</ul></div>\n");
    s
}

/// `POST /leagues`: a new league from its name and dates.
pub(crate) async fn create(
    State(app): State<Shared>,
    headers: HeaderMap,
    Form(form): Form<Posted>,
) -> Answer {
    let values = form_values(&form);
    let made = edit::new_league(&values).map_err(|e| Refused {
        errors: e,
        values: values.clone(),
        upload: String::new(),
    });
    start_league(&app, &headers, &form, made).await
}

fn upload_error_list(errors: &[String]) -> String {
    general_errors(&FormErrors {
        general: errors.to_vec(),
        ..Default::default()
    })
}

/// `POST /leagues/upload`: a new league from a league file.
pub(crate) async fn upload_new(
    State(app): State<Shared>,
    headers: HeaderMap,
    Form(form): Form<Posted>,
) -> Answer {
    let text = posted(&form, "toml");
    let made = match edit::accept(&text) {
        Ok(_) => Ok(text),
        Err(e) => Err(Refused {
            errors: FormErrors::default(),
            values: Values::new(),
            upload: upload_error_list(&e),
        }),
    };
    start_league(&app, &headers, &form, made).await
}

/// Why a new league was refused: the season form's errors and values, or the upload's errors.
struct Refused {
    errors: FormErrors,
    values: Values,
    upload: String,
}

/// A new league of the caller's from `made` (then its page), or the list of leagues again
/// with what was wrong (422).
async fn start_league(
    app: &Shared,
    headers: &HeaderMap,
    form: &Posted,
    made: Result<String, Refused>,
) -> Answer {
    let c = changing(app, headers, Some(&posted(form, "csrf"))).await?;
    match made {
        Ok(text) => {
            let name = edit::accept(&text).unwrap_or_default();
            let (id, _) = app.store.create_league(&c.user, &name, &text).await?;
            Ok(see_other(&format!("/leagues/{id}")))
        }
        Err(r) => {
            let csrf = c.csrf.unwrap_or_default();
            let mut page = list_page(app, &c.user, &csrf, &r.errors, &r.values, &r.upload).await?;
            *page.status_mut() = StatusCode::UNPROCESSABLE_ENTITY;
            Ok(page)
        }
    }
}

/// `GET /leagues/{id}`: the league's parts, each with its form; download and upload.
pub(crate) async fn overview(
    State(app): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer {
    let (v, csrf) = secretary(&app, &headers, &id).await?;
    Ok(overview_page(&id, &v, &csrf, "", StatusCode::OK))
}

fn overview_page(
    id: &str,
    v: &Version,
    csrf: &str,
    upload_errors: &str,
    status: StatusCode,
) -> Response {
    let name = edit::accept(&v.toml).unwrap_or_else(|_| "league".into());
    let mut body = format!(
        "{NAV}\n<h1>{}</h1>\n<p class=\"muted\">Version {}. <a href=\"/leagues/{id}/league.toml\" download=\"league.toml\">Download the league file (TOML)</a> · <a href=\"/?league={id}\">Solve it</a></p>\n",
        esc(&name),
        v.number
    );
    let pending = edit::pending(&v.toml);
    if !pending.is_empty() {
        body.push_str("<div class=\"todo\"><p>Before it can be solved:</p><ul>\n");
        for p in &pending {
            let _ = writeln!(body, "<li>{}</li>", esc(p));
        }
        body.push_str("</ul></div>\n");
    }
    for s in edit::SECTIONS {
        let _ = writeln!(body, "<section><h2>{}</h2>", esc(s.title));
        match s.place {
            Place::Array(_) => {
                let items = edit::items(&v.toml, s);
                if items.is_empty() {
                    let _ = writeln!(body, "<p class=\"muted\">No {}s yet.</p>", s.item);
                } else {
                    body.push_str("<ul class=\"items\">\n");
                    for (i, n) in items.iter().enumerate() {
                        let _ = writeln!(
                            body,
                            "<li><a href=\"/leagues/{id}/{}/{i}\">{}</a></li>",
                            s.name,
                            esc(if n.is_empty() { "(no name)" } else { n })
                        );
                    }
                    body.push_str("</ul>\n");
                }
                let _ = writeln!(
                    body,
                    "<p><a class=\"add\" href=\"/leagues/{id}/{}/new\">Add a {}</a></p>",
                    s.name, s.item
                );
            }
            _ => {
                let _ = writeln!(
                    body,
                    "<p><a href=\"/leagues/{id}/{}\">Edit the {}</a></p>",
                    s.name, s.item
                );
            }
        }
        body.push_str("</section>\n");
    }
    let others = edit::other_parts(&v.toml);
    if !others.is_empty() {
        let list: Vec<String> = others
            .iter()
            .map(|(k, n)| {
                if *n > 1 {
                    format!("{} ({n})", esc(k))
                } else {
                    esc(k)
                }
            })
            .collect();
        let _ = writeln!(
            body,
            "<section><h2>Also in the league file</h2><p class=\"muted\">{}: kept as written when you save a form; change them in the league file.</p></section>",
            list.join(", ")
        );
    }
    let _ = write!(
        body,
        "<section><h2>Replace with a league file</h2>\n<form method=\"post\" action=\"/leagues/{id}/upload\" class=\"upload\">\n{upload_errors}<input type=\"hidden\" name=\"csrf\" value=\"{}\">\n<input type=\"hidden\" name=\"version\" value=\"{}\">\n{}\n<button type=\"submit\">Upload as the next version</button>\n</form></section>\n{UPLOAD_SCRIPT}",
        esc(csrf),
        v.number,
        upload_fields()
    );
    (
        status,
        Html(small_page_wide(&format!("fixtures — {name}"), &body)),
    )
        .into_response()
}

/// `GET /leagues/{id}/league.toml`: the latest league file, as stored.
pub(crate) async fn download(
    State(app): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer {
    let (v, _) = secretary(&app, &headers, &id).await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/toml; charset=utf-8"),
            ),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_static("attachment; filename=\"league.toml\""),
            ),
        ],
        v.toml,
    )
        .into_response())
}

/// `POST /leagues/{id}/upload`: a league file as the next version, stored as given.
pub(crate) async fn upload(
    State(app): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(form): Form<Posted>,
) -> Answer {
    let v = changing_owned(&app, &headers, &id, &form).await?;
    let text = posted(&form, "toml");
    match edit::accept(&text) {
        Ok(_) => saved(&app, &id, &text).await,
        Err(errors) => Ok(overview_page(
            &id,
            &v,
            &posted(&form, "csrf"),
            &upload_error_list(&errors),
            StatusCode::UNPROCESSABLE_ENTITY,
        )),
    }
}

/// The section and item a URL names; `None` (answer 404) when it names none.
fn target(section: &str, item: Option<&str>) -> Option<(&'static Section, Option<usize>)> {
    let s = edit::section(section)?;
    Some((s, item_index(s, item)?))
}

/// Stores `text` as the league's next version, then back to the league's page.
async fn saved(app: &Shared, id: &str, text: &str) -> Answer {
    let name = edit::accept(text).unwrap_or_default();
    app.store.add_version(id, &name, text).await?;
    Ok(see_other(&format!("/leagues/{id}")))
}

/// Which item of a section a URL names (`Some(None)` for a table section or "new"); `None`
/// when the URL names none (answer 404).
fn item_index(s: &Section, item: Option<&str>) -> Option<Option<usize>> {
    match (s.place, item) {
        (Place::Array(_), Some("new")) => Some(None),
        (Place::Array(_), Some(i)) => i.parse().ok().map(Some),
        (_, None) => Some(None),
        _ => None,
    }
}

/// `GET /leagues/{id}/{section}`: the season, rules or goals form.
pub(crate) async fn table_form(
    State(app): State<Shared>,
    Path((id, section)): Path<(String, String)>,
    headers: HeaderMap,
) -> Answer {
    show_form(&app, &headers, &id, &section, None).await
}

/// `GET /leagues/{id}/{section}/{item}`: a venue's, club's, division's or team's form.
pub(crate) async fn item_form(
    State(app): State<Shared>,
    Path((id, section, item)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Answer {
    show_form(&app, &headers, &id, &section, Some(&item)).await
}

async fn show_form(
    app: &Shared,
    headers: &HeaderMap,
    id: &str,
    section: &str,
    item: Option<&str>,
) -> Answer {
    let (v, csrf) = secretary(app, headers, id).await?;
    let (s, index) = target(section, item).ok_or(ApiError::NotFound)?;
    if let (Place::Array(_), Some(i)) = (s.place, index) {
        if i >= edit::items(&v.toml, s).len() {
            return Err(ApiError::NotFound);
        }
    }
    let values = edit::values(&v.toml, s, index);
    Ok(form_page(
        id,
        &v,
        &csrf,
        s,
        item,
        &values,
        &FormErrors::default(),
        StatusCode::OK,
    ))
}

/// `POST /leagues/{id}/{section}`.
pub(crate) async fn save_table(
    State(app): State<Shared>,
    Path((id, section)): Path<(String, String)>,
    headers: HeaderMap,
    Form(form): Form<Posted>,
) -> Answer {
    save(&app, &headers, &id, &section, None, &form).await
}

/// `POST /leagues/{id}/{section}/{item}`.
pub(crate) async fn save_item(
    State(app): State<Shared>,
    Path((id, section, item)): Path<(String, String, String)>,
    headers: HeaderMap,
    Form(form): Form<Posted>,
) -> Answer {
    save(&app, &headers, &id, &section, Some(&item), &form).await
}

async fn save(
    app: &Shared,
    headers: &HeaderMap,
    id: &str,
    section: &str,
    item: Option<&str>,
    form: &Posted,
) -> Answer {
    let v = changing_owned(app, headers, id, form).await?;
    let (s, index) = target(section, item).ok_or(ApiError::NotFound)?;
    let values = form_values(form);
    match edit::apply(&v.toml, s, index, &values) {
        // Nothing changed: no new version.
        Ok(e) if e.text == v.toml => Ok(see_other(&format!("/leagues/{id}"))),
        Ok(e) => saved(app, id, &e.text).await,
        Err(errors) => Ok(form_page(
            id,
            &v,
            &posted(form, "csrf"),
            s,
            item,
            &values,
            &errors,
            StatusCode::UNPROCESSABLE_ENTITY,
        )),
    }
}

/// `POST /leagues/{id}/{section}/{item}/delete`.
pub(crate) async fn delete_item(
    State(app): State<Shared>,
    Path((id, section, item)): Path<(String, String, String)>,
    headers: HeaderMap,
    Form(form): Form<Posted>,
) -> Answer {
    let v = changing_owned(&app, &headers, &id, &form).await?;
    let Some((s, Some(index))) = target(&section, Some(&item)) else {
        return Err(ApiError::NotFound);
    };
    match edit::delete(&v.toml, s, index) {
        Ok(text) => saved(&app, &id, &text).await,
        Err(errors) => {
            let values = edit::values(&v.toml, s, Some(index));
            Ok(form_page(
                &id,
                &v,
                &posted(&form, "csrf"),
                s,
                Some(&item),
                &values,
                &errors,
                StatusCode::UNPROCESSABLE_ENTITY,
            ))
        }
    }
}

/// The options of a choice field in this league.
fn options(text: &str, choices: Choices) -> Vec<(String, String)> {
    let names = |a: &str| {
        edit::names(text, a)
            .into_iter()
            .map(|n| (n.clone(), n))
            .collect()
    };
    match choices {
        Choices::None => Vec::new(),
        Choices::Venues => names("venue"),
        Choices::Clubs => names("club"),
        Choices::Divisions => names("division"),
        Choices::Teams => names("team"),
        Choices::Formats => edit::FORMATS
            .iter()
            .map(|(k, d)| (k.to_string(), format!("{k}: {d}")))
            .collect(),
    }
}

/// The calendar's context: the season, the limit, the club's own unavailable dates.
struct Calendar {
    start: NaiveDate,
    end: NaiveDate,
    max: Option<i64>,
    club_dates: BTreeSet<NaiveDate>,
}

#[allow(clippy::too_many_arguments)]
fn form_page(
    id: &str,
    v: &Version,
    csrf: &str,
    s: &Section,
    item: Option<&str>,
    values: &Values,
    errors: &FormErrors,
    status: StatusCode,
) -> Response {
    let doc: toml_edit::DocumentMut = v.toml.parse().unwrap_or_default();
    let date = |k: &str| {
        doc.get(k)
            .and_then(|i| i.as_value())
            .and_then(|x| crate::model::parse_list_date(x.to_string().trim().trim_matches('"')))
    };
    let club = values
        .get("club")
        .and_then(|c| c.first())
        .cloned()
        .unwrap_or_default();
    let club_dates = doc
        .get("club")
        .and_then(|c| c.as_array_of_tables())
        .and_then(|a| {
            a.iter()
                .find(|t| t.get("name").and_then(|n| n.as_str()) == Some(club.as_str()))
        })
        .map(|t| edit::item_dates(t.get("unavailable")))
        .unwrap_or_default();
    let cal = match (date("start"), date("end")) {
        (Some(start), Some(end)) => Some(Calendar {
            start,
            end,
            max: doc
                .get("rules")
                .and_then(|r| r.get("max_unavailable"))
                .and_then(|m| m.as_integer()),
            club_dates,
        }),
        _ => None,
    };
    let title = match (s.place, item) {
        (Place::Array(_), Some("new")) => format!("A new {}", s.item),
        (Place::Array(_), _) => values.get("name").and_then(|n| n.first()).map_or_else(
            || capitalised(s.item),
            |n| format!("{}: {n}", capitalised(s.item)),
        ),
        _ => s.title.to_string(),
    };
    let action = match item {
        Some(i) => format!("/leagues/{id}/{}/{}", s.name, esc(i)),
        None => format!("/leagues/{id}/{}", s.name),
    };
    let mut body = format!(
        "{NAV}\n<p><a href=\"/leagues/{id}\">← back to the league</a></p>\n<h1>{}</h1>\n",
        esc(&title)
    );
    body.push_str(&general_errors(errors));
    let _ = writeln!(
        body,
        "<form method=\"post\" action=\"{action}\" novalidate>\n<input type=\"hidden\" name=\"csrf\" value=\"{}\">\n<input type=\"hidden\" name=\"version\" value=\"{}\">",
        esc(csrf),
        v.number
    );
    for f in s.fields {
        let opts = options(&v.toml, f.choices);
        body.push_str(&field_html(f, values, errors, &opts, cal.as_ref()));
    }
    body.push_str("<button type=\"submit\">Save</button>\n</form>\n");
    if let (Place::Array(_), Some(i)) = (s.place, item.filter(|i| *i != "new")) {
        let _ = writeln!(
            body,
            "<form method=\"post\" action=\"/leagues/{id}/{}/{}/delete\">\n<input type=\"hidden\" name=\"csrf\" value=\"{}\">\n<input type=\"hidden\" name=\"version\" value=\"{}\">\n<button type=\"submit\" class=\"danger\">Delete this {}</button>\n</form>",
            s.name,
            esc(i),
            esc(csrf),
            v.number,
            s.item
        );
    }
    body.push_str(CALENDAR_SCRIPT);
    (
        status,
        Html(small_page_wide(&format!("fixtures — {title}"), &body)),
    )
        .into_response()
}

/// One field: its label, input, help and errors (linked by `aria-describedby`).
fn field_html(
    f: &edit::Field,
    values: &Values,
    errors: &FormErrors,
    opts: &[(String, String)],
    cal: Option<&Calendar>,
) -> String {
    let key = f.key;
    let vals: Vec<String> = values.get(key).cloned().unwrap_or_default();
    let first = vals
        .iter()
        .find(|v| !v.trim().is_empty())
        .cloned()
        .unwrap_or_default();
    let errs = errors.fields.get(key).cloned().unwrap_or_default();
    let invalid = if errs.is_empty() {
        String::new()
    } else {
        " aria-invalid=\"true\"".into()
    };
    let described = format!(" aria-describedby=\"{key}-help {key}-error\"");
    let req = if f.required { " required" } else { "" };
    let mut s = format!(
        "<div class=\"field{}\">\n",
        if errs.is_empty() { "" } else { " has-error" }
    );
    match f.kind {
        Kind::Nights => {
            let _ = writeln!(s, "<fieldset{described}><legend>{}</legend>", esc(f.label));
            for d in ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] {
                let checked = if vals.iter().any(|v| v == d) {
                    " checked"
                } else {
                    ""
                };
                let _ = writeln!(
                    s,
                    "<label class=\"inline\"><input type=\"checkbox\" name=\"{key}\" value=\"{d}\"{checked}> {d}</label>"
                );
            }
            s.push_str("</fieldset>\n");
        }
        Kind::Calendar => {
            let _ = writeln!(
                s,
                "<fieldset class=\"calendar\"{described} data-key=\"{key}\"><legend>{}</legend>",
                esc(f.label)
            );
            // On a phone the months run long: the count and any error come first.
            s.push_str(&notes(f, &errs));
            s.push_str(&calendar_html(key, &vals, cal, key == "unavailable"));
            s.push_str("</fieldset>\n");
        }
        _ => {
            let _ = writeln!(s, "<label for=\"f-{key}\">{}</label>", esc(f.label));
            match f.kind {
                Kind::Choice | Kind::Flag => {
                    let _ = writeln!(
                        s,
                        "<select id=\"f-{key}\" name=\"{key}\"{invalid}{described}{req}>"
                    );
                    let none = if f.kind == Kind::Flag {
                        "(the league's default)"
                    } else {
                        "(none)"
                    };
                    let _ = writeln!(s, "<option value=\"\">{none}</option>");
                    let flag = [
                        ("yes".to_string(), "yes".to_string()),
                        ("no".to_string(), "no".to_string()),
                    ];
                    let list: &[(String, String)] = if f.kind == Kind::Flag { &flag } else { opts };
                    let mut found = first.is_empty();
                    for (v, label) in list {
                        let sel = if *v == first {
                            found = true;
                            " selected"
                        } else {
                            ""
                        };
                        let _ = writeln!(
                            s,
                            "<option value=\"{}\"{sel}>{}</option>",
                            esc(v),
                            esc(label)
                        );
                    }
                    if !found {
                        // A value the list lacks (an unknown name) stays, to be corrected.
                        let _ = writeln!(
                            s,
                            "<option value=\"{}\" selected>{}</option>",
                            esc(&first),
                            esc(&first)
                        );
                    }
                    s.push_str("</select>\n");
                }
                Kind::PerDate | Kind::Dates => {
                    let rows = if f.kind == Kind::PerDate { 3 } else { 2 };
                    let _ = writeln!(
                        s,
                        "<textarea id=\"f-{key}\" name=\"{key}\" rows=\"{rows}\"{invalid}{described}>{}</textarea>",
                        esc(&vals.join("; "))
                    );
                }
                _ => {
                    let (ty, extra) = match f.kind {
                        Kind::Date => ("date", ""),
                        Kind::Whole => ("text", " inputmode=\"numeric\""),
                        Kind::Number => ("text", " inputmode=\"decimal\""),
                        Kind::Time => ("text", " placeholder=\"19:30\""),
                        _ => ("text", ""),
                    };
                    let _ = writeln!(
                        s,
                        "<input id=\"f-{key}\" name=\"{key}\" type=\"{ty}\" value=\"{}\"{extra}{invalid}{described}{req}>",
                        esc(&first)
                    );
                }
            }
        }
    }
    if f.kind != Kind::Calendar {
        s.push_str(&notes(f, &errs));
    }
    s.push_str("</div>\n");
    s
}

/// A field's help line and its errors (ids for `aria-describedby`).
fn notes(f: &edit::Field, errs: &[String]) -> String {
    let key = f.key;
    let mut s = format!(
        "<div class=\"help\" id=\"{key}-help\">{}</div>\n",
        esc(f.help)
    );
    let _ = write!(
        s,
        "<div class=\"field-error\" id=\"{key}-error\" role=\"alert\">"
    );
    for e in errs {
        let _ = write!(s, "<p>{}</p>", esc(e));
    }
    s.push_str("</div>\n");
    s
}

/// A month-by-month calendar of the season: a checkbox per day (its label the day, its full
/// date for screen readers). For unavailable dates it counts the ticked days with the club's
/// own (shown ticked and fixed) against the league's limit. Dates outside the season are kept.
fn calendar_html(key: &str, vals: &[String], cal: Option<&Calendar>, counts: bool) -> String {
    let chosen: BTreeSet<NaiveDate> = vals
        .iter()
        .filter_map(|v| crate::model::parse_list_date(v.trim()))
        .collect();
    let Some(cal) = cal else {
        return format!(
            "<input name=\"{key}\" value=\"{}\" aria-label=\"dates\">",
            esc(&vals.join("; "))
        );
    };
    let mut s = String::new();
    if counts {
        let club = cal.club_dates.len();
        let own: BTreeSet<_> = chosen.union(&cal.club_dates).collect();
        let limit = cal
            .max
            .map_or(String::new(), |m| format!(" of at most {m}"));
        let _ = writeln!(
            s,
            "<p class=\"count\" data-max=\"{}\" data-club=\"{club}\"><span class=\"n\">{}</span> dates{limit}{}</p>",
            cal.max.unwrap_or(-1),
            own.len(),
            if club > 0 { format!(" (with its club's {club})") } else { String::new() }
        );
    }
    for d in chosen.iter().filter(|d| **d < cal.start || **d > cal.end) {
        let _ = writeln!(s, "<input type=\"hidden\" name=\"{key}\" value=\"{d}\">");
    }
    s.push_str("<div class=\"months\">\n");
    let mut month = cal.start.with_day(1).unwrap_or(cal.start);
    while month <= cal.end {
        let _ = writeln!(
            s,
            "<table class=\"month\"><caption>{}</caption>\n<tr><th scope=\"col\">M</th><th scope=\"col\">T</th><th scope=\"col\">W</th><th scope=\"col\">T</th><th scope=\"col\">F</th><th scope=\"col\">S</th><th scope=\"col\">S</th></tr>\n<tr>",
            month.format("%B %Y")
        );
        let lead = month.weekday().num_days_from_monday();
        for _ in 0..lead {
            s.push_str("<td></td>");
        }
        let mut d = month;
        let mut col = lead;
        while d.month() == month.month() {
            if col == 7 {
                s.push_str("</tr>\n<tr>");
                col = 0;
            }
            if d < cal.start || d > cal.end {
                s.push_str("<td></td>");
            } else {
                let long = d.format("%A %-d %B %Y");
                let club = counts && cal.club_dates.contains(&d);
                let (checked, extra, title) = if club {
                    (" checked", " disabled data-club=\"1\"", " (the club's)")
                } else if chosen.contains(&d) {
                    (" checked", "", "")
                } else {
                    ("", "", "")
                };
                let _ = write!(
                    s,
                    "<td><label><input type=\"checkbox\" name=\"{key}\" value=\"{d}\"{checked}{extra} aria-label=\"{long}{title}\"><span>{}</span></label></td>",
                    d.day()
                );
            }
            col += 1;
            match d.succ_opt() {
                Some(n) => d = n,
                None => break,
            }
        }
        s.push_str("</tr>\n</table>\n");
        month = match month.checked_add_months(chrono::Months::new(1)) {
            Some(m) => m,
            None => break,
        };
    }
    s.push_str("</div>\n");
    s
}

/// Keeps each calendar's count up to date as days are ticked (the server counts again).
const CALENDAR_SCRIPT: &str = "<script src=\"/assets/calendar.js\"></script>";

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}
