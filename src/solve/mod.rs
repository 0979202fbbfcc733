//! The HiGHS backend: builds the model, runs one search per random seed in parallel on rayon
//! (`search`: first valid schedule, annealing, fix-and-optimise, final bounded run), and keeps
//! the best valid result.
//!
//! The outcome of a solve (`Optimal`, `Feasible`, `Infeasible`, `TimedOut`) is kept apart
//! from errors (`SolveError`), which mean the solver itself failed. Figures never claim more
//! than was proven: "optimal" only where the bound shows the gap within `Options::gap`, and a
//! bound above the schedule's objective is an error, never capped.

use crate::formulate::{self, precheck, Candidates};
use crate::model::{FixtureList, League, Match, Rerun, TeamId, Weights};
use chrono::NaiveDate;
use good_lp::{solvers::highs::highs as highs_backend, SolverModel};
use rayon::prelude::*;
use std::time::Instant;

pub mod compact;
mod construct;
mod exact;
mod explain;
mod local;
mod search;

pub use crate::model::sort_matches;
pub use explain::{explain, Explanation, Relaxation};

/// A small deterministic random number generator (PCG-style LCG), so a seed gives one answer.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        let mut r = Rng(seed ^ 0x9E37_79B9_7F4A_7C15);
        r.next();
        r
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let x = self.0;
        (x ^ (x >> 22)) >> 11
    }

    /// Uniform in 0..n (n > 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Uniform in [0, 1).
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next() >> 1) as f64 / (1u64 << 52) as f64
    }
}

/// What the search needs: its time, seeds, threads, target gap, weights and reporting.
#[derive(Debug, Clone)]
pub struct Options {
    /// Seconds for the whole solve.
    pub time_limit: f64,
    /// The seed of the first search; search i has seed `seed + i`.
    pub seed: u64,
    /// Parallel searches (one HiGHS thread each).
    pub threads: usize,
    /// Relative MIP gap at which a run stops, and within which a schedule is called optimal.
    pub gap: f64,
    /// Replaces the league file's weights.
    pub weights: Option<Weights>,
    /// Print a progress line (incumbent, bound, gap, elapsed) on stderr as the solve improves.
    pub progress: bool,
    /// Told of each improvement (incumbent, best bound so far, seconds), e.g. by the service.
    pub on_progress: Option<ProgressSink>,
    /// Set to stop early (the service's cancel): the search ends at its next check, within a
    /// second or so.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// What a draft or a rerun adds to the plain solve.
    pub steer: Steer,
}

/// What a draft or a rerun adds to a solve: schedules to keep apart from, a current schedule
/// to stay close to, and the rerun's state.
#[derive(Debug, Clone)]
pub struct Steer {
    /// Earlier drafts, each as the date of every fixture (in the order of
    /// `League::fixtures`): the schedule puts at most `max_same` of its fixtures on the same
    /// date as each of them.
    pub differ_from: Vec<Vec<NaiveDate>>,
    /// Share of fixtures that may keep an earlier draft's date.
    pub max_same: f64,
    /// Rescheduling: each fixture's current (home team, date), in the order of
    /// `League::fixtures`; empty, or `None` for a fixture with no current slot. Leaving it
    /// costs `move_cost`, plus `day_cost` per day it moves; the solve starts from it.
    pub preferred: Vec<Option<(TeamId, NaiveDate)>>,
    /// The cost of moving a fixture from its current slot.
    pub move_cost: f64,
    /// The cost of each day a fixture moves.
    pub day_cost: f64,
    /// Rescheduling: the first movable date and the scratched fixtures.
    pub rerun: Rerun,
}

impl Default for Steer {
    fn default() -> Self {
        Steer {
            differ_from: Vec::new(),
            max_same: 0.7,
            preferred: Vec::new(),
            move_cost: 10_000.0,
            day_cost: 10.0,
            rerun: Rerun::default(),
        }
    }
}

impl Steer {
    /// Whether this solve stays close to a current schedule (a rerun).
    pub(crate) fn rescheduling(&self) -> bool {
        !self.preferred.is_empty()
    }

