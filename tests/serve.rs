//! The service as real processes on loopback, with accounts, on SQLite and on PostgreSQL.

mod common;

use common::service::{Backend, Db, Server, BACKENDS, BIN};
use std::process::Command;
use std::time::{Duration, Instant};

const MID_DOWNS: &str = include_str!("../instances/examples/mid-downs.toml");

fn submit_watch_and_fetch_everything_on(backend: Backend) {
    let db = Db::new(backend);
    let s = Server::start(&db, &["--workers", "1"]);
    let (code, job, _) = s.submit(MID_DOWNS, 3);
    assert_eq!(code, 202, "{job}");
    let id = job["id"].as_str().unwrap().to_string();
    // The same league again (by its id) is a second job, never the first one clobbered.
    let (code, again) = s.post_json(
        "/api/jobs",
        serde_json::json!({ "league_id": job["league_id"], "time_limit": 2 }),
    );
    assert_eq!(code, 202, "{again}");
    assert_ne!(again["id"], job["id"]);
    assert_eq!(again["league_id"], job["league_id"]);
    let done = s.wait(&id, Duration::from_secs(60));
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(done["valid"], true);
    let again = s.wait(again["id"].as_str().unwrap(), Duration::from_secs(60));
    assert_eq!(again["state"], "done", "{again}");
    // The CSV the service hands out is valid for the league, by the independent checker.
    let (code, csv) = s.get(&format!("/api/jobs/{id}/fixtures.csv"));
    assert_eq!(code, 200);
    let league = fixtures::model::parse_league(MID_DOWNS, "mid-downs.toml").unwrap();
    let list = fixtures::check::parse_fixtures(&league, csv.as_bytes(), "served.csv").unwrap();
    assert!(fixtures::check::check(&league, &list).is_valid());
    let (code, page) = s.get(&format!("/api/jobs/{id}/report/"));
    assert_eq!(code, 200);
    assert!(page.contains("All fixtures"));
    let (code, _) = s.get(&format!("/api/jobs/{id}/report/division-division-1.html"));
    assert_eq!(code, 200);
    let (code, ics) = s.get(&format!("/api/jobs/{id}/ics/horsham-1.ics"));
    assert_eq!(code, 200);
    assert!(ics.starts_with("BEGIN:VCALENDAR"));
    for bad in [
        format!("/api/jobs/{id}/report/..%2Fstatus.json"),
        format!("/api/jobs/{id}/report/..%2F..%2F..%2Fetc%2Fpasswd"),
        "/api/jobs/..%2F..%2Fetc/fixtures.csv".to_string(),
    ] {
        assert_eq!(s.get(&bad).0, 404, "{bad}");
    }
    // A bad league file: 400 with the CLI's message (line and key).
    let (code, body, _) = s.submit("name = 5\n", 3);
    assert_eq!(code, 400);
    assert!(body["messages"][0]
        .as_str()
        .unwrap()
        .contains("league.toml:1: key `name`"));
    let (code, doc) = s.get("/api/openapi.json");
    assert_eq!(code, 200);
    let doc: serde_json::Value = serde_json::from_str(&doc).unwrap();
    assert!(doc["paths"]["/api/jobs"]["post"].is_object());
    // Without a session the page is the login form; no external resources either way.
    let (code, page) = s.call("GET", "/", None, None);
    assert_eq!(code, 200);
    assert!(
        page.contains("<form method=\"post\" action=\"/login\">"),
        "{page}"
    );
    assert!(page.contains("<label for=\"password\">"));
    assert!(!page.contains("http://") && !page.contains("https://"));
    let (code, v) = s.post_json(
        "/api/check",
        serde_json::json!({ "league": MID_DOWNS, "fixtures": csv }),
    );
    assert_eq!(code, 200);
    assert_eq!(v["valid"], true);
    // The league and its jobs.
    let league_id = done["league_id"].as_str().unwrap();
    let (code, l) = s.get(&format!("/api/leagues/{league_id}"));
    assert_eq!(code, 200, "{l}");
    let l: serde_json::Value = serde_json::from_str(&l).unwrap();
    assert_eq!(l["access"], "owner");
    assert_eq!(l["jobs"].as_array().unwrap().len(), 2);
    // Deleting a finished job removes it.
    assert_eq!(
        s.call("DELETE", &format!("/api/jobs/{id}"), Some(&s.token), None)
            .0,
        204
    );
    assert_eq!(s.get(&format!("/api/jobs/{id}")).0, 404);
}

#[test]
fn submit_watch_and_fetch_everything() {
    for b in BACKENDS {
        submit_watch_and_fetch_everything_on(b);
    }
}

#[test]
fn a_full_queue_answers_429_with_retry_after() {
    let db = Db::new(Backend::Sqlite);
    let s = Server::start(&db, &["--workers", "0", "--queue", "2"]);
    let mut codes = Vec::new();
    let mut retry = None;
    for _ in 0..4 {
        let (code, _, r) = s.submit(MID_DOWNS, 4);
        codes.push(code);
        if code == 429 {
            retry = r;
        }
    }
    assert_eq!(codes, [202, 202, 429, 429]);
    assert_eq!(retry.as_deref(), Some("10"));
    assert_eq!(s.get("/api/openapi.json").0, 200);
}

#[test]
fn one_account_may_have_only_so_many_open_jobs() {
    let db = Db::new(Backend::Sqlite);
    let s = Server::start(&db, &["--workers", "0", "--per-account", "2"]);
    let codes: Vec<u16> = (0..3).map(|_| s.submit(MID_DOWNS, 4).0).collect();
    assert_eq!(codes, [202, 202, 429]);
    // Another account is not held back by the first one's jobs.
    let other = Server::start_as(&db, &["--workers", "0"], db.user("other"));
    assert_eq!(other.submit(MID_DOWNS, 4).0, 202);
}

/// Killed hard mid-job (SIGKILL) and started again: finished results and the stored league are
/// all there, and the interrupted job is taken up again when its lease runs out, and finishes.
fn a_killed_server_loses_nothing_on(backend: Backend) {
    let db = Db::new(backend);
    let mut s = Server::start(&db, &["--workers", "1", "--lease", "2"]);
    let (_, job, _) = s.submit(MID_DOWNS, 2);
    let done_id = job["id"].as_str().unwrap().to_string();
    assert_eq!(s.wait(&done_id, Duration::from_secs(60))["state"], "done");
    let (_, job, _) = s.submit(MID_DOWNS, 6);
    let running_id = job["id"].as_str().unwrap().to_string();
    s.wait_running(&running_id);
    s.restart();
    let (code, csv) = s.get(&format!("/api/jobs/{done_id}/fixtures.csv"));
    assert_eq!(code, 200);
    assert!(csv.starts_with("date,division,home,away,venue"));
    let league_id = job["league_id"].as_str().unwrap();
    let (code, toml) = s.get(&format!("/api/leagues/{league_id}/versions/1"));
    assert_eq!(code, 200);
    assert_eq!(toml, MID_DOWNS);
    let v = s.wait(&running_id, Duration::from_secs(60));
    assert_eq!(v["state"], "done", "{v}");
    assert_eq!(v["attempts"], 2, "taken up again once: {v}");
}

#[test]
fn a_killed_server_loses_nothing() {
    for b in BACKENDS {
        a_killed_server_loses_nothing_on(b);
    }
}

/// The login page renders in headless Chromium; the screenshot is kept.
#[test]
fn the_page_renders_in_headless_chromium() {
    let db = Db::new(Backend::Sqlite);
    let s = Server::start(&db, &["--workers", "0"]);
    let png = common::screenshot(&format!("{}/", s.base), "serve-login.png");
    assert!(png.len() > 5_000, "{} bytes", png.len());
}

