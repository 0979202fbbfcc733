//! An exact search for leagues of a few teams, which HiGHS cannot prove in seconds (its LP
//! relaxation spreads fractional matches evenly and sees neither waits nor the worst spread
//! that whole matches force: the six-team Sussex Rapid League stayed at a 21% gap after 300 s).
//!
//! The season is walked day by day. A state is what the rest of the season depends on: the
//! fixtures played, and per team the days since its last match (capped where no rule or cost
//! looks further back), the side it played on, its home matches and its run of consecutive
//! weeks, and the home dates of clubs with a limit. On each day every way to play that day's
//! fixtures is tried (each fixture on one of its slots or not at all, every rule of the
//! annealing kept: rest days, venue capacity, home counts, `same_club_first`,
//! `max_consecutive_weeks`, `max_home_dates`). Costs are counted exactly as they fall (a wait
//! as its days pass, a break or a short rest when a match is played, the winter share when the
//! break begins, each team's spread at each match). Of the partial schedules in one state only
//! those no other beats are kept (one beats another when it stays no dearer even were its wider
//! spreads so far, above what each team's rest must reach anyway, to stand to the season's
//! end), and a partial schedule is dropped when its cost so far plus a lower bound on the rest
//! reaches the best schedule known; a state is kept only while one of its schedules lives. So
//! when the walk ends, the best complete schedule it holds is optimal, or, when none is left,
//! the best known one is.
//!
//! The bound on the rest: for each team, the least cost (waits, short rests, avoid dates) of
//! any way to place its remaining matches on its candidate days, with every deviation of its
//! spread from then on within a cap; and the worst spread is taken level by level: a schedule
//! whose worst spread lies in (z_{l-1}, z_l] costs at least `spread_max` times z_{l-1} (or the
//! worst spread so far) plus every team's least cost with its spread capped at z_l.

use super::local::Anneal;
use crate::formulate::symmetry::{self, Twin};
use crate::formulate::Candidates;
use crate::model::{League, Weights};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

/// The most teams and fixtures the search takes (a state's key has room for these).
const MAX_TEAMS: usize = 8;
const MAX_FIXTURES: usize = 64;
/// The most clubs with `max_home_dates` it follows.
const MAX_CLUBS: usize = 4;
/// Levels of the worst spread in the bound.
const LEVELS: usize = 24;
/// Bytes the search may hold by its own count (its states, partial schedules and their
/// steps; the process then holds about twice as much): beyond, it gives up. The Sussex Rapid
/// League and the five-team darts league (1.6 million steps, 5 s on one core) prove within it.
const MAX_BYTES: usize = 1 << 29;

/// What the search proved.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Proof {
    /// No schedule is better than the incumbent: it is optimal.
    IncumbentOptimal,
    /// This schedule (each fixture's slot) is better than the incumbent, and optimal.
    Better(Vec<usize>, f64),
    /// It gave up (the deadline, or too many partial schedules): no schedule costs less than
    /// this (`f64::NEG_INFINITY` when it proved nothing). Each day walked to the end proves
    /// one: every schedule better than the incumbent passes through a partial schedule kept
    /// that day (or one that beats it), whose bound it cannot undercut.
    AtLeast(f64),
    /// It gave up, as `AtLeast`, but found this schedule (its objective), better than the
    /// incumbent though not proven optimal; the bound is the third field.
    Improved(Vec<usize>, f64, f64),
}

/// A state's key: fixtures played (bits), then per team four bytes (days since its last
/// match, capped, or `NEVER`; its last side; its home matches; its run of weeks), then the
/// home dates of each club with a limit.
type Key = [u8; 8 + 4 * MAX_TEAMS + MAX_CLUBS];
const NEVER: u8 = u8::MAX;

/// A partial schedule in a state: its cost so far, each team's spread so far, and where it
/// came from (an entry of `Search::trail`).
#[derive(Clone, Copy)]
struct Label {
    cost: f64,
    z: [f64; MAX_TEAMS],
    trail: u32,
}

/// One part of a day's walk: the states it reached with their bound's part and partial
/// schedules, and the steps those schedules end with.
struct Walked {
    next: Map<(Part, Vec<Label>)>,
    steps: Vec<Step>,
    /// The least bound of the partial schedules it kept (infinite when none).
    least: f64,
}

/// One step of a partial schedule: the slots played on one day (as the state before it
/// names its teams), the swap of twin teams (`Twins`) that made the state after it canonical,
/// and the step before.
#[derive(Clone, Copy)]
struct Step {
    parent: u32,
    slots: [u16; MAX_TEAMS / 2],
    n: u8,
    swap: u8,
}

/// Teams that no rule or cost tells apart (`formulate::symmetry`: one club, division, venue,
/// nights, dates, start and avoid dates, and slots that map onto each other when the two change
/// places): a schedule with twins swapped is as valid and costs the same. So each state is
/// kept in one canonical form under the swaps of twins (`Search::canonical`; `swap` is a set of
/// pairs, as bits), which divides the states by up to the number of swaps.
struct Twins {
    /// The pairs of twins.
    pairs: Vec<(usize, usize)>,
    /// Per swap: each team's image.
    team: Vec<[usize; MAX_TEAMS]>,
    /// Per swap: each fixture's and each slot's image.
    fixture: Vec<Vec<usize>>,
    slot: Vec<Vec<usize>>,
}

/// The most pairs of twins followed (2^3 forms per state).
const MAX_PAIRS: usize = 3;

impl Twins {
    /// The league's twins (`formulate::symmetry::twins`, which checks the teams' data and
    /// that every slot has its mirror), those the search's own tables also find alike.
    fn new(league: &League, cand: &Candidates, a: &Anneal, n: &[usize]) -> Twins {
        let pairs: Vec<Twin> = symmetry::twins(league, cand)
            .into_iter()
            .filter(|tw| {
                let (t, u) = (tw.a, tw.b);
                n[t] == n[u]
                    && a.first[t] == a.first[u]
                    && a.home_range[t] == a.home_range[u]
                    && a.winter[t] == a.winter[u]
            })
            .take(MAX_PAIRS)
            .collect();
        let mut twins = Twins {
            pairs: pairs.iter().map(|tw| (tw.a, tw.b)).collect(),
            team: Vec::new(),
            fixture: Vec::new(),
            slot: Vec::new(),
        };
        for swap in 0..1usize << pairs.len() {
            let chosen: Vec<&Twin> = (0..pairs.len())
                .filter(|i| swap & (1 << i) != 0)
                .map(|i| &pairs[i])
                .collect();
            let mut team: [usize; MAX_TEAMS] = std::array::from_fn(|t| t);
            let mut slot: Vec<usize> = (0..cand.slots.len()).collect();
            for tw in &chosen {
                (team[tw.a], team[tw.b]) = (tw.b, tw.a);
                for s in slot.iter_mut() {
                    *s = tw.image[*s];
                }
            }
            // A fixture's image: that of its slots, which must agree.
            let mut fixture = vec![usize::MAX; cand.fixtures.len()];
            for (s, &image) in slot.iter().enumerate() {
                let (f, g) = (cand.slots[s].fixture, cand.slots[image].fixture);
                if fixture[f] != usize::MAX && fixture[f] != g {
                    return Twins::none(cand);
                }
                fixture[f] = g;
            }
            if fixture.contains(&usize::MAX) {
                return Twins::none(cand);
            }
            twins.team.push(team);
            twins.fixture.push(fixture);
            twins.slot.push(slot);
        }
        twins
    }

    /// No twins: one form per state.
    fn none(cand: &Candidates) -> Twins {
        Twins {
            pairs: Vec::new(),
            team: vec![std::array::from_fn(|t| t)],
            fixture: vec![(0..cand.fixtures.len()).collect()],
            slot: vec![(0..cand.slots.len()).collect()],
        }
    }
}

