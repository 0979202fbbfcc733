//! `fixtures batch`: every scenario folder of DIR, in parallel, with a summary.

use super::CliError;
use std::path::PathBuf;

/// Solve every scenario folder of DIR (league.toml, optional current.csv and scenario.toml)
/// in parallel, each into its own result/ folder, then write DIR/summary.csv.
#[derive(clap::Args)]
pub struct Args {
    /// The folder of scenario folders.
    dir: PathBuf,
    /// Solve scenarios again even when their result exists.
    #[arg(long)]
    force: bool,
    /// Scenarios solved at once (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Submit the scenarios as jobs to this shared database (the one `fixtures serve --db` and
    /// `fixtures worker --db` use), so that a cluster of workers shares them; wait for them.
    #[arg(long, value_name = "URL")]
    db: Option<String>,
}

/// Runs `batch`.
pub fn run(a: Args) -> Result<(), CliError> {
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    let rows = match &a.db {
        Some(db) => fixtures::batch::run_on_store(&a.dir, db, a.force),
        None => fixtures::batch::run(&a.dir, a.force, jobs),
    }
    .map_err(|e| CliError::input(format!("error: {}: {e}", a.dir.display())))?;
    for r in &rows {
        let error = if r.error.is_empty() {
            String::new()
        } else {
            format!(" ({})", r.error)
        };
        eprintln!("{}: {}{error}", r.scenario, r.status);
    }
    eprintln!(
        "{}: {} scenarios",
        a.dir.join("summary.csv").display(),
        rows.len()
    );
    Ok(())
}
