//! Competitions beyond the evening round robin: FIDE Berger tables, knockout cup draws with
//! Scheveningen matches, Swiss pairings, and how a table places its teams.

pub mod berger;
pub mod cup;
pub mod ncl;
pub mod swiss;
pub mod table;
