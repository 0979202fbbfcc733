//! The instance's constraints as terms the search prices one by one: each term reads a few
//! teams' rows of the timetable and gives a deviation, and an index from each cell to the
//! terms that read it tells a move which terms to price again.

use super::table::Table;
use crate::model::robinx::{Constraint, Instance};

/// Which games of a team count: at home, away, or either.
#[derive(Clone, Copy, PartialEq)]
enum Side {
    Home,
    Away,
    Either,
}

impl Side {
    fn of(mode: &str) -> Side {
        match mode {
            "H" | "HOME" => Side::Home,
            "A" | "AWAY" => Side::Away,
            _ => Side::Either,
        }
    }
    fn holds(self, home: bool) -> bool {
        match self {
            Side::Home => home,
            Side::Away => !home,
            Side::Either => true,
        }
    }
}

/// What a term counts.
enum Kind {
    /// A team's games on a side against a set of opponents in the slots (CA1, CA2).
    Games {
        team: usize,
        side: Side,
        opps: Vec<bool>,
        slots: Vec<usize>,
    },
    /// The deviations of the same in every window of `k` consecutive slots (CA3).
    Windows {
        team: usize,
        side: Side,
        opps: Vec<bool>,
        k: usize,
        min: i64,
        max: i64,
    },
    /// Games between two groups in one slot (CA4); `side` is the first group's.
    Groups {
        first: Vec<bool>,
        second: Vec<bool>,
        side: Side,
        slot: usize,
    },
    /// Whether the meeting (home, away) is in the slots (GA1).
    Meeting {
        home: usize,
        away: usize,
        slots: Vec<bool>,
    },
    /// Breaks of a team on a side in the slots (BR1, BR2).
    Breaks {
        team: usize,
        side: Side,
        slots: Vec<usize>,
    },
    /// How far the largest difference of two teams' home counts at the slots exceeds `intp`
    /// (FA2).
    Level {
        a: usize,
        b: usize,
        slots: Vec<bool>,
        intp: i64,
    },
    /// How many rounds short of `min` a pair's two meetings are apart (SE1).
    Apart { a: usize, b: usize, min: i64 },
    /// Meetings of a pair in the first half (phased instances).
    Phase { a: usize, b: usize },
}

/// What a term reads, so a move prices it again only when that changed.
#[derive(Clone, Copy, PartialEq)]
enum Reads {
    /// Teams' venues only.
    Venues,
    /// Teams' opponents and venues.
    Cells,
    /// Where and when one pair meets.
    Pair,
}

/// One term: what it counts, and the group whose sum it adds to.
pub(super) struct Term {
    kind: Kind,
    pub(super) group: u32,
}

/// A constraint's terms summed: the deviation of the sum outside [min, max], a violation when
/// hard, weighted by `penalty` when soft.
pub(super) struct Group {
    min: i64,
    max: i64,
    pub(super) hard: bool,
    pub(super) penalty: i64,
}

impl Group {
    pub(super) fn deviation(&self, sum: i64) -> i64 {
        (sum - self.max).max(0) + (self.min - sum).max(0)
    }
}

/// Every term and group of an instance, and the index from a change to the terms it touches.
pub(super) struct Terms {
    pub(super) terms: Vec<Term>,
    pub(super) groups: Vec<Group>,
    /// `by_cell[t * rounds + r]`: the terms reading team t's opponent or venue in round r.
    pub(super) by_cell: Vec<Vec<u32>>,
    /// `by_venue[t * rounds + r]`: the terms reading only team t's venue in round r.
    pub(super) by_venue: Vec<Vec<u32>>,
    /// `by_pair[a * teams + b]`: the terms reading where and when a meets b (both orders).
    pub(super) by_pair: Vec<Vec<u32>>,
    pub(super) teams: usize,
}

fn mask(n: usize, of: &[usize]) -> Vec<bool> {
    let mut m = vec![false; n];
    for &x in of {
        if x < n {
            m[x] = true;
        }
    }
    m
}

/// Unordered pairs of distinct teams from a list.
fn pairs(teams: &[usize]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, &a) in teams.iter().enumerate() {
        for &b in &teams[i + 1..] {
            out.push((a, b));
        }
    }
    out
}

