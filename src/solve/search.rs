//! One search per seed, as explicit phases sharing one time budget:
//!
//! 1. `first_valid`: the rules-only model (quality terms off): a valid schedule in seconds;
//! 2. `quick_full`: a short try of the full model from it (a small league may be proven optimal);
//! 3. `anneal`: simulated annealing (`local`), millions of cheap moves priced exactly;
//! 4. `fix_and_optimise`: neighbourhoods (a team, a three-week window, a division) freed and
//!    re-optimised by HiGHS from the current schedule, kept only when the whole schedule's
//!    objective falls;
//! 5. `final_run`: for a small model, the full model from the best schedule, which may prove
//!    it optimal (a large one's bound comes from the teams' least costs, `team_bound`).
//!
//! Each phase's share of the time limit is in `Budget`, and nowhere else. A soft goal lives in
//! the model (`formulate::quality`), the checker (`check::quality`) and the annealing's exact
//! pricing (`local`); the phases here only call them.

use super::local::Anneal;
use super::{
    berger_start, exact, relative_gap, run_once, Options, Rng, Run, RunSpec, RunStatus, SolveError,
};
use crate::formulate::{Candidates, Focus, Slot};
use crate::model::{League, Weights};
use std::time::Instant;

/// The time limit's shares, in one place.
pub(crate) struct Budget {
    started: Instant,
    limit: f64,
    /// Whether the final run of the full model can fit in its share (else its time goes to
    /// annealing and fix-and-optimise): decided from an estimate of the model's size, and again
    /// once the quick run has built it.
    final_run: std::cell::Cell<bool>,
}

impl Budget {
    /// The quick try of the full model: this share of the limit, at most `QUICK_MAX` seconds.
    const QUICK_SHARE: f64 = 0.1;
    const QUICK_MAX: f64 = 5.0;
    /// With no final run, annealing runs until this share of the limit and fix-and-optimise
    /// until `1 - BOUND_SHARE` of it, leaving the teams' least costs their time: on large
    /// models fix-and-optimise barely betters the annealing's schedule, so its time is worth
    /// more to the annealing (commit 563329f).
    const ANNEAL_ALONE: f64 = 0.92;
    /// A small model's shares: its annealing settles in a second, and HiGHS, which may prove
    /// it optimal, has the rest.
    const ANNEAL_END_SMALL: f64 = 0.2;
    const FIX_END_SMALL: f64 = 0.3;
    /// Annealing's end when the exact search follows it (at most `ANNEAL_MOST_EXACT` seconds
    /// from the start, at least `ANNEAL_LEAST_EXACT` of annealing): a league of a few teams
    /// anneals to its best in half a second, and the proof (until `EXACT_END`) needs every
    /// second.
    const ANNEAL_END_EXACT: f64 = 0.05;
    const ANNEAL_MOST_EXACT: f64 = 0.5;
    const ANNEAL_LEAST_EXACT: f64 = 0.3;
    /// Seconds kept back from the final run: HiGHS presolves a small model at once and checks
    /// its clock often.
    const FINAL_MARGIN: f64 = 0.5;
    /// Seconds the final run needs at least, after its margin.
    const FINAL_LEAST: f64 = 1.0;
    /// Below this many columns a model is small: its final run bounds it in about a second.
    /// A larger one has no final run: its LP bound is far below the teams' least costs and it
    /// never bettered the schedule, so the time goes to the annealing instead.
    const SMALL_MODEL: usize = 20_000;

    /// The budget of a search whose full model has about `columns` columns (about five per
    /// candidate slot: the quality terms add a few per team and date).
    pub(crate) fn new(started: Instant, limit: f64, columns: usize) -> Budget {
        let b = Budget {
            started,
            limit,
            final_run: std::cell::Cell::new(true),
        };
        b.columns(columns);
        b
    }