    /// The cost of putting fixture `f` in `slot` (rescheduling: 0 where it is now).
    pub(crate) fn slot_cost(&self, f: usize, home: TeamId, date: NaiveDate) -> f64 {
        match self.preferred.get(f) {
            Some(Some((h, d))) if (*h, *d) == (home, date) => 0.0,
            Some(Some((_, d))) => {
                self.move_cost + self.day_cost * (date - *d).num_days().abs() as f64
            }
            _ => 0.0,
        }
    }

    /// Whether every fixture with a current slot is in it.
    pub(crate) fn unmoved(&self, cand: &Candidates, chosen: &[usize]) -> bool {
        chosen.iter().all(|&s| {
            let slot = cand.slots[s];
            self.slot_cost(slot.fixture, slot.home, slot.date) == 0.0
        })
    }

    /// Fixtures that may keep an earlier draft's date, out of `fixtures`.
    pub(crate) fn max_same_count(&self, fixtures: usize) -> usize {
        (self.max_same.clamp(0.0, 1.0) * fixtures as f64).floor() as usize
    }
}

/// A callback for progress: (incumbent objective, bound or -inf, seconds since the start).
#[derive(Clone)]
pub struct ProgressSink(pub std::sync::Arc<dyn Fn(f64, f64, f64) + Send + Sync>);

impl std::fmt::Debug for ProgressSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressSink")
    }
}

impl Options {
    /// Whether `cancel` is set.
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// Passes an improvement to `on_progress`, if any.
    pub(crate) fn tell(&self, incumbent: f64, bound: f64, seconds: f64) {
        if let Some(sink) = &self.on_progress {
            (sink.0)(incumbent, bound, seconds);
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            time_limit: 60.0,
            seed: 0,
            threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            gap: 1e-4,
            weights: None,
            progress: false,
            on_progress: None,
            cancel: None,
            steer: Steer::default(),
        }
    }
}

/// How a solve ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Proven within `gap_limit` (the `--gap` asked for) of the best possible: the bound shows
    /// it. With `gap_limit` 0 it is proven best.
    Optimal {
        /// The relative gap the solve was asked to prove.
        gap_limit: f64,
    },
    /// Valid; `gap` is the proven relative gap to the bound (infinite without a bound).
    Feasible {
        /// The relative gap between the schedule's objective and the bound.
        gap: f64,
    },
    /// No valid schedule exists; the reasons, in plain words.
    Infeasible(Vec<String>),
    /// The time limit passed with no valid schedule.
    TimedOut,
}

impl Outcome {
    /// The outcome in words: "optimal", "optimal within 5%", "feasible, gap 12.30%", ...
    pub fn describe(&self) -> String {
        match self {
            Outcome::Optimal { gap_limit } if *gap_limit <= 0.0 => "optimal".into(),
            Outcome::Optimal { gap_limit } => {
                format!("optimal within {}%", percent(*gap_limit))
            }
            Outcome::Feasible { gap } if gap.is_finite() => {
                format!("feasible, gap {:.2}%", gap * 100.0)
            }
            Outcome::Feasible { .. } => "feasible, no bound proven".into(),
            Outcome::Infeasible(_) => "infeasible".into(),
            Outcome::TimedOut => "timed out".into(),
        }
    }

    /// One word for scripts: optimal (proven, gap 0), optimal-within (within `--gap` > 0),
    /// feasible, infeasible or timed-out.
    pub fn key(&self) -> &'static str {
        match self {
            Outcome::Optimal { gap_limit } if *gap_limit <= 0.0 => "optimal",
            Outcome::Optimal { .. } => "optimal-within",
            Outcome::Feasible { .. } => "feasible",
            Outcome::Infeasible(_) => "infeasible",
            Outcome::TimedOut => "timed-out",
        }
    }
}