/// An outsider, with no account or with another one, gets 404 from every endpoint that names
/// someone else's league, job, draft, version or invitation; guessed ids find nothing; a
/// published list is public.
fn outsiders_get_404_everywhere_on(backend: Backend) {
    let db = Db::new(backend);
    let s = Server::start(&db, &["--workers", "1"]);
    let (code, job) = s.post_json(
        "/api/jobs",
        serde_json::json!({ "league": MID_DOWNS, "time_limit": 3, "alternatives": 2 }),
    );
    assert_eq!(code, 202, "{job}");
    let id = job["id"].as_str().unwrap().to_string();
    assert_eq!(s.wait(&id, Duration::from_secs(60))["state"], "done");
    let league = job["league_id"].as_str().unwrap().to_string();
    let (code, inv) = s.post_json(
        &format!("/api/leagues/{league}/invitations"),
        serde_json::json!({}),
    );
    assert_eq!(code, 201, "{inv}");
    let invitation = inv["token"].as_str().unwrap().to_string();
    let (code, p) = s.post_json(
        &format!("/api/jobs/{id}/publish"),
        serde_json::json!({ "draft": 2 }),
    );
    assert_eq!(code, 201, "{p}");
    let public = p["id"].as_str().unwrap().to_string();
    let stranger = db.user("stranger");
    let guess = fixtures::store::new_id();
    let reads = [
        format!("/api/leagues/{league}"),
        format!("/api/leagues/{league}/versions/1"),
        format!("/api/jobs/{id}"),
        format!("/api/jobs/{id}/fixtures.csv"),
        format!("/api/jobs/{id}/files/draft-1.csv"),
        format!("/api/jobs/{id}/files/draft-2.csv"),
        format!("/api/jobs/{id}/report/"),
        format!("/api/jobs/{id}/report/index.html"),
        format!("/api/jobs/{id}/ics/horsham-1.ics"),
        format!("/api/jobs/{id}/drafts/2/report/"),
        format!("/api/jobs/{id}/drafts/2/report/index.html"),
        format!("/api/leagues/{league}/season"),
        format!("/api/jobs/{guess}"),
        format!("/api/leagues/{guess}"),
        format!("/p/{guess}/"),
    ];
    let writes = [
        ("DELETE", format!("/api/jobs/{id}")),
        ("POST", format!("/api/jobs/{id}/publish")),
        ("POST", format!("/api/leagues/{league}/versions")),
        ("POST", format!("/api/leagues/{league}/invitations")),
    ];
    for who in [None, Some(stranger.as_str())] {
        for path in &reads {
            let (code, body) = s.call("GET", path, who, None);
            assert_eq!(code, 404, "{who:?} GET {path}: {body}");
        }
        for (method, path) in &writes {
            let (code, body) = s.call(method, path, who, Some(("application/json", "{}")));
            assert_eq!(code, 404, "{who:?} {method} {path}: {body}");
        }
        // A job on someone else's league: as if the league did not exist.
        let (code, _) = s.call(
            "POST",
            "/api/jobs",
            who,
            Some((
                "application/json",
                &serde_json::json!({ "league_id": league }).to_string(),
            )),
        );
        assert!(code == 404 || code == 401, "{who:?}: {code}");
    }
    // Nothing changed: the job and its drafts are still there, each with its own report
    // (issue 45: draft 2's, not draft 1's, before choosing); a draft it has not, none.
    assert_eq!(s.get(&format!("/api/jobs/{id}/files/draft-1.csv")).0, 200);
    let report = |n: usize| s.get(&format!("/api/jobs/{id}/drafts/{n}/report/"));
    let (code, two) = report(2);
    assert_eq!(code, 200);
    assert!(two.contains("All fixtures"), "{two}");
    let d2 = s.get(&format!("/api/jobs/{id}/files/draft-2.csv")).1;
    let first = d2.lines().nth(1).unwrap().split(',').collect::<Vec<_>>();
    let shown = fixtures::model::short_date(fixtures::model::parse_iso_date(first[0]).unwrap());
    assert!(
        two.contains(&shown) && two.contains(first[2]),
        "draft 2's own fixtures"
    );
    assert_eq!(report(9).0, 404);
    // The published list is public, read-only.
    let (code, page) = s.call("GET", &format!("/p/{public}/"), None, None);
    assert_eq!(code, 200);
    assert!(page.contains("All fixtures"));
    let (code, csv) = s.call("GET", &format!("/p/{public}/fixtures.csv"), None, None);
    assert_eq!(code, 200);
    assert_eq!(csv, s.get(&format!("/api/jobs/{id}/files/draft-2.csv")).1);
    assert_eq!(
        s.call("GET", &format!("/p/{public}/ics/horsham-1.ics"), None, None)
            .0,
        200
    );
    // With the invitation, the stranger reads the league and its drafts, but changes nothing.
    let (code, _) = s.call(
        "POST",
        &format!("/api/invitations/{invitation}"),
        Some(&stranger),
        Some(("application/json", "{}")),
    );
    assert_eq!(code, 200);
    assert_eq!(
        s.call(
            "GET",
            &format!("/api/jobs/{id}/files/draft-1.csv"),
            Some(&stranger),
            None
        )
        .0,
        200
    );
    assert_eq!(
        s.call("DELETE", &format!("/api/jobs/{id}"), Some(&stranger), None)
            .0,
        404
    );
}

#[test]
fn outsiders_get_404_everywhere() {
    for b in BACKENDS {
        outsiders_get_404_everywhere_on(b);
    }
}

/// Logs in through the page's form: the session cookie and the page's CSRF token.
fn browser_login(s: &Server, name: &str) -> (String, String) {
    let agent = ureq::AgentBuilder::new().redirects(0).build();
    let r = agent
        .post(&format!("{}/login", s.base))
        .send_form(&[("name", name), ("password", &format!("secret-{name}"))]);
    let r = match r {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(r.status(), 303);
    let set = r.header("Set-Cookie").unwrap().to_string();
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Strict"),
        "{set}"
    );
    let cookie = set.split(';').next().unwrap().to_string();
    let page = ureq::get(&format!("{}/", s.base))
        .set("Cookie", &cookie)
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    (cookie, common::service::csrf_of(&page))
}

#[test]
fn state_changing_requests_with_a_session_need_its_csrf_token() {
    let db = Db::new(Backend::Sqlite);
    let s = Server::start(&db, &["--workers", "0"]);
    db.user("carol");
    let (cookie, csrf) = browser_login(&s, "carol");
    let post = |path: &str, token: Option<&str>, body: &str| {
        let mut r = ureq::post(&format!("{}{path}", s.base)).set("Cookie", &cookie);
        if let Some(t) = token {
            r = r.set("X-CSRF-Token", t);
        }
        match r.send_string(body) {
            Ok(r) => r.status(),
            Err(ureq::Error::Status(c, _)) => c,
            Err(e) => panic!("{e}"),
        }
    };
    assert_eq!(post("/api/jobs", None, MID_DOWNS), 403);
    assert_eq!(post("/api/jobs", Some("0123"), MID_DOWNS), 403);
    assert_eq!(post("/api/leagues", None, MID_DOWNS), 403);
    assert_eq!(post("/api/jobs", Some(&csrf), MID_DOWNS), 202);
    // A form post without the token (a cross-site form) changes nothing.
    let r = ureq::post(&format!("{}/logout", s.base))
        .set("Cookie", &cookie)
        .send_form(&[("csrf", "")]);
    assert!(matches!(r, Err(ureq::Error::Status(403, _))), "{r:?}");
    let page = ureq::get(&format!("{}/", s.base))
        .set("Cookie", &cookie)
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert!(page.contains("Logged in as carol"), "still logged in");
}

#[test]
fn failed_logins_are_rate_limited() {
    let db = Db::new(Backend::Sqlite);
    let s = Server::start(&db, &["--workers", "0"]);
    db.user("dave");
    let login = |password: &str| {
        s.call(
            "POST",
            "/api/login",
            None,
            Some((
                "application/json",
                &serde_json::json!({ "name": "dave", "password": password }).to_string(),
            )),
        )
        .0
    };
    for _ in 0..5 {
        assert_eq!(login("wrong"), 401);
    }
    assert_eq!(login("wrong"), 429);
    assert_eq!(login("secret-dave"), 429, "even the right password waits");
}

