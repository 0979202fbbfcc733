//! RobinX (ITC2021) instances and solutions, checked as the competition's validator counts
//! them: every constraint's deviation, hard ones as violations, soft ones weighted by their
//! penalty into the objective. Written from the competition's rules (Van Bulck & Goossens,
//! EJOR 2023), sharing nothing with any solver.

use std::collections::HashMap;

pub use fixtures_model::robinx::{
    read_file, read_instance, read_solution, Constraint, Games, Instance, RobinxError,
};

/// What the checker finds: hard violations and the soft objective, in total and by type.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Score {
    /// Deviations of hard constraints.
    pub hard: i64,
    /// Penalty-weighted deviations of soft constraints.
    pub objective: i64,
    /// (type, hard violations, soft objective) per constraint type, sorted.
    pub by_type: Vec<(String, i64, i64)>,
}

/// The deviation of a count against `min` and `max`.
fn outside(count: i64, min: i64, max: i64) -> i64 {
    (count - max).max(0) + (min - count).max(0)
}

/// Whether team `t` plays game (h, a) in `mode` (H home, A away, HA either).
fn plays(mode: &str, t: usize, h: usize, a: usize) -> bool {
    match mode {
        "H" => h == t,
        "A" => a == t,
        _ => h == t || a == t,
    }
}

/// The opponent of `t` in game (h, a).
fn other(t: usize, h: usize, a: usize) -> usize {
    if h == t {
        a
    } else {
        h
    }
}

/// Scores `games` against every constraint of `inst`.
pub fn score(inst: &Instance, games: &Games) -> Score {
    // Each team's game in each slot: (home, away); home[t][s] whether t is at home.
    let mut at: Vec<Vec<Option<(usize, usize)>>> = vec![vec![None; inst.slots]; inst.teams];
    for &(h, a, s) in games {
        if h < inst.teams && a < inst.teams && s < inst.slots {
            at[h][s] = Some((h, a));
            at[a][s] = Some((h, a));
        }
    }
    let home = |t: usize, s: usize| at[t][s].is_some_and(|(h, _)| h == t);
    let mut sums: HashMap<String, (i64, i64)> = HashMap::new();
    for c in &inst.constraints {
        let ctx = Ctx {
            inst,
            games,
            at: &at,
            home: &home,
        };
        let d = deviation(c, &ctx);
        let e = sums.entry(c.kind.clone()).or_default();
        if c.hard {
            e.0 += d;
        } else {
            e.1 += d * c.penalty;
        }
    }
    sums.insert("structure".into(), (structure(inst, games), 0));
    let mut by_type: Vec<(String, i64, i64)> =
        sums.into_iter().map(|(k, (h, o))| (k, h, o)).collect();
    by_type.sort();
    Score {
        hard: by_type.iter().map(|t| t.1).sum(),
        objective: by_type.iter().map(|t| t.2).sum(),
        by_type,
    }
}

/// Breaches of the double round robin itself, each a hard violation: a team not playing
/// exactly once in a slot, an ordered pair not met exactly once, a game outside the
/// instance's teams and slots, and in a phased instance a pair not met once in each half.
fn structure(inst: &Instance, games: &Games) -> i64 {
    let (n, slots) = (inst.teams, inst.slots);
    let mut per_slot = vec![0i64; n * slots];
    let mut pairs = vec![0i64; n * n];
    let mut bad = 0;
    for &(h, a, s) in games {
        if h >= n || a >= n || s >= slots || h == a {
            bad += 1;
            continue;
        }
        per_slot[h * slots + s] += 1;
        per_slot[a * slots + s] += 1;
        pairs[h * n + a] += 1;
    }
    let off = |c: &i64| (c - 1).abs();
    let pair_off: i64 = (0..n * n)
        .filter(|&k| k / n != k % n)
        .map(|k| off(&pairs[k]))
        .sum();
    bad + per_slot.iter().map(off).sum::<i64>() + pair_off + unphased(inst, games)
}

/// In a phased instance, each unordered pair not met exactly once in the first half of the
/// slots.
fn unphased(inst: &Instance, games: &Games) -> i64 {
    if !inst.phased {
        return 0;
    }
    let n = inst.teams;
    let mut first = vec![0i64; n * n];
    for &(h, a, s) in games {
        if h < n && a < n && h != a && s < inst.slots / 2 {
            first[h.min(a) * n + h.max(a)] += 1;
        }
    }
    (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .map(|(a, b)| (first[a * n + b] - 1).abs())
        .sum()
}

/// What every constraint's deviation reads: the instance, the games, each team's game in each
/// slot, and whether a team is at home in a slot.
struct Ctx<'a> {
    inst: &'a Instance,
    games: &'a Games,
    at: &'a [Vec<Option<(usize, usize)>>],
    home: &'a dyn Fn(usize, usize) -> bool,
}

/// A constraint's deviation.
fn deviation(c: &Constraint, x: &Ctx<'_>) -> i64 {
    match c.kind.as_str() {
        "CA1" | "CA2" | "CA3" => team_counts(c, x),
        "CA4" | "GA1" => group_counts(c, x),
        "BR1" | "BR2" => breaks(c, x),
        _ => fairness_and_separation(c, x),
    }
}

