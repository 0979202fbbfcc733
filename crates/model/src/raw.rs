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
    #[serde(default)]
    pub late: Vec<Spanned<RawFixed>>,
    pub weights: Option<Spanned<RawWeights>>,
    pub colours: Option<Spanned<RawColours>>,
    pub cup: Option<Spanned<RawCups>>,
    /// Extension: the league's time zone (IANA name; default Europe/London).
    pub timezone: Option<Spanned<String>>,
    pub changes: Option<Spanned<RawChanges>>,
    #[serde(default)]
    pub neutral: Vec<Spanned<RawNeutral>>,
    /// Extension: RobinX-style constraints, hard or soft.
    #[serde(default)]
    pub constraint: Vec<Spanned<RawConstraint>>,
    /// Extension: what defaults cost in the tables.
    pub penalties: Option<Spanned<RawPenalties>>,
}

/// Extension: default points and match-point deductions (Sussex rule 6, 4NCL rule 10).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPenalties {
    /// Default points for a default on board 1, 2, ...
    pub board_points: Option<Vec<Spanned<i64>>>,
    /// Each this many default points cost one match point.
    pub per_match_point: Option<Spanned<i64>>,
    /// Match points a serious default costs (a replayed match).
    pub serious_default: Option<Spanned<i64>>,
    /// Deductions never take match points below zero.
    pub not_below_zero: Option<Spanned<bool>>,
    /// Forfeits after which a team is excluded.
    pub forfeits_exclude: Option<Spanned<i64>>,
}

/// Extension: one `[[constraint]]` (see `constraint.rs`); which keys apply depends on `kind`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawConstraint {
    pub name: Option<Spanned<String>>,
    pub kind: Spanned<String>,
    pub teams: Option<Vec<Spanned<String>>>,
    pub opponents: Option<Vec<Spanned<String>>>,
    pub side: Option<Spanned<String>>,
    pub dates: Option<RawList>,
    pub max: Option<Spanned<i64>>,
    pub min: Option<Spanned<i64>>,
    pub weeks: Option<Spanned<i64>>,
    pub days: Option<Spanned<i64>>,
    pub per: Option<Spanned<String>>,
    pub fixtures: Option<Vec<Spanned<RawExcluded>>>,
    pub weight: Option<Spanned<f64>>,
}

/// Extension: knockout cups over the league's teams.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCup {
    /// The cup's name (default "Cup").
    pub name: Option<Spanned<String>>,
    /// The entrants (default: every team).
    pub teams: Option<Vec<Spanned<String>>>,
    /// Last year's finalists, kept apart until the final.
    #[serde(default)]
    pub finalists: Vec<Spanned<String>>,
    /// The last date of each round, the final's last.
    pub deadlines: Option<RawList>,
    /// The first date of the first round (default: the league's start).
    pub opens: Option<RawValue>,
    /// Zones (e.g. West and East): first-round ties stay within a zone.
    pub zones: Option<BTreeMap<String, Vec<Spanned<String>>>>,
    /// Dates the home captain offers (default 2, KO rule 5).
    pub offer: Option<Spanned<i64>>,
    /// Offered dates lie at least this many days after the round opens (default 0).
    pub notice_days: Option<Spanned<i64>>,
    /// Dates kept for the cup: its entrants play no league match on them.
    pub reserve: Option<RawList>,
    /// Whether its ties may be played on a Saturday or Sunday at the home venue.
    pub weekends: Option<Spanned<bool>>,
    /// Whether a coin toss decides its ties' colours (not the league's `[colours]`).
    pub coin_toss: Option<Spanned<bool>>,
    /// Whether three entrants play an all-play-all instead of a knockout with a bye.
    pub all_play_all_of_three: Option<Spanned<bool>>,
    /// Whether offered dates avoid the away club's other fixtures.
    pub avoid_away_club: Option<Spanned<bool>>,
    /// The pairing tree as drawn: its positions in order, a team or "" for a bye.
    pub draw: Option<Vec<Spanned<String>>>,
    /// Entrants knocked out: the cup's reserved dates no longer bind them.
    pub out: Option<Vec<Spanned<String>>>,
}

/// `[cup]` (one cup) or `[[cup]]` (several).
#[derive(Debug)]
pub enum RawCups {
    One(Box<RawCup>),
    Many(Vec<Spanned<RawCup>>),
}

impl RawCups {
    pub fn all(&self) -> Vec<&RawCup> {
        match self {
            RawCups::One(c) => vec![c.as_ref()],
            RawCups::Many(v) => v.iter().map(|c| c.get_ref()).collect(),
        }
    }
}

impl<'de> Deserialize<'de> for RawCups {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = RawCups;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a [cup] table or [[cup]] tables")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<RawCups, A::Error> {
                let cup = RawCup::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(RawCups::One(Box::new(cup)))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<RawCups, A::Error> {
                let cups = Vec::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))?;
                Ok(RawCups::Many(cups))
            }
        }
        d.deserialize_any(V)
    }
}

/// Extension (Sussex rule 2.6): when a fixture may be moved by mutual agreement.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawChanges {
    /// The date the fixture list was issued.
    pub issued: RawValue,
    /// Matches on or before this date: changes agreed up to `early_days` after the issue.
    pub early_until: Option<RawValue>,
    pub early_days: Option<Spanned<i64>>,
    /// Later matches: changes agreed at least this many days before the original date.
    pub notice_days: Option<Spanned<i64>>,
    /// Both clubs notify the secretary within this many days of agreeing.
    pub notify_days: Option<Spanned<i64>>,
    /// Whether an agreed change may move a match to a Saturday or Sunday (Sussex rule 2.6:
    /// "mutually agreed weekend arrangements").
    pub weekends: Option<Spanned<bool>>,
}

/// Extension (Sussex rule 2.3): a fixture played at a "half-way house" venue.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawNeutral {
    pub home: Spanned<String>,
    pub away: Spanned<String>,
    pub venue: Spanned<String>,
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
    /// Extension: how teams level on match points are placed (a list of names, or one string
    /// of them separated by commas).
    pub tie_breaks: Option<RawValue>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawVenue {
    pub name: Spanned<String>,
    /// Extension: when matches there start ("19:30").
    pub start_time: Option<Spanned<String>>,
    pub capacity: Option<Spanned<i64>>,
    #[serde(default)]
    pub capacity_on: Option<Spanned<BTreeMap<Spanned<String>, Spanned<i64>>>>,
    pub closed: Option<RawList>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawClub {
    pub name: Spanned<String>,
    /// Extension: when the club's home matches start ("19:30").
    pub start_time: Option<Spanned<String>>,
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
    /// Extension: how the division's teams level on match points are placed (as `[rules]`'s).
    pub tie_breaks: Option<RawValue>,
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
    /// Extension: dates the team cannot play that it gave after the fixture list went out.
    pub unavailable_later: Option<RawList>,
    /// Extension: the team's strength (e.g. its average FIDE rating), to balance pools.
    pub rating: Option<Spanned<f64>>,
    /// Extension (Sussex Rapid League): the second club of a team entered jointly.
    pub joint_with: Option<Spanned<String>>,
    /// Extension: which of the joint clubs hosts each opponent (opponent → club); the others
    /// in turn.
    pub hosts: Option<BTreeMap<String, Spanned<String>>>,
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
