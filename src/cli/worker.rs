//! `fixtures worker`: workers on a shared database, on any number of machines.

use super::CliError;

/// Solve jobs from a shared database (the one `fixtures serve --db` uses): claim a queued job,
/// hold a lease while solving, store the checked result. Run it on as many machines as needed.
#[derive(clap::Args)]
pub struct Args {
    /// The database: postgres://USER@HOST/DB (or sqlite://FILE on one machine).
    #[arg(long, value_name = "URL")]
    db: String,
    /// Jobs solved at once (default: the number of cores).
    #[arg(long)]
    workers: Option<usize>,
    /// Seconds a claim lasts without renewal.
    #[arg(long, default_value_t = 30)]
    lease: i64,
    /// MiB of memory one solve may use.
    #[arg(long, default_value_t = fixtures::serve::worker::DEFAULT_MEMORY_MIB)]
    worker_memory: u64,
}

/// Runs `worker` until interrupted.
pub fn run(a: Args) -> Result<(), CliError> {
    let workers = a
        .workers
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    fixtures::serve::work(&a.db, workers, a.lease.max(2), a.worker_memory)
        .map_err(|e| CliError::input(format!("error: {e}")))
}

/// The solve of one job in a process of its own (started by a worker; not for people).
#[derive(clap::Args)]
pub struct SolveJobArgs {}

/// Runs `solve-job`.
pub fn solve_job(_: SolveJobArgs) -> Result<(), CliError> {
    fixtures::serve::worker::solve_job_stdio().map_err(|e| CliError::input(format!("error: {e}")))
}
