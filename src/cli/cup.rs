//! `fixtures cup`: a knockout cup's pairing tree, the home side of each tie (KO rule 4) and the
//! dates each home captain can offer (KO rule 5), beside the league's fixture list.

use super::{not_over_inputs, CliError};
use chrono::Datelike;
use fixtures::model::{FixtureList, League, Rerun};
use fixtures::pipeline;
use fixtures::season::cup;
use std::path::PathBuf;

/// Draw a cup (a seeded random pairing tree), give every tie whose teams are known its home
/// side and the dates its home captain can offer, and with -o write the fixture list with each
/// such tie on its first offered date (checked with the league's matches by `fixtures check`).
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    at: super::Current,
    /// The cup (its `name`; default: the first cup of the file).
    #[arg(long)]
    cup: Option<String>,
    /// The draw's seed: the same seed gives the same tree.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The winners of the ties played so far, comma-separated, a team once per tie it won
    /// (round by round): their next ties become known.
    #[arg(long, default_value = "")]
    won: String,
    /// Write the fixture list with the known ties on their first offered dates.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

fn cup_index(league: &League, name: Option<&str>) -> Result<usize, CliError> {
    if league.cups.is_empty() {
        return Err(CliError::input(
            "error: the league file has no [[cup]] table",
        ));
    }
    match name {
        None => Ok(0),
        Some(n) => league.cup_by_name(n).ok_or_else(|| {
            let names: Vec<&str> = league.cups.iter().map(|c| c.name.as_str()).collect();
            CliError::input(format!(
                "error: no cup \"{n}\" (the league's cups: {})",
                names.join(", ")
            ))
        }),
    }
}

/// Runs `cup`.
pub fn run(a: Args) -> Result<(), CliError> {
    let (league, list) = a.at.load()?;
    let ci = cup_index(&league, a.cup.as_deref())?;
    let c = &league.cups[ci];
    let mut won = Vec::new();
    for name in a.won.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        won.push(league.team_by_name(name).ok_or_else(|| {
            CliError::input(format!(
                "error: --won names no team of the league: \"{name}\""
            ))
        })?);
    }
    let draw = cup::draw(c, a.seed);
    // Each name wins one tie of its team, in round order; a tie with a winner is history.
    let mut wins_left = won.clone();
    let mut decided = Vec::new();
    let ties = cup::ties(c, &draw, &mut |t| {
        let i = wins_left.iter().position(|&w| w == t.home || w == t.away)?;
        decided.push((t.round, t.index));
        Some(wins_left.remove(i))
    });
    if let Some(&left) = wins_left.first() {
        return Err(CliError::input(format!(
            "error: --won names {} for a tie it does not have (yet) in this draw",
            league.teams[left].name
        )));
    }
    let open: Vec<cup::Tie> = ties
        .iter()
        .copied()
        .filter(|t| c.is_all_play_all() || !decided.contains(&(t.round, t.index)))
        .collect();
    let (placed, offers) = cup::place(&league, ci, &list, &open);
    print_tree(&league, ci, &draw.grid, a.seed);
    let name = |t: usize| league.teams[t].name.as_str();
    let mut short = 0;
    for (tie, dates) in &offers {
        let (from, to) = cup::offer_window(&league, c, tie.round);
        println!(
            "{}: {} v {} (window {from} to {to}): {} dates to offer{}",
            c.round_name(tie.round),
            name(tie.home),
            name(tie.away),
            dates.len(),
            if dates.len() < c.offer as usize {
                format!(" (fewer than the {} the rules ask)", c.offer)
            } else {
                String::new()
            }
        );
        if dates.len() < c.offer as usize {
            short += 1;
        }
        let shown: Vec<String> = dates
            .iter()
            .map(|d| format!("{d} {}", d.weekday()))
            .collect();
        println!("    {}", shown.join(", "));
    }
    if let Some(out) = &a.output {
        not_over_inputs(out, &[&a.at.league, &a.at.current])?;
        write(&league, placed, out)?;
        eprintln!(
            "wrote {} with {} cup ties",
            out.display(),
            offers.iter().filter(|o| !o.1.is_empty()).count()
        );
    }
    if short > 0 {
        return Err(CliError {
            code: super::EXIT_INFEASIBLE,
            lines: vec![format!("error: {short} ties have fewer dates than the {} the rules ask the home captain to offer", c.offer)],
        });
    }
    Ok(())
}

fn print_tree(league: &League, ci: usize, grid: &[Option<usize>], seed: u64) {
    let c = &league.cups[ci];
    println!(
        "{}, seed {seed}: {} entrants, {} ({} rounds)",
        c.name,
        c.teams.len(),
        if c.is_all_play_all() {
            "all-play-all".to_string()
        } else {
            format!("a tree of {}", grid.len())
        },
        c.rounds()
    );
    for (r, round) in (0..c.rounds()).map(|r| (r, c.round_name(r))) {
        if let Some((from, to)) = c.window(r) {
            println!("  {round}: {from} to {to}");
        }
    }
    let zone_of = |t: usize| {
        c.zones
            .iter()
            .find(|z| z.1.contains(&t))
            .map(|z| format!(" [{}]", z.0))
            .unwrap_or_default()
    };
    for (p, pair) in grid.chunks(2).enumerate() {
        let show = |s: Option<usize>| {
            s.map(|t| format!("{}{}", league.teams[t].name, zone_of(t)))
                .unwrap_or_else(|| "(bye)".into())
        };
        println!("  {:>2}. {} / {}", p + 1, show(pair[0]), show(pair[1]));
    }
}

/// Verifies the list with the independent checker and writes it.
pub(super) fn write(
    league: &League,
    list: FixtureList,
    out: &std::path::Path,
) -> Result<(), CliError> {
    let checked = pipeline::verify(league, list, &Rerun::default())
        .map_err(|f| CliError::failure("error: ", &f))?;
    pipeline::save(out, &checked)
        .map_err(|e| CliError::input(format!("error: cannot write {}: {e}", out.display())))
}
