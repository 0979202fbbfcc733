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

impl Match {
    /// The team `t` plays in this match, if `t` plays in it.
    pub fn opponent(&self, t: TeamId) -> Option<TeamId> {
        match t {
            t if t == self.home => Some(self.away),
            t if t == self.away => Some(self.home),
            _ => None,
        }
    }
}

/// What a match outside the league's round robin is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExtraKind {
    /// A tie of `League::cups[cup]` in round `round` (from 0).
    Cup {
        /// The cup.
        cup: usize,
        /// The round.
        round: usize,
    },
    /// A play-off of two teams of a division (Sussex rule 12).
    PlayOff(DivisionId),
    /// The replay of a drawn play-off, at the play-off's away team (rule 12.3).
    PlayOffReplay(DivisionId),
    /// A league match replayed after a serious default (rule 6.2.2).
    Replay(DivisionId),
}

/// A match outside the league's round robin: a cup tie, a play-off, a replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Extra {
    /// The day it is played.
    pub date: NaiveDate,
    /// The home team.
    pub home: TeamId,
    /// The visiting team.
    pub away: TeamId,
    /// What it is.
    pub kind: ExtraKind,
}

impl Extra {
    /// Where it is played: a cup tie at the home team's own venue; a play-off and its replay
    /// at the home team's (or the division's central venue), not a half-way house agreed for
    /// the league match (rule 12.2 reverses the venue); a replay where the match was to be.
    pub fn venue(&self, league: &League) -> usize {
        match self.kind {
            ExtraKind::Cup { .. } => league.teams[self.home].venue,
            ExtraKind::PlayOff(_) | ExtraKind::PlayOffReplay(_) => league.match_venue(self.home),
            ExtraKind::Replay(_) => league.fixture_venue(self.home, self.away),
        }
    }

    /// The division column: the cup's name or the division's.
    pub fn competition<'a>(&self, league: &'a League) -> &'a str {
        match self.kind {
            ExtraKind::Cup { cup, .. } => &league.cups[cup].name,
            ExtraKind::PlayOff(d) | ExtraKind::PlayOffReplay(d) | ExtraKind::Replay(d) => {
                &league.divisions[d].name
            }
        }
    }

    /// The round column: the cup round's name, "Play-off", "Play-off replay" or "Replay".
    pub fn round(&self, league: &League) -> String {
        match self.kind {
            ExtraKind::Cup { cup, round } => league.cups[cup].round_name(round),
            ExtraKind::PlayOff(_) => "Play-off".into(),
            ExtraKind::PlayOffReplay(_) => "Play-off replay".into(),
            ExtraKind::Replay(_) => "Replay".into(),
        }
    }
}

/// The round column's words for the kinds of extra match that are not cup ties.
pub const EXTRA_ROUNDS: [&str; 3] = ["Play-off", "Play-off replay", "Replay"];

/// A season's fixture list, in the spec's order (date, division, home team name).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FixtureList {
    /// Every match, sorted.
    pub matches: Vec<Match>,
    /// Cup ties, play-offs and replays, in date order.
    pub extra: Vec<Extra>,
}

/// The spec's five columns, then the weekday for readers' convenience.
pub const CSV_HEADER: [&str; 6] = ["date", "division", "home", "away", "venue", "weekday"];

impl FixtureList {
    /// The list of these matches in the spec's order.
    pub fn new(mut matches: Vec<Match>, league: &League) -> FixtureList {
        sort_matches(&mut matches, league);
        FixtureList {
            matches,
            extra: Vec::new(),
        }
    }

    /// The list with these cup ties, play-offs and replays added.
    pub fn with_extra(mut self, extra: impl IntoIterator<Item = Extra>) -> FixtureList {
        self.extra.extend(extra);
        self.extra.sort();
        self
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
        if !self.extra.is_empty() {
            header.push("round");
        }
        // Writing to a Vec cannot fail, and every field is valid UTF-8.
        let _ = w.write_record(&header);
        let mut rows: Vec<(NaiveDate, u8, Vec<String>)> = Vec::new();
        for m in &self.matches {
            let mut record = self.record(
                league,
                m.date,
                &league.divisions[m.division].name,
                m.home,
                m.away,
                league.fixture_venue(m.home, m.away),
            );
            if !self.extra.is_empty() {
                record.push(String::new());
            }
            rows.push((m.date, 0, record));
        }
        for e in &self.extra {
            let mut record = self.record(
                league,
                e.date,
                e.competition(league),
                e.home,
                e.away,
                e.venue(league),
            );
            if matches!(e.kind, ExtraKind::Cup { cup, .. } if league.cups[cup].coin_toss) {
                if let Some(colours) = record.get_mut(CSV_HEADER.len()) {
                    *colours = "coin toss".into();
                }
            }
            record.push(e.round(league));
            rows.push((e.date, 1, record));
        }
        // League matches keep their order; extras follow the league matches of their date.
        rows.sort_by_key(|r| (r.0, r.1));
        for (_, _, record) in rows {
            let _ = w.write_record(&record);
        }
        String::from_utf8_lossy(&w.into_inner().unwrap_or_default()).into_owned()
    }

    fn record(
        &self,
        league: &League,
        date: NaiveDate,
        competition: &str,
        home: TeamId,
        away: TeamId,
        venue: usize,
    ) -> Vec<String> {
        let (h, a) = (&league.teams[home], &league.teams[away]);
        let mut record = vec![
            date.to_string(),
            competition.to_string(),
            h.name.clone(),
            a.name.clone(),
            league.venues[venue].name.clone(),
            date.weekday().to_string(),
        ];
        match league.odd_boards_white {
            Some(Side::Home) => record.push(format!("{} White on board 1", h.name)),
            Some(Side::Away) => record.push(format!("{} White on board 1", a.name)),
            None => {}
        }
        record
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
    /// The cup ties, play-offs and replays of the current list that the rerun keeps exactly
    /// (every one but a withdrawn team's from `from` on): a league rerun moves league matches
    /// around them, never them.
    pub extra: Vec<Extra>,
}

impl Rerun {
    /// Scratched fixtures of `team`: (at home, away).
    pub fn scratched_of(&self, team: TeamId) -> (i64, i64) {
        let home = self.scratched.iter().filter(|s| s.0 == team).count() as i64;
        let away = self.scratched.iter().filter(|s| s.1 == team).count() as i64;
        (home, away)
    }
}
