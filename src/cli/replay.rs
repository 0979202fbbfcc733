//! `fixtures replay`: dates to replay a match after a serious default (Sussex rule 6.2.2).

use super::{not_over_inputs, CliError};
use chrono::Datelike;
use fixtures::model::{Extra, ExtraKind};
use fixtures::season::playoff;
use std::path::PathBuf;

/// The dates convenient to the team defaulted against on which a match can be replayed (rule
/// 6.2.2): after the match, at its venue on the home team's nights, both teams available and
/// free. With -o writes the list with the replay on the first of them, or on --date (the date
/// the Tournament Controller sets: any date `check` accepts). No date offered and no --date:
/// exit 2.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    at: super::CurrentFixture,
    /// The team defaulted against.
    #[arg(long)]
    defaulted_against: String,
    /// The replay's date the Tournament Controller or the Fixtures Secretary sets (default: the
    /// first offered).
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
    // Rule 6.2.2: without agreement the Tournament Controller (or, rule 2.1, the Fixtures
    // Secretary) sets the date; any date the league's rules allow, which `check` decides.
    let date = match &a.date {
        Some(d) => Some(super::reschedule::from_date(d)?),
        None => dates.first().copied(),
    };
    let Some(date) = date else {
        return Err(CliError {
            code: super::EXIT_INFEASIBLE,
            lines: vec![format!(
                "error: no date up to {} suits the team defaulted against and the rules; the Tournament Controller sets one (--date)",
                league.end
            )],
        });
    };
    let permitted = league
        .late
        .iter()
        .any(|f| (f.home, f.away, f.date) == (m.home, m.away, date));
    if date > league.end && !permitted {
        return Err(CliError {
            code: super::EXIT_INFEASIBLE,
            lines: vec![format!(
                "error: {date} is after the season's end ({}): a replay then needs the Fixtures Secretary's permission (rule 2.1); record it in the league file as [[late]] with home = \"{}\", away = \"{}\", date = {date}",
                league.end,
                name(m.home),
                name(m.away)
            )],
        });
    }
    if let Some(out) = &a.output {
        not_over_inputs(out, &[&a.at.at.league, &a.at.at.current])?;
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
