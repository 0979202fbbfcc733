//! Simulated annealing over the candidate slots: the quick way to a good schedule at league scale.
//!
//! The MIP proves bounds, but its break count is a chain of weak LP rows: on a large league
//! HiGHS spends its time on relaxations that say nothing, and fix-and-optimise moves cost a
//! root solve each. A move here costs microseconds: change the slot of one, two or three
//! fixtures, check every hard rule on the few teams, venues and clubs it touches, and price
//! the change with the same objective the MIP minimises (breaks, avoid dates, long waits,
//! spread, worst spread). A move that would break a rule is never taken, so the schedule stays
//! valid throughout. In a double round robin a guide steers the walk below a worst spread of
//! 14% (`GUIDE_KNEE`), in its test for taking a move only. The result is handed back to HiGHS,
//! which measures it on the full model (an infeasible schedule there would be refused) and
//! tries to improve it and bound it.
//!
//! Moves: a fixture to another of its slots (date and/or home side), near its date or
//! anywhere; two fixtures of one team trade dates (each to a slot near the other's, which
//! reorders the team's home and away matches); a directed cycle of fixtures (A hosts B, B
//! hosts C, C hosts A; or of four) reverses, each to a nearby date, which changes breaks
//! while every team keeps its number of home matches. Every proposal goes only to slots that
//! keep the rest days from its teams' other matches, to venues with room that day, and to
//! sides the fixture has and its teams' home counts allow, so few proposals are wasted on
//! moves that could never be taken. Every few thousand steps a kick (`KICK_EVERY`) takes a
//! random move whatever it costs and repairs around it, judged as one move: it crosses
//! barriers no single move does.

use super::Rng;
use crate::formulate::constraints::{self, Group};
use crate::formulate::quality::winter_share;
use crate::formulate::rules::week_of;
use crate::formulate::{Candidates, Slot};
use crate::model::{ConstraintKind, League, Weights};
use std::time::Instant;

/// One match of a team: (day of the season, at home, fixture).
type TeamMatch = (i32, bool, usize);

/// How many times colder the annealing ends than it starts: a walk that still takes small
/// rises at its end finds better lists in a short run than one frozen early, and the best
/// schedule met is kept anyway. Chosen over falls of 3 to 300 (commit 926de49).
const T_FALL: f64 = 5.0;

/// The share of moves that start from a fixture of a costly team (`Anneal::costlier_team`);
/// the rest start from any fixture, so the walk works where the cost is without losing its
/// breadth. Half beat 0.3 and 0.8 on the double round robins (commit 373d20b).
const COSTLY_SHARE: f64 = 0.5;

/// Every `KICK_EVERY`-th step of the walk is a kick (`Anneal::kick`): a random move taken
/// whatever it costs, then `KICK_REPAIR` moves of the kicked teams' fixtures taken when they
/// do not raise the objective, the whole judged as one move. A single move cannot cross a
/// barrier that only a few moves together repay (Sussex's best lists play one derby on an
/// avoided date so that both teams can play before the winter break). Every 3,000 steps
/// helped every league tried; every 1,000 helped Sussex but hurt the double round robins
/// (commit d8b12fc).
///
/// In a large league the walk is still far from settled in a short run and kicks cost it more
/// than they find, so the kicks come every `KICK_SWEEPS` times as many steps as the league has
/// fixtures when that is more (commit 75c32d4).
const KICK_EVERY: u64 = 3000;
const KICK_SWEEPS: u64 = 20;
const KICK_REPAIR: usize = 1000;

/// The most slots `Anneal::nearby` chooses among.
const NEAR_MAX: usize = 8;
/// The most teams one move touches (three fixtures).
const MOVE_TEAMS: usize = 6;

/// The annealing's guide where no fixture can change sides (double round robins, each leg
/// with its home team), in its test for taking a move only: never in the objective, which stays
/// the league's and picks the best schedule. Above a worst spread of `GUIDE_KNEE`, each unit of
/// it weighs `GUIDE_SLOPE` times `spread_max` more. There a move changes only dates; at one
/// break for each point of worst spread the walk settles among lists with a few teams at 15-17%
/// (Notts: a Newark team whose club starts late); steered below 14% it finds lists no worse on
/// the league's own objective. Where sides can change it trades breaks for spread at a loss,
/// so it is off there (commit c9b29e5).
const GUIDE_KNEE: f64 = 0.14;
const GUIDE_SLOPE: f64 = 3.0;

/// How far a worst spread lies above `GUIDE_KNEE` (0 below it).
fn above_knee(z: f64) -> f64 {
    (z - GUIDE_KNEE).max(0.0)
}

/// Each venue's room for league matches on each day of the season (venue × day, `days` a
/// venue).
pub(crate) fn capacities(league: &League, days: usize) -> Vec<i32> {
    let mut cap = vec![0; league.venues.len() * days];
    for v in 0..league.venues.len() {
        for (i, d) in league.season_dates().enumerate() {
            cap[v * days + i] = league.league_capacity(v, d) as i32;
        }
    }
    cap
}

/// The tables marked `pub(super)` are read by the exact search (`exact`) too.
pub(crate) struct Anneal<'a> {
    league: &'a League,
    cand: &'a Candidates,
    w: Weights,
    pub(super) days: usize,
    /// Per slot: day of the season (0 = the league's start).
    pub(super) day: Vec<i32>,
    /// Per slot: its venue and day (index of `load` and `cap`), and its home team's club.
    pub(super) at: Vec<(u32, u32)>,
    /// Per slot: the avoid-dates cost (and, rescheduling, the cost of a move).
    avoid: Vec<f64>,
    /// Per fixture: (day, home, slot), sorted, for finding a fixture's slot on a day.
    slots_of: Vec<Vec<(i32, usize, usize)>>,
    pub(super) internal: Vec<bool>,
    /// Per fixture: whether it has slots on both sides (it can change sides).
    two_sided: Vec<bool>,
    /// Whether any fixture can change sides (else no cycle can reverse).
    reversible: bool,
    /// Per day of the season: the calendar week, counted from the start's week.
    pub(super) week: Vec<i32>,
    /// Per day of the season: the share of the season elapsed by its end, and by its start
    /// (the spread is measured on every day).
    pub(super) elapsed: Vec<(f64, f64)>,
    /// Per team: first possible day, and home matches allowed (lo, hi).
    pub(super) first: Vec<i32>,
    pub(super) home_range: Vec<(i32, i32)>,
    /// Per team: the first day of the winter break and its fair share of matches before it.
    pub(super) winter: Vec<Option<(i32, f64)>>,
    pub(super) cap: Vec<i32>,
    // The current schedule and its state.
    pub(crate) cur: Vec<usize>,
    matches: Vec<Vec<TeamMatch>>,
    home_count: Vec<i32>,
    load: Vec<i32>,
    club_home: Vec<i32>,
    club_dates: Vec<i32>,
    team_cost: Vec<f64>,
    team_z: Vec<f64>,
    /// The largest of `team_z`.
    worst: f64,
    avoid_total: f64,
    /// Earlier drafts: each fixture's day in each, and how many fixtures may keep it.
    earlier: Vec<Vec<i32>>,
    same: Vec<i32>,
    max_same: i32,
    /// Buffers for the touched teams' match lists while a move is priced.
    scratch: Vec<Vec<TeamMatch>>,
    /// The league file's `[[constraint]]`s as counted groups of slots.
    g: Groups,
    /// The guide's extra weight per unit of worst spread above `GUIDE_KNEE` while `run`
    /// anneals a league whose fixtures keep their sides (0 otherwise): only the test for
    /// taking a move sees it.
    guide: f64,
}

/// Per slot: the avoid-dates cost of its teams.
fn avoid_costs(league: &League, cand: &Candidates, w: &Weights) -> Vec<f64> {
    cand.slots
        .iter()
        .map(|s| {
            let hits = [s.home, s.away]
                .iter()
                .filter(|&&t| league.teams[t].avoid.contains(&s.date))
                .count();
            w.avoid * hits as f64
        })
        .collect()
}

/// Per fixture: (day, home, slot) of its slots, sorted.
fn slots_by_day(cand: &Candidates, day: &[i32]) -> Vec<Vec<(i32, usize, usize)>> {
    cand.by_fixture
        .iter()
        .map(|ss| {
            let mut v: Vec<(i32, usize, usize)> = ss
                .iter()
                .map(|&s| (day[s], cand.slots[s].home, s))
                .collect();
            v.sort();
            v
        })
        .collect()
}

/// Per team: its first possible day, its home matches allowed (lo, hi), and the first day of
/// its winter break with its fair share of matches before it.
#[allow(clippy::type_complexity)]
fn team_tables(
    league: &League,
    cand: &Candidates,
) -> (Vec<i32>, Vec<(i32, i32)>, Vec<Option<(i32, f64)>>) {
    let home_range = cand
        .fixtures_of
        .iter()
        .enumerate()
        .map(|(t, _)| {
            let (lo, hi) = cand.home_range(league, t);
            (lo as i32, hi as i32)
        })
        .collect();
    let first = league
        .teams
        .iter()
        .map(|t| (t.start.max(league.start) - league.start).num_days() as i32)
        .collect();
    let winter = (0..league.teams.len())
        .map(|t| {
            let n = cand.fixtures_of[t].len() as f64;
            winter_share(league, t, n)
                .map(|(from, fair)| ((from - league.start).num_days() as i32, fair))
        })
        .collect();
    (first, home_range, winter)
}

