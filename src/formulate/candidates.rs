//! The candidate (home, away, date) slots of every fixture: the MIP's columns.
//!
//! A slot exists only where rules 1–4 of "When a match can be played" hold, `[[fixed]]`
//! fixtures have their one slot, and internal club fixtures respect `latest_internal_date`.
//! Cheap necessary conditions are checked here, so that an obviously impossible league is
//! reported in plain words before any MIP is built.

use crate::model::{Fixture, League, TeamId, Unplayable};
use chrono::NaiveDate;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    pub fixture: usize,
    pub home: TeamId,
    pub away: TeamId,
    pub date: NaiveDate,
}

#[derive(Debug, Clone)]
pub struct Candidates {
    pub fixtures: Vec<Fixture>,
    pub slots: Vec<Slot>,
    /// Slot indices per fixture.
    pub by_fixture: Vec<Vec<usize>>,
    /// Slot indices per team (home or away).
    pub by_team: Vec<Vec<usize>>,
    /// Fixture indices per team.
    pub fixtures_of: Vec<Vec<usize>>,
    /// The elastic model only: per slot, the rules 1–4 it breaks (empty for a playable slot).
    pub relaxed: Vec<Vec<Unplayable>>,
}

impl Candidates {
    pub fn is_internal(&self, league: &League, fixture: usize) -> bool {
        let f = &self.fixtures[fixture];
        league.are_same_club(f.a, f.b)
    }
}

/// Why no schedule can exist, found before any MIP is solved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Impossible(pub Vec<String>);

pub fn candidates(league: &League) -> Result<Candidates, Impossible> {
    let (cand, mut problems) = slots(league, false);
    if problems.is_empty() {
        problems.extend(too_few_dates(league, &cand));
        problems.extend(venue_too_small(league, &cand));
        problems.extend(fixed_clashes(league));
        problems.extend(club_pairs_too_late(league, &cand));
    }
    if problems.is_empty() {
        Ok(cand)
    } else {
        Err(Impossible(problems))
    }
}

/// The candidates of the elastic model: besides every playable slot, the slots on hosting
/// dates that only a team's unavailability, a club's late start, or a league or venue closure
/// rules out, each with the reasons it breaks (`Candidates::relaxed`).
pub fn candidates_elastic(league: &League) -> Candidates {
    slots(league, true).0
}

/// Whether a slot ruled out for these reasons may be relaxed in the elastic model.
fn relaxable(reasons: &[Unplayable]) -> bool {
    !reasons.is_empty()
        && reasons.iter().all(|r| {
            matches!(
                r,
                Unplayable::LeagueClosed
                    | Unplayable::BeforeStart(_)
                    | Unplayable::VenueClosed
                    | Unplayable::Unavailable(_)
                    | Unplayable::UnavailableAway
            )
        })
}

fn slots(league: &League, elastic: bool) -> (Candidates, Vec<String>) {
    let fixtures = league.fixtures();
    let mut relaxed = Vec::new();
    let mut slots = Vec::new();
    let mut by_fixture = vec![Vec::new(); fixtures.len()];
    let mut by_team = vec![Vec::new(); league.teams.len()];
    let mut fixtures_of = vec![Vec::new(); league.teams.len()];
    let mut problems = Vec::new();

    for (fi, f) in fixtures.iter().enumerate() {
        fixtures_of[f.a].push(fi);
        fixtures_of[f.b].push(fi);
        let fixed = league.fixed.iter().find(|x| {
            (x.home == f.a && x.away == f.b) || (!f.home_fixed && x.home == f.b && x.away == f.a)
        });
        let orientations: Vec<(TeamId, TeamId)> = match fixed {
            Some(x) => vec![(x.home, x.away)],
            None if f.home_fixed => vec![(f.a, f.b)],
            None => vec![(f.a, f.b), (f.b, f.a)],
        };
        let internal = league.are_same_club(f.a, f.b);
        for (home, away) in orientations {
            let dates: Vec<NaiveDate> = match fixed {
                Some(x) => vec![x.date],
                None => league.season_dates().collect(),
            };
            for date in dates {
                let mut why = Vec::new();
                if league.playable(home, away, date).is_err() {
                    why = league.unplayable_reasons(home, away, date);
                    if !elastic || fixed.is_some() || !relaxable(&why) {
                        continue;
                    }
                }
                if fixed.is_none() && league.not_before.is_some_and(|nb| date < nb) {
                    continue;
                }
                if internal && fixed.is_none() {
                    if let Some(latest) = league.rules.latest_internal_date {
                        if date > latest {
                            continue;
                        }
                    }
                }
                let s = slots.len();
                slots.push(Slot {
                    fixture: fi,
                    home,
                    away,
                    date,
                });
                relaxed.push(why);
                by_fixture[fi].push(s);
                by_team[home].push(s);
                by_team[away].push(s);
            }
        }
        if by_fixture[fi].is_empty() {
            problems.push(no_date_message(league, f, internal));
        }
    }

    let cand = Candidates {
        fixtures,
        slots,
        by_fixture,
        by_team,
        fixtures_of,
        relaxed: if elastic { relaxed } else { Vec::new() },
    };
    (cand, problems)
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
            let (fewest_home, _) = league.home_range(t, n);
            let always_home = cand.fixtures_of[t]
                .iter()
                .filter(|&&f| {
                    let slots = &cand.by_fixture[f];
                    !slots.is_empty() && slots.iter().all(|&s| cand.slots[s].home == t)
                })
                .count();
            needed += always_home.max(fewest_home as usize);
        }
        let mut dates: Vec<NaiveDate> = cand
            .slots
            .iter()
            .filter(|s| league.match_venue(s.home) == v)
            .map(|s| s.date)
            .collect();
        dates.sort();
        dates.dedup();
        let room: usize = dates.iter().map(|&d| venue.capacity_on(d) as usize).sum();
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
        at.entry((league.match_venue(f.home), f.date))
            .or_default()
            .push(f);
    }
    for ((v, date), list) in at {
        let cap = league.venues[v].capacity_on(date) as usize;
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

impl Candidates {
    /// The same fixtures, where those not `free` keep only their current slot
    /// (`current[f]` is fixture f's slot here). Returns the new candidates and, for each new
    /// slot, the slot it was here.
    pub fn restricted(&self, free: &[bool], current: &[usize]) -> (Candidates, Vec<usize>) {
        let mut out = Candidates {
            fixtures: self.fixtures.clone(),
            slots: Vec::new(),
            by_fixture: vec![Vec::new(); self.fixtures.len()],
            by_team: vec![Vec::new(); self.by_team.len()],
            fixtures_of: self.fixtures_of.clone(),
            relaxed: Vec::new(),
        };
        let mut map = Vec::new();
        for (s, slot) in self.slots.iter().enumerate() {
            if free[slot.fixture] || current[slot.fixture] == s {
                let n = out.slots.len();
                out.slots.push(*slot);
                out.by_fixture[slot.fixture].push(n);
                out.by_team[slot.home].push(n);
                out.by_team[slot.away].push(n);
                map.push(s);
            }
        }
        (out, map)
    }
}
