//! The instance's hard constraints as an integer program for HiGHS: one binary per game
//! (home, away, slot). It finds a first feasible timetable for the small instances, where
//! the annealing's moves wander (the generated instances whose every constraint is hard), and
//! repairs a timetable: every game outside a few rounds fixed, the hard constraints elastic,
//! their total deviation minimised (fix-and-optimise).

use super::terms::ids;
use crate::model::robinx::{Constraint, Games, Instance};
use good_lp::{
    solvers::highs::highs, variable, Expression, ProblemVariables, SolverModel, Variable,
};

/// A game's variable, or its value fixed by a repair.
#[derive(Clone, Copy)]
enum Cell {
    Free(Variable),
    Fixed(bool),
}

/// x[(h * n + a) * slots + s]: h hosts a in slot s.
struct Vars {
    n: usize,
    slots: usize,
    x: Vec<Cell>,
}

impl Vars {
    fn x(&self, h: usize, a: usize, s: usize) -> Expression {
        match self.x[(h * self.n + a) * self.slots + s] {
            Cell::Free(v) => Expression::from(v),
            Cell::Fixed(b) => Expression::from(if b { 1.0 } else { 0.0 }),
        }
    }
    /// Whether t plays on `side` (H, A or either) in slot s against o.
    fn plays(&self, side: &str, t: usize, o: usize, s: usize) -> Expression {
        match side {
            "H" => self.x(t, o, s),
            "A" => self.x(o, t, s),
            _ => self.x(t, o, s) + self.x(o, t, s),
        }
    }
    fn home(&self, t: usize, s: usize) -> Expression {
        (0..self.n)
            .filter(|&o| o != t)
            .map(|o| self.x(t, o, s))
            .sum()
    }
}

/// The rows; when elastic, each limit of a hard constraint has a slack, summed in `slack`.
struct Rows {
    rows: Vec<good_lp::Constraint>,
    elastic: bool,
    slack: Expression,
}

impl Rows {
    fn most(&mut self, vars: &mut ProblemVariables, e: Expression, hi: f64) {
        if self.elastic {
            let s = vars.add(variable().min(0.0));
            self.slack += s;
            self.rows.push(e.leq(Expression::from(hi) + s));
        } else {
            self.rows.push(e.leq(hi));
        }
    }
    fn least(&mut self, vars: &mut ProblemVariables, e: Expression, lo: f64) {
        if self.elastic {
            let s = vars.add(variable().min(0.0));
            self.slack += s;
            self.rows.push((e + s).geq(lo));
        } else {
            self.rows.push(e.geq(lo));
        }
    }
}

/// Rows `lo <= e <= hi` (either side left out when it cannot bind).
fn within(
    rows: &mut Rows,
    vars: &mut ProblemVariables,
    e: Expression,
    lo: i64,
    hi: i64,
    most: i64,
) {
    if hi < most {
        rows.most(vars, e.clone(), hi as f64);
    }
    if lo > 0 {
        rows.least(vars, e, lo as f64);
    }
}

/// The rows of one hard constraint; `breaks` makes break variables on demand.
fn rows_of(c: &Constraint, v: &Vars, vars: &mut ProblemVariables, rows: &mut Rows) {
    let (n, slots) = (v.n, v.slots);
    let (min, max) = (c.num("min"), c.num("max"));
    let ss = ids(c, "slots", slots);
    let all: Vec<usize> = (0..n).collect();
    let count = |t: usize, side: &str, opps: &[usize], ss: &[usize]| -> Expression {
        ss.iter()
            .flat_map(|&s| opps.iter().filter(move |&&o| o != t).map(move |&o| (o, s)))
            .map(|(o, s)| v.plays(side, t, o, s))
            .sum()
    };
    match c.kind.as_str() {
        "CA1" | "CA2" => {
            let (side, who, opps) = if c.kind == "CA1" {
                ("mode", "teams", all)
            } else {
                ("mode1", "teams1", ids(c, "teams2", n))
            };
            for t in ids(c, who, n) {
                let e = count(t, c.text(side), &opps, &ss);
                within(rows, vars, e, min, max, ss.len() as i64);
            }
        }
        "CA3" => {
            let (t2, k) = (ids(c, "teams2", n), c.num("intp").max(1) as usize);
            for t in ids(c, "teams1", n) {
                for start in 0..=slots.saturating_sub(k) {
                    let w: Vec<usize> = (start..start + k).collect();
                    within(
                        rows,
                        vars,
                        count(t, c.text("mode1"), &t2, &w),
                        min,
                        max,
                        k as i64,
                    );
                }
            }
        }
        _ => rows_of_breaks_and_pairs(c, v, vars, rows),
    }
}

