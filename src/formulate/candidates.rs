//! The candidate (home, away, date) slots of every fixture: the MIP's columns.
//!
//! A slot exists only where rules 1–4 of "When a match can be played" hold, `[[fixed]]`
//! fixtures have their one slot, internal club fixtures respect `latest_internal_date`, and in
//! a rerun nothing unplayed is dated before its first movable date. Why a league has no
//! schedule is the job of `precheck`, not of this module.

use crate::model::{Fixture, League, Rerun, TeamId, Unplayable};
use chrono::NaiveDate;

/// One way to play a fixture: a column of the MIP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// Index into `Candidates::fixtures`.
    pub fixture: usize,
    /// The team at home in this slot.
    pub home: TeamId,
    /// The visiting team.
    pub away: TeamId,
    /// The date.
    pub date: NaiveDate,
}

/// Every fixture of a league and every slot it may take.
#[derive(Debug, Clone)]
pub struct Candidates {
    /// The fixtures the divisions' formats call for (`League::fixtures`).
    pub fixtures: Vec<Fixture>,
    /// Every playable slot of every fixture.
    pub slots: Vec<Slot>,
    /// Slot indices per fixture.
    pub by_fixture: Vec<Vec<usize>>,
    /// Slot indices per team (home or away).
    pub by_team: Vec<Vec<usize>>,
    /// Fixture indices per team.
    pub fixtures_of: Vec<Vec<usize>>,
    /// The elastic model only: per slot, the rules 1–4 it breaks (empty for a playable slot).
    pub relaxed: Vec<Vec<Unplayable>>,
    /// The rerun these candidates are for (its scratched fixtures count towards balance).
    pub rerun: Rerun,
}

impl Candidates {
    /// Whether both teams of the fixture belong to one club.
    pub fn is_internal(&self, league: &League, fixture: usize) -> bool {
        let f = &self.fixtures[fixture];
        league.are_same_club(f.a, f.b)
    }

    /// The home matches team `t` may have under `home_away_balance` (fewest, most).
    pub fn home_range(&self, league: &League, t: TeamId) -> (i64, i64) {
        league.home_range(t, self.fixtures_of[t].len(), &self.rerun)
    }
}

/// The candidate slots of a league's fixtures (in a rerun, none before its first movable date).
pub fn candidates(league: &League, rerun: &Rerun) -> Candidates {
    slots(league, rerun, false)
}

/// The candidates of the elastic model: besides every playable slot, the slots on hosting
/// dates that only a team's unavailability, a club's late start, or a league or venue closure
/// rules out, each with the reasons it breaks (`Candidates::relaxed`).
pub fn candidates_elastic(league: &League, rerun: &Rerun) -> Candidates {
    slots(league, rerun, true)
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
                    | Unplayable::CupReserved(..)
            )
        })
}

/// How many slots `candidates` would make for a league, counting no further than `limit`
/// (so the count costs at most `limit` checks past the fixtures): the size model that refuses a
/// job before it allocates.
pub fn count_slots(league: &League, rerun: &Rerun, limit: usize) -> usize {
    let fixtures = league.fixtures();
    let mut n = 0;
    each_slot(league, rerun, false, &fixtures, |_, _| {
        n += 1;
        n <= limit
    });
    n
}

fn slots(league: &League, rerun: &Rerun, elastic: bool) -> Candidates {
    let fixtures = league.fixtures();
    let mut relaxed = Vec::new();
    let mut slots = Vec::new();
    let mut by_fixture = vec![Vec::new(); fixtures.len()];
    let mut by_team = vec![Vec::new(); league.teams.len()];
    let mut fixtures_of = vec![Vec::new(); league.teams.len()];
    for (fi, f) in fixtures.iter().enumerate() {
        fixtures_of[f.a].push(fi);
        fixtures_of[f.b].push(fi);
    }
    each_slot(league, rerun, elastic, &fixtures, |slot, why| {
        let s = slots.len();
        slots.push(slot);
        relaxed.push(why);
        by_fixture[slot.fixture].push(s);
        by_team[slot.home].push(s);
        by_team[slot.away].push(s);
        true
    });
    Candidates {
        fixtures,
        slots,
        by_fixture,
        by_team,
        fixtures_of,
        relaxed: if elastic { relaxed } else { Vec::new() },
        rerun: rerun.clone(),
    }
}

/// Calls `take` with every slot of every fixture (and, in the elastic model, the rules it
/// breaks) until it returns false.
fn each_slot(
    league: &League,
    rerun: &Rerun,
    elastic: bool,
    fixtures: &[Fixture],
    mut take: impl FnMut(Slot, Vec<Unplayable>) -> bool,
) {
    for (fi, f) in fixtures.iter().enumerate() {
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
                if fixed.is_none() && rerun.from.is_some_and(|from| date < from) {
                    continue;
                }
                if internal && fixed.is_none() {
                    if let Some(latest) = league.rules.latest_internal_date {
                        if date > latest {
                            continue;
                        }
                    }
                }
                let slot = Slot {
                    fixture: fi,
                    home,
                    away,
                    date,
                };
                if !take(slot, why) {
                    return;
                }
            }
        }
    }
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
            rerun: self.rerun.clone(),
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
