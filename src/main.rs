//! The `fixtures` command line: a thin layer over the library.

use clap::{Parser, Subcommand};
use fixtures::{check, model, report, solve};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit statuses, as the league-format spec says.
const EXIT_INVALID_INPUT: u8 = 1;
const EXIT_INFEASIBLE: u8 = 2;
const EXIT_TIMED_OUT: u8 = 3;
/// Not in the spec: the solver's result failed our own checker (a bug; please report it).
const EXIT_INTERNAL: u8 = 4;

#[derive(Parser)]
#[command(
    name = "fixtures",
    version,
    about = "Fixture-scheduling optimiser for amateur team leagues"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build a valid fixture list for a league file and write it as CSV.
    Solve {
        /// The league file (TOML, league-format v1).
        league: PathBuf,
        /// Write the fixture list here (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Stop after this many seconds.
        #[arg(long, default_value_t = 60.0)]
        time_limit: f64,
        /// Random seed of the first solver run; the same seed gives the same result.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Solver runs in parallel, each with its own seed (default: the number of cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Stop when the schedule is proven within this relative gap of the best possible.
        #[arg(long, default_value_t = 1e-4)]
        gap: f64,
    },
    /// Verify a fixture list against a league file and print its quality figures.
    Check {
        /// The league file (TOML, league-format v1).
        league: PathBuf,
        /// The fixture list (CSV: date,division,home,away,venue).
        fixtures: PathBuf,
        /// The lower bound `solve` reported (its `bound=`): prints the list's gap to it.
        #[arg(long)]
        bound: Option<f64>,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                EXIT_INVALID_INPUT
            } else {
                0
            };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli.command {
        Command::Solve {
            league,
            output,
            time_limit,
            seed,
            threads,
            gap,
        } => {
            let mut opts = solve::Options {
                time_limit,
                seed,
                gap,
                progress: true,
                ..solve::Options::default()
            };
            if let Some(t) = threads {
                opts.threads = t;
            }
            run_solve(&league, output.as_deref(), &opts)
        }
        Command::Check {
            league,
            fixtures,
            bound,
        } => run_check(&league, &fixtures, bound),
    }
}

fn load(path: &Path) -> Result<model::League, ExitCode> {
    model::read_league(path).map_err(|e| {
        eprintln!("{e}");
        ExitCode::from(EXIT_INVALID_INPUT)
    })
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

fn run_solve(path: &Path, output: Option<&Path>, opts: &solve::Options) -> ExitCode {
    if opts.time_limit.is_nan() || opts.time_limit <= 0.0 || opts.time_limit.is_infinite() {
        eprintln!("error: --time-limit must be a positive number of seconds");
        return ExitCode::from(EXIT_INVALID_INPUT);
    }
    if !(0.0..1.0).contains(&opts.gap) {
        eprintln!("error: --gap must be at least 0 and below 1");
        return ExitCode::from(EXIT_INVALID_INPUT);
    }
    let league = match load(path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    if let Some(out) = output {
        if same_file(out, path) {
            eprintln!(
                "error: refusing to write the fixture list over the league file {}",
                path.display()
            );
            return ExitCode::from(EXIT_INVALID_INPUT);
        }
    }
    let solved = match solve::solve(&league, opts) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(EXIT_INTERNAL);
        }
    };
    let Some(schedule) = &solved.schedule else {
        return match &solved.outcome {
            solve::Outcome::Infeasible(reasons) => {
                eprintln!("{}: no valid schedule exists:", path.display());
                for r in reasons {
                    eprintln!("  - {r}");
                }
                ExitCode::from(EXIT_INFEASIBLE)
            }
            _ => {
                eprintln!(
                    "{}: no valid schedule found within {} seconds (try a longer --time-limit)",
                    path.display(),
                    opts.time_limit
                );
                ExitCode::from(EXIT_TIMED_OUT)
            }
        };
    };
    let csv = report::csv_string(&league, schedule);
    // Never claim a schedule our independent checker refuses.
    let report = match check::parse_fixtures(&league, csv.as_bytes(), "solver output") {
        Ok(list) => check::check(&league, &list),
        Err(e) => {
            eprintln!("internal error: {e}");
            return ExitCode::from(EXIT_INTERNAL);
        }
    };
    if !report.is_valid() {
        eprintln!("internal error: the solver's schedule fails the independent check:");
        for v in &report.violations {
            eprintln!("  {v}");
        }
        return ExitCode::from(EXIT_INTERNAL);
    }
    match output {
        Some(out) => {
            if let Err(e) = report::write_atomically(out, &csv) {
                eprintln!("error: cannot write {}: {e}", out.display());
                return ExitCode::from(EXIT_INVALID_INPUT);
            }
        }
        None => print!("{csv}"),
    }
    let status = match &solved.outcome {
        solve::Outcome::Optimal => "optimal".to_string(),
        solve::Outcome::Feasible { gap } => format!("feasible, gap {:.2}%", gap * 100.0),
        _ => "feasible".to_string(),
    };
    eprintln!(
        "{}: {} fixtures, {status}; objective {}, bound {}; {:.1} s (first valid {:.1} s); {} runs; model {} columns, {} rows",
        league.name,
        schedule.matches.len(),
        fmt_opt(solved.objective),
        fmt_opt(solved.bound),
        solved.seconds,
        solved.first_valid_seconds.unwrap_or(solved.seconds),
        solved.runs,
        solved.columns,
        solved.rows,
    );
    let (status_key, gap) = match &solved.outcome {
        solve::Outcome::Feasible { gap } => ("feasible", *gap),
        _ => ("optimal", 0.0),
    };
    // One stable key=value line for scripts (scripts/bench reads it).
    eprintln!(
        "stats: fixtures={} status={} objective={} bound={} gap={:.4} seconds={:.2} first_valid={:.2} breaks={} avoid_hits={}",
        schedule.matches.len(),
        status_key,
        fmt_opt(solved.objective),
        fmt_opt(solved.bound),
        gap,
        solved.seconds,
        solved.first_valid_seconds.unwrap_or(solved.seconds),
        report.quality.breaks,
        report.quality.avoid_hits,
    );
    ExitCode::SUCCESS
}

fn fmt_opt(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{v:.2}"))
}

fn run_check(league_path: &Path, fixtures_path: &Path, bound: Option<f64>) -> ExitCode {
    let league = match load(league_path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let list = match check::read_fixtures(&league, fixtures_path) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(EXIT_INVALID_INPUT);
        }
    };
    let report = check::check(&league, &list);
    for v in &report.violations {
        println!("VIOLATION {v}");
    }
    println!(
        "{}: {}",
        fixtures_path.display(),
        if report.is_valid() {
            "valid".to_string()
        } else {
            format!("INVALID ({} violations)", report.violations.len())
        }
    );
    println!("{}", report.quality);
    if let Some(b) = bound {
        let objective = report.quality.objective;
        let gap = solve::relative_gap(objective, b.min(objective));
        println!("gap: {:.2}% to the bound {b:.2}", gap * 100.0);
    }
    if report.is_valid() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_INVALID_INPUT)
    }
}
