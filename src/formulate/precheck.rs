//! Why a league has no schedule, found before any MIP is solved: cheap necessary conditions,
//! each reported in plain words naming the team, club, venue and dates, so that an obviously
//! impossible league is explained at once (the elastic model in `solve::explain` covers the
//! rest).

use super::Candidates;
use crate::model::{Fixture, League, TeamId};
use chrono::NaiveDate;

/// Every reason found that no schedule can exist; empty when none was found (a schedule may
/// still not exist: the MIP decides).
pub fn impossible(league: &League, cand: &Candidates) -> Vec<String> {
    let mut problems: Vec<String> = (0..cand.fixtures.len())
        .filter(|&f| cand.by_fixture[f].is_empty())
        .map(|f| {
            let fx = &cand.fixtures[f];
            no_date_message(league, fx, league.are_same_club(fx.a, fx.b))
        })
        .collect();
    problems.extend(fixed_after_latest_internal(league));
    problems.extend(fixed_before_rerun(league, cand));
    if let Err(cells) = super::constraints::groups(league, cand) {
        problems.push(format!(
            "the league's [[constraint]] tables would count {cells} possible dates of matches; more than {} are refused (name fewer teams or dates)",
            super::constraints::MAX_CELLS
        ));
    }
    if problems.is_empty() {
        problems.extend(too_few_dates(league, cand));
        problems.extend(venue_too_small(league, cand));
        problems.extend(fixed_clashes(league));
        problems.extend(club_pairs_too_late(league, cand));
    }
    problems
}

/// A `[[fixed]]` fixture between two teams of one club after `latest_internal_date` breaks
/// rule 8 on its own: the rule applies to fixed fixtures as to any other (the checker reads it
/// the same way), so such a league has no valid schedule.
fn fixed_after_latest_internal(league: &League) -> Vec<String> {
    let Some(latest) = league.rules.latest_internal_date else {
        return Vec::new();
    };
    league
        .fixed
        .iter()
        .filter(|f| league.are_same_club(f.home, f.away) && f.date > latest)
        .map(|f| {
            format!(
                "fixed fixture {} v {} on {} is between two teams of one club after latest_internal_date ({latest}); move it or the rule",
                league.teams[f.home].name, league.teams[f.away].name, f.date
            )
        })
        .collect()
}

/// In a rerun, a `[[fixed]]` fixture dated before the first date that may change, unless it
/// was played on that date: nothing unplayed can be dated in the past (the checker's rule).
fn fixed_before_rerun(league: &League, cand: &Candidates) -> Vec<String> {
    let Some(from) = cand.rerun.from else {
        return Vec::new();
    };
    let played = |f: &crate::model::Fixed| {
        cand.rerun
            .history
            .iter()
            .any(|m| (m.home, m.away, m.date) == (f.home, f.away, f.date))
    };
    league
        .fixed
        .iter()
        .filter(|f| f.date < from && !played(f))
        .map(|f| {
            format!(
                "fixed fixture {} v {} on {} is dated before {from}, the first date that may change, and was not played then; give it a date from {from} on",
                league.teams[f.home].name, league.teams[f.away].name, f.date
            )
        })
        .collect()
}

fn no_date_message(league: &League, f: &Fixture, internal: bool) -> String {
    let (a, b) = (&league.teams[f.a], &league.teams[f.b]);
    let mut msg = format!(
        "{} v {} ({}) has no date on which it can be played",
        a.name, b.name, league.divisions[f.division].name
    );
    // Say which condition removed most dates, so the secretary knows where to look.
    let mut reasons: Vec<(String, usize)> = Vec::new();
    let mut orientations = vec![(f.a, f.b)];
    if !f.home_fixed {
        orientations.push((f.b, f.a));
    }
    for (h, w) in orientations {
        for d in league.season_dates() {
            let reason = match league.playable(h, w, d) {
                Err(why) => league.describe_unplayable(&why, h),
                Ok(()) => match league.rules.latest_internal_date {
                    Some(l) if internal && d > l => {
                        format!("internal club fixtures must be played by {l}")
                    }
                    _ => continue,
                },
            };
            match reasons.iter_mut().find(|(r, _)| *r == reason) {
                Some((_, n)) => *n += 1,
                None => reasons.push((reason, 1)),
            }
        }
    }
    reasons.sort_by_key(|r| std::cmp::Reverse(r.1));
    let top: Vec<String> = reasons
        .iter()
        .filter(|(r, _)| !r.starts_with("it is not a hosting date"))
        .take(3)
        .map(|(r, n)| format!("{r} ({n} dates)"))
        .collect();
    if !top.is_empty() {
        msg.push_str(": ");
        msg.push_str(&top.join("; "));
    }
    msg
}

