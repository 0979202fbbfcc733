//! The league file's `[[constraint]]` tables, counted again from the list's league matches
//! (cup ties, play-offs and replays are not the league's). A hard constraint over its limit is
//! a violation; a soft one costs its weight per unit over, in the objective.

use crate::{Row, Violation};
use chrono::{Datelike, NaiveDate};
use fixtures_model::{on, Constraint, ConstraintKind, Count, Format, League, TeamId};
use std::collections::{BTreeMap, BTreeSet};

/// One place a constraint is over its limit: who, when, by how much, in words.
pub struct Breach {
    /// The team, pair or group concerned.
    pub who: String,
    /// The date concerned, if one.
    pub date: Option<NaiveDate>,
    /// Units over the limit (matches too many or too few, or one for a pair too close).
    pub over: u32,
    /// What is wrong.
    pub detail: String,
}

/// The rule a broken constraint of this kind is reported under.
pub fn rule(c: &Constraint) -> &'static str {
    match c.kind {
        ConstraintKind::Matches { .. } => "constraint matches",
        ConstraintKind::InARow { .. } => "constraint in_a_row",
        ConstraintKind::Between { .. } => "constraint between",
        ConstraintKind::Fixtures { .. } => "constraint fixtures",
        ConstraintKind::Apart { .. } => "constraint apart",
        ConstraintKind::Breaks { .. } => "constraint breaks",
        ConstraintKind::Level { .. } => "constraint level",
    }
}

/// The hard constraints' violations.
pub fn violations(league: &League, rows: &[Row]) -> Vec<Violation> {
    let mut out = Vec::new();
    for c in league.constraints.iter().filter(|c| c.weight.is_none()) {
        for b in breaches(league, c, rows) {
            out.push(Violation {
                rule: rule(c),
                fixture: format!("{}: {}", c.name, b.who),
                date: b.date,
                detail: b.detail,
            });
        }
    }
    out
}

/// Each soft constraint's units over its limit, in file order.
pub fn soft(league: &League, rows: &[Row]) -> Vec<(String, f64, u32)> {
    league
        .constraints
        .iter()
        .filter_map(|c| {
            let w = c.weight?;
            let over = breaches(league, c, rows).iter().map(|b| b.over).sum();
            Some((c.name.clone(), w, over))
        })
        .collect()
}

/// Calendar week (Monday to Sunday) of a date, as a running number.
fn week(d: NaiveDate) -> i64 {
    (i64::from(d.num_days_from_ce()) - 1).div_euclid(7)
}

/// Where a constraint is over its limit in `rows`.
pub fn breaches(league: &League, c: &Constraint, rows: &[Row]) -> Vec<Breach> {
    match &c.kind {
        ConstraintKind::Matches {
            teams,
            opponents,
            count,
            dates,
            max,
        } => teams
            .iter()
            .filter_map(|&t| matches(league, rows, t, opponents, *count, dates, *max))
            .collect(),
        ConstraintKind::InARow {
            teams,
            count,
            weeks,
            max,
        } => in_a_row(league, rows, teams, *count, *weeks, *max),
        ConstraintKind::Between {
            teams,
            opponents,
            dates,
            max,
            per_date,
        } => between(rows, (teams, opponents), dates, *max, *per_date),
        ConstraintKind::Fixtures {
            fixtures,
            dates,
            min,
            max,
        } => listed_fixtures(league, rows, fixtures, dates, (*min, *max)),
        ConstraintKind::Apart { teams, days } => apart(league, rows, teams, *days),
        ConstraintKind::Level { teams, dates, max } => level(rows, teams, dates, *max),
        ConstraintKind::Breaks {
            teams,
            max,
            per_team,
        } => breaks(league, rows, teams, *max, *per_team),
    }
}

/// CA1, CA2: team `t`'s matches counted against `opponents` on `dates`.
fn matches(
    league: &League,
    rows: &[Row],
    t: TeamId,
    opponents: &Option<Vec<TeamId>>,
    count: Count,
    dates: &Option<BTreeSet<NaiveDate>>,
    max: u32,
) -> Option<Breach> {
    let n = rows
        .iter()
        .filter(|r| r.home == t || r.away == t)
        .filter(|r| count.counts(r.home == t) && on(dates, r.date))
        .filter(|r| {
            let o = if r.home == t { r.away } else { r.home };
            opponents.as_ref().is_none_or(|os| os.contains(&o))
        })
        .count() as u32;
    (n > max).then(|| Breach {
        who: league.teams[t].name.clone(),
        date: None,
        over: n - max,
        detail: format!("{n} {}matches counted (at most {max})", count.word()),
    })
}

/// CA3: every run of `weeks` calendar weeks from the season's first week on (the last run
/// ends in its last week; a season shorter than `weeks` is one run).
fn in_a_row(
    league: &League,
    rows: &[Row],
    teams: &[TeamId],
    count: Count,
    weeks: u32,
    max: u32,
) -> Vec<Breach> {
    let (first, last) = (week(league.start), week(league.end));
    let k = i64::from(weeks);
    let mut out = Vec::new();
    for &t in teams {
        let played: Vec<i64> = rows
            .iter()
            .filter(|r| (r.home == t || r.away == t) && count.counts(r.home == t))
            .map(|r| week(r.date))
            .collect();
        for w in first..=(last - k + 1).max(first) {
            let n = played.iter().filter(|&&x| x >= w && x < w + k).count() as u32;
            if n > max {
                out.push(Breach {
                    who: league.teams[t].name.clone(),
                    date: NaiveDate::from_num_days_from_ce_opt((w * 7 + 1) as i32),
                    over: n - max,
                    detail: format!(
                        "{n} {}matches in the {weeks} weeks from this Monday (at most {max})",
                        count.word()
                    ),
                });
            }
        }
    }
    out
}

