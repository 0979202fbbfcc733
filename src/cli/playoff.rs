//! `fixtures playoff`: a play-off between two teams (Sussex rule 12), and its replay.

use super::{not_over_inputs, CliError};
use chrono::Datelike;
use fixtures::season::playoff;
use std::path::PathBuf;

/// A play-off between two teams tied for a place: the first date both can play after their
/// league matches, at the venue reversed from their league meeting (rule 12.2), and the replay
/// of a drawn play-off at the away team's venue (12.3). With -o writes the list with both, as
/// `fixtures check` verifies them.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    at: super::Current,
    /// The two teams, "A,B".
    #[arg(long)]
    teams: String,
    /// Write the fixture list with the play-off and its replay.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Runs `playoff`.
pub fn run(a: Args) -> Result<(), CliError> {
    let (league, list) = a.at.load()?;
    let names: Vec<&str> = a.teams.split(',').map(str::trim).collect();
    let [x, y] = names.as_slice() else {
        return Err(CliError::input("error: --teams takes two teams, \"A,B\""));
    };
    let team = |n: &str| {
        league.team_by_name(n).ok_or_else(|| {
            CliError::input(format!(
                "error: --teams names no team of the league: \"{n}\""
            ))
        })
    };
    let p = playoff::play_off(&league, &list, team(x)?, team(y)?).map_err(|e| CliError {
        code: super::EXIT_INFEASIBLE,
        lines: vec![format!("error: {e}")],
    })?;
    let name = |t: usize| league.teams[t].name.as_str();
    println!("Play-off: {} v {} ({})", name(p.home), name(p.away), p.why);
    let shown: Vec<String> = p
        .dates
        .iter()
        .take(6)
        .map(|d| format!("{d} {}", d.weekday()))
        .collect();
    println!("  dates: {}", shown.join(", "));
    for e in p.list.extra.iter() {
        println!(
            "  {}: {} {} v {} at {}",
            e.round(&league),
            e.date,
            name(e.home),
            name(e.away),
            league.venues[e.venue(&league)].name
        );
    }
    if let Some(out) = &a.output {
        not_over_inputs(out, &[&a.at.league, &a.at.current])?;
        super::cup::write(&league, p.list, out)?;
        eprintln!("wrote {}", out.display());
    }
    Ok(())
}