/// The ids of a list attribute (teams, slots) below `below`; others are ignored.
pub(super) fn ids(c: &Constraint, key: &str, below: usize) -> Vec<usize> {
    c.list(key).into_iter().filter(|&x| x < below).collect()
}

/// What the terms of `inst` would hold, counted from the constraints alone: for each, its
/// teams (or pairs of teams, for FA2 and SE1) times the slots.
pub(super) fn size(inst: &Instance) -> usize {
    let (n, rounds) = (inst.teams, inst.slots);
    let teams = |c: &Constraint| ids(c, "teams", n).len().max(ids(c, "teams1", n).len());
    inst.constraints
        .iter()
        .map(|c| match c.kind.as_str() {
            "FA2" | "SE1" => teams(c) * teams(c) * (rounds + 1),
            _ => (teams(c) + 1) * (rounds + 1) + c.meetings().len(),
        })
        .sum()
}

/// Unbounded below: a group whose terms already give deviations.
const NO_MIN: i64 = i64::MIN / 4;

/// The groups of one constraint, each as its terms and bounds.
fn lower(c: &Constraint, n: usize, rounds: usize) -> Vec<(Vec<Kind>, i64, i64)> {
    let (min, max) = (c.num("min"), c.num("max"));
    let (slots, teams) = (ids(c, "slots", rounds), |key: &str| ids(c, key, n));
    let all = vec![true; n];
    match c.kind.as_str() {
        "CA1" => teams("teams")
            .into_iter()
            .map(|team| {
                let (side, opps, slots) = (Side::of(c.text("mode")), all.clone(), slots.clone());
                (
                    vec![Kind::Games {
                        team,
                        side,
                        opps,
                        slots,
                    }],
                    min,
                    max,
                )
            })
            .collect(),
        "CA2" | "CA3" => {
            let opps = mask(n, &c.list("teams2"));
            let side = Side::of(c.text("mode1"));
            let k = c.num("intp").max(1) as usize;
            teams("teams1")
                .into_iter()
                .map(|team| {
                    let opps = opps.clone();
                    if c.kind == "CA2" {
                        (
                            vec![Kind::Games {
                                team,
                                side,
                                opps,
                                slots: slots.clone(),
                            }],
                            min,
                            max,
                        )
                    } else {
                        (
                            vec![Kind::Windows {
                                team,
                                side,
                                opps,
                                k,
                                min,
                                max,
                            }],
                            NO_MIN,
                            0,
                        )
                    }
                })
                .collect()
        }
        _ => lower_breaks_and_pairs(c, n, rounds),
    }
}

/// The groups of CA4, GA1, BR1 and BR2.
fn lower_breaks_and_pairs(c: &Constraint, n: usize, rounds: usize) -> Vec<(Vec<Kind>, i64, i64)> {
    let (min, max) = (c.num("min"), c.num("max"));
    let (slots, teams) = (ids(c, "slots", rounds), |key: &str| ids(c, key, n));
    match c.kind.as_str() {
        "CA4" => {
            let (first, second) = (mask(n, &c.list("teams1")), mask(n, &c.list("teams2")));
            let side = Side::of(c.text("mode1"));
            let at = |slot: usize| Kind::Groups {
                first: first.clone(),
                second: second.clone(),
                side,
                slot,
            };
            if c.text("mode2") == "EVERY" {
                slots.iter().map(|&s| (vec![at(s)], min, max)).collect()
            } else {
                vec![(slots.iter().map(|&s| at(s)).collect(), min, max)]
            }
        }
        "GA1" => {
            let mut m = c.meetings();
            m.retain(|&(h, a)| h < n && a < n && h != a);
            m.sort_unstable();
            m.dedup();
            let slots = mask(rounds, &slots);
            let kinds = m
                .into_iter()
                .map(|(home, away)| Kind::Meeting {
                    home,
                    away,
                    slots: slots.clone(),
                })
                .collect();
            vec![(kinds, min, max)]
        }
        "BR1" => teams("teams")
            .into_iter()
            .map(|team| {
                let side = Side::of(c.text("mode2"));
                (
                    vec![Kind::Breaks {
                        team,
                        side,
                        slots: slots.clone(),
                    }],
                    NO_MIN,
                    c.num("intp"),
                )
            })
            .collect(),
        "BR2" => {
            let side = Side::of(c.text("homeMode"));
            let kinds = teams("teams")
                .into_iter()
                .map(|team| Kind::Breaks {
                    team,
                    side,
                    slots: slots.clone(),
                })
                .collect();
            vec![(kinds, NO_MIN, c.num("intp"))]
        }
        _ => lower_pairs(c, n, rounds),
    }
}

