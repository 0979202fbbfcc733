//! The soft goals over valid schedules: breaks, long waits and spread.
//!
//! Per team, the model follows its candidate dates d_1 < ... < d_m, with P_i (it plays on d_i)
//! and H_i (it plays at home on d_i) as sums of slot variables, and adds continuous state:
//! - L_i: the side (1 home, 0 away) of its latest match up to d_i;
//! - F_i: whether it has played before d_i;
//! - b_i >= 0: a break at d_i (this match on the same side as the one before);
//! - C_i: matches played up to d_i, for the spread.
//!
//! All of them are exact at integer x, so the objective counts breaks exactly.

use super::{Candidates, Mip};
use crate::model::{League, Weights};
use chrono::NaiveDate;
use good_lp::{variable, Expression, Variable};
use std::collections::BTreeMap;

/// One team's dates with the expressions "plays" and "plays at home" on each.
pub struct TeamDates {
    pub dates: Vec<NaiveDate>,
    pub plays: Vec<Expression>,
    pub home: Vec<Expression>,
}

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

pub fn add_quality(
    league: &League,
    cand: &Candidates,
    mip: &mut Mip,
    w: &Weights,
    teams: Option<&[bool]>,
) {
    if w.breaks == 0.0 && w.long_rest == 0.0 && w.spread == 0.0 && w.spread_max == 0.0 {
        return;
    }
    let worst = if w.spread_max > 0.0 {
        let z = cont(mip, 1.0);
        mip.objective += w.spread_max * z;
        Some(z)
    } else {
        None
    };
    for t in 0..league.teams.len() {
        if teams.is_some_and(|only| !only[t]) {
            continue;
        }
        let td = team_dates(cand, mip, t);
        if td.dates.is_empty() {
            continue;
        }
        if w.breaks > 0.0 {
            breaks(mip, &td, w.breaks);
        }
        if w.long_rest > 0.0 {
            long_rest(league, mip, &td, t, w);
        }
        if w.spread > 0.0 || worst.is_some() {
            spread(league, cand, mip, &td, t, w.spread, worst);
        }
    }
}

/// Exact break count of one team (see the module's comment).
pub fn breaks(mip: &mut Mip, td: &TeamDates, weight: f64) {
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
            prev_f = Some(f);
        } else {
            // Nothing can have been played before the first candidate date.
            prev_f = Some(cont(mip, 0.0));
        }
        prev_l = Some(l);
    }
}

/// Every `long_rest_days` consecutive days (from the team's start, within the season) hold a
/// match of the team, or pay. Windows start at the team's start and the day after each of its
/// candidate dates: those are the only windows not implied by another.
pub fn long_rest(league: &League, mip: &mut Mip, td: &TeamDates, team: usize, w: &Weights) {
    let g = w.long_rest_days as i64;
    let first = league.teams[team].start.max(league.start);
    let mut starts = vec![first];
    starts.extend(td.dates.iter().map(|d| *d + chrono::Days::new(1)));
    starts.retain(|s| *s >= first);
    starts.dedup();
    for s in starts {
        let last = s + chrono::Days::new(g as u64 - 1);
        if last > league.end {
            continue;
        }
        let mut e = Expression::default();
        let mut any = false;
        for (i, d) in td.dates.iter().enumerate() {
            if *d >= s && *d <= last {
                e += td.plays[i].clone();
                any = true;
            }
        }
        let slack = cont(mip, 1.0);
        mip.objective += w.long_rest * slack;
        if any {
            mip.constraints.push((e + slack).geq(1));
        } else {
            // No date at all in the window: the wait is forced, pay it as a constant.
            mip.constraints.push(Expression::from(slack).geq(1));
        }
    }
}

/// Per week, the share of the team's matches played tracks the share of the season elapsed.
#[allow(clippy::too_many_arguments)]
pub fn spread(
    league: &League,
    cand: &Candidates,
    mip: &mut Mip,
    td: &TeamDates,
    team: usize,
    weight: f64,
    worst: Option<Variable>,
) {
    let n = cand.fixtures_of[team].len() as f64;
    if n == 0.0 {
        return;
    }
    let season = ((league.end - league.start).num_days() + 1) as f64;
    // Cumulative matches C_i = C_{i-1} + P_i.
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
    let z = cont(mip, 1.0);
    if weight > 0.0 {
        mip.objective += weight * z;
    }
    if let Some(worst) = worst {
        mip.constraints.push((worst - z).geq(0));
    }
    // Checkpoints: every Sunday of the season, and its last day.
    let mut checks: Vec<NaiveDate> = league
        .season_dates()
        .filter(|d| chrono::Datelike::weekday(d) == chrono::Weekday::Sun)
        .collect();
    checks.push(league.end);
    for c in checks {
        let elapsed = ((c - league.start).num_days() + 1) as f64 / season;
        let played: Expression = match td.dates.iter().rposition(|d| *d <= c) {
            Some(i) => cum[i].into(),
            None => Expression::default(),
        };
        // z >= |C/n - elapsed|
        mip.constraints
            .push((z - played.clone() * (1.0 / n)).geq(-elapsed));
        mip.constraints.push((z + played * (1.0 / n)).geq(elapsed));
    }
}
