//! Improving a valid schedule by fix-and-optimise: the monolithic model of a whole league
//! stalls, but divisions are coupled only through shared venues, clubs and dates. So, starting
//! from a valid schedule, free the fixtures of one neighbourhood (a division, or every fixture
//! in a window of weeks), keep every other fixture where it is, and let HiGHS re-optimise that
//! small model from the current schedule; keep the result when it is better. Neighbourhoods
//! widen when a whole round of them brings nothing. A last run of the full model from the best
//! schedule found gives the proven bound (and sometimes a further improvement).

use super::local::Anneal;
use super::{relative_gap, run_once, Options, Rng, Run, RunSpec, RunStatus, SolveError};
use crate::formulate::{Candidates, Focus};
use crate::model::{League, Weights};
use std::time::Instant;

/// Share of the time limit by which annealing ends.
const ANNEAL_SHARE: f64 = 0.5;
/// Share of the time limit by which fix-and-optimise ends; the rest goes to the final full run.
const IMPROVE_SHARE: f64 = 0.6;
/// Branch-and-bound nodes for one move: its bound is weak, so HiGHS finds the better schedule
/// early and would spend the rest proving it; many cheap moves beat a few proven ones.
const MOVE_NODES: i32 = 200;
/// Seconds kept back from the final run of the full model (plus one per 40,000 columns).
const FINAL_MARGIN: f64 = 2.0;

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
    // Small leagues: the full model from the valid schedule may prove the optimum outright.
    let mut first_start = vec![0.0; cand.slots.len()];
    for &s in &cur {
        first_start[s] = 1.0;
    }
    let quick = run_once(
        league,
        cand,
        opts,
        started,
        &RunSpec {
            weights,
            seed,
            time_limit: (opts.time_limit * 0.1).min(5.0),
            max_nodes: None,
            start: Some(&first_start),
            teams: None,
        },
    )?;
    if let Some(ch) = &quick.chosen {
        if quick.status == RunStatus::Optimal {
            return Ok(quick);
        }
        // Warm-started, so no worse than the valid schedule: go on from it.
        for &s in ch {
            cur[cand.slots[s].fixture] = s;
        }
    }
    // Annealing first: cheap moves, checked rule by rule, priced on the same objective.
    let sa_deadline = opts.time_limit * ANNEAL_SHARE;
    if sa_deadline - elapsed() > 0.2 {
        let mut sa = Anneal::new(league, cand, weights, &cur).differing(opts);
        let before = sa.objective();
        let (tried, taken) = sa.run(seed, started, sa_deadline, &|| opts.cancelled());
        if sa.valid() {
            opts.tell(sa.objective(), f64::NEG_INFINITY, elapsed());
            if opts.progress {
                eprintln!(
                    "progress: seed {seed}: annealing {before:.2} -> {:.2} ({taken} of {tried} moves taken), {:.1} s",
                    sa.objective(),
                    elapsed()
                );
            }
            cur = sa.cur;
        } else if opts.progress {
            eprintln!("progress: seed {seed}: annealing broke a rule; its schedule is dropped");
        }
    }
    let hoods = neighbourhoods(league, cand, &cur);
    let mut now = Anneal::new(league, cand, weights, &cur).differing(opts);
    let mut rng = Rng::new(seed);
    let mut next = move || rng.next() as usize;
    let deadline = opts.time_limit * IMPROVE_SHARE;
    let per_run = (opts.time_limit / 100.0).clamp(0.3, 3.0);
    let mut width = 1;
    let mut iteration = 0u64;
    let mut moved_total = 0usize;
    while deadline - elapsed() > 0.5 && !hoods.is_empty() && !opts.cancelled() {
        let mut order: Vec<usize> = (0..hoods.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, next() % (i + 1));
        }
        let mut moved_in_round = 0usize;
        for k in 0..order.len() {
            if deadline - elapsed() <= 0.5 || opts.cancelled() {
                break;
            }
            let mut free = vec![false; cand.fixtures.len()];
            for j in 0..width.min(order.len()) {
                for &f in &hoods[order[(k + j) % order.len()]] {
                    free[f] = true;
                }
            }
            let mut touched = vec![false; league.teams.len()];
            for (f, fx) in cand.fixtures.iter().enumerate() {
                if free[f] {
                    touched[fx.a] = true;
                    touched[fx.b] = true;
                }
            }
            iteration += 1;
            // The untouched teams' quality is a constant, but the worst spread may be theirs.
            let spread_floor = (0..league.teams.len())
                .filter(|&t| !touched[t])
                .map(|t| now.spreads()[t])
                .fold(0.0, f64::max);
            let spec = RunSpec {
                weights,
                seed: seed.wrapping_add(iteration),
                time_limit: per_run.min(deadline - elapsed()),
                max_nodes: Some(MOVE_NODES),
                start: None,
                teams: Some(Focus {
                    teams: &touched,
                    spread_floor,
                }),
            };
            let (sub, map) = cand.restricted(&free, &cur);
            let start: Vec<f64> = map
                .iter()
                .map(|&s| f64::from(u8::from(cur[cand.slots[s].fixture] == s)))
                .collect();
            let run = run_once(
                league,
                &sub,
                opts,
                started,
                &RunSpec {
                    start: Some(&start),
                    ..spec
                },
            )?;
            let Some(ch) = &run.chosen else { continue };
            let mut next_cur = cur.clone();
            let mut moved = 0;
            for &s in ch {
                let old = map[s];
                let f = cand.slots[old].fixture;
                if next_cur[f] != old {
                    next_cur[f] = old;
                    moved += 1;
                }
            }
            // A move counts only when the whole schedule is better, priced exactly (this also
            // guards against a warm start HiGHS refused).
            let after = Anneal::new(league, cand, weights, &next_cur).differing(opts);
            if moved == 0 || !after.valid() || after.objective() >= now.objective() - 1e-6 {
                continue;
            }
            cur = next_cur;
            now = after;
            moved_in_round += moved;
            moved_total += moved;
            if opts.progress && moved > 0 {
                eprintln!(
                    "progress: seed {seed}, move {iteration}: {moved} of {} free fixtures moved, {:.1} s",
                    free.iter().filter(|f| **f).count(),
                    elapsed()
                );
            }
        }
        if moved_in_round == 0 {
            width = (width * 4).min(hoods.len());
            if width == hoods.len() {
                break; // the whole league at once is the final run's job
            }
        }
    }
    // The final run: the full model, started from the best schedule; it also gives the bound.
    let mut start = vec![0.0; cand.slots.len()];
    for &s in &cur {
        start[s] = 1.0;
    }
    let full_spec = |time_limit, start| RunSpec {
        weights,
        seed,
        time_limit,
        max_nodes: None,
        start,
        teams: None,
    };
    // The value of our schedule in the full model: all of it pinned, quality terms free
    // (an LP in effect). Measured first, so the final run cannot overrun the time limit.
    let (pinned, _) = cand.restricted(&vec![false; cand.fixtures.len()], &cur);
    let left = opts.time_limit - elapsed();
    let ours = run_once(league, &pinned, opts, started, &full_spec(left, None))?;
    let cur_obj = if ours.chosen.is_some() {
        ours.objective
    } else {
        f64::INFINITY
    };
    // HiGHS checks its clock only between phases, and presolving a large model takes a while:
    // keep a margin so the whole solve ends within its limit.
    let margin = FINAL_MARGIN + quick.columns as f64 / 40_000.0;
    // Cancelled: no final run, the schedule as it stands.
    let left = if opts.cancelled() {
        0.1
    } else {
        opts.time_limit - elapsed() - margin
    };
    let full = run_once(league, cand, opts, started, &full_spec(left, Some(&start)))?;
    opts.tell(full.objective.min(cur_obj), full.bound, elapsed());
    if opts.progress {
        let best = full.objective.min(cur_obj);
        let gap = if full.bound.is_finite() {
            format!("{:.1}%", relative_gap(best, full.bound) * 100.0)
        } else {
            "-".into()
        };
        eprintln!(
            "progress: seed {seed}: {iteration} moves moved {moved_total} fixtures; incumbent {best:.2}, bound {:.2}, gap {gap}, {:.1} s",
            full.bound,
            elapsed()
        );
    }
    if full.chosen.is_some() && full.objective <= cur_obj + 1e-6 {
        return Ok(full);
    }
    Ok(Run {
        seed,
        status: match full.status {
            RunStatus::Optimal | RunStatus::Infeasible => RunStatus::Feasible,
            s => s,
        },
        objective: cur_obj,
        bound: full.bound,
        seconds: elapsed(),
        chosen: Some(cur),
        columns: full.columns,
        rows: full.rows,
    })
}

/// Fixture sets to re-optimise: every fixture of one team; every fixture dated in a
/// three-week window (windows a week apart), which cuts across divisions sharing venues and
/// clubs; and each whole division.
fn neighbourhoods(league: &League, cand: &Candidates, cur: &[usize]) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = cand
        .fixtures_of
        .iter()
        .filter(|f| !f.is_empty())
        .cloned()
        .collect();
    let mut start = league.start;
    while start <= league.end {
        let end = start + chrono::Days::new(20);
        let set: Vec<usize> = (0..cand.fixtures.len())
            .filter(|&f| {
                let d = cand.slots[cur[f]].date;
                d >= start && d <= end
            })
            .collect();
        if !set.is_empty() {
            out.push(set);
        }
        start = start + chrono::Days::new(7);
    }
    out.extend(
        (0..league.divisions.len())
            .map(|d| {
                (0..cand.fixtures.len())
                    .filter(|&f| cand.fixtures[f].division == d)
                    .collect::<Vec<_>>()
            })
            .filter(|v| !v.is_empty()),
    );
    out
}
