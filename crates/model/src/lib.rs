//! The league as pure data: what a league file says, resolved and validated.
//!
//! Nothing here knows about the MIP; `formulate` builds on it and `check` reads it.
#![warn(missing_docs)]

mod constraint;
mod dates;
mod error;
mod list;
mod load;
mod raw;
/// RobinX (ITC2021) instances and solutions.
pub mod robinx;
/// Small league files for tests (the `testing` feature: unit and integration tests alike).
#[cfg(feature = "testing")]
pub mod testing;

pub use constraint::{on, Constraint, ConstraintKind, Count};
pub use dates::{parse_iso_date, parse_list_date, parse_team_date, short_date};
pub use error::{InputError, InputErrors, Problem};
pub use list::{
    sort_matches, Extra, ExtraKind, FixtureList, Match, Rerun, CSV_HEADER, EXTRA_ROUNDS,
};
pub use load::{constraint_keys, parse_league, read_league, unsafe_name};

use chrono::{Datelike, NaiveDate, Weekday};
use std::collections::{BTreeMap, BTreeSet};

/// Index of a team in `League::teams`.
pub type TeamId = usize;
/// Index of a club in `League::clubs`.
pub type ClubId = usize;
/// Index of a venue in `League::venues`.
pub type VenueId = usize;
/// Index of a division in `League::divisions`.
pub type DivisionId = usize;

#[derive(Debug, Clone, PartialEq)]
/// A league file, resolved and validated: every name is an index, every date a date.
pub struct League {
    /// The league's name.
    pub name: String,
    /// The season's first day.
    pub start: NaiveDate,
    /// The season's last day.
    pub end: NaiveDate,
    /// Dates on which the whole league plays no match.
    pub closed: BTreeSet<NaiveDate>,
    /// The `[rules]` table.
    pub rules: Rules,
    /// The venues, in file order.
    pub venues: Vec<Venue>,
    /// The clubs, in file order.
    pub clubs: Vec<Club>,
    /// The divisions, in file order.
    pub divisions: Vec<Division>,
    /// The teams, in file order.
    pub teams: Vec<Team>,
    /// `[[fixed]]` fixtures: played on their date.
    pub fixed: Vec<Fixed>,
    /// `[[excluded]]` fixtures: left out of this schedule.
    pub excluded: Vec<Excluded>,
    /// Matches permitted after the season's end (extension `[[late]]`, Sussex rule 2.1: "unless
    /// permission has been obtained from the Fixtures Secretary to play the game at a later
    /// date"): a replay of `home v away` on `date`.
    pub late: Vec<Fixed>,
    /// Weights of the soft goals (the `[weights]` extension table).
    pub weights: Weights,
    /// Who has White on the odd-numbered boards, so on board 1 (the `[colours]` extension).
    pub odd_boards_white: Option<Side>,
    /// The league's time zone (extension `timezone`; default Europe/London): calendars give
    /// start times in it.
    pub timezone: chrono_tz::Tz,
    /// Knockout cups (extension `[cup]` or `[[cup]]`), in file order.
    pub cups: Vec<Cup>,
    /// When fixtures may be moved by agreement (extension `[changes]`, Sussex rule 2.6).
    pub changes: Option<Changes>,
    /// Fixtures played at another venue than the home team's (extension `[[neutral]]`, Sussex
    /// rule 2.3's "half-way house"): (home, away) to the venue; both orders for a single round
    /// robin, whose sides the solver chooses.
    pub neutral: BTreeMap<(TeamId, TeamId), VenueId>,
    /// Home matches of a joint team (Rapid League rules) hosted by the other club:
    /// (home, away) to that club, whose nights and unavailable dates bind the match.
    pub joint_hosts: BTreeMap<(TeamId, TeamId), JointHost>,
    /// `[[constraint]]` tables (extension): RobinX's constraints, hard or soft.
    pub constraints: Vec<Constraint>,
    /// What defaults cost in the tables (extension `[penalties]`).
    pub penalties: Penalties,
}

#[derive(Debug, Clone, PartialEq)]
/// The club that hosts a joint team's home match (Rapid League rules): "jointly participating
/// clubs shall determine which club ... is the host venue for each designated Home fixture".
pub struct JointHost {
    /// The hosting club.
    pub club: ClubId,
    /// Its own nights or dates (`None`: the team gives its own, or the club names none; the
    /// team's bind).
    pub hosting: Option<Hosting>,
    /// Its own unavailable dates.
    pub unavailable: BTreeSet<NaiveDate>,
}

