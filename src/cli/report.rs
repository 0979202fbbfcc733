//! `fixtures report`: a fixture list as a static site with calendars.

use super::{load_with_list, CliError};
use fixtures::{check, report};
use std::path::PathBuf;

/// Write a static HTML site of a fixture list (all fixtures, a page per division and per
/// club) and an iCalendar file per team (DIR/ics/TEAM.ics).
#[derive(clap::Args)]
pub struct Args {
    /// The league file (TOML, league-format v1).
    league: PathBuf,
    /// The fixture list (CSV).
    fixtures: PathBuf,
    /// The folder to write (created if missing).
    #[arg(short, long)]
    output: PathBuf,
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
    let files = report::site::site(&league, &list.to_neutral(&league));
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