/// The league file's `[[constraint]]`s as groups of slots (`formulate::constraints`), the
/// groups each slot is in, each group's count, the soft groups' cost, and a move's changes of
/// count.
struct Groups {
    groups: Vec<Group>,
    of_slot: Vec<Vec<u32>>,
    n: Vec<i32>,
    cost: f64,
    delta: Vec<(u32, i32)>,
    /// The `breaks` constraints: which teams each counts, its limit, its weight (`None`
    /// hard), per team or in all; each team's breaks, and each limit's total.
    limits: Vec<BreakLimit>,
    team_breaks: Vec<i32>,
    totals: Vec<i32>,
    /// The `level` constraints.
    levels: Vec<LevelLimit>,
}

/// A `level` constraint (FA2) as the annealing keeps it: each team's home matches by the end
/// of each of its days, and each day's units over.
struct LevelLimit {
    teams: Vec<usize>,
    covers: Vec<bool>,
    days: Vec<i32>,
    max: i32,
    weight: Option<f64>,
    h: Vec<Vec<i32>>,
    over: Vec<i32>,
}

impl LevelLimit {
    /// Units over on the `k`-th day, with the touched teams' rows `new`.
    fn over_with(&self, k: usize, new: &[(usize, Vec<i32>)]) -> i32 {
        let (mut lo, mut hi) = (i32::MAX, i32::MIN);
        for &t in &self.teams {
            let v = new
                .iter()
                .find(|x| x.0 == t)
                .map_or(self.h[t][k], |x| x.1[k]);
            (lo, hi) = (lo.min(v), hi.max(v));
        }
        (hi - lo - self.max).max(0)
    }

    /// The rows of the touched `teams` it covers, from their match lists.
    fn rows(&self, teams: &[usize], lists: &[&[TeamMatch]]) -> Vec<(usize, Vec<i32>)> {
        (teams.iter().zip(lists))
            .filter(|(&t, _)| self.covers[t])
            .map(|(&t, ms)| (t, homes_by(ms, &self.days)))
            .collect()
    }
}

/// A team's home matches by the end of each of `days` (both in day order).
fn homes_by(ms: &[TeamMatch], days: &[i32]) -> Vec<i32> {
    let mut out = Vec::with_capacity(days.len());
    let (mut i, mut n) = (0, 0);
    for &d in days {
        while i < ms.len() && ms[i].0 <= d {
            n += i32::from(ms[i].1);
            i += 1;
        }
        out.push(n);
    }
    out
}

/// A `breaks` constraint as the annealing keeps it.
struct BreakLimit {
    covers: Vec<bool>,
    max: i32,
    weight: Option<f64>,
    per_team: bool,
}

impl BreakLimit {
    fn over(&self, n: i32) -> i32 {
        (n - self.max).max(0)
    }

    /// The rise in units over, when the touched `teams` go from `old` to `new` breaks and
    /// the limit's total is `total`.
    fn rise(&self, teams: &[usize], old: &[i32], new: &[i32], total: i32) -> i32 {
        let touched = teams.iter().enumerate().filter(|(_, &t)| self.covers[t]);
        match self.per_team {
            true => touched
                .map(|(i, &t)| self.over(new[i]) - self.over(old[t]))
                .sum(),
            false => {
                let d: i32 = touched.map(|(i, &t)| new[i] - old[t]).sum();
                self.over(total + d) - self.over(total)
            }
        }
    }
}

impl Groups {
    /// The groups of a league's constraints, counts not yet taken (`Anneal::place`).
    fn new(league: &League, cand: &Candidates) -> Self {
        // A league whose groups would be too large is refused before any search
        // (`precheck`).
        let groups = constraints::groups(league, cand).unwrap_or_default();
        let mut of_slot = vec![Vec::new(); cand.slots.len()];
        for (g, group) in groups.iter().enumerate() {
            for &s in &group.slots {
                of_slot[s].push(g as u32);
            }
        }
        let limits = (league.constraints.iter())
            .filter_map(|c| match &c.kind {
                ConstraintKind::Breaks {
                    teams,
                    max,
                    per_team,
                } => Some(BreakLimit {
                    covers: (0..league.teams.len())
                        .map(|t| teams.contains(&t))
                        .collect(),
                    max: *max as i32,
                    weight: c.weight,
                    per_team: *per_team,
                }),
                _ => None,
            })
            .collect();
        Groups {
            groups,
            of_slot,
            n: Vec::new(),
            cost: 0.0,
            delta: Vec::new(),
            limits,
            team_breaks: Vec::new(),
            totals: Vec::new(),
            levels: level_limits(league),
        }
    }

    /// Each team's rows and each day's units over for a schedule; returns the soft cost.
    fn place_levels(&mut self, matches: &[Vec<TeamMatch>]) -> f64 {
        let mut cost = 0.0;
        for l in &mut self.levels {
            for &t in &l.teams {
                l.h[t] = homes_by(&matches[t], &l.days);
            }
            l.over = (0..l.days.len()).map(|k| l.over_with(k, &[])).collect();
            let units: i32 = l.over.iter().sum();
            cost += l.weight.map_or(0.0, |w| w * f64::from(units));
        }
        cost
    }

    /// The soft `level` cost's change when the touched `teams` get the match `lists`; `None`
    /// when a hard one would go further over.
    fn price_levels(&self, teams: &[usize], lists: &[&[TeamMatch]]) -> Option<f64> {
        let mut cost = 0.0;
        for l in &self.levels {
            let new = l.rows(teams, lists);
            if new.is_empty() {
                continue;
            }
            let rise: i32 = (0..l.days.len())
                .map(|k| l.over_with(k, &new) - l.over[k])
                .sum();
            match l.weight {
                None if rise > 0 => return None,
                None => {}
                Some(w) => cost += w * f64::from(rise),
            }
        }
        Some(cost)
    }

    /// Takes the touched teams' rows from their (new) match lists.
    fn commit_levels(&mut self, teams: &[usize], matches: &[Vec<TeamMatch>]) {
        let lists: Vec<&[TeamMatch]> = teams.iter().map(|&t| matches[t].as_slice()).collect();
        for l in &mut self.levels {
            let new = l.rows(teams, &lists);
            if new.is_empty() {
                continue;
            }
            l.over = (0..l.days.len()).map(|k| l.over_with(k, &new)).collect();
            for (t, row) in new {
                l.h[t] = row;
            }
        }
    }

    /// Counts every team's breaks and each limit's total for a schedule; returns the soft
    /// limits' cost.
    fn place_breaks(&mut self, matches: &[Vec<TeamMatch>]) -> f64 {
        self.team_breaks = matches.iter().map(|ms| breaks_of(ms)).collect();
        let tb = &self.team_breaks;
        self.totals = (self.limits.iter())
            .map(|l| (0..tb.len()).filter(|&t| l.covers[t]).map(|t| tb[t]).sum())
            .collect();
        (self.limits.iter().zip(&self.totals))
            .map(|(l, &total)| {
                let units = match l.per_team {
                    true => (0..tb.len())
                        .filter(|&t| l.covers[t])
                        .map(|t| l.over(tb[t]))
                        .sum(),
                    false => l.over(total),
                };
                l.weight.map_or(0.0, |w| w * f64::from(units))
            })
            .sum()
    }

    /// Whether every hard `breaks` limit holds.
    fn breaks_ok(&self) -> bool {
        let tb = &self.team_breaks;
        (self.limits.iter().zip(&self.totals)).all(|(l, &total)| {
            l.weight.is_some()
                || match l.per_team {
                    true => (0..tb.len()).all(|t| !l.covers[t] || l.over(tb[t]) == 0),
                    false => l.over(total) == 0,
                }
        })
    }

    /// The soft limits' change in cost when the touched `teams` get `new` breaks; `None`
    /// when a hard limit would go further over.
    fn price_breaks(&self, teams: &[usize], new: &[i32]) -> Option<f64> {
        let mut cost = 0.0;
        for (l, &total) in self.limits.iter().zip(&self.totals) {
            let rise = l.rise(teams, &self.team_breaks, new, total);
            match l.weight {
                None if rise > 0 => return None,
                None => {}
                Some(w) => cost += w * f64::from(rise),
            }
        }
        Some(cost)
    }

    /// Takes the touched teams' new break counts.
    fn commit_breaks(&mut self, teams: &[usize], new: &[i32]) {
        for (l, total) in self.limits.iter().zip(self.totals.iter_mut()) {
            *total += (teams.iter().enumerate())
                .filter(|(_, &t)| l.covers[t])
                .map(|(i, &t)| new[i] - self.team_breaks[t])
                .sum::<i32>();
        }
        for (i, &t) in teams.iter().enumerate() {
            self.team_breaks[t] = new[i];
        }
    }
}

