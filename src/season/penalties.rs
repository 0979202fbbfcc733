//! Penalties for defaults (Sussex rules 6.1 and 6.2.1, 4NCL rule 10): the default points and
//! match points a team loses, entered with their reason; lifted, never deleted, when an appeal
//! succeeds. The tables take them off as the league's `[penalties]` says: each
//! `per_match_point` default points cost a match point, and with `not_below_zero` no team goes
//! below none (4NCL rule 10.6).

use super::operate::Standing;
use super::record::{team, Entry, Kind, Season, SeasonError};
use crate::model::{League, TeamId};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// Default points one penalty may give; a four-board match defaulted whole gives 10.
const MAX_DEFAULT_POINTS: u32 = 1000;

/// Match points one penalty may take.
const MAX_MATCH_POINTS: u32 = 100;

/// Characters of a reason kept.
const MAX_WHY: usize = 300;

/// Penalties a season holds: far more than any league gives, and a bound on the file.
const MAX_PENALTIES: usize = 10_000;

/// A penalty as the season records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Penalty {
    /// The team penalised.
    pub team: String,
    /// Its division.
    pub division: String,
    /// Default points (Sussex rule 6.1, 4NCL 10.2 and 10.3).
    pub default_points: u32,
    /// Match points deducted outright (Sussex rule 6.2.1).
    pub match_points: u32,
    /// Why, in the secretary's words.
    pub why: String,
    /// The day it was entered.
    pub entered: NaiveDate,
    /// When and why it was lifted (an appeal upheld, a mistake put right).
    #[serde(default)]
    pub lifted: Option<Lifted>,
}

impl Penalty {
    /// The penalty in words: "Lewes 2, 3 default points (board 2 defaulted against Hove 1)".
    pub fn in_words(&self) -> String {
        format!(
            "{}, {} ({})",
            self.team,
            amount(self.default_points, self.match_points),
            self.why
        )
    }
}

/// A penalty's lifting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Lifted {
    /// The day.
    pub on: NaiveDate,
    /// Why.
    pub why: String,
}

/// A penalty as given: the boards a team defaulted (the league's `board_points` price them),
/// default points, match points, and why.
#[derive(Debug, Clone, Default)]
pub struct Given {
    /// The team.
    pub team: String,
    /// Boards defaulted, numbered from 1.
    pub boards: Vec<u32>,
    /// Default points besides the boards'.
    pub default_points: u32,
    /// Match points deducted outright.
    pub match_points: u32,
    /// Why.
    pub why: String,
}

/// A reason on one line, trimmed and bounded, or why not.
fn reason(why: &str) -> Result<String, SeasonError> {
    let why = why.split_whitespace().collect::<Vec<_>>().join(" ");
    if why.is_empty() {
        return Err(SeasonError::Input(
            "say why (for example \"board 4 defaulted against Lewes 1 on 3 Nov, rule 6.1\")".into(),
        ));
    }
    Ok(why.chars().take(MAX_WHY).collect())
}