#[test]
fn json_jobs_reschedule_and_alternatives() {
    let db = Db::new(Backend::Sqlite);
    let s = Server::start(&db, &["--workers", "2"]);
    let post = |body: serde_json::Value| s.post_json("/api/jobs", body);
    // Two drafts.
    let (code, job) =
        post(serde_json::json!({ "league": MID_DOWNS, "time_limit": 6, "alternatives": 2 }));
    assert_eq!(code, 202, "{job}");
    let id = job["id"].as_str().unwrap().to_string();
    let done = s.wait(&id, Duration::from_secs(60));
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(done["drafts"], 2);
    let (code, d2) = s.get(&format!("/api/jobs/{id}/files/draft-2.csv"));
    assert_eq!(code, 200);
    let (_, d1) = s.get(&format!("/api/jobs/{id}/files/draft-1.csv"));
    assert_ne!(d1, d2);
    assert_eq!(s.get(&format!("/api/jobs/{id}/files/status.json")).0, 404);
    // A rerun of draft 1 with a withdrawal: nothing moves.
    let team = "Horsham 1";
    let (code, job) = post(serde_json::json!({
        "league": MID_DOWNS, "time_limit": 6, "current": d1, "from": "2027-01-10", "withdraw": [team]
    }));
    assert_eq!(code, 202, "{job}");
    let id = job["id"].as_str().unwrap().to_string();
    let done = s.wait(&id, Duration::from_secs(60));
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(done["moves"], 0, "{done}");
    let (code, diff) = s.get(&format!("/api/jobs/{id}/files/fixtures.diff.csv"));
    assert_eq!(code, 200);
    assert!(diff.contains("scratched,"));
    let (code, text) = s.get(&format!("/api/jobs/{id}/files/changes.txt"));
    assert_eq!(code, 200);
    assert!(text.contains("scratched"), "{text}");
    // Bad options are refused up front.
    let (code, _) = post(serde_json::json!({ "league": MID_DOWNS, "current": d1 }));
    assert_eq!(code, 400);
    let (code, body) = post(
        serde_json::json!({ "league": MID_DOWNS, "current": d1, "from": "2027-01-10", "withdraw": ["Nobody"] }),
    );
    assert_eq!(code, 400);
    assert!(body["error"].as_str().unwrap().contains("Nobody"));
}

/// Publish a draft; rerun the published list after a withdrawal and publish that: a new
/// version with its diff, the first still readable as it was.
#[test]
fn a_rerun_publishes_a_new_version_and_keeps_the_old() {
    for backend in BACKENDS {
        let db = Db::new(backend);
        let s = Server::start(&db, &["--workers", "1"]);
        let (_, job) = s.post_json(
            "/api/jobs",
            serde_json::json!({ "league": MID_DOWNS, "time_limit": 3 }),
        );
        let id = job["id"].as_str().unwrap().to_string();
        assert_eq!(s.wait(&id, Duration::from_secs(60))["state"], "done");
        let (code, first) = s.post_json(&format!("/api/jobs/{id}/publish"), serde_json::json!({}));
        assert_eq!(code, 201, "{first}");
        let first_id = first["id"].as_str().unwrap().to_string();
        let (_, first_csv) = s.call("GET", &format!("/p/{first_id}/fixtures.csv"), None, None);
        let (code, rerun) = s.post_json(
            "/api/jobs",
            serde_json::json!({ "league_id": job["league_id"], "time_limit": 3, "rerun_of": first_id,
                                 "from": "2027-01-10", "withdraw": ["Horsham 1"] }),
        );
        assert_eq!(code, 202, "{rerun}");
        let rid = rerun["id"].as_str().unwrap().to_string();
        assert_eq!(s.wait(&rid, Duration::from_secs(60))["state"], "done");
        let (code, second) =
            s.post_json(&format!("/api/jobs/{rid}/publish"), serde_json::json!({}));
        assert_eq!(code, 201, "{second}");
        assert_eq!(second["number"], 2);
        let second_id = second["id"].as_str().unwrap();
        let (code, diff) = s.call("GET", &format!("/p/{second_id}/changes.csv"), None, None);
        assert_eq!(code, 200);
        assert!(diff.contains("scratched,"), "{diff}");
        // Calendars follow: the withdrawn team's fixtures after the date stay as cancelled
        // events (a higher SEQUENCE), under the UIDs the first version gave them.
        let (code, ics) = s.call(
            "GET",
            &format!("/p/{second_id}/ics/horsham-1.ics"),
            None,
            None,
        );
        assert_eq!(code, 200);
        let (_, old_ics) = s.call(
            "GET",
            &format!("/p/{first_id}/ics/horsham-1.ics"),
            None,
            None,
        );
        assert!(
            ics.contains("STATUS:CANCELLED") && !old_ics.contains("STATUS:CANCELLED"),
            "{ics}"
        );
        let uids = |t: &str| {
            t.lines()
                .filter(|l| l.starts_with("UID:"))
                .map(String::from)
                .collect::<std::collections::BTreeSet<_>>()
        };
        assert_eq!(
            uids(&ics),
            uids(&old_ics),
            "the same events, some cancelled"
        );
        let (code, lms) = s.call("GET", &format!("/p/{second_id}/lms.csv"), None, None);
        assert_eq!(code, 200);
        assert!(
            !lms.starts_with("date") && lms.lines().all(|l| l.split(',').count() == 4),
            "{lms}"
        );
        // The first version is unchanged.
        let (code, again) = s.call("GET", &format!("/p/{first_id}/fixtures.csv"), None, None);
        assert_eq!(code, 200);
        assert_eq!(again, first_csv);
        let (_, l) = s.get(&format!(
            "/api/leagues/{}",
            job["league_id"].as_str().unwrap()
        ));
        let l: serde_json::Value = serde_json::from_str(&l).unwrap();
        assert_eq!(l["publications"].as_array().unwrap().len(), 2, "{l}");
    }
}

#[test]
fn cancelling_a_running_job_frees_its_worker() {
    let db = Db::new(Backend::Sqlite);
    let s = Server::start(&db, &["--workers", "1"]);
    let (_, job, _) = s.submit(MID_DOWNS, 120);
    let long = job["id"].as_str().unwrap().to_string();
    let end = Instant::now() + Duration::from_secs(20);
    while !s
        .get(&format!("/api/jobs/{long}"))
        .1
        .contains("\"running\"")
        && Instant::now() < end
    {
        std::thread::sleep(Duration::from_millis(100));
    }
    let (code, v) = s.call("DELETE", &format!("/api/jobs/{long}"), Some(&s.token), None);
    assert_eq!(code, 200);
    let v: serde_json::Value = serde_json::from_str(&v).unwrap();
    assert_eq!(v["state"], "cancelled");
    // The one worker is free again: a new job is done while the cancelled one would still
    // have had most of its two minutes to run (`wait` gives up after one).
    let (_, job, _) = s.submit(MID_DOWNS, 2);
    let next = job["id"].as_str().unwrap().to_string();
    let done = s.wait(&next, Duration::from_secs(60));
    assert_eq!(done["state"], "done", "{done}");
    assert!(s.get(&format!("/api/jobs/{long}")).1.contains("cancelled"));
    // A cancelled job offers nothing to download.
    for file in ["fixtures.csv", "report/", "files/draft-1.csv"] {
        assert_eq!(s.get(&format!("/api/jobs/{long}/{file}")).0, 404, "{file}");
    }
}

/// Cancelled before its first draft was found, a drafts job ends cancelled with no files; the
/// service goes on answering.
#[test]
fn a_drafts_job_cancelled_before_its_first_draft_writes_nothing() {
    let db = Db::new(Backend::Sqlite);
    let s = Server::start(&db, &["--workers", "1"]);
    let (_, job) = s.post_json(
        "/api/jobs",
        serde_json::json!({ "league": MID_DOWNS, "time_limit": 300, "alternatives": 3 }),
    );
    let id = job["id"].as_str().unwrap().to_string();
    let end = Instant::now() + Duration::from_secs(20);
    while !s.get(&format!("/api/jobs/{id}")).1.contains("\"running\"") && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(20));
    }
    let (code, _) = s.call("DELETE", &format!("/api/jobs/{id}"), Some(&s.token), None);
    assert_eq!(code, 200);
    // The worker stops within a few seconds; then nothing of the job is on disk to offer.
    let (_, job, _) = s.submit(MID_DOWNS, 2);
    let next = job["id"].as_str().unwrap().to_string();
    assert_eq!(s.wait(&next, Duration::from_secs(60))["state"], "done");
    let v: serde_json::Value = serde_json::from_str(&s.get(&format!("/api/jobs/{id}")).1).unwrap();
    assert_eq!(v["state"], "cancelled", "{v}");
    for file in ["fixtures.csv", "files/draft-1.csv", "report/"] {
        assert_eq!(s.get(&format!("/api/jobs/{id}/{file}")).0, 404, "{file}");
    }
    // Nothing of it is stored.
    let store_files = tokio::runtime::Runtime::new().unwrap().block_on(async {
        let store = fixtures::store::Store::open(&db.url()).await.unwrap();
        store.files(&id).await.unwrap()
    });
    assert!(store_files.is_empty(), "{store_files:?}");
}