/// The groups of FA2 and SE1.
fn lower_pairs(c: &Constraint, n: usize, rounds: usize) -> Vec<(Vec<Kind>, i64, i64)> {
    let min = c.num("min");
    let (slots, teams) = (ids(c, "slots", rounds), |key: &str| ids(c, key, n));
    match c.kind.as_str() {
        "FA2" => pairs(&teams("teams"))
            .into_iter()
            .map(|(a, b)| {
                let kind = Kind::Level {
                    a,
                    b,
                    slots: mask(rounds, &slots),
                    intp: c.num("intp"),
                };
                (vec![kind], NO_MIN, 0)
            })
            .collect(),
        "SE1" => pairs(&teams("teams"))
            .into_iter()
            .map(|(a, b)| (vec![Kind::Apart { a, b, min }], NO_MIN, 0))
            .collect(),
        _ => Vec::new(),
    }
}

impl Terms {
    /// The mean penalty of the soft groups (0 when there is none).
    pub(super) fn mean_soft_penalty(&self) -> f64 {
        let soft: Vec<i64> = self
            .groups
            .iter()
            .filter(|g| !g.hard)
            .map(|g| g.penalty)
            .collect();
        soft.iter().sum::<i64>() as f64 / soft.len().max(1) as f64
    }

    /// The terms of every constraint of `inst`, and the phase of every pair when phased.
    pub(super) fn new(inst: &Instance) -> Terms {
        let (n, rounds) = (inst.teams, inst.slots);
        let mut lowered: Vec<(Vec<Kind>, i64, i64, bool, i64)> = Vec::new();
        for c in &inst.constraints {
            for (kinds, min, max) in lower(c, n, rounds) {
                lowered.push((kinds, min, max, c.hard, c.penalty));
            }
        }
        if inst.phased {
            for (a, b) in pairs(&(0..n).collect::<Vec<_>>()) {
                lowered.push((vec![Kind::Phase { a, b }], 1, 1, true, 1));
            }
        }
        let mut t = Terms {
            terms: Vec::new(),
            groups: Vec::new(),
            by_cell: vec![Vec::new(); n * rounds],
            by_venue: vec![Vec::new(); n * rounds],
            by_pair: vec![Vec::new(); n * n],
            teams: n,
        };
        for (kinds, min, max, hard, penalty) in lowered {
            let group = t.groups.len() as u32;
            t.groups.push(Group {
                min,
                max,
                hard,
                penalty,
            });
            for kind in kinds {
                let i = t.terms.len() as u32;
                let (reads, cells) = reads(&kind, n, rounds);
                let index = match reads {
                    Reads::Venues => &mut t.by_venue,
                    Reads::Cells => &mut t.by_cell,
                    Reads::Pair => &mut t.by_pair,
                };
                for at in cells {
                    let at = match reads {
                        Reads::Pair => at.0 * n + at.1,
                        _ => at.0 * rounds + at.1,
                    };
                    if index[at].last() != Some(&i) {
                        index[at].push(i);
                    }
                }
                t.terms.push(Term { kind, group });
            }
        }
        t
    }
}

