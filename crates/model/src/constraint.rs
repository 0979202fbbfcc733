//! The league file's `[[constraint]]` tables: the sports-scheduling vocabulary of RobinX
//! (Van Bulck et al., the ITC2021 format) in a league's own terms, each hard or soft.
//!
//! | kind | RobinX | what it limits |
//! |---|---|---|
//! | `matches` | CA1, CA2 | each team's matches (home, away or any) on some dates, against some opponents |
//! | `in_a_row` | CA3 | each team's matches (home, away or any) in every run of consecutive weeks |
//! | `between` | CA4 | matches between two groups of teams, on each date or in total |
//! | `fixtures` | GA1 | how many of some fixtures fall on some dates |
//! | `apart` | SE1 | the days between the two meetings of a pair (double round robin) |
//! | `level` | FA2 | home matches played by each team, kept level between teams on some dates |
//! | `breaks` | BR1, BR2 | breaks (two matches running both at home or both away) of each team, or of them all |

use crate::TeamId;
use chrono::NaiveDate;
use std::collections::BTreeSet;

/// Which of a team's matches a constraint counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Count {
    /// Its home matches.
    Home,
    /// Its away matches.
    Away,
    /// All its matches.
    Any,
}

impl Count {
    /// Whether a match of the team, at home or not, counts.
    pub fn counts(self, at_home: bool) -> bool {
        match self {
            Count::Home => at_home,
            Count::Away => !at_home,
            Count::Any => true,
        }
    }

    /// The word for the matches counted ("home", "away", "" for any).
    pub fn word(self) -> &'static str {
        match self {
            Count::Home => "home ",
            Count::Away => "away ",
            Count::Any => "",
        }
    }
}

/// One `[[constraint]]` of the league file.
#[derive(Debug, Clone, PartialEq)]
pub struct Constraint {
    /// What `check` and the solver call it: its `name` key, else "constraint N" (its place in
    /// the file, from 1).
    pub name: String,
    /// What it limits.
    pub kind: ConstraintKind,
    /// `None`: hard, never broken; `Some(w)`: soft, `w` per unit over its limit (a match too
    /// many, a pair too close) in `solve`'s objective.
    pub weight: Option<f64>,
}

/// What a constraint limits. Dates are `None` for the whole season.
#[derive(Debug, Clone, PartialEq)]
pub enum ConstraintKind {
    /// CA1/CA2: each team of `teams` plays at most `max` matches (`count`) against a team of
    /// `opponents` (any opponent when `None`) on `dates`.
    Matches {
        /// The teams each held to the limit.
        teams: Vec<TeamId>,
        /// The opponents counted (`None`: all).
        opponents: Option<Vec<TeamId>>,
        /// Which matches count.
        count: Count,
        /// The dates counted (`None`: all).
        dates: Option<BTreeSet<NaiveDate>>,
        /// The most allowed.
        max: u32,
    },
    /// CA3: each team of `teams` plays at most `max` matches (`count`) in any `weeks`
    /// consecutive calendar weeks (Monday to Sunday): "no three away in a row" in a weekly
    /// league is `count = away, weeks = 3, max = 2`.
    InARow {
        /// The teams each held to the limit.
        teams: Vec<TeamId>,
        /// Which matches count.
        count: Count,
        /// The length of the run of weeks.
        weeks: u32,
        /// The most allowed in any such run.
        max: u32,
    },
    /// CA4: matches between a team of `teams` and a team of `opponents` (the same list for
    /// matches within one group, e.g. local derbies): at most `max` on each date when
    /// `per_date`, else in total, on `dates`.
    Between {
        /// One group.
        teams: Vec<TeamId>,
        /// The other group (may equal `teams`).
        opponents: Vec<TeamId>,
        /// The dates counted (`None`: all).
        dates: Option<BTreeSet<NaiveDate>>,
        /// The most allowed.
        max: u32,
        /// Per date (true) or in total over `dates` (false).
        per_date: bool,
    },
    /// GA1: of the fixtures listed, at least `min` and at most `max` are played on `dates`.
    Fixtures {
        /// (home, away); in a single round robin either team may host.
        fixtures: Vec<(TeamId, TeamId)>,
        /// The dates.
        dates: BTreeSet<NaiveDate>,
        /// The fewest allowed.
        min: u32,
        /// The most allowed.
        max: u32,
    },
    /// SE1: the two meetings of any two teams of `teams` (in a double round robin) are at
    /// least `days` days apart.
    Apart {
        /// The teams whose pairs are held to it.
        teams: Vec<TeamId>,
        /// The fewest days from one meeting to the other.
        days: u32,
    },
    /// BR1 (`per_team`) and BR2: the breaks of each team of `teams` (two of its matches
    /// running, in date order, both at home or both away), or of them all, at most `max`.
    Breaks {
        /// The teams counted.
        teams: Vec<TeamId>,
        /// The most allowed, per team or in all.
        max: u32,
        /// Per team (BR1) or the teams' total (BR2).
        per_team: bool,
    },
    /// FA2: at the end of each of `dates`, the home matches any two teams of `teams` have
    /// played (league matches on or before it) differ by at most `max`.
    Level {
        /// The teams kept level.
        teams: Vec<TeamId>,
        /// The dates at whose end they are compared.
        dates: BTreeSet<NaiveDate>,
        /// The largest difference allowed.
        max: u32,
    },
}

impl ConstraintKind {
    /// The league file's name of the kind.
    pub fn key(&self) -> &'static str {
        match self {
            ConstraintKind::Matches { .. } => "matches",
            ConstraintKind::InARow { .. } => "in_a_row",
            ConstraintKind::Between { .. } => "between",
            ConstraintKind::Fixtures { .. } => "fixtures",
            ConstraintKind::Apart { .. } => "apart",
            ConstraintKind::Breaks { .. } => "breaks",
            ConstraintKind::Level { .. } => "level",
        }
    }
}

/// Whether a date lies in an optional set (`None`: every date).
pub fn on(dates: &Option<BTreeSet<NaiveDate>>, d: NaiveDate) -> bool {
    dates.as_ref().is_none_or(|s| s.contains(&d))
}
