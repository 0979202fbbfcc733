//! A lower bound on each team's own quality terms, from its season alone.
//!
//! A team's long waits, short rests, winter share, avoid dates and spread depend only on the
//! days it plays. Over its candidate days, with `min_days_between` kept and exactly as many
//! matches as it has fixtures, a dynamic programme finds the least such cost any schedule can
//! give it (`least`), and separately the least spread it can have (`spread`, a bottleneck
//! path). Every valid schedule gives each team a season the programme considered, so
//! - the sum of the teams' least costs, plus `spread_max` times the largest least spread, is a
//!   lower bound on the objective (`bound`), and
//! - each team's cost terms in the model are at least its least cost (`formulate::quality` adds
//!   that row): the LP relaxation, which spreads fractional matches evenly and so sees no long
//!   waits, learns the waits the whole numbers force.
//!
//! The programme drops what needs more than one team (opponents, venues, home counts) and the
//! non-consecutive pairs of short rests: a bound, never more than the true least cost.
//!
//! A team's breaks are its own too: the sides it can play on each day (its club's nights and
//! home dates, its opponents') may force two matches on one side, as a stretch without home
//! dates does under a capped spread. `coupled_bound` prices them (each state a day and a
//! side); the model's rows of least costs (`least`) leave them out.
//!
//! `coupled_bound` adds back two things the teams share: teams play in pairs, so on a day when
//! an odd number of a group's teams could play, one of them does not (a five-team darts
//! league on one night: four play at most); and a venue hosts at most its capacity, so of the
//! teams at home there on a day, at most that many are. Those rows are priced into the
//! programmes by Lagrangian relaxation, with the worst spread taken range by range; `solve`
//! reports it in the time left after its search.

use super::Candidates;
use crate::model::{League, Weights};
use std::collections::BTreeMap;

/// One team's least costs over every season it could have.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TeamLeast {
    /// The least of its long waits, short rests, winter share and avoid dates (weighted).
    pub cost: f64,
    /// The least worst spread it can have (0 to 1).
    pub spread: f64,
}

/// The season as the objective counts it: its length in days from the league's start.
pub struct Season {
    days: i32,
}

impl Season {
    /// The season of `league`.
    pub fn new(league: &League) -> Season {
        let days = ((league.end - league.start).num_days() + 1).max(1) as i32;
        Season { days }
    }

    /// The spread's checkpoints that matter to a team with these candidate days (sorted):
    /// (day, share of the season elapsed by its end). The spread counts every day, but a
    /// team's count of matches changes only on its candidate days, so its largest lead lies on
    /// one of them and its largest lag on the day before one (or the season's last day).
    fn checks(&self, candidate: &[i32]) -> Vec<(i32, f64)> {
        let mut at: Vec<i32> = candidate
            .iter()
            .flat_map(|&d| [d - 1, d])
            .filter(|&c| c >= 0)
            .chain(std::iter::once(self.days - 1))
            .collect();
        at.sort_unstable();
        at.dedup();
        at.into_iter()
            .map(|c| (c, f64::from(c + 1) / f64::from(self.days)))
            .collect()
    }
}

/// Every team's least costs (`None` for a team with no fixtures), or `None` when some team
/// cannot fit its matches on its candidate days at all.
pub fn least(league: &League, cand: &Candidates, w: &Weights) -> Option<Vec<Option<TeamLeast>>> {
    let season = Season::new(league);
    (0..league.teams.len())
        .map(|t| match cand.fixtures_of[t].is_empty() {
            true => Some(None),
            false => team_least(league, cand, w, &season, t).map(Some),
        })
        .collect()
}

/// The lower bound on the whole objective (see the module's comment): the teams' least own
/// costs (with their spreads' weight) and the largest least spread.
pub fn bound(league: &League, cand: &Candidates, w: &Weights) -> Option<(f64, f64)> {
    let all = least(league, cand, w)?;
    let mut sum = 0.0;
    let mut worst = 0.0f64;
    for l in all.into_iter().flatten() {
        sum += l.cost + w.spread * l.spread;
        worst = worst.max(l.spread);
    }
    Some((sum, worst))
}

/// A bound that also sees what the teams share (the module's bound, raised where it can be
/// within `deadline`). Teams that can meet form groups (linked by fixtures); on any day a
/// group's teams play in pairs, so when an odd number of them could play that day, at most one
/// fewer do; and a venue's teams host no more than its capacity (`venue_rows`). Those rows are
/// priced into each team's programme by Lagrangian relaxation
/// (subgradient steps on the prices; every price vector gives a valid bound, the best is
/// kept). The worst spread is split into ranges of one point: a schedule whose worst spread
/// lies in [z, z + 0.01] costs at least `spread_max` z plus the relaxation with every team's
/// spread capped at z + 0.01; above the last range tried, the uncapped relaxation stands in.
/// `incumbent` (the best objective found) only says where the ranges may stop. The venues'
/// rows come second, in the time left: more rows make the subgradient steps slower to settle,
/// and the higher of the two bounds stands.
pub fn coupled_bound(
    league: &League,
    cand: &Candidates,
    w: &Weights,
    incumbent: f64,
    deadline: std::time::Instant,
) -> Option<f64> {
    let days = coupled(league, cand, w, incumbent, deadline, false)?;
    if std::time::Instant::now() >= deadline {
        return Some(days);
    }
    let venues = coupled(league, cand, w, incumbent, deadline, true);
    Some(venues.map_or(days, |v| v.max(days)))
}

