//! The soft goals over valid schedules: breaks, long waits and spread.
//!
//! Per team, the model follows its candidate dates d_1 < ... < d_m, with P_i (it plays on d_i)
//! and H_i (it plays at home on d_i) as sums of slot variables, and adds continuous state:
//! - breaks: in the whole model a unit flow through the team's season (`breaks`), in state
//!   "not yet played", "last at home" or "last away" on each date, paying a break on entering a
//!   match on the side of the last; in a fix-and-optimise move the smaller state variables of
//!   `breaks_by_state`;
//! - C_i: matches played up to d_i, for long waits, the winter share and the spread.
//!
//! All of them are exact at integer x, so the objective counts breaks exactly.

use super::team_bound::{self, TeamLeast};
use super::{Candidates, Focus, Mip};
use crate::model::{League, Weights};
use chrono::NaiveDate;
use good_lp::{variable, Expression, Variable};
use std::collections::BTreeMap;

/// One team's dates with the expressions "plays" and "plays at home" on each.
pub struct TeamDates {
    /// The dates the team can play on, in order.
    pub dates: Vec<NaiveDate>,
    /// Per date: 1 when the team plays.
    pub plays: Vec<Expression>,
    /// Per date: 1 when the team plays at home.
    pub home: Vec<Expression>,
}

/// A team's candidate dates with its "plays" and "plays at home" expressions.
pub fn team_dates(cand: &Candidates, mip: &Mip, team: usize) -> TeamDates {
    let mut by_date: BTreeMap<NaiveDate, (Expression, Expression)> = BTreeMap::new();
    for &s in &cand.by_team[team] {
        let slot = &cand.slots[s];
        let e = by_date.entry(slot.date).or_default();
        e.0 += mip.x[s];
        if slot.home == team {
            e.1 += mip.x[s];
        }
    }
    let mut td = TeamDates {
        dates: Vec::new(),
        plays: Vec::new(),
        home: Vec::new(),
    };
    for (d, (p, h)) in by_date {
        td.dates.push(d);
        td.plays.push(p);
        td.home.push(h);
    }
    td
}

fn cont(mip: &mut Mip, max: f64) -> Variable {
    mip.vars.add(variable().min(0.0).max(max))
}

/// Adds the quality terms of the weights (breaks, long and short rests, spread, winter share) to the model, for the teams of `focus` (all when `None`).
pub fn add_quality(
    league: &League,
    cand: &Candidates,
    mip: &mut Mip,
    w: &Weights,
    focus: Option<Focus>,
) {
    if w.breaks == 0.0
        && w.long_rest == 0.0
        && w.short_rest == 0.0
        && w.spread == 0.0
        && w.spread_max == 0.0
        && w.winter == 0.0
    {
        return;
    }
    let worst = if w.spread_max > 0.0 {
        let floor = focus.map_or(0.0, |f| f.spread_floor.clamp(0.0, 1.0));
        let z = mip.vars.add(variable().min(floor).max(1.0));
        mip.objective += w.spread_max * z;
        Some(z)
    } else {
        None
    };
    let mut division_breaks: Vec<Expression> = vec![Expression::default(); league.divisions.len()];
    // The rows of the teams' least costs (`team_bound`), only in the whole league's model,
    // which gives the bound: in a fix-and-optimise move they slow the search for schedules.
    let season = focus.is_none().then(|| team_bound::Season::new(league));
    for t in 0..league.teams.len() {
        if focus.is_some_and(|f| !f.teams[t]) {
            continue;
        }
        team_quality(
            league,
            cand,
            mip,
            w,
            t,
            season.as_ref(),
            worst,
            &mut division_breaks,
        );
    }
    // Rows of the whole model only, like the least costs: they tighten the bound.
    if season.is_some() {
        odd_day_cuts(league, cand, mip);
    }
    if w.breaks > 0.0 {
        compact_break_cuts(league, mip, focus, division_breaks);
    }
}

