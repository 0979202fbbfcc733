//! The league editor: server-rendered forms over the league file (`crate::edit`), for a
//! secretary who will not write TOML. Every saved form is a new version of the league; the
//! league file downloads and uploads as it is. Only the league's secretary may open the
//! forms; anyone else gets 404. Forms carry the session's CSRF token and the version they were
//! read from, so an edit made on a stale page is refused rather than lost.

use super::forms::{self, Calendar};
use super::{caller, changing, not_found, Answer, ApiError, Shared};
use crate::edit::{self, Choices, FormErrors, Place, Section, Values};
use crate::store::{is_id, Access, User, Version};
use axum::extract::{Form, FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};

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

/// The league `{id}` of the URL, its latest version and the session's CSRF token, for the
/// league's secretary logged in; 404 for anyone else, nobody and what does not exist alike.
pub(crate) struct Secretary {
    id: String,
    v: Version,
    csrf: String,
}

impl FromRequestParts<Shared> for Secretary {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> Result<Self, ApiError> {
        let id = super::error::id_of(parts, app).await?;
        let (user, csrf) = who(app, &parts.headers, not_found()).await?;
        let v = owned(app, &user, &id).await?;
        Ok(Secretary { id, v, csrf })
    }
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
        return Err(ApiError::from(
            (
                StatusCode::CONFLICT,
                Html(forms::changed_meanwhile(id, v.number)),
            )
                .into_response(),
        ));
    }
    Ok(v)
}

/// A form the league's secretary posted: the league `{id}` of the URL, its latest version (the
/// form must have been read from it, else 409), the fields and the session's CSRF token
/// (checked); 404 for anyone else, as for what does not exist.
pub(crate) struct Posting {
    id: String,
    v: Version,
    form: Posted,
    csrf: String,
}

impl axum::extract::FromRequest<Shared> for Posting {
    type Rejection = ApiError;
    async fn from_request(req: axum::extract::Request, app: &Shared) -> Result<Self, ApiError> {
        let (mut parts, body) = req.into_parts();
        let id = super::error::id_of(&mut parts, app).await?;
        let headers = parts.headers.clone();
        let req = axum::extract::Request::from_parts(parts, body);
        let Form(form) = Form::<Posted>::from_request(req, app)
            .await
            .map_err(|e| ApiError::from(e.into_response()))?;
        let v = changing_owned(app, &headers, &id, &form).await?;
        let csrf = posted(&form, "csrf");
        Ok(Posting { id, v, form, csrf })
    }
}

/// `GET /leagues`: the caller's leagues, a form for a new one and one to upload a league file.
pub(crate) async fn list(State(app): State<Shared>, headers: HeaderMap) -> Answer {
    let (user, csrf) = who(&app, &headers, ApiError::from(see_other("/"))).await?;
    list_page(
        &app,
        &user,
        &csrf,
        &FormErrors::default(),
        &Values::new(),
        &[],
    )
    .await
}

async fn list_page(
    app: &Shared,
    user: &User,
    csrf: &str,
    errors: &FormErrors,
    values: &Values,
    upload_errors: &[String],
) -> Answer {
    let leagues = app.store.leagues_of(user).await?;
    let page = forms::list_page(&leagues, user, csrf, errors, values, upload_errors);
    Ok(Html(page).into_response())
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
        upload: Vec::new(),
    });
    start_league(&app, &headers, &form, made).await
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
            upload: e,
        }),
    };
    start_league(&app, &headers, &form, made).await
}