/// The CLI, `batch` and the service make the same list, to the byte, for one league and seed:
/// all three go through the one pipeline. (A league whose optimum is proven at once, so that
/// the result does not depend on the machine's speed.)
#[test]
fn cli_batch_and_service_write_the_same_bytes() {
    let league = include_str!("../instances/examples/four-teams-double.toml").replace(
        "[rules]",
        "[weights]\nlong_rest = 0\nshort_rest = 0\nspread = 0\nspread_max = 0\nwinter = 0\n\n[rules]",
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("league.toml");
    std::fs::write(&file, &league).unwrap();
    let out = Command::new(BIN)
        .args([
            "solve",
            "league.toml",
            "-o",
            "cli.csv",
            "--threads",
            "1",
            "--seed",
            "5",
        ])
        .args(["--time-limit", "30"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("optimal within"), "{stderr}");
    let cli = std::fs::read(dir.path().join("cli.csv")).unwrap();

    let batch = dir.path().join("batch");
    let scenario = batch.join("one");
    std::fs::create_dir_all(&scenario).unwrap();
    std::fs::write(scenario.join("league.toml"), &league).unwrap();
    std::fs::write(
        scenario.join("scenario.toml"),
        "seed = 5\ntime_limit = 30\n",
    )
    .unwrap();
    let out = Command::new(BIN).arg("batch").arg(&batch).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let from_batch = std::fs::read(scenario.join("result/fixtures.csv")).unwrap();

    let db = Db::new(Backend::Sqlite);
    let s = Server::start(&db, &["--workers", "1"]);
    let (_, job) = s.post_json(
        "/api/jobs",
        serde_json::json!({ "league": league, "time_limit": 30, "seed": 5 }),
    );
    let id = job["id"].as_str().unwrap().to_string();
    assert_eq!(s.wait(&id, Duration::from_secs(60))["state"], "done");
    let (code, from_service) = s.get(&format!("/api/jobs/{id}/fixtures.csv"));
    assert_eq!(code, 200);

    assert_eq!(cli, from_batch, "CLI and batch differ");
    assert_eq!(cli, from_service.as_bytes(), "CLI and service differ");
}

/// The team-entry workbook through the service: the template downloads, an import fills the
/// league file, a bad cell comes back by sheet, row and column, and nobody logged out imports.
#[test]
fn team_entries_import_through_the_service() {
    use base64::Engine;
    let db = Db::new(BACKENDS[0]);
    let s = Server::start(&db, &["--workers", "0"]);
    let (code, _) = s.call("GET", "/api/template.xlsx", None, None);
    assert_eq!(code, 200);
    let league = include_str!("../instances/sussex-2026-7.toml");
    let xlsx = include_bytes!("../instances/sussex-2026-7-entries.xlsx");
    let data = base64::engine::general_purpose::STANDARD.encode(xlsx);
    let body = serde_json::json!({ "league": league, "name": "entries.xlsx", "data": data });
    let (code, out) = s.post_json("/api/import", body.clone());
    assert_eq!(code, 200, "{out}");
    let text = out["league"].as_str().unwrap();
    let again = fixtures::model::parse_league(text, "x.toml").unwrap();
    assert_eq!(again.teams.len(), 37);
    let bad = "Team,Club,Division\nHorsham 1,Horsham,Division 1\nLewes 1,,Division 1\n";
    let b = base64::engine::general_purpose::STANDARD.encode(bad);
    let (code, out) = s.post_json(
        "/api/import",
        serde_json::json!({ "league": league, "name": "teams.csv", "data": b }),
    );
    assert_eq!(code, 422, "{out}");
    assert_eq!(out["cells"][0]["row"], 3);
    assert_eq!(out["cells"][0]["column"], "B (Club)");
    let (code, _) = s.call(
        "POST",
        "/api/import",
        None,
        Some(("application/json", &body.to_string())),
    );
    assert_eq!(code, 401, "nobody logged in");
}

/// "Move" on a published fixture: its dates from `suggest` with rule 2.6's verdict, then the
/// move published as the next version (diff, calendars following); rule 2.6 and the league's
/// rules refuse what they must; a committee member sees the dates but moves nothing.
#[test]
fn a_published_fixture_moves_to_a_suggested_date() {
    let db = Db::new(BACKENDS[0]);
    let s = Server::start(&db, &["--workers", "1"]);
    let league_text =
        format!("{MID_DOWNS}\n[changes]\nissued = 2026-09-28\nearly_until = 2026-11-30\n");
    let (job, public, csv) = solved_and_published(&s, &league_text);
    // A fixture from January: a change agreed 40 days before is within rule 2.6.
    let row: Vec<&str> = csv
        .lines()
        .find(|l| l.starts_with("2027-02"))
        .unwrap()
        .split(',')
        .collect();
    let fixture = format!("{} v {}", row[2], row[3]);
    let original = chrono::NaiveDate::parse_from_str(row[0], "%Y-%m-%d").unwrap();
    let agreed = (original - chrono::Duration::days(40)).to_string();
    let q = |f: &str| f.replace(' ', "%20").replace('&', "%26");
    let (code, moves) = s.get(&format!(
        "/api/publications/{public}/moves?fixture={}&agreed={agreed}",
        q(&fixture)
    ));
    assert_eq!(code, 200, "{moves}");
    let moves: serde_json::Value = serde_json::from_str(&moves).unwrap();
    let list = moves["moves"].as_array().unwrap();
    assert!(!list.is_empty());
    let to = list
        .iter()
        .find(|m| m["window"] == "within" && m["date"].as_str().unwrap() > row[0])
        .expect("a later date within rule 2.6")["date"]
        .as_str()
        .unwrap()
        .to_string();
    // Too late an agreement: exceptional, refused unless the committee allows it.
    let late = (original - chrono::Duration::days(3)).to_string();
    let (code, body) = s.post_json(
        &format!("/api/publications/{public}/move"),
        serde_json::json!({ "fixture": fixture, "date": to, "agreed": late }),
    );
    assert_eq!(code, 409, "{body}");
    // A date that breaks a rule (not a hosting night) is refused with the rule.
    let sunday = {
        let mut d = original;
        while chrono::Datelike::weekday(&d) != chrono::Weekday::Sun {
            d = d.succ_opt().unwrap();
        }
        d.to_string()
    };
    let (code, body) = s.post_json(
        &format!("/api/publications/{public}/move"),
        serde_json::json!({ "fixture": fixture, "date": sunday, "agreed": agreed }),
    );
    assert_eq!(code, 422, "{body}");
    assert!(
        body["messages"].to_string().contains("hosting date"),
        "{body}"
    );
    // Within the rule: published as version 2, the diff says moved, calendars raise SEQUENCE.
    let (code, moved) = s.post_json(
        &format!("/api/publications/{public}/move"),
        serde_json::json!({ "fixture": fixture, "date": to, "agreed": agreed }),
    );
    assert_eq!(code, 201, "{moved}");
    assert_eq!(moved["number"], 2);
    assert_eq!(moved["window"], "within");
    let second = moved["id"].as_str().unwrap();
    let (_, new_csv) = s.call("GET", &format!("/p/{second}/fixtures.csv"), None, None);
    assert!(
        new_csv
            .lines()
            .any(|l| l.starts_with(&to) && l.contains(&format!(",{},{},", row[2], row[3]))),
        "{new_csv}"
    );
    let (_, diff) = s.call("GET", &format!("/p/{second}/changes.csv"), None, None);
    assert!(diff.contains("moved"), "{diff}");
    let (_, ics) = s.call(
        "GET",
        &format!(
            "/p/{second}/ics/{}.ics",
            fixtures::report::site::slug(row[2])
        ),
        None,
        None,
    );
    assert!(ics.contains("SEQUENCE:1"), "{ics}");
    // The first version is kept as it was.
    assert_eq!(
        s.call("GET", &format!("/p/{public}/fixtures.csv"), None, None)
            .1,
        csv
    );
    // A committee member reads the dates but cannot move; a stranger sees nothing.
    let league = job["league_id"].as_str().unwrap();
    let member = committee_member(&s, &db, league);
    let path = format!("/api/publications/{second}/moves?fixture={}", q(&fixture));
    assert_eq!(s.call("GET", &path, Some(&member), None).0, 200);
    let body = serde_json::json!({ "fixture": fixture, "date": to }).to_string();
    assert_eq!(
        s.call(
            "POST",
            &format!("/api/publications/{second}/move"),
            Some(&member),
            Some(("application/json", &body))
        )
        .0,
        404
    );
    let stranger = db.user("stranger");
    assert_eq!(s.call("GET", &path, Some(&stranger), None).0, 404);
}

/// A postponement through the service: a rerun of a publication with a new date a team cannot
/// play moves the fixture off it (and only what must move); an unknown team is refused.
#[test]
fn a_postponement_rerun_moves_the_fixture_off_the_date() {
    let db = Db::new(BACKENDS[0]);
    let s = Server::start(&db, &["--workers", "1"]);
    let (job, public, csv) = solved_and_published(&s, MID_DOWNS);
    let row: Vec<&str> = csv
        .lines()
        .find(|l| l.starts_with("2027-02"))
        .unwrap()
        .split(',')
        .collect();
    let (code, rerun) = s.post_json(
        "/api/jobs",
        serde_json::json!({ "league_id": job["league_id"], "time_limit": 5, "rerun_of": public,
                             "from": row[0], "unavailable": [format!("{}={}", row[2], row[0])] }),
    );
    assert_eq!(code, 202, "{rerun}");
    let rid = rerun["id"].as_str().unwrap().to_string();
    let st = s.wait(&rid, Duration::from_secs(60));
    assert_eq!(st["state"], "done", "{st}");
    let (_, diff) = s.get(&format!("/api/jobs/{rid}/files/fixtures.diff.csv"));
    let moved: Vec<&str> = diff.lines().filter(|l| l.starts_with("moved,")).collect();
    assert!(
        moved
            .iter()
            .any(|l| l.contains(&format!("{},{},{}", row[0], row[2], row[3]))),
        "{diff}"
    );
    let (_, bad) = s.post_json(
        "/api/jobs",
        serde_json::json!({ "league_id": job["league_id"], "time_limit": 5, "rerun_of": public,
                             "from": row[0], "unavailable": ["Nobody=2027-02-01"] }),
    );
    let st = s.wait(bad["id"].as_str().unwrap(), Duration::from_secs(60));
    assert_eq!(st["state"], "failed", "{st}");
    assert!(st["messages"].to_string().contains("Nobody"), "{st}");
}

/// The drafts side by side: the owner gets a button per draft, an invited committee member
/// the same figures and no buttons, a stranger nothing.
#[test]
fn the_committee_compares_the_drafts_and_the_secretary_chooses() {
    let db = Db::new(BACKENDS[0]);
    let s = Server::start(&db, &["--workers", "1"]);
    let (_, job) = s.post_json(
        "/api/jobs",
        serde_json::json!({ "league": MID_DOWNS, "time_limit": 4, "alternatives": 2 }),
    );
    let id = job["id"].as_str().unwrap().to_string();
    assert_eq!(s.wait(&id, Duration::from_secs(60))["state"], "done");
    let (code, page) = s.get(&format!("/api/jobs/{id}/compare"));
    assert_eq!(code, 200, "{page}");
    assert!(
        page.contains("draft 1")
            && page.contains("draft 2")
            && page.contains("two home or two away"),
        "{page}"
    );
    assert!(
        page.contains("Each team's weeks") && page.contains("Horsham 1 · draft 2"),
        "{page}"
    );
    // API tokens are not a browser session: no buttons without a session's CSRF token.
    let league = job["league_id"].as_str().unwrap();
    let member = committee_member(&s, &db, league);
    let (code, seen) = s.call(
        "GET",
        &format!("/api/jobs/{id}/compare"),
        Some(&member),
        None,
    );
    assert_eq!(code, 200);
    assert!(
        !seen.contains("class=\"choose\"") && seen.contains("Only the league's secretary"),
        "{seen}"
    );
    let stranger = db.user("stranger");
    assert_eq!(
        s.call(
            "GET",
            &format!("/api/jobs/{id}/compare"),
            Some(&stranger),
            None
        )
        .0,
        404
    );
    let (code, p) = s.post_json(
        &format!("/api/jobs/{id}/publish"),
        serde_json::json!({ "draft": 2 }),
    );
    assert_eq!(code, 201, "{p}");
}

/// Solves `league` (3 s) and publishes it: the job, the publication's id and its CSV.
fn solved_and_published(s: &Server, league: &str) -> (serde_json::Value, String, String) {
    let (code, job) = s.post_json(
        "/api/jobs",
        serde_json::json!({ "league": league, "time_limit": 3 }),
    );
    assert_eq!(code, 202, "{job}");
    let id = job["id"].as_str().unwrap().to_string();
    assert_eq!(s.wait(&id, Duration::from_secs(60))["state"], "done");
    let (code, p) = s.post_json(&format!("/api/jobs/{id}/publish"), serde_json::json!({}));
    assert_eq!(code, 201, "{p}");
    let public = p["id"].as_str().unwrap().to_string();
    let (_, csv) = s.call("GET", &format!("/p/{public}/fixtures.csv"), None, None);
    (job, public, csv)
}

/// A new account "member", invited by the owner to `league`'s committee and joined: its API
/// token.
fn committee_member(s: &Server, db: &Db, league: &str) -> String {
    let (code, inv) = s.post_json(
        &format!("/api/leagues/{league}/invitations"),
        serde_json::json!({}),
    );
    assert_eq!(code, 201, "{inv}");
    let member = db.user("member");
    let token = inv["token"].as_str().unwrap();
    let (code, body) = s.call(
        "POST",
        &format!("/api/invitations/{token}"),
        Some(&member),
        Some(("application/json", "{}")),
    );
    assert_eq!(code, 200, "{body}");
    member
}

/// Issue 44: the service publishes through the league's season record. On 1 December a rerun
/// that would move a November fixture (played, or awaiting its result) is refused, naming it;
/// publishing the first solve again, which would undo a move, needs a confirmation (issue 45);
/// a move and a withdrawal land in the record with the league versions they make, and every
/// version passes the checker against its own league version.
#[test]
fn the_service_publishes_through_the_season_record() {
    for backend in BACKENDS {
        let db = Db::new(backend);
        let s = Server::start(&db, &["--workers", "1", "--today", "2026-12-01"]);
        let (job, public, csv) = solved_and_published(&s, MID_DOWNS);
        let league = job["league_id"].as_str().unwrap().to_string();
        let row = |prefix: &str| -> Vec<String> {
            csv.lines()
                .find(|l| l.starts_with(prefix))
                .unwrap()
                .split(',')
                .map(String::from)
                .collect()
        };
        let rerun = |extra: serde_json::Value| {
            let mut body =
                serde_json::json!({ "league_id": league, "time_limit": 3, "rerun_of": public });
            body.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            let (code, r) = s.post_json("/api/jobs", body);
            assert_eq!(code, 202, "{r}");
            let id = r["id"].as_str().unwrap().to_string();
            assert_eq!(s.wait(&id, Duration::from_secs(60))["state"], "done");
            id
        };
        // A November fixture's home team cannot play on its date: the rerun moves it, but it
        // is before today.
        // (not the league file's [[fixed]] Worthing 1 v Lewes 1).
        let nov: Vec<String> = csv
            .lines()
            .find(|l| l.starts_with("2026-11") && !l.contains("Worthing 1,Lewes 1"))
            .unwrap()
            .split(',')
            .map(String::from)
            .collect();
        let id = rerun(
            serde_json::json!({ "from": "2026-10-12", "unavailable": [format!("{}={}", nov[2], nov[0])] }),
        );
        let (code, body) = s.post_json(&format!("/api/jobs/{id}/publish"), serde_json::json!({}));
        assert_eq!(code, 422, "{body}");
        assert!(
            body["messages"].to_string().contains("before today"),
            "{body}"
        );
        // A February fixture moved to the first date offered from tomorrow.
        let feb = row("2027-02");
        let fixture = format!("{} v {}", feb[2], feb[3]);
        let (code, moves) = s.get(&format!(
            "/api/publications/{public}/moves?fixture={}",
            fixture.replace(' ', "%20").replace('&', "%26")
        ));
        assert_eq!(code, 200, "{moves}");
        let moves: serde_json::Value = serde_json::from_str(&moves).unwrap();
        let dates: Vec<&str> = moves["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["date"].as_str().unwrap())
            .collect();
        assert!(dates.iter().all(|d| *d > "2026-12-01"), "{dates:?}");
        let (code, moved) = s.post_json(
            &format!("/api/publications/{public}/move"),
            serde_json::json!({ "fixture": fixture, "date": dates[0] }),
        );
        assert_eq!(code, 201, "{moved}");
        // The old version cannot be moved from any more.
        let (code, _) = s.post_json(
            &format!("/api/publications/{public}/move"),
            serde_json::json!({ "fixture": fixture, "date": dates[0] }),
        );
        assert_eq!(code, 409);
        // Publishing the first solve again would undo the move: 409 naming it, then published
        // only when confirmed (version 3).
        let first_job = job["id"].as_str().unwrap();
        let (code, body) = s.post_json(
            &format!("/api/jobs/{first_job}/publish"),
            serde_json::json!({}),
        );
        assert_eq!(code, 409, "{body}");
        assert!(body["changes"].to_string().contains(&fixture), "{body}");
        let (code, again) = s.post_json(
            &format!("/api/jobs/{first_job}/publish"),
            serde_json::json!({ "confirm": true }),
        );
        assert_eq!(code, 201, "{again}");
        let second = again["id"].as_str().unwrap().to_string();
        let body = serde_json::json!({ "league_id": league, "time_limit": 3, "rerun_of": second, "from": "2027-01-10", "withdraw": ["Horsham 1"] });
        let (code, r) = s.post_json("/api/jobs", body);
        assert_eq!(code, 202, "{r}");
        let id = r["id"].as_str().unwrap().to_string();
        assert_eq!(s.wait(&id, Duration::from_secs(60))["state"], "done");
        let (code, third) = s.post_json(&format!("/api/jobs/{id}/publish"), serde_json::json!({}));
        assert_eq!(code, 201, "{third}");
        assert_eq!(third["number"], 4);
        // The record: four versions, each checked against its league version.
        let url = db.url();
        let (record, version) = tokio::runtime::Runtime::new().unwrap().block_on(async {
            let store = fixtures::store::Store::open(&url).await.unwrap();
            let (record, _) = store.season(&league).await.unwrap().expect("a season");
            let p = store
                .publication(third["id"].as_str().unwrap())
                .await
                .unwrap()
                .unwrap();
            let v = store.version(&p.version).await.unwrap().unwrap();
            (record, v.toml)
        });
        let season = fixtures::season::record::Season::from_json(&record).unwrap();
        let kinds: Vec<&str> = season.log.iter().map(|e| e.kind.as_str()).collect();
        assert_eq!(
            kinds,
            [
                "started",
                "agreed change (2.6)",
                "new list",
                "withdrawal (11.2)"
            ]
        );
        assert!(season.verify_all().iter().all(|(_, v)| v.is_empty()));
        assert_eq!(version, season.league_text());
        // The withdrawal's [[excluded]] (the move's [[fixed]] went with version 3, which undid
        // it).
        assert!(version.contains("[[excluded]]"), "{version}");
        // Issue 45: the clubs' link shows the newest list across versions, and so does a
        // team's calendar; an old version's pages say they were replaced, with the link.
        let stable = format!("/p/{public}/latest/");
        let (code, page) = s.get(&stable);
        assert_eq!(code, 200, "{page}");
        assert!(page.contains("Version 4 of the fixture list"), "{page}");
        let (_, old) = s.get(&format!("/p/{public}/"));
        assert!(
            old.contains("Version 4 replaced it") && old.contains(&stable),
            "{old}"
        );
        let third_id = third["id"].as_str().unwrap();
        assert_eq!(
            s.get(&format!("{stable}fixtures.csv")).1,
            s.get(&format!("/p/{third_id}/fixtures.csv")).1
        );
        let (code, ics) = s.get(&format!("{stable}ics/horsham-1.ics"));
        assert_eq!(code, 200);
        assert!(ics.contains("STATUS:CANCELLED"), "{ics}");
        // The league's page: where the season stands, and what happened.
        let (code, hub) = s.get(&format!("/leagues/{league}"));
        assert_eq!(code, 200, "{hub}");
        for words in [
            "The season",
            "Today is 1 Dec 2026",
            "Version 4",
            "withdrawal (11.2)",
            "agreed change (2.6)",
            stable.as_str(),
        ] {
            assert!(hub.contains(words), "{words}: {hub}");
        }
    }
}

/// Issue 45: leagues by id everywhere. The same file sent twice without a league's id makes
/// two leagues (never merged by name), and a changed file sent with a league's id becomes that
/// league's next version, the other league untouched.
#[test]
fn leagues_are_told_apart_by_id_never_by_name() {
    let db = Db::new(BACKENDS[0]);
    let s = Server::start(&db, &["--workers", "0"]);
    let job = |body: serde_json::Value| {
        let (code, j) = s.post_json("/api/jobs", body);
        assert_eq!(code, 202, "{j}");
        j["league_id"].as_str().unwrap().to_string()
    };
    let a = job(serde_json::json!({ "league": MID_DOWNS, "time_limit": 1 }));
    let b = job(serde_json::json!({ "league": MID_DOWNS, "time_limit": 1 }));
    assert_ne!(
        a, b,
        "a second league of the same name is a league of its own"
    );
    let changed = MID_DOWNS.replace("min_days_between = 6", "min_days_between = 5");
    assert_ne!(changed, MID_DOWNS);
    let c = job(serde_json::json!({ "league": changed, "league_id": a, "time_limit": 1 }));
    assert_eq!(c, a);
    let versions = |id: &str| {
        let (code, l) = s.get(&format!("/api/leagues/{id}"));
        assert_eq!(code, 200, "{l}");
        serde_json::from_str::<serde_json::Value>(&l).unwrap()["versions"].clone()
    };
    assert_eq!(versions(&a), 2);
    assert_eq!(versions(&b), 1);
}

/// Issue 45: the season's operations through the API, on the stored record: on 1 December the
/// matches before today await results; one entered leaves one fewer and publishes nothing; a
/// postponement publishes the next version; bad input is 400, a committee member cannot act,
/// and before any publication there is no season to act on.
#[test]
fn season_operations_go_through_the_api() {
    let db = Db::new(BACKENDS[0]);
    let s = Server::start(&db, &["--workers", "1", "--today", "2026-12-01"]);
    let (job, _, csv) = solved_and_published(&s, MID_DOWNS);
    let league = job["league_id"].as_str().unwrap().to_string();
    let path = format!("/api/leagues/{league}/season");
    let status = || -> serde_json::Value { serde_json::from_str(&s.get(&path).1).unwrap() };
    let before = status();
    assert_eq!(before["today"], "2026-12-01");
    let awaiting = before["awaiting"].as_array().unwrap().clone();
    assert!(!awaiting.is_empty(), "{before}");
    let first = awaiting[0]["fixture"].as_str().unwrap();
    let (code, r) = s.post_json(
        &path,
        serde_json::json!({ "action": "result", "fixture": first, "score": "3-1" }),
    );
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["entry"]["kind"], "result");
    assert!(r["publication"].is_null());
    assert_eq!(
        status()["awaiting"].as_array().unwrap().len(),
        awaiting.len() - 1
    );
    // A score that is no score.
    let (code, r) = s.post_json(
        &path,
        serde_json::json!({ "action": "result", "fixture": first, "score": "three" }),
    );
    assert_eq!(code, 400, "{r}");
    // A February fixture postponed to the best date from tomorrow: version 2.
    let feb: Vec<&str> = csv
        .lines()
        .find(|l| l.starts_with("2027-02"))
        .unwrap()
        .split(',')
        .collect();
    let fixture = format!("{} v {}", feb[2], feb[3]);
    let (code, r) = s.post_json(
        &path,
        serde_json::json!({ "action": "postpone", "fixture": fixture }),
    );
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["entry"]["kind"], "postponement");
    assert_eq!(r["publication"]["number"], 2);
    // The committee reads but does not act; a league with nothing published has no season.
    let member = committee_member(&s, &db, &league);
    let body = serde_json::json!({ "action": "postpone", "fixture": fixture }).to_string();
    assert_eq!(
        s.call(
            "POST",
            &path,
            Some(&member),
            Some(("application/json", &body))
        )
        .0,
        404
    );
    assert_eq!(s.call("GET", &path, Some(&member), None).0, 200);
    let (code, other) = s.post_json(
        "/api/jobs",
        serde_json::json!({ "league": MID_DOWNS, "time_limit": 1 }),
    );
    assert_eq!(code, 202, "{other}");
    let (code, r) = s.post_json(
        &format!(
            "/api/leagues/{}/season",
            other["league_id"].as_str().unwrap()
        ),
        serde_json::json!({ "action": "result", "fixture": first, "score": "3-1" }),
    );
    assert_eq!(code, 409, "{r}");
}

/// 4NCL rule 6.3 on the service: the first draw gives the preliminary pools; the final pools
/// are refused while a preliminary result is missing, and published once all are in.
#[test]
fn a_4ncl_season_forms_its_final_pools_through_the_api() {
    let db = Db::new(BACKENDS[0]);
    let s = Server::start(&db, &["--workers", "1", "--today", "2027-03-13"]);
    let ncl = include_str!("../instances/competitions/4ncl-2026-27-division-1.toml");
    let (job, _, csv) = solved_and_published(&s, ncl);
    let league = job["league_id"].as_str().unwrap().to_string();
    let path = format!("/api/leagues/{league}/season");
    let pools = serde_json::json!({ "action": "final_pools", "division": "Division 1" });
    let (code, r) = s.post_json(&path, pools.clone());
    assert_eq!(code, 422, "{r}");
    // Every preliminary match, the seventh round's played today.
    let fixtures: Vec<String> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .map(|f| format!("{} v {}", f[2], f[3]))
        .collect();
    assert_eq!(fixtures.len(), 56, "{csv}");
    for f in &fixtures {
        let (code, r) = s.post_json(
            &path,
            serde_json::json!({ "action": "result", "fixture": f, "score": "5-3" }),
        );
        assert_eq!(code, 200, "{r}");
    }
    // A penalty for defaults (4NCL rule 10.1: a match point for every three default points)
    // shows in the tables; lifted, it stays in the log only.
    let team = fixtures[0].split(" v ").next().unwrap().to_string();
    let penalty = serde_json::json!({ "action": "penalty", "team": team, "default_points": 3,
        "why": "three players named and absent, rule 10.3" });
    let (code, r) = s.post_json(&path, penalty);
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["entry"]["kind"], "penalty");
    assert!(r["publication"].is_null(), "{r}");
    let (_, page) = s.get(&format!("/leagues/{league}"));
    assert!(page.contains("Points taken off"), "{page}");
    assert!(page.contains("Penalty 1: "), "{page}");
    let bad = serde_json::json!({ "action": "penalty", "team": team, "why": "nothing given" });
    let (code, r) = s.post_json(&path, bad);
    assert_eq!(code, 400, "{r}");
    let lift = serde_json::json!({ "action": "lift_penalty", "number": 1, "why": "appeal upheld" });
    let (code, r) = s.post_json(&path, lift);
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["entry"]["kind"], "penalty lifted");
    let (_, st) = s.get(&path);
    let st: serde_json::Value = serde_json::from_str(&st).unwrap();
    assert_eq!(st["penalties"][0]["default_points"], 3, "{st}");
    assert_eq!(st["penalties"][0]["lifted"]["why"], "appeal upheld", "{st}");
    let (code, page) = s.get(&format!("/leagues/{league}"));
    assert_eq!(code, 200, "{page}");
    assert!(!page.contains("Points taken off"), "{page}");
    assert!(
        page.contains("<h3>Final pools of Division 1</h3>"),
        "{page}"
    );
    // Each table says how teams level on points are placed (4NCL rule 12.2).
    assert!(
        page.contains("placed by game points, then the matches between them, then in the order they were entered."),
        "{page}"
    );
    let (code, r) = s.post_json(&path, pools);
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["entry"]["kind"], "final pools (6.3)");
    let (_, page) = s.get(&format!("/leagues/{league}"));
    assert!(!page.contains("Final pools of"), "{page}");
    assert_eq!(r["publication"]["number"], 2);
    // Dated as the season dated it (the service's today), not by the clock.
    assert!(page.contains(">Version 2</a>, 13 Mar 2027"), "{page}");
}

