//! `fixtures report`: a fixture list as a static site with calendars.

use super::{load_with_list, readable_list, CliError};
use fixtures::{check, report};
use std::path::PathBuf;

/// Write a static HTML site of a fixture list (all fixtures, a page per division and per club,
/// a printable fixture card per club), the ECF LMS import file (DIR/lms.csv) and iCalendar files
/// per team, club and division (DIR/ics/). With --previous, the calendars know the lists
/// published before: moved fixtures raise their SEQUENCE, scratched ones are cancelled events.
#[derive(clap::Args)]
pub struct Args {
    /// The league file (TOML, league-format v1).
    league: PathBuf,
    /// The fixture list (CSV).
    fixtures: PathBuf,
    /// The folder to write (created if missing).
    #[arg(short, long)]
    output: PathBuf,
    /// A list published before this one (repeat, oldest first).
    #[arg(long)]
    previous: Vec<PathBuf>,
}

/// Runs `report`.
pub fn run(a: Args) -> Result<(), CliError> {
    let (league, list) = load_with_list(&a.league, &a.fixtures)?;
    let dir = &a.output;
    if dir.is_file() {
        return Err(CliError::input(format!(
            "error: {} is a file; -o names a folder",
            dir.display()
        )));
    }
    let checked = check::check(&league, &list);
    if !checked.is_valid() {
        eprintln!(
            "warning: {} is not valid for the league ({} violations; `fixtures check` lists them); the report shows it as it is",
            a.fixtures.display(),
            checked.violations.len()
        );
    }
    let mut history = Vec::new();
    for p in &a.previous {
        history.push(readable_list(&league, p)?);
    }
    let files = report::site::site_with_history(&league, &list.to_neutral(&league), &history);
    report::site::write_site(dir, &files).map_err(|e| {
        CliError::input(format!(
            "error: cannot write the report into {}: {e}",
            dir.display()
        ))
    })?;
    eprintln!(
        "{}: {} pages and {} calendars written",
        dir.display(),
        files.iter().filter(|f| f.0.ends_with(".html")).count(),
        files.iter().filter(|f| f.0.ends_with(".ics")).count()
    );
    Ok(())
}
