//! The service, run as the real binary on a random loopback port with a temporary data folder.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_fixtures");
const MID_DOWNS: &str = include_str!("../instances/examples/mid-downs.toml");

struct Server {
    child: Child,
    base: String,
}

impl Server {
    fn start(data: &std::path::Path, extra: &[&str]) -> Server {
        let mut child = Command::new(BIN)
            .args(["serve", "--bind", "127.0.0.1:0", "--data"])
            .arg(data)
            .args(extra)
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let mut lines = BufReader::new(stderr).lines();
        let line = lines.next().unwrap().unwrap();
        let base = line
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line: {line}"))
            .to_string();
        // Keep draining stderr so the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        Server { child, base }
    }

    fn get(&self, path: &str) -> (u16, String) {
        match ureq::get(&format!("{}{path}", self.base)).call() {
            Ok(r) => (r.status(), r.into_string().unwrap_or_default()),
            Err(ureq::Error::Status(code, r)) => (code, r.into_string().unwrap_or_default()),
            Err(e) => panic!("{e}"),
        }
    }

    fn submit(&self, league: &str, time_limit: u32) -> (u16, serde_json::Value, Option<String>) {
        let url = format!("{}/api/jobs?time_limit={time_limit}", self.base);
        let (code, resp) = match ureq::post(&url).send_string(league) {
            Ok(r) => (r.status(), r),
            Err(ureq::Error::Status(code, r)) => (code, r),
            Err(e) => panic!("{e}"),
        };
        let retry = resp.header("Retry-After").map(String::from);
        let body = serde_json::from_str(&resp.into_string().unwrap()).unwrap();
        (code, body, retry)
    }

