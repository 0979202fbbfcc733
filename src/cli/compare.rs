//! `fixtures compare`: fixture lists side by side.

use super::{load, CliError};
use fixtures::check;
use std::path::PathBuf;

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    Text,
    Csv,
    Json,
    Html,
}

/// Put fixture lists side by side: a column per list, a row per figure.
#[derive(clap::Args)]
pub struct Args {
    /// The league file (TOML, league-format v1).
    league: PathBuf,
    /// Two or more fixture lists (CSV).
    #[arg(required = true, num_args = 1..)]
    fixtures: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Runs `compare`.
pub fn run(a: Args) -> Result<(), CliError> {
    let league = load(&a.league)?;
    // Columns are headed by file name, or by the path where two names are the same.
    let names: Vec<String> = a
        .fixtures
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
    for (f, name) in a.fixtures.iter().zip(names) {
        let label = if distinct {
            name
        } else {
            f.display().to_string()
        };
        let list =
            check::read_fixtures(&league, f).map_err(|e| CliError::input(format!("error: {e}")))?;
        lists.push((label, list));
    }
    let c = fixtures::report::compare::compare(&league, &lists);
    let out = match a.format {
        Format::Text => c.to_text(),
        Format::Csv => c.to_csv(),
        Format::Json => c.to_json(),
        Format::Html => c.to_html(&format!("{}: fixture lists compared", league.name)),
    };
    print!("{out}");
    Ok(())
}
