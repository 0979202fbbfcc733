//! The league file as written: serde structures that keep the position of every key,
//! so that validation can name the line of anything it refuses.
//!
//! Values whose spelling is flexible (dates, date lists, weekdays) are kept as raw TOML
//! values here and interpreted in `load.rs`, where a bad one gets a precise message.

use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

pub type RawValue = Spanned<toml::Value>;
pub type RawList = Spanned<Vec<RawValue>>;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLeague {
    pub name: Spanned<String>,
    pub start: RawValue,
    pub end: RawValue,
    #[serde(default)]
    pub closed: Option<RawList>,
    #[serde(default)]
    pub rules: Option<Spanned<RawRules>>,
    #[serde(default)]
    pub venue: Vec<Spanned<RawVenue>>,
    #[serde(default)]
    pub club: Vec<Spanned<RawClub>>,
    #[serde(default)]
    pub division: Vec<Spanned<RawDivision>>,
    #[serde(default)]
    pub team: Vec<Spanned<RawTeam>>,
    #[serde(default)]
    pub fixed: Vec<Spanned<RawFixed>>,
    #[serde(default)]
    pub excluded: Vec<Spanned<RawExcluded>>,
    pub weights: Option<Spanned<RawWeights>>,
    pub colours: Option<Spanned<RawColours>>,
    pub cup: Option<Spanned<RawCup>>,
}

/// Extension: a knockout cup over the league's teams.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCup {
    /// The entrants (default: every team).
    pub teams: Option<Vec<Spanned<String>>>,
    /// Last year's finalists, kept apart until the final.
    #[serde(default)]
    pub finalists: Vec<Spanned<String>>,
}

/// Extension: which side has White on the odd-numbered boards (so on board 1).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawColours {
    pub odd_boards_white: Spanned<String>,
}

/// Extension: weights of the soft goals.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWeights {
    pub breaks: Option<Spanned<f64>>,
    pub avoid: Option<Spanned<f64>>,
    pub long_rest: Option<Spanned<f64>>,
    pub long_rest_days: Option<Spanned<i64>>,
    pub short_rest: Option<Spanned<f64>>,
    pub short_rest_days: Option<Spanned<i64>>,
    pub spread: Option<Spanned<f64>>,
    pub spread_max: Option<Spanned<f64>>,
    pub winter: Option<Spanned<f64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRules {
    pub min_days_between: Option<Spanned<i64>>,
    pub same_club_first: Option<bool>,
    pub home_away_balance: Option<Spanned<i64>>,
    pub max_unavailable: Option<Spanned<i64>>,
    pub latest_internal_date: Option<RawValue>,
    pub max_consecutive_weeks: Option<Spanned<i64>>,
    /// Extension: `format = "auto"` plays a double round robin up to this many teams.
    pub double_up_to: Option<Spanned<i64>>,
    /// Extension: at most this many teams of one club in a division (4NCL rule 13.7).
    pub max_club_teams_per_division: Option<Spanned<i64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawVenue {
    pub name: Spanned<String>,
    pub capacity: Option<Spanned<i64>>,
    #[serde(default)]
    pub capacity_on: Option<Spanned<BTreeMap<Spanned<String>, Spanned<i64>>>>,
    pub closed: Option<RawList>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawClub {
    pub name: Spanned<String>,
    pub venue: Option<Spanned<String>>,
    pub nights: Option<RawList>,
    pub home_dates: Option<RawList>,
    pub start: Option<RawValue>,
    pub unavailable: Option<RawList>,
    pub unavailable_away: Option<RawList>,
    pub max_home_dates: Option<Spanned<i64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDivision {
    pub name: Spanned<String>,
    pub format: Option<Spanned<String>>,
    /// Extension: a compact division's round dates.
    pub rounds: Option<RawList>,
    /// Extension: a central venue for all the division's matches.
    pub venue: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTeam {
    pub name: Spanned<String>,
    pub club: Spanned<String>,
    pub division: Spanned<String>,
    pub venue: Option<Spanned<String>>,
    pub nights: Option<RawList>,
    pub home_dates: Option<RawList>,
    pub start: Option<RawValue>,
    pub unavailable: Option<RawList>,
    pub unavailable_away: Option<RawList>,
    pub avoid: Option<RawList>,
    /// Extension: the team's strength (e.g. its average FIDE rating), to balance pools.
    pub rating: Option<Spanned<f64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFixed {
    pub home: Spanned<String>,
    pub away: Spanned<String>,
    pub date: RawValue,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawExcluded {
    pub home: Spanned<String>,
    pub away: Spanned<String>,
}

impl RawClub {
    pub fn hosting(&self) -> RawHostingRef<'_> {
        RawHostingRef {
            venue: self.venue.as_ref(),
            nights: self.nights.as_ref(),
            home_dates: self.home_dates.as_ref(),
            start: self.start.as_ref(),
            unavailable: self.unavailable.as_ref(),
            unavailable_away: self.unavailable_away.as_ref(),
        }
    }
}

impl RawTeam {
    pub fn hosting(&self) -> RawHostingRef<'_> {
        RawHostingRef {
            venue: self.venue.as_ref(),
            nights: self.nights.as_ref(),
            home_dates: self.home_dates.as_ref(),
            start: self.start.as_ref(),
            unavailable: self.unavailable.as_ref(),
            unavailable_away: self.unavailable_away.as_ref(),
        }
    }
}

/// A borrowed view of the keys clubs and teams share.
#[derive(Clone, Copy)]
pub struct RawHostingRef<'a> {
    pub venue: Option<&'a Spanned<String>>,
    pub nights: Option<&'a RawList>,
    pub home_dates: Option<&'a RawList>,
    pub start: Option<&'a RawValue>,
    pub unavailable: Option<&'a RawList>,
    pub unavailable_away: Option<&'a RawList>,
}
