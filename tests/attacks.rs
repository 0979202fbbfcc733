//! The attacks of a hostile client, kept as regression tests: each must be refused with a clear
//! message and must not take the service down or past its memory budget.

mod common;

use common::bombs;
use common::service::{Db, Server, BACKENDS};
use fixtures::import::read_workbook;
use std::time::{Duration, Instant};

fn refused(bytes: &[u8], file: &str) -> String {
    match read_workbook(bytes, file, "Teams") {
        Ok(_) => panic!("{file} was read"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_sheet_spanning_the_whole_grid_is_refused_by_its_span() {
    let bomb = bombs::dimension_bomb();
    assert!(bomb.len() < 16_000, "{} bytes", bomb.len());
    let e = refused(&bomb, "entries.xlsx");
    assert!(e.contains("sheet Teams spans A1:XFD1048576"), "{e}");
    assert!(e.contains("17,179,869,184 cells"), "{e}");
    assert!(e.contains("at most 100,000 are read"), "{e}");
}

#[test]
fn parts_that_unpack_past_the_budget_are_refused() {
    let e = refused(&bombs::shared_string_bomb(64 << 20), "entries.xlsx");
    assert!(
        e.contains("xl/sharedStrings.xml unpacks to more than 16 MiB"),
        "{e}"
    );
    let e = refused(&bombs::ods_text_bomb(64 << 20), "entries.ods");
    assert!(e.contains("content.xml unpacks to more than 16 MiB"), "{e}");
}

#[test]
fn an_ods_cell_repeated_over_the_grid_is_refused() {
    let e = refused(&bombs::ods_repeat_bomb(), "entries.ods");
    assert!(e.contains("sheet Teams spans A1:XFD1048576"), "{e}");
}

#[test]
fn a_plain_ods_file_still_reads() {
    let table = format!(
        "<table:table table:name=\"Teams\">{}{}<table:table-row table:number-rows-repeated=\"1048570\"><table:table-cell table:number-columns-repeated=\"1024\"/></table:table-row></table:table>",
        bombs::ods_row(&["Team", "Club", "Division"]),
        bombs::ods_row(&["Horsham 1", "Horsham", "Division 1"]),
    );
    let sheets = read_workbook(&bombs::ods(&table), "entries.ods", "Teams").unwrap();
    assert_eq!(sheets[0].name, "Teams");
    assert_eq!(sheets[0].rows.len(), 2, "{:?}", sheets[0].rows);
    assert_eq!(
        sheets[0].rows[1][0],
        fixtures::import::Cell::Text("Horsham 1".into())
    );
}

#[test]
fn xls_and_unknown_files_are_refused_with_what_to_do() {
    let e = refused(b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1 old excel", "entries.xls");
    assert!(e.contains("save it as XLSX"), "{e}");
    let too_many = "a,".repeat(60_000) + "\n" + &"b,".repeat(60_000);
    let e = refused(too_many.as_bytes(), "teams.csv");
    assert!(e.contains("more than 100000 cells"), "{e}");
}

/// Every upload attack against a running server: each answered 422, the server up after all
/// of them, its peak memory under 512 MiB.
#[test]
fn upload_bombs_leave_the_server_up_and_small() {
    use base64::Engine;
    let db = Db::new(BACKENDS[0]);
    let mut s = Server::start(&db, &["--workers", "0"]);
    let league = include_str!("../instances/sussex-2026-7.toml");
    let bombs: Vec<(&str, Vec<u8>)> = vec![
        ("entries.xlsx", bombs::dimension_bomb()),
        ("entries.xlsx", bombs::shared_string_bomb(1 << 30)),
        ("entries.ods", bombs::ods_text_bomb(1 << 30)),
        ("entries.ods", bombs::ods_repeat_bomb()),
    ];
    for (name, bytes) in &bombs {
        assert!(bytes.len() < 3 << 20, "{name}: {} bytes", bytes.len());
        let data = base64::engine::general_purpose::STANDARD.encode(bytes);
        let body = serde_json::json!({ "league": league, "name": name, "data": data });
        let (code, out) = s.post_json("/api/import", body);
        assert_eq!(code, 422, "{name}: {out}");
        assert!(
            out["messages"][0].as_str().unwrap().contains("at most"),
            "{out}"
        );
    }
    // Two at once, as the attack that aborted the server under an 8 GiB cap did.
    std::thread::scope(|scope| {
        for (name, bytes) in bombs.iter().skip(1).take(2) {
            let s = &s;
            scope.spawn(move || {
                let data = base64::engine::general_purpose::STANDARD.encode(bytes);
                let body = serde_json::json!({ "league": league, "name": name, "data": data });
                assert_eq!(s.post_json("/api/import", body).0, 422);
            });
        }
    });
    assert!(s.alive(), "the server died");
    assert_eq!(s.get("/").0, 200);
    let peak = s.peak_rss_mib();
    assert!(peak < 512, "peak RSS {peak} MiB");
}

/// Names a spreadsheet would run as a formula, or with a line break that would start a new
/// line of a calendar, are refused where the league file is read, with the field named; so no
/// fixture list, LMS file or calendar can carry them, and the spreadsheet import refuses them.
#[test]
fn formula_and_control_character_names_are_refused_at_load() {
    use common::Lg;
    for (bad, why) in [
        ("=HYPERLINK(\\\"http://x\\\")", "formula"),
        ("+SUM(A1)", "formula"),
        ("@cmd", "formula"),
        ("-2+3", "formula"),
        ("Lewes\\nBEGIN:VEVENT", "line break"),
        ("Lewes\\r1", "line break"),
    ] {
        let text = Lg::new("2026-09-01", "2027-04-30")
            .division("Division 1", "double")
            .club("Lewes", "")
            .club("Hove", "")
            .team(bad, "Lewes", "Division 1", "")
            .team("Hove 1", "Hove", "Division 1", "")
            .toml();
        let e = fixtures::model::parse_league(&text, "league.toml")
            .err()
            .unwrap_or_else(|| panic!("{bad} was accepted"))
            .to_string();
        assert!(e.contains("league.toml:") && e.contains("name"), "{e}");
        assert!(e.contains(why), "{bad}: {e}");
    }
    // Through the spreadsheet import too.
    let base = include_str!("../instances/sussex-2026-7.toml");
    let csv = "Team,Club,Division\n\"=HYPERLINK(\"\"http://x\"\")\",Horsham,Division 1\n";
    let sheets = read_workbook(csv.as_bytes(), "teams.csv", "Teams").unwrap();
    let errors = fixtures::import::import(base, &sheets).unwrap_err();
    let all: String = errors.iter().map(|e| e.to_string()).collect();
    assert!(all.contains("formula"), "{all}");
}

/// 141 teams in one double round robin over ten years, every night.
fn huge_league() -> common::Lg {
    let mut lg = common::Lg::new("2026-09-01", "2036-08-31").division("Division 1", "double");
    for i in 0..141 {
        lg = lg.club(&format!("Club {i}"), "").team(
            &format!("Team {i}"),
            &format!("Club {i}"),
            "Division 1",
            "",
        );
    }
    lg
}

/// 141 teams in one double round robin over ten years, every night: within the league file's
/// limits, but a solve would need gigabytes. The size model refuses it when it is submitted.
#[test]
fn a_job_too_large_for_a_worker_is_refused_when_submitted() {
    let lg = huge_league();
    let text = lg.toml();
    let league = fixtures::model::parse_league(&text, "league.toml").unwrap();
    let why = fixtures::pipeline::fits(&league, 4096).unwrap_err();
    assert_eq!((why.fixtures, why.memory_mib), (141 * 140, 4096), "{why}");
    assert!(why.to_string().contains("too large to solve here"), "{why}");
    assert!(fixtures::pipeline::fits(
        &common::Lg::new("2026-09-01", "2027-04-30")
            .division("D", "double")
            .club("A", "")
            .club("B", "")
            .team("A1", "A", "D", "")
            .team("B1", "B", "D", "")
            .league(),
        4096
    )
    .is_ok());
    let db = Db::new(BACKENDS[0]);
    let mut s = Server::start(&db, &["--workers", "1"]);
    let (code, body, _) = s.submit(&text, 30);
    assert_eq!(code, 422, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("too large"),
        "{body}"
    );
    assert!(s.alive());
}

/// The processes whose parent is `pid`.
fn children(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for task in std::fs::read_dir(format!("/proc/{pid}/task"))
        .unwrap()
        .flatten()
    {
        let text = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        out.extend(
            text.split_whitespace()
                .filter_map(|p| p.parse::<u32>().ok()),
        );
    }
    out
}

/// A solve that dies (as one that cannot allocate aborts) fails its job with the reason; the
/// server, whose worker it was, stays up and takes the next job.
#[test]
fn a_solve_that_dies_fails_its_job_not_the_server() {
    let db = Db::new(BACKENDS[0]);
    let mut s = Server::start(&db, &["--workers", "1"]);
    let league = include_str!("../instances/sussex-2026-7.toml");
    let (code, body, _) = s.submit(league, 60);
    assert_eq!(code, 202, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    s.wait_running(&id);
    let end = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let solve = loop {
        if let Some(&c) = children(s.pid()).first() {
            break c;
        }
        assert!(std::time::Instant::now() < end, "no solve process");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    common::service::signal_process(solve, "KILL");
    let v = s.wait(&id, std::time::Duration::from_secs(30));
    assert_eq!(v["state"], "failed", "{v}");
    assert!(v.to_string().contains("stopped without a result"), "{v}");
    assert!(s.alive());
    let (code, body, _) = s.submit(league, 1);
    assert_eq!(code, 202, "{body}");
    let v = s.wait(
        body["id"].as_str().unwrap(),
        std::time::Duration::from_secs(60),
    );
    assert_eq!(v["state"], "done", "{v}");
}

fn tiny_league() -> String {
    common::Lg::new("2026-09-01", "2027-04-30")
        .division("D", "double")
        .club("A", "")
        .club("B", "")
        .team("A1", "A", "D", "")
        .team("B1", "B", "D", "")
        .toml()
}

/// Posts the tiny league as each token at once (`per` times each): how many were accepted,
/// and that every other answer was 429.
fn post_at_once(s: &Server, tokens: &[String], per: usize) -> usize {
    let league = tiny_league();
    let codes: Vec<u16> = std::thread::scope(|scope| {
        let handles: Vec<_> = tokens
            .iter()
            .flat_map(|t| std::iter::repeat_n(t, per))
            .map(|t| {
                let (url, league) = (format!("{}/api/jobs?time_limit=1", s.base), &league);
                scope.spawn(move || {
                    match ureq::post(&url)
                        .set("Authorization", &format!("Bearer {t}"))
                        .send_string(league)
                    {
                        Ok(r) => r.status(),
                        Err(ureq::Error::Status(c, _)) => c,
                        Err(e) => panic!("{e}"),
                    }
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(codes.iter().all(|c| *c == 202 || *c == 429), "{codes:?}");
    codes.iter().filter(|c| **c == 202).count()
}

/// 50 concurrent posts by one account pass its cap of 8 not once; 50 accounts posting at once
/// pass the queue's cap of 16 not once; on both stores.
#[test]
fn queue_caps_hold_under_concurrent_posts() {
    for backend in BACKENDS {
        let db = Db::new(backend);
        let s = Server::start(&db, &["--workers", "0"]);
        assert_eq!(
            post_at_once(&s, std::slice::from_ref(&s.token), 50),
            8,
            "{backend:?}"
        );
        drop(s);
        let db = Db::new(backend);
        let tokens: Vec<String> = (0..50).map(|i| db.user(&format!("club{i}"))).collect();
        let s = Server::start_as(&db, &["--workers", "0"], tokens[0].clone());
        assert_eq!(post_at_once(&s, &tokens, 1), 16, "{backend:?}");
    }
}

/// POST /api/login as `name` with `password`, from `forwarded` (X-Forwarded-For): the status.
fn login(s: &Server, name: &str, password: &str, forwarded: Option<&str>) -> u16 {
    let mut req = ureq::post(&format!("{}/api/login", s.base));
    if let Some(f) = forwarded {
        req = req.set("X-Forwarded-For", f);
    }
    let body = serde_json::json!({ "name": name, "password": password }).to_string();
    match req
        .set("Content-Type", "application/json")
        .send_string(&body)
    {
        Ok(r) => r.status(),
        Err(ureq::Error::Status(c, _)) => c,
        Err(e) => panic!("{e}"),
    }
}

/// 150 concurrent wrong logins from one address: exactly 5 are checked (each an argon2 hash),
/// the rest refused before hashing; the owner, from another address behind the trusted proxy,
/// still logs in; a client not behind the proxy cannot dodge the limit with the header.
#[test]
fn login_limits_hold_under_concurrency_and_per_address() {
    let db = Db::new(BACKENDS[0]);
    let mut s = Server::start(&db, &["--workers", "0", "--trusted-proxy", "127.0.0.1"]);
    let codes: Vec<u16> = std::thread::scope(|scope| {
        let hs: Vec<_> = (0..150)
            .map(|_| scope.spawn(|| login(&s, "owner", "wrong", Some("192.0.2.7"))))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(codes.iter().filter(|c| **c == 401).count(), 5, "{codes:?}");
    assert_eq!(
        codes.iter().filter(|c| **c == 429).count(),
        145,
        "{codes:?}"
    );
    assert_eq!(login(&s, "owner", "secret-owner", Some("192.0.2.7")), 429);
    assert_eq!(
        login(&s, "owner", "secret-owner", Some("198.51.100.9")),
        200
    );
    // The same account name in another form is the same account to the limiter.
    assert_eq!(login(&s, "OWNER", "wrong", Some("192.0.2.7")), 429);
    assert!(s.alive());
    let peak = s.peak_rss_mib();
    assert!(peak < 512, "peak RSS {peak} MiB");
    drop(s);
    let db = Db::new(BACKENDS[0]);
    let s = Server::start(&db, &["--workers", "0"]);
    for i in 0..5 {
        assert_eq!(
            login(&s, "owner", "wrong", Some(&format!("192.0.2.{i}"))),
            401
        );
    }
    assert_eq!(
        login(&s, "owner", "wrong", Some("192.0.2.99")),
        429,
        "header ignored"
    );
}

/// The job's state and the worker holding it, read from the database itself.
fn job_holder(db: &Db, id: &str) -> (String, Option<String>) {
    use sqlx::{Connection, Row};
    sqlx::any::install_default_drivers();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut c = sqlx::AnyConnection::connect(&db.url()).await.unwrap();
        let row = sqlx::query("SELECT state, worker FROM jobs WHERE id = $1")
            .bind(id)
            .fetch_one(&mut c)
            .await
            .unwrap();
        (
            row.get::<String, _>("state"),
            row.get::<Option<String>, _>("worker"),
        )
    })
}

/// Waits until another worker than `gone` runs the job: how long that took.
fn taken_up_again(db: &Db, id: &str, gone: &str, within: Duration) -> Duration {
    let t = Instant::now();
    loop {
        let (state, worker) = job_holder(db, id);
        if state == "running" && worker.as_deref().is_some_and(|w| w != gone) {
            return t.elapsed();
        }
        assert!(
            t.elapsed() < within,
            "not taken up again within {within:?}: {state} {worker:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// SIGINT and SIGTERM stop a worker's solve and hand its job back at once: an idle worker runs
/// it within 2 s of the clean stop; after a SIGKILL, within the lease and 5 s. The job is
/// stored once.
#[test]
fn a_stopped_worker_hands_its_job_back_at_once() {
    use common::service::Worker;
    for backend in BACKENDS {
        for signal in ["TERM", "INT", "KILL"] {
            let db = Db::new(backend);
            let s = Server::start(&db, &["--workers", "0"]);
            let lease = 4;
            let mut w1 = Worker::start(&db, lease);
            let (code, body, _) = s.submit(&tiny_league(), 20);
            assert_eq!(code, 202, "{body}");
            let id = body["id"].as_str().unwrap().to_string();
            s.wait_running(&id);
            let (_, first) = job_holder(&db, &id);
            let first = first.unwrap();
            let _w2 = Worker::start(&db, lease);
            std::thread::sleep(Duration::from_millis(500)); // the second worker is up and idle
            assert!(
                w1.stop_with(signal, Duration::from_secs(10)),
                "{signal}: still running"
            );
            let within = if signal == "KILL" {
                Duration::from_secs(lease as u64 + 5)
            } else {
                Duration::from_secs(2)
            };
            let took = taken_up_again(&db, &id, &first, within);
            eprintln!("{backend:?} SIG{signal}: running again after {took:?}");
            let v = s.wait(&id, Duration::from_secs(60));
            assert_eq!(v["state"], "done", "{v}");
            let expected = if signal == "KILL" { 2 } else { 1 };
            assert_eq!(
                v["attempts"], expected,
                "a clean stop is not an attempt: {v}"
            );
        }
    }
}

/// 3,000 connections that send half a request's headers and then nothing: the server serves
/// others meanwhile, and closes every one of them once its headers are 10 s late.
#[test]
fn slow_clients_are_cut_off() {
    use std::io::{Read, Write};
    use std::time::{Duration, Instant};
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        let mut l = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut l);
        l.rlim_cur = l.rlim_max;
        libc::setrlimit(libc::RLIMIT_NOFILE, &l);
    }
    let db = Db::new(BACKENDS[0]);
    let mut s = Server::start(&db, &["--workers", "0"]);
    let addr = s.base.trim_start_matches("http://").to_string();
    let mut slow = Vec::new();
    for _ in 0..3000 {
        let Ok(mut c) = std::net::TcpStream::connect(&addr) else {
            break;
        };
        let _ = c.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ");
        slow.push(c);
    }
    assert!(slow.len() >= 1000, "only {} connections opened", slow.len());
    let start = Instant::now();
    // Closed ones read as end of file; those over the cap were closed at once.
    let mut closed = 0;
    for c in &mut slow {
        c.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let mut buf = [0u8; 512];
        match c.read(&mut buf) {
            Ok(_) => closed += 1, // end of file, or a last answer before the close
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => closed += 1,
            Err(e) => panic!("a slow connection stayed open: {e}"),
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "still open after 30 s"
        );
    }
    assert_eq!(closed, slow.len());
    assert!(s.alive());
    assert_eq!(s.get("/").0, 200);
}

/// `method path` as `token` with an optional JSON body: status and JSON.
fn as_json(
    s: &Server,
    method: &str,
    path: &str,
    token: &str,
    body: Option<&str>,
) -> (u16, serde_json::Value) {
    let (code, text) = s.call(
        method,
        path,
        Some(token),
        body.map(|b| ("application/json", b)),
    );
    (
        code,
        serde_json::from_str(&text).unwrap_or(serde_json::Value::Null),
    )
}

/// A league of the owner's: its id.
fn new_league(s: &Server) -> String {
    let (code, text) = s.call(
        "POST",
        "/api/leagues",
        Some(&s.token),
        Some(("text/plain", &tiny_league())),
    );
    assert_eq!(code, 201, "{text}");
    serde_json::from_str::<serde_json::Value>(&text).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// An invitation works once, for the one who accepted it; a withdrawn one not at all; the
/// secretary sees them with their expiry and can remove a member, who then sees nothing.
#[test]
fn invitations_are_single_use_revocable_and_members_removable() {
    let db = Db::new(BACKENDS[0]);
    let s = Server::start(&db, &["--workers", "0"]);
    let (alice, mallory) = (db.user("alice"), db.user("mallory"));
    let id = new_league(&s);
    let (code, inv) = as_json(
        &s,
        "POST",
        &format!("/api/leagues/{id}/invitations"),
        &s.token,
        None,
    );
    assert_eq!(code, 201, "{inv}");
    let token = inv["token"].as_str().unwrap().to_string();
    assert!(inv["expires"].as_i64().unwrap() > 0);
    let accept =
        |t: &str, who: &str| as_json(&s, "POST", &format!("/api/invitations/{t}"), who, None).0;
    assert_eq!(accept(&token, &alice), 200);
    assert_eq!(accept(&token, &alice), 200, "the member may open it again");
    assert_eq!(accept(&token, &mallory), 404, "used up");
    assert_eq!(
        s.call("GET", &format!("/api/leagues/{id}"), Some(&mallory), None)
            .0,
        404
    );
    assert_eq!(
        s.call("GET", &format!("/api/leagues/{id}"), Some(&alice), None)
            .0,
        200
    );
    // A second invitation, withdrawn before use.
    let (_, inv2) = as_json(
        &s,
        "POST",
        &format!("/api/leagues/{id}/invitations"),
        &s.token,
        None,
    );
    let (code, list) = as_json(
        &s,
        "GET",
        &format!("/api/leagues/{id}/invitations"),
        &s.token,
        None,
    );
    assert_eq!(code, 200, "{list}");
    let invs = list["invitations"].as_array().unwrap();
    assert_eq!(invs.len(), 2);
    assert_eq!(invs.iter().filter(|i| i["used"] == true).count(), 1);
    let open = invs.iter().find(|i| i["used"] == false).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        !list.to_string().contains(&token),
        "the list shows no token"
    );
    assert_eq!(
        as_json(
            &s,
            "GET",
            &format!("/api/leagues/{id}/invitations"),
            &alice,
            None
        )
        .0,
        404,
        "members do not manage"
    );
    assert_eq!(
        s.call(
            "DELETE",
            &format!("/api/leagues/{id}/invitations/{open}"),
            Some(&s.token),
            None
        )
        .0,
        204
    );
    assert_eq!(
        accept(inv2["token"].as_str().unwrap(), &mallory),
        404,
        "withdrawn"
    );
    // The member removed.
    let alice_id = list["members"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(list["members"][0]["name"], "alice");
    assert_eq!(
        s.call(
            "DELETE",
            &format!("/api/leagues/{id}/members/{alice_id}"),
            Some(&alice),
            None
        )
        .0,
        404
    );
    assert_eq!(
        s.call(
            "DELETE",
            &format!("/api/leagues/{id}/members/{alice_id}"),
            Some(&s.token),
            None
        )
        .0,
        204
    );
    assert_eq!(
        s.call("GET", &format!("/api/leagues/{id}"), Some(&alice), None)
            .0,
        404
    );
}

/// An owner deletes a version, a league (its jobs' files leave the database file's bytes) and
/// the account; tokens can be listed and revoked; the data is 0600 in a 0700 folder.
#[test]
fn deletion_deletes_and_files_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let db = Db::new(BACKENDS[0]);
    let s = Server::start(&db, &["--workers", "1"]);
    let (code, body, _) = s.submit(&tiny_league(), 1);
    assert_eq!(code, 202, "{body}");
    let job = body["id"].as_str().unwrap().to_string();
    let league = body["league_id"].as_str().unwrap().to_string();
    assert_eq!(
        s.wait(&job, std::time::Duration::from_secs(60))["state"],
        "done"
    );
    let (_, csv) = s.call(
        "GET",
        &format!("/api/jobs/{job}/fixtures.csv"),
        Some(&s.token),
        None,
    );
    let marker = csv.lines().nth(1).unwrap().to_string();
    let dir = db.args()[1].clone();
    let file = std::path::Path::new(&dir).join("fixtures.db");
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&file), 0o600);
    assert_eq!(mode(std::path::Path::new(&dir)), 0o700);
    // A version that no publication uses can go; the league can go, with the job.
    let (code, v) = as_json(
        &s,
        "DELETE",
        &format!("/api/leagues/{league}/versions/1"),
        &s.token,
        None,
    );
    assert_eq!(code, 204, "{v}");
    assert_eq!(
        s.call(
            "DELETE",
            &format!("/api/leagues/{league}"),
            Some(&s.token),
            None
        )
        .0,
        204
    );
    assert_eq!(
        s.call("GET", &format!("/api/jobs/{job}"), Some(&s.token), None)
            .0,
        404
    );
    // Checkpoint the log into the file, then look for the list's bytes.
    let url = format!("sqlite://{}", file.display());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        use sqlx::Connection;
        let mut c = sqlx::SqliteConnection::connect(&url).await.unwrap();
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(&mut c)
            .await
            .unwrap();
    });
    let bytes = std::fs::read(&file).unwrap();
    let found = bytes.windows(marker.len()).any(|w| w == marker.as_bytes());
    assert!(
        !found,
        "the deleted job's list is still in fixtures.db: {marker}"
    );
    // Tokens: listed by id and expiry, revoked.
    let (code, t) = as_json(&s, "GET", "/api/tokens", &s.token, None);
    assert_eq!(code, 200, "{t}");
    let tokens = t["tokens"].as_array().unwrap();
    assert!(tokens[0]["expires"].as_i64().unwrap() > tokens[0]["created"].as_i64().unwrap());
    let other = db.user("other");
    let (_, t2) = as_json(&s, "GET", "/api/tokens", &other, None);
    let other_id = t2["tokens"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(
        s.call(
            "DELETE",
            &format!("/api/tokens/{other_id}"),
            Some(&s.token),
            None
        )
        .0,
        404,
        "not yours"
    );
    assert_eq!(
        s.call(
            "DELETE",
            &format!("/api/tokens/{other_id}"),
            Some(&other),
            None
        )
        .0,
        204
    );
    assert_eq!(
        s.call("GET", "/api/tokens", Some(&other), None).0,
        401,
        "a revoked token opens nothing: its caller is not logged in"
    );
    // The account, with its leagues.
    let id = new_league(&s);
    assert_eq!(
        s.call("DELETE", "/api/account", Some(&s.token), None).0,
        204
    );
    assert_eq!(
        s.call("GET", &format!("/api/leagues/{id}"), Some(&s.token), None)
            .0,
        404
    );
}

/// Unknown JSON fields are refused by name; every error answers JSON; a league too large to
/// solve creates nothing; account names that differ in case or Unicode form are one name.
#[test]
fn requests_are_strict_and_names_are_compared_as_read() {
    let db = Db::new(BACKENDS[0]);
    let s = Server::start(&db, &["--workers", "0"]);
    let body = serde_json::json!({ "league": tiny_league(), "time_limt": 5 }).to_string();
    let (code, v) = as_json(&s, "POST", "/api/jobs", &s.token, Some(&body));
    assert_eq!(code, 400, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("unknown field `time_limt`"),
        "{v}"
    );
    let (code, v) = as_json(
        &s,
        "POST",
        "/api/check",
        &s.token,
        Some("{\"league\": \"x\", \"fixtures\": \"\", \"extra\": 1}"),
    );
    assert_eq!(code, 422, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("extra"),
        "JSON, naming the field: {v}"
    );
    let (code, v) = as_json(&s, "POST", "/api/check", &s.token, Some("not json"));
    assert!((400..500).contains(&code), "{code}");
    assert!(v["error"].is_string(), "a JSON error: {v}");
    // Too large: refused, and no league made.
    let lg = huge_league();
    assert_eq!(s.submit(&lg.toml(), 30).0, 422);
    let (_, leagues) = as_json(&s, "GET", "/api/leagues", &s.token, None);
    assert_eq!(leagues.as_array().map_or(0, |a| a.len()), 0, "{leagues}");
    // Names.
    for taken in ["OWNER", "owner ", "ｏｗｎｅｒ"] {
        let out = std::process::Command::new(common::service::BIN)
            .arg("serve")
            .args(db.args())
            .args(["--create-user", taken])
            .env("FIXTURES_PASSWORD", "another-secret")
            .output()
            .unwrap();
        assert!(!out.status.success(), "{taken:?} became a second account");
    }
}

/// A running job deleted or cancelled stops solving within about a second.
#[test]
fn a_deleted_running_job_stops_at_once() {
    let db = Db::new(BACKENDS[0]);
    let s = Server::start(&db, &["--workers", "1"]);
    let league = include_str!("../instances/sussex-2026-7.toml");
    let (_, body, _) = s.submit(league, 60);
    let id = body["id"].as_str().unwrap().to_string();
    s.wait_running(&id);
    let end = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while children(s.pid()).is_empty() {
        assert!(std::time::Instant::now() < end, "no solve process");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(
        s.call("DELETE", &format!("/api/jobs/{id}"), Some(&s.token), None)
            .0,
        200
    );
    let t = std::time::Instant::now();
    while !children(s.pid()).is_empty() {
        assert!(
            t.elapsed() < std::time::Duration::from_secs(3),
            "still solving after 3 s"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}
