//! The league file's `[[constraint]]` tables as groups of slots: each group holds the slots
//! whose matches it counts, between a least and a most. Every kind lowers to groups (CA1–CA4,
//! GA1 one per team, run of weeks, date or whole; SE1 one per slot of a return fixture, with the
//! slots of its first leg too near it), so the MIP adds one row per group and the annealing
//! keeps one count per group.

use super::{Candidates, Mip, Slack};
use crate::model::{on, ConstraintKind, Count, Format, League, TeamId};
use chrono::NaiveDate;
use good_lp::variable;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The most slot entries the groups of one league may hold (about 8 bytes each): far above a
/// real league's (Sussex with three constraints of each kind: well under a million), low
/// enough that no league file can exhaust memory through them.
pub const MAX_CELLS: usize = 20_000_000;

/// Some slots whose count lies in `lo..=hi`: hard, or soft at `weight` per unit outside.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The constraint's index in `League::constraints`.
    pub constraint: usize,
    /// The slots counted (each once).
    pub slots: Vec<usize>,
    /// The fewest allowed.
    pub lo: u32,
    /// The most allowed.
    pub hi: u32,
    /// `None` hard; `Some(w)` soft.
    pub weight: Option<f64>,
}

impl Group {
    /// Units outside `lo..=hi` for a count.
    pub fn over(&self, n: i32) -> i32 {
        (n - self.hi as i32).max(0) + (self.lo as i32 - n).max(0)
    }
}

/// Calendar week of a date (as `rules::week_of`).
fn week(d: NaiveDate) -> i64 {
    super::rules::week_of(d)
}

/// Every group of every constraint, or the number of slot entries they would hold when that
/// is more than `MAX_CELLS`.
pub fn groups(league: &League, cand: &Candidates) -> Result<Vec<Group>, usize> {
    let mut out = Vec::new();
    let mut cells = 0usize;
    for (i, c) in league.constraints.iter().enumerate() {
        let mut push = |slots: Vec<usize>, lo: u32, hi: u32| {
            cells += slots.len();
            if (!slots.is_empty() || lo > 0) && cells <= MAX_CELLS {
                out.push(Group {
                    constraint: i,
                    slots,
                    lo,
                    hi,
                    weight: c.weight,
                });
            }
        };
        lower(league, cand, &c.kind, &mut push);
        if let ConstraintKind::Level { teams, dates, .. } = &c.kind {
            // Each team's home slots up to each date.
            cells += teams.iter().map(|&t| cand.by_team[t].len()).sum::<usize>() * dates.len();
        }
    }
    if cells > MAX_CELLS {
        return Err(cells);
    }
    // A group that can never exceed its limit, nor fall short, costs nothing.
    out.retain(|g| g.slots.len() as u32 > g.hi || g.lo > 0);
    Ok(out)
}

/// The slots of team `t` that `count` counts.
fn team_slots<'a>(
    cand: &'a Candidates,
    t: TeamId,
    count: Count,
) -> impl Iterator<Item = usize> + 'a {
    cand.by_team[t]
        .iter()
        .copied()
        .filter(move |&s| count.counts(cand.slots[s].home == t))
}

/// Each group of a constraint, given to `push` (slots, least, most).
type Push<'p> = &'p mut dyn FnMut(Vec<usize>, u32, u32);

fn lower(league: &League, cand: &Candidates, kind: &ConstraintKind, push: Push) {
    match kind {
        ConstraintKind::Matches {
            teams,
            opponents,
            count,
            dates,
            max,
        } => {
            for &t in teams {
                let slots = team_slots(cand, t, *count)
                    .filter(|&s| {
                        let sl = cand.slots[s];
                        let o = if sl.home == t { sl.away } else { sl.home };
                        on(dates, sl.date) && opponents.as_ref().is_none_or(|os| os.contains(&o))
                    })
                    .collect();
                push(slots, 0, *max);
            }
        }
        ConstraintKind::InARow {
            teams,
            count,
            weeks,
            max,
        } => in_a_row(league, cand, teams, *count, i64::from(*weeks), *max, push),
        ConstraintKind::Between {
            teams,
            opponents,
            dates,
            max,
            per_date,
        } => {
            let mut by_date: BTreeMap<Option<NaiveDate>, Vec<usize>> = BTreeMap::new();
            for (s, sl) in cand.slots.iter().enumerate() {
                let across = (teams.contains(&sl.home) && opponents.contains(&sl.away))
                    || (opponents.contains(&sl.home) && teams.contains(&sl.away));
                if across && on(dates, sl.date) {
                    by_date
                        .entry(per_date.then_some(sl.date))
                        .or_default()
                        .push(s);
                }
            }
            for slots in by_date.into_values() {
                push(slots, 0, *max);
            }
        }
        ConstraintKind::Fixtures {
            fixtures,
            dates,
            min,
            max,
        } => listed_fixtures(league, cand, fixtures, dates, (*min, *max), push),
        ConstraintKind::Apart { teams, days } => apart(cand, teams, i64::from(*days), push),
        // Breaks are counted by the side of each team's latest match, not by groups of slots
        // (`breaks`).
        ConstraintKind::Breaks { .. } | ConstraintKind::Level { .. } => {}
    }
}