/// The slots played on one day (no team twice, so at most half the teams).
#[derive(Clone, Copy, Default)]
struct Choice {
    s: [usize; MAX_TEAMS / 2],
    n: usize,
}

impl Choice {
    fn slots(&self) -> &[usize] {
        &self.s[..self.n]
    }
}

/// What a state's partial schedules share in the bound: per level, every team's least cost
/// of the rest (`rest_bound`); per team, the least its spread must reach from here on.
#[derive(Clone, Copy)]
struct Part {
    rest: [f64; LEVELS],
    floor: [f64; MAX_TEAMS],
    /// Per level l, the least over the levels above it of their rest plus `spread_max`
    /// times the cap below them (`bound`).
    beyond: [f64; LEVELS],
}

impl Part {
    fn new() -> Part {
        Part {
            rest: [0.0; LEVELS],
            floor: [0.0; MAX_TEAMS],
            beyond: [f64::INFINITY; LEVELS],
        }
    }
}

/// One team's least costs at one level: `near[k][j]` from its match k (from 0) on its
/// candidate day j to the season's end, every deviation within the level's cap; `far[k][j]`
/// the least, over days j' >= j, of `near[k][j']` plus `long_rest` times day j' (for a next
/// match after a wait long enough that each further day costs `long_rest`).
struct Rest {
    near: Vec<Vec<f64>>,
    far: Vec<Vec<f64>>,
}

/// Whether the search can take this league: few teams and fixtures, no club limits beyond
/// what a key holds, and short rests that only the previous match can cause.
pub(crate) fn applies(league: &League, cand: &Candidates, w: &Weights) -> bool {
    let limited = league
        .clubs
        .iter()
        .filter(|c| c.max_home_dates.is_some())
        .count();
    let gap = league.rules.min_days_between.max(1);
    // The walk follows no `[[constraint]]`: a league with one is searched, not proven.
    league.constraints.is_empty()
        && league.teams.len() <= MAX_TEAMS
        && cand.fixtures.len() <= MAX_FIXTURES
        && cand.slots.len() < usize::from(u16::MAX)
        && limited <= MAX_CLUBS
        && (w.short_rest == 0.0 || w.short_rest_days <= 2 * gap)
        && cand.fixtures_of.iter().all(|f| f.len() < 100)
}

/// Searches for a schedule better than `incumbent` (a valid schedule, each fixture's slot),
/// on the objective of `w`. `Proof::AtLeast` when it gave up (or does not apply), at
/// `deadline` or when `stop` says so (a cancelled job).
pub(crate) fn prove(
    league: &League,
    cand: &Candidates,
    w: &Weights,
    incumbent: &[usize],
    deadline: Instant,
    stop: &Stop<'_>,
) -> Proof {
    let nothing = Proof::AtLeast(f64::NEG_INFINITY);
    if !applies(league, cand, w) {
        return nothing;
    }
    let priced = Anneal::new(league, cand, w, incumbent);
    if !priced.valid() {
        return nothing;
    }
    let best = priced.objective();
    // A narrow walk first (`BEAM`): a better schedule it finds makes the proof's walk keep
    // far fewer partial schedules (the Sussex Rapid League from an annealed 89.36 gave up at
    // its memory limit after 6 s; from 54.06 it proved 53.74 in 1.1 s).
    let narrow = Search::new(league, cand, w, &priced, best).beam(deadline, stop, BEAM);
    let Some((better, value)) = narrow else {
        return Search::new(league, cand, w, &priced, best).run(deadline, stop, usize::MAX);
    };
    let priced = Anneal::new(league, cand, w, &better);
    match Search::new(league, cand, w, &priced, value).run(deadline, stop, usize::MAX) {
        Proof::IncumbentOptimal => Proof::Better(better, value),
        Proof::AtLeast(bound) => Proof::Improved(better, value, bound),
        proof => proof,
    }
}

/// The most states a day of the narrow walk keeps (those of the least bound): a narrow walk
/// finds good schedules to prune with sooner, and without a limit the Sussex Rapid League was
/// often not proven at all.
const BEAM: usize = 500;

/// Whether to give up now (a cancelled job), asked from every thread of the walk.
pub(crate) type Stop<'s> = dyn Fn() -> bool + Sync + 's;

/// The league's tables for the walk.
struct Search<'a> {
    league: &'a League,
    cand: &'a Candidates,
    w: &'a Weights,
    a: &'a Anneal<'a>,
    /// The objective to beat.
    best: f64,
    teams: usize,
    /// Per team: its matches, its fixtures (bits), its fixtures against its own club (bits).
    n: Vec<usize>,
    mine: Vec<u64>,
    internal: Vec<u64>,
    /// The days (of the season) with a slot, in order, and the slots of each.
    days: Vec<i32>,
    on: Vec<Vec<usize>>,
    /// Per fixture: its last day.
    last_day: Vec<i32>,
    /// Clubs with `max_home_dates`: (club, limit).
    limited: Vec<(usize, u8)>,
    /// Days since a team's last match beyond which nothing depends on them.
    horizon: i32,
    gap: i32,
    /// Per team: its candidate days, and per level its least costs from each match on
    /// (`rest_of`).
    team_days: Vec<Vec<i32>>,
    rest: Vec<Vec<Rest>>,
    /// Per team and match k (from 0): from its j-th candidate day on, the least its widest
    /// deviation from match k on can be (`least_dev[t][k][j]`).
    least_dev: Vec<Vec<Vec<f64>>>,
    /// The spread levels' caps, ascending; the last is 1 (no cap).
    caps: Vec<f64>,
    twins: Twins,
    /// Per team and day of the season: the cost of playing then (an avoid date).
    avoids: Vec<Vec<f64>>,
}

/// Per team: its fixtures as bits, and its fixtures against its own club.
fn fixture_bits(cand: &Candidates, a: &Anneal) -> (Vec<u64>, Vec<u64>) {
    let teams = cand.fixtures_of.len();
    let bits = |fs: &mut dyn Iterator<Item = usize>| fs.fold(0u64, |m, f| m | (1 << f));
    let mine = (0..teams)
        .map(|t| bits(&mut cand.fixtures_of[t].iter().copied()))
        .collect();
    let internal = (0..teams)
        .map(|t| {
            bits(
                &mut cand.fixtures_of[t]
                    .iter()
                    .copied()
                    .filter(|&f| a.internal[f]),
            )
        })
        .collect();
    (mine, internal)
}

/// Per team and day of the season: the avoid-dates cost of a match that day.
fn avoid_by_day(league: &League, w: &Weights, days: usize) -> Vec<Vec<f64>> {
    league
        .teams
        .iter()
        .map(|team| {
            (0..days)
                .map(|d| {
                    let date = league.start + chrono::Days::new(d as u64);
                    match team.avoid.contains(&date) {
                        true => w.avoid,
                        false => 0.0,
                    }
                })
                .collect()
        })
        .collect()
}

/// The days that have slots, in order, and the slots on each.
fn slots_by_day(day: &[i32]) -> (Vec<i32>, Vec<Vec<usize>>) {
    let mut days: Vec<i32> = day.to_vec();
    days.sort_unstable();
    days.dedup();
    let mut on = vec![Vec::new(); days.len()];
    for (s, d) in day.iter().enumerate() {
        if let Ok(i) = days.binary_search(d) {
            on[i].push(s);
        }
    }
    (days, on)
}

