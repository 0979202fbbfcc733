//! Competition formats: `berger`, `cup-draw`, `scheveningen`, `pair`, `pools` and `split`.
//! Whatever of them is a fixture list passes the checker (through the pipeline) first.

use super::{division_named, load, write_or_print, CliError, EXIT_INFEASIBLE};
use fixtures::competitions::{self, swiss};
use fixtures::model::League;
use fixtures::pipeline;
use std::path::{Path, PathBuf};

/// Print the FIDE Berger table for N players or teams (Handbook C.05, Annex 1).
#[derive(clap::Args)]
pub struct BergerArgs {
    /// Players or teams (odd: the last number is the bye).
    n: usize,
}

/// Draw the knockout cup of a league (its `[cup]` table, else every team): a random grid
/// with last year's finalists in opposite halves, byes to fill a power of two.
#[derive(clap::Args)]
pub struct CupDrawArgs {
    league: PathBuf,
    /// The same seed gives the same draw.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Print the Scheveningen table of a cup match: each visitor meets each home player, the
/// home team Black in odd rounds and White in even ones (GTCL rules 7.3, 7.5).
#[derive(clap::Args)]
pub struct ScheveningenArgs {
    /// Players a side.
    #[arg(long, default_value_t = 4)]
    players: usize,
}

/// Pair one Swiss round of a division from the results so far (CSV: round, home, away,
/// home_points, away_points; an empty away is a bye): by match points, then game points,
/// no repeat pairings, first-named balanced, as a minimum-cost matching solved by HiGHS.
#[derive(clap::Args)]
pub struct PairArgs {
    league: PathBuf,
    /// The round to pair.
    #[arg(long)]
    round: u32,
    /// Results of the rounds before (omit for round 1).
    #[arg(long)]
    results: Option<PathBuf>,
    /// The Swiss division (needed when the league has several).
    #[arg(long)]
    division: Option<String>,
}

/// 4NCL: the two preliminary pools of a division, of broadly equal strength by the teams'
/// `rating` (clubs apart), and their rounds 1-7 from the Berger table, as a fixture list
/// (date, division, home, away, venue, round, pool).
#[derive(clap::Args)]
pub struct PoolsArgs {
    league: PathBuf,
    #[arg(long)]
    division: Option<String>,
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// 4NCL: after the preliminary rounds, the championship and relegation pools from the
/// results (CSV as for `pair`), the results carried forward, and rounds 8-11.
#[derive(clap::Args)]
pub struct SplitArgs {
    league: PathBuf,
    #[arg(long)]
    division: Option<String>,
    #[arg(long)]
    results: PathBuf,
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Runs `berger`.
pub fn berger(a: BergerArgs) -> Result<(), CliError> {
    if !(2..=1000).contains(&a.n) {
        return Err(CliError::input("error: N must be from 2 to 1000"));
    }
    print!("{}", competitions::berger::text(a.n));
    Ok(())
}

/// Runs `scheveningen`.
pub fn scheveningen(a: ScheveningenArgs) -> Result<(), CliError> {
    if !(1..=100).contains(&a.players) {
        return Err(CliError::input("error: --players must be from 1 to 100"));
    }
    for (r, round) in competitions::cup::scheveningen(a.players)
        .iter()
        .enumerate()
    {
        let boards: Vec<String> = round
            .iter()
            .map(|&(h, v, white)| {
                if white {
                    format!("H{h}-V{v}")
                } else {
                    format!("V{v}-H{h}")
                }
            })
            .collect();
        println!("Round {}: {}", r + 1, boards.join("  "));
    }
    println!("(White first; H = home player by board, V = visitor)");
    Ok(())
}

/// Runs `cup-draw`.
pub fn cup_draw(a: CupDrawArgs) -> Result<(), CliError> {
    let league = load(&a.league)?;
    let (teams, finalists) = match league.cups.first() {
        Some(c) => (c.teams.clone(), c.finalists.clone()),
        None => ((0..league.teams.len()).collect(), Vec::new()),
    };
    if teams.len() < 2 {
        return Err(CliError::input(format!(
            "error: {}: a cup needs two teams or more",
            a.league.display()
        )));
    }
    let draw = competitions::cup::draw(&teams, &finalists, a.seed);
    let name = |t: usize| league.teams[t].name.as_str();
    println!(
        "{} cup, seed {}: {} teams, a grid of {}",
        league.name,
        a.seed,
        teams.len(),
        draw.grid.len()
    );
    for (i, (x, y)) in draw.first_round().iter().enumerate() {
        let half = if 2 * i < draw.grid.len() / 2 {
            "top"
        } else {
            "bottom"
        };
        match y {
            Some(y) => println!("{:>3}. {} v {}   ({half} half)", i + 1, name(*x), name(*y)),
            None => println!("{:>3}. {} bye   ({half} half)", i + 1, name(*x)),
        }
    }
    Ok(())
}

/// A results file (CSV: round, home, away, home_points, away_points; an empty away is a bye)
/// of `teams` (indices into it), rounds before `before`.
fn read_results(
    file: &Path,
    league: &League,
    teams: &[usize],
    before: u32,
) -> Result<(Vec<swiss::Played>, Vec<usize>), CliError> {
    let local = |name: &str| {
        teams
            .iter()
            .position(|&t| league.teams[t].name == name.trim())
    };
    let mut reader = csv::Reader::from_path(file)
        .map_err(|e| CliError::input(format!("error: {}: {e}", file.display())))?;
    let (mut played, mut byes) = (Vec::new(), Vec::new());
    for (i, rec) in reader.records().enumerate() {
        let bad =
            |what: String| CliError::input(format!("error: {}:{}: {what}", file.display(), i + 2));
        let rec = rec.map_err(|e| bad(e.to_string()))?;
        let field = |k: usize| rec.get(k).unwrap_or("").trim().to_string();
        let r = field(0)
            .parse::<u32>()
            .map_err(|_| bad(format!("round \"{}\" is not a number", field(0))))?;
        let a = local(&field(1))
            .ok_or_else(|| bad(format!("no team \"{}\" in the division", field(1))))?;
        if field(2).is_empty() {
            byes.push(a);
            continue;
        }
        let b = local(&field(2))
            .ok_or_else(|| bad(format!("no team \"{}\" in the division", field(2))))?;
        let (Ok(x), Ok(y)) = (field(3).parse::<f64>(), field(4).parse::<f64>()) else {
            return Err(bad("the game points are not numbers".into()));
        };
        if r >= before {
            return Err(bad(format!(
                "a result of round {r}, not before round {before}"
            )));
        }
        played.push(swiss::Played {
            round: r,
            first: a,
            second: b,
            first_points: x,
            second_points: y,
        });
    }
    Ok((played, byes))
}

/// 4NCL rounds as a fixture list: date (the division's round date), division, home, away,
/// venue, then round and pool.
fn ncl_csv(league: &League, div: usize, rows: &[(u32, usize, usize, &str)]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(["date", "division", "home", "away", "venue", "round", "pool"]);
    let rounds = league.divisions[div].rounds.clone().unwrap_or_default();
    for &(r, a, b, pool) in rows {
        let date = rounds
            .get(r as usize - 1)
            .map_or(String::new(), |d| d.to_string());
        let _ = w.write_record([
            date,
            league.divisions[div].name.clone(),
            league.teams[a].name.clone(),
            league.teams[b].name.clone(),
            league.venues[league.match_venue(a)].name.clone(),
            r.to_string(),
            pool.to_string(),
        ]);
    }
    String::from_utf8_lossy(&w.into_inner().unwrap_or_default()).into_owned()
}

/// Whether a division can be split into two 4NCL pools with enough round dates.
fn ncl_division(league: &League, div: usize) -> Result<(), CliError> {
    match competitions::ncl::unfit(league, div) {
        Some(why) => Err(CliError::input(format!("error: {why}"))),
        None => Ok(()),
    }
}

fn names(league: &League, p: &[usize]) -> String {
    p.iter()
        .map(|&t| league.teams[t].name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Checks a division's list through the pipeline, then writes or prints it.
fn checked_out(
    league: &League,
    div: usize,
    csv: String,
    output: Option<&Path>,
) -> Result<(), CliError> {
    let checked = pipeline::verify_division_text(league, div, csv, "rounds")
        .map_err(|f| CliError::failure("", &f))?;
    write_or_print(output, &checked)
}

/// Runs `pools`.
pub fn pools(a: PoolsArgs) -> Result<(), CliError> {
    let league = load(&a.league)?;
    let div = division_named(&league, a.division.as_deref())?;
    ncl_division(&league, div)?;
    let (pa, pb) = competitions::ncl::league_pools(&league, div);
    let strength = |p: &[usize]| {
        p.iter()
            .map(|&t| league.teams[t].rating.unwrap_or(0.0))
            .sum::<f64>()
            / p.len() as f64
    };
    eprintln!(
        "pool A (mean rating {:.0}): {}",
        strength(&pa),
        names(&league, &pa)
    );
    eprintln!(
        "pool B (mean rating {:.0}): {}",
        strength(&pb),
        names(&league, &pb)
    );
    let rows: Vec<(u32, usize, usize, &str)> = competitions::ncl::preliminary(&league, div)
        .into_iter()
        .map(|(r, x, y)| (r, x, y, if pa.contains(&x) { "A" } else { "B" }))
        .collect();
    checked_out(
        &league,
        div,
        ncl_csv(&league, div, &rows),
        a.output.as_deref(),
    )
}

/// Runs `split`.
pub fn split(a: SplitArgs) -> Result<(), CliError> {
    let league = load(&a.league)?;
    let div = division_named(&league, a.division.as_deref())?;
    ncl_division(&league, div)?;
    let (pa, pb) = competitions::ncl::league_pools(&league, div);
    let prelim = (pa.len() - 1) as u32;
    let all: Vec<usize> = (0..league.teams.len()).collect();
    let (played, _) = read_results(&a.results, &league, &all, prelim + 1)?;
    let lean = competitions::ncl::leans(&played, league.teams.len());
    let split = competitions::ncl::split(
        (&pa, &pb),
        (&played, &[]),
        league.teams.len(),
        prelim + 1,
        &lean,
    );
    eprintln!("championship pool: {}", names(&league, &split.championship));
    eprintln!("relegation pool: {}", names(&league, &split.relegation));
    eprintln!(
        "{} of {} preliminary results carried forward (those between teams of the same final pool)",
        split.carried.len(),
        played.len()
    );
    let rows: Vec<(u32, usize, usize, &str)> = split
        .rounds
        .iter()
        .map(|&(r, x, y)| {
            let pool = if split.championship.contains(&x) {
                "championship"
            } else {
                "relegation"
            };
            (r, x, y, pool)
        })
        .collect();
    checked_out(
        &league,
        div,
        ncl_csv(&league, div, &rows),
        a.output.as_deref(),
    )
}

/// Runs `pair`: the round's pairings as a fixture list on the division's round date (checked
/// before it is printed); a division with no round dates gets its pairings undated.
pub fn pair(a: PairArgs) -> Result<(), CliError> {
    let league = load(&a.league)?;
    let div = division_named(&league, a.division.as_deref())?;
    let round = a.round;
    let teams = &league.divisions[div].teams;
    let (played, byes) = match &a.results {
        Some(f) => read_results(f, &league, teams, round)?,
        None => (Vec::new(), Vec::new()),
    };
    let standings = swiss::standings(teams.len(), &played, &byes);
    let balance = league.rules.home_away_balance as i32;
    let seeds = swiss::seeds(&league, teams);
    let pairing = swiss::pair(&standings, &played, balance, &seeds).map_err(|e| CliError {
        code: EXIT_INFEASIBLE,
        lines: vec![format!("error: round {round}: {e}")],
    })?;
    let name = |t: usize| league.teams[teams[t]].name.clone();
    let date = league.divisions[div]
        .rounds
        .as_ref()
        .and_then(|r| r.get((round as usize).checked_sub(1)?))
        .map(|d| d.to_string());
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record([
        "date",
        "division",
        "home",
        "away",
        "venue",
        "round",
        "home_match_points",
        "away_match_points",
    ]);
    for &(x, y) in &pairing.pairs {
        let _ = w.write_record([
            date.clone().unwrap_or_default(),
            league.divisions[div].name.clone(),
            name(x),
            name(y),
            league.venues[league.match_venue(teams[x])].name.clone(),
            round.to_string(),
            standings[x].match_points.to_string(),
            standings[y].match_points.to_string(),
        ]);
    }
    let text = String::from_utf8_lossy(&w.into_inner().unwrap_or_default()).into_owned();
    if let Some(t) = pairing.bye {
        eprintln!(
            "round {round}: {} has the bye (record it in the results as a row with an empty away)",
            name(t)
        );
    }
    if date.is_none() {
        // Not a fixture list (no dates to check): the pairings only.
        eprintln!(
            "note: division \"{}\" has no round date for round {round}; the pairings are undated",
            league.divisions[div].name
        );
        print!("{text}");
        return Ok(());
    }
    checked_out(&league, div, text, None)
}