/// CA3: per team, every run of `weeks` calendar weeks from the season's first week on (the
/// last run ends in its last week; a season shorter than `weeks` is one run).
fn in_a_row(
    league: &League,
    cand: &Candidates,
    teams: &[TeamId],
    count: Count,
    k: i64,
    max: u32,
    push: Push,
) {
    let (first, last) = (week(league.start), week(league.end));
    for &t in teams {
        let mut by_week: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
        for s in team_slots(cand, t, count) {
            by_week.entry(week(cand.slots[s].date)).or_default().push(s);
        }
        for w in first..=(last - k + 1).max(first) {
            let slots = by_week
                .range(w..w + k)
                .flat_map(|(_, v)| v.iter().copied())
                .collect();
            push(slots, 0, max);
        }
    }
}

/// GA1: one group, the listed fixtures' slots on the dates.
fn listed_fixtures(
    league: &League,
    cand: &Candidates,
    fixtures: &[(TeamId, TeamId)],
    dates: &BTreeSet<NaiveDate>,
    (min, max): (u32, u32),
    push: Push,
) {
    let single = |t: TeamId| league.divisions[league.teams[t].division].format != Format::Double;
    let is = |h: TeamId, a: TeamId, x: TeamId, y: TeamId| {
        (x == h && y == a) || (single(h) && x == a && y == h)
    };
    let slots = (0..cand.slots.len())
        .filter(|&s| {
            let sl = cand.slots[s];
            dates.contains(&sl.date) && fixtures.iter().any(|&(h, a)| is(h, a, sl.home, sl.away))
        })
        .collect();
    // A fixture left out of the season (a team withdrew) cannot be played at all.
    let excluded = |h: TeamId, a: TeamId| league.excluded.iter().any(|e| is(h, a, e.home, e.away));
    let playable = fixtures.iter().filter(|&&(h, a)| !excluded(h, a)).count() as u32;
    push(slots, min.min(playable), max);
}

/// SE1: per slot of each return fixture (b at home to a, a < b), that slot and the first
/// leg's slots fewer than `days` days from it: at most one of them is played.
fn apart(cand: &Candidates, teams: &[TeamId], days: i64, push: Push) {
    let legs: HashMap<(TeamId, TeamId), usize> = (cand.fixtures.iter().enumerate())
        .filter(|(_, fx)| fx.home_fixed)
        .map(|(f, fx)| ((fx.a, fx.b), f))
        .collect();
    for (f, fx) in cand.fixtures.iter().enumerate() {
        if !(fx.home_fixed && fx.a > fx.b && teams.contains(&fx.a) && teams.contains(&fx.b)) {
            continue;
        }
        let Some(&g) = legs.get(&(fx.b, fx.a)) else {
            continue;
        };
        for &s in &cand.by_fixture[f] {
            let d = cand.slots[s].date;
            let near = |o: &usize| (cand.slots[*o].date - d).num_days().abs() < days;
            let mut slots = vec![s];
            slots.extend(cand.by_fixture[g].iter().copied().filter(near));
            push(slots, 0, 1);
        }
    }
}