/// The league's `level` constraints, rows not yet counted (`Groups::place_levels`).
fn level_limits(league: &League) -> Vec<LevelLimit> {
    (league.constraints.iter())
        .filter_map(|c| match &c.kind {
            ConstraintKind::Level { teams, dates, max } if teams.len() > 1 => Some(LevelLimit {
                teams: teams.clone(),
                covers: (0..league.teams.len())
                    .map(|t| teams.contains(&t))
                    .collect(),
                days: dates
                    .iter()
                    .map(|d| (*d - league.start).num_days() as i32)
                    .collect(),
                max: *max as i32,
                weight: c.weight,
                h: vec![Vec::new(); league.teams.len()],
                over: Vec::new(),
            }),
            _ => None,
        })
        .collect()
}

/// A team's breaks: two of its matches running (in day order) on one side.
fn breaks_of(ms: &[TeamMatch]) -> i32 {
    ms.windows(2).filter(|p| p[0].1 == p[1].1).count() as i32
}

impl<'a> Anneal<'a> {
    /// `cur[f]` is fixture f's slot in a valid schedule.
    pub(crate) fn new(
        league: &'a League,
        cand: &'a Candidates,
        w: &Weights,
        cur: &[usize],
    ) -> Self {
        let days = ((league.end - league.start).num_days() + 1).max(1) as usize;
        let day: Vec<i32> = cand
            .slots
            .iter()
            .map(|s| (s.date - league.start).num_days() as i32)
            .collect();
        let avoid = avoid_costs(league, cand, w);
        let slots_of = slots_by_day(cand, &day);
        let internal = (0..cand.fixtures.len())
            .map(|f| cand.is_internal(league, f))
            .collect();
        let w0 = week_of(league.start);
        let week = league
            .season_dates()
            .map(|d| (week_of(d) - w0) as i32)
            .collect();
        let share = |day: usize| (day as f64 / days as f64).clamp(0.0, 1.0);
        let elapsed = (0..days).map(|d| (share(d + 1), share(d))).collect();
        let (first, home_range, winter) = team_tables(league, cand);
        let cap = capacities(league, days);
        let at = cand
            .slots
            .iter()
            .zip(&day)
            .map(|(slot, &d)| {
                let venue = league.fixture_venue(slot.home, slot.away);
                let club = league.teams[slot.home].club;
                ((venue * days + d as usize) as u32, club as u32)
            })
            .collect();
        let two_sided: Vec<bool> = slots_of
            .iter()
            .map(|v| v.first().is_some_and(|x| v.iter().any(|y| y.1 != x.1)))
            .collect();
        let reversible = two_sided.iter().any(|&b| b);
        let mut a = Anneal {
            league,
            cand,
            two_sided,
            reversible,
            w: *w,
            days,
            day,
            at,
            avoid,
            slots_of,
            internal,
            week,
            elapsed,
            first,
            home_range,
            winter,
            cap,
            cur: Vec::new(),
            matches: vec![Vec::new(); league.teams.len()],
            home_count: vec![0; league.teams.len()],
            load: vec![0; league.venues.len() * days],
            club_home: vec![0; league.clubs.len() * days],
            club_dates: vec![0; league.clubs.len()],
            team_cost: vec![0.0; league.teams.len()],
            team_z: vec![0.0; league.teams.len()],
            worst: 0.0,
            avoid_total: 0.0,
            earlier: Vec::new(),
            same: Vec::new(),
            max_same: i32::MAX,
            scratch: vec![Vec::new(); MOVE_TEAMS],
            guide: 0.0,
            g: Groups::new(league, cand),
        };
        a.place(cur);
        a
    }

    /// Makes `cur` the schedule: every count and cost is rebuilt from it (the slots' prices,
    /// `avoid`, and the earlier drafts stay).
    fn place(&mut self, cur: &[usize]) {
        self.cur = cur.to_vec();
        self.matches.iter_mut().for_each(Vec::clear);
        self.home_count.fill(0);
        self.load.fill(0);
        self.club_home.fill(0);
        self.club_dates.fill(0);
        self.avoid_total = 0.0;
        for (f, &s) in cur.iter().enumerate() {
            let slot = self.cand.slots[s];
            self.matches[slot.home].push((self.day[s], true, f));
            self.matches[slot.away].push((self.day[s], false, f));
            self.resources(s, 1);
            self.home_count[slot.home] += 1;
            self.avoid_total += self.avoid[s];
        }
        for t in 0..self.league.teams.len() {
            self.matches[t].sort();
            let (cost, z) = self.team_value(t, &self.matches[t]).unwrap_or((0.0, 0.0));
            self.team_cost[t] = cost;
            self.team_z[t] = z;
        }
        self.worst = self.team_z.iter().copied().fold(0.0, f64::max);
        self.g.n = vec![0; self.g.groups.len()];
        for &s in cur {
            for &g in &self.g.of_slot[s] {
                self.g.n[g as usize] += 1;
            }
        }
        self.g.cost = (self.g.groups.iter().zip(&self.g.n))
            .map(|(g, &n)| g.weight.map_or(0.0, |w| w * f64::from(g.over(n))))
            .sum::<f64>()
            + self.g.place_breaks(&self.matches)
            + self.g.place_levels(&self.matches);
        let (earlier, max_same) = (std::mem::take(&mut self.earlier), self.max_same);
        self.set_earlier(earlier, max_same);
    }

    /// Keeps the schedule apart from earlier drafts (see `Steer::differ_from`), and prices
    /// moves away from the current schedule when rescheduling (`Steer::preferred`).
    pub(crate) fn differing(mut self, opts: &super::Steer) -> Self {
        if opts.rescheduling() {
            for (s, slot) in self.cand.slots.iter().enumerate() {
                self.avoid[s] += opts.slot_cost(slot.fixture, slot.home, slot.date);
            }
            self.avoid_total = self.cur.iter().map(|&s| self.avoid[s]).sum();
        }
        let start = self.league.start;
        let earlier = opts
            .differ_from
            .iter()
            .map(|ds| ds.iter().map(|d| (*d - start).num_days() as i32).collect())
            .collect();
        self.set_earlier(earlier, opts.max_same_count(self.cur.len()) as i32);
        self
    }

    fn set_earlier(&mut self, earlier: Vec<Vec<i32>>, max_same: i32) {
        self.same = earlier
            .iter()
            .map(|e| {
                (0..self.cur.len())
                    .filter(|&f| e.get(f) == Some(&self.day[self.cur[f]]))
                    .count() as i32
            })
            .collect();
        self.earlier = earlier;
        self.max_same = max_same;
    }

    /// The schedule's objective, as the MIP counts it.
    pub(crate) fn objective(&self) -> f64 {
        self.team_cost.iter().sum::<f64>()
            + self.avoid_total
            + self.w.spread_max * self.worst
            + self.g.cost
    }

    /// Each team's spread (0 to 1).
    pub(crate) fn spreads(&self) -> &[f64] {
        &self.team_z
    }

    /// Whether every team-level rule holds for the current schedule.
    pub(crate) fn valid(&self) -> bool {
        (0..self.league.teams.len()).all(|t| {
            let h = self.home_count[t];
            let (lo, hi) = self.home_range[t];
            self.team_value(t, &self.matches[t]).is_some() && h >= lo && h <= hi
        }) && self.load.iter().zip(&self.cap).all(|(l, c)| l <= c)
            && self.clubs_ok()
            && self.same.iter().all(|&n| n <= self.max_same)
            && (self.g.groups.iter().zip(&self.g.n))
                .all(|(g, &n)| g.weight.is_some() || g.over(n) == 0)
            && self.g.breaks_ok()
            && (self.g.levels.iter()).all(|l| l.weight.is_some() || l.over.iter().all(|&o| o == 0))
    }

    /// The change in the soft constraints' cost if `changes` were made, its changes of count
    /// left in `group_delta`; `None` when a hard constraint would go further over its limit.
    fn price_groups(&mut self, changes: &[(usize, usize)]) -> Option<f64> {
        let mut gd = std::mem::take(&mut self.g.delta);
        gd.clear();
        let mut bump = |g: u32, d: i32| match gd.iter_mut().find(|e| e.0 == g) {
            Some(e) => e.1 += d,
            None => gd.push((g, d)),
        };
        for &(f, s) in changes {
            self.g.of_slot[self.cur[f]]
                .iter()
                .for_each(|&g| bump(g, -1));
            self.g.of_slot[s].iter().for_each(|&g| bump(g, 1));
        }
        let mut cost = 0.0;
        let mut ok = true;
        for &(g, d) in &gd {
            let (group, n) = (&self.g.groups[g as usize], self.g.n[g as usize]);
            let rise = group.over(n + d) - group.over(n);
            match group.weight {
                None if rise > 0 => ok = false,
                None => {}
                Some(w) => cost += w * f64::from(rise),
            }
        }
        self.g.delta = gd;
        ok.then_some(cost)
    }

    fn clubs_ok(&self) -> bool {
        self.league
            .clubs
            .iter()
            .zip(&self.club_dates)
            .all(|(c, &n)| c.max_home_dates.is_none_or(|m| n <= m as i32))
    }

    /// Adds `k` (1 or -1) of slot `s` to its venue's load and its club's home dates.
    fn resources(&mut self, s: usize, k: i32) {
        let (at, club) = self.at[s];
        let club = club as usize;
        let d = self.day[s] as usize;
        self.load[at as usize] += k;
        let ch = &mut self.club_home[club * self.days + d];
        let before = *ch;
        *ch += k;
        if before == 0 && *ch > 0 {
            self.club_dates[club] += 1;
        } else if before > 0 && *ch == 0 {
            self.club_dates[club] -= 1;
        }
    }