/// The rows of a hard CA4, GA1, BR1 or BR2.
fn rows_of_breaks_and_pairs(
    c: &Constraint,
    v: &Vars,
    vars: &mut ProblemVariables,
    rows: &mut Rows,
) {
    let (n, slots) = (v.n, v.slots);
    let (min, max) = (c.num("min"), c.num("max"));
    let ss = ids(c, "slots", slots);
    match c.kind.as_str() {
        "CA4" => {
            let (t1, t2) = (ids(c, "teams1", n), ids(c, "teams2", n));
            let counts = |h: usize, a: usize| match c.text("mode1") {
                "H" => t1.contains(&h) && t2.contains(&a),
                "A" => t1.contains(&a) && t2.contains(&h),
                _ => (t1.contains(&h) && t2.contains(&a)) || (t1.contains(&a) && t2.contains(&h)),
            };
            let games = |ss: &[usize]| -> Expression {
                ss.iter()
                    .flat_map(|&s| (0..n).flat_map(move |h| (0..n).map(move |a| (h, a, s))))
                    .filter(|&(h, a, _)| h != a && counts(h, a))
                    .map(|(h, a, s)| v.x(h, a, s))
                    .sum()
            };
            if c.text("mode2") == "EVERY" {
                for &s in &ss {
                    within(rows, vars, games(&[s]), min, max, n as i64);
                }
            } else {
                within(rows, vars, games(&ss), min, max, (n * ss.len()) as i64);
            }
        }
        "GA1" => {
            let e: Expression = c
                .meetings()
                .into_iter()
                .filter(|&(h, a)| h < n && a < n && h != a)
                .flat_map(|(h, a)| ss.iter().map(move |&s| v.x(h, a, s)))
                .sum();
            within(rows, vars, e, min, max, i64::MAX);
        }
        "BR1" | "BR2" => {
            let side = if c.kind == "BR1" {
                c.text("mode2")
            } else {
                c.text("homeMode")
            };
            let mut per_team = Vec::new();
            for t in ids(c, "teams", n) {
                let mut total = Expression::from(0.0);
                for &s in ss.iter().filter(|&&s| s > 0) {
                    let b = vars.add(variable().min(0.0).max(1.0));
                    let (now, before) = (v.home(t, s), v.home(t, s - 1));
                    if side != "A" && side != "AWAY" {
                        rows.rows.push((now.clone() + before.clone() - 1.0).leq(b));
                    }
                    if side != "H" && side != "HOME" {
                        rows.rows.push((1.0 - now - before).leq(b));
                    }
                    total += b;
                }
                per_team.push(total);
            }
            let intp = c.num("intp") as f64;
            if c.kind == "BR1" {
                for e in per_team {
                    rows.most(vars, e, intp);
                }
            } else {
                rows.most(vars, per_team.into_iter().sum::<Expression>(), intp);
            }
        }
        _ => rows_of_pairs(c, v, vars, rows),
    }
}

/// The rows of FA2 and SE1.
fn rows_of_pairs(c: &Constraint, v: &Vars, vars: &mut ProblemVariables, rows: &mut Rows) {
    let (n, slots) = (v.n, v.slots);
    let ss = ids(c, "slots", slots);
    match c.kind.as_str() {
        "FA2" => {
            let teams = ids(c, "teams", n);
            let intp = c.num("intp") as f64;
            for (i, &a) in teams.iter().enumerate() {
                for &b in &teams[i + 1..] {
                    let mut diff = Expression::from(0.0);
                    for s in 0..slots {
                        diff += v.home(a, s) - v.home(b, s);
                        if ss.contains(&s) {
                            rows.most(vars, diff.clone(), intp);
                            rows.least(vars, diff.clone(), -intp);
                        }
                    }
                }
            }
        }
        "SE1" => {
            let teams = ids(c, "teams", n);
            let k = c.num("min").max(0) as usize;
            for (i, &a) in teams.iter().enumerate() {
                for &b in &teams[i + 1..] {
                    // At most one of the two meetings in any k + 1 consecutive slots.
                    for start in 0..slots.saturating_sub(k) {
                        let e: Expression = (start..=start + k)
                            .map(|s| v.x(a, b, s) + v.x(b, a, s))
                            .sum();
                        rows.most(vars, e, 1.0);
                    }
                }
            }
        }
        _ => {}
    }
}