/// Why a new league was refused: the season form's errors and values, or the upload's errors.
struct Refused {
    errors: FormErrors,
    values: Values,
    upload: Vec<String>,
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

/// `GET /leagues/{id}`: for its secretary, where the season stands with its actions, and the
/// league's parts, each with its form; for a committee member, the season read-only; for
/// anyone else (and what does not exist), an HTML 404 page.
pub(crate) async fn overview(
    State(app): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer {
    let access = match caller(&app, &headers).await? {
        Some(c) if is_id(&id) => app.store.access(&id, &c.user).await?.map(|a| (a, c)),
        _ => None,
    };
    let Some((access, c)) = access else {
        return Ok((StatusCode::NOT_FOUND, Html(forms::not_found_page())).into_response());
    };
    let v = app
        .store
        .latest_version(&id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let mut hub = super::hub::hub(&app, &id).await?;
    if access == Access::Owner {
        let csrf = c.csrf.unwrap_or_default();
        return Ok(Html(forms::overview_page(&id, &v, &csrf, &[], &hub)).into_response());
    }
    // The committee reads the season; it changes nothing.
    hub.awaiting.clear();
    hub.to_come.clear();
    Ok(Html(forms::committee_page(&id, &v, &hub)).into_response())
}

/// `POST /leagues/{id}/hub`: an action on the season from the league's page
/// (`serve::season::apply`). One that publishes a new version is first shown with its changes
/// (`hub_page::preview_page`) and published only when the same form comes back confirmed;
/// a result that publishes nothing is stored at once. Back to the page, which says why when
/// it was refused.
pub(crate) async fn season_action(State(app): State<Shared>, p: Posting) -> Answer {
    let Posting {
        id,
        v,
        mut form,
        csrf,
    } = p;
    let refused = |why: String| refused_page(&app, &id, &v, &csrf, why);
    if posted(&form, "action") == "cup" && posted(&form, "seed").is_empty() {
        form.push(("seed".into(), fresh_seed().to_string()));
    }
    let action = match hub_action(&form) {
        Ok(a) => a,
        Err(why) => return refused(why).await,
    };
    let applied = match super::season::apply(&app, &id, action).await {
        Ok(a) => a,
        Err(e) => return refused(e.in_words()).await,
    };
    if posted(&form, "confirm") == "yes" || !applied.publishes() {
        return match super::season::commit(&app, &id, applied).await {
            Ok(_) => Ok(see_other(&format!("/leagues/{id}#season"))),
            Err(e) => refused(e.in_words()).await,
        };
    }
    if posted(&form, "action") == "withdraw" {
        // The rerun as previewed is the one published.
        let csv = applied.season.lists.last().map(|l| l.csv.clone());
        form.push(("list".into(), csv.unwrap_or_default()));
    }
    let name = edit::accept(&v.toml).unwrap_or_default();
    let e = &applied.entry;
    let page = super::hub_page::preview_page(&super::hub_page::Preview {
        id: &id,
        league: &name,
        what: &e.what,
        why: &e.verdict,
        changes: e.changes.iter().map(|c| c.in_words()).collect(),
        number: applied.number(),
        fields: &form,
    });
    Ok(Html(page).into_response())
}

/// `?fixture=HOME v AWAY[&agreed=DATE]` of the moves page.
#[derive(serde::Deserialize)]
pub(crate) struct MovesQuery {
    fixture: String,
    agreed: Option<String>,
}

/// `GET /leagues/{id}/moves`: every date a league match to come could move to, from tomorrow,
/// best first, with what each costs in words and what rule 2.6 says; a button per date that
/// previews the move (`season_action`).
pub(crate) async fn moves(
    State(app): State<Shared>,
    sec: Secretary,
    axum::extract::Query(q): axum::extract::Query<MovesQuery>,
) -> Answer {
    let today = app.cfg.today();
    let agreed = match q.agreed.as_deref().filter(|a| !a.trim().is_empty()) {
        Some(a) => crate::model::parse_iso_date(a.trim()).ok_or_else(|| {
            super::error(StatusCode::BAD_REQUEST, "the agreed date is not a date")
        })?,
        None => today,
    };
    let (season, _) = super::season::load(&app, &sec.id).await?;
    let cur = season.ok_or(ApiError::NotFound)?.current()?;
    let (league, list) = (&cur.league, &cur.list);
    let index = crate::season::suggest::find_fixture(league, list, &q.fixture)
        .map_err(|e| super::error(StatusCode::BAD_REQUEST, &e.to_string()))?;
    let offers = super::season::offers(league, list, index, today, agreed);
    let page = super::hub_page::moves_page(&super::hub_page::Moves {
        id: &sec.id,
        csrf: &sec.csrf,
        version: sec.v.number,
        fixture: &q.fixture,
        now: list.matches[index].date,
        agreed,
        offers: &offers,
    });
    Ok(Html(page).into_response())
}

/// The league's page again, saying why the action was refused (422).
async fn refused_page(app: &Shared, id: &str, v: &Version, csrf: &str, why: String) -> Answer {
    let mut hub = super::hub::hub(app, id).await?;
    hub.refused = Some(why);
    let page = forms::overview_page(id, v, csrf, &[], &hub);
    Ok((StatusCode::UNPROCESSABLE_ENTITY, Html(page)).into_response())
}

/// A seed for a cup's draw, from the operating system.
fn fresh_seed() -> u64 {
    let mut b = [0u8; 8];
    // A failed random source gives seed 0: still a valid draw.
    let _ = getrandom::getrandom(&mut b);
    u64::from_le_bytes(b) % 1_000_000
}

/// The season action a hub form posts; what is missing or wrong, in words.
fn hub_action(form: &Posted) -> Result<super::season::Action, String> {
    use super::season::Action;
    let text = |k: &str| Some(posted(form, k)).filter(|t| !t.trim().is_empty());
    let date = |k: &str| match text(k) {
        None => Ok(None),
        Some(t) => crate::model::parse_iso_date(t.trim())
            .map(Some)
            .ok_or_else(|| format!("\"{t}\" is not a date")),
    };
    Ok(match posted(form, "action").as_str() {
        "result" => {
            let chosen = posted(form, "fixture");
            let (fixture, competition) = chosen.split_once('\t').unwrap_or((&chosen, ""));
            Action::Result {
                fixture: fixture.to_string(),
                score: posted(form, "score"),
                competition: Some(competition.to_string()).filter(|c| !c.is_empty()),
                winner: text("winner"),
                forfeit: text("forfeit"),
            }
        }
        "results" => Action::Results {
            csv: posted(form, "results"),
        },
        "postpone" => Action::Postpone {
            fixture: posted(form, "fixture"),
            to: date("to")?,
        },
        "move" => Action::Move {
            fixture: posted(form, "fixture"),
            to: date("to")?.ok_or("give the new date")?,
            agreed: date("agreed")?,
            exceptional: posted(form, "exceptional") == "yes",
        },
        "withdraw" => Action::Withdraw {
            team: posted(form, "team"),
            list: text("list"),
        },
        "replay" => Action::Replay {
            fixture: posted(form, "fixture"),
            defaulted_against: posted(form, "against"),
            date: date("date")?,
            permitted: posted(form, "permitted") == "yes",
        },
        "cup" => Action::Cup {
            cup: posted(form, "cup"),
            seed: posted(form, "seed")
                .parse()
                .map_err(|_| "the draw's number is not a number")?,
        },
        "play_off" => Action::PlayOff {
            teams: form
                .iter()
                .filter(|(k, _)| k == "team")
                .map(|(_, t)| t.clone())
                .collect(),
        },
        "final_pools" => Action::FinalPools {
            division: posted(form, "division"),
        },
        "swiss_round" => Action::SwissRound {
            division: posted(form, "division"),
        },
        "penalty" => penalty_action(form)?,
        "lift_penalty" => Action::LiftPenalty {
            number: posted(form, "number")
                .parse()
                .map_err(|_| "the penalty's number is not a number")?,
            why: posted(form, "why"),
        },
        other => return Err(format!("there is no action \"{other}\"")),
    })
}

/// A penalty as the hub's form posts it: the team, the boards ticked, default points, match
/// points and why.
fn penalty_action(form: &Posted) -> Result<super::season::Action, String> {
    let whole = |k: &str| match posted(form, k).trim() {
        "" => Ok(None),
        t => t
            .parse::<u32>()
            .map(Some)
            .map_err(|_| format!("\"{t}\" is not a whole number of points")),
    };
    Ok(super::season::Action::Penalty {
        team: posted(form, "team"),
        boards: form
            .iter()
            .filter(|(k, _)| k == "board")
            .map(|(_, b)| b.parse().map_err(|_| format!("\"{b}\" is not a board")))
            .collect::<Result<_, _>>()?,
        default_points: whole("default_points")?,
        match_points: whole("match_points")?,
        why: posted(form, "why"),
    })
}

/// `GET /leagues/{id}/league.toml`: the latest league file, as stored.
pub(crate) async fn download(s: Secretary) -> Answer {
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
        s.v.toml,
    )
        .into_response())
}

/// `POST /leagues/{id}/upload`: a league file as the next version, stored as given.
pub(crate) async fn upload(State(app): State<Shared>, p: Posting) -> Answer {
    let text = posted(&p.form, "toml");
    match edit::accept(&text) {
        Ok(_) => saved(&app, &p.id, &text).await,
        Err(errors) => {
            let hub = super::hub::hub(&app, &p.id).await?;
            let page = forms::overview_page(&p.id, &p.v, &p.csrf, &errors, &hub);
            Ok((StatusCode::UNPROCESSABLE_ENTITY, Html(page)).into_response())
        }
    }
}

/// `POST /leagues/{id}/entries`: the team-entry workbook (base64 in `data`, its file name in
/// `name`) read into the league as its next version; the league's page then says what it
/// added and removed, or which cells did not read (422, nothing saved).
pub(crate) async fn import_entries(State(app): State<Shared>, p: Posting) -> Answer {
    let Posting { id, v, form, csrf } = p;
    let data = posted(&form, "data");
    let read = super::api::entries(&app, &v.toml, &posted(&form, "name"), &data).await;
    let text = match read {
        Ok(t) => t,
        Err(e) => return refused_page(&app, &id, &v, &csrf, e.in_words()).await,
    };
    if let Err(errors) = edit::accept(&text) {
        return refused_page(&app, &id, &v, &csrf, errors.join("; ")).await;
    }
    let name = edit::accept(&text).unwrap_or_default();
    app.store.add_version(&id, &name, &text).await?;
    let now = app
        .store
        .latest_version(&id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let mut hub = super::hub::hub(&app, &id).await?;
    hub.notice = edit::names_diff(&v.toml, &text);
    hub.notice.insert(
        0,
        format!(
            "The entries are saved as version {} of the league.",
            now.number
        ),
    );
    Ok(Html(forms::overview_page(&id, &now, &csrf, &[], &hub)).into_response())
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
    sec: Secretary,
    Path((_, section)): Path<(String, String)>,
) -> Answer {
    show_form(&sec, &section, None)
}

/// `GET /leagues/{id}/{section}/{item}`: a venue's, club's, division's or team's form.
pub(crate) async fn item_form(
    sec: Secretary,
    Path((_, section, item)): Path<(String, String, String)>,
) -> Answer {
    show_form(&sec, &section, Some(&item))
}

fn show_form(sec: &Secretary, section: &str, item: Option<&str>) -> Answer {
    let (v, csrf) = (&sec.v, &sec.csrf);
    let (s, index) = target(section, item).ok_or(ApiError::NotFound)?;
    if let (Place::Array(_), Some(i)) = (s.place, index) {
        if i >= edit::items(&v.toml, s).len() {
            return Err(ApiError::NotFound);
        }
    }
    let values = edit::values(&v.toml, s, index);
    Ok(form_page(
        &sec.id,
        v,
        csrf,
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
    Path((_, section)): Path<(String, String)>,
    p: Posting,
) -> Answer {
    save(&app, &p, &section, None).await
}

/// `POST /leagues/{id}/{section}/{item}`.
pub(crate) async fn save_item(
    State(app): State<Shared>,
    Path((_, section, item)): Path<(String, String, String)>,
    p: Posting,
) -> Answer {
    save(&app, &p, &section, Some(&item)).await
}

async fn save(app: &Shared, p: &Posting, section: &str, item: Option<&str>) -> Answer {
    let (id, v, form) = (p.id.as_str(), &p.v, &p.form);
    let (s, index) = target(section, item).ok_or(ApiError::NotFound)?;
    let values = form_values(form);
    match edit::apply(&v.toml, s, index, &values) {
        // Nothing changed: no new version.
        Ok(e) if e.text == v.toml => Ok(see_other(&format!("/leagues/{id}"))),
        Ok(e) => saved(app, id, &e.text).await,
        Err(errors) => Ok(form_page(
            id,
            v,
            &p.csrf,
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
    Path((_, section, item)): Path<(String, String, String)>,
    p: Posting,
) -> Answer {
    let Posting { id, v, csrf, .. } = p;
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
                &csrf,
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
        // Each team with its division, for the form to group them by division.
        Choices::Teams => edit::teams_with_division(text)
            .into_iter()
            .filter(|(name, _)| !name.is_empty())
            .collect(),
        Choices::Fixed(list) => list
            .iter()
            .map(|(k, d)| (k.to_string(), d.to_string()))
            .collect(),
    }
}

/// A part's form, read from version `v`, with `values` and their `errors`.
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
    let options = |c: Choices| options(&v.toml, c);
    let page = forms::form_page(&forms::Form {
        id,
        v,
        csrf,
        s,
        item,
        values,
        errors,
        cal: calendar(&v.toml, values),
        options: &options,
    });
    (status, Html(page)).into_response()
}

/// The calendars' context, from the league file: its season, its limit of unavailable dates,
/// and the unavailable dates of the club the form names.
fn calendar(toml: &str, values: &Values) -> Option<Calendar> {
    let doc: toml_edit::DocumentMut = toml.parse().unwrap_or_default();
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
    Some(Calendar {
        start: date("start")?,
        end: date("end")?,
        max: doc
            .get("rules")
            .and_then(|r| r.get("max_unavailable"))
            .and_then(|m| m.as_integer()),
        club_dates,
    })
}