    /// A team's quality cost (without avoid dates and the worst spread) and its spread,
    /// or `None` when one of its rules fails: rest days, `same_club_first`,
    /// `max_consecutive_weeks`. `ms` is sorted by day.
    fn team_value(&self, t: usize, ms: &[TeamMatch]) -> Option<(f64, f64)> {
        let rules = &self.league.rules;
        let gap = rules.min_days_between.max(1) as i32;
        if ms.windows(2).any(|p| p[1].0 - p[0].0 < gap) {
            return None;
        }
        if rules.same_club_first {
            let last_internal = ms.iter().filter(|m| self.internal[m.2]).map(|m| m.0).max();
            let first_external = ms.iter().filter(|m| !self.internal[m.2]).map(|m| m.0).min();
            if let (Some(i), Some(e)) = (last_internal, first_external) {
                if i >= e {
                    return None;
                }
            }
        }
        if let Some(k) = rules.max_consecutive_weeks {
            let mut run = 0;
            let mut last_week = i32::MIN;
            for m in ms {
                let wk = self.week[m.0 as usize];
                if wk == last_week {
                    continue;
                }
                run = if wk == last_week + 1 { run + 1 } else { 1 };
                if run > k as i32 {
                    return None;
                }
                last_week = wk;
            }
        }
        let w = &self.w;
        let mut cost = 0.0;
        if w.breaks > 0.0 {
            let b = ms.windows(2).filter(|p| p[0].1 == p[1].1).count();
            cost += w.breaks * b as f64;
        }
        if w.short_rest > 0.0 {
            let target = w.short_rest_days as i32;
            let mut days = 0;
            for (i, a) in ms.iter().enumerate() {
                for b in ms[i + 1..].iter().take_while(|b| b.0 - a.0 < target) {
                    days += target - (b.0 - a.0);
                }
            }
            cost += w.short_rest * days as f64;
        }
        if w.long_rest > 0.0 && !ms.is_empty() {
            let g = w.long_rest_days as i32;
            let free = |a: i32, b: i32| (b - a + 2 - g).max(0);
            let mut days = free(self.first[t], ms[0].0 - 1);
            for p in ms.windows(2) {
                days += free(p[0].0 + 1, p[1].0 - 1);
            }
            days += free(ms[ms.len() - 1].0 + 1, self.days as i32 - 1);
            cost += w.long_rest * days as f64;
        }
        if let (true, Some((from, fair))) = (w.winter > 0.0, self.winter[t]) {
            let before = ms.iter().take_while(|m| m.0 < from).count();
            cost += w.winter * (before as f64 - fair).abs();
        }
        let mut z = 0.0;
        let n = self.cand.fixtures_of[t].len();
        if (w.spread > 0.0 || w.spread_max > 0.0) && n > 0 {
            // Just before the i-th match (from 0) i are played, just after it i + 1: the
            // largest lead and lag lie there (the checker's figure, every day counted).
            for (i, m) in ms.iter().enumerate() {
                let (end, start) = self.elapsed[m.0 as usize];
                let (before, after) = (i as f64 / n as f64, (i + 1) as f64 / n as f64);
                z = f64::max(z, f64::max((before - start).abs(), (after - end).abs()));
            }
            cost += w.spread * z;
        }
        Some((cost, z))
    }

    /// Tries to give each fixture of `changes` its new slot; takes the change when every rule
    /// holds and the objective rises by less than `limit`. Returns the change in objective.
    fn try_move(&mut self, changes: &[(usize, usize)], limit: f64) -> Option<f64> {
        // The rest days are checked with the touched teams' rules (`team_value`).
        if changes.iter().any(|&(f, s)| self.cur[f] == s) {
            return None;
        }
        for &(f, s) in changes {
            self.resources(self.cur[f], -1);
            self.resources(s, 1);
        }
        let undo = |me: &mut Self| {
            for &(f, s) in changes {
                me.resources(s, -1);
                me.resources(me.cur[f], 1);
            }
        };
        let over = changes.iter().any(|&(_, s)| {
            let (i, club) = (self.at[s].0 as usize, self.at[s].1 as usize);
            self.load[i] > self.cap[i]
                || self.league.clubs[club]
                    .max_home_dates
                    .is_some_and(|m| self.club_dates[club] > m as i32)
        });
        if over {
            undo(self);
            return None;
        }
        // Earlier drafts: fixtures that keep their date there.
        let mut same_delta: Vec<i32> = Vec::new();
        for (k, e) in self.earlier.iter().enumerate() {
            let mut d = 0;
            for &(f, s) in changes {
                d += i32::from(e[f] == self.day[s]) - i32::from(e[f] == self.day[self.cur[f]]);
            }
            if self.same[k] + d > self.max_same {
                undo(self);
                return None;
            }
            same_delta.push(d);
        }
        let Some(soft) = self.price_groups(changes) else {
            undo(self);
            return None;
        };
        let mut teams = [0usize; MOVE_TEAMS];
        let mut nt = 0;
        for &(f, _) in changes {
            let fx = self.cand.fixtures[f];
            for t in [fx.a, fx.b] {
                if !teams[..nt].contains(&t) {
                    teams[nt] = t;
                    nt += 1;
                }
            }
        }
        let teams = &teams[..nt];
        // Each touched team's matches after the move, built in reused buffers.
        let mut lists = std::mem::take(&mut self.scratch);
        let mut values = [(0.0, 0.0); MOVE_TEAMS];
        let mut delta = 0.0;
        for (i, &t) in teams.iter().enumerate() {
            let ms = &mut lists[i];
            ms.clear();
            ms.extend(
                self.matches[t]
                    .iter()
                    .filter(|m| !changes.iter().any(|c| c.0 == m.2)),
            );
            let mut homes = 0;
            for &(f, s) in changes {
                let slot = self.cand.slots[s];
                if slot.home == t || slot.away == t {
                    ms.push((self.day[s], slot.home == t, f));
                }
                homes +=
                    i32::from(slot.home == t) - i32::from(self.cand.slots[self.cur[f]].home == t);
            }
            let h = self.home_count[t] + homes;
            let (lo, hi) = self.home_range[t];
            if h < lo || h > hi {
                self.scratch = lists;
                undo(self);
                return None;
            }
            ms.sort_unstable();
            let Some((cost, z)) = self.team_value(t, ms) else {
                self.scratch = lists;
                undo(self);
                return None;
            };
            delta += cost - self.team_cost[t];
            values[i] = (cost, z);
        }
        let mut new_breaks = [0i32; MOVE_TEAMS];
        let mut limit_rise = 0.0;
        if !self.g.limits.is_empty() {
            for (i, b) in new_breaks[..nt].iter_mut().enumerate() {
                *b = breaks_of(&lists[i]);
            }
            let Some(rise) = self.g.price_breaks(teams, &new_breaks[..nt]) else {
                self.scratch = lists;
                undo(self);
                return None;
            };
            limit_rise = rise;
        }
        if !self.g.levels.is_empty() {
            let news: Vec<&[TeamMatch]> = lists[..nt].iter().map(|l| l.as_slice()).collect();
            let Some(rise) = self.g.price_levels(teams, &news) else {
                self.scratch = lists;
                undo(self);
                return None;
            };
            limit_rise += rise;
        }
        let avoid: f64 = changes
            .iter()
            .map(|&(f, s)| self.avoid[s] - self.avoid[self.cur[f]])
            .sum();
        delta += avoid + soft + limit_rise;
        let mut worst = self.worst;
        if self.w.spread_max > 0.0 {
            // The untouched teams' largest spread is the old worst unless a touched team
            // held it: only then look at every team.
            let rest = if teams.iter().any(|&t| self.team_z[t] >= self.worst) {
                (0..self.team_z.len())
                    .filter(|t| !teams.contains(t))
                    .map(|t| self.team_z[t])
                    .fold(0.0, f64::max)
            } else {
                self.worst
            };
            worst = values[..nt].iter().map(|v| v.1).fold(rest, f64::max);
            delta += self.w.spread_max * (worst - self.worst);
        }
        if delta + self.guide * (above_knee(worst) - above_knee(self.worst)) >= limit {
            self.scratch = lists;
            undo(self);
            return None;
        }
        for (i, &t) in teams.iter().enumerate() {
            self.home_count[t] = lists[i].iter().filter(|m| m.1).count() as i32;
            // The team's old list becomes the buffer.
            std::mem::swap(&mut self.matches[t], &mut lists[i]);
            (self.team_cost[t], self.team_z[t]) = values[i];
        }
        self.scratch = lists;
        self.worst = worst;
        for &(f, s) in changes {
            self.cur[f] = s;
        }
        for (n, d) in self.same.iter_mut().zip(same_delta) {
            *n += d;
        }
        self.avoid_total += avoid;
        for &(g, d) in &self.g.delta {
            self.g.n[g as usize] += d;
        }
        if !self.g.limits.is_empty() {
            self.g.commit_breaks(teams, &new_breaks[..nt]);
        }
        if !self.g.levels.is_empty() {
            self.g.commit_levels(teams, &self.matches);
        }
        self.g.cost += soft + limit_rise;
        Some(delta)
    }

