//! `fixtures replay`: dates to replay a match after a serious default (Sussex rule 6.2.2).

use super::{not_over_inputs, CliError};
use chrono::Datelike;
use fixtures::model::{Extra, ExtraKind};
use fixtures::season::playoff;
use std::path::PathBuf;

/// The dates convenient to the team defaulted against on which a match can be replayed (rule
/// 6.2.2): after the match, at its venue on the home team's nights, both teams available and
/// free. With -o writes the list with the replay on the first of them (or on --date).
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    at: super::CurrentFixture,
    /// The team defaulted against.
    #[arg(long)]
    defaulted_against: String,
    /// The replay's date, one of those offered (default: the first).
    #[arg(long)]
    date: Option<String>,
    /// Write the fixture list with the replay.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Runs `replay`.
pub fn run(a: Args) -> Result<(), CliError> {
    let (league, list, index) = a.at.load()?;
    let m = list.matches[index];
    let against = league
        .team_by_name(a.defaulted_against.trim())
        .ok_or_else(|| {
            CliError::input(format!(
                "error: --defaulted-against names no team: \"{}\"",
                a.defaulted_against
            ))
        })?;
    let dates = playoff::replay_dates(&league, &list, &m, against)
        .map_err(|e| CliError::input(format!("error: {e}")))?;
    let name = |t: usize| league.teams[t].name.as_str();
    println!(
        "Replay of {} v {} (first on {}), convenient to {}: {} dates",
        name(m.home),
        name(m.away),
        m.date,
        name(against),
        dates.len()
    );
    let shown: Vec<String> = dates
        .iter()
        .map(|d| format!("{d} {}", d.weekday()))
        .collect();
    println!("  {}", shown.join(", "));
    let date = match &a.date {
        Some(d) => {
            let d = super::reschedule::from_date(d)?;
            if !dates.contains(&d) {
                return Err(CliError::input(format!(
                    "error: {d} is not one of the dates offered"
                )));
            }
            Some(d)
        }
        None => dates.first().copied(),
    };
    if let Some(out) = &a.output {
        not_over_inputs(out, &[&a.at.at.league, &a.at.at.current])?;
        let Some(date) = date else {
            return Err(CliError {
                code: super::EXIT_INFEASIBLE,
                lines: vec!["error: no date to replay the match".into()],
            });
        };
        let with = list.clone().with_extra([Extra {
            date,
            home: m.home,
            away: m.away,
            kind: ExtraKind::Replay(m.division),
        }]);
        super::cup::write(&league, with, out)?;
        eprintln!("wrote {} with the replay on {date}", out.display());
    }
    Ok(())
}
