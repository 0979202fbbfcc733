//! The `fixtures` command line: a thin layer over the library.

use clap::{Parser, Subcommand};
use fixtures::{check, model, report, reschedule, solve};
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
        /// Write K alternative drafts (DIR/draft-1.csv ...; -o names the folder), each with at
        /// least 30% of its fixtures on other dates than every earlier draft. The time limit
        /// is shared among them.
        #[arg(long, value_name = "K")]
        alternatives: Option<usize>,
        /// When the league has no valid schedule, also print why as JSON on standard output.
        #[arg(long)]
        explain_json: bool,
    },
    /// Re-run the draw mid-season: fixtures before --from stay as they are, a withdrawn team's
    /// fixtures are scratched, and the rest move as little as the (edited) league file allows.
    /// Writes NEW.csv, NEW.diff.csv (every fixture: unchanged, moved, scratched or new) and
    /// NEW.changes.txt (per club, what changed).
    Reschedule {
        /// The league file (TOML), with any edits: new unavailable dates, closed venues, ...
        league: PathBuf,
        /// The fixture list in force (CSV).
        #[arg(long)]
        current: PathBuf,
        /// The first date that may change (YYYY-MM-DD); earlier fixtures are history.
        #[arg(long)]
        from: String,
        /// A team that leaves the league (repeat for several).
        #[arg(long, value_name = "TEAM")]
        withdraw: Vec<String>,
        /// A new date a team cannot play, as TEAM=YYYY-MM-DD (repeat for several); the same as
        /// adding it to the team's `unavailable` in the league file.
        #[arg(long, value_name = "TEAM=DATE")]
        unavailable: Vec<String>,
        /// The new fixture list.
        #[arg(short, long)]
        output: PathBuf,
        /// Stop after this many seconds.
        #[arg(long, default_value_t = 20.0)]
        time_limit: f64,
        /// Random seed of the first solver run.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Solver runs in parallel (default: the number of cores).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Solve every scenario folder of DIR (league.toml, optional current.csv and scenario.toml)
    /// in parallel, each into its own result/ folder, then write DIR/summary.csv.
    Batch {
        dir: PathBuf,
        /// Solve scenarios again even when their result exists.
        #[arg(long)]
        force: bool,
        /// Scenarios solved at once (default: the number of cores).
        #[arg(long)]
        jobs: Option<usize>,
    },
    /// Print the FIDE Berger table for N players or teams (Handbook C.05, Annex 1).
    Berger {
        /// Players or teams (odd: the last number is the bye).
        n: usize,
    },
    /// Draw the knockout cup of a league (its `[cup]` table, else every team): a random grid
    /// with last year's finalists in opposite halves, byes to fill a power of two.
    CupDraw {
        league: PathBuf,
        /// The same seed gives the same draw.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Print the Scheveningen table of a cup match: each visitor meets each home player, the
    /// home team Black in odd rounds and White in even ones (GTCL rules 7.3, 7.5).
    Scheveningen {
        /// Players a side.
        #[arg(long, default_value_t = 4)]
        players: usize,
    },
    /// Pair one Swiss round of a division from the results so far (CSV: round, home, away,
    /// home_points, away_points; an empty away is a bye): by match points, then game points,
    /// no repeat pairings, first-named balanced, as a minimum-cost matching solved by HiGHS.
    Pair {
        league: PathBuf,
        /// The round to pair.
        #[arg(long)]
        round: u32,
        /// Results of the rounds before (omit for round 1).
        #[arg(long)]
        results: Option<PathBuf>,
        /// The Swiss division (needed when the league has several).
        #[arg(long)]
        division: Option<String>,
    },
    /// 4NCL: the two preliminary pools of a division, of broadly equal strength by the teams'
    /// `rating` (clubs apart), and their rounds 1-7 from the Berger table, as a fixture list
    /// (date, division, home, away, venue, round, pool).
    Pools {
        league: PathBuf,
        #[arg(long)]
        division: Option<String>,
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// 4NCL: after the preliminary rounds, the championship and relegation pools from the
    /// results (CSV as for `pair`), the results carried forward, and rounds 8-11.
    Split {
        league: PathBuf,
        #[arg(long)]
        division: Option<String>,
        #[arg(long)]
        results: PathBuf,
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Run the HTTP service and its web page: submit a league, watch it solve, download the
    /// fixture list, the report and the calendars.
    Serve {
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
    },
    /// Put fixture lists side by side: a column per list, a row per figure.
    Compare {
        /// The league file (TOML, league-format v1).
        league: PathBuf,
        /// Two or more fixture lists (CSV).
        #[arg(required = true, num_args = 1..)]
        fixtures: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = CompareFormat::Text)]
        format: CompareFormat,
    },
    /// Write a static HTML site of a fixture list (all fixtures, a page per division and per
    /// club) and an iCalendar file per team (DIR/ics/TEAM.ics).
    Report {
        /// The league file (TOML, league-format v1).
        league: PathBuf,
        /// The fixture list (CSV).
        fixtures: PathBuf,
        /// The folder to write (created if missing).
        #[arg(short, long)]
        output: PathBuf,
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

#[derive(Clone, Copy, clap::ValueEnum)]
enum CompareFormat {
    Text,
    Csv,
    Json,
    Html,
}

fn main() -> ExitCode {
    // `fixtures ... | head` must end quietly when the reader goes away, as other Unix tools do,
    // not panic on a broken pipe.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
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
            alternatives,
            explain_json,
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
            match alternatives {
                Some(k) => run_alternatives(&league, output.as_deref(), &opts, k),
                None => run_solve(&league, output.as_deref(), &opts, explain_json),
            }
        }
        Command::Compare {
            league,
            fixtures,
            format,
        } => run_compare(&league, &fixtures, format),
        Command::Reschedule {
            league,
            current,
            from,
            withdraw,
            unavailable,
            output,
            time_limit,
            seed,
            threads,
        } => {
            let mut opts = solve::Options {
                time_limit,
                seed,
                progress: true,
                ..solve::Options::default()
            };
            if let Some(t) = threads {
                opts.threads = t;
            }
            let changes = Changes {
                withdraw,
                unavailable,
            };
            run_reschedule(&league, &current, &from, &changes, &output, &opts)
        }
        Command::Batch { dir, force, jobs } => run_batch(&dir, force, jobs),
        Command::Berger { n } => {
            if !(2..=1000).contains(&n) {
                eprintln!("error: N must be from 2 to 1000");
                return ExitCode::from(EXIT_INVALID_INPUT);
            }
            print!("{}", fixtures::formats::berger::text(n));
            ExitCode::SUCCESS
        }
        Command::CupDraw { league, seed } => run_cup_draw(&league, seed),
        Command::Serve {
            bind,
            data,
            workers,
            queue,
        } => {
            let workers = workers
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
            match fixtures::serve::serve(&bind, &data, workers, queue) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!(
                        "error: cannot serve on {bind} with data in {}: {e}",
                        data.display()
                    );
                    ExitCode::from(EXIT_INVALID_INPUT)
                }
            }
        }
        Command::Pools {
            league,
            division,
            output,
        } => run_pools(&league, division.as_deref(), output.as_deref()),
        Command::Split {
            league,
            division,
            results,
            output,
        } => run_split(&league, division.as_deref(), &results, output.as_deref()),
        Command::Scheveningen { players } => {
            if !(1..=100).contains(&players) {
                eprintln!("error: --players must be from 1 to 100");
                return ExitCode::from(EXIT_INVALID_INPUT);
            }
            for (r, round) in fixtures::formats::cup::scheveningen(players)
                .iter()
                .enumerate()
            {
                let boards: Vec<String> = round
                    .iter()
                    .map(|&(h, v, white)| {
                        if white {
                            format!("H{h}-V{v}")
                        } else {
                            format!("V{v}-H{h}")
                        }
                    })
                    .collect();
                println!("Round {}: {}", r + 1, boards.join("  "));
            }
            println!("(White first; H = home player by board, V = visitor)");
            ExitCode::SUCCESS
        }
        Command::Pair {
            league,
            round,
            results,
            division,
        } => run_pair(&league, round, results.as_deref(), division.as_deref()),
        Command::Report {
            league,
            fixtures,
            output,
        } => run_report(&league, &fixtures, &output),
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

/// A league file and a fixture list read against it; else the exit status, the error printed.
fn load_with_list(
    league_path: &Path,
    fixtures_path: &Path,
) -> Result<(model::League, check::FixtureList), ExitCode> {
    let league = load(league_path)?;
    match check::read_fixtures(&league, fixtures_path) {
        Ok(list) => Ok((league, list)),
        Err(e) => {
            eprintln!("error: {e}");
            Err(ExitCode::from(EXIT_INVALID_INPUT))
        }
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

fn check_options(opts: &solve::Options) -> Result<(), ExitCode> {
    if opts.time_limit.is_nan() || opts.time_limit <= 0.0 || opts.time_limit.is_infinite() {
        eprintln!("error: --time-limit must be a positive number of seconds");
        return Err(ExitCode::from(EXIT_INVALID_INPUT));
    }
    if !(0.0..1.0).contains(&opts.gap) {
        eprintln!("error: --gap must be at least 0 and below 1");
        return Err(ExitCode::from(EXIT_INVALID_INPUT));
    }
    Ok(())
}

/// The solved schedule as CSV, accepted by the independent checker; else the exit status,
/// with the reason printed.
fn verified(
    league: &model::League,
    path: &Path,
    solved: &solve::Solved,
    opts: &solve::Options,
) -> Result<(String, check::Report), ExitCode> {
    let Some(schedule) = &solved.schedule else {
        return Err(match &solved.outcome {
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
        });
    };
    let csv = report::csv_string(league, schedule);
    // Never claim a schedule our independent checker refuses.
    let report = match check::parse_fixtures(league, csv.as_bytes(), "solver output") {
        Ok(list) => check::check(league, &list),
        Err(e) => {
            eprintln!("internal error: {e}");
            return Err(ExitCode::from(EXIT_INTERNAL));
        }
    };
    if !report.is_valid() {
        eprintln!("internal error: the solver's schedule fails the independent check:");
        for v in &report.violations {
            eprintln!("  {v}");
        }
        return Err(ExitCode::from(EXIT_INTERNAL));
    }
    Ok((csv, report))
}

fn run_solve(
    path: &Path,
    output: Option<&Path>,
    opts: &solve::Options,
    explain_json: bool,
) -> ExitCode {
    if let Err(code) = check_options(opts) {
        return code;
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
    if explain_json {
        if let solve::Outcome::Infeasible(reasons) = &solved.outcome {
            let v = serde_json::json!({
                "league": league.name,
                "status": "infeasible",
                "reasons": reasons,
                "relaxations": solved.relaxations,
            });
            println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
    }
    let (csv, report) = match verified(&league, path, &solved, opts) {
        Ok(v) => v,
        Err(code) => return code,
    };
    match output {
        Some(out) => {
            if let Err(e) = report::write_atomically(out, &csv) {
                eprintln!("error: cannot write {}: {e}", out.display());
                return ExitCode::from(EXIT_INVALID_INPUT);
            }
        }
        None => print!("{csv}"),
    }
    summary(&league.name, &solved, &report);
    ExitCode::SUCCESS
}

/// The summary line and the `stats:` line on standard error.
fn summary(name: &str, solved: &solve::Solved, report: &check::Report) {
    let status = match &solved.outcome {
        solve::Outcome::Optimal => "optimal".to_string(),
        solve::Outcome::Feasible { gap } => format!("feasible, gap {:.2}%", gap * 100.0),
        _ => "feasible".to_string(),
    };
    let fixtures = report.quality.fixtures;
    eprintln!(
        "{name}: {fixtures} fixtures, {status}; objective {}, bound {}; {:.1} s (first valid {:.1} s); {} runs; model {} columns, {} rows",
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
        "stats: fixtures={fixtures} status={status_key} objective={} bound={} gap={gap:.4} seconds={:.2} first_valid={:.2} breaks={} avoid_hits={}",
        fmt_opt(solved.objective),
        fmt_opt(solved.bound),
        solved.seconds,
        solved.first_valid_seconds.unwrap_or(solved.seconds),
        report.quality.breaks,
        report.quality.avoid_hits,
    );
}

fn run_alternatives(path: &Path, dir: Option<&Path>, opts: &solve::Options, k: usize) -> ExitCode {
    let Some(dir) = dir else {
        eprintln!("error: --alternatives needs -o DIR, the folder for draft-1.csv ...");
        return ExitCode::from(EXIT_INVALID_INPUT);
    };
    if k == 0 {
        eprintln!("error: --alternatives must be at least 1");
        return ExitCode::from(EXIT_INVALID_INPUT);
    }
    if dir.is_file() {
        eprintln!(
            "error: {} is a file; --alternatives writes drafts into a folder",
            dir.display()
        );
        return ExitCode::from(EXIT_INVALID_INPUT);
    }
    if let Err(code) = check_options(opts) {
        return code;
    }
    let league = match load(path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("error: cannot create {}: {e}", dir.display());
        return ExitCode::from(EXIT_INVALID_INPUT);
    }
    let drafts = match solve::alternatives(&league, opts, k) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(EXIT_INTERNAL);
        }
    };
    let mut dates: Vec<(String, Vec<chrono::NaiveDate>)> = Vec::new();
    for (i, solved) in drafts.iter().enumerate() {
        let name = format!("draft-{}", i + 1);
        let (csv, report) = match verified(&league, path, solved, opts) {
            Ok(v) => v,
            Err(code) => {
                eprintln!(
                    "{name}: no draft differs enough from the {} before it; {} of {k} written",
                    dates.len(),
                    dates.len()
                );
                return code;
            }
        };
        let file = dir.join(format!("{name}.csv"));
        if let Err(e) = report::write_atomically(&file, &csv) {
            eprintln!("error: cannot write {}: {e}", file.display());
            return ExitCode::from(EXIT_INVALID_INPUT);
        }
        eprintln!("{}:", file.display());
        summary(&league.name, solved, &report);
        if let Some(s) = &solved.schedule {
            dates.push((name, solve::fixture_dates(&league, s)));
        }
    }
    for (i, (a, da)) in dates.iter().enumerate() {
        for (b, db) in &dates[i + 1..] {
            eprintln!(
                "{a} v {b}: {:.0}% of fixtures on different dates",
                solve::date_difference(da, db) * 100.0
            );
        }
    }
    ExitCode::SUCCESS
}

/// Changes given on the command line rather than in the league file.
struct Changes {
    withdraw: Vec<String>,
    unavailable: Vec<String>,
}

fn run_reschedule(
    path: &Path,
    current_path: &Path,
    from: &str,
    changes: &Changes,
    output: &Path,
    opts: &solve::Options,
) -> ExitCode {
    if let Err(code) = check_options(opts) {
        return code;
    }
    let mut league = match load(path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    for item in &changes.unavailable {
        let parsed = item.rsplit_once('=').and_then(|(t, d)| {
            Some((
                league.team_by_name(t.trim())?,
                model::parse_iso_date(d.trim())?,
            ))
        });
        match parsed {
            Some((t, d)) => {
                league.teams[t].unavailable.insert(d);
            }
            None => {
                eprintln!(
                    "error: --unavailable \"{item}\": expected TEAM=YYYY-MM-DD with a team of {}",
                    path.display()
                );
                return ExitCode::from(EXIT_INVALID_INPUT);
            }
        }
    }
    let withdraw = &changes.withdraw;
    let Some(from) = model::parse_iso_date(from) else {
        eprintln!("error: --from: \"{from}\" is not a date (YYYY-MM-DD)");
        return ExitCode::from(EXIT_INVALID_INPUT);
    };
    let mut gone = Vec::new();
    for name in withdraw {
        match league.team_by_name(name) {
            Some(t) => gone.push(t),
            None => {
                eprintln!(
                    "error: --withdraw: {} has no team \"{name}\"",
                    path.display()
                );
                return ExitCode::from(EXIT_INVALID_INPUT);
            }
        }
    }
    let stem = output.with_extension("");
    let diff_path = PathBuf::from(format!("{}.diff.csv", stem.display()));
    let changes_path = PathBuf::from(format!("{}.changes.txt", stem.display()));
    for out in [output, &diff_path, &changes_path] {
        if same_file(out, path) || same_file(out, current_path) {
            eprintln!("error: refusing to write {} over an input", out.display());
            return ExitCode::from(EXIT_INVALID_INPUT);
        }
    }
    let current = match check::read_fixtures(&league, current_path) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(EXIT_INVALID_INPUT);
        }
    };
    if !current.unreadable.is_empty() {
        for v in &current.unreadable {
            eprintln!("error: {}: {v}", current_path.display());
        }
        return ExitCode::from(EXIT_INVALID_INPUT);
    }
    let plan = reschedule::plan(&league, &current.rows, from, &gone);
    let solved = match solve::solve(&plan.league, &plan.options(opts)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(EXIT_INTERNAL);
        }
    };
    let (csv, report) = match verified(&plan.league, path, &solved, opts) {
        Ok(v) => v,
        Err(code) => return code,
    };
    let Some(schedule) = &solved.schedule else {
        return ExitCode::from(EXIT_INTERNAL);
    };
    let changes = reschedule::diff(&league, &current.rows, schedule);
    let text = reschedule::club_summary(&league, &changes);
    for (file, body) in [
        (output, csv.as_str()),
        (&diff_path, reschedule::diff_csv(&league, &changes).as_str()),
        (&changes_path, text.as_str()),
    ] {
        if let Err(e) = report::write_atomically(file, body) {
            eprintln!("error: cannot write {}: {e}", file.display());
            return ExitCode::from(EXIT_INVALID_INPUT);
        }
    }
    summary(&league.name, &solved, &report);
    let count = |s: reschedule::Status| changes.iter().filter(|c| c.status == s).count();
    eprintln!(
        "reschedule: {} played fixtures kept; {} unchanged, {} moved, {} scratched, {} new; {} and {} written",
        plan.played,
        count(reschedule::Status::Unchanged) - plan.played.min(count(reschedule::Status::Unchanged)),
        count(reschedule::Status::Moved),
        count(reschedule::Status::Scratched),
        count(reschedule::Status::New),
        diff_path.display(),
        changes_path.display()
    );
    eprint!("{text}");
    ExitCode::SUCCESS
}

fn run_batch(dir: &Path, force: bool, jobs: Option<usize>) -> ExitCode {
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    match fixtures::batch::run(dir, force, jobs) {
        Ok(rows) => {
            for r in &rows {
                eprintln!(
                    "{}: {}{}",
                    r.scenario,
                    r.status,
                    if r.error.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", r.error)
                    }
                );
            }
            eprintln!(
                "{}: {} scenarios",
                dir.join("summary.csv").display(),
                rows.len()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}: {e}", dir.display());
            ExitCode::from(EXIT_INVALID_INPUT)
        }
    }
}