    /// The days fixture `f` may move to around `day` (inclusive): at least `min_days_between`
    /// days after the last and before the next match of each of its teams from `day` on,
    /// leaving out the fixtures of `moving` (which move too).
    fn window(&self, f: usize, day: i32, moving: &[usize]) -> (i32, i32) {
        let gap = self.league.rules.min_days_between.max(1) as i32;
        let fx = self.cand.fixtures[f];
        let (mut lo, mut hi) = (i32::MIN, i32::MAX);
        for t in [fx.a, fx.b] {
            let ms = &self.matches[t];
            let i = ms.partition_point(|m| m.0 <= day);
            let stays = |m: &&TeamMatch| !moving.contains(&m.2);
            if let Some(m) = ms[..i].iter().rev().find(stays) {
                lo = lo.max(m.0 + gap);
            }
            if let Some(m) = ms[i..].iter().find(stays) {
                hi = hi.min(m.0 - gap);
            }
        }
        (lo, hi)
    }

    /// Whether slot `s`'s venue has room on its day, counting the fixtures of `moving` as gone
    /// from where they are now (the rest is checked when the move is priced).
    fn room(&self, s: usize, moving: &[usize]) -> bool {
        let at = self.at[s].0;
        let freed = moving
            .iter()
            .filter(|&&g| self.at[self.cur[g]].0 == at)
            .count() as i32;
        self.load[at as usize] - freed < self.cap[at as usize]
    }

    /// A slot of fixture `f` near `day` other than its current one, with `home` at home when
    /// given, that keeps the rest days from the matches of its teams that stay (all but those
    /// of `moving`; `window`): a random one of the `near` nearest such.
    fn nearby(
        &self,
        f: usize,
        day: i32,
        home: Option<usize>,
        near: usize,
        moving: &[usize],
        rng: &mut Rng,
    ) -> Option<usize> {
        let (from, to) = self.window(f, day, moving);
        if from > to {
            return None;
        }
        // Outwards from `day` through the fixture's slots (sorted by day) within the window,
        // nearest first: no allocation, as this runs on most moves.
        let v = &self.slots_of[f];
        let mut pick = [0usize; NEAR_MAX];
        let k = near.min(NEAR_MAX);
        let mut n = 0;
        let mut hi = v.partition_point(|e| e.0 < day.clamp(from, to));
        let mut lo = hi;
        while n < k {
            let left = (lo > 0 && v[lo - 1].0 >= from).then(|| day - v[lo - 1].0);
            let right = (hi < v.len() && v[hi].0 <= to).then(|| v[hi].0 - day);
            let i = match (left, right) {
                (None, None) => break,
                (Some(l), Some(r)) if l < r => {
                    lo -= 1;
                    lo
                }
                (Some(_), None) => {
                    lo -= 1;
                    lo
                }
                _ => {
                    hi += 1;
                    hi - 1
                }
            };
            let (_, h, s) = v[i];
            if home.is_none_or(|x| x == h) && s != self.cur[f] && self.room(s, moving) {
                pick[n] = s;
                n += 1;
            }
        }
        (n > 0).then(|| pick[rng.below(n)])
    }

    /// A random move into `out`, as a list of (fixture, new slot); left empty when the move
    /// has no slots to go to. Every proposed slot keeps the rest days from the matches that
    /// stay, and a side is only asked for where the fixture has it (in a double round robin
    /// each leg has its home team, and asking for the other side would waste most proposals).
    fn propose(&self, rng: &mut Rng, movable: &[usize], out: &mut Vec<(usize, usize)>) {
        out.clear();
        let f = if rng.unit() < COSTLY_SHARE {
            let fs = &self.cand.fixtures_of[self.costlier_team(rng)];
            if fs.is_empty() {
                return;
            }
            fs[rng.below(fs.len())]
        } else {
            movable[rng.below(movable.len())]
        };
        self.propose_from(f, rng, out);
    }

    /// A random move of fixture `f` (and the fixtures it trades with) into `out`, as `propose`.
    fn propose_from(&self, f: usize, rng: &mut Rng, out: &mut Vec<(usize, usize)>) {
        out.clear();
        if self.slots_of[f].len() < 2 {
            return;
        }
        let s = self.cur[f];
        let slot = self.cand.slots[s];
        let day = self.day[s];
        let mut kind = rng.below(10);
        // Without a fixture that can change sides (double round robins), no cycle can
        // reverse: those draws trade dates instead.
        if kind >= 7 && !self.reversible {
            kind = 5;
        }
        match kind {
            // Anywhere, making room: to a random one of its slots, the matches of its teams
            // too close to it going near its old date.
            0 | 1 => self.eject(f, rng, out),
            // Nearby, on a side it can be played on.
            2..=4 => {
                let home = self.side(f, rng);
                if let Some(n) = self.nearby(f, day, Some(home), 4, &[f], rng) {
                    out.push((f, n));
                }
            }
            // Two fixtures of one team trade dates: each goes near the other's, on either
            // side, which reorders the team's home and away matches.
            5 | 6 => {
                let t = if rng.below(2) == 0 {
                    slot.home
                } else {
                    slot.away
                };
                let fs = &self.cand.fixtures_of[t];
                let g = fs[rng.below(fs.len())];
                if g == f || self.slots_of[g].len() < 2 {
                    return;
                }
                let dg = self.day[self.cur[g]];
                let both = [f, g];
                let (hf, hg) = self.trade_sides(f, g, rng);
                if let (Some(a), Some(b)) = (
                    self.nearby(f, dg, Some(hf), 2, &both, rng),
                    self.nearby(g, day, Some(hg), 2, &both, rng),
                ) {
                    out.extend([(f, a), (g, b)]);
                }
            }
            // A directed cycle reverses.
            _ => {
                let (h, a) = (slot.home, slot.away);
                let (cycle, len) = self.cycle(f, h, a, rng);
                for &g in &cycle[..len] {
                    let sg = self.cur[g];
                    let gs = self.cand.slots[sg];
                    match self.nearby(g, self.day[sg], Some(gs.away), 3, &cycle[..len], rng) {
                        Some(n) => out.push((g, n)),
                        None => {
                            out.clear();
                            return;
                        }
                    }
                }
            }
        }
    }

    /// A kick and its repair: a random move taken whatever it costs (if valid), then `repair`
    /// moves of the kicked teams' fixtures, each taken when it does not raise the objective;
    /// the whole is kept when its rise is below `limit`, else undone. Returns the change in
    /// objective (0 when undone) and whether it was kept.
    fn kick(
        &mut self,
        rng: &mut Rng,
        movable: &[usize],
        limit: f64,
        repair: usize,
        out: &mut Vec<(usize, usize)>,
    ) -> (f64, bool) {
        self.propose(rng, movable, out);
        if out.is_empty() {
            return (0.0, false);
        }
        let (before, worst) = (self.objective(), self.worst);
        let start = self.cur.clone();
        // Each taken move as (fixture, slot it left), to undo them last first.
        let mut log: Vec<Vec<(usize, usize)>> = Vec::new();
        let undo_of = |me: &Self, out: &[(usize, usize)]| -> Vec<(usize, usize)> {
            out.iter().map(|&(f, _)| (f, me.cur[f])).collect()
        };
        let back = undo_of(self, out);
        if self.try_move(out, f64::INFINITY).is_none() {
            return (0.0, false);
        }
        log.push(back);
        let mut teams: Vec<usize> = Vec::with_capacity(MOVE_TEAMS);
        for &(f, _) in out.iter() {
            let fx = self.cand.fixtures[f];
            for t in [fx.a, fx.b] {
                if !teams.contains(&t) {
                    teams.push(t);
                }
            }
        }
        for _ in 0..repair {
            let fs = &self.cand.fixtures_of[teams[rng.below(teams.len())]];
            self.propose_from(fs[rng.below(fs.len())], rng, out);
            if out.is_empty() {
                continue;
            }
            let back = undo_of(self, out);
            // Level moves are taken too: they let the repair walk across plateaus.
            if self.try_move(out, 1e-9).is_some() {
                log.push(back);
            }
        }
        let delta = self.objective() - before;
        if delta + self.guide * (above_knee(self.worst) - above_knee(worst)) < limit {
            return (delta, true);
        }
        // Each undo returns to a schedule the walk held; only one that broke a rule the moves
        // keep (an earlier draft's, at the start) could refuse it: then the schedule is
        // rebuilt as it was.
        let mut undone = true;
        for back in log.iter().rev() {
            undone = undone && self.try_move(back, f64::INFINITY).is_some();
        }
        if !undone {
            self.place(&start);
        }
        (self.objective() - before, false)
    }

    /// The costlier of two teams drawn at random (its breaks, waits, spread and winter share,
    /// as `team_value` prices them): a team's chance grows with its rank by cost.
    fn costlier_team(&self, rng: &mut Rng) -> usize {
        let n = self.team_cost.len();
        let (a, b) = (rng.below(n), rng.below(n));
        if self.team_cost[a] >= self.team_cost[b] {
            a
        } else {
            b
        }
    }