/// The `breaks` constraints (BR1, BR2): each team's breaks counted as the quality terms count
/// them (`quality::breaks_by_state`, exact at whole schedules), held to the limit per team or
/// in all; hard ones as rows, soft ones through a slack at their weight.
fn breaks(league: &League, cand: &Candidates, mip: &mut Mip, soft: bool) {
    for (i, c) in league.constraints.iter().enumerate() {
        let ConstraintKind::Breaks {
            teams,
            max,
            per_team,
        } = &c.kind
        else {
            continue;
        };
        if c.weight.is_some() != soft || c.weight == Some(0.0) {
            continue;
        }
        let mut counts = Vec::new();
        for &t in teams {
            let td = super::quality::team_dates(cand, mip, t);
            if !td.dates.is_empty() {
                counts.push(super::quality::breaks_by_state(mip, &td, 0.0));
            }
        }
        let sums = match per_team {
            true => counts,
            false => vec![counts.into_iter().sum()],
        };
        for e in sums {
            match c.weight {
                None => mip.limit(e, f64::from(*max), || Slack::Constraint { constraint: i }),
                Some(w) => {
                    let s = mip.vars.add(variable().min(0.0));
                    mip.objective += w * s;
                    mip.constraints.push((e - s).leq(f64::from(*max)));
                }
            }
        }
    }
}

/// The `level` constraints (FA2): on each date named, the most and the fewest home matches
/// the teams have played by its end (`hi`, `lo` columns bounding every team's count) at most
/// `max` apart; hard ones as rows, soft ones through a slack at their weight.
fn level(league: &League, cand: &Candidates, mip: &mut Mip, soft: bool) {
    for (i, c) in league.constraints.iter().enumerate() {
        let ConstraintKind::Level { teams, dates, max } = &c.kind else {
            continue;
        };
        if c.weight.is_some() != soft || c.weight == Some(0.0) || teams.len() < 2 {
            continue;
        }
        for &d in dates {
            let (hi, lo) = (mip.vars.add(variable()), mip.vars.add(variable()));
            for &t in teams {
                let home = (cand.by_team[t].iter().copied())
                    .filter(|&s| cand.slots[s].home == t && cand.slots[s].date <= d);
                let e = mip.sum(home);
                mip.constraints.push((e.clone() - hi).leq(0.0));
                mip.constraints.push((e - lo).geq(0.0));
            }
            match c.weight {
                None => mip.limit(hi - lo, f64::from(*max), || Slack::Constraint {
                    constraint: i,
                }),
                Some(w) => {
                    let s = mip.vars.add(variable().min(0.0));
                    mip.objective += w * s;
                    mip.constraints.push((hi - lo - s).leq(f64::from(*max)));
                }
            }
        }
    }
}

/// The hard constraints' rows (a pass of `PASSES`).
pub fn hard(league: &League, cand: &Candidates, mip: &mut Mip) {
    breaks(league, cand, mip, false);
    level(league, cand, mip, false);
    if league.constraints.iter().all(|c| c.weight.is_some()) {
        return; // no group to make
    }
    for g in groups(league, cand).unwrap_or_default() {
        if g.weight.is_some() {
            continue;
        }
        let i = g.constraint;
        let e = mip.sum(g.slots.iter().copied());
        if g.hi < g.slots.len() as u32 {
            mip.limit(e.clone(), f64::from(g.hi), || Slack::Constraint {
                constraint: i,
            });
        }
        if g.lo > 0 {
            mip.at_least(e, f64::from(g.lo), || Slack::Constraint { constraint: i });
        }
    }
}

/// The soft constraints' terms in the objective: each unit outside a group's limits costs its
/// weight, through a slack column.
pub fn soft(league: &League, cand: &Candidates, mip: &mut Mip) {
    breaks(league, cand, mip, true);
    level(league, cand, mip, true);
    if league
        .constraints
        .iter()
        .all(|c| c.weight.is_none_or(|w| w == 0.0))
    {
        return; // no group to make
    }
    for g in groups(league, cand).unwrap_or_default() {
        let Some(w) = g.weight.filter(|&w| w > 0.0) else {
            continue;
        };
        let e = mip.sum(g.slots.iter().copied());
        if g.hi < g.slots.len() as u32 {
            let s = mip.vars.add(variable().min(0.0));
            mip.objective += w * s;
            mip.constraints.push((e.clone() - s).leq(f64::from(g.hi)));
        }
        if g.lo > 0 {
            let s = mip.vars.add(variable().min(0.0));
            mip.objective += w * s;
            mip.constraints.push((e + s).geq(f64::from(g.lo)));
        }
    }
}