    /// Decides whether the final run fits, for a model of `columns` columns: only a small
    /// one's (`SMALL_MODEL`), when its share leaves it `FINAL_LEAST` seconds.
    fn columns(&self, columns: usize) {
        self.final_run.set(
            columns < Self::SMALL_MODEL
                && self.limit * (1.0 - Self::FIX_END_SMALL) - Self::FINAL_MARGIN
                    >= Self::FINAL_LEAST,
        );
    }

    fn final_run(&self) -> bool {
        self.final_run.get()
    }

    pub(crate) fn elapsed(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// Seconds left of the whole limit.
    pub(crate) fn left(&self) -> f64 {
        self.limit - self.elapsed()
    }

    /// Seconds for the quick full run: its share, but never more than a tenth of what is left
    /// (a first valid schedule that came late leaves the time to the annealing).
    fn quick(&self) -> f64 {
        (self.limit * Self::QUICK_SHARE)
            .min(Self::QUICK_MAX)
            .min(0.1 * self.left())
    }

    /// Annealing ends at its share of the limit (`ANNEAL_END_EXACT` when the exact search
    /// follows, `ANNEAL_END_SMALL` before a final run), but gets at least 60% of the time left
    /// when the first valid schedule came late (a large league).
    fn anneal_until(&self, exact_follows: bool) -> f64 {
        if exact_follows {
            return (self.limit * Self::ANNEAL_END_EXACT)
                .min(Self::ANNEAL_MOST_EXACT)
                .max(self.elapsed() + Self::ANNEAL_LEAST_EXACT);
        }
        if self.final_run() {
            return self.limit * Self::ANNEAL_END_SMALL;
        }
        (self.limit * Self::ANNEAL_ALONE).max(self.elapsed() + 0.6 * self.left())
    }

    fn fix_until(&self) -> f64 {
        if self.final_run() {
            self.limit * Self::FIX_END_SMALL
        } else {
            self.limit * (1.0 - BOUND_SHARE)
        }
    }

    /// Seconds for one fix-and-optimise move: a hundredth of the limit, from 0.05 to 3 s, so
    /// that even a one-second solve makes a few moves.
    fn per_move(&self) -> f64 {
        (self.limit / 100.0).clamp(0.05, 3.0)
    }
}

/// The share of the limit the teams' least costs (`team_bound::coupled_bound`) have after the
/// searches, at most: the searches without a final run leave it to them.
pub(crate) const BOUND_SHARE: f64 = 0.05;

/// The exact search for a league of a few teams ends by this share of the limit: what is left
/// goes to fix-and-optimise and the final run, and the higher of its bound and the exact
/// search's own (`exact::Proof::AtLeast`) stands.
const EXACT_END: f64 = 0.95;

/// Branch-and-bound nodes for one move: its bound is weak, so HiGHS finds the better schedule
/// early and would spend the rest proving it; many cheap moves beat a few proven ones.
const MOVE_NODES: i32 = 200;

/// Whether the exact search applies to this solve: a league of a few teams (`exact::applies`),
/// not a rerun and no drafts to keep apart. Then the first search is the only one, and the
/// exact search walks each day's states on every thread of the pool.
pub(crate) fn exact_applies(league: &League, cand: &Candidates, opts: &Options) -> bool {
    let steer = &opts.steer;
    let weights = opts.weights.unwrap_or(league.weights);
    !steer.rescheduling() && steer.differ_from.is_empty() && exact::applies(league, cand, &weights)
}

/// What one search found: the first valid run, and the best run of the full objective.
pub(crate) struct Found {
    pub(crate) first: Run,
    pub(crate) best: Option<Run>,
    /// Whether the first run already used the full objective (no quality weights to improve).
    pub(crate) first_is_full: bool,
}

/// One seed's search.
pub(crate) struct Search<'a> {
    league: &'a League,
    cand: &'a Candidates,
    opts: &'a Options,
    seed: u64,
    budget: Budget,
    weights: Weights,
    /// The rules-only weights of the first phase (avoid dates kept: they are cheap).
    first_weights: Weights,
    /// The bound the exact search proved when it gave up (`exact::Proof::AtLeast`).
    exact_bound: std::cell::Cell<f64>,
}

