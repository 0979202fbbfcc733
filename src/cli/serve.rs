//! `fixtures serve`: the HTTP service and its web page.

use super::CliError;
use std::path::PathBuf;

/// Run the HTTP service and its web page: submit a league, watch it solve, download the
/// fixture list, the report and the calendars.
#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on (port 0: any free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    bind: String,
    /// Folder for jobs and results (kept across restarts).
    #[arg(long, default_value = "fixtures-data")]
    data: PathBuf,
    /// Jobs solved at once (default: the number of cores).
    #[arg(long)]
    workers: Option<usize>,
    /// Jobs waiting at most; beyond, requests get 429.
    #[arg(long, default_value_t = 16)]
    queue: usize,
}

/// Runs `serve` until interrupted.
pub fn run(a: Args) -> Result<(), CliError> {
    let workers = a
        .workers
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    fixtures::serve::serve(&a.bind, &a.data, workers, a.queue).map_err(|e| {
        CliError::input(format!(
            "error: cannot serve on {} with data in {}: {e}",
            a.bind,
            a.data.display()
        ))
    })
}
