//! One pass per rule. Each reads the league and the candidate slots and adds rows to the MIP.

use super::{Candidates, Mip, Slack};
use crate::model::League;
use chrono::{Datelike, NaiveDate};
use std::collections::BTreeMap;

/// Calendar week (Monday to Sunday) of a date, as a running number.
pub fn week_of(date: NaiveDate) -> i64 {
    // 0001-01-01 is a Monday and has num_days_from_ce() == 1.
    (date.num_days_from_ce() as i64 - 1).div_euclid(7)
}

/// Rule 5: every fixture is played exactly once.
pub fn fixture_once(_: &League, cand: &Candidates, mip: &mut Mip) {
    for slots in &cand.by_fixture {
        let e = mip.sum(slots.iter().copied());
        mip.constraints.push(e.eq(1));
    }
}

/// Slots of one team grouped by date, in date order.
fn team_dates(cand: &Candidates, team: usize) -> BTreeMap<NaiveDate, Vec<usize>> {
    let mut by_date: BTreeMap<NaiveDate, Vec<usize>> = BTreeMap::new();
    for &s in &cand.by_team[team] {
        by_date.entry(cand.slots[s].date).or_default().push(s);
    }
    by_date
}

/// Rule 6: a team plays at most once in any `min_days_between` consecutive days
/// (so two of its matches are at least that many days apart).
pub fn rest_days(league: &League, cand: &Candidates, mip: &mut Mip) {
    let gap = league.rules.min_days_between.max(1) as i64;
    for t in 0..league.teams.len() {
        let by_date = team_dates(cand, t);
        let dates: Vec<&NaiveDate> = by_date.keys().collect();
        for (i, d) in dates.iter().enumerate() {
            let window: Vec<usize> = dates[i..]
                .iter()
                .take_while(|e| (***e - **d).num_days() < gap)
                .flat_map(|e| by_date[*e].iter().copied())
                .collect();
            if window.len() > 1 {
                let e = mip.sum(window);
                let date = **d;
                mip.limit(e, 1.0, || Slack::Rest { team: t, date });
            }
        }
    }
}

/// Rule 6: home and away matches of a team differ by at most `home_away_balance`.
pub fn home_away_balance(league: &League, cand: &Candidates, mip: &mut Mip) {
    for t in 0..league.teams.len() {
        let n = cand.fixtures_of[t].len() as i64;
        let home: Vec<usize> = cand.by_team[t]
            .iter()
            .copied()
            .filter(|&s| cand.slots[s].home == t)
            .collect();
        let (lo, hi) = cand.home_range(league, t);
        if lo > 0 {
            let e = mip.sum(home.iter().copied());
            mip.at_least(e, lo as f64, || Slack::Balance { team: t });
        }
        if hi < n {
            let e = mip.sum(home.iter().copied());
            mip.limit(e, hi as f64, || Slack::Balance { team: t });
        }
    }
}

/// Rule 7: no venue hosts more than its capacity on a date.
pub fn venue_capacity(league: &League, cand: &Candidates, mip: &mut Mip) {
    let mut load: BTreeMap<(usize, NaiveDate), Vec<usize>> = BTreeMap::new();
    for (s, slot) in cand.slots.iter().enumerate() {
        let v = league.fixture_venue(slot.home, slot.away);
        load.entry((v, slot.date)).or_default().push(s);
    }
    for ((v, date), slots) in load {
        let cap = league.league_capacity(v, date) as usize;
        // Two slots of one fixture never both hold, so count fixtures, not slots.
        let mut fixtures: Vec<usize> = slots.iter().map(|&s| cand.slots[s].fixture).collect();
        fixtures.sort();
        fixtures.dedup();
        if fixtures.len() > cap {
            let e = mip.sum(slots);
            mip.limit(e, cap as f64, || Slack::Capacity { venue: v, date });
        }
    }
}

/// Rule 8 (`same_club_first`): a team's matches against teams of its own club in its division
/// come before all its other matches. For each internal fixture `i` of team `t` and each date
/// `d` with an external slot of `t`: playing externally on `d` forbids `i` on or after `d`.
pub fn same_club_first(league: &League, cand: &Candidates, mip: &mut Mip) {
    if !league.rules.same_club_first {
        return;
    }
    for t in 0..league.teams.len() {
        let (internal, external): (Vec<usize>, Vec<usize>) = cand.fixtures_of[t]
            .iter()
            .partition(|&&f| cand.is_internal(league, f));
        if internal.is_empty() || external.is_empty() {
            continue;
        }
        let mut ext_by_date: BTreeMap<NaiveDate, Vec<usize>> = BTreeMap::new();
        for &f in &external {
            for &s in &cand.by_fixture[f] {
                ext_by_date.entry(cand.slots[s].date).or_default().push(s);
            }
        }
        for &i in &internal {
            let last_internal = cand.by_fixture[i].iter().map(|&s| cand.slots[s].date).max();
            for (d, ext) in &ext_by_date {
                if last_internal.is_none_or(|l| l < *d) {
                    continue; // the internal match can only be earlier anyway
                }
                let mut e = mip.sum(ext.iter().copied());
                e += mip.sum(
                    cand.by_fixture[i]
                        .iter()
                        .copied()
                        .filter(|&s| cand.slots[s].date >= *d),
                );
                mip.limit(e, 1.0, || Slack::SameClubFirst { team: t });
            }
        }
    }
}

