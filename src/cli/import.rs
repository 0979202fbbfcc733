//! `fixtures template` and `fixtures import`: the team-entry spreadsheet.

use super::{load, not_over_inputs, CliError};
use fixtures::import;
use std::path::{Path, PathBuf};

/// Write the team-entry template: entries.xlsx (sheets Teams, Clubs, Venues) and the same
/// sheets as teams.csv, clubs.csv and venues.csv; filled from a league file when one is given.
#[derive(clap::Args)]
pub struct TemplateArgs {
    /// A league file to fill the template from (its teams, clubs and venues).
    league: Option<PathBuf>,
    /// The folder to write.
    #[arg(short, long)]
    output: PathBuf,
}

/// Read a team-entry workbook (XLSX, XLS, ODS) or CSV sheets into a league file: the base
/// league's teams (and clubs and venues, when given) replaced by the sheets'. Nothing is
/// written unless every cell reads; a bad cell is named by sheet, row and column.
#[derive(clap::Args)]
pub struct ImportArgs {
    /// The league file to start from (season, divisions, rules).
    base: PathBuf,
    /// The team entries: a workbook with a Teams sheet (and Clubs, Venues), or teams.csv.
    #[arg(long)]
    entries: PathBuf,
    /// The clubs sheet as CSV (with a CSV --entries).
    #[arg(long)]
    clubs: Option<PathBuf>,
    /// The venues sheet as CSV (with a CSV --entries).
    #[arg(long)]
    venues: Option<PathBuf>,
    /// The league file to write.
    #[arg(short, long)]
    output: PathBuf,
}

/// Runs `template`.
pub fn template(a: TemplateArgs) -> Result<(), CliError> {
    let league = match &a.league {
        Some(p) => Some(load(p)?),
        None => None,
    };
    let names = ["entries.xlsx", "teams.csv", "clubs.csv", "venues.csv"];
    if let Some(there) = names.iter().find(|n| a.output.join(n).exists()) {
        return Err(CliError::input(format!(
            "error: {} already holds {there}: give a new folder (a filled-in sheet is never overwritten)",
            a.output.display()
        )));
    }
    std::fs::create_dir_all(&a.output).map_err(|e| {
        CliError::input(format!("error: cannot create {}: {e}", a.output.display()))
    })?;
    let write = |name: &str, bytes: &[u8]| {
        let p = a.output.join(name);
        fixtures::files::write_atomically(&p, bytes)
            .map_err(|e| CliError::input(format!("error: cannot write {}: {e}", p.display())))
    };
    let xlsx = import::template_xlsx(league.as_ref())
        .map_err(|e| CliError::input(format!("error: {e}")))?;
    write("entries.xlsx", &xlsx)?;
    for (name, rows) in import::template(league.as_ref()) {
        write(
            &format!("{}.csv", name.to_lowercase()),
            import::sheet_csv(&rows).as_bytes(),
        )?;
    }
    eprintln!(
        "wrote entries.xlsx, teams.csv, clubs.csv and venues.csv in {}",
        a.output.display()
    );
    Ok(())
}

fn read(path: &Path, sheet: &str) -> Result<Vec<import::Sheet>, CliError> {
    let bytes = std::fs::read(path)
        .map_err(|e| CliError::input(format!("error: cannot read {}: {e}", path.display())))?;
    import::read_workbook(&bytes, &path.display().to_string(), sheet)
        .map_err(|e| CliError::input(format!("error: {}: {e}", path.display())))
}

/// Runs `import`.
pub fn run(a: ImportArgs) -> Result<(), CliError> {
    not_over_inputs(&a.output, &[&a.base, &a.entries])?;
    let base = std::fs::read_to_string(&a.base)
        .map_err(|e| CliError::input(format!("error: cannot read {}: {e}", a.base.display())))?;
    let mut sheets = read(&a.entries, "Teams")?;
    for (path, name) in [(&a.clubs, "Clubs"), (&a.venues, "Venues")] {
        if let Some(p) = path {
            sheets.extend(read(p, name)?);
        }
    }
    match import::import(&base, &sheets) {
        Ok(text) => {
            fixtures::files::write_atomically(&a.output, text.as_bytes()).map_err(|e| {
                CliError::input(format!("error: cannot write {}: {e}", a.output.display()))
            })?;
            eprintln!("wrote {}", a.output.display());
            Ok(())
        }
        Err(errors) => Err(CliError {
            code: super::EXIT_INVALID_INPUT,
            lines: errors
                .iter()
                .map(|e| format!("error: {}: {e}", a.entries.display()))
                .chain(std::iter::once("nothing written".to_string()))
                .collect(),
        }),
    }
}
