//! `fixtures check`: verify any fixture list, and a rerun's promises when given one.

use super::reschedule::{from_date, withdrawn};
use super::{load_with_list, readable_list, CliError, EXIT_INVALID_INPUT};
use fixtures::check;
use fixtures::model::Rerun;
use std::path::PathBuf;

/// Verify a fixture list against a league file and print its quality figures; or a RobinX
/// (ITC2021) solution against its instance, as the competition scores it.
#[derive(clap::Args)]
pub struct Args {
    /// The league file (TOML, league-format v1), or a RobinX instance (.xml).
    league: PathBuf,
    /// The fixture list (CSV: date,division,home,away,venue), or a RobinX solution (.xml).
    fixtures: PathBuf,
    /// The lower bound `solve` reported (its `bound=`): prints the list's gap to it.
    #[arg(long)]
    bound: Option<f64>,
    /// A rerun: the list it started from. With --from, the checker also verifies that every
    /// fixture of it before --from is kept exactly and nothing else is dated before --from.
    #[arg(long, requires = "from")]
    current: Option<PathBuf>,
    /// A rerun: the first date that could change (YYYY-MM-DD).
    #[arg(long, requires = "current")]
    from: Option<String>,
    /// A rerun: a team that withdrew (its fixtures are scratched; repeat for several).
    #[arg(long, value_name = "TEAM", requires = "current")]
    withdraw: Vec<String>,
}

/// Runs `check`: violations and figures on standard output; exit 1 when invalid.
pub fn run(a: Args) -> Result<(), CliError> {
    if a.league.extension().is_some_and(|e| e == "xml") {
        return robinx(&a.league, &a.fixtures);
    }
    let (league, list) = load_with_list(&a.league, &a.fixtures)?;
    let report = match (&a.current, &a.from) {
        (Some(current), Some(from)) => {
            let from = from_date(from)?;
            let gone = withdrawn(&league, &a.withdraw, &a.league)?;
            let current = readable_list(&league, current)?;
            // The rerun's league: played fixtures fixed, the withdrawn teams' left out.
            let plan = fixtures::season::reschedule::plan(&league, &current, from, &gone);
            check::check_rerun(&plan.league, &list, &plan.rerun)
        }
        _ => check::check_rerun(&league, &list, &Rerun::default()),
    };
    for v in &report.violations {
        println!("VIOLATION {v}");
    }
    let verdict = if report.is_valid() {
        "valid".to_string()
    } else {
        format!("INVALID ({} violations)", report.violations.len())
    };
    println!("{}: {verdict}", a.fixtures.display());
    println!("{}", report.quality);
    if let Some(b) = a.bound {
        gap_to_bound(report.quality.objective, b)?;
    }
    if report.is_valid() {
        Ok(())
    } else {
        Err(CliError {
            code: EXIT_INVALID_INPUT,
            lines: Vec::new(),
        })
    }
}

/// A RobinX solution checked against its instance: hard violations and the soft objective by
/// constraint type, as ITC2021 counts them; exit 1 when a hard constraint is violated.
fn robinx(instance: &std::path::Path, solution: &std::path::Path) -> Result<(), CliError> {
    use fixtures::check::robinx;
    let bad = |p: &std::path::Path, e: robinx::RobinxError| {
        CliError::input(format!("error: {}: {e}", p.display()))
    };
    let read = |p: &std::path::Path| robinx::read_file(p).map_err(|e| bad(p, e));
    let inst = robinx::read_instance(&read(instance)?).map_err(|e| bad(instance, e))?;
    let games = robinx::read_solution(&read(solution)?).map_err(|e| bad(solution, e))?;
    let s = robinx::score(&inst, &games);
    for (kind, hard, soft) in &s.by_type {
        println!("{kind}: hard violations {hard}, objective {soft}");
    }
    println!(
        "{}: {} hard violations, objective {}",
        solution.display(),
        s.hard,
        s.objective
    );
    if s.hard == 0 {
        Ok(())
    } else {
        Err(CliError {
            code: EXIT_INVALID_INPUT,
            lines: Vec::new(),
        })
    }
}

/// Prints the list's gap to a bound; a bound above the list's objective is a mismatch (no
/// valid list can cost less than a lower bound), never "gap 0.00%".
fn gap_to_bound(objective: f64, bound: f64) -> Result<(), CliError> {
    let tolerance = 1e-6 * objective.abs().max(1.0);
    if !bound.is_finite() || bound > objective + tolerance {
        println!(
            "gap: MISMATCH: the bound {bound:.2} is above this list's objective {objective:.2}; a lower bound cannot exceed a valid list's objective (a bound of another league or weights?)"
        );
        return Err(CliError::input(format!(
            "error: --bound {bound} is above the list's objective {objective:.2}"
        )));
    }
    let gap = fixtures::solve::relative_gap(objective, bound);
    println!("gap: {:.2}% to the bound {bound:.2}", gap * 100.0);
    Ok(())
}