/// Rule 6 (`max_consecutive_weeks`): a team never plays in more than K consecutive
/// calendar weeks: in every K+1 consecutive weeks there is one without a match of it.
pub fn max_consecutive_weeks(league: &League, cand: &Candidates, mip: &mut Mip) {
    let Some(k) = league.rules.max_consecutive_weeks else {
        return;
    };
    let k = k as i64;
    let gap = league.rules.min_days_between.max(1) as i64;
    // With a gap of 7 days or more a team plays at most once a week, so the week's slots
    // sum to 0 or 1 and need no indicator.
    let per_week = (7 + gap - 1) / gap;
    for t in 0..league.teams.len() {
        let mut weeks: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
        for &s in &cand.by_team[t] {
            weeks
                .entry(week_of(cand.slots[s].date))
                .or_default()
                .push(s);
        }
        let mut played: BTreeMap<i64, good_lp::Expression> = BTreeMap::new();
        for (&w, slots) in &weeks {
            if per_week <= 1 {
                played.insert(w, mip.sum(slots.iter().copied()));
            } else {
                let p = mip.binary();
                let e = mip.sum(slots.iter().copied());
                mip.constraints.push(e.leq(per_week as f64 * p));
                played.insert(w, p.into());
            }
        }
        for &w in weeks.keys() {
            if (w..=w + k).all(|v| played.contains_key(&v)) {
                let mut e = good_lp::Expression::default();
                for v in w..=w + k {
                    e += played[&v].clone();
                }
                mip.limit(e, k as f64, || Slack::ConsecutiveWeeks { team: t });
            }
        }
    }
}

/// Rule 8 (`max_home_dates`): a club hosts on at most this many distinct dates.
pub fn max_home_dates(league: &League, cand: &Candidates, mip: &mut Mip) {
    for (c, club) in league.clubs.iter().enumerate() {
        let Some(max) = club.max_home_dates else {
            continue;
        };
        let mut by_date: BTreeMap<NaiveDate, Vec<usize>> = BTreeMap::new();
        for (s, slot) in cand.slots.iter().enumerate() {
            if league.teams[slot.home].club == c {
                by_date.entry(slot.date).or_default().push(s);
            }
        }
        if by_date.len() <= max as usize {
            continue;
        }
        let mut used = good_lp::Expression::default();
        for slots in by_date.values() {
            let h = mip.binary();
            let mut fixtures: Vec<usize> = slots.iter().map(|&s| cand.slots[s].fixture).collect();
            fixtures.sort();
            fixtures.dedup();
            let e = mip.sum(slots.iter().copied());
            mip.constraints.push(e.leq(fixtures.len() as f64 * h));
            used += h;
        }
        mip.limit(used, max as f64, || Slack::HomeDates { club: c });
    }
}

/// Alternative drafts: at most `max_same` fixtures on the date `earlier` gave them.
pub fn differ_from(cand: &Candidates, mip: &mut Mip, earlier: &[NaiveDate], max_same: usize) {
    let same: Vec<usize> = (0..cand.slots.len())
        .filter(|&s| earlier.get(cand.slots[s].fixture) == Some(&cand.slots[s].date))
        .collect();
    if same.len() > max_same {
        let e = mip.sum(same);
        mip.limit(e, max_same as f64, || Slack::SameAsEarlierDraft);
    }
}

/// Soft: fixtures on a date either team would rather avoid.
pub fn avoid_dates(league: &League, cand: &Candidates, mip: &mut Mip, weight: f64) {
    if weight == 0.0 {
        return;
    }
    for (s, slot) in cand.slots.iter().enumerate() {
        let hits = [slot.home, slot.away]
            .iter()
            .filter(|&&t| league.teams[t].avoid.contains(&slot.date))
            .count();
        if hits > 0 {
            mip.objective += (weight * hits as f64) * mip.x[s];
        }
    }
}
