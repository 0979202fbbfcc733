//! The league editor: forms over the league file, lossless for every instance; and the
//! service's pages for it (accounts created from the page, errors next to the field, 404 for
//! outsiders, the league file downloaded and uploaded as it is).

mod common;

use common::service::{Backend, Db, Server};
use fixtures::edit::{self, Place, SECTIONS};
use fixtures::model::parse_league;
use std::path::Path;

/// Every league file in `instances/` (competitions and examples included).
fn instances() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("instances")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "toml") {
                out.push((
                    p.display().to_string(),
                    std::fs::read_to_string(&p).unwrap(),
                ));
            }
        }
    }
    out.sort();
    assert!(out.len() >= 7, "{} instances", out.len());
    out
}

/// Every form of every instance, saved unchanged, leaves the league the loader reads exactly
/// as it was (every venue, club, division and team, the season, rules and goals), and the
/// file's comments stay.
#[test]
fn every_form_of_every_instance_saves_back_what_it_read() {
    for (path, text) in instances() {
        let before = parse_league(&text, "league.toml").unwrap();
        let mut forms = 0;
        for s in SECTIONS {
            let indices: Vec<Option<usize>> = match s.place {
                Place::Array(_) => (0..edit::items(&text, s).len()).map(Some).collect(),
                _ => vec![None],
            };
            for i in indices {
                let values = edit::values(&text, s, i);
                let e = edit::apply(&text, s, i, &values)
                    .unwrap_or_else(|e| panic!("{path}: {} {i:?}: {e:?}", s.name));
                let after = parse_league(&e.text, "league.toml").unwrap();
                assert!(
                    before == after,
                    "{path}: the {} form {i:?} changed the league",
                    s.name
                );
                let comments = |t: &str| {
                    t.lines()
                        .filter(|l| l.trim_start().starts_with('#'))
                        .count()
                };
                assert_eq!(
                    comments(&text),
                    comments(&e.text),
                    "{path}: {} {i:?}",
                    s.name
                );
                // The same values written into the item with its keys cleared: every field is
                // written from the form, and the league is the same again.
                let mut doc: toml_edit::DocumentMut = text.parse().unwrap();
                let t = match s.place {
                    Place::Top => Some(doc.as_table_mut()),
                    Place::Table(name) => doc.get_mut(name).and_then(|t| t.as_table_mut()),
                    // An array's item, or the one `[cup]` a league may write instead.
                    Place::Array(name) => match &mut doc[name] {
                        toml_edit::Item::ArrayOfTables(a) => a.get_mut(i.unwrap()),
                        toml_edit::Item::Table(t) => Some(t),
                        _ => None,
                    },
                };
                if let Some(t) = t {
                    for f in s.fields {
                        t.remove(f.key);
                    }
                }
                let e = edit::apply(&doc.to_string(), s, i, &values)
                    .unwrap_or_else(|e| panic!("{path}: {} {i:?} rewritten: {e:?}", s.name));
                let after = parse_league(&e.text, "league.toml").unwrap();
                assert!(
                    before == after,
                    "{path}: the {} form {i:?} rewritten changed the league",
                    s.name
                );
                forms += 1;
            }
        }
        assert!(forms > 5, "{path}: {forms} forms");
    }
}

/// Every team of the Sussex league re-entered on a blank form (its values as the calendar and
/// the fields post them) gives the same team.
#[test]
fn teams_entered_afresh_on_the_form_equal_the_file() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/instances/sussex-2026-7.toml"
    ))
    .unwrap();
    let before = parse_league(&text, "league.toml").unwrap();
    // Every part of the Sussex league has its form.
    assert_eq!(edit::other_parts(&text), Vec::<(String, usize)>::new());
    let s = edit::section("team").unwrap();
    let n = edit::items(&text, s).len();
    let mut doc: toml_edit::DocumentMut = text.parse().unwrap();
    let teams = doc["team"].as_array_of_tables().unwrap().clone();
    // Remove every team (and what names teams: fixed fixtures, cups), then enter each again
    // through the new-team form.
    for key in ["team", "fixed", "excluded", "neutral", "cup"] {
        doc.remove(key);
    }
    let mut current = doc.to_string();
    for i in 0..n {
        let mut one = toml_edit::DocumentMut::new();
        let mut a = toml_edit::ArrayOfTables::new();
        a.push(teams.get(i).unwrap().clone());
        one["team"] = toml_edit::Item::ArrayOfTables(a);
        let values = edit::values(&one.to_string(), s, Some(0));
        current = edit::apply(&current, s, None, &values)
            .unwrap_or_else(|e| panic!("team {i}: {e:?}"))
            .text;
    }
    let after = parse_league(&current, "league.toml").unwrap();
    assert_eq!(before.teams, after.teams);
}