/// The model: every game free, or for a repair the current `games` fixed outside the rounds
/// marked `free`, those inside free to move among them, and the hard constraints elastic.
fn build(inst: &Instance, repair: Option<(&Games, &[bool])>) -> (ProblemVariables, Vars, Rows) {
    let (n, slots) = (inst.teams, inst.slots);
    let mut vars = ProblemVariables::new();
    let mut x = vec![Cell::Fixed(false); n * n * slots];
    let mut now = vec![usize::MAX; n * n];
    if let Some((games, _)) = repair {
        for &(h, a, s) in games {
            now[h * n + a] = s;
        }
    }
    for h in 0..n {
        for a in (0..n).filter(|&a| a != h) {
            for s in 0..slots {
                x[(h * n + a) * slots + s] = match repair {
                    None => Cell::Free(vars.add(variable().binary())),
                    Some((_, free)) if free[s] && free[now[h * n + a]] => {
                        Cell::Free(vars.add(variable().binary()))
                    }
                    Some(_) => Cell::Fixed(now[h * n + a] == s),
                };
            }
        }
    }
    let v = Vars { n, slots, x };
    let mut rows = Rows {
        rows: Vec::new(),
        elastic: repair.is_some(),
        slack: Expression::from(0.0),
    };
    for h in 0..n {
        for a in (0..n).filter(|&a| a != h) {
            let once: Expression = (0..slots).map(|s| v.x(h, a, s)).sum();
            rows.rows.push(once.eq(1.0));
            if inst.phased && h < a {
                let first: Expression = (0..slots / 2).map(|s| v.x(h, a, s) + v.x(a, h, s)).sum();
                rows.rows.push(first.eq(1.0));
            }
        }
    }
    for t in 0..n {
        for s in 0..slots {
            let e: Expression = (0..n)
                .filter(|&o| o != t)
                .map(|o| v.plays("HA", t, o, s))
                .sum();
            rows.rows.push(e.eq(1.0));
        }
    }
    for c in inst.constraints.iter().filter(|c| c.hard) {
        rows_of(c, &v, &mut vars, &mut rows);
    }
    (vars, v, rows)
}

/// Solves a built model within `seconds`; its games when HiGHS found a solution.
fn run(model: (ProblemVariables, Vars, Rows), seconds: f64, seed: u64) -> Option<Games> {
    let (vars, v, rows) = model;
    let mut problem = vars.minimise(rows.slack).using(highs);
    for r in rows.rows {
        problem.add_constraint(r);
    }
    let mut model = problem.try_into_inner().ok()?;
    model.make_quiet();
    model.try_set_option("threads", 1).ok()?;
    model
        .try_set_option("random_seed", (seed % i32::MAX as u64) as i32)
        .ok()?;
    model.try_set_option("time_limit", seconds.max(0.05)).ok()?;
    let solved = model.try_solve().ok()?;
    // HiGHS's kSolutionStatusFeasible is 2 (read as a number: -1 when there is none).
    let found = solved
        .int_info_value(c"primal_solution_status")
        .is_ok_and(|s| s == 2);
    if !found {
        return None;
    }
    // The game variables are the first columns, in the order `build` made them.
    let cols = solved.get_solution().columns().to_vec();
    let (n, slots) = (v.n, v.slots);
    let mut games = Vec::new();
    let mut k = 0;
    for h in 0..n {
        for a in (0..n).filter(|&a| a != h) {
            for s in 0..slots {
                let played = match v.x[(h * n + a) * slots + s] {
                    Cell::Free(_) => {
                        k += 1;
                        cols[k - 1] > 0.5
                    }
                    Cell::Fixed(b) => b,
                };
                if played {
                    games.push((h, a, s));
                }
            }
        }
    }
    Some(games)
}

/// A timetable keeping every hard constraint, if HiGHS finds one within `seconds`.
pub(super) fn feasible(inst: &Instance, seconds: f64, seed: u64) -> Option<Games> {
    run(build(inst, None), seconds, seed)
}

/// `games` with the games of the rounds marked `free` rearranged among those rounds to break
/// the hard constraints as little as HiGHS finds within `seconds`.
pub(super) fn repair(
    inst: &Instance,
    games: &Games,
    free: &[bool],
    seconds: f64,
    seed: u64,
) -> Option<Games> {
    run(build(inst, Some((games, free))), seconds, seed)
}

#[cfg(test)]
mod tests {
    use crate::model::robinx::read_instance;

    /// HiGHS's timetable for a small generated instance keeps every hard constraint, as the
    /// independent checker counts them.
    #[test]
    fn the_integer_program_finds_a_feasible_timetable() {
        let xml = include_str!("../../../crates/check/tests/itc2021/Addition_000_Tiny.xml");
        let inst = read_instance(xml).unwrap();
        let games = super::feasible(&inst, 120.0, 0).expect("HiGHS finds one");
        let score = fixtures_check::robinx::score(&inst, &games);
        assert_eq!(score.hard, 0, "{:?}", score.by_type);
    }

    /// A repair moves games only within the rounds it frees, keeps a double round robin, and
    /// breaks no more hard constraints than the timetable it started from.
    #[test]
    fn a_repair_moves_games_only_within_its_rounds() {
        use super::super::table::Table;
        let xml = include_str!("../../../crates/check/tests/itc2021/Addition_000_Tiny.xml");
        let inst = read_instance(xml).unwrap();
        let start = Table::random(inst.teams, &mut crate::solve::Rng::new(5)).games();
        let before = fixtures_check::robinx::score(&inst, &start).hard;
        let free: Vec<bool> = (0..inst.slots).map(|s| (1..4).contains(&s)).collect();
        let games = super::repair(&inst, &start, &free, 120.0, 0).expect("HiGHS repairs it");
        assert!(Table::from_games(inst.teams, &games).is_some());
        for g in &start {
            if !free[g.2] {
                assert!(games.contains(g), "{g:?} moved");
            }
        }
        let after = fixtures_check::robinx::score(&inst, &games).hard;
        assert!(after <= before, "{after} > {before}");
    }
}
