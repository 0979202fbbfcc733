//! `fixtures change`: a fixture moved by mutual agreement, judged by rule 2.6's windows and the
//! league's rules, and the new list with the fixture fixed on its new date.

use super::{not_over_inputs, CliError};
use fixtures::pipeline;
use fixtures::season::changes::{self, Window};
use std::path::PathBuf;

/// Says whether moving a fixture to a new date by an agreement concluded on a date is within
/// the league's change rules ([changes], Sussex rule 2.6), allowed only under exceptional
/// circumstances, or invalid (and why: which rule, which team). With -o writes the new list
/// with the fixture on its new date, as `fixtures check` verifies it with the fixture
/// `[[fixed]]` there; an exceptional change only with --exceptional. Exit 0 within (or
/// exceptional with --exceptional), 2 exceptional, 1 invalid.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    at: super::CurrentFixture,
    #[command(flatten)]
    agreement: Agreement,
    /// Today (YYYY-MM-DD): a fixture before it is played or awaits its result and does not
    /// move, and no fixture moves to a date before it.
    #[arg(long)]
    today: Option<String>,
    /// Write the new fixture list.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// A change the clubs agreed: the new date, the day they agreed it, and whether the committee
/// allows it as exceptional (rule 2.6). `change` and `season change` take it.
#[derive(clap::Args)]
pub(super) struct Agreement {
    /// The new date (YYYY-MM-DD).
    #[arg(long)]
    pub to: String,
    /// The date the clubs concluded the agreement (YYYY-MM-DD).
    #[arg(long)]
    pub agreed: String,
    /// The committee accepts the change as exceptional: write it even outside the windows.
    #[arg(long)]
    pub exceptional: bool,
}

/// Runs `change`.
pub fn run(a: Args) -> Result<(), CliError> {
    let (league, list, index) = a.at.load()?;
    let Some(rules) = &league.changes else {
        return Err(CliError::input(format!(
            "error: {}: the league file has no [changes] table (when fixtures may be moved by agreement, rule 2.6)",
            a.at.at.league.display()
        )));
    };
    let to = super::reschedule::from_date(&a.agreement.to)?;
    let agreed = super::reschedule::from_date(&a.agreement.agreed)?;
    let m = list.matches[index];
    if let Some(today) = super::not_played(&a.today, m.date, &a.at.fixture)? {
        if to < today {
            return Err(CliError::input(format!(
                "error: --to {to} is before today ({today})"
            )));
        }
    }
    let name = |t: usize| league.teams[t].name.as_str();
    let judged = changes::judge(&league, &list, index, to, agreed);
    let window = judged
        .window
        .unwrap_or_else(|| changes::classify(rules, m.date, to, agreed));
    let checked = judged.moved.ok().map(|moved| moved.checked);
    println!(
        "{} v {}: {} to {}, agreed {agreed}: {}",
        name(m.home),
        name(m.away),
        m.date,
        to,
        window.key()
    );
    println!("  {}", window.reason());
    if matches!(window, Window::Invalid(_)) {
        return Err(CliError {
            code: super::EXIT_INVALID_INPUT,
            lines: vec!["error: the change is invalid; nothing written".into()],
        });
    }
    println!(
        "  both clubs notify the Fixtures Secretary by {} (within {} days of agreeing)",
        changes::notify_by(rules, agreed),
        rules.notify_days
    );
    println!(
        "  for the league file:\n  [[fixed]]\n  home = \"{}\"\n  away = \"{}\"\n  date = {to}",
        name(m.home),
        name(m.away)
    );
    let exceptional = matches!(window, Window::Exceptional(_));
    if exceptional && !a.agreement.exceptional {
        return Err(CliError {
            code: super::EXIT_INFEASIBLE,
            lines: vec!["error: outside rule 2.6's windows; only the committee can allow it (--exceptional); nothing written".into()],
        });
    }
    if let (Some(out), Some(checked)) = (&a.output, checked) {
        not_over_inputs(out, &[&a.at.at.league, &a.at.at.current])?;
        pipeline::save(out, &checked)
            .map_err(|e| CliError::input(format!("error: cannot write {}: {e}", out.display())))?;
        eprintln!("wrote {}", out.display());
    }
    Ok(())
}