/// The (cookie, CSRF token) of a new account created on the sign-up page.
/// Issue 45: an import says which teams, clubs and venues it added and removed.
#[test]
fn an_import_names_what_it_added_and_removed() {
    let before = include_str!("../instances/examples/mid-downs.toml");
    let after = before
        .replace("name = \"Lewes 2\"", "name = \"Lewes 3\"")
        .replace("name = \"Tarring Club\"", "name = \"Tarring Hall\"")
        .replace("venue = \"Tarring Club\"", "venue = \"Tarring Hall\"");
    let said = edit::names_diff(before, &after);
    assert_eq!(
        said,
        [
            "Teams added (1): Lewes 3",
            "Teams removed (1): Lewes 2",
            "Venues added (1): Tarring Hall",
            "Venues removed (1): Tarring Club",
        ],
        "{said:?}"
    );
    assert_eq!(
        edit::names_diff(before, before),
        ["No team, club or venue was added or removed."]
    );
}

fn signup(s: &Server, name: &str) -> (String, String) {
    let agent = ureq::AgentBuilder::new().redirects(0).build();
    let r = agent.post(&format!("{}/signup", s.base)).send_form(&[
        ("name", name),
        ("password", "a long enough password"),
        ("again", "a long enough password"),
    ]);
    let r = match r {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(r.status(), 303);
    assert_eq!(r.header("Location"), Some("/leagues"));
    let cookie = r
        .header("Set-Cookie")
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let page = get(s, &cookie, "/").1;
    (cookie, common::service::csrf_of(&page))
}

fn get(s: &Server, cookie: &str, path: &str) -> (u16, String) {
    let agent = ureq::AgentBuilder::new().redirects(0).build();
    match agent
        .get(&format!("{}{path}", s.base))
        .set("Cookie", cookie)
        .call()
    {
        Ok(r) => (r.status(), r.into_string().unwrap()),
        Err(ureq::Error::Status(c, r)) => (c, r.into_string().unwrap()),
        Err(e) => panic!("{e}"),
    }
}

/// A form post: status, Location (for a redirect) and body.
fn post(s: &Server, cookie: &str, path: &str, form: &[(&str, &str)]) -> (u16, String, String) {
    let agent = ureq::AgentBuilder::new().redirects(0).build();
    let r = agent
        .post(&format!("{}{path}", s.base))
        .set("Cookie", cookie)
        .send_form(form);
    let r = match r {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{e}"),
    };
    let status = r.status();
    let location = r.header("Location").unwrap_or("").to_string();
    (status, location, r.into_string().unwrap_or_default())
}

/// The text of a field's error block on a form page.
fn field_error(page: &str, key: &str) -> String {
    page.split(&format!("id=\"{key}-error\" role=\"alert\">"))
        .nth(1)
        .and_then(|r| r.split("</div>").next())
        .unwrap_or("")
        .to_string()
}

/// A secretary creates an account on the page, builds a league with the forms alone (season,
/// rules, venue, clubs, division, teams with calendar dates), sees each mistake next to its
/// field in the loader's words, downloads a league file that loads and solves; an outsider
/// gets 404 on every page and form of it; a form read from an older version is refused.
#[test]
fn a_league_built_with_the_forms_alone() {
    let db = Db::new(Backend::Sqlite);
    let s = Server::start(&db, &["--workers", "1"]);
    let (cookie, csrf) = signup(&s, "Sue Secretary");
    let (_, list) = get(&s, &cookie, "/leagues");
    assert!(list.contains("Start a league"), "{list}");

    // The season, with a mistake first.
    let season = |end: &str| {
        post(
            &s,
            &cookie,
            "/leagues",
            &[
                ("csrf", &csrf),
                ("name", "Downs League"),
                ("start", "2026-10-05"),
                ("end", end),
            ],
        )
    };
    let (code, _, page) = season("2026-09-01");
    assert_eq!(code, 422);
    assert!(
        field_error(&page, "end").contains("“Last day of the season” (2026-09-01) is before “First day of the season” (2026-10-05)"),
        "{page}"
    );
    let (code, location, _) = season("2027-03-26");
    assert_eq!(code, 303);
    let league = location.trim_start_matches("/leagues/").to_string();
    let base = format!("/leagues/{league}");
    let (_, overview) = get(&s, &cookie, &base);
    assert!(overview.contains("the league has no teams"), "{overview}");

    let mut version = 1;
    let mut save = |path: &str, fields: &[(&str, &str)]| {
        let v = version.to_string();
        let mut form = vec![("csrf", csrf.as_str()), ("version", v.as_str())];
        form.extend_from_slice(fields);
        let r = post(&s, &cookie, &format!("{base}{path}"), &form);
        if r.0 == 303 {
            version += 1;
        }
        r
    };
    let (code, ..) = save(
        "/season",
        &[
            ("name", "Downs League"),
            ("start", "05/10/2026"),
            ("end", "26/03/2027"),
            ("closed", "19/12/2026 to 03/01/2027"),
        ],
    );
    assert_eq!(code, 303);
    assert_eq!(
        save(
            "/rules",
            &[("max_unavailable", "2"), ("min_days_between", "3")]
        )
        .0,
        303
    );
    assert_eq!(
        save("/venue/new", &[("name", "Village Hall"), ("capacity", "2")]).0,
        303
    );
    for (club, night) in [("Lewes", "Tue"), ("Hove", "Thu"), ("Seaford", "Wed")] {
        let r = save(
            "/club/new",
            &[("name", club), ("venue", "Village Hall"), ("nights", night)],
        );
        assert_eq!(r.0, 303, "{}", r.2);
    }
    assert_eq!(
        save("/division/new", &[("name", "Open"), ("format", "double")]).0,
        303
    );
    // Three dates ticked where the league allows two: the error is next to the calendar.
    let (code, _, page) = save(
        "/team/new",
        &[
            ("name", "Lewes 1"),
            ("club", "Lewes"),
            ("division", "Open"),
            ("unavailable", "2026-10-06"),
            ("unavailable", "2026-10-13"),
            ("unavailable", "2026-10-20"),
            ("rating", "1850"),
        ],
    );
    assert_eq!(code, 422);
    assert!(
        field_error(&page, "unavailable").contains(
            "Team \"Lewes 1\" declares 3 unavailable dates (home or away, with its club&#39;s); the league allows at most 2"
        ) || field_error(&page, "unavailable").contains(
            "Team &quot;Lewes 1&quot; declares 3 unavailable dates (home or away, with its club's); the league allows at most 2"
        ),
        "{}",
        field_error(&page, "unavailable")
    );
    assert!(
        page.contains("value=\"2026-10-20\" checked"),
        "the ticks stay"
    );
    // A wrong number is named next to its field too.
    let (code, _, page) = save(
        "/team/new",
        &[
            ("name", "Lewes 1"),
            ("club", "Lewes"),
            ("division", "Open"),
            ("rating", "strong"),
        ],
    );
    assert_eq!(code, 422);
    assert!(field_error(&page, "rating").contains("`strong` is not a number"));
    for (team, club, dates) in [
        ("Lewes 1", "Lewes", vec!["2026-10-06", "2026-10-13"]),
        ("Hove 1", "Hove", vec!["2026-11-05"]),
        ("Seaford 1", "Seaford", vec![]),
    ] {
        let mut fields = vec![("name", team), ("club", club), ("division", "Open")];
        fields.extend(dates.iter().map(|d| ("unavailable", *d)));
        let r = save("/team/new", &fields);
        assert_eq!(r.0, 303, "{}", r.2);
    }
    // The calendar shows the season's months and counts the dates against the limit.
    let (code, form) = get(&s, &cookie, &format!("{base}/team/0"));
    assert_eq!(code, 200);
    assert!(
        form.contains("<caption>October 2026</caption>")
            && form.contains("<caption>March 2027</caption>")
    );
    assert!(
        form.contains("<span class=\"n\">2</span> dates of at most 2"),
        "{form}"
    );
    assert!(form.contains("aria-label=\"Tuesday 6 October 2026\""));
    // A limit's form: teams ticked by division; each field says which kinds read it.
    let (code, form) = get(&s, &cookie, &format!("{base}/constraint/new"));
    assert_eq!(code, 200);
    assert!(
        form.contains("<fieldset class=\"division\"><legend>Open</legend>"),
        "{form}"
    );
    assert!(form.contains("data-kinds=\"matches between\""), "{form}");
    // A fixed fixture's teams are chosen by division.
    let (code, form) = get(&s, &cookie, &format!("{base}/fixed/new"));
    assert_eq!(code, 200);
    assert!(form.contains("<optgroup label=\"Open\">"), "{form}");
    // The league's page lists its teams under their divisions.
    let (code, hub) = get(&s, &cookie, &base);
    assert_eq!(code, 200);
    assert!(hub.contains("<h3>Open</h3>"), "{hub}");
    // One line of links to each part, and the settings as one list of links to their forms.
    assert!(hub.contains("<a href=\"#part-team\">Teams</a>"), "{hub}");
    assert!(
        hub.contains(&format!(
            "<a href=\"{base}/changes\">Changes the clubs agree"
        )),
        "{hub}"
    );

    // Deleting a club its teams name is refused, in the loader's words.
    let (code, _, page) = save("/club/1/delete", &[]);
    assert_eq!(code, 422);
    assert!(page.contains("unknown club"), "{page}");
    // A form read from an older version is refused, not merged.
    let stale = (version - 1).to_string();
    let (code, ..) = post(
        &s,
        &cookie,
        &format!("{base}/venue/0"),
        &[("csrf", &csrf), ("version", &stale), ("name", "Old Hall")],
    );
    assert_eq!(code, 409);

    // The league file downloads as stored; it loads and the service solves it.
    let (code, toml) = get(&s, &cookie, &format!("{base}/league.toml"));
    assert_eq!(code, 200);
    let l = parse_league(&toml, "league.toml").unwrap();
    assert_eq!(l.teams.len(), 3);
    assert_eq!(l.closed.len(), 16);
    assert_eq!(l.teams[0].unavailable.len(), 2);
    let job = s.post_json(
        "/api/jobs",
        serde_json::json!({ "league_id": league, "time_limit": 5 }),
    );
    // The account's own API token is not the test's: solve with the session instead.
    assert_eq!(job.0, 404, "another account's league is not found");
    // Solved by the league's id (as the page opened for it sends), the job is this league's;
    // the same file without the id starts a league of its own (leagues by id, never by name).
    let agent = ureq::AgentBuilder::new().build();
    let solve = |body: String, json: bool| -> serde_json::Value {
        let mut r = agent
            .post(&format!("{}/api/jobs?time_limit=5", s.base))
            .set("Cookie", &cookie)
            .set("X-CSRF-Token", &csrf);
        if json {
            r = r.set("Content-Type", "application/json");
        }
        serde_json::from_str(&r.send_string(&body).unwrap().into_string().unwrap()).unwrap()
    };
    let by_id = serde_json::json!({ "league": toml, "league_id": league }).to_string();
    assert_eq!(
        solve(by_id, true)["league_id"],
        league.as_str(),
        "the same league"
    );
    assert_ne!(
        solve(toml.clone(), false)["league_id"],
        league.as_str(),
        "a league of its own"
    );

    // An outsider (another account, or nobody) finds nothing.
    let (other, other_csrf) = signup(&s, "Olly Outsider");
    for path in ["", "/season", "/team/0", "/team/new", "/league.toml"] {
        assert_eq!(get(&s, &other, &format!("{base}{path}")).0, 404, "{path}");
        assert_eq!(get(&s, "", &format!("{base}{path}")).0, 404, "{path}");
    }
    let v = version.to_string();
    let (code, ..) = post(
        &s,
        &other,
        &format!("{base}/team/0"),
        &[("csrf", &other_csrf), ("version", &v), ("name", "Mine now")],
    );
    assert_eq!(code, 404);
    let (code, ..) = post(
        &s,
        &other,
        &format!("{base}/team/0/delete"),
        &[("csrf", &other_csrf), ("version", &v)],
    );
    assert_eq!(code, 404);
    // Without the CSRF token, nothing changes.
    let (code, ..) = post(
        &s,
        &cookie,
        &format!("{base}/team/0/delete"),
        &[("csrf", ""), ("version", &v)],
    );
    assert_eq!(code, 403);
}

/// Every instance uploaded on the page comes back byte for byte from the download, and a
/// replacement upload is the next version; a file with errors is refused with them.
#[test]
fn league_files_upload_and_download_unchanged() {
    let db = Db::new(Backend::Sqlite);
    let s = Server::start(&db, &["--workers", "0"]);
    let (cookie, csrf) = signup(&s, "Uma Uploader");
    for (path, text) in instances() {
        let (code, location, body) = post(
            &s,
            &cookie,
            "/leagues/upload",
            &[("csrf", &csrf), ("toml", &text)],
        );
        assert_eq!(code, 303, "{path}: {body}");
        let (code, back) = get(&s, &cookie, &format!("{location}/league.toml"));
        assert_eq!(code, 200);
        assert_eq!(back, text, "{path}");
    }
    let (code, _, body) = post(
        &s,
        &cookie,
        "/leagues/upload",
        &[
            ("csrf", &csrf),
            (
                "toml",
                "name = \"X\"\nstart = 2026-10-05\nend = 2026-13-01\n",
            ),
        ],
    );
    assert_eq!(code, 422);
    assert!(body.contains("Not saved"), "{body}");
}

/// Accounts from the page: a short password or two that differ are refused; a taken name is
/// refused; more than five from one address in 15 minutes wait; `--no-signup` offers none.
#[test]
fn accounts_created_on_the_page() {
    let db = Db::new(Backend::Sqlite);
    let s = Server::start(&db, &["--workers", "0"]);
    let (_, login) = get(&s, "", "/");
    assert!(login.contains("href=\"/signup\""));
    let try_signup = |name: &str, p: &str, again: &str| {
        post(
            &s,
            "",
            "/signup",
            &[("name", name), ("password", p), ("again", again)],
        )
    };
    let (code, _, page) = try_signup("ann", "short", "short");
    assert_eq!(code, 422);
    assert!(page.contains("at least 10 characters"));
    let (code, _, page) = try_signup("ann", "long enough one", "long enough two");
    assert_eq!(code, 422);
    assert!(page.contains("The two passwords differ."));
    assert_eq!(
        try_signup("ann", "long enough one", "long enough one").0,
        303
    );
    let (code, _, page) = try_signup("ann", "long enough one", "long enough one");
    assert_eq!(code, 409);
    assert!(page.contains("That name is taken"));
    for n in 0..3 {
        assert_eq!(
            try_signup(&format!("user{n}"), "long enough one", "long enough one").0,
            303
        );
    }
    // Five accounts tried from this address (forms refused for their password do not count;
    // the taken name does): the next waits.
    let (code, _, page) = try_signup("user9", "long enough one", "long enough one");
    assert_eq!(code, 429, "{page}");

    let closed = Server::start_as(&db, &["--workers", "0", "--no-signup"], s.token.clone());
    assert_eq!(get(&closed, "", "/signup").0, 404);
    let (_, login) = get(&closed, "", "/");
    assert!(!login.contains("href=\"/signup\""));
}

/// Issue 45: an invitation opened while logged out offers to log in or create an account and
/// comes back to itself after either; the way back goes nowhere but an invitation's own link.
#[test]
fn an_invitation_opened_logged_out_comes_back_after_login_or_signup() {
    let db = Db::new(Backend::Sqlite);
    let s = Server::start(&db, &["--workers", "0"]);
    let (code, job) = s.post_json(
        "/api/jobs",
        serde_json::json!({ "league": include_str!("../instances/examples/mid-downs.toml"), "time_limit": 1 }),
    );
    assert_eq!(code, 202, "{job}");
    let league = job["league_id"].as_str().unwrap();
    let (code, inv) = s.post_json(
        &format!("/api/leagues/{league}/invitations"),
        serde_json::json!({}),
    );
    assert_eq!(code, 201, "{inv}");
    let link = format!("/invite/{}", inv["token"].as_str().unwrap());
    let (code, page) = get(&s, "", &link);
    assert_eq!(code, 401);
    assert!(
        page.contains(&format!("name=\"next\" value=\"{link}\"")),
        "{page}"
    );
    assert!(
        page.contains(&format!("href=\"/signup?next={link}\"")),
        "{page}"
    );
    let (code, page) = get(&s, "", &format!("/signup?next={link}"));
    assert_eq!(code, 200);
    assert!(
        page.contains(&format!("name=\"next\" value=\"{link}\"")),
        "{page}"
    );
    let form = |name: &'static str, next: &str| -> Vec<(&'static str, String)> {
        vec![
            ("name", name.to_string()),
            ("password", "a long enough password".into()),
            ("again", "a long enough password".into()),
            ("next", next.to_string()),
        ]
    };
    let send = |path: &str, f: &[(&'static str, String)]| {
        let pairs: Vec<(&str, &str)> = f.iter().map(|(k, v)| (*k, v.as_str())).collect();
        post(&s, "", path, &pairs)
    };
    let (code, location, _) = send("/signup", &form("Carol Committee", &link));
    assert_eq!((code, location.as_str()), (303, link.as_str()));
    let login = |next: &str| {
        let f = form("Carol Committee", next);
        send("/login", &[f[0].clone(), f[1].clone(), f[3].clone()])
    };
    let (code, location, _) = login(&link);
    assert_eq!((code, location.as_str()), (303, link.as_str()));
    // Anywhere else, the usual page.
    let (code, location, _) = login("https://elsewhere.example/");
    assert_eq!((code, location.as_str()), (303, "/"));
}