/// The first option of the page's select `id`, unescaped.
fn first_option(page: &str, id: &str) -> String {
    page.split(&format!("id=\"{id}\" name=\"fixture\"><option value=\""))
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap()
        .replace("&#9;", "\t")
        .replace("&amp;", "&")
}

/// Issue 45: the league's page records a result and postpones a match through the season; a
/// refusal comes back on the page in words.
#[test]
fn the_league_page_records_a_result_and_postpones_a_match() {
    let db = Db::new(BACKENDS[0]);
    let s = Server::start(&db, &["--workers", "1", "--today", "2026-12-01"]);
    let (job, _, _) = solved_and_published(&s, MID_DOWNS);
    let league = job["league_id"].as_str().unwrap().to_string();
    let (cookie, csrf) = browser_login(&s, "owner");
    let agent = ureq::AgentBuilder::new().redirects(0).build();
    let page = || {
        agent
            .get(&format!("{}/leagues/{league}", s.base))
            .set("Cookie", &cookie)
            .call()
            .unwrap()
            .into_string()
            .unwrap()
    };
    let hub = page();
    assert!(
        hub.contains("Record the result") && hub.contains("Postpone a match"),
        "{hub}"
    );
    // The league version the forms were read from: an action that writes the league file
    // (a postponement's [[fixed]], a withdrawal) makes a new one.
    let version_of = |hub: &str| {
        hub.split("name=\"version\" value=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap()
            .to_string()
    };
    let version = std::cell::RefCell::new(version_of(&hub));
    let first = first_option(&hub, "result-fixture");
    let send = |form: &[(&str, &str)]| {
        let v = version.borrow().clone();
        let mut all = vec![("csrf", csrf.as_str()), ("version", v.as_str())];
        all.extend_from_slice(form);
        match agent
            .post(&format!("{}/leagues/{league}/hub", s.base))
            .set("Cookie", &cookie)
            .send_form(&all)
        {
            Ok(r) => (r.status(), r.into_string().unwrap()),
            Err(ureq::Error::Status(c, r)) => (c, r.into_string().unwrap()),
            Err(e) => panic!("{e}"),
        }
    };
    let awaiting = |h: &str| {
        h.split(" awaiting a result")
            .next()
            .unwrap()
            .rsplit(", ")
            .next()
            .unwrap()
            .trim()
            .to_string()
    };
    let before = awaiting(&hub);
    let (code, body) = send(&[("action", "result"), ("fixture", &first), ("score", "3-1")]);
    assert_eq!(code, 303, "{body}");
    let after = page();
    assert_eq!(
        awaiting(&after).parse::<usize>().unwrap() + 1,
        before.parse::<usize>().unwrap(),
        "{after}"
    );
    assert!(after.contains("result</strong>"), "{after}");
    // A score that is no score: the page says so.
    let second = first_option(&after, "result-fixture");
    let (code, body) = send(&[
        ("action", "result"),
        ("fixture", &second),
        ("score", "three"),
    ]);
    assert_eq!(code, 422);
    assert!(body.contains("role=\"alert\""), "{body}");
    // The first match to come, postponed to the best date from tomorrow: version 2.
    let to_come = first_option(&after, "postpone-fixture");
    // It is shown with its change first; nothing is published until it comes back confirmed.
    let postpone = [("action", "postpone"), ("fixture", &to_come), ("to", "")];
    let (code, body) = send(&postpone);
    assert_eq!(code, 200, "{body}");
    assert!(
        body.contains("Check before publishing") && body.contains("Publish as version 2"),
        "{body}"
    );
    assert!(body.contains(" moves from "), "{body}");
    assert!(!page().contains("Version 2"));
    let mut confirmed = postpone.to_vec();
    confirmed.push(("confirm", "yes"));
    let (code, body) = send(&confirmed);
    assert_eq!(code, 303, "{body}");
    assert!(page().contains("Version 2"));
    // A withdrawal (rule 11.2): the preview names the fixtures dropped; the list confirmed is
    // the one previewed, published as version 3 without the team.
    let hub = page();
    assert!(hub.contains("Rule 11.2"), "{hub}");
    *version.borrow_mut() = version_of(&hub);
    let team = "Lewes 2";
    let (code, body) = send(&[("action", "withdraw"), ("team", team)]);
    assert_eq!(code, 200, "{body}");
    assert!(body.contains("is dropped"), "{body}");
    let list = body
        .split("name=\"list\" value=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap()
        .replace("&#10;", "\n")
        .replace("&amp;", "&");
    let (code, body) = send(&[
        ("action", "withdraw"),
        ("team", team),
        ("list", &list),
        ("confirm", "yes"),
    ]);
    assert_eq!(code, 303, "{body}");
    let hub = page();
    assert!(
        hub.contains("Version 3") && hub.contains("withdrawal"),
        "{hub}"
    );
    // Each version says who published it: the league's secretary.
    assert!(hub.contains(" by owner"), "{hub}");
    *version.borrow_mut() = version_of(&hub);
    // A replay after a serious default (rule 6.2.2): previewed with the match it adds, then
    // published.
    let played = first_option(&hub, "replay-fixture");
    let against = played.split(" v ").next().unwrap().to_string();
    let replay = [
        ("action", "replay"),
        ("fixture", played.as_str()),
        ("against", against.as_str()),
        ("date", ""),
    ];
    let (code, body) = send(&replay);
    assert_eq!(code, 200, "{body}");
    assert!(body.contains("is added"), "{body}");
    let mut confirmed = replay.to_vec();
    confirmed.push(("confirm", "yes"));
    let (code, body) = send(&confirmed);
    assert_eq!(code, 303, "{body}");
    let hub = page();
    assert!(hub.contains("Version 4") && hub.contains("replay"), "{hub}");
    *version.borrow_mut() = version_of(&hub);
    // Results imported from the LMS columns with a score: a bad line is named and nothing is
    // entered; good lines are entered together.
    let awaiting_now = awaiting(&hub).parse::<usize>().unwrap();
    let first = first_option(&hub, "result-fixture");
    let (fixture, division) = first.split_once('\t').unwrap();
    let (home, away) = fixture.split_once(" v ").unwrap();
    let good = format!("{division},{home},{away},2026-11-01,2.5-1.5");
    let bad = format!("{good}\n{division},{home},Nobody,2026-11-01,2-2");
    let (code, body) = send(&[("action", "results"), ("results", &bad)]);
    assert_eq!(code, 422, "{body}");
    assert!(body.contains("line 2"), "{body}");
    assert_eq!(awaiting(&page()).parse::<usize>().unwrap(), awaiting_now);
    let (code, body) = send(&[("action", "results"), ("results", &good)]);
    assert_eq!(code, 303, "{body}");
    assert_eq!(
        awaiting(&page()).parse::<usize>().unwrap() + 1,
        awaiting_now
    );
    assert!(page().contains("Tables"));
}

/// Issue 45: the committee's way in. An invited member's list links the league; its page shows
/// the season read-only (no actions, no forms); a stranger gets an HTML 404 page, as for what
/// does not exist; the member cannot act on the page either.
#[test]
fn the_committee_reads_the_season_and_strangers_find_nothing() {
    let db = Db::new(BACKENDS[0]);
    let s = Server::start(&db, &["--workers", "1", "--today", "2026-12-01"]);
    let (job, _, _) = solved_and_published(&s, MID_DOWNS);
    let league = job["league_id"].as_str().unwrap().to_string();
    let member = committee_member(&s, &db, &league);
    let (code, list) = s.call("GET", "/leagues", Some(&member), None);
    assert_eq!(code, 200);
    assert!(
        list.contains(&format!("href=\"/leagues/{league}\"")),
        "{list}"
    );
    let (code, page) = s.call("GET", &format!("/leagues/{league}"), Some(&member), None);
    assert_eq!(code, 200, "{page}");
    assert!(
        page.contains("The season") && page.contains("committee"),
        "{page}"
    );
    for form in [
        "Record a result",
        "Postpone a match",
        "Upload as the next version",
    ] {
        assert!(!page.contains(form), "{form}: {page}");
    }
    for form in [
        "A team withdraws",
        "Import the team entries",
        "Import the results",
    ] {
        assert!(!page.contains(form), "{form}: {page}");
    }
    // Neither the member nor a stranger can act: every action and import answers 404.
    let stranger = db.user("stranger");
    for who in [&member, &stranger] {
        for (path, body) in [
            ("hub", "action=postpone&fixture=x"),
            ("hub", "action=withdraw&team=x"),
            ("hub", "action=result&fixture=x&score=1-0"),
            ("hub", "action=results&results=x"),
            ("hub", "action=cup&cup=x"),
            ("hub", "action=play_off&team=x&team=y"),
            ("hub", "action=replay&fixture=x&against=y"),
            ("entries", "name=x.xlsx&data=AA=="),
            ("upload", "toml=x"),
        ] {
            let (code, _) = s.call(
                "POST",
                &format!("/leagues/{league}/{path}"),
                Some(who),
                Some(("application/x-www-form-urlencoded", body)),
            );
            assert_eq!(code, 404, "{path} {body}");
        }
        let moves = format!("/leagues/{league}/moves?fixture=Horsham%201%20v%20Lewes%201");
        assert_eq!(s.call("GET", &moves, Some(who), None).0, 404);
    }
    for path in [
        format!("/leagues/{league}"),
        "/leagues/0123456789abcdef0123456789abcdef".into(),
    ] {
        let (code, page) = s.call("GET", &path, Some(&stranger), None);
        assert_eq!(code, 404);
        assert!(
            page.starts_with("<!DOCTYPE html>") && page.contains("Not found"),
            "{page}"
        );
    }
}

/// GTCL rule 8.4 on the league's page: a result may name the team that forfeited, and once a
/// team has forfeited as many matches as the league's settings say, the page offers to exclude
/// it (a withdrawal, previewed like any other).
#[test]
fn two_forfeits_offer_to_exclude_the_team_on_the_league_page() {
    let db = Db::new(BACKENDS[0]);
    let s = Server::start(&db, &["--workers", "1", "--today", "2027-03-27"]);
    let text = format!(
        "{}\n[penalties]\nforfeits_exclude = 2\n",
        include_str!("../instances/examples/four-teams-double.toml")
    );
    let (job, _, csv) = solved_and_published(&s, &text);
    let league = job["league_id"].as_str().unwrap().to_string();
    let path = format!("/api/leagues/{league}/season");
    let (_, page) = s.get(&format!("/leagues/{league}"));
    assert!(page.contains("The team that forfeited the match"), "{page}");
    let barton: Vec<(String, bool)> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f[2] == "Barton A" || f[3] == "Barton A")
        .map(|f| (format!("{} v {}", f[2], f[3]), f[2] == "Barton A"))
        .take(2)
        .collect();
    for (k, (fixture, home)) in barton.iter().enumerate() {
        let score = if *home { "0-4" } else { "4-0" };
        let result = serde_json::json!({ "action": "result", "fixture": fixture, "score": score,
            "forfeit": "Barton A" });
        let (code, r) = s.post_json(&path, result);
        assert_eq!(code, 200, "{r}");
        let (_, page) = s.get(&format!("/leagues/{league}"));
        assert_eq!(page.contains("<h3>Exclude Barton A</h3>"), k == 1, "{page}");
    }
}