/// "1 match point", "3 default points".
fn plural(n: u32, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// "3 default points and 2 match points".
fn amount(default_points: u32, match_points: u32) -> String {
    match (default_points, match_points) {
        (d, 0) => plural(d, "default point"),
        (0, m) => plural(m, "match point"),
        (d, m) => format!(
            "{} and {}",
            plural(d, "default point"),
            plural(m, "match point")
        ),
    }
}

impl Season {
    /// Records a penalty on `given.team` and says what it costs the team in all.
    pub fn penalise(&mut self, today: NaiveDate, given: &Given) -> Result<&Entry, SeasonError> {
        let cur = self.current()?;
        let lg = &cur.league;
        let t = team(lg, &given.team)?;
        let name = lg.teams[t].name.clone();
        if lg.withdrawn(t) {
            return Err(SeasonError::Input(format!(
                "{name} withdrew: its results are scratched (rule 11.2), so a penalty would count for nothing"
            )));
        }
        let why = reason(&given.why)?;
        let p = &lg.penalties;
        let boards = if given.boards.is_empty() {
            0
        } else {
            p.for_boards(&given.boards).map_err(SeasonError::Input)?
        };
        let default_points = boards.saturating_add(given.default_points);
        if default_points > MAX_DEFAULT_POINTS || given.match_points > MAX_MATCH_POINTS {
            return Err(SeasonError::Input(format!(
                "at most {MAX_DEFAULT_POINTS} default points and {MAX_MATCH_POINTS} match points in one penalty"
            )));
        }
        if default_points == 0 && given.match_points == 0 {
            return Err(SeasonError::Input(
                "give the boards defaulted, default points or match points".into(),
            ));
        }
        if default_points > 0 && p.per_match_point.is_none() {
            return Err(SeasonError::Input(
                "the league's settings give no number of default points that costs a match point (Penalties for defaults): give match points instead".into(),
            ));
        }
        if self.penalties.len() >= MAX_PENALTIES {
            return Err(SeasonError::Input(format!(
                "the season holds {MAX_PENALTIES} penalties already"
            )));
        }
        let division = lg.divisions[lg.teams[t].division].name.clone();
        self.penalties.push(Penalty {
            team: name.clone(),
            division,
            default_points,
            match_points: given.match_points,
            why: why.clone(),
            entered: today,
            lifted: None,
        });
        let verdict = self.owed(lg, t);
        let what = format!(
            "number {}: {}",
            self.penalties.len(),
            self.penalties
                .last()
                .expect("a penalty was pushed")
                .in_words()
        );
        self.log
            .push(Entry::noted(Kind::Penalty, what, today, verdict));
        Ok(self.log.last().expect("an entry was pushed"))
    }

    /// Lifts penalty `number` (as the log numbers them, from 1), saying why; it stays in the
    /// record.
    pub fn lift_penalty(
        &mut self,
        today: NaiveDate,
        number: usize,
        why: &str,
    ) -> Result<&Entry, SeasonError> {
        let why = reason(why)?;
        let cur = self.current()?;
        let count = self.penalties.len();
        let p = number
            .checked_sub(1)
            .and_then(|k| self.penalties.get_mut(k))
            .ok_or_else(|| {
                SeasonError::Input(format!(
                    "no penalty {number}: the season has {count} (see the log)"
                ))
            })?;
        if let Some(l) = &p.lifted {
            return Err(SeasonError::Input(format!(
                "penalty {number} was lifted on {} ({})",
                l.on, l.why
            )));
        }
        p.lifted = Some(Lifted {
            on: today,
            why: why.clone(),
        });
        let what = format!("number {number} ({}): {why}", p.in_words());
        let t = cur.league.team_by_name(&p.team);
        let verdict = t.map_or_else(String::new, |t| self.owed(&cur.league, t));
        self.log
            .push(Entry::noted(Kind::PenaltyLifted, what, today, verdict));
        Ok(self.log.last().expect("an entry was pushed"))
    }

    /// The penalties in force on teams of division `d`, with their numbers (from 1).
    pub fn penalties_in(&self, league: &League, d: usize) -> Vec<(usize, &Penalty)> {
        let name = &league.divisions[d].name;
        self.penalties
            .iter()
            .enumerate()
            .filter(|(_, p)| p.lifted.is_none() && &p.division == name)
            .map(|(k, p)| (k + 1, p))
            .collect()
    }

    /// Team `t`'s default points and match points in force: (default points, match points
    /// outright).
    fn penalty_totals(&self, league: &League, t: TeamId) -> (u32, u32) {
        let name = &league.teams[t].name;
        let division = &league.divisions[league.teams[t].division].name;
        self.penalties
            .iter()
            .filter(|p| p.lifted.is_none() && &p.team == name && &p.division == division)
            .fold((0, 0), |(d, m), p| {
                (
                    d.saturating_add(p.default_points),
                    m.saturating_add(p.match_points),
                )
            })
    }

    /// The match points team `t` loses for its penalties in force (before any floor).
    pub fn deducted(&self, league: &League, t: TeamId) -> u32 {
        let (d, m) = self.penalty_totals(league, t);
        league.penalties.match_points_for(d).saturating_add(m)
    }

    /// What team `t` owes in all, in a sentence.
    fn owed(&self, league: &League, t: TeamId) -> String {
        let (d, _) = self.penalty_totals(league, t);
        let name = &league.teams[t].name;
        let mut out = match league.penalties.per_match_point {
            Some(per) => format!(
                "{name} has {} this season (a match point for each {per}): ",
                plural(d, "default point")
            ),
            None => format!("{name}: "),
        };
        out += &plural(self.deducted(league, t), "match point");
        out += " off in the table";
        if league.penalties.not_below_zero {
            out += ", never below none";
        }
        out
    }
}

/// The penalty a serious default costs `defaulter` when league match `m` is replayed (Sussex
/// rule 6.2.1), if the league's settings give one.
pub(super) fn serious_default(
    league: &League,
    m: &crate::model::Match,
    defaulter: TeamId,
    today: NaiveDate,
) -> Option<Penalty> {
    let points = league.penalties.serious_default;
    let name = |t: TeamId| league.teams[t].name.as_str();
    (points > 0).then(|| Penalty {
        team: name(defaulter).to_string(),
        division: league.divisions[m.division].name.clone(),
        default_points: 0,
        match_points: points,
        why: format!(
            "serious default: {} v {} of {} replayed, rule 6.2.1",
            name(m.home),
            name(m.away),
            crate::model::short_date(m.date)
        ),
        entered: today,
        lifted: None,
    })
}

/// Takes each row's penalties off its match points (no lower than none when the league says
/// so, 4NCL rule 10.6), and returns the points taken off by team for the table's order.
pub(super) fn deduct(season: &Season, league: &League, rows: &mut [Standing]) -> Vec<u32> {
    let mut off = vec![0; league.teams.len()];
    for r in rows {
        let mut d = season.deducted(league, r.team);
        if league.penalties.not_below_zero {
            d = d.min(r.match_points.max(0) as u32);
        }
        r.deducted = d;
        r.match_points -= d as i32;
        off[r.team] = d;
    }
    off
}