/// A share as a percentage with no more digits than it needs: 5, 0.01, 12.5.
fn percent(share: f64) -> String {
    let s = format!("{:.4}", share * 100.0);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// What a solve returns: its outcome, the best schedule and the figures behind them.
#[derive(Debug, Clone)]
pub struct Solved {
    /// How it ended.
    pub outcome: Outcome,
    /// The best valid schedule, if any (not yet verified: the pipeline does that).
    pub schedule: Option<FixtureList>,
    /// The schedule's objective (None when no run of the full objective valued it).
    pub objective: Option<f64>,
    /// The best proven lower bound on the objective.
    pub bound: Option<f64>,
    /// Seconds the solve took.
    pub seconds: f64,
    /// Seconds until the first run returned a valid schedule.
    pub first_valid_seconds: Option<f64>,
    /// HiGHS runs that decided the result.
    pub runs: usize,
    /// Columns of the last model solved.
    pub columns: usize,
    /// Rows of the last model solved.
    pub rows: usize,
    /// When infeasible: the fewest relaxations of the rules that would make a schedule possible.
    pub relaxations: Vec<Relaxation>,
    /// Whether `relaxations` were proven the fewest (else: the best found in time).
    pub relaxations_proven: bool,
}

impl Solved {
    fn nothing(outcome: Outcome, seconds: f64) -> Solved {
        Solved {
            outcome,
            schedule: None,
            objective: None,
            bound: None,
            seconds,
            first_valid_seconds: None,
            runs: 0,
            columns: 0,
            rows: 0,
            relaxations: Vec::new(),
            relaxations_proven: false,
        }
    }
}

/// The solver itself failed; not an answer about the league.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// HiGHS or the thread pool failed.
    #[error("the solver failed: {0}")]
    Backend(String),
    /// A proven lower bound above a valid schedule's objective: a bug, never reported as a gap.
    #[error("internal error: the solver's bound {bound} is above the objective {objective} of its own schedule (please report it)")]
    BoundAboveObjective {
        /// The bound HiGHS reported.
        bound: f64,
        /// The objective of the best schedule.
        objective: f64,
    },
}

/// What one HiGHS run returned.
#[derive(Clone)]
pub(crate) struct Run {
    pub(crate) seed: u64,
    pub(crate) status: RunStatus,
    pub(crate) objective: f64,
    pub(crate) bound: f64,
    pub(crate) seconds: f64,
    pub(crate) chosen: Option<Vec<usize>>,
    pub(crate) columns: usize,
    pub(crate) rows: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RunStatus {
    Optimal,
    Feasible,
    Infeasible,
    NoSolution,
}

/// Test hook: with `FIXTURES_TEST_FAULT=bound-above-objective` in the environment the best
/// bound is raised above the objective, to show that such a bound is reported as an internal
/// error (exit 4), never capped. Nothing else reads this variable.
fn injected_bound_fault() -> bool {
    std::env::var("FIXTURES_TEST_FAULT").is_ok_and(|v| v == "bound-above-objective")
}

/// Solves a league: pre-checks, then one search per seed in parallel, then the honest outcome.
pub fn solve(league: &League, opts: &Options) -> Result<Solved, SolveError> {
    let started = Instant::now();
    let cand = formulate::candidates(league, &opts.steer.rerun);
    let impossible = precheck::impossible(league, &cand);
    if !impossible.is_empty() {
        return Ok(Solved::nothing(
            Outcome::Infeasible(impossible),
            started.elapsed().as_secs_f64(),
        ));
    }
    if opts.progress {
        eprintln!(
            "progress: {} fixtures, {} candidate slots",
            cand.fixtures.len(),
            cand.slots.len()
        );
    }
    let threads = opts.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SolveError::Backend(e.to_string()))?;
    // A league the exact search takes has one search, whose exact search uses every thread.
    let searches = match search::exact_applies(league, &cand, opts) {
        true => 1,
        false => threads as u64,
    };
    let seeds: Vec<u64> = (0..searches).map(|i| opts.seed.wrapping_add(i)).collect();
    let results: Vec<Result<search::Found, SolveError>> = pool.install(|| {
        seeds
            .par_iter()
            .map(|&seed| search::Search::new(league, &cand, opts, seed, started).run())
            .collect()
    });
    let mut found = Vec::new();
    for r in results {
        found.push(r?);
    }
    conclude(league, &cand, opts, started, found)
}