/// Team `t`'s quality terms: its breaks (into its division's count), rests, winter share and
/// spread, and, in the whole league's model (`season`), the row of its least cost.
#[allow(clippy::too_many_arguments)]
fn team_quality(
    league: &League,
    cand: &Candidates,
    mip: &mut Mip,
    w: &Weights,
    t: usize,
    season: Option<&team_bound::Season>,
    worst: Option<Variable>,
    division_breaks: &mut [Expression],
) {
    let td = team_dates(cand, mip, t);
    if td.dates.is_empty() {
        return;
    }
    if w.breaks > 0.0 {
        let gap = league.rules.min_days_between.max(1) as i64;
        division_breaks[league.teams[t].division] += match season {
            Some(_) => breaks(mip, &td, gap, w.breaks),
            None => breaks_by_state(mip, &td, w.breaks),
        };
    }
    // The team's own cost terms, into the objective and, for its row, into `own`.
    let mut own = match season {
        Some(_) => avoid_cost(league, cand, mip, t, w.avoid),
        None => Expression::default(),
    };
    let mut take = |mip: &mut Mip, part: Expression| {
        if season.is_some() {
            own += part.clone();
        }
        mip.objective += part;
    };
    if w.short_rest > 0.0 {
        let part = short_rest(mip, &td, w);
        take(mip, part);
    }
    let n = cand.fixtures_of[t].len() as f64;
    let mut z = None;
    if w.long_rest > 0.0 || w.spread > 0.0 || worst.is_some() || w.winter > 0.0 {
        let cum = cumulative(mip, &td, n);
        if w.winter > 0.0 {
            let part = winter(league, mip, &td, &cum, t, n, w.winter);
            take(mip, part);
        }
        if w.long_rest > 0.0 {
            let part = long_rest(league, mip, &td, &cum, t, w);
            take(mip, part);
        }
        if w.spread > 0.0 || worst.is_some() {
            z = Some(spread(league, mip, &td, &cum, n, w.spread, worst));
        }
    }
    // Whole numbers of matches force waits and uneven spreads the LP relaxation does not
    // see: the team's least cost over every season it could have is a valid row.
    if let Some(least) =
        season.and_then(|season| team_bound::team_least(league, cand, w, season, t))
    {
        least_rows(mip, own, z, worst, least);
    }
}

/// Teams play in pairs: on a day when an odd number of a group's teams could play, one of
/// them does not. The LP relaxation, playing every team a fraction, does not see it, and on
/// small leagues these cuts raise the bound markedly.
fn odd_day_cuts(league: &League, cand: &Candidates, mip: &mut Mip) {
    let group = team_bound::groups(league, cand);
    let mut plays: BTreeMap<(usize, NaiveDate), (Expression, usize)> = BTreeMap::new();
    for (t, &g) in group.iter().enumerate() {
        let td = team_dates(cand, mip, t);
        for (d, p) in td.dates.iter().zip(td.plays) {
            let e = plays.entry((g, *d)).or_default();
            e.0 += p;
            e.1 += 1;
        }
    }
    for (sum, able) in plays.into_values() {
        if able % 2 == 1 {
            mip.constraints.push(sum.leq((able - 1) as f64));
        }
    }
}

/// A compact single round robin of an even number n of teams, one round a date, has at least
/// n - 2 breaks (de Werra 1981: a team without a break alternates HAHA... or AHAH..., and two
/// teams with one pattern never meet, so at most two teams have none). The cut gives HiGHS the
/// proof of optimality it could not find from the LP alone.
fn compact_break_cuts(
    league: &League,
    mip: &mut Mip,
    focus: Option<Focus>,
    division_breaks: Vec<Expression>,
) {
    for (d, sum) in division_breaks.into_iter().enumerate() {
        let div = &league.divisions[d];
        let n = div.teams.len();
        let compact = div.format == crate::model::Format::Single
            && n.is_multiple_of(2)
            && n >= 4
            && div.rounds.as_ref().is_some_and(|r| r.len() == n - 1);
        let all_in = focus.is_none_or(|f| div.teams.iter().all(|&t| f.teams[t]));
        if compact && all_in {
            mip.constraints.push(sum.geq((n - 2) as f64));
        }
    }
}