/// A venue must hold its teams' home matches: at least the fewest each team can host under
/// `home_away_balance` (all of them for a double round robin's fixed home fixtures), within its
/// capacity on the dates those matches can be played there.
fn venue_too_small(league: &League, cand: &Candidates) -> Vec<String> {
    let mut out = Vec::new();
    for (v, venue) in league.venues.iter().enumerate() {
        let teams: Vec<usize> = (0..league.teams.len())
            .filter(|&t| league.match_venue(t) == v)
            .collect();
        if teams.is_empty() {
            continue;
        }
        let mut needed = 0;
        for &t in &teams {
            let n = cand.fixtures_of[t].len();
            let (fewest_home, _) = league.home_range(t, n, &cand.rerun);
            let always_home = cand.fixtures_of[t]
                .iter()
                .filter(|&&f| {
                    let slots = &cand.by_fixture[f];
                    !slots.is_empty() && slots.iter().all(|&s| cand.slots[s].home == t)
                })
                .count();
            // A fixture agreed at a neutral venue ([[neutral]]) need not be hosted here.
            let elsewhere = league.neutral.keys().filter(|k| k.0 == t).count();
            needed += always_home
                .max(fewest_home as usize)
                .saturating_sub(elsewhere);
        }
        let mut dates: Vec<NaiveDate> = cand
            .slots
            .iter()
            .filter(|s| league.fixture_venue(s.home, s.away) == v)
            .map(|s| s.date)
            .collect();
        dates.sort();
        dates.dedup();
        let room: usize = dates
            .iter()
            .map(|&d| league.league_capacity(v, d) as usize)
            .sum();
        if room < needed {
            let names: Vec<&str> = teams
                .iter()
                .map(|&t| league.teams[t].name.as_str())
                .collect();
            let span = match (dates.first(), dates.last()) {
                (Some(a), Some(z)) => format!(" between {a} and {z}"),
                _ => String::new(),
            };
            out.push(format!(
                "{} must host at least {needed} home matches of {} but has room for only {room} on the {} dates{span} they can be played there",
                venue.name,
                names.join(", "),
                dates.len()
            ));
        }
    }
    out
}

/// `[[fixed]]` fixtures that cannot all hold: two of a team's closer than `min_days_between`,
/// or more on a venue's date than its capacity.
fn fixed_clashes(league: &League) -> Vec<String> {
    let mut out = Vec::new();
    let gap = league.rules.min_days_between.max(1) as i64;
    let name = |t: TeamId| league.teams[t].name.as_str();
    let show =
        |f: &crate::model::Fixed| format!("{} v {} on {}", name(f.home), name(f.away), f.date);
    for t in 0..league.teams.len() {
        let mut mine: Vec<&crate::model::Fixed> = league
            .fixed
            .iter()
            .filter(|f| f.home == t || f.away == t)
            .collect();
        mine.sort_by_key(|f| f.date);
        for w in mine.windows(2) {
            let days = (w[1].date - w[0].date).num_days();
            if days < gap {
                out.push(format!(
                    "fixed fixtures {} and {} are {days} days apart, but {} must have {gap} days between matches (min_days_between)",
                    show(w[0]),
                    show(w[1]),
                    name(t)
                ));
            }
        }
    }
    let mut at: std::collections::BTreeMap<(usize, NaiveDate), Vec<&crate::model::Fixed>> =
        Default::default();
    for f in &league.fixed {
        at.entry((league.fixture_venue(f.home, f.away), f.date))
            .or_default()
            .push(f);
    }
    for ((v, date), list) in at {
        let cap = league.league_capacity(v, date) as usize;
        if list.len() > cap {
            let shown: Vec<String> = list.iter().map(|f| show(f)).collect();
            out.push(format!(
                "{} can host {cap} matches on {date}, but {} fixed fixtures are there: {}",
                league.venues[v].name,
                list.len(),
                shown.join("; ")
            ));
        }
    }
    out
}

