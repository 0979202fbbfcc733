//! The service as real processes on loopback: a database per test (SQLite in a temporary folder,
//! or a fresh PostgreSQL database), servers and workers started and killed at will.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_fixtures");

/// Which database a test runs on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Both, for the tests that must hold on each.
pub const BACKENDS: [Backend; 2] = [Backend::Sqlite, Backend::Postgres];

/// The PostgreSQL server the tests use: FIXTURES_TEST_POSTGRES, else DATABASE_URL, else the
/// local one. `scripts/test` sets FIXTURES_TEST_POSTGRES (starting a throwaway cluster where
/// none answers); a test that cannot reach it fails, never skips.
pub fn postgres_admin_url() -> String {
    std::env::var("FIXTURES_TEST_POSTGRES")
        .or_else(|_| std::env::var("DATABASE_URL"))
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into())
}

fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (url, String::new()),
    };
    let root = base.rsplit_once('/').map_or(base, |(r, _)| r);
    format!("{root}/{name}{query}")
}

fn admin(sql: &str) {
    use sqlx::Connection;
    let url = postgres_admin_url();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut c = sqlx::PgConnection::connect(&url).await.unwrap_or_else(|e| {
            panic!("PostgreSQL at {url} does not answer ({e}); run scripts/test, which starts one")
        });
        sqlx::query(sql).execute(&mut c).await.unwrap();
    });
}

/// A database for one test, removed after it.
pub struct Db {
    pub backend: Backend,
    dir: tempfile::TempDir,
    pg: Option<String>,
}

impl Db {
    pub fn new(backend: Backend) -> Db {
        let dir = tempfile::tempdir().unwrap();
        let pg = (backend == Backend::Postgres).then(|| {
            let name = format!("fx_test_{}", fixtures::store::new_id());
            admin(&format!("CREATE DATABASE {name}"));
            name
        });
        Db { backend, dir, pg }
    }

    /// The options that point a server or worker at this database.
    pub fn args(&self) -> Vec<String> {
        match &self.pg {
            Some(name) => vec!["--db".into(), with_database(&postgres_admin_url(), name)],
            None => vec!["--data".into(), self.dir.path().display().to_string()],
        }
    }

    /// The database's URL.
    pub fn url(&self) -> String {
        match &self.pg {
            Some(name) => with_database(&postgres_admin_url(), name),
            None => format!("sqlite://{}", self.dir.path().join("fixtures.db").display()),
        }
    }

    /// Creates an account (password "secret-NAME"); its API token.
    pub fn user(&self, name: &str) -> String {
        let out = Command::new(BIN)
            .arg("serve")
            .args(self.args())
            .args(["--create-user", name])
            .env("FIXTURES_PASSWORD", format!("secret-{name}"))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        text.lines()
            .find_map(|l| l.strip_prefix("token: "))
            .unwrap()
            .to_string()
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        if let Some(name) = &self.pg {
            let _ = std::panic::catch_unwind(|| {
                admin(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            });
        }
    }
}

/// A running `fixtures serve`.
pub struct Server {
    child: Child,
    pub base: String,
    pub token: String,
    args: Vec<String>,
}

fn spawn(args: &[String]) -> (Child, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut lines = BufReader::new(stderr).lines();
    let base = loop {
        let line = lines
            .next()
            .expect("the server printed its address")
            .unwrap();
        if let Some(b) = line.strip_prefix("listening on ") {
            break b.to_string();
        }
    };
    // Keep draining stderr so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    (child, base)
}

/// The date the test servers take as today (`serve --today`).
pub const TODAY: &str = "2026-09-01";

impl Server {
    /// A server on `db` with `extra` options, and the token of a new account "owner".
    pub fn start(db: &Db, extra: &[&str]) -> Server {
        let token = db.user("owner");
        Server::start_as(db, extra, token)
    }