/// The coupled bound with the days' rows, and the venues' when `venues`.
fn coupled(
    league: &League,
    cand: &Candidates,
    w: &Weights,
    incumbent: f64,
    deadline: std::time::Instant,
    venues: bool,
) -> Option<f64> {
    let season = Season::new(league);
    let teams: Vec<usize> = (0..league.teams.len())
        .filter(|&t| !cand.fixtures_of[t].is_empty())
        .collect();
    let dps: Vec<Dp> = teams
        .iter()
        .map(|&t| Dp::new(league, cand, w, &season, t, true))
        .collect::<Option<_>>()?;
    let least: Vec<f64> = dps.iter().map(Dp::least_spread).collect();
    let spread_part = w.spread * least.iter().sum::<f64>();
    let rows = Rows::new(league, cand, &teams, &dps, venues);
    let mut relax = Relaxation {
        dps: &dps,
        rows: &rows,
        price: vec![0.0; rows.cap.len()],
        deadline,
    };
    let uncapped = relax.bound(f64::INFINITY, incumbent - spread_part)?;
    if w.spread_max == 0.0 {
        return Some(spread_part + uncapped);
    }
    let tail = |z: f64| w.spread_max * z + spread_part + uncapped;
    // Each range's floor and capped relaxation; a tighter cap never costs less, so each range
    // takes the best relaxation of its cap or any looser one (the uncapped one included).
    let mut ranges: Vec<(f64, f64)> = Vec::new();
    let mut z = least.iter().copied().fold(0.0, f64::max);
    while z < 1.0 && tail(z) < incumbent && std::time::Instant::now() < deadline {
        let next = (z + 0.01).min(1.0);
        let floor = w.spread_max * z + spread_part;
        // No schedule keeps every spread within `next`: the range adds nothing to the bound.
        let capped = relax
            .bound(next, incumbent - floor)
            .unwrap_or(f64::INFINITY);
        ranges.push((floor, capped));
        z = next;
    }
    let mut best = tail(z);
    let mut looser = uncapped;
    for &(floor, capped) in ranges.iter().rev() {
        looser = looser.max(capped);
        best = best.min(floor + looser);
    }
    Some(best)
}

/// Per team, its group: teams linked by fixtures share one (the root of a union-find).
pub fn groups(league: &League, cand: &Candidates) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..league.teams.len()).collect();
    fn root(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    for f in &cand.fixtures {
        let (a, b) = (root(&mut parent, f.a), root(&mut parent, f.b));
        parent[a] = b;
    }
    (0..league.teams.len())
        .map(|t| root(&mut parent, t))
        .collect()
}

/// The shared rows: per group and day with an odd number of its teams able to play, the teams
/// playing that day are at most one fewer.
struct Rows {
    /// Per team (as in `dps`), per candidate day: its row, if any.
    of: Vec<Vec<Option<usize>>>,
    /// Per team, per candidate day: the row of the venue it hosts at that day, if any.
    home: Vec<Vec<Option<usize>>>,
    /// Per row: how many of its teams may play (or host).
    cap: Vec<f64>,
}

impl Rows {
    fn new(league: &League, cand: &Candidates, teams: &[usize], dps: &[Dp], venues: bool) -> Rows {
        let group = groups(league, cand);
        let mut able: BTreeMap<(usize, i32), usize> = BTreeMap::new();
        for (k, &t) in teams.iter().enumerate() {
            let g = group[t];
            for &d in &dps[k].days {
                *able.entry((g, d)).or_default() += 1;
            }
        }
        let mut index: BTreeMap<(usize, i32), usize> = BTreeMap::new();
        let mut cap = Vec::new();
        for (&key, &count) in &able {
            if count % 2 == 1 {
                index.insert(key, cap.len());
                cap.push((count - 1) as f64);
            }
        }
        let of = teams
            .iter()
            .enumerate()
            .map(|(k, &t)| {
                let g = group[t];
                dps[k]
                    .days
                    .iter()
                    .map(|&d| index.get(&(g, d)).copied())
                    .collect()
            })
            .collect();
        let home = match venues {
            true => venue_rows(league, cand, teams, dps, &mut cap),
            false => dps.iter().map(|dp| vec![None; dp.days.len()]).collect(),
        };
        Rows { of, home, cap }
    }
}

/// The venues' rows: a venue hosts at most its capacity on a day, so of the teams whose every
/// home slot that day is at that venue, at most that many are at home (rows only where more
/// could be). Appends the rows' capacities to `cap`; per team (as in `dps`) and candidate day,
/// the row of its home state.
fn venue_rows(
    league: &League,
    cand: &Candidates,
    teams: &[usize],
    dps: &[Dp],
    cap: &mut Vec<f64>,
) -> Vec<Vec<Option<usize>>> {
    let mut hosts: BTreeMap<(usize, i32), Vec<(usize, usize)>> = BTreeMap::new();
    for (k, &t) in teams.iter().enumerate() {
        // Per day: its home slots' venue, or `None` when they lie at more than one.
        let mut venue_on: BTreeMap<i32, Option<usize>> = BTreeMap::new();
        for &s in &cand.by_team[t] {
            let slot = &cand.slots[s];
            if slot.home != t {
                continue;
            }
            let d = (slot.date - league.start).num_days() as i32;
            let v = league.fixture_venue(slot.home, slot.away);
            let e = venue_on.entry(d).or_insert(Some(v));
            if *e != Some(v) {
                *e = None;
            }
        }
        for (d, v) in venue_on {
            if let (Some(v), Ok(i)) = (v, dps[k].days.binary_search(&d)) {
                hosts.entry((v, d)).or_default().push((k, i));
            }
        }
    }
    let mut home: Vec<Vec<Option<usize>>> =
        dps.iter().map(|dp| vec![None; dp.days.len()]).collect();
    for ((v, d), list) in hosts {
        let room = league.league_capacity(v, league.start + chrono::Days::new(d as u64)) as usize;
        if list.len() > room {
            for (k, i) in list {
                home[k][i] = Some(cap.len());
            }
            cap.push(room as f64);
        }
    }
    home
}