/// The deviation of CA1, CA2 and CA3 (a team's games, in slots or in every window of slots).
fn team_counts(c: &Constraint, x: &Ctx<'_>) -> i64 {
    let (min, max) = (c.num("min"), c.num("max"));
    let slots = c.list("slots");
    let in_slots = |s: usize| slots.contains(&s);
    match c.kind.as_str() {
        "CA1" => c
            .list("teams")
            .iter()
            .map(|&t| {
                let n = x
                    .games
                    .iter()
                    .filter(|&&(h, a, s)| in_slots(s) && plays(c.text("mode"), t, h, a))
                    .count() as i64;
                outside(n, min, max)
            })
            .sum(),
        "CA2" => {
            let t2 = c.list("teams2");
            c.list("teams1")
                .iter()
                .map(|&t| {
                    let n = x
                        .games
                        .iter()
                        .filter(|&&(h, a, s)| {
                            in_slots(s)
                                && plays(c.text("mode1"), t, h, a)
                                && t2.contains(&other(t, h, a))
                        })
                        .count() as i64;
                    outside(n, min, max)
                })
                .sum()
        }
        "CA3" => {
            let (t2, k) = (c.list("teams2"), c.num("intp").max(1) as usize);
            let mut d = 0;
            for &t in &c.list("teams1") {
                for start in 0..=x.inst.slots.saturating_sub(k) {
                    let n = (start..start + k)
                        .filter(|&s| {
                            x.at[t][s].is_some_and(|(h, a)| {
                                plays(c.text("mode1"), t, h, a) && t2.contains(&other(t, h, a))
                            })
                        })
                        .count() as i64;
                    d += outside(n, min, max);
                }
            }
            d
        }
        _ => 0,
    }
}

/// The deviation of CA4 (games between two groups) and GA1 (given games in given slots).
fn group_counts(c: &Constraint, x: &Ctx<'_>) -> i64 {
    let (min, max) = (c.num("min"), c.num("max"));
    let slots = c.list("slots");
    let in_slots = |s: usize| slots.contains(&s);
    match c.kind.as_str() {
        "CA4" => {
            let (t1, t2) = (c.list("teams1"), c.list("teams2"));
            let counts = |s_ok: &dyn Fn(usize) -> bool| {
                x.games
                    .iter()
                    .filter(|&&(h, a, s)| {
                        s_ok(s)
                            && match c.text("mode1") {
                                "H" => t1.contains(&h) && t2.contains(&a),
                                "A" => t1.contains(&a) && t2.contains(&h),
                                _ => {
                                    (t1.contains(&h) && t2.contains(&a))
                                        || (t1.contains(&a) && t2.contains(&h))
                                }
                            }
                    })
                    .count() as i64
            };
            if c.text("mode2") == "EVERY" {
                slots
                    .iter()
                    .map(|&x| outside(counts(&|s| s == x), min, max))
                    .sum()
            } else {
                outside(counts(&in_slots), min, max)
            }
        }
        "GA1" => {
            let meetings = c.meetings();
            let n = x
                .games
                .iter()
                .filter(|&&(h, a, s)| in_slots(s) && meetings.contains(&(h, a)))
                .count() as i64;
            outside(n, min, max)
        }
        _ => 0,
    }
}

/// The deviation of BR1 and BR2 (breaks of a team, of the league).
fn breaks(c: &Constraint, x: &Ctx<'_>) -> i64 {
    let slots = c.list("slots");
    match c.kind.as_str() {
        "BR1" | "BR2" => {
            let mode = if c.kind == "BR1" {
                c.text("mode2")
            } else {
                c.text("homeMode")
            };
            let breaks = |t: usize| {
                slots
                    .iter()
                    .filter(|&&s| {
                        s > 0
                            && x.at[t][s].is_some()
                            && x.at[t][s - 1].is_some()
                            && (x.home)(t, s) == (x.home)(t, s - 1)
                            && match mode {
                                "H" | "HOME" => (x.home)(t, s),
                                "A" | "AWAY" => !(x.home)(t, s),
                                _ => true,
                            }
                    })
                    .count() as i64
            };
            let teams = c.list("teams");
            if c.kind == "BR1" {
                teams
                    .iter()
                    .map(|&t| (breaks(t) - c.num("intp")).max(0))
                    .sum()
            } else {
                (teams.iter().map(|&t| breaks(t)).sum::<i64>() - c.num("intp")).max(0)
            }
        }
        _ => 0,
    }
}

/// The deviation of FA2 (home counts kept level) and SE1 (meetings apart).
fn fairness_and_separation(c: &Constraint, x: &Ctx<'_>) -> i64 {
    let slots = c.list("slots");
    match c.kind.as_str() {
        "FA2" => {
            let teams = c.list("teams");
            let mut order = slots.clone();
            order.sort_unstable();
            let mut d = 0;
            for (i, &a) in teams.iter().enumerate() {
                for &b in &teams[i + 1..] {
                    let (mut ha, mut hb, mut worst) = (0i64, 0i64, 0i64);
                    let mut next = 0;
                    for s in 0..x.inst.slots {
                        ha += i64::from((x.home)(a, s));
                        hb += i64::from((x.home)(b, s));
                        if next < order.len() && order[next] == s {
                            next += 1;
                            worst = worst.max((ha - hb).abs() - c.num("intp"));
                        }
                    }
                    d += worst.max(0);
                }
            }
            d
        }
        "SE1" => {
            let teams = c.list("teams");
            let mut d = 0;
            for (i, &a) in teams.iter().enumerate() {
                for &b in &teams[i + 1..] {
                    let mut met: Vec<usize> = x
                        .games
                        .iter()
                        .filter(|&&(h, x, _)| (h == a && x == b) || (h == b && x == a))
                        .map(|g| g.2)
                        .collect();
                    met.sort_unstable();
                    if let [s1, s2] = met[..] {
                        let gap = s2 as i64 - s1 as i64 - 1;
                        d += (c.num("min") - gap).max(0);
                    }
                }
            }
            d
        }
        _ => 0,
    }
}