    /// A server on `db` acting for the account of `token`.
    pub fn start_as(db: &Db, extra: &[&str], token: String) -> Server {
        let mut args = vec!["serve".to_string(), "--bind".into(), "127.0.0.1:0".into()];
        args.extend(db.args());
        args.extend(extra.iter().map(|s| s.to_string()));
        // Tests never depend on the real date: the seasons they publish start in the autumn
        // of 2026, and today is before them unless a test says otherwise.
        if !extra.contains(&"--today") {
            args.extend(["--today".to_string(), TODAY.to_string()]);
        }
        let (child, base) = spawn(&args);
        Server {
            child,
            base,
            token,
            args,
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the server's process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// The server's peak resident memory so far, in MiB (Linux: VmHWM).
    pub fn peak_rss_mib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map_or(0, |kb| kb / 1024)
    }

    /// Kills the server hard (SIGKILL) and starts it again on the same database.
    pub fn restart(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let mut args = self.args.clone();
        // The same address, so that clients find it again.
        if let Some(i) = args.iter().position(|a| a == "--bind") {
            args[i + 1] = self.base.trim_start_matches("http://").to_string();
        }
        let (child, base) = spawn(&args);
        self.child = child;
        self.base = base;
    }

    /// A request as `token` (None: no account): status and body.
    pub fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<(&str, &str)>,
    ) -> (u16, String) {
        let url = format!("{}{path}", self.base);
        let mut req = ureq::request(method, &url);
        if let Some(t) = token {
            req = req.set("Authorization", &format!("Bearer {t}"));
        }
        let r = match body {
            Some((kind, text)) => req.set("Content-Type", kind).send_string(text),
            None => req.call(),
        };
        match r {
            Ok(r) => (r.status(), r.into_string().unwrap_or_default()),
            Err(ureq::Error::Status(code, r)) => (code, r.into_string().unwrap_or_default()),
            Err(e) => panic!("{method} {path}: {e}"),
        }
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        self.call("GET", path, Some(&self.token), None)
    }

    pub fn post_json(&self, path: &str, body: serde_json::Value) -> (u16, serde_json::Value) {
        let (code, text) = self.call(
            "POST",
            path,
            Some(&self.token),
            Some(("application/json", &body.to_string())),
        );
        (
            code,
            serde_json::from_str(&text).unwrap_or(serde_json::Value::Null),
        )
    }

    pub fn submit(
        &self,
        league: &str,
        time_limit: u32,
    ) -> (u16, serde_json::Value, Option<String>) {
        let url = format!("{}/api/jobs?time_limit={time_limit}", self.base);
        let r = ureq::post(&url)
            .set("Authorization", &format!("Bearer {}", self.token))
            .send_string(league);
        let resp = match r {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{e}"),
        };
        let code = resp.status();
        let retry = resp.header("Retry-After").map(String::from);
        let body = serde_json::from_str(&resp.into_string().unwrap()).unwrap();
        (code, body, retry)
    }

    pub fn wait(&self, id: &str, timeout: Duration) -> serde_json::Value {
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

    /// Waits until the job is running (or has ended).
    pub fn wait_running(&self, id: &str) {
        let end = Instant::now() + Duration::from_secs(30);
        while self
            .get(&format!("/api/jobs/{id}"))
            .1
            .contains("\"queued\"")
            && Instant::now() < end
        {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A running `fixtures worker`.
pub struct Worker(pub Child);

impl Worker {
    /// Sends the worker a signal (`TERM`, `INT`) and waits for it to exit: whether it exited
    /// by itself within `within`.
    pub fn stop_with(&mut self, signal: &str, within: Duration) -> bool {
        signal_process(self.0.id(), signal);
        let end = Instant::now() + within;
        while Instant::now() < end {
            if let Ok(Some(_)) = self.0.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// Kills the worker with SIGKILL, mid-whatever.
    pub fn kill(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }

    pub fn start(db: &Db, lease: u32) -> Worker {
        let child = Command::new(BIN)
            .arg("worker")
            .args([
                "--db",
                &db.url(),
                "--workers",
                "1",
                "--lease",
                &lease.to_string(),
            ])
            .stderr(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        Worker(child)
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The CSRF token a logged-in page carries in its `<meta name="csrf">`.
pub fn csrf_of(page: &str) -> String {
    page.split("<meta name=\"csrf\" content=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("the page carries a CSRF token")
        .to_string()
}

/// Sends `pid` the signal named `signal` (TERM, INT, KILL).
pub fn signal_process(pid: u32, signal: &str) {
    let sig = match signal {
        "TERM" => libc::SIGTERM,
        "INT" => libc::SIGINT,
        "KILL" => libc::SIGKILL,
        other => panic!("no signal {other}"),
    };
    // SAFETY: kill only sends a signal to the process named.
    let done = unsafe { libc::kill(pid as libc::pid_t, sig) };
    assert_eq!(done, 0, "kill -{signal} {pid}");
}
