//! Improving a valid schedule by fix-and-optimise: the monolithic model of a whole league
//! stalls, but divisions are coupled only through shared venues, clubs and dates. So, starting
//! from a valid schedule, free the fixtures of one neighbourhood (a division, or every fixture
//! in a window of weeks), keep every other fixture where it is, and let HiGHS re-optimise that
//! small model from the current schedule; keep the result when it is better. Neighbourhoods
//! widen when a whole round of them brings nothing. A last run of the full model from the best
//! schedule found gives the proven bound (and sometimes a further improvement).

use super::{run_once, Options, Run, RunStatus, SolveError};
use crate::formulate::Candidates;
use crate::model::{League, Weights};
use std::time::Instant;

/// Share of the time limit given to fix-and-optimise; the rest goes to the final full run.
const IMPROVE_SHARE: f64 = 0.8;

pub(crate) fn improve(
    league: &League,
    cand: &Candidates,
    weights: &Weights,
    opts: &Options,
    seed: u64,
    started: Instant,
    chosen: &[usize],
) -> Result<Run, SolveError> {
    let elapsed = || started.elapsed().as_secs_f64();
    let mut cur = vec![usize::MAX; cand.fixtures.len()];
    for &s in chosen {
        cur[cand.slots[s].fixture] = s;
    }
    let hoods = neighbourhoods(league, cand, &cur);
    let mut rng = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move || {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (rng >> 33) as usize
    };
    let mut cur_obj = f64::INFINITY;
    let deadline = opts.time_limit * IMPROVE_SHARE;
    let per_run = (opts.time_limit / 12.0).clamp(2.0, 20.0);
    let mut width = 1;
    let mut iteration = 0u64;
    while deadline - elapsed() > 0.5 && !hoods.is_empty() {
        let mut order: Vec<usize> = (0..hoods.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, next() % (i + 1));
        }
        let round_start = cur_obj;
        for k in 0..order.len() {
            if deadline - elapsed() <= 0.5 {
                break;
            }
            let mut free = vec![false; cand.fixtures.len()];
            for j in 0..width.min(order.len()) {
                for &f in &hoods[order[(k + j) % order.len()]] {
                    free[f] = true;
                }
            }
            let (sub, map) = cand.restricted(&free, &cur);
            let start: Vec<f64> = map
                .iter()
                .map(|&s| f64::from(u8::from(cur[cand.slots[s].fixture] == s)))
                .collect();
            iteration += 1;
            let limit = per_run.min(deadline - elapsed());
            let run = run_once(
                league,
                &sub,
                weights,
                opts,
                seed.wrapping_add(iteration),
                started,
                limit,
                Some(&start),
            )?;
            if let Some(ch) = &run.chosen {
                if run.objective < cur_obj - 1e-6 {
                    for &s in ch {
                        let old = map[s];
                        cur[cand.slots[old].fixture] = old;
                    }
                    cur_obj = run.objective;
                }
            }
        }
        if cur_obj >= round_start - 1e-6 {
            width = (width * 2).min(hoods.len());
            if width == hoods.len() && round_start.is_finite() {
                break; // the whole league at once is the final run's job
            }
        }
    }
    // The final run: the full model, started from the best schedule.
    let mut start = vec![0.0; cand.slots.len()];
    for &s in &cur {
        start[s] = 1.0;
    }
    let left = opts.time_limit - elapsed();
    let full = run_once(
        league,
        cand,
        weights,
        opts,
        seed,
        started,
        left,
        Some(&start),
    )?;
    let better = full
        .chosen
        .as_ref()
        .is_some_and(|_| full.objective <= cur_obj + 1e-6);
    if better {
        return Ok(full);
    }
    Ok(Run {
        seed,
        status: if full.status == RunStatus::Infeasible {
            RunStatus::Feasible
        } else {
            full.status.min_feasible()
        },
        objective: cur_obj,
        bound: full.bound,
        seconds: elapsed(),
        chosen: Some(cur),
        columns: full.columns,
        rows: full.rows,
    })
}

impl RunStatus {
    /// A run that did not better our schedule cannot have proven it optimal.
    fn min_feasible(self) -> RunStatus {
        match self {
            RunStatus::Optimal => RunStatus::Feasible,
            s => s,
        }
    }
}

/// Fixture sets to re-optimise: each division, and every fixture dated in a six-week window
/// (windows every three weeks), which cuts across divisions sharing venues and clubs.
fn neighbourhoods(league: &League, cand: &Candidates, cur: &[usize]) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = (0..league.divisions.len())
        .map(|d| {
            (0..cand.fixtures.len())
                .filter(|&f| cand.fixtures[f].division == d)
                .collect::<Vec<_>>()
        })
        .filter(|v| !v.is_empty())
        .collect();
    let mut start = league.start;
    while start <= league.end {
        let end = start + chrono::Days::new(41);
        let set: Vec<usize> = (0..cand.fixtures.len())
            .filter(|&f| {
                let d = cand.slots[cur[f]].date;
                d >= start && d <= end
            })
            .collect();
        if !set.is_empty() {
            out.push(set);
        }
        start = start + chrono::Days::new(21);
    }
    out
}
