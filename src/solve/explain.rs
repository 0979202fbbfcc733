//! Why a league has no schedule: the elastic model.
//!
//! Every rule's row gets a penalised slack, and slots ruled out only by a team's unavailable
//! dates, a late start, or a league or venue closure come back at a cost (see
//! `formulate::build_elastic`). HiGHS finds the fewest relaxations that make a schedule
//! possible; they are reported by team, venue, club and date, in words a fixtures secretary
//! can act on.

use super::{run_mip, Options, RunSpec, RunStatus, SolveError};
use crate::formulate::{self, Candidates, Slack};
use crate::model::{League, Rerun, TeamId, Unplayable, Weights};
use chrono::NaiveDate;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

/// A rule of the league that a relaxation bends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    // The first six are listed as their names sort, the order relaxations are reported in.
    /// The league's closed dates.
    Closed,
    /// Dates a cup keeps for its ties.
    #[serde(rename = "cup reserve")]
    CupReserve,
    /// A team's first date.
    Start,
    /// A team's unavailable dates.
    Unavailable,
    /// A team's dates it cannot play away.
    UnavailableAway,
    /// A venue's closed dates.
    #[serde(rename = "venue closed")]
    VenueClosed,
    /// Days between a team's matches.
    MinDaysBetween,
    /// A team's home and away matches.
    HomeAwayBalance,
    /// Matches a venue holds on a date.
    Capacity,
    /// Club-mates play each other first.
    SameClubFirst,
    /// Weeks in a row with a match.
    MaxConsecutiveWeeks,
    /// A club's home dates.
    MaxHomeDates,
    /// A `[[constraint]]` of the league file.
    Constraint,
}

impl Rule {
    /// The rule as the league file names it.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::Unavailable => "unavailable",
            Rule::UnavailableAway => "unavailable_away",
            Rule::Start => "start",
            Rule::CupReserve => "cup reserve",
            Rule::Closed => "closed",
            Rule::VenueClosed => "venue closed",
            Rule::MinDaysBetween => "min_days_between",
            Rule::HomeAwayBalance => "home_away_balance",
            Rule::Capacity => "capacity",
            Rule::SameClubFirst => "same_club_first",
            Rule::MaxConsecutiveWeeks => "max_consecutive_weeks",
            Rule::MaxHomeDates => "max_home_dates",
            Rule::Constraint => "constraint",
        }
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for Rule {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// One relaxation that, with the others reported, makes a schedule possible.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Relaxation {
    /// The rule it bends.
    pub rule: Rule,
    /// The team, club, venue or division concerned.
    pub who: String,
    /// The dates concerned (empty for a rule that concerns no date).
    pub dates: Vec<NaiveDate>,
    /// The relaxation in plain words.
    pub message: String,
}

/// The relaxations the elastic model found, and whether HiGHS proved them the fewest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    /// Relaxations that together make a schedule possible.
    pub relaxations: Vec<Relaxation>,
    /// True when HiGHS proved no cheaper set exists; false when this is the best it found
    /// within its time.
    pub proven_smallest: bool,
}

/// The fewest relaxations the elastic model finds within `time_limit` seconds; `None` when it
/// finds none in time (or the league is feasible after all).
pub fn explain(
    league: &League,
    rerun: &Rerun,
    opts: &Options,
    time_limit: f64,
) -> Result<Option<Explanation>, SolveError> {
    let cand = formulate::candidates_elastic(league, rerun);
    if cand.by_fixture.iter().any(|s| s.is_empty()) {
        return Ok(None); // some fixture has no date even relaxed: the pre-checks said why
    }
    let begun = Instant::now();
    let mip = formulate::build_elastic(league, &cand);
    let slacks = mip.elastic.clone().unwrap_or_default();
    let spec = RunSpec {
        weights: &Weights::avoid_only(),
        seed: opts.seed,
        time_limit,
        max_nodes: None,
        start: None,
        teams: None,
    };
    let (run, values) = run_mip(mip, opts, Instant::now(), begun, &spec)?;
    let (Some(chosen), Some(values)) = (run.chosen, values) else {
        return Ok(None);
    };
    let mut out = relaxed_slots(league, &cand, &chosen);
    // The slacks the schedule uses, each once.
    let used = |c: usize| values.get(c).copied().unwrap_or(0.0) > 1e-6;
    let mut rest_teams: Vec<(TeamId, NaiveDate)> = Vec::new();
    let mut seen: Vec<Slack> = Vec::new();
    for (slack, column) in &slacks {
        if !used(*column) {
            continue;
        }
        match slack {
            Slack::Rest { team, date } => rest_teams.push((*team, *date)),
            other if !seen.contains(other) => seen.push(other.clone()),
            _ => {}
        }
    }
    out.extend(rest_relaxations(league, &cand, &chosen, &rest_teams));
    out.extend(seen.into_iter().filter_map(|s| slack_relaxation(league, s)));
    Ok((!out.is_empty()).then_some(Explanation {
        relaxations: out,
        proven_smallest: run.status == RunStatus::Optimal,
    }))
}

/// Whom a relaxed slot concerns: a team (by id, for its start) or a league, cup or venue.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Who {
    name: String,
    team: Option<TeamId>,
}