fn run_cup_draw(path: &Path, seed: u64) -> ExitCode {
    let league = match load(path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let (teams, finalists) = match &league.cup {
        Some(c) => (c.teams.clone(), c.finalists.clone()),
        None => ((0..league.teams.len()).collect(), Vec::new()),
    };
    if teams.len() < 2 {
        eprintln!("error: {}: a cup needs two teams or more", path.display());
        return ExitCode::from(EXIT_INVALID_INPUT);
    }
    let draw = fixtures::formats::cup::draw(&teams, &finalists, seed);
    let name = |t: usize| league.teams[t].name.as_str();
    println!(
        "{} cup, seed {seed}: {} teams, a grid of {}",
        league.name,
        teams.len(),
        draw.grid.len()
    );
    for (i, (a, b)) in draw.first_round().iter().enumerate() {
        let half = if 2 * i < draw.grid.len() / 2 {
            "top"
        } else {
            "bottom"
        };
        match b {
            Some(b) => println!("{:>3}. {} v {}   ({half} half)", i + 1, name(*a), name(*b)),
            None => println!("{:>3}. {} bye   ({half} half)", i + 1, name(*a)),
        }
    }
    ExitCode::SUCCESS
}

/// A results file (CSV: round, home, away, home_points, away_points; an empty away is a bye)
/// of `teams` (indices into it), rounds before `before`.
fn read_results(
    file: &Path,
    league: &model::League,
    teams: &[usize],
    before: u32,
) -> Result<(Vec<fixtures::formats::swiss::Played>, Vec<usize>), ExitCode> {
    let round = before;
    let local = |name: &str| {
        teams
            .iter()
            .position(|&t| league.teams[t].name == name.trim())
    };
    let mut played = Vec::new();
    let mut byes = Vec::new();
    {
        let mut reader = match csv::Reader::from_path(file) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: {}: {e}", file.display());
                return Err(ExitCode::from(EXIT_INVALID_INPUT));
            }
        };
        for (i, rec) in reader.records().enumerate() {
            let line = i + 2;
            let bad = |what: String| {
                eprintln!("error: {}:{line}: {what}", file.display());
                Err(ExitCode::from(EXIT_INVALID_INPUT))
            };
            let rec = match rec {
                Ok(r) => r,
                Err(e) => return bad(e.to_string()),
            };
            let field = |k: usize| rec.get(k).unwrap_or("").trim().to_string();
            let Ok(r) = field(0).parse::<u32>() else {
                return bad(format!("round \"{}\" is not a number", field(0)));
            };
            let Some(a) = local(&field(1)) else {
                return bad(format!("no team \"{}\" in the division", field(1)));
            };
            if field(2).is_empty() {
                byes.push(a);
                continue;
            }
            let Some(b) = local(&field(2)) else {
                return bad(format!("no team \"{}\" in the division", field(2)));
            };
            let (Ok(x), Ok(y)) = (field(3).parse::<f64>(), field(4).parse::<f64>()) else {
                return bad("the game points are not numbers".into());
            };
            if r >= round {
                return bad(format!("a result of round {r}, not before round {round}"));
            }
            played.push(fixtures::formats::swiss::Played {
                round: r,
                first: a,
                second: b,
                first_points: x,
                second_points: y,
            });
        }
    }
    Ok((played, byes))
}