/// What a term reads, and where: cells (team, round), or for `Reads::Pair` the pair (a, b) in
/// both orders.
fn reads(kind: &Kind, n: usize, rounds: usize) -> (Reads, Vec<(usize, usize)>) {
    let row = |t: usize| (0..rounds).map(move |r| (t, r));
    let venue_only = |opps: &[bool], side: Side| opps.iter().all(|&o| o) && side != Side::Either;
    match kind {
        Kind::Games {
            team,
            slots,
            opps,
            side,
        } => {
            let how = if venue_only(opps, *side) {
                Reads::Venues
            } else {
                Reads::Cells
            };
            (how, slots.iter().map(|&s| (*team, s)).collect())
        }
        Kind::Windows {
            team, opps, side, ..
        } => {
            let how = if venue_only(opps, *side) {
                Reads::Venues
            } else {
                Reads::Cells
            };
            (how, row(*team).collect())
        }
        Kind::Groups {
            first,
            second,
            slot,
            ..
        } => (
            Reads::Cells,
            (0..n)
                .filter(|&t| first[t] || second[t])
                .map(|t| (t, *slot))
                .collect(),
        ),
        Kind::Breaks { team, slots, .. } => (
            Reads::Venues,
            slots
                .iter()
                .flat_map(|&s| [(*team, s), (*team, s.saturating_sub(1))])
                .collect(),
        ),
        Kind::Level { a, b, .. } => (Reads::Venues, row(*a).chain(row(*b)).collect()),
        Kind::Meeting {
            home: a, away: b, ..
        }
        | Kind::Apart { a, b, .. }
        | Kind::Phase { a, b } => (Reads::Pair, vec![(*a, *b), (*b, *a)]),
    }
}

impl Term {
    /// The term's value in `t`.
    pub(super) fn value(&self, t: &Table) -> i64 {
        let (rounds, at) = (t.rounds, |team: usize, r: usize| t.cell(team, r));
        match &self.kind {
            Kind::Games {
                team,
                side,
                opps,
                slots,
            } => slots
                .iter()
                .filter(|&&s| {
                    let (o, h) = at(*team, s);
                    side.holds(h) && opps[o]
                })
                .count() as i64,
            Kind::Meeting { home, away, slots } => {
                i64::from((0..rounds).any(|r| slots[r] && at(*home, r) == (*away, true)))
            }
            Kind::Breaks { team, side, slots } => slots
                .iter()
                .filter(|&&s| {
                    s > 0 && {
                        let (now, before) = (at(*team, s).1, at(*team, s - 1).1);
                        now == before && side.holds(now)
                    }
                })
                .count() as i64,
            Kind::Level { a, b, slots, intp } => {
                let (mut diff, mut worst) = (0i64, 0i64);
                for (r, &counted) in slots.iter().enumerate().take(rounds) {
                    diff += i64::from(at(*a, r).1) - i64::from(at(*b, r).1);
                    if counted {
                        worst = worst.max(diff.abs() - intp);
                    }
                }
                worst.max(0)
            }
            Kind::Apart { a, b, min } => {
                let mut met = (0..rounds).filter(|&r| at(*a, r).0 == *b);
                match (met.next(), met.next()) {
                    (Some(s1), Some(s2)) => (min - (s2 as i64 - s1 as i64 - 1)).max(0),
                    _ => 0,
                }
            }
            Kind::Phase { a, b } => (0..rounds / 2).filter(|&r| at(*a, r).0 == *b).count() as i64,
            _ => self.counted_across(t),
        }
    }

    /// The values that read many cells: CA3's windows and CA4's groups.
    fn counted_across(&self, t: &Table) -> i64 {
        let (rounds, at) = (t.rounds, |team: usize, r: usize| t.cell(team, r));
        match &self.kind {
            Kind::Windows {
                team,
                side,
                opps,
                k,
                min,
                max,
            } => {
                let outside = |count: i64| (count - max).max(0) + (min - count).max(0);
                let hit = |r: usize| {
                    let (o, h) = at(*team, r);
                    i64::from(side.holds(h) && opps[o])
                };
                if *k > rounds {
                    return 0;
                }
                let mut sum: i64 = (0..*k).map(hit).sum();
                let mut d = outside(sum);
                for r in *k..rounds {
                    sum += hit(r) - hit(r - k);
                    d += outside(sum);
                }
                d
            }
            Kind::Groups {
                first,
                second,
                side,
                slot,
            } => (0..t.teams)
                .filter(|&h| {
                    let (a, home) = at(h, *slot);
                    home && match side {
                        Side::Home => first[h] && second[a],
                        Side::Away => first[a] && second[h],
                        Side::Either => (first[h] && second[a]) || (first[a] && second[h]),
                    }
                })
                .count() as i64,
            _ => 0,
        }
    }
}
