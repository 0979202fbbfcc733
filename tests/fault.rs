//! Fault tests with real processes on loopback, bounded in time: two workers on one
//! PostgreSQL, 40 jobs from 8 clients, one worker killed with SIGKILL mid-solve and the API
//! server killed and restarted once. Every job ends done, every result passes the independent
//! checker, none is lost, none completes twice, no answer is a 5xx.

mod common;

use common::service::{Backend, Db, Server, Worker};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const MID_DOWNS: &str = include_str!("../instances/examples/mid-downs.toml");

/// A request that rides out the server's restart: connection errors are retried for up to a
/// minute; every HTTP answer is returned (and 5xx counted by the caller).
fn call(
    base: &Mutex<String>,
    token: &str,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> (u16, String) {
    let end = Instant::now() + Duration::from_secs(60);
    loop {
        let url = format!("{}{path}", base.lock().unwrap());
        let req = ureq::request(method, &url)
            .set("Authorization", &format!("Bearer {token}"))
            .timeout(Duration::from_secs(20));
        let r = match body {
            Some(b) => req.set("Content-Type", "application/json").send_string(b),
            None => req.call(),
        };
        match r {
            Ok(r) => return (r.status(), r.into_string().unwrap_or_default()),
            Err(ureq::Error::Status(code, r)) => {
                return (code, r.into_string().unwrap_or_default())
            }
            Err(e) if Instant::now() < end => {
                let _ = e;
                std::thread::sleep(Duration::from_millis(200));
            }
            Err(e) => panic!("{method} {path}: {e}"),
        }
    }
}

#[test]
fn two_workers_a_killed_worker_and_a_restarted_server_lose_nothing() {
    let db = Db::new(Backend::Postgres);
    let mut server = Server::start(
        &db,
        &["--workers", "0", "--queue", "100", "--per-account", "100"],
    );
    let mut workers = vec![Worker::start(&db, 3), Worker::start(&db, 3)];
    let tokens: Vec<String> = (0..8).map(|i| db.user(&format!("client{i}"))).collect();
    let base = Arc::new(Mutex::new(server.base.clone()));
    let server_errors = Arc::new(AtomicUsize::new(0));
    let ids = Arc::new(Mutex::new(Vec::new()));
    // 8 clients submit 5 jobs each, at once.
    let clients: Vec<_> = tokens
        .iter()
        .cloned()
        .map(|token| {
            let (base, errors, ids) = (base.clone(), server_errors.clone(), ids.clone());
            std::thread::spawn(move || {
                for seed in 0..5 {
                    let body =
                        serde_json::json!({ "league": MID_DOWNS, "time_limit": 1, "seed": seed });
                    let (code, text) =
                        call(&base, &token, "POST", "/api/jobs", Some(&body.to_string()));
                    if code >= 500 {
                        errors.fetch_add(1, Ordering::SeqCst);
                    }
                    assert_eq!(code, 202, "{text}");
                    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
                    ids.lock()
                        .unwrap()
                        .push((token.clone(), v["id"].as_str().unwrap().to_string()));
                }
            })
        })
        .collect();
    for c in clients {
        c.join().unwrap();
    }
    assert_eq!(ids.lock().unwrap().len(), 40);
    // A worker dies mid-solve; a little later the API server is killed and started again.
    std::thread::sleep(Duration::from_millis(1500));
    workers[0].kill();
    std::thread::sleep(Duration::from_millis(1000));
    server.restart();
    *base.lock().unwrap() = server.base.clone();
    // Every job ends, polled by its own client.
    let end = Instant::now() + Duration::from_secs(240);
    let league = fixtures::model::parse_league(MID_DOWNS, "mid-downs.toml").unwrap();
    for (token, id) in ids.lock().unwrap().iter() {
        let state = loop {
            let (code, text) = call(&base, token, "GET", &format!("/api/jobs/{id}"), None);
            if code >= 500 {
                server_errors.fetch_add(1, Ordering::SeqCst);
            }
            assert_eq!(code, 200, "{text}");
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            let state = v["state"].as_str().unwrap().to_string();
            if !["queued", "running"].contains(&state.as_str()) {
                break state;
            }
            assert!(Instant::now() < end, "job {id} still {state}");
            std::thread::sleep(Duration::from_millis(300));
        };
        assert_eq!(state, "done", "job {id}");
        let (code, csv) = call(
            &base,
            token,
            "GET",
            &format!("/api/jobs/{id}/fixtures.csv"),
            None,
        );
        assert_eq!(code, 200);
        let list = fixtures::check::parse_fixtures(&league, csv.as_bytes(), "job.csv").unwrap();
        let report = fixtures::check::check(&league, &list);
        assert!(report.is_valid(), "job {id}: {:?}", report.violations);
    }
    assert_eq!(server_errors.load(Ordering::SeqCst), 0, "no 5xx");
    // In the database: each job completed exactly once; the killed worker's job was retried.
    let all: Vec<String> = ids
        .lock()
        .unwrap()
        .iter()
        .map(|(_, id)| id.clone())
        .collect();
    let (completions, retried) = tokio::runtime::Runtime::new().unwrap().block_on(async {
        let store = fixtures::store::Store::open(&db.url()).await.unwrap();
        let mut completions = Vec::new();
        let mut retried = 0;
        for id in &all {
            let job = store.job(id).await.unwrap().unwrap();
            completions.push(job.completions);
            if job.attempts > 1 {
                retried += 1;
            }
        }
        (completions, retried)
    });
    assert!(completions.iter().all(|&c| c == 1), "{completions:?}");
    assert!(retried >= 1, "the killed worker's job was taken up again");
    drop(workers);
}

/// `fixtures batch DIR --db URL`: the scenarios become jobs of the shared database, solved by
/// the workers of a cluster; results and summary land in DIR as with a local batch.
#[test]
fn batch_submits_its_scenarios_to_a_cluster_of_workers() {
    let db = Db::new(Backend::Postgres);
    // The schema exists once a server or worker has opened the database.
    let _workers = [Worker::start(&db, 3), Worker::start(&db, 3)];
    let dir = tempfile::tempdir().unwrap();
    for (name, league, scenario) in [
        ("a-plain", MID_DOWNS, "time_limit = 1\n"),
        ("b-broken", "name = 5\n", ""),
        ("c-seeded", MID_DOWNS, "time_limit = 1\nseed = 3\n"),
    ] {
        let p = dir.path().join(name);
        std::fs::create_dir_all(&p).unwrap();
        std::fs::write(p.join("league.toml"), league).unwrap();
        std::fs::write(p.join("scenario.toml"), scenario).unwrap();
    }
    let out = std::process::Command::new(common::service::BIN)
        .arg("batch")
        .arg(dir.path())
        .args(["--db", &db.url()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    let lines: Vec<&str> = summary.lines().collect();
    assert_eq!(lines.len(), 4, "{summary}");
    assert!(
        lines[1].starts_with("a-plain,feasible,true,12,"),
        "{summary}"
    );
    assert!(lines[2].starts_with("b-broken,error,"), "{summary}");
    assert!(
        lines[3].starts_with("c-seeded,feasible,true,12,"),
        "{summary}"
    );
    let league = fixtures::model::parse_league(MID_DOWNS, "mid-downs.toml").unwrap();
    for s in ["a-plain", "c-seeded"] {
        let csv = std::fs::read_to_string(dir.path().join(s).join("result/fixtures.csv")).unwrap();
        let list = fixtures::check::parse_fixtures(&league, csv.as_bytes(), "r.csv").unwrap();
        assert!(fixtures::check::check(&league, &list).is_valid(), "{s}");
    }
}

/// Cancel reaches a job on a worker of another process: the worker stops within a lease
/// renewal, stores nothing and takes the next job.
#[test]
fn cancel_reaches_a_job_on_another_machines_worker() {
    let db = Db::new(Backend::Postgres);
    let s = Server::start(&db, &["--workers", "0"]);
    let _worker = Worker::start(&db, 3);
    let (_, job, _) = s.submit(MID_DOWNS, 120);
    let long = job["id"].as_str().unwrap().to_string();
    s.wait_running(&long);
    let (code, _) = s.call("DELETE", &format!("/api/jobs/{long}"), Some(&s.token), None);
    assert_eq!(code, 200);
    let t = Instant::now();
    let (_, job, _) = s.submit(MID_DOWNS, 1);
    let next = job["id"].as_str().unwrap().to_string();
    assert_eq!(s.wait(&next, Duration::from_secs(60))["state"], "done");
    assert!(
        t.elapsed() < Duration::from_secs(30),
        "the worker was freed: {:?}",
        t.elapsed()
    );
    let v: serde_json::Value =
        serde_json::from_str(&s.get(&format!("/api/jobs/{long}")).1).unwrap();
    assert_eq!(v["state"], "cancelled");
    assert_eq!(s.get(&format!("/api/jobs/{long}/fixtures.csv")).0, 404);
}
