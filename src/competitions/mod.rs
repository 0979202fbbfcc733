//! Competitions beyond the evening round robin: FIDE Berger tables, knockout cup draws with
//! Scheveningen matches, Swiss pairings.

pub mod berger;
pub mod cup;
pub mod ncl;
pub mod swiss;