#[derive(Debug, Clone, PartialEq)]
/// A knockout cup (extension `[cup]` / `[[cup]]`): entrants, deadlines, zones.
pub struct Cup {
    /// The cup's name; cup ties carry it in a fixture list's division column.
    pub name: String,
    /// The entrants.
    pub teams: Vec<TeamId>,
    /// Last year's finalists, kept in opposite halves of the draw.
    pub finalists: Vec<TeamId>,
    /// The last date of each round, the final's last (the last rounds take the last deadlines,
    /// earlier rounds the first: see `deadline`).
    pub deadlines: Vec<NaiveDate>,
    /// The first date of the first round.
    pub opens: NaiveDate,
    /// Zones: each entrant in one; first-round ties stay within a zone.
    pub zones: Vec<(String, Vec<TeamId>)>,
    /// Dates the home captain offers for a tie (KO rule 5: at least two).
    pub offer: u32,
    /// Offered dates lie at least this many days after their round opens.
    pub notice_days: u32,
    /// Dates kept for the cup's ties: its entrants play no league match on them.
    pub reserve: BTreeSet<NaiveDate>,
    /// Its ties may be played on a Saturday or Sunday at the home venue, whatever the home
    /// team's nights (the Paul Watson and McArthur rules); extension `weekends`.
    pub weekends: bool,
    /// A coin toss decides its ties' colours, not the league's `[colours]` (the Paul Watson and
    /// McArthur rules); extension `coin_toss`.
    pub coin_toss: bool,
    /// Three entrants play an all-play-all, not a knockout with a bye (the Paul Watson and
    /// McArthur rules; the Knock-Out Cup's rule 3 asks for a tree); extension
    /// `all_play_all_of_three`.
    pub all_play_all_of_three: bool,
    /// The home captain's offered dates avoid clashes with the away club's fixtures (the Paul
    /// Watson and McArthur rules); extension `avoid_away_club`.
    pub avoid_away_club: bool,
    /// The pairing tree as drawn (extension `draw`, written by `fixtures season cup`): its
    /// positions in order, `None` for a bye; empty before the draw. Position 2k meets 2k + 1
    /// in the first round; a lower position is higher in the tree (KO rule 4).
    pub draw: Vec<Option<TeamId>>,
    /// Entrants knocked out (extension `out`, written as results come in): the cup's reserved
    /// dates no longer bind them.
    pub out: BTreeSet<TeamId>,
}

impl Cup {
    /// Whether the cup is an all-play-all: three entrants where its rules say so.
    pub fn is_all_play_all(&self) -> bool {
        self.teams.len() == 3 && self.all_play_all_of_three
    }

    /// Positions in the draw's grid (a power of two): the smallest that holds every zone's
    /// first-round ties within the zone, each zone's odd team with a bye.
    pub fn grid_size(&self) -> usize {
        let n = self.teams.len().max(2);
        let need: usize = if self.zones.is_empty() {
            n
        } else {
            self.zones
                .iter()
                .map(|(_, t)| 2 * t.len().div_ceil(2))
                .sum()
        };
        need.max(n).next_power_of_two()
    }

    /// Whether the cup keeps `date` for team `t`: the date is reserved, `t` is an entrant and
    /// not knocked out.
    pub fn keeps(&self, t: TeamId, date: NaiveDate) -> bool {
        self.reserve.contains(&date) && self.teams.contains(&t) && !self.out.contains(&t)
    }

    /// Rounds of the knockout (an all-play-all has one: every tie by the last deadline).
    pub fn rounds(&self) -> usize {
        if self.is_all_play_all() {
            1
        } else {
            self.grid_size().trailing_zeros() as usize
        }
    }

    /// The name of round `r` (from 0) of `rounds`: Final, Semi-final, Quarter-final, else
    /// Round k; an all-play-all's one round is "All-play-all".
    pub fn round_name(&self, r: usize) -> String {
        let rounds = self.rounds();
        if self.is_all_play_all() {
            return "All-play-all".into();
        }
        match rounds - 1 - r.min(rounds - 1) {
            0 => "Final".into(),
            1 => "Semi-final".into(),
            2 => "Quarter-final".into(),
            _ => format!("Round {}", r + 1),
        }
    }

    /// The round called `name` (any case), if any.
    pub fn round_by_name(&self, name: &str) -> Option<usize> {
        (0..self.rounds()).find(|&r| self.round_name(r).eq_ignore_ascii_case(name.trim()))
    }

    /// The last date of round `r`: the last rounds take the last deadlines; when the cup has
    /// more rounds than deadlines, the earlier rounds all take the first (KO rule 3: "any
    /// preliminary round matches must be played by 30th October"). `None` without deadlines.
    pub fn deadline(&self, r: usize) -> Option<NaiveDate> {
        let k = (r + self.deadlines.len()).saturating_sub(self.rounds());
        self.deadlines.get(k).copied()
    }

