//! `fixtures`: a fixture-scheduling optimiser for amateur team leagues.
//!
//! - [`model`]: the league file, parsed and validated (pure data).
//! - [`formulate`]: the mixed-integer model, one pass per rule (good_lp).
//! - [`solve`]: HiGHS runs in parallel with restarts; outcomes apart from errors.
//! - [`check`]: the independent checker and quality figures (shares no code with the model).
//! - [`report`]: fixture lists, comparisons, the published site and calendars.
//! - [`formats`]: Berger tables, cup draws and Scheveningen tables, Swiss pairings.
//! - [`batch`]: many scenarios in parallel, with a summary.
//! - [`serve`]: the HTTP service and its web page.
//! - [`reschedule`]: mid-season reruns (played fixtures stay, fewest moves) and their diffs.

pub mod batch;
pub mod check;
pub mod formats;
pub mod formulate;
pub mod model;
pub mod report;
pub mod reschedule;
pub mod serve;
pub mod solve;
