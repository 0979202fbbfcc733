//! Builds the mixed-integer model from a league: one binary per candidate slot
//! (fixture, home, date), then one small pass per rule, each adding its own rows.
//!
//! The passes are independent and testable alone; `build` runs them all.

mod candidates;
pub mod constraints;
pub mod precheck;
pub mod quality;
pub mod rules;
pub mod symmetry;
pub mod team_bound;

pub use candidates::{candidates, candidates_elastic, count_slots, Candidates, Slot};

use crate::model::{ClubId, League, TeamId, VenueId, Weights};
use chrono::NaiveDate;
use good_lp::{variable, Constraint, Expression, ProblemVariables, Variable};

/// The model under construction: variables, rows and objective.
pub struct Mip {
    /// The columns.
    pub vars: ProblemVariables,
    /// One binary per candidate slot, same index as `Candidates::slots`.
    pub x: Vec<Variable>,
    /// The rows.
    pub constraints: Vec<Constraint>,
    /// The objective to minimise.
    pub objective: Expression,
    /// The elastic model (explaining infeasibility): each rule's row gets a penalised slack,
    /// listed here with what relaxing it means.
    /// (what relaxing it means, the slack's column index).
    pub elastic: Option<Vec<(Slack, usize)>>,
}

/// A rule relaxed in the elastic model: which rule, for whom, where.
#[derive(Debug, Clone, PartialEq)]
pub enum Slack {
    /// A team plays twice within `min_days_between` days starting on this date.
    Rest {
        /// The team.
        team: TeamId,
        /// The first date of the window.
        date: NaiveDate,
    },
    /// A team's home and away matches differ by more than `home_away_balance`.
    Balance {
        /// The team.
        team: TeamId,
    },
    /// A venue hosts more than its capacity on a date.
    Capacity {
        /// The venue.
        venue: VenueId,
        /// The date.
        date: NaiveDate,
    },
    /// A team plays a club-mate after one of its other matches (`same_club_first`).
    SameClubFirst {
        /// The team.
        team: TeamId,
    },
    /// A team plays in more than `max_consecutive_weeks` weeks in a row.
    ConsecutiveWeeks {
        /// The team.
        team: TeamId,
    },
    /// A club hosts on more than `max_home_dates` dates.
    HomeDates {
        /// The club.
        club: ClubId,
    },
    /// More fixtures than allowed keep an earlier draft's date.
    SameAsEarlierDraft,
    /// A `[[constraint]]` of the league file is over its limit.
    Constraint {
        /// Its index in `League::constraints`.
        constraint: usize,
    },
}

/// The penalty of one relaxed slot (per rule it breaks) in the elastic model: playing on a date
/// a team said it cannot, or before its start, or on a closed date.
pub const ELASTIC_COST: f64 = 1.0;
/// The penalty of one unit of a rule's slack: dearer than a relaxed date, so an explanation
/// asks one team for a date before it asks a whole division to change a rule.
pub const ELASTIC_RULE_COST: f64 = 2.0;

impl Mip {
    /// An empty model with one binary column per candidate slot.
    pub fn new(cand: &Candidates) -> Self {
        let mut vars = ProblemVariables::new();
        let x = vars.add_vector(variable().binary(), cand.slots.len());
        Mip {
            vars,
            x,
            constraints: Vec::new(),
            objective: Expression::default(),
            elastic: None,
        }
    }

    /// `e <= max`: a hard row, or in the elastic model one with a penalised slack.
    pub fn limit(&mut self, e: Expression, max: f64, slack: impl FnOnce() -> Slack) {
        match self.elastic.is_some() {
            true => {
                let column = self.vars.len();
                let s = self.vars.add(variable().min(0.0));
                self.objective += ELASTIC_RULE_COST * s;
                self.constraints.push((e - s).leq(max));
                if let Some(list) = &mut self.elastic {
                    list.push((slack(), column));
                }
            }
            false => self.constraints.push(e.leq(max)),
        }
    }

    /// `e >= min`, as `limit`.
    pub fn at_least(&mut self, e: Expression, min: f64, slack: impl FnOnce() -> Slack) {
        self.limit(-e, -min, slack)
    }

    /// Sum of the slot variables named by `slots`.
    pub fn sum(&self, slots: impl IntoIterator<Item = usize>) -> Expression {
        let mut e = Expression::default();
        for s in slots {
            e += self.x[s];
        }
        e
    }

    /// A new binary column.
    pub fn binary(&mut self) -> Variable {
        self.vars.add(variable().binary())
    }
}

/// A pass adds the rows of one rule.
pub type Pass = fn(&League, &Candidates, &mut Mip);

/// Every rule of sections 5–8 of the spec, in order, and the league file's hard constraints.
pub const PASSES: &[(&str, Pass)] = &[
    ("fixture_once", rules::fixture_once),
    ("rest_days", rules::rest_days),
    ("home_away_balance", rules::home_away_balance),
    ("venue_capacity", rules::venue_capacity),
    ("same_club_first", rules::same_club_first),
    ("max_consecutive_weeks", rules::max_consecutive_weeks),
    ("max_home_dates", rules::max_home_dates),
    ("constraints", constraints::hard),
];

/// The whole model of a league.
pub fn build(league: &League, cand: &Candidates, weights: &Weights) -> Mip {
    build_for(league, cand, weights, None)
}

/// The elastic model of a league: the rules with penalised slacks, the relaxed slots (see
/// `candidates_elastic`) at a cost each, no quality terms. Its optimum is the fewest relaxations
/// that make a schedule possible.
pub fn build_elastic(league: &League, cand: &Candidates) -> Mip {
    let mut mip = Mip::new(cand);
    mip.elastic = Some(Vec::new());
    for (_, pass) in PASSES {
        pass(league, cand, &mut mip);
    }
    for (s, why) in cand.relaxed.iter().enumerate() {
        if !why.is_empty() {
            mip.objective += ELASTIC_COST * why.len() as f64 * mip.x[s];
        }
    }
    mip
}

/// The quality terms of some teams only: when most fixtures are pinned, the other teams'
/// quality is a constant, except through the worst spread, which is at least theirs.
#[derive(Debug, Clone, Copy)]
pub struct Focus<'a> {
    /// Per team: whether its quality terms are in the model.
    pub teams: &'a [bool],
    /// The worst spread of the teams left out.
    pub spread_floor: f64,
}

/// The model with the quality terms of only the teams in `focus` (all when `None`).
pub fn build_for(
    league: &League,
    cand: &Candidates,
    weights: &Weights,
    focus: Option<Focus>,
) -> Mip {
    let mut mip = Mip::new(cand);
    for (_, pass) in PASSES {
        pass(league, cand, &mut mip);
    }
    rules::avoid_dates(league, cand, &mut mip, weights.avoid);
    constraints::soft(league, cand, &mut mip);
    quality::add_quality(league, cand, &mut mip, weights, focus);
    mip
}