/// The Lagrangian relaxation of the shared rows, its prices kept from one cap to the next.
struct Relaxation<'a, 'b> {
    dps: &'a [Dp<'b>],
    rows: &'a Rows,
    price: Vec<f64>,
    deadline: std::time::Instant,
}

impl Relaxation<'_, '_> {
    /// Subgradient steps this many at most per bound.
    const STEPS: usize = 40;

    /// The best bound found on the teams' own costs with every spread within `cap`; `target`
    /// (an estimate of the optimum, for the step length) only steers. `None` when some team
    /// cannot keep within `cap`.
    fn bound(&mut self, cap: f64, target: f64) -> Option<f64> {
        let mut best = f64::NEG_INFINITY;
        let mut scale = 1.0;
        for step in 0..Self::STEPS {
            let mut value: f64 = -self
                .price
                .iter()
                .zip(&self.rows.cap)
                .map(|(p, c)| p * c)
                .sum::<f64>();
            let mut playing = vec![0.0; self.price.len()];
            for ((dp, rows), hosts) in self.dps.iter().zip(&self.rows.of).zip(&self.rows.home) {
                // Per state: the day's row, and at home the venue's.
                let price: Vec<f64> = (0..2 * dp.days.len())
                    .map(|st| {
                        let (i, at_home) = (st / 2, st % 2 == 0);
                        let day = rows[i].map_or(0.0, |r| self.price[r]);
                        let venue = hosts[i].filter(|_| at_home).map_or(0.0, |r| self.price[r]);
                        day + venue
                    })
                    .collect();
                let (cost, states) = dp.cheapest(&price, cap)?;
                value += cost;
                for st in states {
                    let i = st / 2;
                    if let Some(r) = rows[i] {
                        playing[r] += 1.0;
                    }
                    if let (Some(r), true) = (hosts[i], st % 2 == 0) {
                        playing[r] += 1.0;
                    }
                }
            }
            if value > best + 1e-9 {
                best = value;
            } else {
                scale *= 0.8;
            }
            // The rows' excess (a subgradient); none, with no price on a slack row: optimal.
            let g: Vec<f64> = playing
                .iter()
                .zip(&self.rows.cap)
                .map(|(p, c)| p - c)
                .collect();
            let norm: f64 = g
                .iter()
                .zip(&self.price)
                .map(|(g, p)| if *p > 0.0 || *g > 0.0 { g * g } else { 0.0 })
                .sum();
            let slack_free = g
                .iter()
                .zip(&self.price)
                .all(|(g, p)| *g <= 0.0 && (*p == 0.0 || *g == 0.0));
            if norm == 0.0 || slack_free || step + 1 == Self::STEPS {
                break;
            }
            if std::time::Instant::now() >= self.deadline {
                break;
            }
            // Polyak's step towards the target (at least a small step).
            let length = scale * (target - value).max(1.0) / norm;
            for (p, g) in self.price.iter_mut().zip(&g) {
                *p = (*p + length * g).max(0.0);
            }
        }
        Some(best)
    }
}

/// The days of the season (0 = the league's start) on which team `t` has a candidate slot.
fn candidate_days(league: &League, cand: &Candidates, t: usize) -> Vec<i32> {
    let mut days: Vec<i32> = cand.by_team[t]
        .iter()
        .map(|&s| (cand.slots[s].date - league.start).num_days() as i32)
        .collect();
    days.sort_unstable();
    days.dedup();
    days
}

/// Under `same_club_first` (rule 8: a team's matches against its own club in its division come
/// before all its others, as `rules::same_club_first` models it), how many of team `t`'s
/// matches come first, and per day of `days` (its candidate days) whether a first match (bit 1)
/// or a later one (bit 2) may fall on it. Without the rule, or with only one kind of match,
/// (0, every day either).
fn first_matches(league: &League, cand: &Candidates, t: usize, days: &[i32]) -> (usize, Vec<u8>) {
    let every = vec![3u8; days.len()];
    if !league.rules.same_club_first {
        return (0, every);
    }
    let internal = cand.fixtures_of[t]
        .iter()
        .filter(|&&f| cand.is_internal(league, f))
        .count();
    if internal == 0 || internal == cand.fixtures_of[t].len() {
        return (0, every);
    }
    let mut kinds = vec![0u8; days.len()];
    for &f in &cand.fixtures_of[t] {
        let kind = if cand.is_internal(league, f) { 1 } else { 2 };
        for &s in &cand.by_fixture[f] {
            let d = (cand.slots[s].date - league.start).num_days() as i32;
            if let Ok(i) = days.binary_search(&d) {
                kinds[i] |= kind;
            }
        }
    }
    (internal, kinds)
}

/// Team `t`'s least costs over its candidate days; `None` when its matches do not fit.
pub fn team_least(
    league: &League,
    cand: &Candidates,
    w: &Weights,
    season: &Season,
    t: usize,
) -> Option<TeamLeast> {
    let dp = Dp::new(league, cand, w, season, t, false)?;
    let zero = vec![0.0; 2 * dp.days.len()];
    let (cost, _) = dp.cheapest(&zero, f64::INFINITY)?;
    Some(TeamLeast {
        cost,
        spread: dp.least_spread(),
    })
}