/// Exact break count of one team (see the module's comment), as a unit flow through the
/// team's season: on each candidate date the flow is in one of three states, "not yet played"
/// or "last played at home / away"; it enters the date's home or away match (whatever the team
/// plays there), paying a break when the match is on the same side as the last, or waits for
/// the next date. After a match it resumes at the first date `gap` days on. At a whole
/// schedule the flow is the team's season; in the LP relaxation it is a mixture of seasons,
/// each priced in full, where a fractional "side of the last match" would see no break at all
/// (the five-team darts league's bound, the four-team league's proof). Returns the sum of
/// its break arcs; each costs `weight` in the objective.
pub fn breaks(mip: &mut Mip, td: &TeamDates, gap: i64, weight: f64) -> Expression {
    let m = td.dates.len();
    let mut total = Expression::default();
    // Flow arriving at each date in each state (0 not yet played, 1 home last, 2 away last).
    let mut arriving: Vec<[Expression; 3]> = vec![Default::default(); m + 1];
    arriving[0][0] = Expression::from(1.0);
    for i in 0..m {
        let away = td.plays[i].clone() - td.home[i].clone();
        let sides = [td.home[i].clone(), away];
        // Into the home (k = 0) and away (k = 1) match of date i, from each state.
        let mut into = [Expression::default(), Expression::default()];
        let state = std::mem::take(&mut arriving[i]);
        for (from, inflow) in state.into_iter().enumerate() {
            let wait = cont(mip, 1.0);
            let mut out = Expression::from(wait);
            for (k, into_k) in into.iter_mut().enumerate() {
                let arc = cont(mip, 1.0);
                out += arc;
                *into_k += arc;
                if from == k + 1 {
                    total += arc;
                    mip.objective += weight * arc;
                }
            }
            mip.constraints.push((out - inflow).eq(0));
            arriving[i + 1][from] += wait;
        }
        // A match on date i resumes at the first date `gap` days on.
        let next = td.dates[i..]
            .iter()
            .position(|d| (*d - td.dates[i]).num_days() >= gap)
            .map_or(m, |k| i + k);
        for (k, (into_k, plays)) in into.into_iter().zip(sides).enumerate() {
            mip.constraints.push((into_k - plays.clone()).eq(0));
            arriving[next][k + 1] += plays;
        }
    }
    total
}

/// Exact break count of one team by state variables: L_i, the side (1 home) of its latest
/// match up to d_i; F_i, whether it has played before d_i; b_i >= 0, a break at d_i. Fewer
/// columns than the flow (`breaks`, three times as many) but a weaker LP: the fix-and-optimise
/// moves, which want small models and find schedules rather than bounds, use it (the flow in
/// every move found no better schedules). Returns the sum of its break variables.
pub fn breaks_by_state(mip: &mut Mip, td: &TeamDates, weight: f64) -> Expression {
    let mut total = Expression::default();
    let m = td.dates.len();
    let mut prev_l: Option<Variable> = None;
    let mut prev_f: Option<Variable> = None;
    for i in 0..m {
        let (p, h) = (&td.plays[i], &td.home[i]);
        let l = cont(mip, 1.0);
        // L_i >= H_i; L_i <= 1 - A_i = 1 - P_i + H_i.
        mip.constraints.push((l - h.clone()).geq(0));
        mip.constraints.push((l + p.clone() - h.clone()).leq(1));
        if let (Some(pl), Some(pf)) = (prev_l, prev_f) {
            // No match on d_i: the side carries over.
            mip.constraints.push((l - pl - p.clone()).leq(0));
            mip.constraints.push((pl - l - p.clone()).leq(0));
            // F_i >= F_{i-1}, F_i >= P_{i-1}.
            let f = cont(mip, 1.0);
            mip.constraints.push((f - pf).geq(0));
            mip.constraints.push((f - td.plays[i - 1].clone()).geq(0));
            let b = cont(mip, 1.0);
            // Home after home: b >= H_i + L_{i-1} + F_i - 2.
            mip.constraints.push((b - h.clone() - pl - f).geq(-2));
            // Away after away: b >= A_i - L_{i-1} + F_i - 1.
            mip.constraints
                .push((b - p.clone() + h.clone() + pl - f).geq(-1));
            mip.objective += weight * b;
            total += b;
            prev_f = Some(f);
        } else {
            // Nothing can have been played before the first candidate date.
            prev_f = Some(cont(mip, 0.0));
        }
        prev_l = Some(l);
    }
    total
}

/// The team's avoid-date terms of the objective (added to it by `rules::avoid_dates`).
fn avoid_cost(league: &League, cand: &Candidates, mip: &Mip, t: usize, weight: f64) -> Expression {
    let mut e = Expression::default();
    if weight == 0.0 || league.teams[t].avoid.is_empty() {
        return e;
    }
    for &s in &cand.by_team[t] {
        if league.teams[t].avoid.contains(&cand.slots[s].date) {
            e += weight * mip.x[s];
        }
    }
    e
}

