//! Why a league has no schedule: the elastic model.
//!
//! Every rule's row gets a penalised slack, and slots ruled out only by a team's unavailable
//! dates, a late start, or a league or venue closure come back at a cost (see
//! `formulate::build_elastic`). HiGHS finds the fewest relaxations that make a schedule
//! possible; they are reported by team, venue, club and date, in words a fixtures secretary
//! can act on.

use super::{run_mip, Options, RunSpec, RunStatus, SolveError};
use crate::formulate::{self, Slack};
use crate::model::{League, Rerun, TeamId, Unplayable, Weights};
use chrono::NaiveDate;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

/// One relaxation that, with the others reported, makes a schedule possible.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Relaxation {
    /// The rule: `unavailable`, `unavailable_away`, `start`, `closed`, `venue closed`,
    /// `min_days_between`, `home_away_balance`, `capacity`, `same_club_first`,
    /// `max_consecutive_weeks`, `max_home_dates`.
    pub rule: String,
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
    let name = |t: TeamId| league.teams[t].name.clone();
    let mut out = Vec::new();

    // Relaxed slots, grouped by the rule they break and whom it concerns.
    let mut groups: BTreeMap<(String, String), Vec<NaiveDate>> = BTreeMap::new();
    for &s in &chosen {
        let slot = cand.slots[s];
        for why in cand.relaxed.get(s).into_iter().flatten() {
            let (rule, who) = match *why {
                Unplayable::Unavailable(t) => ("unavailable", name(t)),
                Unplayable::UnavailableAway => ("unavailable_away", name(slot.away)),
                Unplayable::BeforeStart(t) => ("start", name(t)),
                Unplayable::CupReserved(t, c) => (
                    "cup reserve",
                    format!("{} ({})", name(t), league.cups[c].name),
                ),
                Unplayable::LeagueClosed => ("closed", league.name.clone()),
                Unplayable::VenueClosed => (
                    "venue closed",
                    league.venues[league.fixture_venue(slot.home, slot.away)]
                        .name
                        .clone(),
                ),
                _ => continue,
            };
            groups
                .entry((rule.to_string(), who))
                .or_default()
                .push(slot.date);
        }
    }
    for ((rule, who), mut dates) in groups {
        dates.sort();
        dates.dedup();
        let list = dates
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let n = dates.len();
        let message = match rule.as_str() {
            "unavailable" => format!("{who} could play on {n} of its unavailable dates ({list})"),
            "unavailable_away" => {
                format!("{who} could play away on {n} of its unavailable_away dates ({list})")
            }
            "start" => {
                let t = league.team_by_name(&who).map(|t| league.teams[t].start);
                format!(
                    "{who} could start on {} instead of {}",
                    dates[0],
                    t.map_or("-".into(), |d| d.to_string())
                )
            }
            "closed" => format!("the league were open on {n} of its closed dates ({list})"),
            _ => format!("{who} were open on {list}"),
        };
        out.push(Relaxation {
            rule,
            who,
            dates,
            message,
        });
    }

    // Slacks, grouped alike.
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
    // min_days_between: the closest two matches of a team in the elastic schedule, per division.
    let mut by_division: BTreeMap<usize, (i64, Vec<NaiveDate>, Vec<String>)> = BTreeMap::new();
    for &(t, date) in &rest_teams {
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
        if !e.2.contains(&name(t)) {
            e.2.push(name(t));
        }
    }
    for (d, (closest, mut dates, teams)) in by_division {
        dates.sort();
        dates.dedup();
        out.push(Relaxation {
            rule: "min_days_between".into(),
            who: league.divisions[d].name.clone(),
            dates,
            message: format!(
                "{}'s teams could play {closest} days apart (min_days_between is {}; {})",
                league.divisions[d].name,
                league.rules.min_days_between,
                teams.join(", ")
            ),
        });
    }
    for slack in seen {
        let (rule, who, dates, message) = match slack {
            Slack::Balance { team } => (
                "home_away_balance",
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
                    "capacity",
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
                "same_club_first",
                name(team),
                vec![],
                format!(
                    "{} could play a club-mate after its first match against another club",
                    name(team)
                ),
            ),
            Slack::ConsecutiveWeeks { team } => (
                "max_consecutive_weeks",
                name(team),
                vec![],
                format!(
                    "{} could play in more than {} consecutive weeks",
                    name(team),
                    league.rules.max_consecutive_weeks.unwrap_or(0)
                ),
            ),
            Slack::HomeDates { club } => (
                "max_home_dates",
                league.clubs[club].name.clone(),
                vec![],
                format!(
                    "{} could host on more than {} dates",
                    league.clubs[club].name,
                    league.clubs[club].max_home_dates.unwrap_or(0)
                ),
            ),
            Slack::SameAsEarlierDraft | Slack::Rest { .. } => continue,
        };
        out.push(Relaxation {
            rule: rule.into(),
            who,
            dates,
            message,
        });
    }
    Ok((!out.is_empty()).then_some(Explanation {
        relaxations: out,
        proven_smallest: run.status == RunStatus::Optimal,
    }))
}