    /// The window of round `r`: from the day after the previous round's deadline (the first
    /// round, and rounds sharing the first deadline: `opens`) to its own deadline; `None`
    /// when the cup has no deadlines.
    pub fn window(&self, r: usize) -> Option<(NaiveDate, NaiveDate)> {
        let end = self.deadline(r)?;
        let start = match r.checked_sub(1).and_then(|p| self.deadline(p)) {
            Some(p) if p < end => p.succ_opt()?,
            _ => self.opens,
        };
        Some((start, end))
    }
}

/// What defaults cost in the tables (extension `[penalties]`): Sussex rule 6.1 (4, 3, 2 and 1
/// default points for a default on boards 1 to 4, a match point for each 6), 6.2.1 (two match
/// points for a serious default), 4NCL rules 10.1 (a match point for each 3) and 10.6 (never
/// below zero), GTCL rule 8.4 (excluded after two forfeits).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Penalties {
    /// Default points for a default on board 1, 2, ... (empty: defaults are counted in points
    /// as entered, not by board).
    pub board_points: Vec<u32>,
    /// Each this many default points cost one match point (`None`: default points cost none).
    pub per_match_point: Option<u32>,
    /// Match points a serious default costs the defaulting team when its match is replayed
    /// (Sussex rule 6.2.1: 2).
    pub serious_default: u32,
    /// Deductions never take a team's match points below zero (4NCL rule 10.6).
    pub not_below_zero: bool,
    /// A team that has forfeited this many matches is excluded (GTCL rule 8.4: 2).
    pub forfeits_exclude: Option<u32>,
}

impl Penalties {
    /// The default points for defaults on `boards` (numbered from 1), or why not.
    pub fn for_boards(&self, boards: &[u32]) -> Result<u32, String> {
        if self.board_points.is_empty() {
            return Err("the league's settings give no default points by board (Penalties for defaults): give the default points instead".into());
        }
        let mut seen = BTreeSet::new();
        let mut sum = 0;
        for &b in boards {
            let Some(&p) = b
                .checked_sub(1)
                .and_then(|i| self.board_points.get(i as usize))
            else {
                return Err(format!(
                    "board {b} is not a board of the league's matches (1 to {})",
                    self.board_points.len()
                ));
            };
            if !seen.insert(b) {
                return Err(format!("board {b} is named twice"));
            }
            sum += p;
        }
        Ok(sum)
    }

    /// The match points `default_points` cost.
    pub fn match_points_for(&self, default_points: u32) -> u32 {
        self.per_match_point.map_or(0, |n| default_points / n)
    }
}

#[derive(Debug, Clone, PartialEq)]
/// Sussex rule 2.6 (extension `[changes]`): when a fixture may be moved by mutual agreement.
pub struct Changes {
    /// The date the fixture list was issued.
    pub issued: NaiveDate,
    /// Matches originally on or before this date may be changed by an agreement concluded up
    /// to `early_days` after the issue (rule 2.6: matches in October or November).
    pub early_until: Option<NaiveDate>,
    /// Days after the issue for agreements on early matches (rule 2.6: 14).
    pub early_days: u32,
    /// Later matches: the agreement is concluded at least this many days before the original
    /// date (rule 2.6: 28).
    pub notice_days: u32,
    /// Both clubs notify the secretary within this many days (rule 2.6: 7).
    pub notify_days: u32,
    /// An agreed change may move a match to a Saturday or Sunday, whatever the home team's
    /// nights (rule 2.6: "mutually agreed weekend arrangements"); extension `weekends`.
    pub weekends: bool,
}

/// A side of a fixture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The home team.
    Home,
    /// The away team.
    Away,
}

/// Weights of the soft goals in `solve`'s objective (extension: the `[weights]` table).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// Per break (two consecutive matches of a team both at home or both away).
    pub breaks: f64,
    /// Per fixture on a date one of its teams would rather avoid.
    pub avoid: f64,
    /// Per day (within the season, from a team's start) that begins `long_rest_days` days
    /// without a match of the team: a wait of `long_rest_days + k` days costs k + 1 days.
    pub long_rest: f64,
    /// The gap in days that counts as too long a wait.
    pub long_rest_days: u32,
    /// Per pair of matches of a team fewer than `short_rest_days` days apart, per day short.
    pub short_rest: f64,
    /// The gap in days below which two matches of a team come too close together.
    pub short_rest_days: u32,
    /// Per team, times its spread (0 to 1): the largest weekly difference between the share of
    /// its matches played and the share of the season elapsed.
    pub spread: f64,
    /// Times the worst team's spread.
    pub spread_max: f64,
    /// Per team, per match by which its matches before the winter break differ from its fair
    /// share (its matches times the share of its season that lies before the break).
    pub winter: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            breaks: 3.0,
            avoid: 10.0,
            long_rest: 2.0,
            long_rest_days: 42,
            short_rest: 1.0,
            short_rest_days: 7,
            spread: 2.0,
            spread_max: 300.0,
            winter: 5.0,
        }
    }
}