/// The rows of a team's least costs (`team_bound`): its own cost terms at least their least,
/// its spread and the worst spread at least its least spread.
fn least_rows(
    mip: &mut Mip,
    own: Expression,
    z: Option<Variable>,
    worst: Option<Variable>,
    least: TeamLeast,
) {
    if least.cost > 1e-9 {
        mip.constraints.push(own.geq(least.cost));
    }
    if least.spread > 1e-9 {
        for v in z.into_iter().chain(worst) {
            mip.constraints
                .push((Expression::from(v)).geq(least.spread));
        }
    }
}

/// Every pair of candidate dates fewer than `short_rest_days` apart: playing on both costs
/// `short_rest` per day short. Returns the objective's terms (the caller adds them).
pub fn short_rest(mip: &mut Mip, td: &TeamDates, w: &Weights) -> Expression {
    let target = i64::from(w.short_rest_days);
    let mut cost = Expression::default();
    for i in 0..td.dates.len() {
        for j in i + 1..td.dates.len() {
            let gap = (td.dates[j] - td.dates[i]).num_days();
            if gap >= target {
                break;
            }
            let both = cont(mip, 1.0);
            mip.constraints
                .push((both - td.plays[i].clone() - td.plays[j].clone()).geq(-1));
            cost += w.short_rest * (target - gap) as f64 * both;
        }
    }
    cost
}

/// C_i = matches of the team up to d_i (inclusive), as a chain C_i = C_{i-1} + P_i.
pub fn cumulative(mip: &mut Mip, td: &TeamDates, n: f64) -> Vec<Variable> {
    let mut cum: Vec<Variable> = Vec::with_capacity(td.dates.len());
    for i in 0..td.dates.len() {
        let c = cont(mip, n);
        let mut e = Expression::from(c) - td.plays[i].clone();
        if i > 0 {
            e -= cum[i - 1];
        }
        mip.constraints.push(e.eq(0));
        cum.push(c);
    }
    cum
}

/// The index of the team's last candidate date on or before `day`.
fn last_date_by(td: &TeamDates, day: NaiveDate) -> Option<usize> {
    td.dates.iter().rposition(|d| *d <= day)
}

/// Every day of the season (from the team's start) that begins `long_rest_days` days without
/// a match of the team pays `long_rest`: a gap of `long_rest_days + k` days costs k + 1 days.
/// Days whose windows hold the same candidate dates share one row, weighted by their count,
/// so the value does not depend on which dates are candidates, only on the schedule.
/// Returns the objective's terms (the caller adds them).
pub fn long_rest(
    league: &League,
    mip: &mut Mip,
    td: &TeamDates,
    cum: &[Variable],
    team: usize,
    w: &Weights,
) -> Expression {
    let g = w.long_rest_days as u64;
    let mut cost = Expression::default();
    let first = league.teams[team].start.max(league.start);
    // (index of the last date in the window, index of the last date before it) -> days
    let mut windows: BTreeMap<(Option<usize>, Option<usize>), f64> = BTreeMap::new();
    let mut s = first;
    while s + chrono::Days::new(g - 1) <= league.end {
        let last = last_date_by(td, s + chrono::Days::new(g - 1));
        let before = s.pred_opt().and_then(|p| last_date_by(td, p));
        *windows.entry((last, before)).or_default() += 1.0;
        s = s + chrono::Days::new(1);
    }
    for ((last, before), days) in windows {
        match (last, before) {
            (Some(l), b) if Some(l) != b => {
                let slack = cont(mip, 1.0);
                cost += w.long_rest * days * slack;
                let mut e = Expression::from(cum[l]) + slack;
                if let Some(b) = b {
                    e -= cum[b];
                }
                mip.constraints.push(e.geq(1));
            }
            _ => {
                // No candidate date in the window: the wait is forced, a constant.
                let slack = mip.vars.add(variable().min(1.0).max(1.0));
                cost += w.long_rest * days * slack;
            }
        }
    }
    cost
}

/// The team's fair share of matches before the winter break: its matches times the share of
/// its season (from its start) before the break.
pub fn winter_share(league: &League, team: usize, n: f64) -> Option<(NaiveDate, f64)> {
    let (from, after) = league.winter_break()?;
    let first = league.teams[team].start.max(league.start);
    let before = (from - first).num_days().max(0) as f64;
    let rest = ((league.end - after).num_days() + 1).max(0) as f64;
    if before + rest == 0.0 {
        return None;
    }
    Some((from, n * before / (before + rest)))
}

