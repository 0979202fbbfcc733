//! `fixtures solve`: a fixture list, K drafts, or why there is none.

use super::{load, not_over_inputs, summary, write_or_print, CliError, SearchArgs};
use fixtures::pipeline::{self, Failure};
use std::path::{Path, PathBuf};

/// Build a valid fixture list for a league file and write it as CSV.
#[derive(clap::Args)]
pub struct Args {
    /// The league file (TOML, league-format v1).
    league: PathBuf,
    /// Write the fixture list here (default: standard output).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Stop after this many seconds.
    #[arg(long, default_value_t = 60.0)]
    time_limit: f64,
    #[command(flatten)]
    search: SearchArgs,
    /// Write K alternative drafts (DIR/draft-1.csv ...; -o names the folder), each with at
    /// least 30% of its fixtures on other dates than every earlier draft. The time limit
    /// is shared among them.
    #[arg(long, value_name = "K")]
    alternatives: Option<usize>,
    /// When the league has no valid schedule, also print why as JSON on standard output.
    #[arg(long)]
    explain_json: bool,
}

/// Runs `solve`.
pub fn run(a: Args) -> Result<(), CliError> {
    let opts = a.search.options(a.time_limit)?;
    match a.alternatives {
        Some(k) => drafts(&a, &opts, k),
        None => one(&a, &opts),
    }
}

fn one(a: &Args, opts: &fixtures::solve::Options) -> Result<(), CliError> {
    let league = load(&a.league)?;
    if let Some(out) = &a.output {
        not_over_inputs(out, &[&a.league])?;
    }
    let prefix = format!("{}: ", a.league.display());
    match pipeline::solve(&league, opts) {
        Ok(s) => {
            write_or_print(a.output.as_deref(), &s.checked)?;
            summary(&league, &s);
            Ok(())
        }
        Err(f) => {
            if a.explain_json {
                print_explanation(&league.name, &f);
            }
            Err(CliError::failure(&prefix, &f))
        }
    }
}

/// `--explain-json`: the reasons and relaxations on standard output.
fn print_explanation(league: &str, f: &Failure) {
    if let Failure::Infeasible {
        reasons,
        relaxations,
        proven,
    } = f
    {
        let v = serde_json::json!({
            "league": league,
            "status": "infeasible",
            "reasons": reasons,
            "relaxations": relaxations,
            "relaxations_proven_fewest": proven,
        });
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    }
}

fn drafts(a: &Args, opts: &fixtures::solve::Options, k: usize) -> Result<(), CliError> {
    let Some(dir) = a.output.as_deref() else {
        return Err(CliError::input(
            "error: --alternatives needs -o DIR, the folder for draft-1.csv ...",
        ));
    };
    if k == 0 {
        return Err(CliError::input("error: --alternatives must be at least 1"));
    }
    if dir.is_file() {
        return Err(CliError::input(format!(
            "error: {} is a file; --alternatives writes drafts into a folder",
            dir.display()
        )));
    }
    let league = load(&a.league)?;
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::input(format!("error: cannot create {}: {e}", dir.display())))?;
    let prefix = format!("{}: ", a.league.display());
    let found = pipeline::drafts(&league, opts, k).map_err(|f| CliError::failure(&prefix, &f))?;
    write_drafts(&league, dir, &found)?;
    match &found.stopped {
        None => Ok(()),
        Some(why) => {
            let written = found.drafts.len();
            let mut e = CliError::failure(&format!("draft-{}: ", written + 1), why);
            e.lines.push(format!("{written} of {k} drafts written"));
            Err(e)
        }
    }
}

fn write_drafts(
    league: &fixtures::model::League,
    dir: &Path,
    found: &pipeline::Drafts,
) -> Result<(), CliError> {
    for (i, d) in found.drafts.iter().enumerate() {
        let file = dir.join(format!("draft-{}.csv", i + 1));
        pipeline::save(&file, &d.checked)
            .map_err(|e| CliError::input(format!("error: cannot write {}: {e}", file.display())))?;
        eprintln!("{}:", file.display());
        summary(league, d);
    }
    for (i, j, share) in found.differences(league) {
        eprintln!(
            "draft-{} v draft-{}: {:.0}% of fixtures on different dates",
            i + 1,
            j + 1,
            share * 100.0
        );
    }
    Ok(())
}
