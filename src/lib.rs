//! `fixtures`: a fixture-scheduling optimiser for amateur team leagues.
//!
//! - [`model`]: the league file, parsed and validated (pure data), and the neutral fixture list.
//! - [`formulate`]: the mixed-integer model, one pass per rule (good_lp), and the pre-checks.
//! - [`solve`]: the search (HiGHS and local search, in phases); outcomes apart from errors.
//! - [`check`]: the independent checker and quality figures (shares only the league loader).
//! - [`pipeline`]: solve, verify, and only then hand out a list: every entry point calls it.
//! - [`report`]: comparisons, the published site and calendars.
//! - [`competitions`]: Berger tables, cup draws and Scheveningen tables, Swiss pairings, 4NCL pools.
//! - [`import`]: the team-entry spreadsheet (CSV, XLSX) and its import into a league file.
//! - [`batch`]: many scenarios in parallel, with a summary.
//! - [`serve`]: the HTTP service and its web page.
//! - [`store`]: the service's data layer (SQLite or PostgreSQL), every query in one module.
//! - [`season`]: everything after the first draw: reruns (played fixtures stay, fewest moves)
//!   and their diffs, suggested dates for a move, knockout cups with offered dates, play-offs,
//!   replays, rule 2.6 change windows.
//! - [`files`]: files written whole or not at all.
#![warn(missing_docs)]

/// The independent checker (the `fixtures-check` crate, which depends on the model alone).
pub use fixtures_check as check;
/// The league file as pure data (the `fixtures-model` crate).
pub use fixtures_model as model;

pub mod batch;
pub mod competitions;
pub mod edit;
pub mod files;
pub mod formulate;
pub mod import;
pub mod pipeline;
pub mod report;
pub mod season;
pub mod serve;
pub mod solve;
pub mod store;
