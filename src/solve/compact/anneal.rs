//! Simulated annealing over the timetable: random moves that keep it a double round robin,
//! priced by the terms they touch, hard deviations weighted by a weight that rises while the
//! timetable breaks a hard constraint and falls while it keeps them all.

use super::table::Table;
use super::terms::Terms;
use crate::solve::Rng;
use std::time::Instant;

/// The timetable with each term's value, each group's sum and deviation, and the totals.
pub(super) struct State<'a> {
    pub(super) terms: &'a Terms,
    pub(super) table: Table,
    value: Vec<i64>,
    sum: Vec<i64>,
    dev: Vec<i64>,
    /// Sum of hard deviations.
    pub(super) hard: i64,
    /// Sum of penalty-weighted soft deviations.
    pub(super) soft: i64,
    stamp: Vec<u32>,
    group_stamp: Vec<u32>,
    epoch: u32,
    /// (term, its value before the move) for the terms the last move changed.
    touched: Vec<(u32, i64)>,
    /// (group, its sum and deviation before the move) for the groups the last move changed.
    moved: Vec<(u32, i64, i64)>,
    /// Each hard group's weight in the search for a feasible timetable: 1, raised each time
    /// the search stalls while the group is broken.
    weight: Vec<f64>,
}

/// What a move changed: hard deviations, the soft objective, and hard deviations weighted.
#[derive(Clone, Copy)]
struct Delta {
    hard: i64,
    soft: i64,
    weighted: f64,
}