    /// Fixture `f` to a random one of its slots on a side it can be played on; the (at most
    /// two) matches of its teams within the rest days of the new date go to slots near its
    /// old date, on their sides (a trade of dates between `f` and the matches in its way, for
    /// both its teams).
    fn eject(&self, f: usize, rng: &mut Rng, out: &mut Vec<(usize, usize)>) {
        let home = self.side(f, rng);
        let all = &self.slots_of[f];
        let mut i = rng.below(all.len());
        if all[i].1 != home {
            // The same day's slot on the other side lies next to it, if the fixture has one.
            match (i.checked_sub(1), all.get(i + 1)) {
                (Some(j), _) if all[j].0 == all[i].0 && all[j].1 == home => i = j,
                (_, Some(e)) if e.0 == all[i].0 && e.1 == home => i += 1,
                _ => return,
            }
        }
        let (to, _, s) = all[i];
        if s == self.cur[f] {
            return;
        }
        let gap = self.league.rules.min_days_between.max(1) as i32;
        let fx = self.cand.fixtures[f];
        let mut moving = [f, 0, 0];
        let mut n = 1;
        for t in [fx.a, fx.b] {
            let ms = &self.matches[t];
            let from = ms.partition_point(|m| m.0 <= to - gap);
            for m in ms[from..].iter().take_while(|m| m.0 < to + gap) {
                if moving[..n].contains(&m.2) {
                    continue;
                }
                if n == 3 || self.slots_of[m.2].len() < 2 {
                    return;
                }
                moving[n] = m.2;
                n += 1;
            }
        }
        let moving = &moving[..n];
        if !self.room(s, moving) {
            return;
        }
        out.push((f, s));
        let day = self.day[self.cur[f]];
        for &g in &moving[1..] {
            let keep = self.cand.slots[self.cur[g]].home;
            match self.nearby(g, day, Some(keep), 2, moving, rng) {
                Some(n) => out.push((g, n)),
                None => {
                    out.clear();
                    return;
                }
            }
        }
    }

    /// The home team for a move of fixture `f` alone: the other side half the time when the
    /// fixture has it and both teams' home counts stay within their ranges after the swap,
    /// else its current one (with `home_away_balance = 1` and an even number of matches a
    /// team's home count is fixed: in Sussex 3.5 million of 17 million proposals asked for a
    /// swap of sides that could never be taken).
    fn side(&self, f: usize, rng: &mut Rng) -> usize {
        let slot = self.cand.slots[self.cur[f]];
        let (h, a) = (slot.home, slot.away);
        let flips = self.two_sided[f]
            && self.home_count[h] > self.home_range[h].0
            && self.home_count[a] < self.home_range[a].1;
        if flips && rng.below(2) == 0 {
            a
        } else {
            h
        }
    }

    /// The home teams for a trade of dates between fixtures `f` and `g` (of one team): a
    /// random one of the four choices of keeping or swapping each side that the fixtures have
    /// and that keep every team's home count within its range (swapping both sides keeps the
    /// common team's count when it is at home in one and away in the other).
    fn trade_sides(&self, f: usize, g: usize, rng: &mut Rng) -> (usize, usize) {
        let (sf, sg) = (self.cand.slots[self.cur[f]], self.cand.slots[self.cur[g]]);
        let mut ok = [(sf.home, sg.home); 4];
        let mut n = 1;
        for (flip_f, flip_g) in [(true, false), (false, true), (true, true)] {
            if (flip_f && !self.two_sided[f]) || (flip_g && !self.two_sided[g]) {
                continue;
            }
            // The home count of team t after the flips.
            let count = |t: usize| {
                let mut c = self.home_count[t];
                for (flip, s) in [(flip_f, sf), (flip_g, sg)] {
                    if flip {
                        c += i32::from(s.away == t) - i32::from(s.home == t);
                    }
                }
                c
            };
            let within = [sf.home, sf.away, sg.home, sg.away].iter().all(|&t| {
                let (lo, hi) = self.home_range[t];
                (lo..=hi).contains(&count(t))
            });
            if within {
                let side = |flip: bool, s: Slot| if flip { s.away } else { s.home };
                ok[n] = (side(flip_f, sf), side(flip_g, sg));
                n += 1;
            }
        }
        ok[rng.below(n)]
    }

    /// The fixtures with more than one slot: those a move can change.
    fn movable(&self) -> Vec<usize> {
        (0..self.cur.len())
            .filter(|&f| self.slots_of[f].len() > 1)
            .collect()
    }

    /// Fixtures forming a directed cycle through `f` (h hosts a): a's fixture hosting h
    /// (two legs), or a hosts c and c hosts h; half the time, first a cycle of four: a hosts
    /// c, c hosts d and d hosts h. In a single round robin with an even number of matches a
    /// team's home count is fixed, so a cycle is the only way to change sides, and the cycles
    /// of three through a fixture are often all blocked (commit fa1d9f4).
    fn cycle(&self, f: usize, h: usize, a: usize, rng: &mut Rng) -> ([usize; 4], usize) {
        // The team fixture g's home team hosts now, when g can move and `x` hosts it.
        let guest = |g: usize, x: usize| {
            let s = self.cand.slots[self.cur[g]];
            (s.home == x && self.slots_of[g].len() > 1).then_some(s.away)
        };
        // A movable fixture of team x in which x hosts h: the one that closes the cycle.
        let closing = |x: usize| {
            self.cand.fixtures_of[x]
                .iter()
                .copied()
                .find(|&e| guest(e, x) == Some(h))
        };
        let fs = &self.cand.fixtures_of[a];
        let start = rng.below(fs.len());
        if rng.below(2) == 0 {
            for k in 0..fs.len() {
                let g = fs[(start + k) % fs.len()];
                let Some(c) = guest(g, a).filter(|&c| g != f && c != h) else {
                    continue;
                };
                for &e in &self.cand.fixtures_of[c] {
                    let Some(d) = guest(e, c).filter(|&d| d != a && d != h) else {
                        continue;
                    };
                    if let Some(x) = closing(d) {
                        return ([f, g, e, x], 4);
                    }
                }
            }
        }
        for k in 0..fs.len() {
            let g = fs[(start + k) % fs.len()];
            if g == f {
                continue;
            }
            let Some(c) = guest(g, a) else {
                continue;
            };
            if c == h {
                return ([f, g, 0, 0], 2);
            }
            if let Some(e) = closing(c) {
                return ([f, g, e, 0], 3);
            }
        }
        ([0; 4], 0)
    }

    /// Anneals until `deadline` (seconds since `started`); keeps the best schedule found.
    /// Returns (moves tried, moves taken).
    pub(crate) fn run(
        &mut self,
        seed: u64,
        started: Instant,
        deadline: f64,
        stop: &dyn Fn() -> bool,
    ) -> (u64, u64) {
        let mut rng = Rng::new(seed);
        let movable = self.movable();
        if movable.is_empty() {
            return (0, 0);
        }
        let begin = started.elapsed().as_secs_f64();
        let span = (deadline - begin).max(1e-3);
        // The first temperature takes a move that adds a break a quarter of the time (e^-1/0.7):
        // hotter wastes the run, colder freezes it. The last is `T_FALL` times lower (the best
        // schedule met is kept, so the walk need not end in a pit).
        let t0 = 0.7 * self.w.breaks.max(1.0);
        let t1 = t0 / T_FALL;
        let mut value = self.objective();
        let mut best = (value, self.cur.clone());
        if !self.reversible {
            self.guide = GUIDE_SLOPE * self.w.spread_max;
        }
        let (mut tried, mut taken) = (0u64, 0u64);
        let mut temp = t0;
        let mut changes: Vec<(usize, usize)> = Vec::with_capacity(3);
        let kick_every = KICK_EVERY.max(KICK_SWEEPS * movable.len() as u64);
        for step in 0u64.. {
            if step % 1024 == 0 {
                let now = started.elapsed().as_secs_f64();
                if now >= deadline || stop() {
                    break;
                }
                temp = t0 * (t1 / t0).powf((now - begin) / span);
            }
            if step % kick_every == kick_every - 1 {
                let limit = -temp * rng.unit().max(1e-12).ln();
                tried += 1 + KICK_REPAIR as u64;
                let (d, kept) = self.kick(&mut rng, &movable, limit, KICK_REPAIR, &mut changes);
                value += d;
                if kept {
                    taken += 1;
                    if value < best.0 - 1e-9 {
                        best = (value, self.cur.clone());
                    }
                }
                continue;
            }
            tried += 1;
            self.propose(&mut rng, &movable, &mut changes);
            if changes.is_empty() {
                continue;
            }
            // Metropolis: accept a rise of r with probability exp(-r / temp).
            let limit = -temp * rng.unit().max(1e-12).ln();
            if let Some(d) = self.try_move(&changes, limit) {
                taken += 1;
                value += d;
                if value < best.0 - 1e-9 {
                    best = (value, self.cur.clone());
                }
            }
        }
        self.guide = 0.0;
        if best.1 != self.cur {
            self.place(&best.1);
        }
        (tried, taken)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formulate;
    use crate::solve::{run_once, Options, RunSpec};

    /// The annealer prices a schedule exactly as the MIP does, term by term.
    #[test]
    fn objective_matches_the_mip() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/instances/sussex-2026-7.toml");
        let league = crate::model::read_league(std::path::Path::new(path)).unwrap();
        let cand = formulate::candidates(&league, &crate::model::Rerun::default());
        let opts = Options::default();
        let started = Instant::now();
        let rules_only = Weights::avoid_only();
        fn spec<'a>(w: &'a Weights, start: Option<&'a [f64]>) -> RunSpec<'a> {
            RunSpec {
                weights: w,
                seed: 1,
                time_limit: 30.0,
                max_nodes: None,
                start,
                teams: None,
            }
        }
        let first = run_once(&league, &cand, &opts, started, &spec(&rules_only, None)).unwrap();
        let mut cur = vec![0; cand.fixtures.len()];
        for &s in first.chosen.as_ref().unwrap() {
            cur[cand.slots[s].fixture] = s;
        }
        let full = league.weights;
        let mut sa = Anneal::new(&league, &cand, &full, &cur);
        sa.run(3, Instant::now(), 0.5, &|| false);
        assert!(sa.valid());
        let (pinned, _) = cand.restricted(&vec![false; cand.fixtures.len()], &sa.cur);
        let z = Weights {
            long_rest_days: full.long_rest_days,
            short_rest_days: full.short_rest_days,
            ..Weights::none()
        };
        for w in [
            Weights { breaks: 1.0, ..z },
            Weights {
                long_rest: 1.0,
                ..z
            },
            Weights {
                short_rest: 1.0,
                short_rest_days: 13,
                ..z
            },
            Weights { spread: 1.0, ..z },
            Weights {
                spread_max: 1.0,
                ..z
            },
            Weights { winter: 1.0, ..z },
            full,
        ] {
            let ours = Anneal::new(&league, &cand, &w, &sa.cur).objective();
            let mip = run_once(&league, &pinned, &opts, started, &spec(&w, None)).unwrap();
            assert!(
                (ours - mip.objective).abs() < 1e-6,
                "{w:?}: annealer {ours}, MIP {}",
                mip.objective
            );
        }
    }