impl<'a> Search<'a> {
    pub(crate) fn new(
        league: &'a League,
        cand: &'a Candidates,
        opts: &'a Options,
        seed: u64,
        started: Instant,
    ) -> Search<'a> {
        let weights = opts.weights.unwrap_or(league.weights);
        Search {
            league,
            cand,
            opts,
            seed,
            budget: Budget::new(started, opts.time_limit, 5 * cand.slots.len()),
            weights,
            first_weights: Weights {
                avoid: weights.avoid,
                ..Weights::avoid_only()
            },
            exact_bound: std::cell::Cell::new(f64::NEG_INFINITY),
        }
    }

    fn spec(&self, weights: &'a Weights, time_limit: f64) -> RunSpec<'a> {
        RunSpec {
            weights,
            seed: self.seed,
            time_limit,
            max_nodes: None,
            start: None,
            teams: None,
        }
    }

    fn say(&self, line: impl FnOnce() -> String) {
        if self.opts.progress {
            eprintln!("progress: seed {}: {}", self.seed, line());
        }
    }

    /// Runs the phases in turn. A rerun first tries to repair the current schedule around the
    /// fixtures that must move (`repair`); only when that cannot prove its moves the fewest does
    /// it run the whole search.
    pub(crate) fn run(&self) -> Result<Found, SolveError> {
        if self.opts.steer.rescheduling() {
            if let Some(found) = self.repair()? {
                return Ok(found);
            }
        }
        let first = self.first_valid()?;
        let first_is_full = self.first_weights == self.weights;
        let Some(chosen) = first.chosen.clone() else {
            return Ok(Found {
                first,
                best: None,
                first_is_full,
            });
        };
        // A valid schedule exists; its value is on other terms than the full objective.
        self.opts.tell(f64::NAN, f64::NEG_INFINITY, first.seconds);
        let steer = &self.opts.steer;
        // Rescheduling with nothing moved: any change would cost a move, more than quality can
        // repay, so the current schedule stands.
        let settled = steer.rescheduling() && steer.unmoved(self.cand, &chosen);
        if first_is_full || settled {
            return Ok(Found {
                first,
                best: None,
                first_is_full,
            });
        }
        let mut cur = vec![usize::MAX; self.cand.fixtures.len()];
        for &s in &chosen {
            cur[self.cand.slots[s].fixture] = s;
        }
        let (quick, columns) = self.quick_full(&mut cur)?;
        self.budget.columns(columns);
        if let Some(proven) = quick {
            return Ok(Found {
                first,
                best: Some(proven),
                first_is_full,
            });
        }
        self.anneal(&mut cur);
        if let Some(proven) = self.exact(&mut cur, columns) {
            return Ok(Found {
                first,
                best: Some(proven),
                first_is_full,
            });
        }
        let moves = self.fix_and_optimise(&mut cur)?;
        let mut best = self.final_run(&cur, columns, moves)?;
        // Both bounds hold; the higher stands.
        best.bound = best.bound.max(self.exact_bound.get());
        Ok(Found {
            first,
            best: Some(best),
            first_is_full,
        })
    }

    /// A rerun's repair: every fixture whose current slot is still possible stays pinned to it,
    /// and the model frees only the fixtures that must move, then, if that cannot place them
    /// with one move each, also the other fixtures of their teams, then of their divisions.
    /// Each fixture that must move costs at least one move, so a repair that moves exactly
    /// those fixtures, each once, has provably the fewest moves; it is accepted at once (no
    /// search for quality, which could not repay a move). `None` when no level proves it.
    fn repair(&self) -> Result<Option<Found>, SolveError> {
        let (league, cand, steer) = (self.league, self.cand, &self.opts.steer);
        let mut cur = vec![usize::MAX; cand.fixtures.len()];
        for (s, slot) in cand.slots.iter().enumerate() {
            let here = matches!(steer.preferred.get(slot.fixture), Some(Some(p)) if *p == (slot.home, slot.date));
            if here {
                cur[slot.fixture] = s;
            }
        }
        let must: Vec<usize> = (0..cand.fixtures.len())
            .filter(|&f| cur[f] == usize::MAX)
            .collect();
        let teams_of = |fs: &[usize]| -> Vec<bool> {
            let mut t = vec![false; league.teams.len()];
            for &f in fs {
                t[cand.fixtures[f].a] = true;
                t[cand.fixtures[f].b] = true;
            }
            t
        };
        let touched = teams_of(&must);
        let divisions: Vec<usize> = must.iter().map(|&f| cand.fixtures[f].division).collect();
        let levels: [&dyn Fn(usize) -> bool; 3] = [
            &|f| cur[f] == usize::MAX,
            &|f| touched[cand.fixtures[f].a] || touched[cand.fixtures[f].b],
            &|f| divisions.contains(&cand.fixtures[f].division),
        ];
        for (level, frees) in levels.iter().enumerate() {
            if self.budget.left() <= 0.5 || self.opts.cancelled() {
                return Ok(None);
            }
            let free: Vec<bool> = (0..cand.fixtures.len())
                .map(|f| cur[f] == usize::MAX || frees(f))
                .collect();
            let Some((next, run)) = self.repair_run(&cur, &free, &teams_of)? else {
                continue;
            };
            let moved = (0..cand.fixtures.len())
                .filter(|&f| next[f] != cur[f])
                .count();
            let priced = Anneal::new(league, cand, &self.weights, &next).differing(steer);
            if moved != must.len() || !priced.valid() {
                continue;
            }
            self.say(|| {
                format!(
                    "repair: {moved} fixtures moved, each once (proven the fewest), freeing level {}, {:.2} s",
                    level + 1,
                    self.budget.elapsed()
                )
            });
            let repaired = self.ours(
                &next,
                RunStatus::Feasible,
                priced.objective(),
                f64::NEG_INFINITY,
                (run.columns, run.rows),
            );
            return Ok(Some(Found {
                first: repaired.clone(),
                best: Some(repaired),
                first_is_full: false,
            }));
        }
        Ok(None)
    }

    /// One level of a repair: the model with the `free` fixtures free and the others pinned to
    /// `cur`, solved to optimality; the new slot of every fixture, and the run.
    fn repair_run(
        &self,
        cur: &[usize],
        free: &[bool],
        teams_of: &dyn Fn(&[usize]) -> Vec<bool>,
    ) -> Result<Option<(Vec<usize>, Run)>, SolveError> {
        let cand = self.cand;
        let placeholder: Vec<usize> = cur
            .iter()
            .map(|&s| if s == usize::MAX { 0 } else { s })
            .collect();
        // The quality terms of the teams whose fixtures are free: the others' are constant.
        let freed: Vec<usize> = (0..cand.fixtures.len()).filter(|&f| free[f]).collect();
        let teams = teams_of(&freed);
        let spec = RunSpec {
            teams: Some(Focus {
                teams: &teams,
                spread_floor: 0.0,
            }),
            ..self.spec(&self.weights, self.budget.left().min(10.0))
        };
        let (run, map) = self.run_restricted(free, &placeholder, cur, spec)?;
        let (Some(ch), RunStatus::Optimal) = (&run.chosen, run.status) else {
            return Ok(None);
        };
        let mut next = cur.to_vec();
        for &s in ch {
            next[cand.slots[map[s]].fixture] = map[s];
        }
        Ok(Some((next, run)))
    }

    /// The model with the `free` fixtures free and the others pinned to their slots in
    /// `pinned`, started from `cur` and run by `spec`; the run, and each of its slots' index in
    /// `cand`.
    fn run_restricted(
        &self,
        free: &[bool],
        pinned: &[usize],
        cur: &[usize],
        spec: RunSpec<'_>,
    ) -> Result<(Run, Vec<usize>), SolveError> {
        let (sub, map) = self.cand.restricted(free, pinned);
        let start = warm_start(self.cand, &map, cur);
        let spec = RunSpec {
            start: Some(&start),
            ..spec
        };
        let run = run_once(self.league, &sub, self.opts, self.budget.started, &spec)?;
        Ok((run, map))
    }

    /// Phase 1: a valid schedule from the model of the rules alone, started from the current
    /// schedule (a rerun) or the Berger tables (compact divisions).
    fn first_valid(&self) -> Result<Run, SolveError> {
        let steer = &self.opts.steer;
        let start: Option<Vec<f64>> = if steer.rescheduling() {
            let here = |s: &Slot| matches!(steer.preferred.get(s.fixture), Some(Some(p)) if *p == (s.home, s.date));
            Some(
                self.cand
                    .slots
                    .iter()
                    .map(|s| f64::from(u8::from(here(s))))
                    .collect(),
            )
        } else if let Some(start) = berger_start(self.league, self.cand) {
            Some(start)
        } else if let Some(cur) = self.constructed() {
            // Valid by every rule the annealing checks, which are the model's: the search goes
            // on from it without the rules-only model, which on a dense league takes seconds.
            // (Its value is on no objective yet; the later phases price it.)
            self.say(|| format!("a constructed valid start, {:.1} s", self.budget.elapsed()));
            return Ok(Run {
                seed: self.seed,
                status: RunStatus::Feasible,
                objective: f64::NAN,
                bound: f64::NEG_INFINITY,
                seconds: self.budget.elapsed(),
                chosen: Some(cur),
                columns: 0,
                rows: 0,
            });
        } else {
            None
        };
        run_once(
            self.league,
            self.cand,
            self.opts,
            self.budget.started,
            &RunSpec {
                start: start.as_deref(),
                ..self.spec(&self.first_weights, self.budget.left())
            },
        )
    }

    /// A valid schedule placed fixture by fixture (`construct`), as the chosen slots; only when
    /// the first run would have nothing else to do: a full objective to improve on afterwards
    /// (the first run's own objective is then not needed) and no earlier drafts to differ from
    /// (the annealing alone does not keep that rule at the start).
    fn constructed(&self) -> Option<Vec<usize>> {
        if self.first_weights == self.weights || !self.opts.steer.differ_from.is_empty() {
            return None;
        }
        let cur = super::construct::greedy(self.league, self.cand, self.seed)?;
        let mut chosen = cur;
        chosen.sort_unstable();
        Some(chosen)
    }

    /// Phase 2: the full model from the valid schedule, briefly. Returns the run when it proved
    /// its optimum, else moves `cur` to what it found; and the full model's column count.
    /// Only for a small model (fewer than `Budget::SMALL_MODEL` columns, about 4,000 slots),
    /// which it may prove optimal at once; a larger one is not proven in seconds, and the
    /// annealing uses that time better. Skipped too when little time is left,
    /// and when the exact search follows, which proves such a league sooner.
    fn quick_full(&self, cur: &mut [usize]) -> Result<(Option<Run>, usize), SolveError> {
        let estimate = 5 * self.cand.slots.len();
        if estimate >= Budget::SMALL_MODEL || self.budget.quick() < 0.3 || self.exact_follows() {
            return Ok((None, estimate));
        }
        let start = self.start_of(cur);
        let quick = run_once(
            self.league,
            self.cand,
            self.opts,
            self.budget.started,
            &RunSpec {
                start: Some(&start),
                ..self.spec(&self.weights, self.budget.quick())
            },
        )?;
        let columns = quick.columns;
        if let Some(ch) = &quick.chosen {
            if quick.status == RunStatus::Optimal {
                return Ok((Some(quick), columns));
            }
            // Warm-started, so no worse than the valid schedule: go on from it.
            for &s in ch {
                cur[self.cand.slots[s].fixture] = s;
            }
        }
        Ok((None, columns))
    }

    /// The current schedule priced exactly on the whole objective (and the steer's terms).
    fn priced(&self, cur: &[usize]) -> Anneal<'a> {
        Anneal::new(self.league, self.cand, &self.weights, cur).differing(&self.opts.steer)
    }

    /// Whether this search runs the exact search after its annealing (`exact`): the first
    /// search, where the exact search applies (`exact_applies`).
    fn exact_follows(&self) -> bool {
        self.seed == self.opts.seed && exact_applies(self.league, self.cand, self.opts)
    }

    /// Phase 3b, for a league of a few teams (`exact::applies`), in the first search only: the
    /// exact search from the annealing's schedule, until `EXACT_END` of the limit. A proof is
    /// an optimal run (its bound its objective); a better schedule it finds becomes `cur`.
    /// `None` when it gave up in time, or does not apply (a rerun, or drafts kept apart).
    fn exact(&self, cur: &mut Vec<usize>, columns: usize) -> Option<Run> {
        if !self.exact_follows() || self.opts.cancelled() {
            return None;
        }
        let deadline = self.budget.started
            + std::time::Duration::from_secs_f64(self.opts.time_limit.max(0.0) * EXACT_END);
        let opts = self.opts;
        let proof = exact::prove(
            self.league,
            self.cand,
            &self.weights,
            cur,
            deadline,
            &|| opts.cancelled(),
        );
        // The proof's objective, or, when it gave up, what it found and the bound it proved.
        let outcome = match proof {
            exact::Proof::IncumbentOptimal => Ok(self.priced(cur).objective()),
            exact::Proof::Better(better, objective) => {
                *cur = better;
                Ok(objective)
            }
            exact::Proof::Improved(better, value, bound) => {
                *cur = better;
                Err((format!(" found a better schedule ({value:.2}) and"), bound))
            }
            exact::Proof::AtLeast(bound) => Err((String::new(), bound)),
        };
        let objective = match outcome {
            Ok(objective) => objective,
            Err((found, bound)) => {
                self.say(|| {
                    format!(
                        "the exact search{found} gave up, having proven a bound of {bound:.2}, {:.1} s",
                        self.budget.elapsed()
                    )
                });
                self.exact_bound.set(bound);
                return None;
            }
        };
        self.say(|| {
            format!(
                "the exact search proved {objective:.2} the least possible, {:.1} s",
                self.budget.elapsed()
            )
        });
        self.opts.tell(objective, objective, self.budget.elapsed());
        Some(Run {
            seed: self.seed,
            status: RunStatus::Optimal,
            objective,
            bound: objective,
            seconds: self.budget.elapsed(),
            chosen: Some(cur.clone()),
            columns,
            rows: 0,
        })
    }

    /// Phase 3: simulated annealing until its share of the time.
    fn anneal(&self, cur: &mut Vec<usize>) {
        let until = self.budget.anneal_until(self.exact_follows());
        if until - self.budget.elapsed() <= 0.2 {
            return;
        }
        let mut sa = self.priced(cur);
        let before = sa.objective();
        let (tried, taken) = sa.run(self.seed, self.budget.started, until, &|| {
            self.opts.cancelled()
        });
        if !sa.valid() {
            self.say(|| "annealing broke a rule; its schedule is dropped".into());
            return;
        }
        self.opts
            .tell(sa.objective(), f64::NEG_INFINITY, self.budget.elapsed());
        self.say(|| {
            format!(
                "annealing {before:.2} -> {:.2} ({taken} of {tried} moves taken), {:.1} s",
                sa.objective(),
                self.budget.elapsed()
            )
        });
        *cur = sa.cur;
    }

    /// Phase 4: fix-and-optimise until its share of the time; (moves tried, fixtures moved).
    fn fix_and_optimise(&self, cur: &mut Vec<usize>) -> Result<(u64, usize), SolveError> {
        let (league, cand, opts) = (self.league, self.cand, self.opts);
        let hoods = neighbourhoods(league, cand, cur);
        let mut now = self.priced(cur);
        let mut rng = Rng::new(self.seed);
        let until = self.budget.fix_until();
        let time_left = || until - self.budget.elapsed();
        let per_move = self.budget.per_move();
        // A move takes longer than HiGHS's share where restricting and pricing a large league
        // take a while (600 teams: 0.7 s for a 0.6 s move), and HiGHS may overrun its limit
        // (one move in 16 there took 3.1 s): no move starts with less time left than five
        // moves' share or the slowest so far took (four times that after the moves widen), so
        // the phase ends by its share.
        let mut slowest = 5.0 * per_move;
        let mut width = 1;
        let mut iteration = 0u64;
        let mut moved_total = 0usize;
        while time_left() > slowest && !hoods.is_empty() && !opts.cancelled() {
            let mut order: Vec<usize> = (0..hoods.len()).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i + 1));
            }
            let mut moved_in_round = 0usize;
            for k in 0..order.len() {
                if time_left() <= slowest || opts.cancelled() {
                    break;
                }
                let mut free = vec![false; cand.fixtures.len()];
                for j in 0..width.min(order.len()) {
                    for &f in &hoods[order[(k + j) % order.len()]] {
                        free[f] = true;
                    }
                }
                iteration += 1;
                let seed = self.seed.wrapping_add(iteration);
                let begun = Instant::now();
                let step = self.one_move(cur, &free, &now, seed, per_move)?;
                slowest = slowest.max(begun.elapsed().as_secs_f64());
                let Some((next, moved)) = step else {
                    continue;
                };
                *cur = next;
                now = self.priced(cur);
                moved_in_round += moved;
                moved_total += moved;
                self.say(|| {
                    format!(
                        "move {iteration}: {moved} of {} free fixtures moved, {:.1} s",
                        free.iter().filter(|f| **f).count(),
                        self.budget.elapsed()
                    )
                });
            }
            if moved_in_round == 0 {
                // Four times the fixtures free: a move may take up to four times as long (the
                // 600-team league's first wider move took 3.1 s, its narrower ones 0.7 s).
                slowest *= 4.0;
                width = (width * 4).min(hoods.len());
                if width == hoods.len() {
                    break; // the whole league at once is the final run's job
                }
            }
        }
        Ok((iteration, moved_total))
    }

    /// One fix-and-optimise move: the `free` fixtures re-optimised, the rest pinned. The new
    /// schedule and the fixtures moved, when the whole schedule's objective falls.
    fn one_move(
        &self,
        cur: &[usize],
        free: &[bool],
        now: &Anneal,
        seed: u64,
        seconds: f64,
    ) -> Result<Option<(Vec<usize>, usize)>, SolveError> {
        let (league, cand) = (self.league, self.cand);
        let mut touched = vec![false; league.teams.len()];
        for (f, fx) in cand.fixtures.iter().enumerate() {
            if free[f] {
                touched[fx.a] = true;
                touched[fx.b] = true;
            }
        }
        // The untouched teams' quality is a constant, but the worst spread may be theirs.
        let spread_floor = (0..league.teams.len())
            .filter(|&t| !touched[t])
            .map(|t| now.spreads()[t])
            .fold(0.0, f64::max);
        let spec = RunSpec {
            seed,
            max_nodes: Some(MOVE_NODES),
            teams: Some(Focus {
                teams: &touched,
                spread_floor,
            }),
            ..self.spec(&self.weights, seconds)
        };
        let (run, map) = self.run_restricted(free, cur, cur, spec)?;
        let Some(ch) = &run.chosen else {
            return Ok(None);
        };
        let mut next = cur.to_vec();
        let mut moved = 0;
        for &s in ch {
            let old = map[s];
            let f = cand.slots[old].fixture;
            if next[f] != old {
                next[f] = old;
                moved += 1;
            }
        }
        // A move counts only when the whole schedule is better, priced exactly (this also
        // guards against a warm start HiGHS refused).
        let after = self.priced(&next);
        if moved == 0 || !after.valid() || after.objective() >= now.objective() - 1e-6 {
            return Ok(None);
        }
        Ok(Some((next, moved)))
    }

    fn start_of(&self, cur: &[usize]) -> Vec<f64> {
        let mut start = vec![0.0; self.cand.slots.len()];
        for &s in cur {
            start[s] = 1.0;
        }
        start
    }

    /// Phase 5: the full model from the best schedule, in the time left; it gives the bound.
    /// The better of its schedule and ours, with its bound.
    fn final_run(
        &self,
        cur: &[usize],
        columns: usize,
        (iterations, moved): (u64, usize),
    ) -> Result<Run, SolveError> {
        let (league, cand, opts) = (self.league, self.cand, self.opts);
        let started = self.budget.started;
        // The value of our schedule on the full objective, priced exactly by the annealer (equal
        // to the model's to 1e-6, a unit test in `local` shows), without building the model.
        let priced = self.priced(cur);
        let cur_obj = if priced.valid() {
            priced.objective()
        } else {
            f64::INFINITY
        };
        // The final run only for a small model and when it can end within the limit (HiGHS
        // checks its clock only between phases). Cancelled, a large model, or too little time:
        // the schedule as it stands, with no bound of its own.
        let left = self.budget.left() - Budget::FINAL_MARGIN;
        if opts.cancelled() || !self.budget.final_run() || left < 1.0 {
            let why = match columns >= Budget::SMALL_MODEL {
                false => "no time for the final run",
                true => "no final run (a large model's bound comes from the teams' least costs)",
            };
            self.say(|| {
                format!(
                    "{iterations} moves moved {moved} fixtures; incumbent {cur_obj:.2}, {why}, {:.1} s",
                    self.budget.elapsed()
                )
            });
            return Ok(self.ours(
                cur,
                RunStatus::Feasible,
                cur_obj,
                f64::NEG_INFINITY,
                (columns, 0),
            ));
        }
        let start = self.start_of(cur);
        let full = run_once(
            league,
            cand,
            opts,
            started,
            &RunSpec {
                start: Some(&start),
                ..self.spec(&self.weights, left)
            },
        )?;
        let best = full.objective.min(cur_obj);
        opts.tell(best, full.bound, self.budget.elapsed());
        self.say(|| {
            let gap = if full.bound.is_finite() {
                format!("{:.1}%", relative_gap(best, full.bound) * 100.0)
            } else {
                "-".into()
            };
            format!(
                "{iterations} moves moved {moved} fixtures; incumbent {best:.2}, bound {:.2}, gap {gap}, {:.1} s",
                full.bound,
                self.budget.elapsed()
            )
        });
        if full.chosen.is_some() && full.objective <= cur_obj + 1e-6 {
            return Ok(full);
        }
        let status = match full.status {
            RunStatus::Optimal | RunStatus::Infeasible => RunStatus::Feasible,
            s => s,
        };
        Ok(self.ours(cur, status, cur_obj, full.bound, (full.columns, full.rows)))
    }

    /// A run that found schedule `cur` (with the model's size it came from).
    fn ours(
        &self,
        cur: &[usize],
        status: RunStatus,
        objective: f64,
        bound: f64,
        (columns, rows): (usize, usize),
    ) -> Run {
        Run {
            seed: self.seed,
            status,
            objective,
            bound,
            seconds: self.budget.elapsed(),
            chosen: Some(cur.to_vec()),
            columns,
            rows,
        }
    }
}

/// The start of a restricted model (`map`: its slots' indices in `cand`): each fixture in its
/// current slot `cur`.
fn warm_start(cand: &Candidates, map: &[usize], cur: &[usize]) -> Vec<f64> {
    map.iter()
        .map(|&s| f64::from(u8::from(cur[cand.slots[s].fixture] == s)))
        .collect()
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
