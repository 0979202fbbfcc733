//! The neutral fixture list every part of the program passes around: the solver produces one,
//! the pipeline writes one, `report` publishes one and `reschedule` compares two. It knows
//! nothing of the model or of the checker.

use super::{DivisionId, League, Side, TeamId};
use chrono::{Datelike, NaiveDate};

/// One match of a fixture list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Match {
    /// The day it is played.
    pub date: NaiveDate,
    /// The division of both teams.
    pub division: DivisionId,
    /// The team at home (whose venue, or the division's central venue, hosts it).
    pub home: TeamId,
    /// The visiting team.
    pub away: TeamId,
}

/// A season's fixture list, in the spec's order (date, division, home team name).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FixtureList {
    /// Every match, sorted.
    pub matches: Vec<Match>,
}

/// The spec's five columns, then the weekday for readers' convenience.
pub const CSV_HEADER: [&str; 6] = ["date", "division", "home", "away", "venue", "weekday"];

impl FixtureList {
    /// The list of these matches in the spec's order.
    pub fn new(mut matches: Vec<Match>, league: &League) -> FixtureList {
        sort_matches(&mut matches, league);
        FixtureList { matches }
    }

    /// The CSV text of the list: the spec's columns, the weekday, and `colours` when the
    /// league says who has White on board 1. Only the pipeline writes it anywhere, after the
    /// independent checker has accepted it.
    pub fn to_csv(&self, league: &League) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut header = CSV_HEADER.to_vec();
        if league.odd_boards_white.is_some() {
            header.push("colours");
        }
        // Writing to a Vec cannot fail, and every field is valid UTF-8.
        let _ = w.write_record(&header);
        for m in &self.matches {
            let home = &league.teams[m.home];
            let away = &league.teams[m.away];
            let mut record = vec![
                m.date.to_string(),
                league.divisions[m.division].name.clone(),
                home.name.clone(),
                away.name.clone(),
                league.venues[league.match_venue(m.home)].name.clone(),
                m.date.weekday().to_string(),
            ];
            match league.odd_boards_white {
                Some(Side::Home) => record.push(format!("{} White on board 1", home.name)),
                Some(Side::Away) => record.push(format!("{} White on board 1", away.name)),
                None => {}
            }
            let _ = w.write_record(&record);
        }
        String::from_utf8_lossy(&w.into_inner().unwrap_or_default()).into_owned()
    }

    /// The matches of `team`, home or away, in date order.
    pub fn of_team(&self, team: TeamId) -> impl Iterator<Item = &Match> {
        self.matches
            .iter()
            .filter(move |m| m.home == team || m.away == team)
    }
}

/// The spec's order: date, then division (as listed in the league file), then home team name.
pub fn sort_matches(matches: &mut [Match], league: &League) {
    matches.sort_by(|a, b| {
        a.date
            .cmp(&b.date)
            .then(a.division.cmp(&b.division))
            .then_with(|| league.teams[a.home].name.cmp(&league.teams[b.home].name))
    });
}

/// What a mid-season rerun adds to a league, passed explicitly to the model and the checker
/// (never stored on `League`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Rerun {
    /// The first date that may change: every fixture not played is dated on or after it.
    pub from: Option<NaiveDate>,
    /// Fixtures (home, away) scratched when a team withdrew: not played, but still counted
    /// towards their teams' `home_away_balance`, so a withdrawal does not force other fixtures
    /// to change sides.
    pub scratched: Vec<(TeamId, TeamId)>,
    /// The fixtures already played (the current list before `from`): kept exactly.
    pub history: Vec<Match>,
}

impl Rerun {
    /// Scratched fixtures of `team`: (at home, away).
    pub fn scratched_of(&self, team: TeamId) -> (i64, i64) {
        let home = self.scratched.iter().filter(|s| s.0 == team).count() as i64;
        let away = self.scratched.iter().filter(|s| s.1 == team).count() as i64;
        (home, away)
    }
}