impl<'a> Search<'a> {
    fn new(
        league: &'a League,
        cand: &'a Candidates,
        w: &'a Weights,
        a: &'a Anneal<'a>,
        best: f64,
    ) -> Search<'a> {
        let teams = league.teams.len();
        let (mine, internal) = fixture_bits(cand, a);
        let (days, on) = slots_by_day(&a.day);
        let last_day = cand
            .by_fixture
            .iter()
            .map(|ss| ss.iter().map(|&s| a.day[s]).max().unwrap_or(-1))
            .collect();
        let limited = league
            .clubs
            .iter()
            .enumerate()
            .filter_map(|(c, club)| Some((c, club.max_home_dates?.min(250) as u8)))
            .collect();
        let gap = league.rules.min_days_between.max(1) as i32;
        let horizon = (w.long_rest_days as i32)
            .max(gap)
            .max(w.short_rest_days as i32)
            .max(14);
        let team_days: Vec<Vec<i32>> = (0..teams)
            .map(|t| {
                let mut v: Vec<i32> = cand.by_team[t].iter().map(|&s| a.day[s]).collect();
                v.sort_unstable();
                v.dedup();
                v
            })
            .collect();
        let mut s = Search {
            league,
            cand,
            w,
            a,
            best,
            teams,
            n: (0..teams).map(|t| cand.fixtures_of[t].len()).collect(),
            mine,
            internal,
            days,
            on,
            last_day,
            limited,
            horizon,
            gap,
            team_days,
            rest: Vec::new(),
            least_dev: Vec::new(),
            caps: Vec::new(),
            twins: Twins::none(cand),
            avoids: avoid_by_day(league, w, a.days),
        };
        // First with no cap, for the least the season costs beside its spread; then the
        // levels up to the worst spread the best schedule known leaves room for.
        s.caps = vec![1.0];
        s.rest = (0..teams).map(|t| s.rest_of(t)).collect();
        let least = s.least_rest();
        s.caps = s.levels(least);
        s.rest = (0..teams).map(|t| s.rest_of(t)).collect();
        s.least_dev = (0..teams).map(|t| s.least_dev_of(t)).collect();
        s.twins = Twins::new(league, cand, a, &s.n);
        s
    }

    /// The least cost of the teams' rests, each on its own.
    fn least_rest(&mut self) -> f64 {
        let teams = self.teams;
        let mut least = 0.0;
        for t in (0..teams).filter(|&t| self.n[t] > 0) {
            let mut part = [0.0];
            let before = self.a.first[t] - 1;
            self.team_rest(t, 0, before, before, 0, &mut part);
            least += part[0];
        }
        least
    }

    /// The state's form under swap `m` (`Twins`).
    fn swapped(&self, key: &Key, m: usize) -> Key {
        let (team, fixture) = (&self.twins.team[m], &self.twins.fixture[m]);
        let mut out = *key;
        let played = played(key);
        let mut bits = 0u64;
        for (f, &image) in fixture.iter().enumerate() {
            if played & (1 << f) != 0 {
                bits |= 1 << image;
            }
        }
        out[..8].copy_from_slice(&bits.to_le_bytes());
        for (t, &image) in team.iter().enumerate().take(self.teams) {
            let (from, to) = (8 + 4 * t, 8 + 4 * image);
            out[to..to + 4].copy_from_slice(&key[from..from + 4]);
        }
        out
    }

    /// The state's canonical form and the swap that gives it: of each pair of twins, the
    /// first holds the lesser of their two teams' bytes. (Where a pair's bytes are equal, the
    /// forms of one state may still differ in the fixtures played: fewer states merge, and
    /// none wrongly.)
    fn canonical(&self, key: Key) -> (Key, usize) {
        let mut m = 0;
        for (i, &(t, u)) in self.twins.pairs.iter().enumerate() {
            if key[8 + 4 * u..8 + 4 * u + 4] < key[8 + 4 * t..8 + 4 * t + 4] {
                m |= 1 << i;
            }
        }
        match m {
            0 => (key, 0),
            m => (self.swapped(&key, m), m),
        }
    }

    /// Team `t`'s `least_dev`: the widest deviation of its matches from k on, made as small
    /// as their days allow (`min_days_between` apart), from each candidate day on.
    fn least_dev_of(&self, t: usize) -> Vec<Vec<f64>> {
        let (n, td) = (self.n[t], &self.team_days[t]);
        let m = td.len();
        let mut out = vec![vec![f64::INFINITY; m + 1]; n];
        for k in (0..n).rev() {
            for j in (0..m).rev() {
                let here = self.deviation(t, k, td[j]);
                let then = match k + 1 == n {
                    true => here,
                    false => {
                        let after = td.partition_point(|&d| d < td[j] + self.gap);
                        here.max(out[k + 1][after])
                    }
                };
                out[k][j] = out[k][j + 1].min(then);
            }
        }
        out
    }

    /// Days of a wait that begins after day `last` and has reached day `now`, counted so far:
    /// the days from `last + 1` whose `long_rest_days` window lies within `..= now`.
    fn waited(&self, last: i32, now: i32) -> f64 {
        f64::from((now - last + 1 - self.w.long_rest_days as i32).max(0))
    }

    fn short(&self, a: i32, b: i32) -> f64 {
        let target = self.w.short_rest_days as i32;
        if self.w.short_rest > 0.0 && b - a < target {
            self.w.short_rest * f64::from(target - (b - a))
        } else {
            0.0
        }
    }

    fn avoid(&self, t: usize, day: i32) -> f64 {
        self.avoids[t].get(day as usize).copied().unwrap_or(0.0)
    }

    /// How far team `t`'s spread lies on `day` when its match there is its k-th (from 0):
    /// the deviation just before and just after it, as the annealing and `check` count it.
    fn deviation(&self, t: usize, k: usize, day: i32) -> f64 {
        let n = self.n[t] as f64;
        let (end, start) = self.a.elapsed[day as usize];
        f64::max(
            (k as f64 / n - start).abs(),
            ((k + 1) as f64 / n - end).abs(),
        )
    }

    /// The caps of the worst spread's levels: from the least any team must have to what
    /// the best schedule known could afford beside the `least` the rest of it costs, and 1.
    fn levels(&self, least_cost: f64) -> Vec<f64> {
        let least = (0..self.teams)
            .filter(|&t| self.n[t] > 0)
            .map(|t| {
                // The least spread of a team's first match alone is a floor for it.
                self.team_days[t]
                    .iter()
                    .map(|&d| self.deviation(t, 0, d))
                    .fold(f64::INFINITY, f64::min)
            })
            .fold(0.0, f64::max);
        let top = match self.w.spread_max > 0.0 {
            true => ((self.best - least_cost) / self.w.spread_max).clamp(0.0, 1.0),
            false => 1.0,
        };
        let mut caps: Vec<f64> = (1..LEVELS)
            .map(|i| least + (top - least).max(0.0) * i as f64 / (LEVELS - 1) as f64)
            .collect();
        caps.push(1.0);
        caps
    }

    /// Team `t`'s least cost from each of its matches on, per level (`Rest`).
    fn rest_of(&self, t: usize) -> Vec<Rest> {
        let (n, td) = (self.n[t], &self.team_days[t]);
        let m = td.len();
        let end = self.a.days as i32 - 1;
        let mut out = Vec::with_capacity(self.caps.len());
        for &cap in &self.caps {
            let mut near = vec![vec![f64::INFINITY; m]; n];
            for k in (0..n).rev() {
                for j in 0..m {
                    if self.deviation(t, k, td[j]) > cap + 1e-9 {
                        continue;
                    }
                    let after = if k + 1 == n {
                        self.w.long_rest * self.waited(td[j], end)
                    } else {
                        let mut best = f64::INFINITY;
                        for j2 in j + 1..m {
                            if td[j2] - td[j] < self.gap || near[k + 1][j2] == f64::INFINITY {
                                continue;
                            }
                            let c = self.w.long_rest * self.waited(td[j], td[j2] - 1)
                                + self.short(td[j], td[j2])
                                + near[k + 1][j2];
                            best = best.min(c);
                        }
                        best
                    };
                    near[k][j] = self.avoid(t, td[j]) + after;
                }
            }
            let far = near
                .iter()
                .map(|row| {
                    let mut suffix = vec![f64::INFINITY; m + 1];
                    for j in (0..m).rev() {
                        suffix[j] = suffix[j + 1].min(row[j] + self.w.long_rest * f64::from(td[j]));
                    }
                    suffix
                })
                .collect();
            out.push(Rest { near, far });
        }
        out
    }

    /// Team `t`'s last match day in a state seen on day `now` (its key byte `since`).
    fn last(&self, t: usize, since: u8, now: i32) -> i32 {
        match since {
            NEVER => self.a.first[t] - 1,
            s => now - i32::from(s),
        }
    }

    /// The bound's part that depends on the state only: per level, every team's least cost
    /// from the next day on (`next`), after day `now`; infinite where some team cannot
    /// finish within the level's cap. A team's part depends only on its matches played and
    /// the days since its last, so it is computed once a day for each (`memo`, per team).
    fn rest_bound(
        &self,
        key: &Key,
        now: i32,
        next: i32,
        part_out: &mut Part,
        memo: &mut [Vec<f64>],
    ) {
        part_out.floor = [0.0; MAX_TEAMS];
        let out = &mut part_out.rest;
        out.iter_mut().for_each(|v| *v = 0.0);
        let played = played(key);
        let levels = self.caps.len();
        for (t, memo) in memo.iter_mut().enumerate() {
            let n = self.n[t];
            if n == 0 {
                continue;
            }
            let k = (played & self.mine[t]).count_ones() as usize;
            let b = 8 + 4 * t;
            if i32::from(key[b + 2]) + ((n - k) as i32) < self.a.home_range[t].0 {
                out.iter_mut().for_each(|v| *v = f64::INFINITY);
                return;
            }
            let since = match key[b] {
                NEVER => self.horizon as usize + 1,
                s => usize::from(s),
            };
            if k < n {
                let last = self.last(t, key[b], now);
                let soonest = if k > 0 {
                    next.max(last + self.gap)
                } else {
                    next
                };
                let from = self.team_days[t].partition_point(|&d| d < soonest);
                part_out.floor[t] = self.least_dev[t][k][from];
            }
            let at = (k * (self.horizon as usize + 2) + since) * levels;
            let part = &mut memo[at..at + levels];
            if part[0].is_nan() {
                self.team_rest(t, k, self.last(t, key[b], now), now, next, part);
            }
            for (v, p) in out.iter_mut().zip(part.iter()) {
                *v += p;
            }
        }
        let mut beyond = f64::INFINITY;
        for l in (0..levels).rev() {
            part_out.beyond[l] = beyond;
            let below = if l == 0 { 0.0 } else { self.caps[l - 1] };
            beyond = beyond.min(part_out.rest[l] + self.w.spread_max * below);
        }
    }

    /// An empty `memo` for `rest_bound`.
    fn memo(&self) -> Vec<Vec<f64>> {
        (0..self.teams)
            .map(|t| {
                vec![f64::NAN; (self.n[t] + 1) * (self.horizon as usize + 2) * self.caps.len()]
            })
            .collect()
    }

    /// Team `t`'s least cost from the next day on (`next`), per level, when it has played `k`
    /// matches, the last on day `last`, and waited up to day `now`.
    fn team_rest(&self, t: usize, k: usize, last: i32, now: i32, next: i32, out: &mut [f64]) {
        let waited = self.w.long_rest * self.waited(last, now);
        if k == self.n[t] {
            let end = self.a.days as i32 - 1;
            out.iter_mut()
                .for_each(|v| *v = self.w.long_rest * self.waited(last, end) - waited);
            return;
        }
        let td = &self.team_days[t];
        // Its next match: on a candidate day from `next` on, `min_days_between` after its
        // last. Up to `last + reach` the wait and a short rest are priced day by day; after
        // it each day of the wait costs `long_rest` and no rest is short.
        let soonest = if k > 0 {
            next.max(last + self.gap)
        } else {
            next
        };
        let reach = (self.w.long_rest_days as i32).max(self.w.short_rest_days as i32);
        let from = td.partition_point(|&d| d < soonest);
        let split = td.partition_point(|&d| d <= last + reach).max(from);
        for (l, v) in out.iter_mut().enumerate() {
            let rest = &self.rest[t][l];
            let near = &rest.near[k];
            let mut least = rest.far[k][split]
                - self.w.long_rest * f64::from(last + self.w.long_rest_days as i32);
            for j in from..split {
                let mut c = self.w.long_rest * self.waited(last, td[j] - 1) + near[j];
                if k > 0 {
                    c += self.short(last, td[j]);
                }
                least = least.min(c);
            }
            *v = least - waited;
        }
    }

    /// The bound of a partial schedule from its state's part: each team's spread at least
    /// its floor, the rest's cost per level.
    fn bound(&self, label: &Label, part: &Part) -> f64 {
        let mut worst = 0.0f64;
        let mut spread = 0.0;
        for t in 0..self.teams {
            let z = label.z[t].max(part.floor[t]);
            worst = worst.max(z);
            spread += self.w.spread * z;
        }
        // The level of the worst spread so far, then (`beyond`) every level above it.
        let l = self.caps.partition_point(|&cap| worst > cap + 1e-9);
        if l == self.caps.len() {
            return f64::INFINITY;
        }
        let below = if l == 0 { 0.0 } else { self.caps[l - 1] };
        let here = part.rest[l] + self.w.spread_max * below.max(worst);
        label.cost + spread + here.min(part.beyond[l])
    }

    /// The walk, giving up at `deadline`, when `stop` says so, or after walking `days` days
    /// (tests stop it there).
    fn run(&self, deadline: Instant, stop: &Stop<'_>, days: usize) -> Proof {
        self.walk(deadline, stop, days, usize::MAX)
    }

    /// A narrow walk: each day keeps only the `width` states whose partial schedules have the
    /// least bound. It proves nothing; a complete schedule better than the one to beat, if it
    /// reaches one, with its objective.
    fn beam(&self, deadline: Instant, stop: &Stop<'_>, width: usize) -> Option<(Vec<usize>, f64)> {
        match self.walk(deadline, stop, usize::MAX, width) {
            Proof::Better(cur, value) => Some((cur, value)),
            _ => None,
        }
    }

    /// The walk (`run`); with `width` below `usize::MAX`, the narrow one (`beam`).
    fn walk(&self, deadline: Instant, stop: &Stop<'_>, days: usize, width: usize) -> Proof {
        let mut key0: Key = [0; 8 + 4 * MAX_TEAMS + MAX_CLUBS];
        for t in 0..self.teams {
            key0[8 + 4 * t] = NEVER;
        }
        let mut trail = vec![Step {
            parent: u32::MAX,
            slots: [0; MAX_TEAMS / 2],
            n: 0,
            swap: 0,
        }];
        let mut states: Map<Vec<Label>> = Map::default();
        states.insert(
            key0,
            vec![Label {
                cost: 0.0,
                z: [0.0; MAX_TEAMS],
                trail: 0,
            }],
        );
        let mut prev = -1;
        let tolerance = 1e-9 * self.best.abs().max(1.0);
        // The bound proven by the days walked (`Proof::AtLeast`).
        let mut proven = f64::NEG_INFINITY;
        // Each day's states are walked in parts, one per thread of the pool (the searches'
        // pool: one thread each, or all of them when this is the only search), each part into
        // a map and steps of its own; the maps are then merged in the parts' order, so the
        // outcome depends on the number of threads only, not on their timing.
        let parts = rayon::current_num_threads().max(1);
        for (i, &day) in self.days.iter().enumerate() {
            if i >= days {
                return Proof::AtLeast(proven);
            }
            let next_day = self.days.get(i + 1).copied().unwrap_or(self.a.days as i32);
            let entries: Vec<(&Key, &Vec<Label>)> = states.iter().collect();
            let size = entries.len().div_ceil(parts).max(1);
            let held = states.capacity() * std::mem::size_of::<(Key, Vec<Label>)>()
                + trail.capacity() * std::mem::size_of::<Step>();
            let walk = |chunk: &[(&Key, &Vec<Label>)]| {
                self.walk_day(
                    chunk,
                    (i, day, next_day, prev),
                    held,
                    parts,
                    (deadline, stop),
                )
            };
            let walked: Vec<Option<Walked>> = if parts == 1 {
                vec![walk(&entries)]
            } else {
                use rayon::prelude::*;
                entries.par_chunks(size).map(walk).collect()
            };
            let mut next: Map<(Part, Vec<Label>)> = Map::default();
            let mut least = self.best - tolerance;
            for part in walked {
                let Some(part) = part else {
                    return Proof::AtLeast(proven);
                };
                least = least.min(part.least);
                let offset = trail.len() as u32;
                trail.extend(part.steps);
                for (key, (rest, mut list)) in part.next {
                    list.iter_mut().for_each(|l| l.trail += offset);
                    match next.entry(key) {
                        std::collections::hash_map::Entry::Vacant(e) => {
                            e.insert((rest, list));
                        }
                        std::collections::hash_map::Entry::Occupied(e) => {
                            let (rest, have) = e.into_mut();
                            for nl in list {
                                if !self.beaten(have, &nl, &rest.floor) {
                                    self.admit(have, nl, &rest.floor);
                                }
                            }
                        }
                    }
                }
            }
            let mut kept: Vec<(Key, (Part, Vec<Label>))> = next
                .into_iter()
                .filter(|(_, (_, list))| !list.is_empty())
                .collect();
            if kept.len() > width {
                let least_of = |(_, (rest, list)): &(Key, (Part, Vec<Label>))| {
                    list.iter()
                        .map(|l| self.bound(l, rest))
                        .fold(f64::INFINITY, f64::min)
                };
                let mut scored: Vec<(f64, usize)> = kept.iter().map(least_of).zip(0..).collect();
                scored.select_nth_unstable_by(width, |a, b| a.0.total_cmp(&b.0));
                let mut keep = vec![false; kept.len()];
                for &(_, j) in &scored[..width] {
                    keep[j] = true;
                }
                kept = kept
                    .into_iter()
                    .zip(keep)
                    .filter_map(|(e, k)| k.then_some(e))
                    .collect();
            }
            states = kept.into_iter().map(|(k, (_, list))| (k, list)).collect();
            proven = proven.max(least);
            prev = day;
        }
        self.finish(&states, &trail, prev)
            .unwrap_or(Proof::AtLeast(proven))
    }

    /// Whether a partial schedule of the state (`list`, its floors `floor`) beats `nl`.
    fn beaten(&self, list: &[Label], nl: &Label, floor: &[f64]) -> bool {
        list.iter()
            .any(|o| dominates(o, nl, self.teams, self.w, floor))
    }

    /// Adds `nl` (which none of them beats) to the state's partial schedules, dropping those
    /// it beats.
    fn admit(&self, list: &mut Vec<Label>, nl: Label, floor: &[f64]) {
        list.retain(|o| !dominates(&nl, o, self.teams, self.w, floor));
        list.push(nl);
    }

    /// One part of a day's walk (`run`): the states of `chunk` extended by every way to play
    /// the day's fixtures, into a map and steps of the part's own (each label's `trail` an
    /// index into `steps`). `None` at the deadline or `stop`, or when the memory the search holds
    /// (`held` bytes, plus this part's share counted once per part) would pass `MAX_BYTES`.
    fn walk_day(
        &self,
        chunk: &[(&Key, &Vec<Label>)],
        (i, day, next_day, prev): (usize, i32, i32, i32),
        held: usize,
        parts: usize,
        (deadline, stop): (Instant, &Stop<'_>),
    ) -> Option<Walked> {
        let tolerance = 1e-9 * self.best.abs().max(1.0);
        // Each state reached today, with the state's part of the bound (computed once).
        let mut next: Map<(Part, Vec<Label>)> = Map::default();
        let mut steps: Vec<Step> = Vec::new();
        let mut memo = self.memo();
        let mut alive = 0usize;
        let mut least = f64::INFINITY;
        let mut choices = Vec::new();
        for &(key, labels) in chunk {
            if Instant::now() >= deadline || stop() {
                return None;
            }
            self.choices(key, i, prev, &mut choices);
            for choice in &choices {
                let choice = choice.slots();
                let Some((nkey, cost, dev)) = self.apply(key, choice, day, prev) else {
                    continue;
                };
                let (nkey, swap) = self.canonical(nkey);
                let team = &self.twins.team[swap];
                // A state enters the map only when a partial schedule lives in it (most
                // reached are cut by the bound at once, and their bound is soon had again).
                let (rest, list) = match next.entry(nkey) {
                    std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                    std::collections::hash_map::Entry::Vacant(e) => {
                        let mut rest = Part::new();
                        self.rest_bound(&nkey, day, next_day, &mut rest, &mut memo);
                        let lives = labels.iter().any(|label| {
                            self.bound(&extended(label, cost, &dev, team), &rest)
                                < self.best - tolerance
                        });
                        if !lives {
                            continue;
                        }
                        e.insert((rest, Vec::new()))
                    }
                };
                for label in labels {
                    let mut nl = extended(label, cost, &dev, team);
                    let bound = self.bound(&nl, rest);
                    if bound >= self.best - tolerance || self.beaten(list, &nl, &rest.floor) {
                        continue;
                    }
                    let mut step = Step {
                        parent: label.trail,
                        slots: [0; MAX_TEAMS / 2],
                        n: choice.len() as u8,
                        swap: swap as u8,
                    };
                    for (x, &s) in step.slots.iter_mut().zip(choice) {
                        *x = s as u16;
                    }
                    nl.trail = steps.len() as u32;
                    steps.push(step);
                    least = least.min(bound);
                    self.admit(list, nl, &rest.floor);
                    alive += 1;
                }
            }
            let mine = next.capacity() * std::mem::size_of::<(Key, Part, Vec<Label>)>()
                + 2 * alive * std::mem::size_of::<Label>()
                + steps.capacity() * std::mem::size_of::<Step>();
            if held + parts * mine > MAX_BYTES {
                return None;
            }
        }
        Some(Walked { next, steps, least })
    }

    /// Every way to play the day's fixtures from this state (into `out`): at most one slot
    /// per fixture and per team, within the venues' capacity (playing none included).
    fn choices(&self, key: &Key, day: usize, prev: i32, out: &mut Vec<Choice>) {
        let played = played(key);
        let today = self.days[day];
        let open: Vec<usize> = self.on[day]
            .iter()
            .copied()
            .filter(|&s| self.may_play(key, played, s, today, prev))
            .collect();
        out.clear();
        self.extend(&open, 0, &mut Choice::default(), out);
    }

    fn extend(&self, open: &[usize], from: usize, chosen: &mut Choice, out: &mut Vec<Choice>) {
        out.push(*chosen);
        if chosen.n == chosen.s.len() {
            return;
        }
        for i in from..open.len() {
            let s = open[i];
            let slot = self.cand.slots[s];
            let clash = chosen.slots().iter().any(|&o| {
                let x = self.cand.slots[o];
                x.fixture == slot.fixture
                    || [x.home, x.away].contains(&slot.home)
                    || [x.home, x.away].contains(&slot.away)
            });
            let venue = self.a.at[s].0;
            let load = chosen
                .slots()
                .iter()
                .filter(|&&o| self.a.at[o].0 == venue)
                .count() as i32;
            if clash || load + 1 > self.a.cap[venue as usize] {
                continue;
            }
            chosen.s[chosen.n] = s;
            chosen.n += 1;
            self.extend(open, i + 1, chosen, out);
            chosen.n -= 1;
        }
    }

    /// Whether slot `s` may be played on `today` from this state, each of its teams alone.
    fn may_play(&self, key: &Key, played: u64, s: usize, today: i32, prev: i32) -> bool {
        let slot = self.cand.slots[s];
        let f = slot.fixture;
        if played & (1 << f) != 0 {
            return false;
        }
        [slot.home, slot.away].into_iter().all(|t| {
            let b = 8 + 4 * t;
            let rested = key[b] == NEVER || today - self.last(t, key[b], prev) >= self.gap;
            let homes = i32::from(key[b + 2]) + i32::from(slot.home == t);
            let order = !self.league.rules.same_club_first || {
                let external_played = played & self.mine[t] & !self.internal[t] != 0;
                let internal_done = played & self.internal[t] == self.internal[t];
                match self.a.internal[f] {
                    true => !external_played,
                    false => internal_done,
                }
            };
            rested && homes <= self.a.home_range[t].1 && order
        })
    }

    /// The state after playing `choice` on `day` (the previous day seen was `prev`), the cost
    /// it adds, and each team's deviation on the day; `None` when a rule fails.
    fn apply(
        &self,
        key: &Key,
        choice: &[usize],
        day: i32,
        prev: i32,
    ) -> Option<(Key, f64, [f64; MAX_TEAMS])> {
        let mut next = *key;
        let played = played(key);
        let mut now_played = played;
        for &s in choice {
            now_played |= 1 << self.cand.slots[s].fixture;
        }
        // A fixture not played by its last day can no longer be.
        let gone = (0..self.cand.fixtures.len())
            .any(|f| now_played & (1 << f) == 0 && self.last_day[f] <= day);
        if gone {
            return None;
        }
        next[..8].copy_from_slice(&now_played.to_le_bytes());
        for (i, &(club, limit)) in self.limited.iter().enumerate() {
            if choice.iter().any(|&s| self.a.at[s].1 as usize == club) {
                next[8 + 4 * MAX_TEAMS + i] += 1;
                if next[8 + 4 * MAX_TEAMS + i] > limit {
                    return None;
                }
            }
        }
        let mut cost = 0.0;
        let mut dev = [0.0f64; MAX_TEAMS];
        #[allow(clippy::needless_range_loop)] // a team's key bytes, costs and deviation
        for t in 0..self.teams {
            if self.n[t] == 0 {
                continue;
            }
            let b = 8 + 4 * t;
            let k = (played & self.mine[t]).count_ones() as usize;
            let last = self.last(t, key[b], prev);
            if let (true, Some((from, fair))) = (self.w.winter > 0.0, self.a.winter[t]) {
                if prev < from && from <= day {
                    cost += self.w.winter * (k as f64 - fair).abs();
                }
            }
            let mine = choice.iter().find(|&&s| {
                let slot = self.cand.slots[s];
                slot.home == t || slot.away == t
            });
            let Some(&s) = mine else {
                cost +=
                    self.w.long_rest * (self.waited(last, day) - self.waited(last, prev.max(last)));
                if key[b] != NEVER {
                    next[b] = (day - last).min(self.horizon) as u8;
                }
                if next[b] != NEVER && i32::from(next[b]) >= 14 {
                    next[b + 3] = 0; // no run of weeks reaches back this far
                }
                continue;
            };
            let home = self.cand.slots[s].home == t;
            cost += self.w.long_rest
                * (self.waited(last, day - 1) - self.waited(last, prev.max(last)))
                + self.avoid(t, day);
            if key[b] != NEVER {
                cost += self.short(last, day);
                if (key[b + 1] == 1) == home {
                    cost += self.w.breaks;
                }
            }
            dev[t] = self.deviation(t, k, day);
            let run = match self.league.rules.max_consecutive_weeks {
                Some(most) => {
                    let week = self.a.week[day as usize];
                    let run = match key[b] {
                        NEVER => 1,
                        _ if day - last >= 14 => 1,
                        _ => {
                            let was = self.a.week[last as usize];
                            match week - was {
                                0 => key[b + 3],
                                1 => key[b + 3] + 1,
                                _ => 1,
                            }
                        }
                    };
                    if u32::from(run) > most {
                        return None;
                    }
                    run
                }
                None => 0,
            };
            next[b] = 0;
            next[b + 1] = u8::from(home);
            next[b + 2] = key[b + 2] + u8::from(home);
            next[b + 3] = run;
        }
        Some((next, cost, dev))
    }

    /// The walk's end: the best complete schedule left, with the waits to the season's end,
    /// the winter share where the break comes after every day, and the spreads.
    fn finish(&self, states: &Map<Vec<Label>>, trail: &[Step], prev: i32) -> Option<Proof> {
        let all = match self.cand.fixtures.len() {
            64 => u64::MAX,
            n => (1u64 << n) - 1,
        };
        let end = self.a.days as i32 - 1;
        let mut best: Option<(f64, u32)> = None;
        for (key, labels) in states {
            if played(key) != all {
                continue;
            }
            let mut tail = 0.0;
            let mut homes_ok = true;
            for t in 0..self.teams {
                if self.n[t] == 0 {
                    continue;
                }
                let b = 8 + 4 * t;
                let last = self.last(t, key[b], prev);
                tail +=
                    self.w.long_rest * (self.waited(last, end) - self.waited(last, prev.max(last)));
                if let (true, Some((from, fair))) = (self.w.winter > 0.0, self.a.winter[t]) {
                    if prev < from {
                        tail += self.w.winter * (self.n[t] as f64 - fair).abs();
                    }
                }
                homes_ok &= i32::from(key[b + 2]) >= self.a.home_range[t].0;
            }
            if !homes_ok {
                continue;
            }
            for label in labels {
                let mut worst = 0.0f64;
                let mut cost = label.cost + tail;
                for t in 0..self.teams {
                    worst = worst.max(label.z[t]);
                    cost += self.w.spread * label.z[t];
                }
                cost += self.w.spread_max * worst;
                if best.is_none_or(|b| cost < b.0) {
                    best = Some((cost, label.trail));
                }
            }
        }
        let Some((_, mut at)) = best else {
            return Some(Proof::IncumbentOptimal);
        };
        let mut cur = vec![usize::MAX; self.cand.fixtures.len()];
        // The steps from the first day on; each names slots as the state before it does,
        // which is the schedule's own naming under the swaps of every step before.
        let mut steps = Vec::new();
        while at != u32::MAX {
            steps.push(trail[at as usize]);
            at = trail[at as usize].parent;
        }
        let mut swap = 0usize;
        for step in steps.iter().rev() {
            for &s in &step.slots[..usize::from(step.n)] {
                let s = self.twins.slot[swap][usize::from(s)];
                cur[self.cand.slots[s].fixture] = s;
            }
            swap ^= usize::from(step.swap);
        }
        // Priced and checked afresh, the rules once more.
        let priced = Anneal::new(self.league, self.cand, self.w, &cur);
        if !priced.valid() {
            return None;
        }
        match priced.objective() < self.best {
            true => Some(Proof::Better(cur, priced.objective())),
            false => Some(Proof::IncumbentOptimal),
        }
    }
}

