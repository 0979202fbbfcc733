//! Presenting fixture lists: comparisons (`compare`), and the published site and calendars
//! (`site`). The fixture list's own CSV is `model::FixtureList::to_csv`, written only by the
//! pipeline.

pub mod compare;
pub mod site;
