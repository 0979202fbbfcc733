//! The command line: one module per subcommand, each a `run(args) -> Result<(), CliError>`.
//! Everything that makes or writes a fixture list goes through `fixtures::pipeline`.

mod batch;
mod change;
mod check;
mod compare;
mod competitions;
mod cup;
mod import;
mod playoff;
mod replay;
mod report;
mod reschedule;
mod robinx;
mod season;
mod season_show;
mod serve;
mod solve;
mod suggest;
mod worker;

use clap::{Parser, Subcommand};
use fixtures::{check as checker, model, pipeline};
use std::path::{Path, PathBuf};

/// Exit statuses, as the league-format spec says (3, timed out, and 4, an internal error such
/// as a list the checker refused or a bound above the objective, come from
/// `pipeline::Failure::exit_code`).
pub const EXIT_INVALID_INPUT: u8 = 1;
/// No valid schedule exists.
pub const EXIT_INFEASIBLE: u8 = 2;

/// Why a subcommand failed: its exit status and what to print on standard error.
#[derive(Debug)]
pub struct CliError {
    /// The exit status.
    pub code: u8,
    /// Lines for standard error.
    pub lines: Vec<String>,
}

impl CliError {
    /// Bad input (exit 1), with a message.
    pub fn input(message: impl Into<String>) -> CliError {
        CliError {
            code: EXIT_INVALID_INPUT,
            lines: vec![message.into()],
        }
    }

    /// A pipeline failure with its exit status, each line prefixed with `prefix`.
    pub fn failure(prefix: &str, f: &pipeline::Failure) -> CliError {
        let mut lines = f.lines();
        if let Some(first) = lines.first_mut() {
            *first = format!("{prefix}{first}");
        }
        CliError {
            code: f.exit_code(),
            lines,
        }
    }
}

#[derive(Parser)]
#[command(
    name = "fixtures",
    version,
    about = "Fixture-scheduling optimiser for amateur team leagues"
)]
/// The command line.
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Solve(solve::Args),
    Reschedule(reschedule::Args),
    Batch(batch::Args),
    Berger(competitions::BergerArgs),
    CupDraw(competitions::CupDrawArgs),
    Cup(cup::Args),
    Playoff(playoff::Args),
    Replay(replay::Args),
    Change(change::Args),
    Template(import::TemplateArgs),
    Import(import::ImportArgs),
    Scheveningen(competitions::ScheveningenArgs),
    Pair(competitions::PairArgs),
    Pools(competitions::PoolsArgs),
    Split(competitions::SplitArgs),
    Serve(serve::Args),
    Worker(worker::Args),
    #[command(hide = true)]
    SolveJob(worker::SolveJobArgs),
    Suggest(suggest::Args),
    Compare(compare::Args),
    Report(report::Args),
    Check(check::Args),
    Robinx(robinx::Args),
    Season(season::Args),
}

/// Runs the subcommand the command line names.
pub fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Solve(a) => solve::run(a),
        Command::Reschedule(a) => reschedule::run(a),
        Command::Batch(a) => batch::run(a),
        Command::Berger(a) => competitions::berger(a),
        Command::CupDraw(a) => competitions::cup_draw(a),
        Command::Cup(a) => cup::run(a),
        Command::Playoff(a) => playoff::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Change(a) => change::run(a),
        Command::Template(a) => import::template(a),
        Command::Import(a) => import::run(a),
        Command::Scheveningen(a) => competitions::scheveningen(a),
        Command::Pair(a) => competitions::pair(a),
        Command::Pools(a) => competitions::pools(a),
        Command::Split(a) => competitions::split(a),
        Command::Serve(a) => serve::run(a),
        Command::Worker(a) => worker::run(a),
        Command::SolveJob(a) => worker::solve_job(a),
        Command::Suggest(a) => suggest::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Report(a) => report::run(a),
        Command::Check(a) => check::run(a),
        Command::Robinx(a) => robinx::run(a),
        Command::Season(a) => season::run(a),
    }
}