/// States by key, hashed a word at a time (the default hasher was a tenth of the time).
type Map<V> = HashMap<Key, V, BuildHasherDefault<KeyHasher>>;

#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

fn played(key: &Key) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&key[..8]);
    u64::from_le_bytes(b)
}

/// A partial schedule after one more day that costs `cost` and leaves each team's
/// deviation `dev` on it, its teams then named as `team` says (the canonical form's swap).
fn extended(label: &Label, cost: f64, dev: &[f64; MAX_TEAMS], team: &[usize; MAX_TEAMS]) -> Label {
    let mut nl = *label;
    nl.cost += cost;
    for (t, (z, d)) in label.z.iter().zip(dev).enumerate() {
        nl.z[team[t]] = z.max(*d);
    }
    nl
}

/// Whether partial schedule `a` is at least as good as `b` in the same state, whatever the
/// rest of the season: its cost so far, plus what its wider spreads could cost beyond `b`'s
/// (each team's `spread` and the worst's `spread_max`, were the rest to widen neither), is no
/// more than `b`'s cost. (The same rest widens a spread by at most as much after `a` as after
/// `b`, so `a`'s schedule costs no more; and the test is transitive.)
fn dominates(a: &Label, b: &Label, teams: usize, w: &Weights, floor: &[f64]) -> bool {
    let mut extra = 0.0;
    let mut widest = 0.0f64;
    for ((x, y), f) in a.z.iter().zip(&b.z).zip(floor).take(teams) {
        let wider = (x.max(*f) - y.max(*f)).max(0.0);
        extra += w.spread * wider;
        widest = widest.max(wider);
    }
    a.cost + extra + w.spread_max * widest <= b.cost + 1e-9
}

