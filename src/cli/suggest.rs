//! `fixtures suggest`: every date a fixture could move to, best first.

use super::CliError;
use chrono::Datelike;
use fixtures::season::suggest;

/// Every date a fixture could move to without breaking a rule (every other fixture kept),
/// ranked by the change in the league's objective, with what each date costs in words. Each
/// date is verified by the independent checker.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    at: super::CurrentFixture,
    /// The first date to consider (YYYY-MM-DD; default: the season's start).
    #[arg(long)]
    from: Option<String>,
    /// Today (YYYY-MM-DD): a fixture before it is played or awaits its result and does not
    /// move, and no date before it is offered. Without it nothing is taken as played.
    #[arg(long)]
    today: Option<String>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Runs `suggest`.
pub fn run(a: Args) -> Result<(), CliError> {
    let (league, list, index) = a.at.load()?;
    let mut from = match &a.from {
        Some(f) => super::reschedule::from_date(f)?,
        None => league.start,
    };
    if let Some(today) = super::not_played(&a.today, list.matches[index].date, &a.at.fixture)? {
        from = from.max(today);
    }
    let found = suggest::suggest(&league, &list, index, from);
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&found).unwrap_or_default()
        );
        return Ok(());
    }
    let m = list.matches[index];
    println!(
        "{} v {}, now on {}: {} other dates possible",
        league.teams[m.home].name,
        league.teams[m.away].name,
        m.date,
        found.len()
    );
    for s in &found {
        let costs = if s.costs.is_empty() {
            "no change for either team".to_string()
        } else {
            s.costs.join("; ")
        };
        println!("{} {} {:+9.2}  {costs}", s.date, s.date.weekday(), s.change);
    }
    Ok(())
}