/// The relaxed slots the schedule uses, one relaxation per rule and whom it concerns.
fn relaxed_slots(league: &League, cand: &Candidates, chosen: &[usize]) -> Vec<Relaxation> {
    let team = |t: TeamId| Who {
        name: league.teams[t].name.clone(),
        team: Some(t),
    };
    let other = |name: String| Who { name, team: None };
    let mut groups: BTreeMap<(Rule, Who), Vec<NaiveDate>> = BTreeMap::new();
    for &s in chosen {
        let slot = cand.slots[s];
        for why in cand.relaxed.get(s).into_iter().flatten() {
            let (rule, who) = match *why {
                Unplayable::Unavailable(t) => (Rule::Unavailable, team(t)),
                Unplayable::UnavailableAway => (Rule::UnavailableAway, team(slot.away)),
                Unplayable::BeforeStart(t) => (Rule::Start, team(t)),
                Unplayable::CupReserved(t, c) => (
                    Rule::CupReserve,
                    other(format!(
                        "{} ({})",
                        league.teams[t].name, league.cups[c].name
                    )),
                ),
                Unplayable::LeagueClosed => (Rule::Closed, other(league.name.clone())),
                Unplayable::VenueClosed => (
                    Rule::VenueClosed,
                    other(
                        league.venues[league.fixture_venue(slot.home, slot.away)]
                            .name
                            .clone(),
                    ),
                ),
                _ => continue,
            };
            groups.entry((rule, who)).or_default().push(slot.date);
        }
    }
    groups
        .into_iter()
        .map(|((rule, who), mut dates)| {
            dates.sort();
            dates.dedup();
            let list = dates
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            let (n, name) = (dates.len(), &who.name);
            let message = match rule {
                Rule::Unavailable => {
                    format!("{name} could play on {n} of its unavailable dates ({list})")
                }
                Rule::UnavailableAway => {
                    format!("{name} could play away on {n} of its unavailable_away dates ({list})")
                }
                Rule::Start => format!(
                    "{name} could start on {} instead of {}",
                    dates[0],
                    who.team
                        .map_or("-".into(), |t| league.teams[t].start.to_string())
                ),
                Rule::Closed => format!("the league were open on {n} of its closed dates ({list})"),
                _ => format!("{name} were open on {list}"),
            };
            Relaxation {
                rule,
                who: who.name,
                dates,
                message,
            }
        })
        .collect()
}

/// min_days_between, per division: the closest two matches of a team in the elastic
/// schedule, and the teams and dates that need the relaxation.
fn rest_relaxations(
    league: &League,
    cand: &Candidates,
    chosen: &[usize],
    rest_teams: &[(TeamId, NaiveDate)],
) -> Vec<Relaxation> {
    let mut by_division: BTreeMap<usize, (i64, Vec<NaiveDate>, Vec<TeamId>)> = BTreeMap::new();
    for &(t, date) in rest_teams {
        let mut days: Vec<NaiveDate> = chosen
            .iter()
            .map(|&s| cand.slots[s])
            .filter(|s| s.home == t || s.away == t)
            .map(|s| s.date)
            .collect();
        days.sort();
        let closest = days
            .windows(2)
            .map(|w| (w[1] - w[0]).num_days())
            .min()
            .unwrap_or(0);
        let e = by_division.entry(league.teams[t].division).or_insert((
            i64::MAX,
            Vec::new(),
            Vec::new(),
        ));
        e.0 = e.0.min(closest);
        e.1.push(date);
        if !e.2.contains(&t) {
            e.2.push(t);
        }
    }
    by_division
        .into_iter()
        .map(|(d, (closest, mut dates, teams))| {
            dates.sort();
            dates.dedup();
            let names: Vec<&str> = teams
                .iter()
                .map(|&t| league.teams[t].name.as_str())
                .collect();
            Relaxation {
                rule: Rule::MinDaysBetween,
                who: league.divisions[d].name.clone(),
                dates,
                message: format!(
                    "{}'s teams could play {closest} days apart (min_days_between is {}; {})",
                    league.divisions[d].name,
                    league.rules.min_days_between,
                    names.join(", ")
                ),
            }
        })
        .collect()
}

/// The relaxation a used slack stands for (none for a rest slack, reported per division, or
/// a draft's difference).
fn slack_relaxation(league: &League, slack: Slack) -> Option<Relaxation> {
    let name = |t: TeamId| league.teams[t].name.clone();
    let (rule, who, dates, message) = match slack {
        Slack::Balance { team } => (
            Rule::HomeAwayBalance,
            name(team),
            vec![],
            format!(
                "{}'s home and away matches could differ by more than {}",
                name(team),
                league.rules.home_away_balance
            ),
        ),
        Slack::Capacity { venue, date } => {
            let v = &league.venues[venue];
            (
                Rule::Capacity,
                v.name.clone(),
                vec![date],
                format!(
                    "{} could host more than {} matches on {date}",
                    v.name,
                    v.capacity_on(date)
                ),
            )
        }
        Slack::SameClubFirst { team } => (
            Rule::SameClubFirst,
            name(team),
            vec![],
            format!(
                "{} could play a club-mate after its first match against another club",
                name(team)
            ),
        ),
        Slack::ConsecutiveWeeks { team } => (
            Rule::MaxConsecutiveWeeks,
            name(team),
            vec![],
            format!(
                "{} could play in more than {} consecutive weeks",
                name(team),
                league.rules.max_consecutive_weeks.unwrap_or(0)
            ),
        ),
        Slack::HomeDates { club } => (
            Rule::MaxHomeDates,
            league.clubs[club].name.clone(),
            vec![],
            format!(
                "{} could host on more than {} dates",
                league.clubs[club].name,
                league.clubs[club].max_home_dates.unwrap_or(0)
            ),
        ),
        Slack::Constraint { constraint } => {
            let c = &league.constraints[constraint];
            (
                Rule::Constraint,
                c.name.clone(),
                vec![],
                format!("the constraint \"{}\" could be broken", c.name),
            )
        }
        Slack::SameAsEarlierDraft | Slack::Rest { .. } => return None,
    };
    Some(Relaxation {
        rule,
        who,
        dates,
        message,
    })
}
