//! Where a fixture could move: every date on which it could be played with every other fixture
//! kept where it is, each verified by the independent checker, ranked by the change in the
//! league's objective, with what each date costs in words ("Lewes 1: one more break (two away
//! matches in a row)").
//!
//! Dates are first filtered cheaply (rules 1–4 for the two teams, `min_days_between` against
//! their other fixtures); every date left is then checked as a whole list by `check`, which also
//! measures its objective, so nothing is suggested that `fixtures check` would refuse.

use crate::check::{self, Quality, TeamFigures};
use crate::model::{FixtureList, League, Match, TeamId};
use chrono::NaiveDate;
use serde::Serialize;

/// One date a fixture could move to.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Suggestion {
    /// The new date.
    pub date: NaiveDate,
    /// The change in the league's objective (negative: better).
    pub change: f64,
    /// What the date costs or gains, in words (empty: nothing changes for the teams).
    pub costs: Vec<String>,
}

/// Why no suggestions can be made.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SuggestError {
    /// The fixture is not in the list.
    #[error("{0} is not a fixture of the current list")]
    NoFixture(String),
    /// The fixture names no teams of the league.
    #[error("\"{0}\" is not HOME v AWAY with two teams of the league")]
    BadFixture(String),
}

/// The fixture "HOME v AWAY" of the list (either side for a single round robin): its index.
pub fn find_fixture(
    league: &League,
    list: &FixtureList,
    text: &str,
) -> Result<usize, SuggestError> {
    let bad = || SuggestError::BadFixture(text.to_string());
    let (h, a) = text.split_once(" v ").ok_or_else(bad)?;
    let home = league.team_by_name(h.trim()).ok_or_else(bad)?;
    let away = league.team_by_name(a.trim()).ok_or_else(bad)?;
    list.matches
        .iter()
        .position(|m| m.home == home && m.away == away)
        .or_else(|| {
            list.matches
                .iter()
                .position(|m| m.home == away && m.away == home)
        })
        .ok_or_else(|| SuggestError::NoFixture(text.to_string()))
}

fn checked(league: &League, list: &FixtureList) -> check::Report {
    let csv = list.to_csv(league);
    match check::parse_fixtures(league, csv.as_bytes(), "suggestion") {
        Ok(parsed) => check::check(league, &parsed),
        // A list we wrote ourselves always reads; an unreadable one is simply not valid.
        Err(e) => check::Report {
            violations: vec![check::Violation {
                rule: "fixture list",
                fixture: String::new(),
                date: None,
                detail: e.to_string(),
            }],
            quality: check::quality(league, &[]),
        },
    }
}

/// Every date from `from` on which fixture `index` of `list` could be played, its other
/// fixtures kept, best first (by the change in the objective, then by date).
pub fn suggest(
    league: &League,
    list: &FixtureList,
    index: usize,
    from: NaiveDate,
) -> Vec<Suggestion> {
    let m = list.matches[index];
    let before = checked(league, list).quality;
    let gap = i64::from(league.rules.min_days_between);
    let others = |t: TeamId| -> Vec<NaiveDate> {
        list.matches
            .iter()
            .enumerate()
            .filter(|&(i, x)| i != index && (x.home == t || x.away == t))
            .map(|(_, x)| x.date)
            // Its teams' cup ties, play-offs and replays keep their rest days too.
            .chain(
                list.extra
                    .iter()
                    .filter(|e| e.home == t || e.away == t)
                    .map(|e| e.date),
            )
            .collect()
    };
    let (home_dates, away_dates) = (others(m.home), others(m.away));
    let rested =
        |dates: &[NaiveDate], d: NaiveDate| dates.iter().all(|&x| (x - d).num_days().abs() >= gap);
    let mut out = Vec::new();
    for d in league.season_dates().filter(|&d| d >= from && d != m.date) {
        if league.playable(m.home, m.away, d).is_err()
            || !rested(&home_dates, d)
            || !rested(&away_dates, d)
        {
            continue;
        }
        let mut moved = list.clone();
        moved.matches[index] = Match { date: d, ..m };
        let moved = FixtureList::new(moved.matches, league).with_extra(list.extra.clone());
        let report = checked(league, &moved);
        if !report.is_valid() {
            continue;
        }
        out.push(Suggestion {
            date: d,
            change: report.quality.objective - before.objective,
            costs: costs(league, &before, &report.quality, &[m.home, m.away], d),
        });
    }
    out.sort_by(|a, b| a.change.total_cmp(&b.change).then(a.date.cmp(&b.date)));
    out
}

/// What changes for the fixture's teams, in words.
fn costs(
    league: &League,
    before: &Quality,
    after: &Quality,
    teams: &[TeamId],
    date: NaiveDate,
) -> Vec<String> {
    let mut out = Vec::new();
    for &t in teams {
        let name = &league.teams[t].name;
        let (Some(b), Some(a)) = (figures(before, name), figures(after, name)) else {
            continue;
        };
        match a.breaks as i64 - b.breaks as i64 {
            0 => {}
            1 => out.push(format!(
                "{name}: one more break (two home or two away matches in a row)"
            )),
            n if n > 1 => out.push(format!(
                "{name}: {n} more breaks (home or away matches in a row)"
            )),
            -1 => out.push(format!("{name}: one break fewer")),
            n => out.push(format!("{name}: {} breaks fewer", -n)),
        }
        let long = i64::from(league.weights.long_rest_days);
        if let (Some(x), Some(y)) = (b.longest_rest, a.longest_rest) {
            if y > x && y > long {
                out.push(format!(
                    "{name}: a wait of {y} days between matches (was at most {x})"
                ));
            }
        }
        let short = i64::from(league.weights.short_rest_days);
        if let (Some(x), Some(y)) = (b.shortest_rest, a.shortest_rest) {
            if y < x && y < short {
                out.push(format!("{name}: only {y} days between two matches"));
            }
        }
        if league.teams[t].avoid.contains(&date) {
            out.push(format!("{name} would rather not play on {date}"));
        }
        if a.spread > b.spread + 0.05 {
            out.push(format!(
                "{name}: matches less evenly spread ({:.0}% from even, was {:.0}%)",
                a.spread * 100.0,
                b.spread * 100.0
            ));
        }
    }
    out
}

fn figures<'a>(q: &'a Quality, name: &str) -> Option<&'a TeamFigures> {
    q.teams.iter().find(|t| t.name == *name)
}
