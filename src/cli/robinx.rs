//! `fixtures robinx`: a RobinX (ITC2021) instance solved as a compact double round robin,
//! written as the competition's solution XML and scored by the independent checker first.

use super::{not_over_inputs, CliError};
use fixtures::check::robinx as checker;
use fixtures::model::robinx;
use fixtures::solve::compact;
use std::path::PathBuf;

/// Solve a RobinX (ITC2021) instance: every team plays in every slot, each pair meets once at
/// each venue, and the instance's constraints are kept (hard) or weighed (soft).
#[derive(clap::Args)]
pub struct Args {
    /// The instance (RobinX XML).
    instance: PathBuf,
    /// Write the solution here (RobinX solution XML; default: standard output).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Stop after this many seconds.
    #[arg(long, default_value_t = 120.0)]
    time_limit: f64,
    /// Random seed of the first search.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Searches in parallel, each with its own seed (default: the number of cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Stop each search after this many moves (for results that do not depend on the machine).
    #[arg(long, hide = true)]
    steps: Option<u64>,
}

/// Exit status when no solution without hard violations was found in the time.
const EXIT_TIMED_OUT: u8 = 3;

/// Runs `robinx`: the solution on the output; one summary line on standard error.
pub fn run(a: Args) -> Result<(), CliError> {
    if !(a.time_limit.is_finite() && a.time_limit > 0.0) {
        return Err(CliError::input(
            "error: --time-limit must be a positive number of seconds",
        ));
    }
    let threads = match a.threads {
        Some(0) => return Err(CliError::input("error: --threads must be at least 1")),
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    if let Some(out) = &a.output {
        not_over_inputs(out, &[&a.instance])?;
    }
    let at = |e: &dyn std::fmt::Display| {
        CliError::input(format!("error: {}: {e}", a.instance.display()))
    };
    let text = robinx::read_file(&a.instance).map_err(|e| at(&e))?;
    let inst = robinx::read_instance(&text).map_err(|e| at(&e))?;
    let settings = compact::Settings {
        time_limit: a.time_limit,
        steps: a.steps,
        seed: a.seed,
        threads,
    };
    let found = compact::solve(&inst, &settings).map_err(|e| at(&e))?;
    // Only what the checker confirms leaves: its count, not the search's, is printed.
    let score = checker::score(&inst, &found.games);
    if (score.hard, score.objective) != (found.hard, found.objective) {
        return Err(CliError {
            code: 4,
            lines: vec![format!(
                "error: internal: the search counted {} hard violations and objective {}, the checker {} and {}",
                found.hard, found.objective, score.hard, score.objective
            )],
        });
    }
    let xml = robinx::write_solution(&inst, &found.games, score.objective);
    match &a.output {
        Some(out) => fixtures::files::write_atomically(out, &xml)
            .map_err(|e| CliError::input(format!("error: cannot write {}: {e}", out.display())))?,
        None => print!("{xml}"),
    }
    let first = found
        .first_feasible
        .map_or("none".to_string(), |s| format!("{s:.2} s"));
    eprintln!(
        "{}: hard violations {}, objective {}; first feasible {first}; {} moves",
        a.instance.display(),
        score.hard,
        score.objective,
        found.steps
    );
    if score.hard == 0 {
        Ok(())
    } else {
        Err(CliError {
            code: EXIT_TIMED_OUT,
            lines: vec![format!(
                "{}: no solution without hard violations in {} s; the best found is written",
                a.instance.display(),
                a.time_limit
            )],
        })
    }
}
