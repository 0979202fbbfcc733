//! `fixtures serve`: the HTTP service, its pages and (by default) its own workers.

use super::CliError;
use fixtures::serve::{self, Config};
use std::path::PathBuf;

/// Run the service: accounts, leagues, jobs solved by workers, published fixture lists. State is
/// kept in SQLite under --data (nothing to install), or in PostgreSQL with --db.
#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on (port 0: any free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    bind: String,
    /// Folder of the embedded database (DATA/fixtures.db), kept across restarts.
    #[arg(long, default_value = "fixtures-data")]
    data: PathBuf,
    /// A database instead of the embedded one: postgres://USER@HOST/DB (shared with
    /// `fixtures worker` machines) or sqlite://FILE.
    #[arg(long, value_name = "URL")]
    db: Option<String>,
    /// Workers in this process (default: the number of cores; 0 for an API-only node).
    #[arg(long)]
    workers: Option<usize>,
    /// Jobs waiting at most, over all accounts; beyond, requests get 429.
    #[arg(long, default_value_t = 16)]
    queue: i64,
    /// Jobs one account may have queued or running at once; beyond, 429.
    #[arg(long, default_value_t = 8)]
    per_account: i64,
    /// Days finished jobs and their drafts are kept (published lists are kept for good).
    #[arg(long, default_value_t = 30)]
    keep_days: i64,
    /// Seconds a worker's claim on a job lasts without renewal (a dead worker's job is taken
    /// up again after this).
    #[arg(long, default_value_t = 30)]
    lease: i64,
    /// Mark the session cookie Secure (when served behind HTTPS).
    #[arg(long)]
    secure_cookies: bool,
    /// Accounts only from `--create-user`: the login page offers no "create an account" form
    /// (for a service run for one league's committee).
    #[arg(long)]
    no_signup: bool,
    /// MiB of memory one solve may use: a job whose league would need more is refused when
    /// submitted, and a solve's process cannot allocate past it.
    #[arg(long, default_value_t = fixtures::serve::worker::DEFAULT_MEMORY_MIB)]
    worker_memory: u64,
    /// A reverse proxy or load balancer in front (repeatable): for its requests the client's
    /// address, which login limits count by, is the last one in X-Forwarded-For it did not add.
    #[arg(long = "trusted-proxy", value_name = "IP")]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// The date the service takes as today (what-ifs and tests); default: the real date (UTC).
    /// Fixtures before today are played or await their result and never move.
    #[arg(long, value_name = "DATE", value_parser = super::season::parse_day)]
    today: Option<chrono::NaiveDate>,
    /// Create an account with this name (password from FIXTURES_PASSWORD, else random), print
    /// its password and an API token, and exit.
    #[arg(long, value_name = "NAME")]
    create_user: Option<String>,
}

/// Runs `serve`.
pub fn run(a: Args) -> Result<(), CliError> {
    let cfg = Config {
        bind: a.bind,
        data: a.data,
        db: a.db,
        workers: a
            .workers
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get())),
        queue: a.queue.max(1),
        per_account: a.per_account.max(1),
        keep_days: a.keep_days.max(1),
        lease: a.lease.max(2),
        secure_cookies: a.secure_cookies,
        signup: !a.no_signup,
        worker_memory: a.worker_memory.max(1024),
        trusted_proxies: a.trusted_proxies,
        today: a.today,
    };
    let fail = |e: String| CliError::input(format!("error: {e}"));
    if let Some(name) = a.create_user {
        let password = std::env::var("FIXTURES_PASSWORD").ok();
        return serve::create_user(&cfg, &name, password.as_deref()).map_err(fail);
    }
    serve::serve(cfg).map_err(fail)
}
