//! Builds the mixed-integer model from a league: one binary per candidate slot
//! (fixture, home, date), then one small pass per rule, each adding its own rows.
//!
//! The passes are independent and testable alone; `build` runs them all.

mod candidates;
pub mod quality;
pub mod rules;

pub use candidates::{candidates, Candidates, Impossible, Slot};

use crate::model::{League, Weights};
use good_lp::{variable, Constraint, Expression, ProblemVariables, Variable};

/// The model under construction: variables, rows and objective.
pub struct Mip {
    pub vars: ProblemVariables,
    /// One binary per candidate slot, same index as `Candidates::slots`.
    pub x: Vec<Variable>,
    pub constraints: Vec<Constraint>,
    pub objective: Expression,
}

impl Mip {
    pub fn new(cand: &Candidates) -> Self {
        let mut vars = ProblemVariables::new();
        let x = vars.add_vector(variable().binary(), cand.slots.len());
        Mip {
            vars,
            x,
            constraints: Vec::new(),
            objective: Expression::default(),
        }
    }

    /// Sum of the slot variables named by `slots`.
    pub fn sum(&self, slots: impl IntoIterator<Item = usize>) -> Expression {
        let mut e = Expression::default();
        for s in slots {
            e += self.x[s];
        }
        e
    }

    pub fn binary(&mut self) -> Variable {
        self.vars.add(variable().binary())
    }
}

/// A pass adds the rows of one rule.
pub type Pass = fn(&League, &Candidates, &mut Mip);

/// Every rule of sections 5–8 of the spec, in order.
pub const PASSES: &[(&str, Pass)] = &[
    ("fixture_once", rules::fixture_once),
    ("rest_days", rules::rest_days),
    ("home_away_balance", rules::home_away_balance),
    ("venue_capacity", rules::venue_capacity),
    ("same_club_first", rules::same_club_first),
    ("max_consecutive_weeks", rules::max_consecutive_weeks),
    ("max_home_dates", rules::max_home_dates),
];

/// The whole model of a league.
pub fn build(league: &League, cand: &Candidates, weights: &Weights) -> Mip {
    build_for(league, cand, weights, None)
}

/// The quality terms of some teams only: when most fixtures are pinned, the other teams'
/// quality is a constant, except through the worst spread, which is at least theirs.
#[derive(Debug, Clone, Copy)]
pub struct Focus<'a> {
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
    quality::add_quality(league, cand, &mut mip, weights, focus);
    mip
}