impl<'a> State<'a> {
    pub(super) fn new(terms: &'a Terms, table: Table) -> State<'a> {
        let mut s = State {
            terms,
            table,
            value: vec![0; terms.terms.len()],
            sum: vec![0; terms.groups.len()],
            dev: vec![0; terms.groups.len()],
            hard: 0,
            soft: 0,
            stamp: vec![0; terms.terms.len()],
            group_stamp: vec![0; terms.groups.len()],
            epoch: 0,
            touched: Vec::new(),
            moved: Vec::new(),
            weight: vec![1.0; terms.groups.len()],
        };
        s.recount();
        s
    }

    /// Every value, sum, deviation and total from scratch.
    fn recount(&mut self) {
        self.sum.iter_mut().for_each(|x| *x = 0);
        for (i, term) in self.terms.terms.iter().enumerate() {
            self.value[i] = term.value(&self.table);
            self.sum[term.group as usize] += self.value[i];
        }
        self.hard = 0;
        self.soft = 0;
        for (g, group) in self.terms.groups.iter().enumerate() {
            self.dev[g] = group.deviation(self.sum[g]);
            if group.hard {
                self.hard += self.dev[g];
            } else {
                self.soft += self.dev[g] * group.penalty;
            }
        }
    }

    /// Prices one term again, if not yet in this move.
    fn reprice(&mut self, i: u32) {
        if self.stamp[i as usize] == self.epoch {
            return;
        }
        self.stamp[i as usize] = self.epoch;
        let term = &self.terms.terms[i as usize];
        let now = term.value(&self.table);
        let was = self.value[i as usize];
        if now != was {
            self.touched.push((i, was));
            self.value[i as usize] = now;
            let g = term.group as usize;
            if self.group_stamp[g] != self.epoch {
                self.group_stamp[g] = self.epoch;
                self.moved.push((g as u32, self.sum[g], self.dev[g]));
            }
            self.sum[g] += now - was;
        }
    }

    /// Prices the cells the table logged since the last `settle`: (hard change, soft change).
    fn price(&mut self) -> Delta {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.group_stamp.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
        self.touched.clear();
        self.moved.clear();
        let terms = self.terms;
        let (n, rounds) = (terms.teams, self.table.rounds);
        for k in 0..self.table.log.len() {
            let (cell, was_opp, was_home) = self.table.log[k];
            let (opp, home) = (self.table.opp[cell], self.table.home[cell]);
            if (opp, home) == (was_opp, was_home) {
                continue;
            }
            for &i in &terms.by_cell[cell] {
                self.reprice(i);
            }
            if home != was_home {
                for &i in &terms.by_venue[cell] {
                    self.reprice(i);
                }
            }
            let t = cell / rounds;
            for o in [was_opp as usize, opp as usize] {
                for &i in &terms.by_pair[t * n + o] {
                    self.reprice(i);
                }
            }
        }
        let (mut dh, mut ds, mut dw) = (0, 0, 0.0);
        for &(g, _, was) in &self.moved {
            let group = &terms.groups[g as usize];
            let now = group.deviation(self.sum[g as usize]);
            self.dev[g as usize] = now;
            if group.hard {
                dh += now - was;
                dw += (now - was) as f64 * self.weight[g as usize];
            } else {
                ds += (now - was) * group.penalty;
            }
        }
        self.hard += dh;
        self.soft += ds;
        Delta {
            hard: dh,
            soft: ds,
            weighted: dw,
        }
    }

    /// Raises the weight of every broken hard group.
    fn stress(&mut self) {
        for (g, group) in self.terms.groups.iter().enumerate() {
            if group.hard && self.dev[g] > 0 {
                self.weight[g] += 1.0;
            }
        }
    }

    /// Keeps the last move.
    fn settle(&mut self) {
        self.table.log.clear();
    }

    /// Undoes the last move.
    fn revert(&mut self, d: Delta) {
        self.table.undo();
        for &(i, was) in &self.touched {
            self.value[i as usize] = was;
        }
        for &(g, sum, dev) in &self.moved {
            self.sum[g as usize] = sum;
            self.dev[g as usize] = dev;
        }
        self.hard -= d.hard;
        self.soft -= d.soft;
    }

    /// Replaces the timetable (a restart from the best found).
    pub(super) fn reset(&mut self, table: Table) {
        self.table = table;
        self.table.log.clear();
        self.recount();
    }
}

/// One random move; false when it changed nothing.
fn step(t: &mut Table, phased: bool, rng: &mut Rng) -> bool {
    let (n, rounds) = (t.teams, t.rounds);
    let team = |rng: &mut Rng| rng.below(n);
    // Two distinct rounds, in the same half when phased.
    let two_rounds = |rng: &mut Rng| {
        let span = if phased { rounds / 2 } else { rounds };
        let base = if phased && rng.below(2) == 1 { span } else { 0 };
        let a = rng.below(span);
        let b = (a + 1 + rng.below(span - 1)) % span;
        (base + a, base + b)
    };
    let (i, j) = (team(rng), team(rng));
    match rng.below(100) {
        0..=29 if i != j => t.swap_homes(i, j),
        30..=39 => {
            let (a, b) = two_rounds(rng);
            t.swap_rounds(a, b);
        }
        40..=44 if i != j => t.swap_teams(i, j),
        45..=74 => {
            let (a, b) = two_rounds(rng);
            t.partial_swap_rounds(i, a, b);
        }
        75..=99 if i != j => return t.partial_swap_teams(i, j, rng.below(rounds), phased),
        _ => return false,
    }
    true
}

/// A repair of a timetable (fix-and-optimise): a timetable breaking hard constraints no more,
/// or None.
pub(super) type Repair<'a> = dyn Fn(&Table, &mut Rng) -> Option<Table> + Sync + 'a;

/// Replaces the timetable by its repair when that breaks fewer hard constraints.
fn mend(s: &mut State<'_>, repair: &Repair, rng: &mut Rng) {
    let Some(mended) = repair(&s.table, rng) else {
        return;
    };
    let (was, hard) = (s.table.clone(), s.hard);
    s.reset(mended);
    if s.hard >= hard {
        s.reset(was);
    }
}

/// What one annealing run found.
pub(super) struct Run {
    pub(super) best: Table,
    pub(super) hard: i64,
    pub(super) soft: i64,
    /// Seconds from the start to the first timetable with no hard deviation.
    pub(super) first_feasible: Option<f64>,
    pub(super) steps: u64,
}

impl Run {
    /// Keeps the state's timetable when it is the best yet; true when it has fewer hard
    /// deviations than any before.
    fn keep(&mut self, s: &State<'_>, start: Instant) -> bool {
        if (s.hard, s.soft) >= (self.hard, self.soft) {
            return false;
        }
        let fewer = s.hard < self.hard;
        self.hard = s.hard;
        self.soft = s.soft;
        self.best = s.table.clone();
        if s.hard == 0 && self.first_feasible.is_none() {
            self.first_feasible = Some(start.elapsed().as_secs_f64());
        }
        fewer
    }
}

/// The bounds of a run: a deadline, and optionally a number of moves (for tests).
pub(super) struct Limits {
    pub(super) start: Instant,
    pub(super) seconds: f64,
    pub(super) steps: Option<u64>,
}

/// The mean worsening of a few hundred random moves under weights (hard, soft).
fn mean_worsening(s: &mut State<'_>, w: (f64, f64), phased: bool, rng: &mut Rng) -> f64 {
    let (mut sum, mut count) = (0.0, 0u32);
    for _ in 0..300 {
        if !step(&mut s.table, phased, rng) {
            continue;
        }
        let delta = s.price();
        let d = w.0 * delta.weighted + w.1 * delta.soft as f64;
        if d > 0.0 {
            sum += d;
            count += 1;
        }
        s.revert(delta);
    }
    if count == 0 {
        1.0
    } else {
        sum / count as f64
    }
}

/// A cooling schedule: from `hot` to `cold` geometrically over `length` moves, then again.
struct Cooling {
    hot: f64,
    factor: f64,
    length: u64,
    temp: f64,
    done: u64,
}

impl Cooling {
    fn new(hot: f64, cold: f64, length: u64) -> Cooling {
        Cooling {
            hot,
            factor: (cold / hot).powf(1.0 / length as f64),
            length,
            temp: hot,
            done: 0,
        }
    }
    /// The next temperature; true when a cycle has just ended.
    fn next(&mut self) -> bool {
        self.done += 1;
        self.temp *= self.factor;
        if self.done >= self.length {
            self.done = 0;
            self.temp = self.hot;
            return true;
        }
        false
    }
}

/// Moves between checks for a stalled search for a feasible timetable.
const STALL: u64 = 20_000;

/// Moves without fewer hard deviations after which the search for a feasible timetable
/// starts again from a new one.
const RESTART: u64 = 600_000;

/// The search for a feasible timetable: the hard deviations at the last check, and the move
/// at which they last fell below the best.
struct Stall {
    hard: i64,
    improved: u64,
}

impl Stall {
    /// Every `STALL` moves: when no better than at the last check, weights rise and a repair
    /// is tried; after `RESTART` moves without progress, a new start.
    fn check(
        &mut self,
        s: &mut State<'_>,
        run: &mut Run,
        repair: Option<&Repair>,
        rng: &mut Rng,
        start: Instant,
    ) {
        if s.hard >= self.hard {
            s.stress();
            if let Some(repair) = repair {
                mend(s, repair, rng);
                if run.keep(s, start) {
                    self.improved = run.steps;
                }
            }
        }
        self.hard = s.hard;
        if run.steps - self.improved > RESTART {
            // Stuck: a fresh timetable, and the weights forgotten.
            s.weight.iter_mut().for_each(|w| *w = 1.0);
            s.reset(Table::random(s.table.teams, rng));
            self.improved = run.steps;
        }
    }
}

/// Moves tried per cooling cycle.
const CYCLE: u64 = 200_000;

/// Anneals from `s` until the limits: first on the hard deviations alone (the soft objective
/// only breaking ties) until none is left, then on the soft objective with each hard deviation
/// weighted by a weight that rises while the timetable breaks a hard constraint and falls while
/// it keeps them all. Each cooling cycle after the first feasible timetable restarts from the best.
pub(super) fn anneal(
    s: &mut State<'_>,
    phased: bool,
    rng: &mut Rng,
    limits: &Limits,
    repair: Option<&Repair>,
) -> Run {
    let tie = 1e-3 / s.terms.mean_soft_penalty().max(1.0);
    let mut run = Run {
        best: s.table.clone(),
        hard: s.hard,
        soft: s.soft,
        first_feasible: (s.hard == 0).then_some(0.0),
        steps: 0,
    };
    let mut w = (1.0, tie);
    // Hard deviations count 1 each (times their weights): from accepting a worsening by
    // one about one time in seven to none (tuned on ITC2021 at 10 s; bench/results).
    let mut cooling = Cooling::new(0.5, 0.02, CYCLE);
    let mut soft_phase = false;
    let mut stall = Stall {
        hard: i64::MAX,
        improved: 0,
    };
    loop {
        if run.steps.is_multiple_of(256) {
            let out_of_time = limits.start.elapsed().as_secs_f64() >= limits.seconds;
            let perfect = run.hard == 0 && run.soft == 0;
            if perfect || out_of_time || limits.steps.is_some_and(|n| run.steps >= n) {
                return run;
            }
        }
        if !soft_phase && run.hard == 0 {
            // The soft phase: temperatures on the soft objective's scale.
            soft_phase = true;
            let d = mean_worsening(s, (0.0, 1.0), phased, rng).max(1.0);
            w = (d, 1.0);
            cooling = Cooling::new(d / 4.0, d / 4000.0, CYCLE);
        }
        run.steps += 1;
        if soft_phase && run.steps.is_multiple_of(100) {
            let d = cooling.hot * 4.0;
            w.0 = if s.hard > 0 {
                (w.0 * 1.02).min(100.0 * d)
            } else {
                (w.0 / 1.02).max(d / 4.0)
            };
        }
        if cooling.next() && soft_phase {
            let best = run.best.clone();
            s.reset(best);
        }
        if !step(&mut s.table, phased, rng) {
            continue;
        }
        let delta = s.price();
        let hard = if soft_phase {
            delta.hard as f64
        } else {
            delta.weighted
        };
        let d = w.0 * hard + w.1 * delta.soft as f64;
        if d <= 0.0 || rng.unit() < (-d / cooling.temp).exp() {
            s.settle();
            if run.keep(s, limits.start) {
                stall.improved = run.steps;
            }
        } else {
            s.revert(delta);
        }
        if !soft_phase && run.steps.is_multiple_of(STALL) {
            stall.check(s, &mut run, repair, rng, limits.start);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::robinx::read_instance;

    /// The search's incremental counts agree with the independent checker after every kind of
    /// move, kept or undone, phased and not.
    #[test]
    fn incremental_pricing_agrees_with_the_checker() {
        let xml = include_str!("../../../crates/check/tests/itc2021/ITC2021_Early_1.xml");
        for phased in [true, false] {
            let mut inst = read_instance(xml).unwrap();
            inst.phased = phased;
            let terms = Terms::new(&inst);
            let mut rng = Rng::new(11);
            let mut s = State::new(&terms, Table::random(inst.teams, &mut rng));
            for k in 0..3000 {
                if !step(&mut s.table, phased, &mut rng) {
                    continue;
                }
                let d = s.price();
                if rng.below(2) == 0 {
                    s.settle();
                } else {
                    s.revert(d);
                }
                if k % 100 == 0 {
                    s.stress();
                    let score = fixtures_check::robinx::score(&inst, &s.table.games());
                    assert_eq!((s.hard, s.soft), (score.hard, score.objective), "move {k}");
                }
            }
        }
    }

    /// A bounded search on a small generated instance finds a timetable the checker accepts.
    #[test]
    fn a_bounded_search_solves_a_small_instance() {
        let xml = include_str!("../../../crates/check/tests/itc2021/Addition_000_Tiny.xml");
        let inst = read_instance(xml).unwrap();
        let terms = Terms::new(&inst);
        let mut rng = Rng::new(1);
        let mut s = State::new(&terms, Table::random(inst.teams, &mut rng));
        let limits = Limits {
            start: Instant::now(),
            seconds: f64::INFINITY,
            steps: Some(200_000),
        };
        let run = anneal(&mut s, inst.phased, &mut rng, &limits, None);
        let score = fixtures_check::robinx::score(&inst, &run.best.games());
        assert_eq!((run.hard, run.soft), (score.hard, score.objective));
        assert_eq!(run.hard, 0, "{:?}", score.by_type);
    }
}