/// The league file, or its errors (file, line, key) as a `CliError`.
fn load(path: &Path) -> Result<model::League, CliError> {
    model::read_league(path).map_err(|e| CliError {
        code: EXIT_INVALID_INPUT,
        lines: vec![e.to_string()],
    })
}

/// A league file and a fixture list read against it.
fn load_with_list(
    league_path: &Path,
    fixtures_path: &Path,
) -> Result<(model::League, checker::FixtureList), CliError> {
    let league = load(league_path)?;
    let list = checker::read_fixtures(&league, fixtures_path)
        .map_err(|e| CliError::input(format!("error: {e}")))?;
    Ok((league, list))
}

/// A fixture list every row of which reads (a current list for a rerun), as the neutral type.
fn readable_list(league: &model::League, path: &Path) -> Result<model::FixtureList, CliError> {
    let list =
        checker::read_fixtures(league, path).map_err(|e| CliError::input(format!("error: {e}")))?;
    if !list.unreadable.is_empty() {
        return Err(CliError {
            code: EXIT_INVALID_INPUT,
            lines: list
                .unreadable
                .iter()
                .map(|v| format!("error: {}: {v}", path.display()))
                .collect(),
        });
    }
    Ok(list.to_neutral(league))
}

/// A league file and the fixture list in force: what the season's commands start from.
#[derive(clap::Args)]
struct Current {
    /// The league file (TOML).
    league: PathBuf,
    /// The fixture list in force (CSV).
    #[arg(long)]
    current: PathBuf,
}

/// A league, the list in force and one fixture of it.
#[derive(clap::Args)]
struct CurrentFixture {
    #[command(flatten)]
    at: Current,
    /// The fixture, as "HOME v AWAY".
    #[arg(long)]
    fixture: String,
}

impl CurrentFixture {
    /// The league, the list and the index of the fixture in it.
    fn load(&self) -> Result<(model::League, model::FixtureList, usize), CliError> {
        let (league, list) = self.at.load()?;
        let index = fixtures::season::suggest::find_fixture(&league, &list, &self.fixture)
            .map_err(|e| CliError::input(format!("error: {}: {e}", self.at.current.display())))?;
        Ok((league, list, index))
    }
}

impl Current {
    /// The league and the list, every row of which must read.
    fn load(&self) -> Result<(model::League, model::FixtureList), CliError> {
        let league = load(&self.league)?;
        let list = readable_list(&league, &self.current)?;
        Ok((league, list))
    }
}

/// `--today` as a date, refusing a fixture dated before it (played, or awaiting its result).
fn not_played(
    today: &Option<String>,
    date: chrono::NaiveDate,
    fixture: &str,
) -> Result<Option<chrono::NaiveDate>, CliError> {
    let Some(text) = today else { return Ok(None) };
    let today = model::parse_iso_date(text.trim()).ok_or_else(|| {
        CliError::input(format!(
            "error: --today: \"{text}\" is not a date (YYYY-MM-DD)"
        ))
    })?;
    if date < today {
        return Err(CliError::input(format!(
            "error: {fixture} was on {date}, before today ({today}): it is played or awaits its result and does not move"
        )));
    }
    Ok(Some(today))
}

/// The search options every solving subcommand takes.
#[derive(clap::Args, Clone)]
struct SearchArgs {
    /// Random seed of the first search; the same seed gives the same result when the solve
    /// ends before its time limit.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Searches in parallel, each with its own seed (default: the number of cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Stop when the schedule is proven within this relative gap of the best possible.
    #[arg(long, default_value_t = 1e-4)]
    gap: f64,
}