/// The division called `name`, or the only one; else a message.
fn division_named(league: &model::League, name: Option<&str>) -> Option<usize> {
    let div = match name {
        Some(name) => league.divisions.iter().position(|d| d.name == name),
        None if league.divisions.len() == 1 => Some(0),
        None => None,
    };
    if div.is_none() {
        let names: Vec<&str> = league.divisions.iter().map(|d| d.name.as_str()).collect();
        eprintln!(
            "error: name the division with --division (one of: {})",
            names.join(", ")
        );
    }
    div
}

/// 4NCL rounds as a fixture list: date (the division's round date), division, home, away,
/// venue, then round and pool; `fixtures check` reads it like any other list.
fn ncl_csv(league: &model::League, div: usize, rows: &[(u32, usize, usize, &str)]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(["date", "division", "home", "away", "venue", "round", "pool"]);
    let rounds = league.divisions[div].rounds.clone().unwrap_or_default();
    for &(r, a, b, pool) in rows {
        let date = rounds
            .get(r as usize - 1)
            .map_or(String::new(), |d| d.to_string());
        let _ = w.write_record([
            date,
            league.divisions[div].name.clone(),
            league.teams[a].name.clone(),
            league.teams[b].name.clone(),
            league.venues[league.match_venue(a)].name.clone(),
            r.to_string(),
            pool.to_string(),
        ]);
    }
    String::from_utf8_lossy(&w.into_inner().unwrap_or_default()).into_owned()
}