#[cfg(test)]
mod tests {
    use super::super::Rng;
    use super::*;
    use crate::formulate::candidates;
    use crate::formulate::team_bound::tests::{every_valid_schedule, instance, three};
    use crate::model::testing::Lg;
    use crate::model::{parse_league, Rerun};
    use std::time::Duration;

    fn far() -> Instant {
        Instant::now() + Duration::from_secs(120)
    }

    /// The search against every valid schedule of a three-fixture league, each checked and
    /// priced by the independent checker: from the dearest it finds one of the cheapest (its
    /// objective the checker's least), and from a cheapest it proves that one optimal. The
    /// number of valid schedules.
    fn agrees_with_every_schedule(toml: &str) -> usize {
        let league = parse_league(toml, "tiny.toml").unwrap();
        let cand = candidates(&league, &Rerun::default());
        let w = league.weights;
        assert!(applies(&league, &cand, &w), "{toml}");
        let all = every_valid_schedule(&league, &cand);
        let Some(cheapest) = all.iter().min_by(|a, b| a.1.total_cmp(&b.1)) else {
            return 0;
        };
        let dearest = all.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        let tolerance = 1e-6 * cheapest.1.abs().max(1.0);
        // On one thread, and with each day's states walked in three parts and merged.
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
            let proof = pool
                .unwrap()
                .install(|| prove(&league, &cand, &w, &dearest.0, far(), &|| false));
            agrees(&proof, &all, cheapest.1, dearest.1, toml);
        }
        assert_eq!(
            prove(&league, &cand, &w, &cheapest.0, far(), &|| false),
            Proof::IncumbentOptimal,
            "{toml}"
        );
        // The proof's own walk from the dearest, without the narrow walk first, agrees too;
        // and the narrow walk, however narrow, finds only valid schedules, priced right.
        let priced = Anneal::new(&league, &cand, &w, &dearest.0);
        let search = Search::new(&league, &cand, &w, &priced, dearest.1);
        agrees(
            &search.run(far(), &|| false, usize::MAX),
            &all,
            cheapest.1,
            dearest.1,
            toml,
        );
        for width in [1, 2, 5] {
            let Some((cur, value)) = search.beam(far(), &|| false, width) else {
                continue;
            };
            let found = all.iter().find(|s| s.0[..] == cur[..]);
            let priced = found.expect("the narrow walk's schedule is valid").1;
            assert!(
                (priced - value).abs() < tolerance,
                "{priced} vs {value}\n{toml}"
            );
            assert!(
                value < dearest.1 - tolerance,
                "{value} not below {}",
                dearest.1
            );
        }
        // Stopped after each day in turn, from the dearest: the bound it proved so far never
        // exceeds the least of every schedule (nor falls), and a day walked proves one.
        let mut last = f64::NEG_INFINITY;
        for days in 0..=search.days.len() {
            let Proof::AtLeast(bound) = search.run(far(), &|| false, days) else {
                break; // the whole walk: its proof is tested above
            };
            assert!(
                bound <= cheapest.1 + tolerance,
                "{bound} over {}\n{toml}",
                cheapest.1
            );
            assert!(bound >= last, "the bound fell: {last} -> {bound}");
            last = bound;
        }
        assert!(search.days.len() < 2 || last.is_finite(), "{toml}");
        all.len()
    }

    /// A proof from the dearest schedule agrees with every valid schedule (`all`, priced by the
    /// checker): a better one is one of the cheapest, an optimal incumbent is the least.
    fn agrees(proof: &Proof, all: &[([usize; 3], f64)], least: f64, dearest: f64, toml: &str) {
        let tolerance = 1e-6 * least.abs().max(1.0);
        match proof {
            Proof::Better(cur, objective) => {
                assert!(
                    (objective - least).abs() < tolerance,
                    "found {objective}, the least is {}\n{toml}",
                    least
                );
                let found = all.iter().find(|s| s.0[..] == cur[..]);
                let priced = found.expect("the schedule it found is valid").1;
                assert!(
                    (priced - objective).abs() < tolerance,
                    "{priced} vs {objective}"
                );
            }
            Proof::IncumbentOptimal => assert!(
                dearest - least < tolerance,
                "{} called optimal, the least is {}\n{toml}",
                dearest,
                least
            ),
            Proof::AtLeast(_) | Proof::Improved(..) => panic!("no proof\n{toml}"),
        }
    }

    #[test]
    fn finds_the_least_of_every_schedule_of_three_teams() {
        assert!(agrees_with_every_schedule(&three()) > 1000);
    }

    /// A three-team league with rules and weights drawn at random: one or two clubs (so
    /// `same_club_first` bites), one or two nights, a shared venue's capacity, rest days,
    /// weeks in a row, a club's home dates, an avoid date, a late start, a winter break, and
    /// targets for waits and short rests (at most twice the rest days: the search's limit).
    /// In one league in three A1 and A2 are twins (no avoid date, no late start).
    fn tiny(seed: u64) -> String {
        let mut r = Rng::new(seed);
        let weeks = 5 + r.below(3) as u64;
        let start = chrono::NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
        let day = |d: u64| start + chrono::Days::new(d);
        let end = day(weeks * 7 - 1);
        let nights = ["[\"Thu\"]", "[\"Tue\", \"Thu\"]", "[\"Mon\", \"Thu\"]"][r.below(3)];
        let two_clubs = r.below(2) == 0;
        let gap = [1, 2, 3, 7][r.below(4)];
        let mut rules = format!("min_days_between = {gap}\n");
        if two_clubs && r.below(2) == 0 {
            rules += "same_club_first = true\n";
        } else {
            rules += "same_club_first = false\n";
        }
        if r.below(3) == 0 {
            rules += &format!("max_consecutive_weeks = {}\n", 1 + r.below(2));
        }
        let closed = match r.below(3) {
            0 => format!("closed = [{{ from = {}, to = {} }}]\n", day(14), day(20)),
            _ => String::new(),
        };
        let mut weights = format!(
            "long_rest_days = {}\nshort_rest_days = {}\nbreaks = {}\n",
            7 + r.below(15),
            1 + r.below(2 * gap),
            [0, 3, 10][r.below(3)]
        );
        if r.below(2) == 0 {
            weights += "winter = 20\n";
        }
        let limit = match r.below(3) {
            0 => format!("max_home_dates = {}\n", 1 + r.below(2)),
            _ => String::new(),
        };
        let second = if two_clubs { "B" } else { "A" };
        let mut late = match r.below(3) {
            0 => format!("start = {}\n", day(7)),
            _ => String::new(),
        };
        let mut avoid = format!("avoid = [{}]", day(7 * r.below(weeks as usize) as u64 + 3));
        if r.below(3) == 0 {
            (late, avoid) = (String::new(), String::new());
        }
        let capacity = 1 + r.below(2);
        let mut lg = Lg::named(
            &format!("Tiny {seed}"),
            &start.to_string(),
            &end.to_string(),
        );
        if !closed.is_empty() {
            lg = lg.top(closed.trim());
        }
        for line in rules.lines() {
            lg = lg.rule(line);
        }
        for line in weights.lines() {
            lg = lg.weight(line);
        }
        lg.venue("Hall", &format!("capacity = {capacity}"))
            .venue("Room", "")
            .club_at("A", "Hall", nights, &limit)
            .club_at("B", "Room", r#"["Thu"]"#, "")
            .division("D", "single")
            .team("A1", "A", "D", &avoid)
            .team("A2", "A", "D", &late)
            .team("X3", second, "D", "")
            .toml()
    }

    /// Random three-team leagues, each against every one of its valid schedules.
    #[test]
    fn finds_the_least_of_every_schedule_of_random_leagues() {
        let mut solvable = 0;
        for seed in 0..40 {
            if agrees_with_every_schedule(&tiny(seed)) > 0 {
                solvable += 1;
            }
        }
        assert!(
            solvable >= 20,
            "{solvable} of 40 leagues have a valid schedule"
        );
    }

    /// The four-team teaching league (twelve fixtures, where enumerating is out of reach)
    /// against HiGHS, which proves it at `--gap 0`: the same optimum, from a worse start.
    #[test]
    fn agrees_with_highs_on_the_four_team_league() {
        let (league, cand) = instance("instances/examples/four-teams-double.toml");
        let w = league.weights;
        let opts = super::super::Options {
            gap: 0.0,
            threads: 1,
            ..Default::default()
        };
        let spec = super::super::RunSpec {
            weights: &w,
            seed: 0,
            time_limit: 120.0,
            max_nodes: None,
            start: None,
            teams: None,
        };
        let highs = super::super::run_once(&league, &cand, &opts, Instant::now(), &spec).unwrap();
        assert_eq!(highs.status, super::super::RunStatus::Optimal);
        let start = super::super::construct::greedy(&league, &cand, 1).unwrap();
        let first = Anneal::new(&league, &cand, &w, &start).objective();
        assert!(
            first > highs.objective + 1.0,
            "the start is already optimal"
        );
        let Proof::Better(cur, objective) = prove(&league, &cand, &w, &start, far(), &|| false)
        else {
            panic!("no better schedule than the start");
        };
        assert!(
            (objective - highs.objective).abs() < 1e-6 * objective,
            "{objective} vs HiGHS {}",
            highs.objective
        );
        assert_eq!(Anneal::new(&league, &cand, &w, &cur).objective(), objective);
    }

    /// The final cost of a partial schedule when the rest of the season costs `more` and
    /// takes each team's spread to at least `later` (as `finish` counts it).
    fn completed(label: &Label, teams: usize, w: &Weights, more: f64, later: &[f64]) -> f64 {
        let mut cost = label.cost + more;
        let mut worst = 0.0f64;
        for (x, l) in label.z.iter().zip(later).take(teams) {
            let z = x.max(*l);
            cost += w.spread * z;
            worst = worst.max(z);
        }
        cost + w.spread_max * worst
    }

    /// Dominance against its definition: whenever one partial schedule is said to dominate
    /// another in a state, no rest of the season (any further cost, any later spreads at or
    /// above the state's floors) makes the first dearer than the second.
    #[test]
    fn dominance_holds_for_every_rest_of_the_season() {
        let mut r = Rng::new(7);
        let mut said = 0;
        for _ in 0..20_000 {
            let teams = 1 + r.below(MAX_TEAMS);
            let w = Weights {
                spread: r.below(4) as f64,
                spread_max: [0.0, 30.0, 300.0][r.below(3)],
                ..Weights::default()
            };
            let unit = |r: &mut Rng| r.below(1000) as f64 / 1000.0;
            let mut label = || Label {
                cost: r.below(400) as f64 / 4.0,
                z: std::array::from_fn(|_| r.below(1000) as f64 / 1000.0),
                trail: 0,
            };
            let (a, b) = (label(), label());
            let floor: [f64; MAX_TEAMS] = std::array::from_fn(|_| unit(&mut r) * 0.5);
            if !dominates(&a, &b, teams, &w, &floor) {
                continue;
            }
            said += 1;
            for _ in 0..50 {
                let later: Vec<f64> = floor.iter().map(|f| f + unit(&mut r) * (1.0 - f)).collect();
                let more = r.below(100) as f64;
                let (ca, cb) = (
                    completed(&a, teams, &w, more, &later),
                    completed(&b, teams, &w, more, &later),
                );
                assert!(ca <= cb + 1e-6, "{ca} > {cb}");
            }
        }
        assert!(said > 100, "dominance said {said} times");
    }

    /// Twins are teams nothing tells apart: the darts league's two pairs (two clubs with two
    /// teams each), one pair once a team of one has an avoid date, none in the Rapid League.
    #[test]
    fn finds_the_twins_nothing_tells_apart() {
        let forms = |toml: &str| {
            let league = parse_league(toml, "league.toml").unwrap();
            let cand = candidates(&league, &Rerun::default());
            let start = super::super::construct::greedy(&league, &cand, 1).unwrap();
            let a = Anneal::new(&league, &cand, &league.weights, &start);
            let n: Vec<usize> = cand.fixtures_of.iter().map(Vec::len).collect();
            Twins::new(&league, &cand, &a, &n).team.len()
        };
        let darts = std::fs::read_to_string("instances/examples/darts-weekly.toml").unwrap();
        assert_eq!(forms(&darts), 4);
        let apart = darts.replace(
            "name = \"Crown Princes\"\n",
            "name = \"Crown Princes\"\navoid = [2026-10-01]\n",
        );
        assert_ne!(apart, darts);
        assert_eq!(forms(&apart), 2);
        let rapid = std::fs::read_to_string("instances/sussex-rapid-2026-7.toml").unwrap();
        assert_eq!(forms(&rapid), 1);
    }

    /// What it does not take: more teams than a state holds, and a deadline already past.
    #[test]
    fn gives_up_honestly() {
        let league = parse_league(&three(), "three.toml").unwrap();
        let cand = candidates(&league, &Rerun::default());
        let w = league.weights;
        let all = every_valid_schedule(&league, &cand);
        let past = Instant::now();
        assert_eq!(
            prove(&league, &cand, &w, &all[0].0, past, &|| false),
            Proof::AtLeast(f64::NEG_INFINITY)
        );
        // Cancelled (a job's cancel), with all the time in the world.
        assert_eq!(
            prove(&league, &cand, &w, &all[0].0, far(), &|| true),
            Proof::AtLeast(f64::NEG_INFINITY)
        );
        let (big, cand) = instance("instances/sussex-2026-7.toml");
        assert!(!applies(&big, &cand, &big.weights));
    }
}