impl SearchArgs {
    /// The solver's options with this time limit, printing progress; bad values refused.
    fn options(&self, time_limit: f64) -> Result<fixtures::solve::Options, CliError> {
        if !(time_limit.is_finite() && time_limit > 0.0) {
            return Err(CliError::input(
                "error: --time-limit must be a positive number of seconds",
            ));
        }
        if !(0.0..1.0).contains(&self.gap) {
            return Err(CliError::input(
                "error: --gap must be at least 0 and below 1",
            ));
        }
        let mut opts = fixtures::solve::Options {
            time_limit,
            seed: self.seed,
            gap: self.gap,
            progress: true,
            ..fixtures::solve::Options::default()
        };
        if let Some(t) = self.threads {
            if t == 0 {
                return Err(CliError::input("error: --threads must be at least 1"));
            }
            opts.threads = t;
        }
        Ok(opts)
    }
}

/// Writes a checked list to `output`, or prints it.
fn write_or_print(output: Option<&Path>, checked: &pipeline::Checked) -> Result<(), CliError> {
    match output {
        Some(out) => pipeline::save(out, checked)
            .map_err(|e| CliError::input(format!("error: cannot write {}: {e}", out.display()))),
        None => {
            print!("{}", checked.csv());
            Ok(())
        }
    }
}

/// Refuses to write `out` over one of `inputs`.
fn not_over_inputs(out: &Path, inputs: &[&Path]) -> Result<(), CliError> {
    if inputs.iter().any(|i| fixtures::files::same_file(out, i)) {
        return Err(CliError::input(format!(
            "error: refusing to write {} over an input",
            out.display()
        )));
    }
    Ok(())
}

fn fmt_opt(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{v:.2}"))
}

/// The summary line and the `stats:` line of a solution on standard error, and a line for
/// each division paired round by round (its matches are its format's, not the search's).
fn summary(league: &model::League, s: &pipeline::Solution) {
    let name = &league.name;
    for (d, div) in league.divisions.iter().enumerate() {
        let k = s
            .checked
            .list()
            .matches
            .iter()
            .filter(|m| m.division == d)
            .count();
        if div.format == model::Format::Paired && k > 0 {
            let how = if div.pools {
                "its preliminary pools' rounds (4NCL rule 6.3)"
            } else {
                "its first Swiss round"
            };
            eprintln!(
                "{}: {k} fixtures, {how}; paired by its format, not searched (the objective and bound below are the other divisions')",
                div.name
            );
        }
    }
    let solved = &s.solved;
    let report = s.checked.report();
    let fixtures = report.quality.fixtures;
    let first_valid = solved.first_valid_seconds.unwrap_or(solved.seconds);
    eprintln!(
        "{name}: {fixtures} fixtures, {}; objective {}, bound {}; {:.1} s (first valid {first_valid:.1} s); {} runs; model {} columns, {} rows",
        solved.outcome.describe(),
        fmt_opt(solved.objective),
        fmt_opt(solved.bound),
        solved.seconds,
        solved.runs,
        solved.columns,
        solved.rows,
    );
    let gap = match (solved.objective, solved.bound) {
        (Some(o), Some(b)) => format!("{:.4}", fixtures::solve::relative_gap(o, b)),
        _ => "inf".into(),
    };
    // One stable key=value line for scripts (scripts/bench reads it).
    eprintln!(
        "stats: fixtures={fixtures} status={} objective={} bound={} gap={gap} seconds={:.2} first_valid={first_valid:.2} breaks={} avoid_hits={}",
        solved.outcome.key(),
        fmt_opt(solved.objective),
        fmt_opt(solved.bound),
        solved.seconds,
        report.quality.breaks,
        report.quality.avoid_hits,
    );
}

/// The division called `name`, or the only one.
fn division_named(league: &model::League, name: Option<&str>) -> Result<usize, CliError> {
    let div = match name {
        Some(name) => league.divisions.iter().position(|d| d.name == name),
        None if league.divisions.len() == 1 => Some(0),
        None => None,
    };
    div.ok_or_else(|| {
        let names: Vec<&str> = league.divisions.iter().map(|d| d.name.as_str()).collect();
        CliError::input(format!(
            "error: name the division with --division (one of: {})",
            names.join(", ")
        ))
    })
}
