//! Additional matches: play-offs (Sussex rule 12) with the venue reversed from the teams' league
//! meeting (12.2) and the replay of a drawn play-off at the away team's venue (12.3); and the
//! replay of a match after a serious default, on dates convenient to the team defaulted
//! against (6.2.2).

use super::{open_dates, Host};
use crate::model::{Extra, ExtraKind, FixtureList, League, Match, TeamId};
use chrono::{Days, NaiveDate};

/// Days after the league's end (or the teams' last match, if later) searched for a date.
const AFTER_END_DAYS: u64 = 120;

/// A play-off: who is at home and why, the dates it can be played, and its replay's.
#[derive(Debug, Clone)]
pub struct PlayOff {
    /// The home team.
    pub home: TeamId,
    /// The visiting team.
    pub away: TeamId,
    /// Why this side is at home.
    pub why: String,
    /// Dates both teams can play it, first the earliest.
    pub dates: Vec<NaiveDate>,
    /// The list with the play-off on its first date and, for a drawn play-off, the replay at
    /// the away team's venue on its first date after it (rule 12.3).
    pub list: FixtureList,
}

fn last_match(list: &FixtureList, teams: &[TeamId]) -> Option<NaiveDate> {
    let mine = |h: TeamId, a: TeamId| teams.contains(&h) || teams.contains(&a);
    let league = list
        .matches
        .iter()
        .filter(|m| mine(m.home, m.away))
        .map(|m| m.date);
    let extra = list
        .extra
        .iter()
        .filter(|e| mine(e.home, e.away))
        .map(|e| e.date);
    league.chain(extra).max()
}

fn dates_for(
    league: &League,
    list: &FixtureList,
    home: TeamId,
    away: TeamId,
    after: NaiveDate,
) -> Vec<NaiveDate> {
    let h = &league.teams[home];
    let host = Host {
        // A play-off at the home team's own venue, never a half-way house (rule 12.2).
        venue: league.match_venue(home),
        hosting: &h.hosting,
        after_league_start: true,
    };
    let to = league.end.max(after) + Days::new(AFTER_END_DAYS);
    open_dates(league, list, home, away, host, after + Days::new(1), to)
}

/// Why there is no play-off, or no replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayOffError {
    /// The same team named twice.
    #[error("a play-off needs two teams")]
    OneTeam,
    /// Teams of two divisions.
    #[error("{0} and {1} are in different divisions")]
    Divisions(String, String),
    /// No date in the weeks after the season.
    #[error(
        "no date up to {AFTER_END_DAYS} days after the season on which {home} can host {away}"
    )]
    NoDate {
        /// The host.
        home: String,
        /// The visitors.
        away: String,
    },
    /// A replay asked for by a team that was not in the match.
    #[error("{team} did not play {home} v {away}")]
    NotInMatch {
        /// The team named.
        team: String,
        /// The match's home team.
        home: String,
        /// The match's visitors.
        away: String,
    },
}

/// The play-off between `a` and `b` beside `list`: at `b`'s when they met once at `a`'s (and the
/// other way round); when they have not met once, the first named is at home.
pub fn play_off(
    league: &League,
    list: &FixtureList,
    a: TeamId,
    b: TeamId,
) -> Result<PlayOff, PlayOffError> {
    play_off_from(league, list, a, b, NaiveDate::MIN)
}

/// `play_off`, on no date before `first` (in a season under way: after today).
pub fn play_off_from(
    league: &League,
    list: &FixtureList,
    a: TeamId,
    b: TeamId,
    first: NaiveDate,
) -> Result<PlayOff, PlayOffError> {
    let name = |t: TeamId| league.teams[t].name.clone();
    if a == b {
        return Err(PlayOffError::OneTeam);
    }
    let division = league.teams[a].division;
    if league.teams[b].division != division {
        return Err(PlayOffError::Divisions(name(a), name(b)));
    }
    let (home, away, why) = play_off_venue(league, list, a, b);
    // Rule 12: a play-off settles a place in the table, so it follows the division's last
    // league match (and, for rest days, the two teams' own last match of any kind).
    let division_end = list
        .matches
        .iter()
        .filter(|m| m.division == division)
        .map(|m| m.date)
        .max();
    let after = division_end
        .max(last_match(list, &[a, b]))
        .unwrap_or(league.end)
        .max(first.pred_opt().unwrap_or(first));
    let dates = dates_for(league, list, home, away, after);
    let Some(&first) = dates.first() else {
        return Err(PlayOffError::NoDate {
            home: name(home),
            away: name(away),
        });
    };
    let with = list.clone().with_extra([Extra {
        date: first,
        home,
        away,
        kind: ExtraKind::PlayOff(division),
    }]);
    // Rule 12.3: a drawn play-off is replayed at the away team's venue.
    let replay = dates_for(league, &with, away, home, first);
    let list = match replay.first() {
        Some(&d) => with.with_extra([Extra {
            date: d,
            home: away,
            away: home,
            kind: ExtraKind::PlayOffReplay(division),
        }]),
        None => with,
    };
    Ok(PlayOff {
        home,
        away,
        why,
        dates,
        list,
    })
}

/// Who hosts a play-off between `a` and `b` (rule 12.2: the venue of their meeting
/// reversed), and why.
fn play_off_venue(
    league: &League,
    list: &FixtureList,
    a: TeamId,
    b: TeamId,
) -> (TeamId, TeamId, String) {
    let name = |t: TeamId| league.teams[t].name.clone();
    let met: Vec<&Match> = list
        .matches
        .iter()
        .filter(|m| (m.home, m.away) == (a, b) || (m.home, m.away) == (b, a))
        .collect();
    match met.as_slice() {
        [m] => {
            let at = league.fixture_venue(m.home, m.away);
            let place = if at == league.match_venue(m.home) {
                format!("at {}'s", name(m.home))
            } else {
                // A half-way house (rule 2.3): the reversal is the other team's own venue.
                format!(
                    "at the half-way house {} ({} at home)",
                    league.venues[at].name,
                    name(m.home)
                )
            };
            (
                m.away,
                m.home,
                format!(
                    "rule 12.2: they met {place} on {}, so {} is at home",
                    crate::model::short_date(m.date),
                    name(m.away)
                ),
            )
        }
        [] => (
            a,
            b,
            format!(
                "they have not met this season: {} (named first) at home",
                name(a)
            ),
        ),
        _ => (
            a,
            b,
            format!(
                "they met {} times: {} (named first) at home",
                met.len(),
                name(a)
            ),
        ),
    }
}

/// The dates on which the league match `m` can be replayed after a serious default (rule
/// 6.2.2), convenient to `against` (the team defaulted against): after the match, up to the
/// league's end, on which it (and its opponents) are available and free, at the original
/// venue on the home team's nights.
pub fn replay_dates(
    league: &League,
    list: &FixtureList,
    m: &Match,
    against: TeamId,
) -> Result<Vec<NaiveDate>, PlayOffError> {
    if against != m.home && against != m.away {
        return Err(PlayOffError::NotInMatch {
            team: league.teams[against].name.clone(),
            home: league.teams[m.home].name.clone(),
            away: league.teams[m.away].name.clone(),
        });
    }
    let host = Host {
        venue: league.fixture_venue(m.home, m.away),
        hosting: &league.teams[m.home].hosting,
        after_league_start: true,
    };
    Ok(open_dates(
        league,
        list,
        m.home,
        m.away,
        host,
        m.date + Days::new(1),
        league.end,
    ))
}