    /// The Sussex instance, its candidates and a constructed valid start (of `seed`).
    fn sussex_start(seed: u64) -> (League, Candidates, Vec<usize>) {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/instances/sussex-2026-7.toml");
        let league = crate::model::read_league(std::path::Path::new(path)).unwrap();
        let cand = formulate::candidates(&league, &crate::model::Rerun::default());
        let cur =
            crate::solve::construct::greedy(&league, &cand, seed).expect("a constructed start");
        (league, cand, cur)
    }

    /// The state a move updates in place (match lists, home counts, costs, the worst spread,
    /// venue loads) stays what a fresh pricing of the schedule gives, move after move, and the
    /// schedule stays valid: thousands of random moves, each taken whatever it costs.
    #[test]
    fn moves_keep_the_state_exact() {
        let (league, cand, cur) = sussex_start(1);
        let w = league.weights;
        let mut sa = Anneal::new(&league, &cand, &w, &cur);
        let movable = sa.movable();
        let mut rng = Rng::new(7);
        let mut changes = Vec::new();
        let (mut taken, mut value) = (0, sa.objective());
        for i in 0..20_000 {
            sa.propose(&mut rng, &movable, &mut changes);
            if changes.is_empty() {
                continue;
            }
            let Some(d) = sa.try_move(&changes, f64::INFINITY) else {
                continue;
            };
            taken += 1;
            value += d;
            if i % 500 == 0 {
                let fresh = Anneal::new(&league, &cand, &w, &sa.cur);
                assert!(fresh.valid(), "move {i} broke a rule");
                assert!((fresh.objective() - value).abs() < 1e-6, "move {i}");
                assert_same_state(&fresh, &sa, &format!("move {i}"));
            }
        }
        assert!(taken > 1_000, "only {taken} moves taken");
        // Placing the first schedule again (as `run` does with the best it met) leaves the
        // state a fresh pricing of it gives.
        let fresh = Anneal::new(&league, &cand, &w, &cur);
        assert_ne!(sa.cur, cur);
        sa.place(&cur);
        assert_eq!(sa.cur, fresh.cur);
        assert_same_state(&fresh, &sa, "placed again");
    }

    /// A kick is kept or undone whole: kept, the objective moves by the change it reports;
    /// refused, the schedule is what it was; either way the state is a fresh pricing's and
    /// every rule holds.
    #[test]
    fn kicks_are_kept_or_undone_whole() {
        let (league, cand, cur) = sussex_start(1);
        let w = league.weights;
        let mut sa = Anneal::new(&league, &cand, &w, &cur);
        let movable = sa.movable();
        let mut rng = Rng::new(11);
        let mut out = Vec::new();
        let (mut kept, mut refused) = (0, 0);
        for i in 0..200 {
            let (was, value) = (sa.cur.clone(), sa.objective());
            // Even kicks may rise by anything; odd ones never pass.
            let limit = if i % 2 == 0 {
                f64::INFINITY
            } else {
                f64::NEG_INFINITY
            };
            let (d, k) = sa.kick(&mut rng, &movable, limit, 50, &mut out);
            let fresh = Anneal::new(&league, &cand, &w, &sa.cur);
            assert!(fresh.valid(), "kick {i} broke a rule");
            assert_same_state(&fresh, &sa, &format!("kick {i}"));
            assert!(
                (sa.objective() - value - d).abs() < 1e-6,
                "kick {i}: change"
            );
            if k {
                assert_eq!(i % 2, 0, "kick {i} kept past its limit");
                kept += usize::from(sa.cur != was);
            } else {
                assert_eq!(sa.cur, was, "kick {i} refused but the schedule moved");
                refused += 1;
            }
        }
        assert!(
            kept > 20 && refused >= 100,
            "{kept} kept, {refused} refused"
        );
    }

    /// The state `sa` keeps in place equals a fresh pricing's (`fresh`) of the same schedule.
    fn assert_same_state(fresh: &Anneal, sa: &Anneal, what: &str) {
        assert!(
            (fresh.objective() - sa.objective()).abs() < 1e-6,
            "{what}: objective"
        );
        assert_eq!(fresh.team_cost, sa.team_cost, "{what}: team costs");
        assert_eq!(fresh.team_z, sa.team_z, "{what}: spreads");
        assert_eq!(fresh.worst, sa.worst, "{what}: worst spread");
        assert_eq!(fresh.matches, sa.matches, "{what}: match lists");
        assert_eq!(fresh.home_count, sa.home_count, "{what}: home counts");
        assert_eq!(fresh.load, sa.load, "{what}: venue loads");
        assert_eq!(fresh.club_home, sa.club_home, "{what}: club home dates");
        assert_eq!(fresh.club_dates, sa.club_dates, "{what}: club date counts");
    }

    /// `costlier_team` draws the costly teams more often than a plain draw: the mean cost of
    /// the teams it draws lies above the teams' mean, and the cheapest team is drawn less
    /// than its share.
    #[test]
    fn costly_teams_are_drawn_more_often() {
        let (league, cand, cur) = sussex_start(1);
        let sa = Anneal::new(&league, &cand, &league.weights, &cur);
        let n = sa.team_cost.len();
        let mean = sa.team_cost.iter().sum::<f64>() / n as f64;
        let cheapest = (0..n)
            .min_by(|&a, &b| sa.team_cost[a].total_cmp(&sa.team_cost[b]))
            .unwrap();
        assert!(sa.team_cost[cheapest] < mean, "every team costs the same");
        let mut rng = Rng::new(3);
        let draws = 40_000;
        let (mut sum, mut cheap) = (0.0, 0);
        for _ in 0..draws {
            let t = sa.costlier_team(&mut rng);
            sum += sa.team_cost[t];
            cheap += usize::from(sa.team_cost[t] <= sa.team_cost[cheapest]);
        }
        assert!(
            sum / draws as f64 > mean,
            "{} <= {mean}",
            sum / draws as f64
        );
        let ties = sa
            .team_cost
            .iter()
            .filter(|&&c| c <= sa.team_cost[cheapest])
            .count();
        assert!(
            (cheap as f64) < draws as f64 * ties as f64 / n as f64,
            "the cheapest teams drawn {cheap} times of {draws}"
        );
    }