/// The best schedule of the searches, with an outcome that claims no more than was proven.
fn conclude(
    league: &League,
    cand: &Candidates,
    opts: &Options,
    started: Instant,
    found: Vec<search::Found>,
) -> Result<Solved, SolveError> {
    let firsts: Vec<&Run> = found.iter().map(|f| &f.first).collect();
    let bests: Vec<&Run> = found.iter().filter_map(|f| f.best.as_ref()).collect();
    let base = base_of(&firsts, &bests, started);
    // The runs of the full objective decide; where the first run already used it (no quality
    // weights), it is one of them.
    let full_objective = found.iter().all(|f| f.first_is_full);
    let runs: &[&Run] = if bests.iter().any(|r| r.chosen.is_some()) {
        &bests
    } else if full_objective {
        &firsts
    } else {
        &[]
    };
    let best = runs.iter().filter(|r| r.chosen.is_some()).min_by(|a, b| {
        a.objective
            .total_cmp(&b.objective)
            .then(a.seed.cmp(&b.seed))
    });
    if let Some(best) = best {
        let schedule = schedule_of(cand, best.chosen.as_deref().unwrap_or(&[]), league);
        let bound = best_bound(league, cand, opts, started, runs, best.objective);
        // Tolerances of HiGHS's own: a bound a hair above is rounding, more is a bug.
        let tolerance = 1e-6 * best.objective.abs().max(1.0);
        if let Some(b) = bound.filter(|b| *b > best.objective + tolerance) {
            return Err(SolveError::BoundAboveObjective {
                bound: b,
                objective: best.objective,
            });
        }
        let gap = bound.map_or(f64::INFINITY, |b| relative_gap(best.objective, b));
        let outcome = if gap <= opts.gap {
            Outcome::Optimal {
                gap_limit: opts.gap,
            }
        } else {
            Outcome::Feasible { gap }
        };
        return Ok(Solved {
            outcome,
            schedule: Some(schedule),
            objective: Some(best.objective),
            bound,
            // The whole solve, the teams' least costs included.
            seconds: started.elapsed().as_secs_f64(),
            ..base
        });
    }
    if let Some(first) = firsts.iter().find(|r| r.chosen.is_some()) {
        // Valid, but no run of the full objective valued a schedule in time: no bound, no
        // objective to report.
        return Ok(Solved {
            outcome: Outcome::Feasible { gap: f64::INFINITY },
            schedule: Some(schedule_of(
                cand,
                first.chosen.as_deref().unwrap_or(&[]),
                league,
            )),
            ..base
        });
    }
    if firsts.iter().any(|r| r.status == RunStatus::Infeasible) {
        return infeasible(league, opts, started, base);
    }
    Ok(base)
}

/// What every outcome reports of the searches: their runs, the model's size, when the first
/// valid schedule came.
fn base_of(firsts: &[&Run], bests: &[&Run], started: Instant) -> Solved {
    let first_valid_seconds = firsts
        .iter()
        .filter(|r| r.chosen.is_some())
        .map(|r| r.seconds)
        .min_by(f64::total_cmp);
    let last = firsts.iter().chain(bests).last();
    let (columns, rows) = last.map_or((0, 0), |r| (r.columns, r.rows));
    Solved {
        first_valid_seconds,
        runs: firsts.len() + bests.len(),
        columns,
        rows,
        ..Solved::nothing(Outcome::TimedOut, started.elapsed().as_secs_f64())
    }
}

/// The highest bound on the objective: the searches' own, and the teams' least costs
/// (`team_bound`) in what is left of the time.
fn best_bound(
    league: &League,
    cand: &Candidates,
    opts: &Options,
    started: Instant,
    runs: &[&Run],
    objective: f64,
) -> Option<f64> {
    // The searches' bounds, and the teams' least costs (`team_bound`), whichever is higher.
    let weights = opts.weights.unwrap_or(league.weights);
    // In what is left of the time limit, at most `BOUND_SHARE` of it; none after a proof or
    // for a rerun, which must stay quick (the plain sum of least costs takes no time).
    let proven = runs.iter().any(|r| r.status == RunStatus::Optimal);
    let share = if proven || opts.steer.rescheduling() {
        0.0
    } else {
        opts.time_limit.max(0.0) * search::BOUND_SHARE
    };
    let deadline = (started + std::time::Duration::from_secs_f64(opts.time_limit.max(0.0)))
        .min(Instant::now() + std::time::Duration::from_secs_f64(share));
    let teams_least =
        formulate::team_bound::coupled_bound(league, cand, &weights, objective, deadline)
            .inspect(|b| {
                if opts.progress {
                    eprintln!(
                        "progress: the teams' least costs, with the days their groups share, bound the objective at {b:.2}"
                    );
                }
            });
    let bound = runs
        .iter()
        .map(|r| r.bound)
        .chain(teams_least)
        .filter(|b| b.is_finite())
        .max_by(f64::total_cmp);
    if injected_bound_fault() {
        return Some(objective + 1.0);
    }
    bound
}

