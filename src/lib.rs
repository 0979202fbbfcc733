//! `fixtures`: a fixture-scheduling optimiser for amateur team leagues.
//!
//! - [`model`]: the league file, parsed and validated (pure data).
//! - [`formulate`]: the mixed-integer model, one pass per rule (good_lp).
//! - [`solve`]: HiGHS runs in parallel with restarts; outcomes apart from errors.
//! - [`check`]: the independent checker and quality figures (shares no code with the model).
//! - [`report`]: writing fixture lists.

pub mod check;
pub mod formulate;
pub mod model;
pub mod report;
pub mod solve;