    /// The guide steers only the test for taking a move, in a double round robin only: a move
    /// that lifts the worst spread above `GUIDE_KNEE` and would be taken at its own cost is
    /// refused with the guide on, every taken move is priced on the league's objective alone,
    /// and `run` leaves the guide off.
    #[test]
    fn guide_steers_only_the_taking_of_moves() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/instances/examples/four-teams-double.toml"
        );
        let league = crate::model::read_league(std::path::Path::new(path)).unwrap();
        let cand = formulate::candidates(&league, &crate::model::Rerun::default());
        let cur = crate::solve::construct::greedy(&league, &cand, 1).expect("a start");
        let w = league.weights;
        let mut sa = Anneal::new(&league, &cand, &w, &cur);
        assert!(
            !sa.reversible,
            "a double round robin's legs keep their sides"
        );
        let guide = GUIDE_SLOPE * w.spread_max;
        assert!(guide > 0.0);
        let movable = sa.movable();
        let mut rng = Rng::new(3);
        let mut changes = Vec::new();
        let mut refused = 0;
        for _ in 0..20_000 {
            sa.propose(&mut rng, &movable, &mut changes);
            if changes.is_empty() {
                continue;
            }
            let back: Vec<(usize, usize)> = changes.iter().map(|&(f, _)| (f, sa.cur[f])).collect();
            let (before, worst_before) = (sa.objective(), sa.worst);
            sa.guide = guide;
            let Some(d) = sa.try_move(&changes, f64::INFINITY) else {
                sa.guide = 0.0;
                continue;
            };
            // Taken, it is priced on the objective alone.
            assert!((sa.objective() - before - d).abs() < 1e-9);
            let rise = above_knee(sa.worst) - above_knee(worst_before);
            sa.guide = 0.0;
            sa.try_move(&back, f64::INFINITY).expect("the move back");
            if rise > 1e-6 {
                sa.guide = guide;
                assert!(
                    sa.try_move(&changes, d + 1e-6).is_none(),
                    "the guide refuses it"
                );
                sa.guide = 0.0;
                let taken = sa.try_move(&changes, d + 1e-6);
                assert!(taken.is_some(), "without the guide it is taken");
                sa.try_move(&back, f64::INFINITY).expect("the move back");
                refused += 1;
            }
        }
        assert!(
            refused > 10,
            "only {refused} moves lifted the worst spread past the knee"
        );
        sa.run(5, Instant::now(), 0.2, &|| false);
        assert_eq!(sa.guide, 0.0);
        let fresh = Anneal::new(&league, &cand, &w, &sa.cur);
        assert!((fresh.objective() - sa.objective()).abs() < 1e-6);
    }

    /// No proposal asks for sides that the home counts forbid, or a venue that is full: with
    /// `home_away_balance = 1` Sussex's teams of ten matches have exactly five at home, and
    /// such proposals could never be taken.
    #[test]
    fn proposals_keep_home_counts_and_room() {
        let (league, cand, cur) = sussex_start(3);
        let w = league.weights;
        let mut sa = Anneal::new(&league, &cand, &w, &cur);
        let movable = sa.movable();
        let mut rng = Rng::new(11);
        let mut changes = Vec::new();
        let (mut flips, mut proposed) = (0, 0);
        for _ in 0..20_000 {
            sa.propose(&mut rng, &movable, &mut changes);
            if changes.is_empty() {
                continue;
            }
            proposed += 1;
            let mut count = sa.home_count.clone();
            for &(f, s) in &changes {
                let (old, new) = (cand.slots[sa.cur[f]], cand.slots[s]);
                count[old.home] -= 1;
                count[new.home] += 1;
                flips += usize::from(old.home != new.home);
                let moving: Vec<usize> = changes.iter().map(|c| c.0).collect();
                assert!(sa.room(s, &moving), "{changes:?}: a full venue");
            }
            for (t, &c) in count.iter().enumerate() {
                let (lo, hi) = sa.home_range[t];
                assert!(
                    (lo..=hi).contains(&c),
                    "{changes:?}: team {t} at home {c} times"
                );
            }
            // Take every third proposal that holds, so the state moves on.
            if proposed % 3 == 0 {
                sa.try_move(&changes, f64::INFINITY);
            }
        }
        assert!(
            proposed > 5_000 && flips > 1_000,
            "{proposed} proposals, {flips} flips"
        );
    }

    /// Every cycle `cycle` offers is a directed cycle through the fixture, each fixture's
    /// guest hosting the next and the last's guest the first's host, of distinct teams and
    /// movable fixtures; cycles of four are among them.
    #[test]
    fn cycles_are_directed_and_closed() {
        let (league, cand, cur) = sussex_start(2);
        let sa = Anneal::new(&league, &cand, &league.weights, &cur);
        let mut rng = Rng::new(5);
        let mut lengths = [0usize; 5];
        for f in sa.movable() {
            for _ in 0..4 {
                let slot = cand.slots[sa.cur[f]];
                let (cycle, len) = sa.cycle(f, slot.home, slot.away, &mut rng);
                lengths[len] += 1;
                if len == 0 {
                    continue;
                }
                assert_eq!(cycle[0], f);
                let sides: Vec<(usize, usize)> = cycle[..len]
                    .iter()
                    .map(|&g| (cand.slots[sa.cur[g]].home, cand.slots[sa.cur[g]].away))
                    .collect();
                for i in 0..len {
                    assert_eq!(
                        sides[i].1,
                        sides[(i + 1) % len].0,
                        "{sides:?} is not closed"
                    );
                    assert!(sa.slots_of[cycle[i]].len() > 1);
                }
                let mut teams: Vec<usize> = sides.iter().map(|s| s.0).collect();
                teams.sort_unstable();
                teams.dedup();
                assert_eq!(teams.len(), len, "{sides:?} repeats a team");
            }
        }
        assert!(
            lengths[3] > 0 && lengths[4] > 0,
            "lengths found: {lengths:?}"
        );
    }

    /// The league file's constraints, soft, of every kind on the GTCL league (a double and a
    /// single round robin): the counts a move updates stay what a fresh pricing gives, and the
    /// annealing prices a schedule as the MIP does.
    #[test]
    fn constraints_are_counted_exactly_and_priced_as_the_mip() {
        use crate::model::{Constraint, ConstraintKind, Count};
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/instances/gtcl-2009-10.toml");
        let mut league = crate::model::read_league(std::path::Path::new(path)).unwrap();
        let all: Vec<usize> = (0..league.teams.len()).collect();
        let premier = league.divisions[0].teams.clone();
        let december = (league.start.iter_days())
            .filter(|d| d.format("%m").to_string() == "12")
            .collect::<std::collections::BTreeSet<_>>();
        let kinds = [
            ConstraintKind::Matches {
                teams: all.clone(),
                opponents: Some(premier.clone()),
                count: Count::Home,
                dates: Some(december.clone()),
                max: 0,
            },
            ConstraintKind::InARow {
                teams: all.clone(),
                count: Count::Away,
                weeks: 4,
                max: 1,
            },
            ConstraintKind::Between {
                teams: premier[..3].to_vec(),
                opponents: premier.clone(),
                dates: None,
                max: 0,
                per_date: true,
            },
            ConstraintKind::Fixtures {
                fixtures: vec![(premier[0], premier[1]), (premier[2], premier[3])],
                dates: december,
                min: 2,
                max: 2,
            },
            ConstraintKind::Apart {
                teams: all.clone(),
                days: 90,
            },
            ConstraintKind::Breaks {
                teams: premier.clone(),
                max: 1,
                per_team: true,
            },
            ConstraintKind::Breaks {
                teams: all.clone(),
                max: 4,
                per_team: false,
            },
            ConstraintKind::Level {
                teams: all,
                dates: (league.start.iter_days().step_by(10))
                    .take_while(|d| *d <= league.end)
                    .collect(),
                max: 1,
            },
        ];
        for (i, kind) in kinds.into_iter().enumerate() {
            let weight = Some(1.0 + i as f64);
            league.constraints.push(Constraint {
                name: format!("c{i}"),
                kind,
                weight,
            });
        }
        let cand = formulate::candidates(&league, &crate::model::Rerun::default());
        let cur = crate::solve::construct::greedy(&league, &cand, 1).expect("a constructed start");
        let w = Weights::none();
        let mut sa = Anneal::new(&league, &cand, &w, &cur);
        assert!(
            sa.objective() > 0.0,
            "the constraints cost something at the start"
        );
        let movable = sa.movable();
        let mut rng = Rng::new(3);
        let mut changes = Vec::new();
        let mut taken = 0;
        for i in 0..5_000 {
            sa.propose(&mut rng, &movable, &mut changes);
            if changes.is_empty() || sa.try_move(&changes, f64::INFINITY).is_none() {
                continue;
            }
            taken += 1;
            if i % 250 == 0 {
                let fresh = Anneal::new(&league, &cand, &w, &sa.cur);
                assert_eq!(fresh.g.n, sa.g.n, "move {i}");
                assert_eq!(fresh.g.team_breaks, sa.g.team_breaks, "move {i}");
                assert_eq!(fresh.g.totals, sa.g.totals, "move {i}");
                for (a, b) in fresh.g.levels.iter().zip(&sa.g.levels) {
                    assert_eq!((&a.h, &a.over), (&b.h, &b.over), "move {i}");
                }
                assert!(
                    (fresh.objective() - sa.objective()).abs() < 1e-6,
                    "move {i}"
                );
            }
        }
        assert!(taken > 500, "only {taken} moves taken");
        let (pinned, _) = cand.restricted(&vec![false; cand.fixtures.len()], &sa.cur);
        let spec = crate::solve::RunSpec {
            weights: &w,
            seed: 1,
            time_limit: 30.0,
            max_nodes: None,
            start: None,
            teams: None,
        };
        let opts = crate::solve::Options::default();
        for c in &league.constraints {
            let one = League {
                constraints: vec![c.clone()],
                ..league.clone()
            };
            let ours = Anneal::new(&one, &cand, &w, &sa.cur).objective();
            let mip = crate::solve::run_once(&one, &pinned, &opts, Instant::now(), &spec).unwrap();
            assert!(
                (mip.objective - ours).abs() < 1e-6,
                "{}: MIP {} annealer {ours}",
                c.name,
                mip.objective
            );
        }
    }
}
