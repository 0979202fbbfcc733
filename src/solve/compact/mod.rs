//! Compact double round robins with the RobinX (ITC2021) constraints: every team plays in
//! every round, each pair meets once at each venue. The timetable is searched by rounds
//! (`table.rs`: the moves of the literature, which keep it a double round robin), each
//! constraint priced as terms (`terms.rs`), by simulated annealing with hard deviations
//! weighted adaptively (`anneal.rs`); independent seeds run on rayon's threads.

use crate::model::robinx::{Games, Instance};
use crate::solve::Rng;
use rayon::prelude::*;
use std::time::Instant;

mod anneal;
mod mip;
mod table;
mod terms;

/// The most teams for which HiGHS looks for the first feasible timetable (12 teams: about
/// 3,000 binaries; at 20 it rarely finds one in minutes, the annealing does).
const MIP_TEAMS: usize = 12;
/// The share of the time limit HiGHS has for it.
const MIP_SHARE: f64 = 0.6;

/// Seconds HiGHS has for each repair of a stalled search.
const REPAIR_SECONDS: f64 = 0.5;
/// Rounds a repair frees.
const REPAIR_ROUNDS: usize = 6;

/// The rounds a repair frees: a few at random, in one half when phased (where a pair's
/// meeting cannot leave its half).
fn free_rounds(rounds: usize, phased: bool, rng: &mut Rng) -> Vec<bool> {
    let half = rounds / 2;
    let (lo, span) = match (phased, rng.below(2)) {
        (true, 0) => (0, half),
        (true, _) => (half, half),
        _ => (0, rounds),
    };
    let mut order: Vec<usize> = (lo..lo + span).collect();
    table::shuffle(&mut order, rng);
    let mut free = vec![false; rounds];
    for &r in order.iter().take(REPAIR_ROUNDS) {
        free[r] = true;
    }
    free
}

/// How long and how wide to search.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Seconds for the whole search.
    pub time_limit: f64,
    /// Moves per search, when a test needs a bound that does not depend on the machine.
    pub steps: Option<u64>,
    /// The first search's seed; search i has seed `seed + i`.
    pub seed: u64,
    /// Independent searches run in parallel.
    pub threads: usize,
}

/// The best timetable found.
#[derive(Debug, Clone)]
pub struct Found {
    /// Every game as (home, away, slot).
    pub games: Games,
    /// Deviations of hard constraints (0: feasible).
    pub hard: i64,
    /// The soft objective, as the competition counts it.
    pub objective: i64,
    /// Seconds to the first timetable without hard deviations, by the search that found it.
    pub first_feasible: Option<f64>,
    /// Moves tried, over all searches.
    pub steps: u64,
}

/// The most cells (a term's teams times the slots it reads) the terms of an instance may
/// hold, counted before any is made; ITC2021's largest hold about 200,000.
const MAX_SIZE: usize = 20_000_000;

/// Why an instance cannot be searched this way.
#[derive(Debug, thiserror::Error)]
pub enum CompactError {
    /// The constraints would need more memory than an instance may take.
    #[error(
        "the constraints would need {0} cells; instances needing more than 20,000,000 are refused"
    )]
    TooLarge(usize),
    /// Only an even number of teams plays in every round.
    #[error("{0} teams: a compact double round robin needs an even number of teams, at least 2")]
    Teams(usize),
    /// A compact double round robin of n teams has 2(n − 1) slots.
    #[error("{slots} slots for {teams} teams: only compact double round robins (2 × (teams − 1) slots) are solved")]
    Slots {
        /// Teams of the instance.
        teams: usize,
        /// Slots of the instance.
        slots: usize,
    },
}

/// Searches `inst` within `settings` and returns the best timetable found.
pub fn solve(inst: &Instance, settings: &Settings) -> Result<Found, CompactError> {
    let n = inst.teams;
    if n < 2 || n % 2 == 1 || n > u16::MAX as usize {
        return Err(CompactError::Teams(n));
    }
    if inst.slots != 2 * (n - 1) {
        return Err(CompactError::Slots {
            teams: n,
            slots: inst.slots,
        });
    }
    let size = terms::size(inst);
    if size > MAX_SIZE {
        return Err(CompactError::TooLarge(size));
    }
    let terms = terms::Terms::new(inst);
    let start = Instant::now();
    let limits = anneal::Limits {
        start,
        seconds: settings.time_limit,
        steps: settings.steps,
    };
    let runs: Vec<anneal::Run> = (0..settings.threads.max(1) as u64)
        .into_par_iter()
        .map(|i| {
            let mut rng = Rng::new(settings.seed + i);
            // The first search of a small instance starts from HiGHS's first feasible timetable
            // when it finds one in part of the time.
            let exact = (i == 0 && n <= MIP_TEAMS && settings.steps.is_none())
                .then(|| {
                    // With no soft constraint the annealing has nothing left to do but look
                    // for feasibility, which HiGHS does better at this size.
                    let share = if inst.constraints.iter().all(|c| c.hard) {
                        0.9
                    } else {
                        MIP_SHARE
                    };
                    mip::feasible(inst, settings.time_limit * share, settings.seed)
                })
                .flatten()
                .and_then(|games| table::Table::from_games(n, &games));
            let first = exact.as_ref().map(|_| start.elapsed().as_secs_f64());
            let table = exact.unwrap_or_else(|| table::Table::random(n, &mut rng));
            let mut state = anneal::State::new(&terms, table);
            let seed = settings.seed + i;
            let mend = |t: &table::Table, rng: &mut Rng| {
                let left = settings.time_limit - start.elapsed().as_secs_f64();
                let free = free_rounds(t.rounds, inst.phased, rng);
                let games = mip::repair(inst, &t.games(), &free, left.min(REPAIR_SECONDS), seed)?;
                table::Table::from_games(n, &games)
            };
            let repair: Option<&anneal::Repair> =
                (n <= MIP_TEAMS && settings.steps.is_none()).then_some(&mend as &anneal::Repair);
            let mut run = anneal::anneal(&mut state, inst.phased, &mut rng, &limits, repair);
            run.first_feasible = first.or(run.first_feasible);
            run
        })
        .collect();
    let steps = runs.iter().map(|r| r.steps).sum();
    let best = runs
        .into_iter()
        .min_by_key(|r| (r.hard, r.soft))
        .expect("at least one search");
    Ok(Found {
        games: best.best.games(),
        hard: best.hard,
        objective: best.soft,
        first_feasible: best.first_feasible,
        steps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An instance whose constraints would fill memory is refused before any term is made.
    #[test]
    fn an_instance_too_large_for_memory_is_refused() {
        let n = 400;
        let teams: Vec<String> = (0..n).map(|t| t.to_string()).collect();
        let mut xml = String::from("<Instance>");
        for t in 0..n {
            xml += &format!("<team id=\"{t}\"/>");
        }
        for s in 0..2 * (n - 1) {
            xml += &format!("<slot id=\"{s}\"/>");
        }
        let all = teams.join(";");
        xml +=
            &format!("<FA2 teams=\"{all}\" slots=\"0\" intp=\"1\" penalty=\"1\" type=\"SOFT\"/>");
        xml += "</Instance>";
        let inst = crate::model::robinx::read_instance(&xml).unwrap();
        let settings = Settings {
            time_limit: 1.0,
            steps: Some(1),
            seed: 0,
            threads: 1,
        };
        assert!(matches!(
            solve(&inst, &settings),
            Err(CompactError::TooLarge(_))
        ));
    }
}