/// No schedule satisfies the rules: why, from the elastic model.
fn infeasible(
    league: &League,
    opts: &Options,
    started: Instant,
    base: Solved,
) -> Result<Solved, SolveError> {
    let left = (opts.time_limit - started.elapsed().as_secs_f64()).clamp(5.0, 30.0);
    let explanation = explain(league, &opts.steer.rerun, opts, left)?;
    let (relaxations, proven) =
        explanation.map_or((Vec::new(), false), |e| (e.relaxations, e.proven_smallest));
    let mut reasons = vec![if relaxations.is_empty() {
        "no schedule satisfies all the rules together (every fixture has possible dates and \
         every team has enough of them, but not all at once)"
            .to_string()
    } else if proven {
        "no schedule satisfies all the rules together; one would exist if all of these were \
         allowed (proven the fewest relaxations):"
            .to_string()
    } else {
        "no schedule satisfies all the rules together; one would exist if all of these were \
         allowed (the fewest relaxations the solver found in time, not proven the fewest):"
            .to_string()
    }];
    reasons.extend(relaxations.iter().map(|r| r.message.clone()));
    Ok(Solved {
        outcome: Outcome::Infeasible(reasons),
        relaxations,
        relaxations_proven: proven,
        ..base
    })
}

/// HiGHS's relative gap: |obj - bound| / max(|obj|, 1e-6)... but 0 when both are 0.
pub fn relative_gap(objective: f64, bound: f64) -> f64 {
    let diff = (objective - bound).abs();
    if diff <= 1e-9 {
        0.0
    } else {
        diff / objective.abs().max(1e-6)
    }
}

/// What one HiGHS run solves, and how long it may take.
pub(crate) struct RunSpec<'a> {
    pub weights: &'a Weights,
    pub seed: u64,
    pub time_limit: f64,
    /// Branch-and-bound nodes at most.
    pub max_nodes: Option<i32>,
    /// Values of the first columns to start from.
    pub start: Option<&'a [f64]>,
    /// Quality terms for these teams only.
    pub teams: Option<formulate::Focus<'a>>,
}

pub(crate) fn run_once(
    league: &League,
    cand: &Candidates,
    opts: &Options,
    started: Instant,
    spec: &RunSpec,
) -> Result<Run, SolveError> {
    let begun = Instant::now();
    let mut mip = formulate::build_for(league, cand, spec.weights, spec.teams);
    let steer = &opts.steer;
    let max_same = steer.max_same_count(cand.fixtures.len());
    for earlier in &steer.differ_from {
        formulate::rules::differ_from(cand, &mut mip, earlier, max_same);
    }
    if steer.rescheduling() {
        for (s, slot) in cand.slots.iter().enumerate() {
            let c = steer.slot_cost(slot.fixture, slot.home, slot.date);
            if c > 0.0 {
                mip.objective += c * mip.x[s];
            }
        }
    }
    // Twin teams' mirrored schedules, one of each pair kept: only in the whole model, with
    // nothing that tells the twins apart (an earlier draft, a rerun's costs). The start, if it
    // is the mirror of the kept one, is mirrored too.
    let mirrored;
    let mut spec = RunSpec { ..*spec };
    if spec.teams.is_none() && steer.differ_from.is_empty() && !steer.rescheduling() {
        let twins = formulate::symmetry::twins(league, cand);
        for twin in &twins {
            twin.add_row(cand, &mut mip);
        }
        if let (false, Some(start)) = (twins.is_empty(), spec.start) {
            let mut chosen: Vec<usize> = (0..cand.slots.len().min(start.len()))
                .filter(|&s| start[s] > 0.5)
                .collect();
            for twin in &twins {
                if !twin.keeps(cand, &chosen) {
                    chosen = chosen.iter().map(|&s| twin.image[s]).collect();
                }
            }
            let mut cols = vec![0.0; cand.slots.len()];
            for s in chosen {
                cols[s] = 1.0;
            }
            mirrored = cols;
            spec.start = Some(&mirrored);
        }
    }
    run_mip(mip, opts, started, begun, &spec).map(|r| r.0)
}

