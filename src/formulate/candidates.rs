//! The candidate (home, away, date) slots of every fixture: the MIP's columns.
//!
//! A slot exists only where rules 1–4 of "When a match can be played" hold, `[[fixed]]`
//! fixtures have their one slot, and internal club fixtures respect `latest_internal_date`.
//! Cheap necessary conditions are checked here, so that an obviously impossible league is
//! reported in plain words before any MIP is built.

use crate::model::{Fixture, League, TeamId};
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
    let fixtures = league.fixtures();
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
                if league.playable(home, away, date).is_err() {
                    continue;
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
    };
    if problems.is_empty() {
        problems.extend(too_few_dates(league, &cand));
        problems.extend(venue_too_small(league, &cand));
    }
    if problems.is_empty() {
        Ok(cand)
    } else {
        Err(Impossible(problems))
    }
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
            .filter(|&t| league.teams[t].venue == v)
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
            .filter(|s| league.teams[s.home].venue == v)
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
            out.push(format!(
                "{} has {} fixtures but at most {} dates on which it can play, {} days apart{}; it starts on {}",
                team.name, needed, count, gap, span, team.start
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