impl Weights {
    /// Only what the spec asks of every league: avoid dates honoured where possible.
    pub fn avoid_only() -> Self {
        Weights {
            avoid: Weights::default().avoid,
            ..Weights::none()
        }
    }

    /// Every weight 0 (the targets, such as `long_rest_days`, at their defaults): a base for
    /// weighing one goal alone, e.g. `Weights { breaks: 1.0, ..Weights::none() }`.
    pub fn none() -> Self {
        Weights {
            breaks: 0.0,
            avoid: 0.0,
            long_rest: 0.0,
            short_rest: 0.0,
            spread: 0.0,
            spread_max: 0.0,
            winter: 0.0,
            ..Weights::default()
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
/// The `[rules]` table: the hard rules of the spec.
pub struct Rules {
    /// Days at least between two matches of a team.
    pub min_days_between: u32,
    /// Teams of one club in a division meet before their other matches.
    pub same_club_first: bool,
    /// A team's home and away matches differ by at most this.
    pub home_away_balance: u32,
    /// At most this many unavailable dates per team (club's included).
    pub max_unavailable: Option<u32>,
    /// Matches between teams of one club are played by this date.
    pub latest_internal_date: Option<NaiveDate>,
    /// A team plays in at most this many consecutive weeks.
    pub max_consecutive_weeks: Option<u32>,
    /// Extension (4NCL rule 13.7): at most this many teams of one club in a division.
    pub max_club_teams_per_division: Option<u32>,
    /// Extension: how teams level on match points are placed, in order (`None`: each division
    /// its format's own, see [`League::tie_breaks`]).
    pub tie_breaks: Option<Vec<TieBreak>>,
}

/// How teams level on match points are placed in a table (extension `[rules] tie_breaks`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TieBreak {
    /// More game points (Sussex rule 11.1.3, GTCL 5.7, 4NCL 12.2 a and 12.3 a).
    GamePoints,
    /// The matches among the teams still level: their match points there, then their game
    /// points there (GTCL 5.7, 4NCL 12.2 b).
    HeadToHead,
    /// The opponents' match points, summed (4NCL 12.3 b).
    OpponentsMatchPoints,
    /// The opponents' game points, summed (4NCL 12.3 c).
    OpponentsGamePoints,
}

impl TieBreak {
    /// Each tie-break's name in the league file.
    pub const NAMES: [(&'static str, TieBreak); 4] = [
        ("game_points", TieBreak::GamePoints),
        ("head_to_head", TieBreak::HeadToHead),
        ("opponents_match_points", TieBreak::OpponentsMatchPoints),
        ("opponents_game_points", TieBreak::OpponentsGamePoints),
    ];

    /// The tie-break in the words a table's reader uses.
    pub fn words(self) -> &'static str {
        match self {
            TieBreak::GamePoints => "game points",
            TieBreak::HeadToHead => "the matches between them",
            TieBreak::OpponentsMatchPoints => "their opponents' points",
            TieBreak::OpponentsGamePoints => "their opponents' game points",
        }
    }

    /// The tie-break called `name` in the league file.
    pub fn named(name: &str) -> Option<TieBreak> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name.trim())
            .map(|&(_, t)| t)
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            min_days_between: 6,
            same_club_first: true,
            home_away_balance: 1,
            max_unavailable: None,
            latest_internal_date: None,
            max_consecutive_weeks: None,
            max_club_teams_per_division: None,
            tie_breaks: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
/// A venue: where home matches are played.
pub struct Venue {
    /// The venue's name.
    pub name: String,
    /// Matches it can host on a date.
    pub capacity: u32,
    /// Capacity on particular dates, overriding `capacity`.
    pub capacity_on: BTreeMap<NaiveDate, u32>,
    /// Dates the venue is closed.
    pub closed: BTreeSet<NaiveDate>,
    /// When matches there start (extension `start_time`), local time.
    pub start_time: Option<chrono::NaiveTime>,
}

impl Venue {
    /// Matches the venue can host on `date` (0 when closed).
    pub fn capacity_on(&self, date: NaiveDate) -> u32 {
        if self.closed.contains(&date) {
            return 0;
        }
        self.capacity_on
            .get(&date)
            .copied()
            .unwrap_or(self.capacity)
    }
}

#[derive(Debug, Clone, PartialEq)]
/// A club: its teams share its venue and nights unless they say otherwise.
pub struct Club {
    /// The club's name.
    pub name: String,
    /// At most this many dates on which the club hosts.
    pub max_home_dates: Option<u32>,
    /// When the club's home matches start (extension `start_time`), local time.
    pub start_time: Option<chrono::NaiveTime>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
/// How a division's teams meet.
pub enum Format {
    /// Every pair meets once; the model chooses who is at home.
    Single,
    /// Every ordered pair meets once.
    Double,
    /// Paired round by round (extension: `format = "pools"` for 4NCL pools, `"swiss"`): the
    /// pairings come from the competition's rules (the first draw, then the season's rounds, or
    /// `fixtures pools`, `split` and `pair`), not from the search; a list is
    /// valid when every team plays once in each round it has (one bye a round when the number of
    /// teams is odd), no pair meets twice, and every other rule holds.
    Paired,
}

#[derive(Debug, Clone, PartialEq)]
/// A division: teams that play each other.
pub struct Division {
    /// The division's name.
    pub name: String,
    /// How its teams meet.
    pub format: Format,
    /// 4NCL pools (`format = "pools"`, rule 6.3): two preliminary pools of half the teams each
    /// play a round robin in the first rounds, then each team meets the teams of the other
    /// preliminary pool in its final pool (championship or relegation).
    pub pools: bool,
    /// Its teams, in file order.
    pub teams: Vec<TeamId>,
    /// A compact division (extension): its matches are played on these dates only, every team
    /// at most once a date (so once a round when there are n - 1 rounds for n teams).
    pub rounds: Option<Vec<NaiveDate>>,
    /// A central venue (extension) for all the division's matches, whatever the teams' nights.
    pub venue: Option<VenueId>,
    /// Extension: how its teams level on match points are placed, over the league's
    /// `tie_breaks` (see [`League::tie_breaks`]).
    pub tie_breaks: Option<Vec<TieBreak>>,
}

/// When a team hosts: on weekdays, or on explicit dates.
#[derive(Debug, Clone, PartialEq)]
pub enum Hosting {
    /// On these weekdays.
    Nights(Vec<Weekday>),
    /// On these dates only.
    Dates(BTreeSet<NaiveDate>),
}

impl Hosting {
    /// Whether the team hosts on `date`.
    pub fn hosts_on(&self, date: NaiveDate) -> bool {
        match self {
            Hosting::Nights(nights) => nights.contains(&date.weekday()),
            Hosting::Dates(dates) => dates.contains(&date),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
/// A team of a club in a division.
pub struct Team {
    /// The team's name.
    pub name: String,
    /// Its club.
    pub club: ClubId,
    /// Its division.
    pub division: DivisionId,
    /// Its venue (its own, else its club's).
    pub venue: VenueId,
    /// When it hosts.
    pub hosting: Hosting,
    /// The team's first possible date (its own, its club's, else the league's start).
    pub start: NaiveDate,
    /// The club's and the team's own unavailable dates together, `later` included.
    pub unavailable: BTreeSet<NaiveDate>,
    /// Dates the team gave after the fixture list went out (extension `unavailable_later`):
    /// unavailable like the others, but not among the dates of the application form that
    /// `max_unavailable` caps (Sussex rule 2.5).
    pub later: BTreeSet<NaiveDate>,
    /// Dates it cannot play away.
    pub unavailable_away: BTreeSet<NaiveDate>,
    /// Dates it would rather not play (soft).
    pub avoid: BTreeSet<NaiveDate>,
    /// The team's strength (extension), to balance 4NCL preliminary pools.
    pub rating: Option<f64>,
}

#[derive(Debug, Clone, PartialEq)]
/// A `[[fixed]]` fixture: played on its date with this home team.
pub struct Fixed {
    /// The home team.
    pub home: TeamId,
    /// The away team.
    pub away: TeamId,
    /// The date.
    pub date: NaiveDate,
}

#[derive(Debug, Clone, PartialEq)]
/// An `[[excluded]]` fixture: left out of this schedule.
pub struct Excluded {
    /// The home team (either side, for a single round robin).
    pub home: TeamId,
    /// The away team.
    pub away: TeamId,
}

/// One match the divisions' formats call for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
/// One match the divisions' formats call for (before dates and, for a single round robin, sides are chosen).
pub struct Fixture {
    /// Its division.
    pub division: DivisionId,
    /// For a double round robin `a` is at home; for a single one either may be.
    pub a: TeamId,
    /// The other team.
    pub b: TeamId,
    /// Whether `a` is at home whatever the schedule (a double round robin).
    pub home_fixed: bool,
}

/// Why a fixture cannot be played on a date (rules 1–4 of "When a match can be played").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
/// Why a fixture cannot be played on a date (rules 1–4).
pub enum Unplayable {
    /// The date is outside the season.
    OutsideSeason,
    /// The league is closed on the date.
    LeagueClosed,
    /// Before this team's start.
    BeforeStart(TeamId),
    /// Not a hosting date of the home team.
    NotHostingDate,
    /// Not one of the compact division's round dates.
    NotRoundDate,
    /// The venue is closed.
    VenueClosed,
    /// This team is unavailable.
    Unavailable(TeamId),
    /// The away team is unavailable for away matches.
    UnavailableAway,
    /// This team keeps the date for a cup (`League::cups[1]`'s `reserve`).
    CupReserved(TeamId, usize),
    /// The club hosting a joint team's match is unavailable (`League::joint_hosts`).
    HostUnavailable(ClubId),
}

impl League {
    /// How division `d` places teams level on match points: a 4NCL pools division by game
    /// points, then the matches among them (rule 12.2, which forms its final pools); any other
    /// by its own `tie_breaks`, else the league's, else game points (Sussex rule 11.1.3), a Swiss division then
    /// its opponents' match and game points (4NCL rule 12.3).
    pub fn tie_breaks(&self, d: DivisionId) -> Vec<TieBreak> {
        let div = &self.divisions[d];
        if div.pools {
            return vec![TieBreak::GamePoints, TieBreak::HeadToHead];
        }
        if let Some(t) = div.tie_breaks.as_ref().or(self.rules.tie_breaks.as_ref()) {
            return t.clone();
        }
        match div.format {
            Format::Paired => vec![
                TieBreak::GamePoints,
                TieBreak::OpponentsMatchPoints,
                TieBreak::OpponentsGamePoints,
            ],
            _ => vec![TieBreak::GamePoints],
        }
    }

    /// How division `d`'s table is placed, in a sentence: its tie-breaks, the last resort, and
    /// for a Swiss division that a bye counts as a win.
    pub fn placed_by(&self, d: DivisionId) -> String {
        let words: Vec<&str> = self.tie_breaks(d).iter().map(|t| t.words()).collect();
        let div = &self.divisions[d];
        let bye = if div.format == Format::Paired && !div.pools {
            " A bye counts as a win."
        } else {
            ""
        };
        // A pools division's last resort is the order of entry (see `tie_breaks`).
        let last = if div.pools {
            "in the order they were entered"
        } else {
            "by name"
        };
        format!(
            "Teams level on points are placed by {}, then {last}.{bye}",
            words.join(", then ")
        )
    }

    /// Whether team `t` has withdrawn: the league file excludes its every fixture (as
    /// `fixtures season withdraw` writes it, rule 11.2).
    pub fn withdrawn(&self, t: TeamId) -> bool {
        let out = |a: TeamId, b: TeamId| {
            self.excluded
                .iter()
                .any(|e| (e.home, e.away) == (a, b) || (e.home, e.away) == (b, a))
        };
        let others: Vec<TeamId> = self.divisions[self.teams[t].division]
            .teams
            .iter()
            .copied()
            .filter(|&u| u != t)
            .collect();
        !others.is_empty() && others.iter().all(|&u| out(t, u))
    }

    /// The team called `name`.
    pub fn team_by_name(&self, name: &str) -> Option<TeamId> {
        self.teams.iter().position(|t| t.name == name)
    }

    /// The home matches team `t` may have among its `n` scheduled fixtures under
    /// `home_away_balance`, counting its fixtures scratched in a rerun too: (fewest, most).
    pub fn home_range(&self, t: TeamId, n: usize, rerun: &Rerun) -> (i64, i64) {
        let b = self.rules.home_away_balance as i64;
        let (extra_home, extra_away) = rerun.scratched_of(t);
        let total = n as i64 + extra_home + extra_away;
        // |H - (total - H)| <= b  <=>  (total - b) / 2 <= H <= (total + b) / 2
        let lo = (total - b + 1).div_euclid(2).max(0) - extra_home;
        let hi = (total + b).div_euclid(2) - extra_home;
        (lo.max(0), hi.min(n as i64))
    }

    /// Whether two teams belong to one club.
    pub fn are_same_club(&self, a: TeamId, b: TeamId) -> bool {
        self.teams[a].club == self.teams[b].club
    }

    /// The venue of a match with `home` at home: its division's central venue, if any, else
    /// the home team's.
    pub fn match_venue(&self, home: TeamId) -> VenueId {
        let t = &self.teams[home];
        self.divisions[t.division].venue.unwrap_or(t.venue)
    }

    /// The venue of the fixture `home v away`: a `[[neutral]]` venue agreed for it, else
    /// `match_venue(home)`.
    pub fn fixture_venue(&self, home: TeamId, away: TeamId) -> VenueId {
        self.neutral
            .get(&(home, away))
            .copied()
            .unwrap_or_else(|| self.match_venue(home))
    }

    /// Matches of the league venue `v` can host on `date`: its capacity, less the places kept
    /// for cup ties when the date is in a cup's `reserve` (one per entrant at home there).
    pub fn league_capacity(&self, v: VenueId, date: NaiveDate) -> u32 {
        let cap = self.venues[v].capacity_on(date);
        // A match the league file fixes there (a change the clubs agreed) may take a kept place.
        let fixed = self
            .fixed
            .iter()
            .filter(|f| f.date == date && self.fixture_venue(f.home, f.away) == v)
            .count() as u32;
        cap.saturating_sub(self.kept_for_cups(v, date).min(cap).saturating_sub(fixed))
    }

    /// Places a venue keeps on `date` for cup ties: one per entrant still in each cup that
    /// reserves the date, at home there.
    pub fn kept_for_cups(&self, v: VenueId, date: NaiveDate) -> u32 {
        self.cups
            .iter()
            .flat_map(|c| c.teams.iter().filter(move |&&t| c.keeps(t, date)))
            .filter(|&&t| self.teams[t].venue == v)
            .count() as u32
    }

    /// When a match at `venue` with `home` at home starts: the venue's `start_time`, else the
    /// home club's; `None` when neither says (an all-day event).
    pub fn start_time(&self, home: TeamId, venue: VenueId) -> Option<chrono::NaiveTime> {
        self.venues[venue]
            .start_time
            .or(self.clubs[self.teams[home].club].start_time)
    }

    /// The cup called `name`, if any.
    pub fn cup_by_name(&self, name: &str) -> Option<usize> {
        self.cups.iter().position(|c| c.name == name)
    }

    /// How many fixtures the divisions' formats call for (before `[[excluded]]`).
    pub fn fixture_count(&self) -> usize {
        self.divisions
            .iter()
            .map(|d| {
                let n = d.teams.len();
                let pairs = n * n.saturating_sub(1) / 2;
                match d.format {
                    Format::Single | Format::Paired => pairs,
                    Format::Double => 2 * pairs,
                }
            })
            .sum()
    }

    /// Every fixture the divisions' formats call for, less `[[excluded]]`, in a stable order.
    pub fn fixtures(&self) -> Vec<Fixture> {
        let mut out = Vec::new();
        for (d, div) in self.divisions.iter().enumerate() {
            for (i, &a) in div.teams.iter().enumerate() {
                for &b in &div.teams[i + 1..] {
                    match div.format {
                        Format::Single => {
                            let excluded = self.excluded.iter().any(|e| {
                                (e.home == a && e.away == b) || (e.home == b && e.away == a)
                            });
                            if !excluded {
                                out.push(Fixture {
                                    division: d,
                                    a,
                                    b,
                                    home_fixed: false,
                                });
                            }
                        }
                        Format::Double => {
                            for (h, w) in [(a, b), (b, a)] {
                                if !self.excluded.iter().any(|e| e.home == h && e.away == w) {
                                    out.push(Fixture {
                                        division: d,
                                        a: h,
                                        b: w,
                                        home_fixed: true,
                                    });
                                }
                            }
                        }
                        Format::Paired => {}
                    }
                }
            }
        }
        out
    }

    /// Can `home v away` be played on `date` (rules 1–4)? The first reason it cannot.
    pub fn playable(&self, home: TeamId, away: TeamId, date: NaiveDate) -> Result<(), Unplayable> {
        match self.unplayable_reasons(home, away, date).first() {
            Some(why) => Err(*why),
            None => Ok(()),
        }
    }

    /// Whether `home` v `away` on `date` is a weekend arrangement the clubs agreed (rule 2.6):
    /// the league allows them, the date is a Saturday or Sunday, and the league file fixes the
    /// match there. The home team's nights do not bind it.
    pub fn agreed_weekend(&self, home: TeamId, away: TeamId, date: NaiveDate) -> bool {
        use chrono::Weekday::{Sat, Sun};
        self.changes.as_ref().is_some_and(|c| c.weekends)
            && matches!(date.weekday(), Sat | Sun)
            && self
                .fixed
                .iter()
                .any(|f| (f.home, f.away, f.date) == (home, away, date))
    }

    /// Why a fixture with `home` at home cannot be played, in words.
    pub fn describe_unplayable(&self, why: &Unplayable, home: TeamId) -> String {
        let venue = &self.venues[self.match_venue(home)].name;
        match why {
            Unplayable::OutsideSeason => {
                format!(
                    "the date is outside the season {} to {}",
                    self.start, self.end
                )
            }
            Unplayable::LeagueClosed => "the league is closed on that date".into(),
            Unplayable::BeforeStart(t) => {
                format!("{} starts on {}", self.teams[*t].name, self.teams[*t].start)
            }
            Unplayable::NotHostingDate => {
                format!("it is not a hosting date of {}", self.teams[home].name)
            }
            Unplayable::NotRoundDate => format!(
                "it is not a round date of {}",
                self.divisions[self.teams[home].division].name
            ),
            Unplayable::VenueClosed => format!("{venue} is closed on that date"),
            Unplayable::Unavailable(t) => {
                format!("{} is unavailable on that date", self.teams[*t].name)
            }
            Unplayable::UnavailableAway => "the away team is unavailable away on that date".into(),
            Unplayable::HostUnavailable(c) => format!(
                "{}, which hosts this match of the joint team, is unavailable on that date",
                self.clubs[*c].name
            ),
            Unplayable::CupReserved(t, c) => format!(
                "{} keeps that date for the {}",
                self.teams[*t].name, self.cups[*c].name
            ),
        }
    }

    /// The winter break: the longest run of league-closed dates (at least a week) within the
    /// season, the earliest if several; else, when the season spans a new year, the turn of
    /// the year (an empty break between 31 December and 1 January). Returns (first day of
    /// the break, first day after it).
    pub fn winter_break(&self) -> Option<(NaiveDate, NaiveDate)> {
        let mut best: Option<(NaiveDate, NaiveDate)> = None;
        let mut run: Option<NaiveDate> = None;
        for d in self.season_dates() {
            if self.closed.contains(&d) {
                run.get_or_insert(d);
                continue;
            }
            if let Some(from) = run.take() {
                if (d - from).num_days() >= 7 && best.is_none_or(|(a, b)| d - from > b - a) {
                    best = Some((from, d));
                }
            }
        }
        best.or_else(|| {
            let jan = NaiveDate::from_ymd_opt(self.start.year() + 1, 1, 1)?;
            (jan <= self.end).then_some((jan, jan))
        })
    }

    /// Every reason of rules 1–4 why `home v away` cannot be played on `date` (empty when it
    /// can), unlike `playable`, which stops at the first.
    pub fn unplayable_reasons(
        &self,
        home: TeamId,
        away: TeamId,
        date: NaiveDate,
    ) -> Vec<Unplayable> {
        let (h, a) = (&self.teams[home], &self.teams[away]);
        let mut out = Vec::new();
        if date < self.start || date > self.end {
            out.push(Unplayable::OutsideSeason);
        }
        if self.closed.contains(&date) {
            out.push(Unplayable::LeagueClosed);
        }
        for (id, t) in [(home, h), (away, a)] {
            if date < t.start {
                out.push(Unplayable::BeforeStart(id));
            }
        }
        let division = &self.divisions[h.division];
        if let Some(rounds) = &division.rounds {
            if !rounds.contains(&date) {
                out.push(Unplayable::NotRoundDate);
            }
        }
        // At a central venue the teams' own nights do not matter; a joint team's match at the
        // other club's venue is on that club's nights.
        let joint = self.joint_hosts.get(&(home, away));
        let hosting = joint.and_then(|j| j.hosting.as_ref()).unwrap_or(&h.hosting);
        if division.venue.is_none()
            && !hosting.hosts_on(date)
            && !self.agreed_weekend(home, away, date)
        {
            out.push(Unplayable::NotHostingDate);
        }
        if let Some(j) = joint.filter(|j| j.unavailable.contains(&date)) {
            out.push(Unplayable::HostUnavailable(j.club));
        }
        if self.venues[self.fixture_venue(home, away)]
            .closed
            .contains(&date)
        {
            out.push(Unplayable::VenueClosed);
        }
        for (id, t) in [(home, h), (away, a)] {
            if t.unavailable.contains(&date) {
                out.push(Unplayable::Unavailable(id));
            }
        }
        if a.unavailable_away.contains(&date) {
            out.push(Unplayable::UnavailableAway);
        }
        // A cup's reserve is this program's way to keep room for its ties, not a rule of the
        // league: a match the league file fixes there (a change the clubs agreed) may use it.
        let fixed = self
            .fixed
            .iter()
            .any(|f| (f.home, f.away, f.date) == (home, away, date));
        for (c, cup) in self.cups.iter().enumerate() {
            if !fixed {
                for t in [home, away] {
                    if cup.keeps(t, date) {
                        out.push(Unplayable::CupReserved(t, c));
                    }
                }
            }
        }
        out
    }

    /// Every date of the season, in order.
    pub fn season_dates(&self) -> impl Iterator<Item = NaiveDate> + '_ {
        self.start.iter_days().take_while(move |d| *d <= self.end)
    }
}

/// Weekday names as the spec spells them.
pub fn parse_weekday(s: &str) -> Option<Weekday> {
    Some(match s.to_ascii_lowercase().as_str() {
        "mon" => Weekday::Mon,
        "tue" => Weekday::Tue,
        "wed" => Weekday::Wed,
        "thu" => Weekday::Thu,
        "fri" => Weekday::Fri,
        "sat" => Weekday::Sat,
        "sun" => Weekday::Sun,
        _ => return None,
    })
}
