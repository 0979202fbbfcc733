//! The season after the league draw: reruns (`reschedule`) and suggested dates for a move
//! (`suggest`); and, by Sussex rules 2.3, 2.6, 6.2.2, 12 and the cup rules,
//! knockout cups with their offered dates, play-offs and their replays, replays after a serious
//! default, and rule 2.6's change windows. Everything here proposes dates; every list made with
//! them goes through `pipeline::verify` (the independent checker) before anybody sees it.

pub mod changes;
pub mod cup;
pub mod operate;
pub mod penalties;
pub mod playoff;
pub mod pools;
pub mod record;
pub mod reschedule;
pub mod suggest;
pub mod swiss;

use crate::model::{FixtureList, Hosting, League, TeamId, VenueId};
use chrono::NaiveDate;

/// Where and when a match with `home` at home can be hosted: the venue and its nights.
#[derive(Debug, Clone, Copy)]
pub struct Host<'a> {
    /// The venue.
    pub venue: VenueId,
    /// The nights or dates the home side hosts on.
    pub hosting: &'a Hosting,
    /// Whether the league's start bounds the match (a cup's first round may come before the
    /// league's; a club's late start, after the league's, bounds everything).
    pub after_league_start: bool,
}

/// Every date from `from` to `to` on which `home` can host `away` at `host` beside the matches
/// of `list`: the league is open, both teams have started and are available (the visitor also
/// for away matches), the venue is open with room to spare, it is one of the home side's nights,
/// and neither team has another match within `min_days_between`.
pub fn open_dates(
    league: &League,
    list: &FixtureList,
    home: TeamId,
    away: TeamId,
    host: Host<'_>,
    from: NaiveDate,
    to: NaiveDate,
) -> Vec<NaiveDate> {
    let min = league.rules.min_days_between as i64;
    let (h, a) = (&league.teams[home], &league.teams[away]);
    let busy: Vec<NaiveDate> = list
        .matches
        .iter()
        .filter(|m| [m.home, m.away].iter().any(|&t| t == home || t == away))
        .map(|m| m.date)
        .chain(
            list.extra
                .iter()
                .filter(|e| [e.home, e.away].iter().any(|&t| t == home || t == away))
                .map(|e| e.date),
        )
        .collect();
    let load = |d: NaiveDate| {
        let league_load = list
            .matches
            .iter()
            .filter(|m| m.date == d && league.fixture_venue(m.home, m.away) == host.venue)
            .count();
        let extra_load = list
            .extra
            .iter()
            .filter(|e| e.date == d && e.venue(league) == host.venue)
            .count();
        league_load + extra_load
    };
    let venue = &league.venues[host.venue];
    let started = |start: NaiveDate, d: NaiveDate| {
        d >= start || (!host.after_league_start && start <= league.start)
    };
    from.iter_days()
        .take_while(|d| *d <= to)
        .filter(|&d| {
            !league.closed.contains(&d)
                && started(h.start, d)
                && started(a.start, d)
                && host.hosting.hosts_on(d)
                && !h.unavailable.contains(&d)
                && !a.unavailable.contains(&d)
                && !a.unavailable_away.contains(&d)
                && busy.iter().all(|&b| (b - d).num_days().abs() >= min)
                && (venue.capacity_on(d) as usize) > load(d)
        })
        .collect()
}