/// CA4: matches between the two groups, per date or in all.
fn between(
    rows: &[Row],
    (teams, opponents): (&[TeamId], &[TeamId]),
    dates: &Option<BTreeSet<NaiveDate>>,
    max: u32,
    per_date: bool,
) -> Vec<Breach> {
    let across = |r: &&Row| {
        (teams.contains(&r.home) && opponents.contains(&r.away))
            || (opponents.contains(&r.home) && teams.contains(&r.away))
    };
    let mut by_date: BTreeMap<Option<NaiveDate>, u32> = BTreeMap::new();
    for r in rows.iter().filter(across).filter(|r| on(dates, r.date)) {
        *by_date.entry(per_date.then_some(r.date)).or_default() += 1;
    }
    let when = if per_date { "on the date" } else { "in all" };
    (by_date.into_iter())
        .filter(|&(_, n)| n > max)
        .map(|(date, n)| Breach {
            who: "the teams named".into(),
            date,
            over: n - max,
            detail: format!("{n} matches between the groups {when} (at most {max})"),
        })
        .collect()
}

/// GA1: the fixtures listed that fall on `dates`.
fn listed_fixtures(
    league: &League,
    rows: &[Row],
    fixtures: &[(TeamId, TeamId)],
    dates: &BTreeSet<NaiveDate>,
    (min, max): (u32, u32),
) -> Vec<Breach> {
    let single = |t: TeamId| league.divisions[league.teams[t].division].format != Format::Double;
    let is = |h: TeamId, a: TeamId, x: TeamId, y: TeamId| {
        (x == h && y == a) || (single(h) && x == a && y == h)
    };
    let n = (rows.iter())
        .filter(|r| {
            dates.contains(&r.date) && fixtures.iter().any(|&(h, a)| is(h, a, r.home, r.away))
        })
        .count() as u32;
    // A fixture left out of the season (a team withdrew) cannot be played at all.
    let excluded = |h: TeamId, a: TeamId| league.excluded.iter().any(|e| is(h, a, e.home, e.away));
    let min = min.min(fixtures.iter().filter(|&&(h, a)| !excluded(h, a)).count() as u32);
    if n <= max && n >= min {
        return Vec::new();
    }
    vec![Breach {
        who: "the fixtures named".into(),
        date: None,
        over: n.saturating_sub(max) + min.saturating_sub(n),
        detail: format!("{n} of them on the dates named (from {min} to {max})"),
    }]
}

/// SE1: each pair's meetings, in date order, at least `days` apart.
fn apart(league: &League, rows: &[Row], teams: &[TeamId], days: u32) -> Vec<Breach> {
    let name = |t: TeamId| league.teams[t].name.as_str();
    let mut met: BTreeMap<(TeamId, TeamId), Vec<NaiveDate>> = BTreeMap::new();
    for r in rows
        .iter()
        .filter(|r| teams.contains(&r.home) && teams.contains(&r.away))
    {
        met.entry((r.home.min(r.away), r.home.max(r.away)))
            .or_default()
            .push(r.date);
    }
    let mut out = Vec::new();
    for ((a, b), mut ds) in met {
        ds.sort();
        for p in ds.windows(2) {
            let gap = (p[1] - p[0]).num_days();
            if gap < i64::from(days) {
                out.push(Breach {
                    who: format!("{} and {}", name(a), name(b)),
                    date: Some(p[1]),
                    over: 1,
                    detail: format!(
                        "meet {gap} days after meeting on {} (at least {days})",
                        p[0]
                    ),
                });
            }
        }
    }
    out
}

/// BR1, BR2: each team's breaks (two of its matches running, in date order, on one side), or
/// their total.
fn breaks(
    league: &League,
    rows: &[Row],
    teams: &[TeamId],
    max: u32,
    per_team: bool,
) -> Vec<Breach> {
    let of = |t: TeamId| {
        let mut sides: Vec<(NaiveDate, bool)> = (rows.iter())
            .filter(|r| r.home == t || r.away == t)
            .map(|r| (r.date, r.home == t))
            .collect();
        sides.sort();
        sides.windows(2).filter(|p| p[0].1 == p[1].1).count() as u32
    };
    let counts: Vec<(TeamId, u32)> = teams.iter().map(|&t| (t, of(t))).collect();
    if !per_team {
        let n: u32 = counts.iter().map(|c| c.1).sum();
        return (n > max)
            .then(|| Breach {
                who: "the teams named".into(),
                date: None,
                over: n - max,
                detail: format!("{n} breaks in all (at most {max})"),
            })
            .into_iter()
            .collect();
    }
    (counts.into_iter())
        .filter(|&(_, n)| n > max)
        .map(|(t, n)| Breach {
            who: league.teams[t].name.clone(),
            date: None,
            over: n - max,
            detail: format!("{n} breaks (at most {max})"),
        })
        .collect()
}

/// FA2: at the end of each date named, the home matches the teams have played so far differ
/// by at most `max` between any two of them.
fn level(rows: &[Row], teams: &[TeamId], dates: &BTreeSet<NaiveDate>, max: u32) -> Vec<Breach> {
    let mut out = Vec::new();
    for &d in dates {
        let homes = teams
            .iter()
            .map(|&t| rows.iter().filter(|r| r.home == t && r.date <= d).count() as u32);
        let (lo, hi) = homes.fold((u32::MAX, 0), |(lo, hi), n| (lo.min(n), hi.max(n)));
        if teams.is_empty() || hi - lo <= max {
            continue;
        }
        out.push(Breach {
            who: "the teams named".into(),
            date: Some(d),
            over: hi - lo - max,
            detail: format!("home matches played range from {lo} to {hi} by the end of the day (at most {max} apart)"),
        });
    }
    out
}