/// The two preliminary pools of a 4NCL division (by team `rating`, clubs apart).
fn ncl_pools(league: &model::League, div: usize) -> (Vec<usize>, Vec<usize>) {
    let rating: Vec<f64> = league
        .teams
        .iter()
        .map(|t| t.rating.unwrap_or(0.0))
        .collect();
    let club: Vec<usize> = league.teams.iter().map(|t| t.club).collect();
    fixtures::formats::ncl::pools(&league.divisions[div].teams, &rating, &club)
}

fn write_or_print(output: Option<&Path>, text: &str) -> ExitCode {
    match output {
        Some(out) => match report::write_atomically(out, text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", out.display());
                ExitCode::from(EXIT_INVALID_INPUT)
            }
        },
        None => {
            print!("{text}");
            ExitCode::SUCCESS
        }
    }
}

/// Whether a division can be split into two 4NCL pools with enough round dates; else the
/// message printed and the exit status.
fn ncl_division(league: &model::League, div: usize) -> Result<(), ExitCode> {
    let n = league.divisions[div].teams.len();
    if n < 4 || !n.is_multiple_of(4) {
        eprintln!("error: two pools need a division of 8, 12, 16 ... teams; it has {n}");
        return Err(ExitCode::from(EXIT_INVALID_INPUT));
    }
    // Preliminary rounds: a round robin of a pool of n / 2; final rounds: n / 4.
    let needed = n / 2 - 1 + n / 4;
    let dates = league.divisions[div].rounds.as_ref().map_or(0, |r| r.len());
    if dates < needed {
        eprintln!(
            "error: division \"{}\" needs `rounds` with at least {needed} dates ({} preliminary rounds and {} final ones); it has {dates}",
            league.divisions[div].name,
            n / 2 - 1,
            n / 4
        );
        return Err(ExitCode::from(EXIT_INVALID_INPUT));
    }
    Ok(())
}