/// `same_club_first`: a team's matches against club-mates come before all its others. When the
/// last of them can be played only late, the team's other fixtures may not fit after it.
fn club_pairs_too_late(league: &League, cand: &Candidates) -> Vec<String> {
    if !league.rules.same_club_first {
        return Vec::new();
    }
    let gap = league.rules.min_days_between.max(1) as i64;
    let mut out = Vec::new();
    for (t, team) in league.teams.iter().enumerate() {
        let (internal, external): (Vec<usize>, Vec<usize>) = cand.fixtures_of[t]
            .iter()
            .partition(|&&f| cand.is_internal(league, f));
        if internal.is_empty() || external.is_empty() {
            continue;
        }
        // The internal fixture whose earliest possible date is the latest.
        let Some((latest_start, f)) = internal
            .iter()
            .filter_map(|&f| {
                let first = cand.by_fixture[f]
                    .iter()
                    .map(|&s| cand.slots[s].date)
                    .min()?;
                Some((first, f))
            })
            .max()
        else {
            continue;
        };
        let mut dates: Vec<NaiveDate> = external
            .iter()
            .flat_map(|&e| cand.by_fixture[e].iter().map(|&s| cand.slots[s].date))
            .filter(|d| *d > latest_start)
            .collect();
        dates.sort();
        dates.dedup();
        let mut count = 0;
        let mut last = latest_start;
        for d in dates {
            if (d - last).num_days() >= gap {
                count += 1;
                last = d;
            }
        }
        if count < external.len() {
            let fx = &cand.fixtures[f];
            out.push(format!(
                "{} v {} (same club) can be played on {latest_start} at the earliest; same_club_first puts it before {}'s {} other fixtures, but only {count} dates {gap} days apart remain for them after it",
                league.teams[fx.a].name,
                league.teams[fx.b].name,
                team.name,
                external.len()
            ));
        }
    }
    out
}

/// A team needs as many dates, `min_days_between` apart, as it has fixtures.
fn too_few_dates(league: &League, cand: &Candidates) -> Vec<String> {
    let gap = league.rules.min_days_between as i64;
    let mut out = Vec::new();
    for (t, team) in league.teams.iter().enumerate() {
        let needed = cand.fixtures_of[t].len();
        let mut dates: Vec<NaiveDate> = cand.by_team[t]
            .iter()
            .map(|&s| cand.slots[s].date)
            .collect();
        dates.sort();
        dates.dedup();
        // Greedy earliest-first gives the most dates pairwise `gap` apart.
        let mut count = 0;
        let mut last: Option<NaiveDate> = None;
        for d in &dates {
            if last.is_none_or(|l| (*d - l).num_days() >= gap) {
                count += 1;
                last = Some(*d);
            }
        }
        if count < needed {
            let span = match (dates.first(), dates.last()) {
                (Some(a), Some(b)) => format!(" (its possible dates run from {a} to {b})"),
                _ => String::new(),
            };
            // Name the club when the late start is the club's (all its teams start then).
            let club = &league.clubs[team.club].name;
            let club_start = team.start > league.start
                && league
                    .teams
                    .iter()
                    .filter(|u| u.club == team.club)
                    .all(|u| u.start == team.start);
            let starts = if club_start {
                format!("it starts on {}, when its club {club} starts", team.start)
            } else {
                format!("it starts on {}", team.start)
            };
            let unavailable = match team.unavailable.len() {
                0 => String::new(),
                n => format!("; it is unavailable on {n} dates"),
            };
            out.push(format!(
                "{} has {} fixtures but at most {} dates on which it can play, {} days apart{}; {starts}{unavailable}",
                team.name, needed, count, gap, span
            ));
        }
    }
    out
}
