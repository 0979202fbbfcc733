//! `fixtures reschedule`: the mid-season rerun, its diff and per-club summary.

use super::{load, not_over_inputs, readable_list, summary, CliError, SearchArgs};
use fixtures::files::write_atomically;
use fixtures::model::{self, League};
use fixtures::pipeline;
use fixtures::season::reschedule::Status;
use std::path::{Path, PathBuf};

/// Re-run the draw mid-season: fixtures before --from stay as they are, a withdrawn team's
/// fixtures are scratched, and the rest move as little as the (edited) league file allows.
/// Writes NEW.csv, NEW.diff.csv (every fixture: unchanged, moved, scratched or new) and
/// NEW.changes.txt (per club, what changed).
#[derive(clap::Args)]
pub struct Args {
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
    #[command(flatten)]
    search: SearchArgs,
}

/// Adds `--unavailable TEAM=DATE` dates to the league.
fn add_unavailable(league: &mut League, items: &[String], path: &Path) -> Result<(), CliError> {
    for item in items {
        let Some((t, d)) = model::parse_team_date(league, item) else {
            return Err(CliError::input(format!(
                "error: --unavailable \"{item}\": expected TEAM=YYYY-MM-DD with a team of {}",
                path.display()
            )));
        };
        league.teams[t].unavailable.insert(d);
    }
    Ok(())
}

/// The teams `--withdraw` names.
pub(super) fn withdrawn(
    league: &League,
    names: &[String],
    path: &Path,
) -> Result<Vec<usize>, CliError> {
    names
        .iter()
        .map(|name| {
            league.team_by_name(name).ok_or_else(|| {
                CliError::input(format!(
                    "error: --withdraw: {} has no team \"{name}\"",
                    path.display()
                ))
            })
        })
        .collect()
}

/// `--from` as a date.
pub(super) fn from_date(from: &str) -> Result<chrono::NaiveDate, CliError> {
    model::parse_iso_date(from).ok_or_else(|| {
        CliError::input(format!(
            "error: --from: \"{from}\" is not a date (YYYY-MM-DD)"
        ))
    })
}

/// Runs `reschedule`.
pub fn run(a: Args) -> Result<(), CliError> {
    let opts = a.search.options(a.time_limit)?;
    let mut league = load(&a.league)?;
    add_unavailable(&mut league, &a.unavailable, &a.league)?;
    let from = from_date(&a.from)?;
    let gone = withdrawn(&league, &a.withdraw, &a.league)?;
    let stem = a.output.with_extension("");
    let diff_path = PathBuf::from(format!("{}.diff.csv", stem.display()));
    let changes_path = PathBuf::from(format!("{}.changes.txt", stem.display()));
    for out in [&a.output, &diff_path, &changes_path] {
        not_over_inputs(out, &[&a.league, &a.current])?;
    }
    let current = readable_list(&league, &a.current)?;
    let prefix = format!("{}: ", a.league.display());
    let r = pipeline::rerun(&league, &current, from, &gone, &opts)
        .map_err(|f| CliError::failure(&prefix, &f))?;
    let cannot = |p: &Path, e: std::io::Error| {
        CliError::input(format!("error: cannot write {}: {e}", p.display()))
    };
    pipeline::save(&a.output, &r.solution.checked).map_err(|e| cannot(&a.output, e))?;
    write_atomically(&diff_path, &r.diff_csv).map_err(|e| cannot(&diff_path, e))?;
    write_atomically(&changes_path, &r.summary).map_err(|e| cannot(&changes_path, e))?;
    summary(&league, &r.solution);
    let unchanged = r.count(Status::Unchanged);
    eprintln!(
        "reschedule: {} played fixtures kept; {} unchanged, {} moved, {} scratched, {} new; {} and {} written",
        r.played,
        unchanged - r.played.min(unchanged),
        r.count(Status::Moved),
        r.count(Status::Scratched),
        r.count(Status::New),
        diff_path.display(),
        changes_path.display()
    );
    eprint!("{}", r.summary);
    Ok(())
}