    fn wait(&self, id: &str, timeout: Duration) -> serde_json::Value {
        let end = Instant::now() + timeout;
        loop {
            let (code, body) = self.get(&format!("/api/jobs/{id}"));
            assert_eq!(code, 200, "{body}");
            let v: serde_json::Value = serde_json::from_str(&body).unwrap();
            let state = v["state"].as_str().unwrap().to_string();
            if !["queued", "running"].contains(&state.as_str()) || Instant::now() > end {
                return v;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn submit_watch_and_fetch_everything() {
    let data = tempfile::tempdir().unwrap();
    let s = Server::start(data.path(), &["--workers", "1"]);
    let (code, job, _) = s.submit(MID_DOWNS, 3);
    assert_eq!(code, 202, "{job}");
    let id = job["id"].as_str().unwrap().to_string();
    let done = s.wait(&id, Duration::from_secs(60));
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(done["valid"], true);
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
    // Nothing outside the job's folder: traversal attempts are not found.
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
    // The OpenAPI document and the page.
    let (code, doc) = s.get("/api/openapi.json");
    assert_eq!(code, 200);
    let doc: serde_json::Value = serde_json::from_str(&doc).unwrap();
    assert!(doc["paths"]["/api/jobs"]["post"].is_object());
    let (code, page) = s.get("/");
    assert_eq!(code, 200);
    assert!(page.contains("<textarea id=\"league\""));
    assert!(
        !page.contains("http://") && !page.contains("https://"),
        "no external resources"
    );
    // Check a list through the API.
    let resp = ureq::post(&format!("{}/api/check", s.base))
        .set("Content-Type", "application/json")
        .send_string(&serde_json::json!({ "league": MID_DOWNS, "fixtures": csv }).to_string())
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&resp.into_string().unwrap()).unwrap();
    assert_eq!(v["valid"], true);
    // Deleting a finished job removes it.
    let r = ureq::delete(&format!("{}/api/jobs/{id}", s.base))
        .call()
        .unwrap();
    assert_eq!(r.status(), 204);
    assert_eq!(s.get(&format!("/api/jobs/{id}")).0, 404);
}

#[test]
fn a_full_queue_answers_429_with_retry_after() {
    let data = tempfile::tempdir().unwrap();
    let s = Server::start(data.path(), &["--workers", "1", "--queue", "1"]);
    let mut codes = Vec::new();
    let mut retry = None;
    for _ in 0..5 {
        let (code, _, r) = s.submit(MID_DOWNS, 4);
        codes.push(code);
        if code == 429 {
            retry = r;
        }
    }
    assert!(codes.contains(&202), "{codes:?}");
    assert!(codes.contains(&429), "{codes:?}");
    assert_eq!(retry.as_deref(), Some("10"));
    // Still answering.
    assert_eq!(s.get("/api/openapi.json").0, 200);
}

#[test]
fn a_restart_keeps_finished_results_and_fails_interrupted_jobs() {
    let data = tempfile::tempdir().unwrap();
    let (done_id, running_id) = {
        let s = Server::start(data.path(), &["--workers", "1"]);
        let (_, job, _) = s.submit(MID_DOWNS, 2);
        let done_id = job["id"].as_str().unwrap().to_string();
        assert_eq!(s.wait(&done_id, Duration::from_secs(60))["state"], "done");
        let (_, job, _) = s.submit(MID_DOWNS, 60);
        let running_id = job["id"].as_str().unwrap().to_string();
        // Wait until it runs, then stop the service hard (Drop kills it).
        let end = Instant::now() + Duration::from_secs(20);
        while s
            .get(&format!("/api/jobs/{running_id}"))
            .1
            .contains("queued")
            && Instant::now() < end
        {
            std::thread::sleep(Duration::from_millis(100));
        }
        (done_id, running_id)
    };
    let s = Server::start(data.path(), &["--workers", "1"]);
    let (code, csv) = s.get(&format!("/api/jobs/{done_id}/fixtures.csv"));
    assert_eq!(code, 200);
    assert!(csv.starts_with("date,division,home,away,venue"));
    let (_, body) = s.get(&format!("/api/jobs/{running_id}"));
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["state"], "failed", "{v}");
    assert!(v["messages"][0]
        .as_str()
        .unwrap()
        .contains("interrupted by a restart"));
}

/// The web page renders in headless Chromium; the screenshot is kept.
#[test]
fn the_page_renders_in_headless_chromium() {
    let data = tempfile::tempdir().unwrap();
    let s = Server::start(data.path(), &["--workers", "1"]);
    let png = common::screenshot(&format!("{}/", s.base), "serve-page.png");
    assert!(png.len() > 5_000, "{} bytes", png.len());
}

#[test]
fn json_jobs_reschedule_and_alternatives() {
    let data = tempfile::tempdir().unwrap();
    let s = Server::start(data.path(), &["--workers", "2"]);
    let post = |body: serde_json::Value| -> (u16, serde_json::Value) {
        let r = ureq::post(&format!("{}/api/jobs", s.base))
            .set("Content-Type", "application/json")
            .send_string(&body.to_string());
        let (code, resp) = match r {
            Ok(r) => (r.status(), r),
            Err(ureq::Error::Status(c, r)) => (c, r),
            Err(e) => panic!("{e}"),
        };
        (
            code,
            serde_json::from_str(&resp.into_string().unwrap()).unwrap(),
        )
    };
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

#[test]
fn cancelling_a_running_job_frees_its_worker() {
    let data = tempfile::tempdir().unwrap();
    let s = Server::start(data.path(), &["--workers", "1"]);
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
    let r = ureq::delete(&format!("{}/api/jobs/{long}", s.base))
        .call()
        .unwrap();
    assert_eq!(r.status(), 200);
    let v: serde_json::Value = serde_json::from_str(&r.into_string().unwrap()).unwrap();
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
    let data = tempfile::tempdir().unwrap();
    let s = Server::start(data.path(), &["--workers", "1"]);
    let r = ureq::post(&format!("{}/api/jobs", s.base))
        .set("Content-Type", "application/json")
        .send_string(
            &serde_json::json!({ "league": MID_DOWNS, "time_limit": 300, "alternatives": 3 })
                .to_string(),
        )
        .unwrap();
    let job: serde_json::Value = serde_json::from_str(&r.into_string().unwrap()).unwrap();
    let id = job["id"].as_str().unwrap().to_string();
    let end = Instant::now() + Duration::from_secs(20);
    while !s.get(&format!("/api/jobs/{id}")).1.contains("\"running\"") && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(20));
    }
    let r = ureq::delete(&format!("{}/api/jobs/{id}", s.base))
        .call()
        .unwrap();
    assert_eq!(r.status(), 200);
    // The worker stops within a few seconds; then nothing of the job is on disk to offer.
    let (_, job, _) = s.submit(MID_DOWNS, 2);
    let next = job["id"].as_str().unwrap().to_string();
    assert_eq!(s.wait(&next, Duration::from_secs(60))["state"], "done");
    let v: serde_json::Value = serde_json::from_str(&s.get(&format!("/api/jobs/{id}")).1).unwrap();
    assert_eq!(v["state"], "cancelled", "{v}");
    for file in ["fixtures.csv", "files/draft-1.csv", "report/"] {
        assert_eq!(s.get(&format!("/api/jobs/{id}/{file}")).0, 404, "{file}");
    }
    let left: Vec<String> = std::fs::read_dir(data.path().join("jobs").join(&id))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        left.iter()
            .all(|f| ["league.toml", "job.json", "status.json"].contains(&f.as_str())),
        "{left:?}"
    );
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

    let data = tempfile::tempdir().unwrap();
    let s = Server::start(data.path(), &["--workers", "1"]);
    let url = format!("{}/api/jobs?time_limit=30&seed=5", s.base);
    let r = ureq::post(&url).send_string(&league).unwrap();
    let job: serde_json::Value = serde_json::from_str(&r.into_string().unwrap()).unwrap();
    let id = job["id"].as_str().unwrap().to_string();
    assert_eq!(s.wait(&id, Duration::from_secs(60))["state"], "done");
    let (code, from_service) = s.get(&format!("/api/jobs/{id}/fixtures.csv"));
    assert_eq!(code, 200);

    assert_eq!(cli, from_batch, "CLI and batch differ");
    assert_eq!(cli, from_service.as_bytes(), "CLI and service differ");
}