/// One team's season as the programme sees it: its candidate days and what each choice costs.
struct Dp<'a> {
    w: &'a Weights,
    season: &'a Season,
    /// Its candidate days (days of the season), in order.
    days: Vec<i32>,
    /// The spread's checkpoints for those days (`Season::checks`).
    checks: Vec<(i32, f64)>,
    /// The avoid-dates cost of playing on each.
    avoid: Vec<f64>,
    /// Its number of matches.
    n: usize,
    /// `min_days_between`.
    gap: i32,
    /// Its first possible day.
    first: i32,
    /// The winter break's first day and the team's fair share before it.
    winter: Option<(i32, f64)>,
    /// Under `same_club_first`, its matches against its own club come first: how many (0 when
    /// the rule does not bind it), and per candidate day whether one of them (bit 1) or another
    /// match (bit 2) may fall on it.
    internal: usize,
    kinds: Vec<u8>,
    /// Per candidate day, the sides the team may play on it (bit 1: at home, bit 2: away), and
    /// the weight of a break between two matches on one side; unless `Dp::new` is asked to
    /// follow sides, every day has the one side 1 (either) and breaks are not priced.
    sides: Vec<u8>,
    breaks: f64,
}

impl<'a> Dp<'a> {
    /// `None` when the team's matches do not fit on its candidate days.
    fn new(
        league: &League,
        cand: &Candidates,
        w: &'a Weights,
        season: &'a Season,
        t: usize,
        sided: bool,
    ) -> Option<Dp<'a>> {
        let team = &league.teams[t];
        let n = cand.fixtures_of[t].len();
        let days = candidate_days(league, cand, t);
        if days.len() < n {
            return None;
        }
        let avoid = days
            .iter()
            .map(|&d| {
                let date = league.start + chrono::Days::new(d as u64);
                if team.avoid.contains(&date) {
                    w.avoid
                } else {
                    0.0
                }
            })
            .collect();
        let winter = super::quality::winter_share(league, t, n as f64)
            .map(|(from, fair)| ((from - league.start).num_days() as i32, fair));
        let (internal, kinds) = first_matches(league, cand, t, &days);
        let breaks = if sided { w.breaks } else { 0.0 };
        let mut sides = vec![if sided { 0u8 } else { 1 }; days.len()];
        if sided {
            for &s in &cand.by_team[t] {
                let slot = &cand.slots[s];
                let d = (slot.date - league.start).num_days() as i32;
                if let Ok(i) = days.binary_search(&d) {
                    sides[i] |= if slot.home == t { 1 } else { 2 };
                }
            }
        }
        Some(Dp {
            w,
            season,
            checks: season.checks(&days),
            days,
            avoid,
            n,
            gap: league.rules.min_days_between.max(1) as i32,
            first: (team.start.max(league.start) - league.start).num_days() as i32,
            winter,
            internal,
            kinds,
            sides,
            breaks,
        })
    }

    /// Whether the team's k-th match (from 0) may fall on days[i].
    fn may(&self, k: usize, i: usize) -> bool {
        let kind = if k < self.internal { 1 } else { 2 };
        self.kinds[i] & kind != 0
    }

    /// Days of a wait from a to b (inclusive) that begin `long_rest_days` days without a match.
    fn free(&self, a: i32, b: i32) -> f64 {
        f64::from((b - a + 2 - self.w.long_rest_days as i32).max(0))
    }

    /// The winter term when `before` matches come before the break.
    fn winter_cost(&self, before: usize) -> f64 {
        match self.winter {
            Some((_, fair)) if self.w.winter > 0.0 => self.w.winter * (before as f64 - fair).abs(),
            _ => 0.0,
        }
    }

    /// Whether the break's first day lies in (a, b]: the matches before it are those up to a.
    fn crosses(&self, a: i32, b: i32) -> bool {
        self.winter.is_some_and(|(from, _)| a < from && from <= b)
    }

    /// The cost of playing first on days[i].
    fn start(&self, i: usize) -> f64 {
        let mut c = self.w.long_rest * self.free(self.first, self.days[i] - 1) + self.avoid[i];
        if self.crosses(i32::MIN, self.days[i]) {
            c += self.winter_cost(0);
        }
        c
    }

    /// The cost of the k-th match on days[a] followed by the next on days[b].
    fn step(&self, k: usize, a: usize, b: usize) -> f64 {
        let (da, db) = (self.days[a], self.days[b]);
        let target = self.w.short_rest_days as i32;
        let mut c = self.w.long_rest * self.free(da + 1, db - 1) + self.avoid[b];
        if db - da < target {
            c += self.w.short_rest * f64::from(target - (db - da));
        }
        if self.crosses(da, db) {
            c += self.winter_cost(k);
        }
        c
    }

    /// The cost of playing last on days[i].
    fn end(&self, i: usize) -> f64 {
        let mut c = self.w.long_rest * self.free(self.days[i] + 1, self.season.days - 1);
        if self.winter.is_some_and(|(from, _)| self.days[i] < from) {
            c += self.winter_cost(self.n);
        }
        c
    }

    /// How far k matches played lie from the share of the season elapsed at a checkpoint.
    fn dev(&self, k: usize, check: (i32, f64)) -> f64 {
        (k as f64 / self.n as f64 - check.1).abs()
    }

    /// The least cost, plus `price` of each state played, over the seasons whose spread stays
    /// within `cap`; with the states of one such season. `None` when none does. A state
    /// (2i + s) is a day and the side played on it (`sides`: s = 0 at home, 1 away, or 0 for
    /// either when sides are not followed); two consecutive matches on one side cost `breaks`.
    fn cheapest(&self, price: &[f64], cap: f64) -> Option<(f64, Vec<usize>)> {
        let (m, n, checks) = (self.days.len(), self.n, &self.checks);
        let inf = f64::INFINITY;
        let over = |k: usize, c: (i32, f64)| self.dev(k, c) > cap + 1e-9;
        let side = |i: usize, s: usize| self.sides[i] & (1 << s) != 0;
        // cost[2i + s]: the least cost with the k-th match on days[i], on side s; back[k][..]:
        // the state before.
        let mut cost: Vec<f64> = (0..2 * m)
            .map(|st| {
                let i = st / 2;
                let early = checks.iter().take_while(|c| c.0 < self.days[i]);
                match !side(i, st % 2) || !self.may(0, i) || early.clone().any(|&c| over(0, c)) {
                    true => inf,
                    false => self.start(i) + price[st],
                }
            })
            .collect();
        let mut back: Vec<Vec<usize>> = Vec::with_capacity(n);
        for k in 1..n {
            let mut next = vec![inf; 2 * m];
            let mut from = vec![usize::MAX; 2 * m];
            for a in 0..m {
                let at = [cost[2 * a], cost[2 * a + 1]];
                if at == [inf, inf] {
                    continue;
                }
                // The checkpoints from days[a] on, as b moves later: k matches counted at each.
                let mut ci = checks.partition_point(|c| c.0 < self.days[a]);
                for b in a + 1..m {
                    let mut within = true;
                    while ci < checks.len() && checks[ci].0 < self.days[b] {
                        within &= !over(k, checks[ci]);
                        ci += 1;
                    }
                    if !within {
                        break; // every later day passes the same checkpoint
                    }
                    if self.days[b] - self.days[a] < self.gap || !self.may(k, b) {
                        continue;
                    }
                    let step = self.step(k, a, b);
                    for sb in (0..2).filter(|&sb| side(b, sb)) {
                        for (sa, &c) in at.iter().enumerate() {
                            let c = c
                                + step
                                + price[2 * b + sb]
                                + if sa == sb { self.breaks } else { 0.0 };
                            if c < next[2 * b + sb] {
                                next[2 * b + sb] = c;
                                from[2 * b + sb] = 2 * a + sa;
                            }
                        }
                    }
                }
            }
            back.push(from);
            cost = next;
        }
        let mut best: Option<(f64, usize)> = None;
        for (st, &c) in cost.iter().enumerate() {
            let late = checks.iter().filter(|c| c.0 >= self.days[st / 2]);
            if c == inf || late.clone().any(|&c| over(n, c)) {
                continue;
            }
            let c = c + self.end(st / 2);
            if best.is_none_or(|b| c < b.0) {
                best = Some((c, st));
            }
        }
        let (c, mut st) = best?;
        let mut path = vec![st];
        for from in back.iter().rev() {
            st = from[st];
            path.push(st);
        }
        path.reverse();
        Some((c, path))
    }

    /// The least worst spread of any season (a bottleneck path).
    fn least_spread(&self) -> f64 {
        let (m, n, checks) = (self.days.len(), self.n, &self.checks);
        let inf = f64::INFINITY;
        let mut spread: Vec<f64> = (0..m)
            .map(|i| match self.may(0, i) {
                true => checks
                    .iter()
                    .take_while(|c| c.0 < self.days[i])
                    .fold(0.0, |z, &c| f64::max(z, self.dev(0, c))),
                false => inf,
            })
            .collect();
        for k in 1..n {
            let mut next = vec![inf; m];
            for (a, &at) in spread.iter().enumerate() {
                if at == inf {
                    continue;
                }
                let mut ci = checks.partition_point(|c| c.0 < self.days[a]);
                let mut z = at;
                for (b, nb) in next.iter_mut().enumerate().skip(a + 1) {
                    while ci < checks.len() && checks[ci].0 < self.days[b] {
                        z = z.max(self.dev(k, checks[ci]));
                        ci += 1;
                    }
                    if self.days[b] - self.days[a] >= self.gap && self.may(k, b) {
                        *nb = nb.min(z);
                    }
                }
            }
            spread = next;
        }
        (0..m)
            .filter(|&i| spread[i] < inf)
            .map(|i| {
                checks
                    .iter()
                    .filter(|c| c.0 >= self.days[i])
                    .fold(spread[i], |z, &c| f64::max(z, self.dev(n, c)))
            })
            .fold(inf, f64::min)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::formulate::candidates;
    use crate::model::testing::Lg;
    use crate::model::{parse_league, Rerun};

    /// Three teams, each hosting the others (four matches a team) in ten weeks with a two-week
    /// break, a late starter, an avoided date and unavailable dates; waits over 14 days cost.
    fn bound_test() -> String {
        Lg::named("Bound test", "2026-10-05", "2026-12-13")
            .top("closed = [{ from = 2026-11-16, to = 2026-11-29 }]")
            .rule("min_days_between = 3")
            .rule("same_club_first = true")
            .weight("long_rest_days = 14")
            .weight("short_rest_days = 6")
            .venue("Hall", "capacity = 3")
            .club_at("A", "Hall", r#"["Mon", "Thu"]"#, "")
            .club_at("B", "Hall", r#"["Tue"]"#, "")
            .club_at("C", "Hall", r#"["Wed"]"#, "start = 2026-10-14")
            .division("D", "double")
            .team("A1", "A", "D", "avoid = [2026-10-08, 2026-10-13]")
            .team("B1", "B", "D", "unavailable = [2026-10-06, 2026-10-20]")
            .team("C1", "C", "D", "")
            .toml()
    }

    /// Three teams, one club night, a short season with waits over 21 days costing.
    pub(crate) fn three() -> String {
        Lg::named("Three on one night", "2026-10-01", "2026-12-23")
            .rule("min_days_between = 7")
            .rule("same_club_first = true")
            .weight("long_rest_days = 21")
            .venue("Hall", "capacity = 3")
            .club_at("A", "Hall", r#"["Thu"]"#, "")
            .division("D", "single")
            .team("A1", "A", "D", "")
            .team("A2", "A", "D", "")
            .team("A3", "A", "D", "")
            .toml()
    }

    /// The team's own costs of playing on `days` (days of the season), counted straight from
    /// the weights' definitions, day by day: the oracle the programme must agree with.
    fn oracle(league: &League, w: &Weights, t: usize, n: usize, days: &[i32]) -> (f64, f64) {
        let season = ((league.end - league.start).num_days() + 1) as i32;
        let date = |d: i32| league.start + chrono::Days::new(d as u64);
        let first = (league.teams[t].start.max(league.start) - league.start).num_days() as i32;
        let g = w.long_rest_days as i32;
        // Every day from the team's start that begins g days without a match.
        let waits = (first..=season - g)
            .filter(|s| !days.iter().any(|d| (*s..*s + g).contains(d)))
            .count() as f64;
        let mut short = 0.0;
        for (i, a) in days.iter().enumerate() {
            for b in &days[i + 1..] {
                short += f64::from((w.short_rest_days as i32 - (b - a)).max(0));
            }
        }
        let avoid = days
            .iter()
            .filter(|d| league.teams[t].avoid.contains(&date(**d)))
            .count() as f64;
        let winter = match crate::formulate::quality::winter_share(league, t, n as f64) {
            Some((from, fair)) => {
                let before = days.iter().filter(|d| date(**d) < from).count() as f64;
                (before - fair).abs()
            }
            None => 0.0,
        };
        let mut spread = 0.0f64;
        for c in 0..season {
            let played = days.iter().filter(|d| **d <= c).count() as f64;
            let elapsed = f64::from(c + 1) / f64::from(season);
            spread = spread.max((played / n as f64 - elapsed).abs());
        }
        let cost = w.long_rest * waits + w.short_rest * short + w.avoid * avoid + w.winter * winter;
        (cost, spread)
    }

    /// Every way to choose `n` of `days` at least `gap` apart.
    fn seasons(
        days: &[i32],
        n: usize,
        gap: i32,
        from: usize,
        now: &mut Vec<i32>,
        out: &mut Vec<Vec<i32>>,
    ) {
        if now.len() == n {
            out.push(now.clone());
            return;
        }
        for i in from..days.len() {
            if now.last().is_none_or(|l| days[i] - l >= gap) {
                now.push(days[i]);
                seasons(days, n, gap, i + 1, now, out);
                now.pop();
            }
        }
    }

    #[test]
    fn least_costs_agree_with_every_season_counted_by_hand() {
        let league = parse_league(&bound_test(), "bound.toml").unwrap();
        let cand = candidates(&league, &Rerun::default());
        let w = league.weights;
        let least = least(&league, &cand, &w).unwrap();
        for (t, got) in least.iter().enumerate() {
            let n = cand.fixtures_of[t].len();
            let days = candidate_days(&league, &cand, t);
            let mut all = Vec::new();
            seasons(&days, n, 3, 0, &mut Vec::new(), &mut all);
            assert!(all.len() > 100, "{} seasons", all.len());
            let (mut cost, mut spread) = (f64::INFINITY, f64::INFINITY);
            for s in &all {
                let (c, z) = oracle(&league, &w, t, n, s);
                cost = cost.min(c);
                spread = spread.min(z);
            }
            let got = got.unwrap();
            // Short rests of non-consecutive matches cannot occur here (6 < 2 * 3): equal.
            assert!(
                (got.cost - cost).abs() < 1e-9,
                "team {t}: {} vs {cost}",
                got.cost
            );
            assert!(
                (got.spread - spread).abs() < 1e-9,
                "team {t}: {} vs {spread}",
                got.spread
            );
            assert!(
                cost > 0.0 && spread > 0.0,
                "the test league makes both bite"
            );
        }
    }

    /// With breaks priced, each team's programme plays each match on a side: against every
    /// season and every choice of sides counted by hand, where a day's side is the club's own
    /// (in the test league a team hosts on its club's nights and plays away on the others'),
    /// the least agrees, and it rises above the least without breaks for every team (each
    /// has fewer home nights than away ones in some stretch of the season).
    #[test]
    fn breaks_priced_by_side_agree_with_every_season_counted_by_hand() {
        use chrono::Datelike;
        let league = parse_league(&bound_test(), "bound.toml").unwrap();
        let cand = candidates(&league, &Rerun::default());
        let w = league.weights;
        let season = Season::new(&league);
        let nights = [vec![0u32, 3], vec![1], vec![2]]; // Mon and Thu; Tue; Wed
        for (t, nights) in nights.iter().enumerate() {
            let n = cand.fixtures_of[t].len();
            let days = candidate_days(&league, &cand, t);
            let home = |d: i32| {
                let date = league.start + chrono::Days::new(d as u64);
                nights.contains(&date.weekday().num_days_from_monday())
            };
            let mut all = Vec::new();
            seasons(&days, n, 3, 0, &mut Vec::new(), &mut all);
            let mut least = f64::INFINITY;
            for s in &all {
                let sides: Vec<bool> = s.iter().map(|&d| home(d)).collect();
                let breaks = sides.windows(2).filter(|p| p[0] == p[1]).count() as f64;
                least = least.min(oracle(&league, &w, t, n, s).0 + w.breaks * breaks);
            }
            let dp = Dp::new(&league, &cand, &w, &season, t, true).unwrap();
            let zero = vec![0.0; 2 * dp.days.len()];
            let (got, _) = dp.cheapest(&zero, f64::INFINITY).unwrap();
            assert!((got - least).abs() < 1e-9, "team {t}: {got} vs {least}");
            let plain = team_least(&league, &cand, &w, &season, t).unwrap().cost;
            assert!(
                got > plain + 1e-9,
                "team {t}: breaks add nothing to {plain}"
            );
        }
    }

    /// A league of the repository (`path` from its top) and its candidates.
    pub(crate) fn instance(path: &str) -> (League, Candidates) {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
        let league = crate::model::read_league(&file).unwrap();
        let cand = candidates(&league, &Rerun::default());
        (league, cand)
    }

    /// The three-team league, its candidates and its optimum, proven by `solve` at `--gap 0`.
    fn three_solved() -> (League, Candidates, f64) {
        let league = parse_league(&three(), "three.toml").unwrap();
        let cand = candidates(&league, &Rerun::default());
        let opts = crate::solve::Options {
            time_limit: 60.0,
            gap: 0.0,
            threads: 1,
            ..Default::default()
        };
        let solved = crate::solve::solve(&league, &opts).unwrap();
        let optimum = solved.objective.unwrap();
        assert!(solved.bound.unwrap() >= optimum - 1e-6, "proven optimal");
        (league, cand, optimum)
    }

    /// The venues' rows: with the hall holding one match a night, at most one of the three
    /// teams hosts on a Thursday. The rows are there, and the bound with them stays under the
    /// least of every valid schedule (each checked and priced by the independent checker),
    /// as in the two-club league of `same_club`, whose halls hold one match each.
    #[test]
    fn venue_rows_keep_the_bound_under_every_schedule() {
        let far = std::time::Instant::now() + std::time::Duration::from_secs(60);
        for (toml, from, to) in [
            (three(), "capacity = 3", "capacity = 1"),
            (same_club(), "", ""),
        ] {
            let league = parse_league(&toml.replacen(from, to, 1), "venues.toml").unwrap();
            let cand = candidates(&league, &Rerun::default());
            let w = league.weights;
            let season = Season::new(&league);
            let dps: Vec<Dp> = (0..3)
                .map(|t| Dp::new(&league, &cand, &w, &season, t, true).unwrap())
                .collect();
            let rows = Rows::new(&league, &cand, &[0, 1, 2], &dps, true);
            let venue_rows = rows.home.iter().flatten().flatten().count();
            assert!(venue_rows > 0, "no venue rows");
            let all = every_valid_schedule(&league, &cand);
            let least = all.iter().map(|s| s.1).fold(f64::INFINITY, f64::min);
            assert!(all.len() > 10, "{} valid schedules", all.len());
            for venues in [false, true] {
                let b = coupled(&league, &cand, &w, least, far, venues).unwrap();
                assert!(
                    b <= least + 1e-6,
                    "{b} over the least {least} (venues {venues})"
                );
            }
        }
    }

    /// The coupled bound (shared days priced in): never under the plain sum, well over it where
    /// a group has an odd number of teams (the darts league: five teams, one night), and never
    /// over a proven optimum or any solved schedule.
    #[test]
    fn coupled_bound_rises_but_stays_under_the_optimum() {
        let far = std::time::Instant::now() + std::time::Duration::from_secs(60);
        // Three teams on one night (an odd group: two play on any day, all three would like
        // the same two dates): the bound against HiGHS's proven optimum.
        let (league, cand, optimum) = three_solved();
        let w = league.weights;
        let (own, worst) = bound(&league, &cand, &w).unwrap();
        let plain = own + w.spread_max * worst;
        // Its rows: one per Thursday, two of the three teams at most.
        let season = Season::new(&league);
        let dps: Vec<Dp> = (0..3)
            .map(|t| Dp::new(&league, &cand, &w, &season, t, true).unwrap())
            .collect();
        let rows = Rows::new(&league, &cand, &[0, 1, 2], &dps, true);
        assert_eq!(rows.cap, vec![2.0; dps[0].days.len()]);
        assert_eq!(
            dps[0].days.len(),
            12,
            "Thursdays from 1 October to 17 December"
        );
        let coupled = coupled_bound(&league, &cand, &w, optimum, far).unwrap();
        assert!(
            coupled <= optimum + 1e-6,
            "{coupled} over the optimum {optimum}"
        );
        assert!(coupled > plain + 20.0, "{coupled} barely over {plain}");

        let (league, cand) = instance("instances/examples/darts-weekly.toml");
        let w = league.weights;
        let (own, worst) = bound(&league, &cand, &w).unwrap();
        let plain = own + w.spread_max * worst;
        for seed in 0..2 {
            let opts = crate::solve::Options {
                time_limit: 2.0,
                seed,
                threads: 1,
                ..Default::default()
            };
            let objective = crate::solve::solve(&league, &opts)
                .unwrap()
                .objective
                .unwrap();
            let coupled = coupled_bound(&league, &cand, &w, objective, far).unwrap();
            assert!(coupled <= objective + 1e-6, "{coupled} over {objective}");
            assert!(coupled > plain + 20.0, "{coupled} barely over {plain}");
            // Its hall holds two matches a night: the venues' rows raise the bound. By how much
            // depends on where the ranges stop, that is on the objective the 2 s solve reached,
            // which depends on the machine's speed: 0.24 for one seed on a slower machine, more
            // than 0.3 on a faster one. Without the venues' rows the two are equal.
            let days = super::coupled(&league, &cand, &w, objective, far, false).unwrap();
            assert!(
                coupled > days + 0.1,
                "{coupled} with the venues, {days} without"
            );
        }
    }

    /// Every valid schedule of a three-fixture league (each fixture on each of its slots, every
    /// combination, through CSV as `fixtures check` reads a list): its slots and the
    /// checker's objective.
    pub(crate) fn every_valid_schedule(
        league: &League,
        cand: &Candidates,
    ) -> Vec<([usize; 3], f64)> {
        assert_eq!(cand.fixtures.len(), 3);
        let mut valid = Vec::new();
        for &a in &cand.by_fixture[0] {
            for &b in &cand.by_fixture[1] {
                for &c in &cand.by_fixture[2] {
                    let matches = [a, b, c]
                        .iter()
                        .map(|&s| crate::model::Match {
                            date: cand.slots[s].date,
                            division: 0,
                            home: cand.slots[s].home,
                            away: cand.slots[s].away,
                        })
                        .collect();
                    let csv = crate::model::FixtureList::new(matches, league).to_csv(league);
                    let list = crate::check::parse_fixtures(league, csv.as_bytes(), "all.csv");
                    let report = crate::check::check(league, &list.unwrap());
                    if report.is_valid() {
                        valid.push(([a, b, c], report.quality.objective));
                    }
                }
            }
        }
        valid
    }

    /// The whole model (with its least-cost and odd-day rows) against every schedule of the
    /// three-team league, each checked and priced by the independent checker: HiGHS's proven
    /// optimum is the least of them, so no row cuts off a valid schedule.
    #[test]
    fn proven_optimum_is_the_least_of_every_schedule() {
        let (league, cand, optimum) = three_solved();
        let all = every_valid_schedule(&league, &cand);
        let (least, valid) = (
            all.iter().map(|s| s.1).fold(f64::INFINITY, f64::min),
            all.len(),
        );
        assert!(valid > 1000, "{valid} valid schedules");
        assert!(
            (least - optimum).abs() < 1e-6 * least,
            "enumerated {least}, HiGHS {optimum}"
        );
    }

    /// The bound never exceeds the objective of schedules the solver finds, and the model's
    /// rows of least costs leave those schedules feasible (else HiGHS would report a bound
    /// above its own warm start, an error).
    #[test]
    fn bound_lies_under_solved_schedules() {
        let (league, cand) = instance("instances/sussex-rapid-2026-7.toml");
        let (own, worst) = bound(&league, &cand, &league.weights).unwrap();
        let b = own + league.weights.spread_max * worst;
        for seed in 0..3 {
            let opts = crate::solve::Options {
                time_limit: 2.0,
                seed,
                threads: 1,
                ..Default::default()
            };
            let solved = crate::solve::solve(&league, &opts).unwrap();
            let objective = solved.objective.unwrap();
            assert!(
                b <= objective + 1e-6,
                "bound {b} above objective {objective}"
            );
            assert!(
                solved.bound.unwrap() >= b - 1e-6,
                "the reported bound uses it"
            );
        }
    }

    /// Two teams of one club and a third, `same_club_first`: Hall A is closed until 22
    /// October, so A1 v A2, which must come first for both, cannot be early, while their
    /// matches away at B could. Waits over 14 days cost.
    fn same_club() -> String {
        Lg::named("Same club first", "2026-10-01", "2026-11-12")
            .rule("min_days_between = 3")
            .rule("same_club_first = true")
            .weight("long_rest_days = 14")
            .venue(
                "Hall A",
                "capacity = 1\nclosed = [{ from = 2026-10-01, to = 2026-10-21 }]",
            )
            .venue("Hall B", "capacity = 1")
            .club_at("A", "Hall A", r#"["Thu"]"#, "")
            .club_at("B", "Hall B", r#"["Tue"]"#, "")
            .division("D", "single")
            .team("A1", "A", "D", "")
            .team("A2", "A", "D", "")
            .team("B1", "B", "D", "")
            .toml()
    }

    /// Under `same_club_first` each team's least costs count only seasons with its own club's
    /// matches first: never above what a valid schedule gives the team (every schedule
    /// enumerated and checked by the independent checker), above the costs without the rule
    /// where it binds, and the coupled bound stays under the least checked objective.
    #[test]
    fn same_club_first_raises_the_least_costs_but_no_higher_than_valid_schedules() {
        let league = parse_league(&same_club(), "same-club.toml").unwrap();
        let cand = candidates(&league, &Rerun::default());
        let w = league.weights;
        let with = least(&league, &cand, &w).unwrap();
        let mut free = league.clone();
        free.rules.same_club_first = false;
        let without = least(&free, &candidates(&free, &Rerun::default()), &w).unwrap();
        let all = every_valid_schedule(&league, &cand);
        let (best, valid) = (
            all.iter().map(|s| s.1).fold(f64::INFINITY, f64::min),
            all.len(),
        );
        let mut team_best = [f64::INFINITY; 3];
        for (slots, _) in &all {
            for (t, tb) in team_best.iter_mut().enumerate() {
                let mut days: Vec<i32> = slots
                    .iter()
                    .map(|&s| &cand.slots[s])
                    .filter(|s| s.home == t || s.away == t)
                    .map(|s| (s.date - league.start).num_days() as i32)
                    .collect();
                days.sort_unstable();
                *tb = tb.min(oracle(&league, &w, t, days.len(), &days).0);
            }
        }
        assert!(valid > 10, "{valid} valid schedules");
        for t in 0..3 {
            let got = with[t].unwrap().cost;
            assert!(
                got <= team_best[t] + 1e-9,
                "team {t}: least {got} above a valid schedule's {}",
                team_best[t]
            );
        }
        // A1 and A2 open against each other, from 22 October: their least waits rise.
        for t in 0..2 {
            let (got, before) = (with[t].unwrap().cost, without[t].unwrap().cost);
            assert!(got > before + 1.0, "team {t}: {got} not above {before}");
        }
        assert_eq!(with[2], without[2], "B1 has no clubmate");
        let far = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let coupled = coupled_bound(&league, &cand, &w, best, far).unwrap();
        assert!(coupled <= best + 1e-6, "{coupled} over the least {best}");
    }
}