/// Solves a built model with HiGHS; the run and, when it has a solution, every column's value.
/// `spec.time_limit` counts from `begun`, when the caller began building the model: HiGHS
/// gets what is left of it once the model is handed over (a large league's model takes a
/// second or two to build, which HiGHS's own clock does not see).
pub(crate) fn run_mip(
    mip: formulate::Mip,
    opts: &Options,
    started: Instant,
    begun: Instant,
    spec: &RunSpec,
) -> Result<(Run, Option<Vec<f64>>), SolveError> {
    let seed = spec.seed;
    let columns = mip.vars.len();
    let rows = mip.constraints.len();
    let x_len = mip.x.len();
    let mut problem = mip.vars.minimise(mip.objective).using(highs_backend);
    for c in mip.constraints {
        problem.add_constraint(c);
    }
    let mut model = problem
        .try_into_inner()
        .map_err(|e| SolveError::Backend(e.to_string()))?;
    model.make_quiet();
    set_option(&mut model, "threads", 1)?;
    set_option(&mut model, "random_seed", (seed % (i32::MAX as u64)) as i32)?;
    let left = spec.time_limit - begun.elapsed().as_secs_f64();
    set_option(&mut model, "time_limit", left.max(0.1))?;
    set_option(&mut model, "mip_rel_gap", opts.gap)?;
    if let Some(n) = spec.max_nodes {
        // A move: small model, warm start; restarts and heavy heuristics cost more than they find.
        set_option(&mut model, "mip_max_nodes", n)?;
        set_option(&mut model, "mip_allow_restart", false)?;
        set_option(&mut model, "mip_heuristic_effort", 0.01)?;
    }
    if let Some(start) = spec.start {
        let mut cols = start.to_vec();
        cols.resize(columns, 0.0);
        // A hint only: if HiGHS refuses it, the solve goes on without it.
        let _ = model.try_set_solution(Some(&cols), None, None, None);
    }
    let solved = model
        .try_solve()
        .map_err(|e| SolveError::Backend(format!("HiGHS could not solve: {e:?}")))?;
    let seconds = started.elapsed().as_secs_f64();
    use highs::HighsModelStatus as S;
    // HiGHS's kSolutionStatusFeasible is 2. Read as a number: when a run stops before it has
    // any solution information (a time limit during presolve), HiGHS reports -1, which
    // `primal_solution_status()` of the bindings cannot convert and panics on.
    let has_solution = solved
        .int_info_value(c"primal_solution_status")
        .is_ok_and(|v| v == 2);
    let status = match solved.status() {
        S::Optimal => RunStatus::Optimal,
        S::Infeasible | S::UnboundedOrInfeasible => RunStatus::Infeasible,
        _ if has_solution => RunStatus::Feasible,
        _ => RunStatus::NoSolution,
    };
    let bound = solved
        .double_info_value(c"mip_dual_bound")
        .unwrap_or(f64::NEG_INFINITY);
    let objective = solved.objective_value();
    let values = (has_solution && status != RunStatus::Infeasible)
        .then(|| solved.get_solution().columns().to_vec());
    // The slot variables are the model's first columns, in slot order (`Mip::new`).
    let chosen = values
        .as_ref()
        .map(|cols| (0..x_len).filter(|&s| cols[s] > 0.5).collect());
    let run = Run {
        seed,
        status,
        objective,
        bound,
        seconds,
        chosen,
        columns,
        rows,
    };
    Ok((run, values))
}