/// The team's matches before the winter break, against its fair share. Returns the
/// objective's term (the caller adds it).
pub fn winter(
    league: &League,
    mip: &mut Mip,
    td: &TeamDates,
    cum: &[Variable],
    team: usize,
    n: f64,
    weight: f64,
) -> Expression {
    let Some((from, fair)) = winter_share(league, team, n) else {
        return Expression::default();
    };
    let played: Expression = match from.pred_opt().and_then(|d| last_date_by(td, d)) {
        Some(i) => cum[i].into(),
        None => Expression::default(),
    };
    let dev = cont(mip, n.max(fair));
    mip.constraints.push((dev - played.clone()).geq(-fair));
    mip.constraints.push((dev + played.clone()).geq(fair));
    // The matches played are a whole number: dev lies above the chord of |k - fair| between
    // the whole numbers around fair.
    if let Some((k0, slope, at_k0)) = chord(fair, n) {
        mip.constraints
            .push((dev - played * slope).geq(at_k0 - slope * k0));
    }
    weight * dev
}

/// The team's spread, as `check` prints it: the largest difference, over every day of the
/// season, between the share of its matches played and the share of the season elapsed.
/// Between two of its candidate dates its count of matches stays the same, so the largest
/// lead lies on a candidate date (the matches up to it against the share elapsed by its end)
/// and the largest lag on the day before the next one (or the season's last day): one pair of
/// rows per candidate date, and one for the days before the first. Returns the team's spread
/// variable (its worst deviation).
#[allow(clippy::too_many_arguments)]
pub fn spread(
    league: &League,
    mip: &mut Mip,
    td: &TeamDates,
    cum: &[Variable],
    n: f64,
    weight: f64,
    worst: Option<Variable>,
) -> Variable {
    let z = cont(mip, 1.0);
    if n == 0.0 {
        return z;
    }
    if weight > 0.0 {
        mip.objective += weight * z;
    }
    if let Some(worst) = worst {
        mip.constraints.push((worst - z).geq(0));
    }
    let lag = spread_lags(league, &td.dates);
    // Before the first candidate date nothing is played.
    if let Some(&(_, before)) = lag.first() {
        mip.constraints.push(Expression::from(z).geq(before));
    }
    for (i, &c) in cum.iter().enumerate() {
        let (lead, behind) = (lag[i].0, lag[i + 1].1);
        // z >= C/n - lead, z >= behind - C/n
        mip.constraints.push((z - c * (1.0 / n)).geq(-lead));
        mip.constraints.push((z + c * (1.0 / n)).geq(behind));
        // C is a whole number of matches: z lies above the chord of max(k/n - lead, behind -
        // k/n) between the two whole numbers around its least, valid at every whole C (the
        // function is convex), which the LP relaxation would otherwise cut through.
        let f = |k: f64| f64::max(k / n - lead, behind - k / n);
        let k0 = (n * (lead + behind) / 2.0)
            .floor()
            .clamp(0.0, (n - 1.0).max(0.0));
        if n >= 1.0 && (n * (lead + behind) / 2.0 - k0).abs() > 1e-9 {
            let slope = f(k0 + 1.0) - f(k0);
            mip.constraints
                .push((z - c * slope).geq(f(k0) - slope * k0));
        }
    }
    z
}

/// For a team's candidate dates d_1 < ... < d_m: per date, (the share of the season elapsed by
/// the end of d_i, the share elapsed by the end of the day before d_i), and last (1, the share
/// elapsed by the season's last day, 1): the lead a team's count up to d_i is measured
/// against, and the lag its count before d_i is.
pub fn spread_lags(league: &League, dates: &[NaiveDate]) -> Vec<(f64, f64)> {
    let season = ((league.end - league.start).num_days() + 1).max(1) as f64;
    let share = |day: i64| (day as f64 / season).clamp(0.0, 1.0);
    dates
        .iter()
        .map(|d| {
            let day = (*d - league.start).num_days();
            (share(day + 1), share(day))
        })
        .chain(std::iter::once((1.0, 1.0)))
        .collect()
}

/// The chord of k -> |k - target| between the whole numbers k0 = floor(target) and k0 + 1
/// (k in 0..=max): (k0, slope, value at k0); `None` when `target` is whole (no gap to close).
fn chord(target: f64, max: f64) -> Option<(f64, f64, f64)> {
    let k0 = target.floor().clamp(0.0, (max - 1.0).max(0.0));
    let (at_k0, at_k1) = ((target - k0).abs(), (k0 + 1.0 - target).abs());
    if (target - target.round()).abs() < 1e-9 || max < 1.0 {
        return None;
    }
    Some((k0, at_k1 - at_k0, at_k0))
}