fn run_pools(path: &Path, division: Option<&str>, output: Option<&Path>) -> ExitCode {
    let league = match load(path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let Some(div) = division_named(&league, division) else {
        return ExitCode::from(EXIT_INVALID_INPUT);
    };
    if let Err(code) = ncl_division(&league, div) {
        return code;
    }
    let (a, b) = ncl_pools(&league, div);
    let names = |p: &[usize]| {
        p.iter()
            .map(|&t| league.teams[t].name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let strength = |p: &[usize]| {
        p.iter()
            .map(|&t| league.teams[t].rating.unwrap_or(0.0))
            .sum::<f64>()
            / p.len() as f64
    };
    eprintln!("pool A (mean rating {:.0}): {}", strength(&a), names(&a));
    eprintln!("pool B (mean rating {:.0}): {}", strength(&b), names(&b));
    let mut rows = Vec::new();
    for (pool, label) in [(&a, "A"), (&b, "B")] {
        for (r, x, y) in fixtures::formats::ncl::pool_rounds(pool, 1) {
            rows.push((r, x, y, label));
        }
    }
    rows.sort_by_key(|r| (r.0, r.3));
    write_or_print(output, &ncl_csv(&league, div, &rows))
}

fn run_split(
    path: &Path,
    division: Option<&str>,
    results: &Path,
    output: Option<&Path>,
) -> ExitCode {
    let league = match load(path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let Some(div) = division_named(&league, division) else {
        return ExitCode::from(EXIT_INVALID_INPUT);
    };
    if let Err(code) = ncl_division(&league, div) {
        return code;
    }
    let (a, b) = ncl_pools(&league, div);
    let prelim = (a.len() - 1) as u32;
    let all: Vec<usize> = (0..league.teams.len()).collect();
    let (played, _) = match read_results(results, &league, &all, prelim + 1) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let split = fixtures::formats::ncl::split(&a, &b, &played, league.teams.len(), prelim + 1);
    let names = |p: &[usize]| {
        p.iter()
            .map(|&t| league.teams[t].name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    eprintln!("championship pool: {}", names(&split.championship));
    eprintln!("relegation pool: {}", names(&split.relegation));
    eprintln!(
        "{} of {} preliminary results carried forward (those between teams of the same final pool)",
        split.carried.len(),
        played.len()
    );
    let rows: Vec<(u32, usize, usize, &str)> = split
        .rounds
        .iter()
        .map(|&(r, x, y)| {
            let pool = if split.championship.contains(&x) {
                "championship"
            } else {
                "relegation"
            };
            (r, x, y, pool)
        })
        .collect();
    write_or_print(output, &ncl_csv(&league, div, &rows))
}

fn run_pair(path: &Path, round: u32, results: Option<&Path>, division: Option<&str>) -> ExitCode {
    use fixtures::formats::swiss;
    let league = match load(path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let Some(div) = division_named(&league, division) else {
        return ExitCode::from(EXIT_INVALID_INPUT);
    };
    let teams = &league.divisions[div].teams;
    let (played, byes) = match results.map(|f| read_results(f, &league, teams, round)) {
        Some(Ok(r)) => r,
        Some(Err(code)) => return code,
        None => (Vec::new(), Vec::new()),
    };
    let standings = swiss::standings(teams.len(), &played, &byes);
    let pairing = match swiss::pair(&standings, &played) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: round {round}: {e}");
            return ExitCode::from(EXIT_INFEASIBLE);
        }
    };
    let name = |t: usize| league.teams[teams[t]].name.clone();
    let mut w = csv::Writer::from_writer(std::io::stdout());
    // A fixture list (on the division's round date, when it has one), so `check` reads it.
    let date = league.divisions[div]
        .rounds
        .as_ref()
        .and_then(|r| r.get((round as usize).checked_sub(1)?))
        .map_or(String::new(), |d| d.to_string());
    let _ = w.write_record([
        "date",
        "division",
        "home",
        "away",
        "venue",
        "round",
        "home_match_points",
        "away_match_points",
    ]);
    for &(a, b) in &pairing.pairs {
        let _ = w.write_record([
            date.clone(),
            league.divisions[div].name.clone(),
            name(a),
            name(b),
            league.venues[league.match_venue(teams[a])].name.clone(),
            round.to_string(),
            standings[a].match_points.to_string(),
            standings[b].match_points.to_string(),
        ]);
    }
    if let Some(t) = pairing.bye {
        eprintln!(
            "round {round}: {} has the bye (record it in the results as a row with an empty away)",
            name(t)
        );
    }
    let _ = w.flush();
    ExitCode::SUCCESS
}

fn run_compare(league_path: &Path, files: &[PathBuf], format: CompareFormat) -> ExitCode {
    let league = match load(league_path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    // Columns are headed by file name, or by the path where two names are the same.
    let names: Vec<String> = files
        .iter()
        .map(|f| {
            f.file_name()
                .map_or(f.display().to_string(), |n| n.to_string_lossy().into())
        })
        .collect();
    let distinct = names
        .iter()
        .collect::<std::collections::BTreeSet<_>>()
        .len()
        == names.len();
    let mut lists = Vec::new();
    for (f, name) in files.iter().zip(names) {
        let label = if distinct {
            name
        } else {
            f.display().to_string()
        };
        match check::read_fixtures(&league, f) {
            Ok(l) => lists.push((label, l)),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(EXIT_INVALID_INPUT);
            }
        }
    }
    let c = report::compare::compare(&league, &lists);
    let out = match format {
        CompareFormat::Text => c.to_text(),
        CompareFormat::Csv => c.to_csv(),
        CompareFormat::Json => c.to_json(),
        CompareFormat::Html => c.to_html(&format!("{}: fixture lists compared", league.name)),
    };
    print!("{out}");
    ExitCode::SUCCESS
}

fn run_report(league_path: &Path, fixtures_path: &Path, dir: &Path) -> ExitCode {
    let (league, list) = match load_with_list(league_path, fixtures_path) {
        Ok(v) => v,
        Err(code) => return code,
    };
    if dir.is_file() {
        eprintln!("error: {} is a file; -o names a folder", dir.display());
        return ExitCode::from(EXIT_INVALID_INPUT);
    }
    let report = check::check(&league, &list);
    if !report.is_valid() {
        eprintln!(
            "warning: {} is not valid for the league ({} violations; `fixtures check` lists them); the report shows it as it is",
            fixtures_path.display(),
            report.violations.len()
        );
    }
    let files = report::site::site(&league, &list.rows);
    if let Err(e) = report::site::write_site(dir, &files) {
        eprintln!("error: cannot write the report into {}: {e}", dir.display());
        return ExitCode::from(EXIT_INVALID_INPUT);
    }
    eprintln!(
        "{}: {} pages and {} calendars written",
        dir.display(),
        files.iter().filter(|f| f.0.ends_with(".html")).count(),
        files.iter().filter(|f| f.0.ends_with(".ics")).count()
    );
    ExitCode::SUCCESS
}

fn fmt_opt(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{v:.2}"))
}

fn run_check(league_path: &Path, fixtures_path: &Path, bound: Option<f64>) -> ExitCode {
    let (league, list) = match load_with_list(league_path, fixtures_path) {
        Ok(v) => v,
        Err(code) => return code,
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