fn set_option<V: highs::HighsOptionValue>(
    model: &mut highs::Model,
    name: &str,
    value: V,
) -> Result<(), SolveError> {
    model
        .try_set_option(name, value)
        .map_err(|e| SolveError::Backend(format!("HiGHS option {name}: {e:?}")))
}

fn schedule_of(cand: &Candidates, chosen: &[usize], league: &League) -> FixtureList {
    let matches: Vec<Match> = chosen
        .iter()
        .map(|&s| {
            let slot = cand.slots[s];
            Match {
                date: slot.date,
                division: league.teams[slot.home].division,
                home: slot.home,
                away: slot.away,
            }
        })
        .collect();
    FixtureList::new(matches, league)
}

/// A start for compact divisions: the FIDE Berger table (team i of the division is player
/// i + 1, White at home, round r on the r-th round date), which has the fewest breaks; `None`
/// when the league has no compact division. Slots the rules rule out are left out.
pub(crate) fn berger_start(league: &League, cand: &Candidates) -> Option<Vec<f64>> {
    let mut start = vec![0.0; cand.slots.len()];
    let mut any = false;
    for div in &league.divisions {
        let Some(rounds) = &div.rounds else { continue };
        let n = div.teams.len();
        let table = crate::competitions::berger::table(n);
        if div.format != crate::model::Format::Single || rounds.len() < table.len() {
            continue;
        }
        for (r, round) in table.iter().enumerate() {
            for &(w, b) in round {
                let (Some(&h), Some(&a)) = (div.teams.get(w - 1), div.teams.get(b - 1)) else {
                    continue; // the bye
                };
                let slot = cand.by_team[h].iter().copied().find(|&s| {
                    let x = cand.slots[s];
                    x.home == h && x.away == a && x.date == rounds[r]
                });
                if let Some(s) = slot {
                    start[s] = 1.0;
                    any = true;
                }
            }
        }
    }
    any.then_some(start)
}

/// The date of each fixture (in the order of `League::fixtures`) in a schedule of the league.
pub fn fixture_dates(league: &League, schedule: &FixtureList) -> Vec<NaiveDate> {
    let fixtures = league.fixtures();
    let mut index = std::collections::HashMap::new();
    for (i, f) in fixtures.iter().enumerate() {
        if f.home_fixed {
            index.insert((f.a, f.b), i);
        } else {
            index.insert((f.a.min(f.b), f.a.max(f.b)), i);
        }
    }
    let mut dates = vec![league.start; fixtures.len()];
    for m in &schedule.matches {
        let i = index
            .get(&(m.home, m.away))
            .or_else(|| index.get(&(m.home.min(m.away), m.home.max(m.away))));
        if let Some(&i) = i {
            dates[i] = m.date;
        }
    }
    dates
}

/// Share of fixtures on different dates in two drafts (dates by fixture, as `fixture_dates`).
pub fn date_difference(a: &[NaiveDate], b: &[NaiveDate]) -> f64 {
    if a.is_empty() {
        return 0.0;
    }
    a.iter().zip(b).filter(|(x, y)| x != y).count() as f64 / a.len() as f64
}

/// `k` drafts, each as good as the solver makes it in `time_limit / k` seconds and each with at
/// least `1 - max_same` of its fixtures on other dates than every earlier draft. Stops early
/// when a draft cannot be found (the last entry then has no schedule, and its outcome says
/// why) or when cancelled.
pub fn alternatives(league: &League, opts: &Options, k: usize) -> Result<Vec<Solved>, SolveError> {
    let k = k.max(1);
    let mut out: Vec<Solved> = Vec::new();
    let mut earlier: Vec<Vec<NaiveDate>> = Vec::new();
    for i in 0..k {
        if opts.cancelled() {
            break;
        }
        let o = Options {
            time_limit: opts.time_limit / k as f64,
            seed: opts.seed.wrapping_add(1000 * i as u64),
            steer: Steer {
                differ_from: earlier.clone(),
                ..opts.steer.clone()
            },
            ..opts.clone()
        };
        let solved = solve(league, &o)?;
        let Some(schedule) = &solved.schedule else {
            out.push(solved);
            break;
        };
        earlier.push(fixture_dates(league, schedule));
        out.push(solved);
    }
    Ok(out)
}
