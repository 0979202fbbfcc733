//! Editing a league file through forms: one section per part of the league (season, rules,
//! goals, venues, clubs, divisions, teams), each a list of fields over the keys of one TOML
//! table. A form is read from the file and written back into it in place (`toml_edit`), so
//! every key, comment and table the form does not show is kept as it was; the file stays the
//! exchange format. Nothing is returned unless the whole league file is valid; its errors come
//! back in the loader's own words, each next to the field of its key when it is about the item
//! being edited, the others for the top of the form.

use crate::import::{date_cell, parse_date_cell, toml_date};
use crate::model::parse_list_date;
use crate::model::{parse_league, parse_weekday, InputError, Problem};
use chrono::NaiveDate;
use std::collections::{BTreeMap, BTreeSet};
use toml_edit::{value, Array, ArrayOfTables, DocumentMut, InlineTable, Item, Table, Value};

/// What a field holds, and so how it is shown and read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A line of text.
    Text,
    /// A whole number.
    Whole,
    /// Whole numbers in order, separated by commas ("4, 3, 2, 1").
    Wholes,
    /// A number.
    Number,
    /// Yes, no, or the league's default.
    Flag,
    /// One date.
    Date,
    /// Dates and ranges typed in one field (DD/MM/YYYY or YYYY-MM-DD, "A to B").
    Dates,
    /// Dates picked on a month calendar of the season.
    Calendar,
    /// Weekdays ticked.
    Nights,
    /// A time of day, "HH:MM".
    Time,
    /// One of a list (see [`Field::choices`]).
    Choice,
    /// "date = number" lines (a venue's capacity on given dates).
    PerDate,
    /// Teams ticked (none: the key left out).
    TeamList,
    /// Fixtures, one a line, home team first: "Lewes 1 v Hove 1".
    Fixtures,
    /// Named groups of teams, one a line: "West: Horsham 1, Worthing 2".
    Zones,
}

/// Where a choice's options come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choices {
    /// Not a choice.
    None,
    /// The league's venues.
    Venues,
    /// The league's clubs.
    Clubs,
    /// The league's divisions.
    Divisions,
    /// The league's teams.
    Teams,
    /// A fixed list: (value in the file, words shown).
    Fixed(&'static [(&'static str, &'static str)]),
}

/// One field of a form: a key of the section's table.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    /// The TOML key (and the form field's name).
    pub key: &'static str,
    /// The label shown.
    pub label: &'static str,
    /// What it holds.
    pub kind: Kind,
    /// A line of help under the field.
    pub help: &'static str,
    /// Whether the league file needs it.
    pub required: bool,
    /// A choice's options.
    pub choices: Choices,
}

const fn f(key: &'static str, label: &'static str, kind: Kind, help: &'static str) -> Field {
    Field {
        key,
        label,
        kind,
        help,
        required: false,
        choices: Choices::None,
    }
}

const fn required(mut field: Field) -> Field {
    field.required = true;
    field
}

const fn choice(mut field: Field, choices: Choices) -> Field {
    field.choices = choices;
    field
}

/// Where a section's table is in the league file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// The top-level keys.
    Top,
    /// A table such as `[rules]`.
    Table(&'static str),
    /// An array of tables such as `[[team]]`: one form per item.
    Array(&'static str),
}

/// A part of the league with its form.
#[derive(Debug, Clone, Copy)]
pub struct Section {
    /// Its name in URLs ("team").
    pub name: &'static str,
    /// Its title ("Teams").
    pub title: &'static str,
    /// One item's title ("team").
    pub item: &'static str,
    /// Its table.
    pub place: Place,
    /// Its fields.
    pub fields: &'static [Field],
}

/// The tie-break orders the settings form offers (`[rules] tie_breaks`).
pub const TIE_BREAKS: &[(&str, &str)] = &[
    ("game_points", "game points"),
    (
        "game_points, head_to_head",
        "game points, then the matches between them",
    ),
    (
        "head_to_head, game_points",
        "the matches between them, then game points",
    ),
    (
        "game_points, opponents_match_points, opponents_game_points",
        "game points, then their opponents' points",
    ),
];

/// The formats a division may have.
pub const FORMATS: &[(&str, &str)] = &[
    ("single", "single round robin (each pair once)"),
    ("double", "double round robin (home and away)"),
    (
        "auto",
        "double up to the rules' double_up_to teams, else single",
    ),
    ("pools", "pools (4NCL)"),
    ("swiss", "Swiss pairing"),
];

/// What a `[[constraint]]` limits, in the words the form shows.
pub const CONSTRAINT_KINDS: &[(&str, &str)] = &[
    ("matches", "matches of each team on given dates"),
    ("in_a_row", "home or away matches in a row"),
    ("between", "matches among given teams"),
    ("fixtures", "given fixtures on given dates"),
    ("apart", "days between two teams' meetings"),
    ("breaks", "two home or two away running"),
    ("level", "home matches kept level"),
];

/// The sides a constraint counts.
pub const SIDES: &[(&str, &str)] = &[("home", "at home"), ("away", "away"), ("any", "either")];

/// How a constraint counts: for each date, each team, or in all.
pub const PER: &[(&str, &str)] = &[
    ("date", "on each date"),
    ("team", "for each team"),
    ("total", "in all"),
];

/// Every section, in the order the league file describes a season.
pub const SECTIONS: &[Section] = &[
    Section {
        name: "season",
        title: "Season",
        item: "season",
        place: Place::Top,
        fields: &[
            required(f("name", "League name", Kind::Text, "")),
            required(f("start", "First day of the season", Kind::Date, "")),
            required(f("end", "Last day of the season", Kind::Date, "")),
            f(
                "closed",
                "Dates with no matches (e.g. Christmas)",
                Kind::Dates,
                "Dates and ranges: 24/12/2026; 19/12/2026 to 03/01/2027",
            ),
            f(
                "timezone",
                "Time zone",
                Kind::Text,
                "For calendars; default Europe/London",
            ),
        ],
    },
    Section {
        name: "rules",
        title: "Rules",
        item: "rules",
        place: Place::Table("rules"),
        fields: &[
            f(
                "min_days_between",
                "Fewest days between two matches of a team",
                Kind::Whole,
                "",
            ),
            f(
                "max_unavailable",
                "Most unavailable dates a team may declare",
                Kind::Whole,
                "Sussex rule 2.5: 15",
            ),
            f(
                "home_away_balance",
                "Largest difference between a team's home and away matches",
                Kind::Whole,
                "",
            ),
            f(
                "max_consecutive_weeks",
                "Most weeks in a row a team may play",
                Kind::Whole,
                "",
            ),
            f(
                "same_club_first",
                "Teams of one club meet first",
                Kind::Flag,
                "",
            ),
            f(
                "latest_internal_date",
                "Latest date for matches between teams of one club",
                Kind::Date,
                "",
            ),
            f(
                "double_up_to",
                "Divisions of \"auto\" format play home and away up to this many teams",
                Kind::Whole,
                "Default 7",
            ),
            f(
                "max_club_teams_per_division",
                "Most teams of one club in a division",
                Kind::Whole,
                "",
            ),
            choice(
                f(
                    "tie_breaks",
                    "Teams level on match points are placed by",
                    Kind::Choice,
                    "Empty: game points (a Swiss division then its opponents' points; 4NCL pools always rule 12.2)",
                ),
                Choices::Fixed(TIE_BREAKS),
            ),
        ],
    },
    Section {
        name: "weights",
        title: "Goals",
        item: "goals",
        place: Place::Table("weights"),
        fields: &[
            f(
                "breaks",
                "Weight of a break (two home or two away matches in a row)",
                Kind::Number,
                "",
            ),
            f(
                "avoid",
                "Weight of a match on a date a team would rather avoid",
                Kind::Number,
                "",
            ),
            f(
                "long_rest",
                "Weight of a long wait between matches",
                Kind::Number,
                "",
            ),
            f(
                "long_rest_days",
                "A wait longer than this many days is long",
                Kind::Whole,
                "",
            ),
            f("short_rest", "Weight of a short wait", Kind::Number, ""),
            f(
                "short_rest_days",
                "A wait shorter than this many days is short",
                Kind::Whole,
                "",
            ),
            f(
                "spread",
                "Weight of uneven spread of a team's matches",
                Kind::Number,
                "",
            ),
            f(
                "spread_max",
                "Spread tolerated before it counts",
                Kind::Number,
                "",
            ),
            f(
                "winter",
                "Weight of matches bunched in winter",
                Kind::Number,
                "",
            ),
        ],
    },
    COLOURS,
    CHANGES,
    PENALTIES,
    Section {
        name: "venue",
        title: "Venues",
        item: "venue",
        place: Place::Array("venue"),
        fields: &[
            required(f("name", "Venue name", Kind::Text, "")),
            f(
                "capacity",
                "Matches it can hold on one night",
                Kind::Whole,
                "Default 1",
            ),
            f(
                "capacity_on",
                "Capacity on given dates",
                Kind::PerDate,
                "One line per date: 05/11/2026 = 2",
            ),
            f(
                "closed",
                "Dates it is closed",
                Kind::Dates,
                "Dates and ranges",
            ),
            f(
                "start_time",
                "Matches start at",
                Kind::Time,
                "HH:MM, e.g. 19:30",
            ),
        ],
    },
    Section {
        name: "club",
        title: "Clubs",
        item: "club",
        place: Place::Array("club"),
        fields: &[
            required(f("name", "Club name", Kind::Text, "")),
            choice(f("venue", "Venue", Kind::Choice, ""), Choices::Venues),
            f("nights", "Club nights", Kind::Nights, ""),
            f(
                "start",
                "Plays no home match before (late start)",
                Kind::Date,
                "",
            ),
            f("start_time", "Home matches start at", Kind::Time, "HH:MM"),
            f(
                "unavailable",
                "Dates all its teams cannot play",
                Kind::Dates,
                "Dates and ranges",
            ),
            f(
                "unavailable_away",
                "Dates its teams cannot play away",
                Kind::Dates,
                "",
            ),
            f(
                "home_dates",
                "The only dates it can host",
                Kind::Dates,
                "Leave empty to host on its nights",
            ),
            f("max_home_dates", "Most dates it hosts", Kind::Whole, ""),
        ],
    },
    Section {
        name: "division",
        title: "Divisions",
        item: "division",
        place: Place::Array("division"),
        fields: &[
            required(f("name", "Division name", Kind::Text, "")),
            choice(
                f("format", "Format", Kind::Choice, "Default: single"),
                Choices::Fixed(FORMATS),
            ),
            f(
                "rounds",
                "Round dates (compact divisions)",
                Kind::Dates,
                "All the division's matches of a round on one date",
            ),
            choice(
                f(
                    "venue",
                    "Central venue",
                    Kind::Choice,
                    "All its matches there",
                ),
                Choices::Venues,
            ),
            choice(
                f(
                    "tie_breaks",
                    "Teams level on match points are placed by",
                    Kind::Choice,
                    "Empty: as the league's settings say",
                ),
                Choices::Fixed(TIE_BREAKS),
            ),
        ],
    },
    Section {
        name: "team",
        title: "Teams",
        item: "team",
        place: Place::Array("team"),
        fields: &[
            required(f("name", "Team name", Kind::Text, "")),
            required(choice(f("club", "Club", Kind::Choice, ""), Choices::Clubs)),
            required(choice(
                f("division", "Division", Kind::Choice, ""),
                Choices::Divisions,
            )),
            f("rating", "Rating", Kind::Number, "e.g. its average rating"),
            choice(
                f("venue", "Venue", Kind::Choice, "Default: its club's"),
                Choices::Venues,
            ),
            f(
                "nights",
                "Match nights",
                Kind::Nights,
                "Default: its club's",
            ),
            f(
                "unavailable",
                "Dates it cannot play",
                Kind::Calendar,
                "Its club's dates count too",
            ),
            f(
                "avoid",
                "Dates it would rather not play",
                Kind::Calendar,
                "",
            ),
            f(
                "unavailable_away",
                "Dates it cannot play away",
                Kind::Dates,
                "",
            ),
            f("start", "Plays no match before", Kind::Date, ""),
            choice(
                f("joint_with", "Entered jointly with club", Kind::Choice, ""),
                Choices::Clubs,
            ),
        ],
    },
    Section {
        name: "fixed",
        title: "Fixed fixtures",
        item: "fixed fixture",
        place: Place::Array("fixed"),
        fields: &[
            PAIR[0],
            PAIR[1],
            pair_date("A change the clubs agreed (rule 2.6), or a date the league sets"),
        ],
    },
    EXCLUDED,
    NEUTRAL,
    LATE,
    CUP,
    Section {
        name: "constraint",
        title: "Limits the league asks for",
        item: "limit",
        place: Place::Array("constraint"),
        fields: &[
            f(
                "name",
                "Name",
                Kind::Text,
                "What the check calls it, e.g. No three away in a row",
            ),
            required(choice(
                f("kind", "What it limits", Kind::Choice, ""),
                Choices::Fixed(CONSTRAINT_KINDS),
            )),
            choice(
                f("teams", "Teams", Kind::TeamList, "None ticked: every team"),
                Choices::Teams,
            ),
            choice(
                f(
                    "opponents",
                    "Against",
                    Kind::TeamList,
                    "Matches of each team, or among teams, only. None ticked: every team, or among the teams above",
                ),
                Choices::Teams,
            ),
            choice(
                f(
                    "side",
                    "Home or away",
                    Kind::Choice,
                    "Matches of each team, or in a row, only. Default: either",
                ),
                Choices::Fixed(SIDES),
            ),
            f(
                "fixtures",
                "Fixtures",
                Kind::Fixtures,
                "Given fixtures only: one a line, home team first, like Lewes 1 v Hove 1",
            ),
            f("dates", "On these dates", Kind::Dates, "Default: the whole season"),
            f("weeks", "Weeks running", Kind::Whole, "Matches in a row only"),
            f(
                "days",
                "Days apart, at least",
                Kind::Whole,
                "Days between meetings only",
            ),
            f("min", "At least", Kind::Whole, "Given fixtures only"),
            f("max", "At most", Kind::Whole, ""),
            choice(
                f(
                    "per",
                    "Counted",
                    Kind::Choice,
                    "Among teams: on each date (default) or in all. Home or away running: for each team (default) or in all",
                ),
                Choices::Fixed(PER),
            ),
            f(
                "weight",
                "Cost of each one over",
                Kind::Number,
                "Leave empty to never allow it",
            ),
        ],
    },
];

/// A home team and an away team, chosen from the league's teams.
const PAIR: [Field; 2] = [
    required(choice(
        f("home", "Home team", Kind::Choice, ""),
        Choices::Teams,
    )),
    required(choice(
        f("away", "Away team", Kind::Choice, ""),
        Choices::Teams,
    )),
];

/// The date a fixed fixture or an allowed replay is played on.
const fn pair_date(help: &'static str) -> Field {
    required(f("date", "Date", Kind::Date, help))
}

/// Fixtures of the round robin that are not played.
const EXCLUDED: Section = Section {
    name: "excluded",
    title: "Fixtures not to be played",
    item: "fixture not to be played",
    place: Place::Array("excluded"),
    fields: &PAIR,
};

/// Fixtures played at another venue than the home club's (Sussex rule 2.3).
const NEUTRAL: Section = Section {
    name: "neutral",
    title: "Matches at a neutral venue",
    item: "match at a neutral venue",
    place: Place::Array("neutral"),
    fields: &[
        PAIR[0],
        PAIR[1],
        required(choice(
            f(
                "venue",
                "Venue",
                Kind::Choice,
                "Its capacity and closures apply; the home team's nights still say when",
            ),
            Choices::Venues,
        )),
    ],
};

/// Replays the Fixtures Secretary allowed after the season's end (Sussex rule 2.1); the
/// season writes them when it records a replay, and they can be written here too.
const LATE: Section = Section {
    name: "late",
    title: "Replays allowed after the season ends",
    item: "replay allowed after the season ends",
    place: Place::Array("late"),
    fields: &[
        PAIR[0],
        PAIR[1],
        pair_date("After the last day of the season, with the Fixtures Secretary's permission"),
    ],
};

/// Who has White, for the fixture list's colours column.
const COLOURS: Section = Section {
    name: "colours",
    title: "Colours",
    item: "colours",
    place: Place::Table("colours"),
    fields: &[choice(
        f(
            "odd_boards_white",
            "White on board 1 (and 3, 5, …)",
            Kind::Choice,
            "Sussex rule 8.2: the away team. None: the list has no colours",
        ),
        Choices::Fixed(&[("home", "the home team"), ("away", "the away team")]),
    )],
};

/// When the clubs may move a fixture by agreement (Sussex rule 2.6).
const CHANGES: Section = Section {
    name: "changes",
    title: "Changes the clubs agree (rule 2.6)",
    item: "rule for changes",
    place: Place::Table("changes"),
    fields: &[
        f(
            "issued",
            "Date the fixture list was issued",
            Kind::Date,
            "Needed for the rule to apply",
        ),
        f(
            "early_until",
            "Early matches: those up to",
            Kind::Date,
            "e.g. 30/11/2026: these may be changed by an agreement soon after the issue",
        ),
        f(
            "early_days",
            "Days after the issue for early matches' agreements",
            Kind::Whole,
            "Default: 14",
        ),
        f(
            "notice_days",
            "Later matches: days' notice before the original date",
            Kind::Whole,
            "Default: 28",
        ),
        f(
            "notify_days",
            "Days both clubs have to tell the Fixtures Secretary",
            Kind::Whole,
            "Default: 7",
        ),
        f(
            "weekends",
            "Agreed weekend matches allowed",
            Kind::Flag,
            "Played on the agreed Saturday or Sunday whatever the home team's nights. Default: no",
        ),
    ],
};

/// What defaults cost in the tables (Sussex rule 6, 4NCL rule 10).
const PENALTIES: Section = Section {
    name: "penalties",
    title: "Penalties for defaults",
    item: "penalties",
    place: Place::Table("penalties"),
    fields: &[
        f(
            "board_points",
            "Default points for a default on board 1, 2, …",
            Kind::Wholes,
            "Sussex rule 6.1: 4, 3, 2, 1. Empty: default points are given as a number",
        ),
        f(
            "per_match_point",
            "Default points that cost a match point",
            Kind::Whole,
            "Sussex rule 6.1: 6; 4NCL rule 10.1: 3. Empty: penalties take match points only",
        ),
        f(
            "serious_default",
            "Match points a serious default costs",
            Kind::Whole,
            "Sussex rule 6.2.1: 2, taken when the match is replayed. Default: none",
        ),
        f(
            "not_below_zero",
            "Penalties never take a team below no points",
            Kind::Flag,
            "4NCL rule 10.6: yes. Default: no",
        ),
        f(
            "forfeits_exclude",
            "Forfeited matches after which a team is excluded",
            Kind::Whole,
            "GTCL rule 8.4: 2. Empty: no such rule",
        ),
    ],
};

/// A cup's form: what the season writes (`draw`, `out`) is kept as written.
const CUP: Section = Section {
    name: "cup",
    title: "Cups",
    item: "cup",
    place: Place::Array("cup"),
    fields: &[
        f(
            "name",
            "Name",
            Kind::Text,
            "e.g. Knock-Out Cup. Default: Cup",
        ),
        choice(
            f(
                "teams",
                "Entrants",
                Kind::TeamList,
                "None ticked: every team",
            ),
            Choices::Teams,
        ),
        choice(
            f(
                "finalists",
                "Last season's finalists",
                Kind::TeamList,
                "Kept apart until the final",
            ),
            Choices::Teams,
        ),
        f(
            "opens",
            "First day of the first round",
            Kind::Date,
            "Default: the first day of the season",
        ),
        f(
            "deadlines",
            "Last day of each round",
            Kind::Dates,
            "In order, the final's last: 31/10/2026; 12/12/2026; 06/03/2027",
        ),
        f(
            "reserve",
            "Dates kept for the cup",
            Kind::Dates,
            "Its entrants play no league match on them",
        ),
        f(
            "zones",
            "Zones",
            Kind::Zones,
            "One a line, its name then its entrants: West: Horsham 1, Worthing 2. First-round ties stay within a zone",
        ),
        f(
            "offer",
            "Dates the home captain offers",
            Kind::Whole,
            "Default: 2",
        ),
        f(
            "notice_days",
            "Days' notice for an offered date",
            Kind::Whole,
            "Offered dates come at least this many days after the round opens. Default: 0",
        ),
        f(
            "weekends",
            "Ties may be played at weekends",
            Kind::Flag,
            "At the home team's venue. Default: no",
        ),
        f(
            "coin_toss",
            "A coin toss decides colours",
            Kind::Flag,
            "Instead of the league's colours. Default: no",
        ),
        f(
            "all_play_all_of_three",
            "Three entrants play each other",
            Kind::Flag,
            "Each at home once, instead of a knockout with a bye. Default: no",
        ),
        f(
            "avoid_away_club",
            "Offered dates avoid the away club's other matches",
            Kind::Flag,
            "Default: no",
        ),
    ],
};

/// The section of that name.
pub fn section(name: &str) -> Option<&'static Section> {
    SECTIONS.iter().find(|s| s.name == name)
}

/// What is wrong with a submitted form: messages per field, and the others.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FormErrors {
    /// Field key → messages.
    pub fields: BTreeMap<String, Vec<String>>,
    /// Messages about the league as a whole, or other parts of it.
    pub general: Vec<String>,
}

impl FormErrors {
    fn field(&mut self, key: &str, message: String) {
        self.fields
            .entry(key.to_string())
            .or_default()
            .push(message);
    }
    fn general(message: String) -> Self {
        FormErrors {
            general: vec![message],
            ..Default::default()
        }
    }
    /// Whether nothing is wrong.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty() && self.general.is_empty()
    }
}

/// A form's values: field key → the values posted (several for calendars and nights).
pub type Values = BTreeMap<String, Vec<String>>;

fn parse(text: &str) -> Result<DocumentMut, FormErrors> {
    text.parse::<DocumentMut>()
        .map_err(|e| FormErrors::general(format!("league.toml: {e}")))
}

/// The table of the section's item (`index` for an array), if there is one.
fn table<'a>(doc: &'a DocumentMut, s: &Section, index: Option<usize>) -> Option<&'a Table> {
    match s.place {
        Place::Top => Some(doc.as_table()),
        Place::Table(name) => doc.get(name)?.as_table(),
        Place::Array(name) => tables(doc.get(name)?).get(index?).copied(),
    }
}

/// The tables of an array section: each `[[name]]`, or the one `[name]` a league may write
/// instead (a single cup).
fn tables(item: &Item) -> Vec<&Table> {
    match item {
        Item::ArrayOfTables(a) => a.iter().collect(),
        Item::Table(t) => vec![t],
        _ => Vec::new(),
    }
}

/// An array section's tables to change: a single `[name]` table becomes the first of
/// `[[name]]` tables (the same league).
fn tables_mut<'d>(doc: &'d mut DocumentMut, name: &str) -> Option<&'d mut ArrayOfTables> {
    if let Some(Item::Table(t)) = doc.get(name) {
        let mut a = ArrayOfTables::new();
        a.push(t.clone());
        doc[name] = Item::ArrayOfTables(a);
    }
    doc.get_mut(name)?.as_array_of_tables_mut()
}

/// The names of an array section's items, in file order.
pub fn items(text: &str, s: &Section) -> Vec<String> {
    let Ok(doc) = text.parse::<DocumentMut>() else {
        return Vec::new();
    };
    let Place::Array(name) = s.place else {
        return Vec::new();
    };
    doc.get(name)
        .map(tables)
        .map(|a| {
            a.into_iter()
                .map(|t| {
                    let get = |k: &str| t.get(k).and_then(|n| n.as_str()).unwrap_or("");
                    match (get("name"), get("home"), get("away")) {
                        ("", "", "") if !get("kind").is_empty() => {
                            let kind = get("kind");
                            CONSTRAINT_KINDS
                                .iter()
                                .find(|(k, _)| *k == kind)
                                .map_or(kind.to_string(), |(_, words)| words.to_string())
                        }
                        ("", home, away) if !home.is_empty() => {
                            let date = t
                                .get("date")
                                .and_then(|d| d.as_value())
                                .and_then(value_date)
                                .map_or(String::new(), |d| format!(" on {d}"));
                            format!("{home} v {away}{date}")
                        }
                        (name, ..) => name.to_string(),
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The teams, clubs and venues `after` adds to and removes from `before`, in words, one line
/// per kind that changed.
pub fn names_diff(before: &str, after: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (array, plural) in [("team", "Teams"), ("club", "Clubs"), ("venue", "Venues")] {
        let (old, new) = (names(before, array), names(after, array));
        let added: Vec<&str> = new
            .iter()
            .filter(|n| !old.contains(n))
            .map(String::as_str)
            .collect();
        let gone: Vec<&str> = old
            .iter()
            .filter(|n| !new.contains(n))
            .map(String::as_str)
            .collect();
        if !added.is_empty() {
            out.push(format!(
                "{plural} added ({}): {}",
                added.len(),
                added.join(", ")
            ));
        }
        if !gone.is_empty() {
            out.push(format!(
                "{plural} removed ({}): {}",
                gone.len(),
                gone.join(", ")
            ));
        }
    }
    if out.is_empty() {
        out.push("No team, club or venue was added or removed.".into());
    }
    out
}

/// The names in an array of tables (venues, clubs, divisions), for choices.
pub fn names(text: &str, array: &str) -> Vec<String> {
    match SECTIONS
        .iter()
        .find(|s| matches!(s.place, Place::Array(a) if a == array))
    {
        Some(s) => items(text, s),
        None => Vec::new(),
    }
}

/// The league's teams, each with its division's name (empty when it names none), in the
/// order of the file (a team without a name included, as "", so that indices match `items`).
pub fn teams_with_division(text: &str) -> Vec<(String, String)> {
    let Ok(doc) = text.parse::<DocumentMut>() else {
        return Vec::new();
    };
    let Some(teams) = doc.get("team") else {
        return Vec::new();
    };
    let get = |t: &Table, k: &str| t.get(k).and_then(|n| n.as_str()).unwrap_or("").to_string();
    tables(teams)
        .into_iter()
        .map(|t| (get(t, "name"), get(t, "division")))
        .collect()
}

/// A date of the file: a TOML date or a string that reads as one.
fn value_date(v: &Value) -> Option<NaiveDate> {
    match v {
        Value::Datetime(dt) => {
            let d = dt.value().date?;
            NaiveDate::from_ymd_opt(d.year as i32, d.month as u32, d.day as u32)
        }
        Value::String(s) => parse_list_date(s.value()),
        _ => None,
    }
}

/// The dates of a date list of the file (ranges expanded).
pub fn item_dates(item: Option<&Item>) -> BTreeSet<NaiveDate> {
    let mut out = BTreeSet::new();
    let Some(a) = item.and_then(|i| i.as_array()) else {
        return out;
    };
    for v in a.iter() {
        match v {
            Value::InlineTable(t) => {
                let (Some(from), Some(to)) = (
                    t.get("from").and_then(value_date),
                    t.get("to").and_then(value_date),
                ) else {
                    continue;
                };
                out.extend(from.iter_days().take_while(|d| *d <= to));
            }
            other => out.extend(value_date(other)),
        }
    }
    out
}

/// Lines shown in one text box: one value, or none when there are none.
fn as_one_text(lines: Vec<String>) -> Vec<String> {
    if lines.is_empty() {
        Vec::new()
    } else {
        vec![lines.join("\n")]
    }
}

/// A list of fixtures ({ home, away } tables) as the form shows it: one a line, "home v away".
fn fixture_lines(item: &Item) -> Vec<String> {
    let side = |t: &InlineTable, k: &str| t.get(k).and_then(|v| v.as_str()).map(String::from);
    let lines: Vec<String> = item
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_inline_table())
        .filter_map(|t| Some(format!("{} v {}", side(t, "home")?, side(t, "away")?)))
        .collect();
    as_one_text(lines)
}

/// Fixtures typed one a line, "home v away", as the file's list of { home, away } tables.
fn fixtures_written(text: &str) -> Result<Item, String> {
    let mut a = Array::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let bad = || format!("\"{line}\" is not \"home team v away team\", like Lewes 1 v Hove 1");
        let (home, away) = [" v ", " V ", " vs ", " VS ", " Vs "]
            .iter()
            .find_map(|sep| line.split_once(sep))
            .ok_or_else(bad)?;
        let (home, away) = (home.trim(), away.trim());
        if home.is_empty() || away.is_empty() {
            return Err(bad());
        }
        let mut t = InlineTable::new();
        t.insert("home", Value::from(home));
        t.insert("away", Value::from(away));
        a.push(Value::InlineTable(t));
    }
    Ok(Item::Value(Value::Array(a)))
}

/// Zones (a table of team lists) as the form shows them: one a line, "name: team, team".
fn zone_lines(item: &Item) -> Vec<String> {
    let line = |name: &str, v: &Item| {
        let teams: Vec<&str> = v
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| t.as_str())
            .collect();
        format!("{name}: {}", teams.join(", "))
    };
    let lines: Vec<String> = match item {
        Item::Table(t) => t.iter().map(|(k, v)| line(k, v)).collect(),
        Item::Value(Value::InlineTable(t)) => t
            .iter()
            .map(|(k, v)| line(k, &Item::Value(v.clone())))
            .collect(),
        _ => Vec::new(),
    };
    as_one_text(lines)
}

/// Zones typed one a line, "name: team, team", as the file's table of team lists.
fn zones_written(text: &str) -> Result<Item, String> {
    let mut zones = InlineTable::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let bad =
            || format!("\"{line}\" is not \"zone: team, team\", like West: Horsham 1, Worthing 2");
        let (name, teams) = line.split_once(':').ok_or_else(bad)?;
        let name = name.trim();
        if name.is_empty() {
            return Err(bad());
        }
        if zones.contains_key(name) {
            return Err(format!("Zone \"{name}\" is given twice"));
        }
        let teams: Array = teams
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(Value::from)
            .collect();
        zones.insert(name, Value::Array(teams));
    }
    Ok(Item::Value(Value::InlineTable(zones)))
}

/// A text or a choice as the form shows it; a list (such as `tie_breaks`) as its names
/// separated by commas.
fn text_shown(item: &Item) -> Vec<String> {
    match item.as_array() {
        Some(a) => vec![a
            .iter()
            .filter_map(|v| v.as_str())
            .collect::<Vec<_>>()
            .join(", ")],
        None => item
            .as_str()
            .map(|s| vec![s.to_string()])
            .unwrap_or_default(),
    }
}

/// A list of whole numbers as the form shows it: "4, 3, 2, 1".
fn wholes_shown(item: &Item) -> Vec<String> {
    let numbers: Vec<String> = item
        .as_array()
        .map(|a| a.iter().map(|v| v.to_string().trim().to_string()).collect())
        .unwrap_or_default();
    if numbers.is_empty() {
        Vec::new()
    } else {
        vec![numbers.join(", ")]
    }
}

/// Whole numbers typed in one field, separated by commas or spaces, as a list.
fn wholes_written(text: &str) -> Result<Item, String> {
    let mut a = Array::new();
    for n in text.split([',', ' ', ';']).filter(|n| !n.is_empty()) {
        a.push(
            n.parse::<i64>()
                .map_err(|_| format!("`{n}` is not a whole number"))?,
        );
    }
    Ok(Item::Value(Value::Array(a)))
}

/// A value of the file as the form shows it.
fn shown(item: Option<&Item>, kind: Kind) -> Vec<String> {
    let Some(item) = item else {
        return Vec::new();
    };
    match kind {
        Kind::Dates => {
            let d = item_dates(Some(item));
            if d.is_empty() {
                Vec::new()
            } else {
                vec![date_cell(&d)]
            }
        }
        Kind::Calendar => item_dates(Some(item))
            .iter()
            .map(|d| d.to_string())
            .collect(),
        Kind::TeamList => item
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str())
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default(),
        Kind::Nights => item
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str())
                    .filter_map(|n| parse_weekday(n).map(|w| w.to_string()))
                    .collect()
            })
            .unwrap_or_default(),
        Kind::Flag => match item.as_bool() {
            Some(true) => vec!["yes".into()],
            Some(false) => vec!["no".into()],
            None => Vec::new(),
        },
        Kind::Date => item
            .as_value()
            .and_then(value_date)
            .map(|d| vec![d.to_string()])
            .unwrap_or_default(),
        Kind::Fixtures => fixture_lines(item),
        Kind::Zones => zone_lines(item),
        Kind::PerDate => {
            let lines: Vec<String> = match item {
                Item::Table(t) => t
                    .iter()
                    .map(|(k, v)| format!("{k} = {}", v.as_integer().unwrap_or(0)))
                    .collect(),
                Item::Value(Value::InlineTable(t)) => t
                    .iter()
                    .map(|(k, v)| format!("{k} = {}", v.as_integer().unwrap_or(0)))
                    .collect(),
                _ => Vec::new(),
            };
            as_one_text(lines)
        }
        Kind::Text | Kind::Time | Kind::Choice => text_shown(item),
        Kind::Wholes => wholes_shown(item),
        Kind::Whole | Kind::Number => item
            .as_value()
            .map(|v| match v {
                Value::Integer(i) => i.value().to_string(),
                Value::Float(x) => x.value().to_string(),
                other => other.to_string().trim().to_string(),
            })
            .into_iter()
            .collect(),
    }
}

/// The form's values for the section's item as the file has them (`index` for an array
/// section; `None` there gives an empty form for a new item).
pub fn values(text: &str, s: &Section, index: Option<usize>) -> Values {
    let mut out = Values::new();
    let Ok(doc) = text.parse::<DocumentMut>() else {
        return out;
    };
    let Some(t) = table(&doc, s, index) else {
        return out;
    };
    for field in s.fields {
        out.insert(field.key.to_string(), shown(t.get(field.key), field.kind));
    }
    out
}

/// The first non-empty value posted for a field.
fn one<'a>(values: &'a Values, key: &str) -> &'a str {
    values
        .get(key)
        .into_iter()
        .flatten()
        .map(|v| v.trim())
        .find(|v| !v.is_empty())
        .unwrap_or("")
}

/// The kinds of limit that read a field of the section, for the form to show it only for
/// them; `None` for a field every item reads (and for other sections).
pub fn read_by(s: &Section, key: &str) -> Option<Vec<&'static str>> {
    if !matches!(s.place, Place::Array("constraint")) || ["name", "kind", "weight"].contains(&key) {
        return None;
    }
    let kinds = CONSTRAINT_KINDS.iter().map(|(k, _)| *k);
    Some(
        kinds
            .filter(|k| crate::model::constraint_keys(k).is_some_and(|read| read.contains(&key)))
            .collect(),
    )
}

/// A limit's fields filled in that its kind does not read, each named next to its field in
/// the form's words (the loader would name the file's keys).
fn unread_fields(s: &Section, form: &Values) -> Result<(), FormErrors> {
    let kind = one(form, "kind");
    if crate::model::constraint_keys(kind).is_none() {
        return Ok(());
    }
    let mut errors = FormErrors::default();
    for f in s.fields {
        let unread = read_by(s, f.key).is_some_and(|kinds| !kinds.contains(&kind));
        if unread && !one(form, f.key).is_empty() {
            errors.field(
                f.key,
                "This kind of limit does not use it: leave it empty".to_string(),
            );
        }
    }
    if errors.fields.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The names ticked, in the order posted, each once; `None` when none is.
fn team_list<'a>(posted: impl Iterator<Item = &'a String>) -> Option<Item> {
    let mut names: Vec<&str> = Vec::new();
    for n in posted.map(|n| n.trim()).filter(|n| !n.is_empty()) {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    (!names.is_empty()).then(|| Item::Value(Value::Array(names.into_iter().collect())))
}

/// A field's posted values as the item to write, `None` to remove the key (empty), or the
/// message for the field.
fn written(field: &Field, values: &Values) -> Result<Option<Item>, String> {
    let text = one(values, field.key);
    let all = || values.get(field.key).into_iter().flatten();
    let item = match field.kind {
        Kind::Calendar | Kind::Dates => {
            let joined = if field.kind == Kind::Calendar {
                let mut dates = BTreeSet::new();
                for v in all().filter(|v| !v.trim().is_empty()) {
                    dates.insert(parse_list_date(v.trim()).ok_or_else(|| {
                        format!("`{}` is not a date (DD/MM/YYYY or YYYY-MM-DD)", v.trim())
                    })?);
                }
                date_cell(&dates)
            } else {
                all().cloned().collect::<Vec<_>>().join("; ")
            };
            let a = parse_date_cell(&joined)?;
            if a.is_empty() {
                return Ok(None);
            }
            Item::Value(Value::Array(a))
        }
        Kind::Nights => {
            let mut a = Array::new();
            for n in all().map(|n| n.trim()).filter(|n| !n.is_empty()) {
                let w = parse_weekday(n).ok_or_else(|| {
                    format!("\"{n}\" is not a weekday (use Mon Tue Wed Thu Fri Sat Sun)")
                })?;
                a.push(w.to_string());
            }
            if a.is_empty() {
                return Ok(None);
            }
            Item::Value(Value::Array(a))
        }
        Kind::TeamList => return Ok(team_list(all())),
        _ if text.is_empty() => return Ok(None),
        Kind::Text | Kind::Time | Kind::Choice => value(text),
        Kind::Whole => value(
            text.parse::<i64>()
                .map_err(|_| format!("`{text}` is not a whole number"))?,
        ),
        Kind::Wholes => wholes_written(text)?,
        Kind::Number => {
            let x = text
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("`{text}` is not a number"))?;
            value(x)
        }
        Kind::Flag => match text {
            "yes" => value(true),
            "no" => value(false),
            other => return Err(format!("`{other}` is not yes or no")),
        },
        Kind::Date => {
            Item::Value(toml_date(parse_list_date(text).ok_or_else(|| {
                format!("`{text}` is not a date (DD/MM/YYYY or YYYY-MM-DD)")
            })?))
        }
        Kind::Fixtures => fixtures_written(text)?,
        Kind::Zones => zones_written(text)?,
        Kind::PerDate => {
            let mut t = InlineTable::new();
            for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
                let bad = || format!("`{line}` is not \"date = number\", like 05/11/2026 = 2");
                let (d, n) = line.split_once(['=', ':']).ok_or_else(bad)?;
                let d = parse_list_date(d.trim()).ok_or_else(bad)?;
                let n = n.trim().parse::<i64>().map_err(|_| bad())?;
                t.insert(d.to_string().as_str(), Value::from(n));
            }
            Item::Value(Value::InlineTable(t))
        }
    };
    Ok(Some(item))
}

/// Where a name of each kind is referred to: (array of tables, key).
fn references(s: &Section) -> &'static [(&'static str, &'static str)] {
    match s.name {
        "venue" => &[
            ("club", "venue"),
            ("team", "venue"),
            ("division", "venue"),
            ("neutral", "venue"),
        ],
        "club" => &[("team", "club"), ("team", "joint_with")],
        "division" => &[("team", "division")],
        "team" => &[
            ("fixed", "home"),
            ("fixed", "away"),
            ("excluded", "home"),
            ("excluded", "away"),
            ("neutral", "home"),
            ("neutral", "away"),
            ("late", "home"),
            ("late", "away"),
            ("cup", "teams"),
            ("cup", "finalists"),
            ("cup", "zones"),
            ("constraint", "teams"),
            ("constraint", "opponents"),
            ("constraint", "fixtures"),
        ],
        _ => &[],
    }
}

/// Renames `old` to `new` in a value: a string, or the strings of an array or of a table of
/// arrays (cup zones).
fn rename_in(item: &mut Item, old: &str, new: &str) {
    fn in_value(v: &mut Value, old: &str, new: &str) {
        match v {
            Value::String(s) if s.value() == old => {
                let decor = s.decor().clone();
                *s = toml_edit::Formatted::new(new.to_string());
                *s.decor_mut() = decor;
            }
            Value::Array(a) => a.iter_mut().for_each(|v| in_value(v, old, new)),
            Value::InlineTable(t) => t.iter_mut().for_each(|(_, v)| in_value(v, old, new)),
            _ => {}
        }
    }
    match item {
        Item::Value(v) => in_value(v, old, new),
        Item::Table(t) => t.iter_mut().for_each(|(_, i)| rename_in(i, old, new)),
        _ => {}
    }
}

/// Carries a renamed venue, club, division or team through every place that names it.
fn rename(doc: &mut DocumentMut, s: &Section, old: &str, new: &str) {
    for (array, key) in references(s) {
        let tables: Vec<&mut Table> = match doc.get_mut(array) {
            Some(Item::ArrayOfTables(a)) => a.iter_mut().collect(),
            Some(Item::Table(t)) => vec![t],
            _ => Vec::new(),
        };
        for t in tables {
            if let Some(i) = t.get_mut(key) {
                rename_in(i, old, new);
            }
        }
    }
    if s.name == "team" {
        // A joint team's `hosts` is keyed by opponent.
        if let Some(Item::ArrayOfTables(teams)) = doc.get_mut("team") {
            for t in teams.iter_mut() {
                let Some(h) = t.get_mut("hosts") else {
                    continue;
                };
                let table: Option<&mut dyn toml_edit::TableLike> = match h {
                    Item::Table(t) => Some(t as &mut dyn toml_edit::TableLike),
                    Item::Value(Value::InlineTable(t)) => Some(t as &mut dyn toml_edit::TableLike),
                    _ => None,
                };
                if let Some(h) = table {
                    if let Some(v) = h.remove(old) {
                        h.insert(new, v);
                    }
                }
            }
        }
    }
}

/// Lines (1-based, inclusive) of the section's item in `text`: its table from its header to
/// its last key; for the top-level keys, those before the first table.
fn lines_of(text: &str, s: &Section, index: Option<usize>) -> Option<(usize, usize)> {
    let doc = toml_edit::ImDocument::parse(text).ok()?;
    let line = |offset: usize| text[..offset.min(text.len())].matches('\n').count() + 1;
    let span = match s.place {
        Place::Top => {
            let first = doc
                .as_table()
                .iter()
                .filter_map(|(_, i)| match i {
                    Item::Table(t) => t.span().map(|r| r.start),
                    Item::ArrayOfTables(a) => {
                        a.iter().filter_map(|t| t.span()).map(|r| r.start).min()
                    }
                    _ => None,
                })
                .min()
                .unwrap_or(text.len());
            0..first
        }
        Place::Table(name) => doc.get(name)?.as_table()?.span()?,
        Place::Array(name) => tables(doc.get(name)?).get(index?)?.span()?,
    };
    // A table's span starts at its header and ends after its last key's value.
    let end = text[span.clone()].trim_end().len() + span.start;
    Some((line(span.start), line(end.max(span.start))))
}

/// The key an error names, as a field of the section: `closed.from` → `closed`,
/// `weights.spread` → `spread`, `capacity_on.2026-11-05` → `capacity_on`.
fn field_key<'a>(s: &Section, key: &'a str) -> &'a str {
    // A limit's listed fixture names its teams as `home` and `away`; the form has one field.
    if s.name == "constraint" && matches!(key, "home" | "away") {
        return "fixtures";
    }
    let key = match s.place {
        Place::Table(name) | Place::Array(name) => key
            .strip_prefix(name)
            .and_then(|k| k.strip_prefix('.'))
            .unwrap_or(key),
        _ => key,
    };
    key.split('.').next().unwrap_or(key)
}

/// Whether an error only says the league is not finished yet (no teams; a division with one
/// team so far): a league being built through the forms passes through such states, so they
/// are shown as what is left to do and do not stop an edit. A solve still refuses them.
fn unfinished(e: &InputError) -> bool {
    matches!(e.problem, Problem::NoOpponent { .. })
        || (e.key == "team" && matches!(e.problem, Problem::Missing(_)))
}

/// What is left to do before the league can be solved, in the forms' words, each with the
/// form that does it (a path under the league's page).
pub fn pending(text: &str) -> Vec<(String, &'static str)> {
    let Err(e) = parse_league(text, "league.toml") else {
        return Vec::new();
    };
    e.0.iter()
        .filter(|e| unfinished(e))
        .map(|e| match &e.problem {
            Problem::NoOpponent { team, division } => (
                format!("{team} is the only team in {division}: add another team to it, or move {team} to another division"),
                "team/new",
            ),
            _ => (
                "the league has no teams yet: add each with its name, club and division".into(),
                "team/new",
            ),
        })
        .collect()
}

/// The errors of a league file that stop an edit (all but [`unfinished`] ones).
fn blocking(text: &str) -> Vec<InputError> {
    match parse_league(text, "league.toml") {
        Ok(_) => Vec::new(),
        Err(e) => e.0.into_iter().filter(|e| !unfinished(e)).collect(),
    }
}

/// A loader's message about the section's item in the form's words: each key the form shows
/// named by its label, and a limit's kind as "this kind of limit".
fn in_form_words(problem: &str, s: &Section) -> String {
    let mut m = problem.to_string();
    if s.name == "constraint" {
        for (kind, _) in CONSTRAINT_KINDS {
            m = m
                .replace(
                    &format!("`{kind}` constraints name their"),
                    "this kind of limit names its",
                )
                .replace(&format!("a `{kind}` constraint"), "this kind of limit");
        }
        m = m.replace("this constraint", "this kind of limit");
        if let Some(at) = m.find(", like fixtures = ") {
            m.truncate(at);
            m += ", one a line, like Lewes 1 v Hove 1";
        }
    }
    for f in s.fields {
        m = m.replace(&format!("`{}`", f.key), &format!("“{}”", f.label));
    }
    let mut c = m.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => m,
    }
}

/// Validates a league file: its errors in the loader's words, those of the section's item
/// next to their field.
fn validate(text: &str, s: &Section, index: Option<usize>) -> Result<(), FormErrors> {
    let errors = blocking(text);
    if errors.is_empty() {
        return Ok(());
    }
    let lines = lines_of(text, s, index);
    // Where the other forms' items sit, found only when an error lies outside this item.
    let mut located = None;
    let mut out = FormErrors::default();
    for e in &errors {
        let problem = e.problem.to_string();
        // The file's reader names a missing key in its message only.
        let missing = problem
            .strip_prefix("missing field `")
            .and_then(|k| k.strip_suffix('`'));
        let key = missing.unwrap_or_else(|| field_key(s, &e.key));
        let ours = lines.is_some_and(|(a, b)| (a..=b).contains(&e.line));
        if let Some(f) = s.fields.iter().find(|f| f.key == key).filter(|_| ours) {
            let m = match missing {
                Some(_) => format!("{} is required", f.label),
                None => in_form_words(&problem, s),
            };
            out.field(key, m);
        } else {
            out.general.push(
                elsewhere(located.get_or_insert_with(|| places(text)), e)
                    .unwrap_or_else(|| e.to_string()),
            );
        }
    }
    Err(out)
}

/// Where each item a form shows sits in the league file: (section, index, first and last
/// line, the item's name).
type Places = Vec<(&'static Section, Option<usize>, (usize, usize), String)>;

/// The places of every form's items in `text`.
fn places(text: &str) -> Places {
    let mut out = Vec::new();
    for s in SECTIONS {
        let named = items(text, s);
        let indices: Vec<Option<usize>> = match s.place {
            Place::Array(_) => (0..named.len()).map(Some).collect(),
            _ => vec![None],
        };
        for index in indices {
            if let Some(lines) = lines_of(text, s, index) {
                let name = index.map(|i| named[i].clone()).unwrap_or_default();
                out.push((s, index, lines, name));
            }
        }
    }
    out
}

/// An error in another part of the league, in the forms' words: the part, the item, the
/// field and what is wrong; `None` where no form shows that key.
fn elsewhere(places: &Places, e: &InputError) -> Option<String> {
    let (s, _, _, name) = places
        .iter()
        .find(|(_, _, (a, b), _)| e.line > 0 && (*a..=*b).contains(&e.line))?;
    let key = field_key(s, &e.key);
    let field = s.fields.iter().find(|f| f.key == key)?;
    let item = if name.is_empty() {
        String::new()
    } else {
        format!(" “{name}”")
    };
    Some(format!(
        "{}{item}, {}: {}",
        s.title,
        field.label,
        in_form_words(&e.problem.to_string(), s)
    ))
}

/// What an edit did, for the page to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edited {
    /// The new league file.
    pub text: String,
    /// The item's name after the edit (for an array section).
    pub name: String,
    /// Its index after the edit.
    pub index: Option<usize>,
}

/// The league file with the section's item set from the form (`index` `None` on an array
/// section adds an item). A renamed venue, club, division or team is renamed wherever the
/// file names it. Keys the form does not show are kept. Errors: each field's own, then the
/// whole league's (nothing is returned unless the league file is valid).
pub fn apply(
    text: &str,
    s: &Section,
    index: Option<usize>,
    form: &Values,
) -> Result<Edited, FormErrors> {
    unread_fields(s, form)?;
    let items = changed_fields(text, s, index, form)?;
    let mut doc = parse(text)?;
    let absent = |k: &str| table(&doc, s, index).is_none_or(|t| !t.contains_key(k));
    let existing = index.is_some() || !matches!(s.place, Place::Array(_));
    if existing && items.iter().all(|(k, i)| i.is_none() && absent(k)) {
        // Nothing changed: the file stays as written (a single `[cup]` is not rewritten).
        validate(text, s, index)?;
        return Ok(Edited {
            text: text.to_string(),
            name: one(form, "name").to_string(),
            index,
        });
    }
    let old_name = table(&doc, s, index)
        .and_then(|t| t.get("name"))
        .and_then(|n| n.as_str())
        .map(String::from);
    let new_name = one(form, "name").to_string();
    let (t, at) = target_table(&mut doc, s, index)?;
    set_fields(t, items);
    if let Some(old) = old_name.filter(|o| at.is_some() && *o != new_name && !new_name.is_empty()) {
        rename(&mut doc, s, &old, &new_name);
    }
    let out = doc.to_string();
    validate(&out, s, at)?;
    Ok(Edited {
        text: out,
        name: new_name,
        index: at,
    })
}

/// The form's fields that differ from what the file says (`None`: the key removed); a field
/// whose value is what the file says is left as written there, its layout and comments kept.
fn changed_fields(
    text: &str,
    s: &Section,
    index: Option<usize>,
    form: &Values,
) -> Result<Vec<(&'static str, Option<Item>)>, FormErrors> {
    let mut errors = FormErrors::default();
    let mut items = Vec::new();
    let existing = !matches!(s.place, Place::Array(_)) || index.is_some();
    let before = existing.then(|| values(text, s, index));
    let repr = |i: &Result<Option<Item>, String>| match i {
        Ok(Some(i)) => Some(i.to_string().trim().to_string()),
        _ => None,
    };
    for field in s.fields {
        let new = written(field, form);
        if let (Some(b), Ok(Some(_))) = (&before, &new) {
            if repr(&written(field, b)) == repr(&new) {
                continue;
            }
        }
        match new {
            Ok(None) if field.required => {
                errors.field(field.key, format!("{} is required", field.label))
            }
            Ok(item) => items.push((field.key, item)),
            Err(m) => errors.field(field.key, m),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(items)
}

/// The table a section's form writes to (an array's item by index, or a new one), and its
/// index in the array.
fn target_table<'d>(
    doc: &'d mut DocumentMut,
    s: &Section,
    index: Option<usize>,
) -> Result<(&'d mut Table, Option<usize>), FormErrors> {
    Ok(match s.place {
        Place::Top => (doc.as_table_mut(), None),
        Place::Table(name) => {
            if !doc.contains_key(name) {
                doc[name] = Item::Table(Table::new());
            }
            let t = doc[name]
                .as_table_mut()
                .ok_or_else(|| FormErrors::general(format!("`{name}` is not a table")))?;
            (t, None)
        }
        Place::Array(name) => {
            if !doc.contains_key(name) {
                doc[name] = Item::ArrayOfTables(ArrayOfTables::new());
            }
            let a = tables_mut(doc, name).ok_or_else(|| {
                FormErrors::general(format!("`{name}` is not a list of [[{name}]] tables"))
            })?;
            let at = match index {
                Some(i) if i < a.len() => i,
                Some(_) => {
                    return Err(FormErrors::general(format!(
                        "that {} is no longer in the league",
                        s.item
                    )))
                }
                None => {
                    a.push(Table::new());
                    a.len() - 1
                }
            };
            (a.get_mut(at).expect("index checked above"), Some(at))
        }
    })
}

/// Sets each key to its value (keeping the key's place and comments) or removes it.
fn set_fields(t: &mut Table, items: Vec<(&'static str, Option<Item>)>) {
    for (key, item) in items {
        match item {
            Some(item) => match t.get_mut(key) {
                // Keep the key's place and comments: replace its value only.
                Some(slot) => {
                    let decor = slot.as_value().map(|v| v.decor().clone());
                    *slot = item;
                    if let (Some(d), Some(v)) = (decor, slot.as_value_mut()) {
                        *v.decor_mut() = d;
                    }
                }
                None => {
                    t.insert(key, item);
                }
            },
            None => {
                t.remove(key);
            }
        }
    }
}

/// The league file without an array section's item; refused (in the loader's words) when the
/// league would not be valid without it, e.g. a club its teams still name.
pub fn delete(text: &str, s: &Section, index: usize) -> Result<String, FormErrors> {
    let mut doc = parse(text)?;
    let Place::Array(name) = s.place else {
        return Err(FormErrors::general(format!(
            "the {} cannot be deleted",
            s.item
        )));
    };
    let Some(a) = tables_mut(&mut doc, name) else {
        return Err(FormErrors::general(format!("no {} to delete", s.item)));
    };
    if index >= a.len() {
        return Err(FormErrors::general(format!(
            "that {} is no longer in the league",
            s.item
        )));
    }
    a.remove(index);
    if a.is_empty() {
        doc.remove(name);
    }
    let out = doc.to_string();
    let errors = blocking(&out);
    if !errors.is_empty() {
        return Err(FormErrors {
            fields: BTreeMap::new(),
            general: errors.iter().map(|e| e.to_string()).collect(),
        });
    }
    Ok(out)
}

/// The parts of the league file no form covers (cups, fixed fixtures, changes, ...): each
/// with how many tables it has. The forms keep them as written.
pub fn other_parts(text: &str) -> Vec<(String, usize)> {
    let Ok(doc) = text.parse::<DocumentMut>() else {
        return Vec::new();
    };
    let covered = |k: &str| {
        SECTIONS.iter().any(|s| match s.place {
            Place::Top => s.fields.iter().any(|f| f.key == k),
            Place::Table(n) | Place::Array(n) => n == k,
        })
    };
    doc.iter()
        .filter(|(k, _)| !covered(k))
        .map(|(k, i)| {
            let n = match i {
                Item::ArrayOfTables(a) => a.len(),
                _ => 1,
            };
            (part_words(k), n)
        })
        .collect()
}

/// A part of the league file no form shows, in the words of the league's secretary (the key
/// itself for one we have no words for).
fn part_words(key: &str) -> String {
    match key {
        "cup" => "cups",
        "colours" => "colours (who has white)",
        "changes" => "changes the clubs agreed (rule 2.6)",
        "neutral" => "matches at a neutral venue",
        "excluded" => "fixtures not to be played",
        "late" => "replays allowed after the season ends",
        "penalties" => "penalties for defaults",
        other => other,
    }
    .to_string()
}

/// A league file given whole (an upload): its name, or every error that stops it (in the
/// loader's words; an unfinished league is accepted, see [`pending`]).
pub fn accept(text: &str) -> Result<String, Vec<String>> {
    let errors = blocking(text);
    if !errors.is_empty() {
        return Err(errors.iter().map(|e| e.to_string()).collect());
    }
    text.parse::<DocumentMut>()
        .ok()
        .and_then(|d| d.get("name")?.as_str().map(String::from))
        .ok_or_else(|| vec!["league.toml: key `name`: the league has no name".to_string()])
}

/// A new league file: the season's name and dates only (errors by field).
pub fn new_league(form: &Values) -> Result<String, FormErrors> {
    let season = section("season").expect("the season section");
    apply("", season, None, form).map(|e| e.text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEAGUE: &str = r#"# A small league
name = "Test League"
start = 2026-10-05
end = 2027-03-26
closed = [{ from = 2026-12-19, to = 2027-01-03 }]

[rules]
max_unavailable = 3

[[venue]]
name = "Hall"

[[club]]
name = "Lewes"
venue = "Hall"
nights = ["Tue"]

[[club]]
name = "Hove"
venue = "Hall"
nights = ["Thu"]

[[division]]
name = "One"

[[team]]
name = "Lewes 1"
club = "Lewes"
division = "One"
unavailable = [2026-10-06]

[[team]]
name = "Hove 1"
club = "Hove"
division = "One"

[[fixed]]
home = "Lewes 1"
away = "Hove 1"
date = 2026-10-13
"#;

    fn form(pairs: &[(&str, &str)]) -> Values {
        let mut v = Values::new();
        for (k, x) in pairs {
            v.entry(k.to_string()).or_default().push(x.to_string());
        }
        v
    }

    #[test]
    fn an_unchanged_form_changes_nothing_the_loader_sees() {
        let before = parse_league(LEAGUE, "league.toml").unwrap();
        for s in SECTIONS {
            let indices: Vec<Option<usize>> = match s.place {
                Place::Array(_) => (0..items(LEAGUE, s).len()).map(Some).collect(),
                _ => vec![None],
            };
            for i in indices {
                let v = values(LEAGUE, s, i);
                let e = apply(LEAGUE, s, i, &v).unwrap();
                let after = parse_league(&e.text, "league.toml").unwrap();
                assert_eq!(before, after, "section {} item {i:?}", s.name);
                assert!(e.text.contains("# A small league"));
            }
        }
    }

    #[test]
    fn renaming_a_team_renames_its_fixtures() {
        let s = section("team").unwrap();
        let mut v = values(LEAGUE, s, Some(1));
        v.insert("name".into(), vec!["Hove A".into()]);
        let e = apply(LEAGUE, s, Some(1), &v).unwrap();
        let l = parse_league(&e.text, "league.toml").unwrap();
        assert!(l.team_by_name("Hove A").is_some());
        assert_eq!(l.fixed.len(), 1);
        assert!(e.text.contains("away = \"Hove A\""));
    }

    #[test]
    fn renaming_a_team_renames_it_in_constraints() {
        let text = format!(
            "{LEAGUE}\n[[constraint]]\nkind = \"between\"\nteams = [\"Lewes 1\", \"Hove 1\"]\nmax = 1\n\n[[constraint]]\nkind = \"fixtures\"\nfixtures = [{{ home = \"Hove 1\", away = \"Lewes 1\" }}]\ndates = [2026-10-20]\nmin = 1\n"
        );
        let s = section("team").unwrap();
        let mut v = values(&text, s, Some(1));
        v.insert("name".into(), vec!["Hove A".into()]);
        let e = apply(&text, s, Some(1), &v).unwrap();
        let l = parse_league(&e.text, "league.toml").unwrap();
        assert_eq!(l.constraints.len(), 2);
        assert!(
            e.text.contains("teams = [\"Lewes 1\", \"Hove A\"]"),
            "{}",
            e.text
        );
        assert!(e.text.contains("home = \"Hove A\""), "{}", e.text);
    }

    #[test]
    fn errors_come_next_to_their_field_in_the_loaders_words() {
        let s = section("team").unwrap();
        let mut v = values(LEAGUE, s, Some(0));
        v.insert(
            "unavailable".into(),
            ["2026-10-06", "2026-10-13", "2026-10-20", "2026-10-27"]
                .iter()
                .map(|d| d.to_string())
                .collect(),
        );
        v.insert("rating".into(), vec!["strong".into()]);
        let e = apply(LEAGUE, s, Some(0), &v).unwrap_err();
        assert_eq!(e.fields["rating"], vec!["`strong` is not a number"]);
        v.insert("rating".into(), vec!["1850".into()]);
        let e = apply(LEAGUE, s, Some(0), &v).unwrap_err();
        assert_eq!(
            e.fields["unavailable"],
            vec!["Team \"Lewes 1\" declares 4 unavailable dates (home or away, with its club's); the league allows at most 3"]
        );
        assert!(e.general.is_empty(), "{e:?}");
        // An error of another part of the league goes on top, with its line.
        let c = section("club").unwrap();
        let e = delete(LEAGUE, c, 0).unwrap_err();
        assert!(e.general[0].contains("unknown club \"Lewes\""), "{e:?}");
    }

    #[test]
    fn a_new_team_from_the_form() {
        let s = section("team").unwrap();
        let v = form(&[
            ("name", "Hove 2"),
            ("club", "Hove"),
            ("division", "One"),
            ("unavailable", "2026-11-05"),
            ("unavailable", "2026-11-06"),
            ("unavailable", "2026-11-07"),
            ("nights", "Wed"),
        ]);
        let e = apply(LEAGUE, s, None, &v).unwrap();
        assert_eq!(e.index, Some(2));
        let l = parse_league(&e.text, "league.toml").unwrap();
        let t = &l.teams[l.team_by_name("Hove 2").unwrap()];
        assert_eq!(t.unavailable.len(), 3);
        assert!(e.text.contains("{ from = 2026-11-05, to = 2026-11-07 }"));
        let missing = apply(LEAGUE, s, None, &form(&[("name", "X")])).unwrap_err();
        assert_eq!(missing.fields["club"], vec!["Club is required"]);
    }

    /// A limit the league asks for, from the form: the teams ticked become a list, the rest
    /// keys of one `[[constraint]]`; a key its kind does not read is named next to its field.
    #[test]
    fn a_new_limit_from_the_form() {
        let s = section("constraint").unwrap();
        let v = form(&[
            ("name", "No three away in a row"),
            ("kind", "in_a_row"),
            ("teams", "Lewes 1"),
            ("teams", "Hove 1"),
            ("side", "away"),
            ("weeks", "3"),
            ("max", "2"),
        ]);
        let e = apply(LEAGUE, s, None, &v).unwrap();
        let l = parse_league(&e.text, "league.toml").unwrap();
        assert_eq!(l.constraints.len(), 1);
        assert_eq!(l.constraints[0].name, "No three away in a row");
        assert!(
            e.text.contains("teams = [\"Lewes 1\", \"Hove 1\"]"),
            "{}",
            e.text
        );
        assert_eq!(items(&e.text, s), vec!["No three away in a row"]);
        // Shown again as it was saved: an unchanged form changes nothing.
        let again = values(&e.text, s, Some(0));
        assert_eq!(again["teams"], vec!["Lewes 1", "Hove 1"]);
        assert_eq!(apply(&e.text, s, Some(0), &again).unwrap().text, e.text);
        let wrong = form(&[("kind", "apart"), ("days", "28"), ("max", "2")]);
        let err = apply(LEAGUE, s, None, &wrong).unwrap_err();
        assert_eq!(
            err.fields["max"],
            vec!["This kind of limit does not use it: leave it empty"]
        );
        // The loader's own messages, next to their fields in the form's words.
        let err = apply(
            LEAGUE,
            s,
            None,
            &form(&[("kind", "in_a_row"), ("max", "2")]),
        )
        .unwrap_err();
        assert_eq!(
            err.fields["weeks"],
            vec!["This kind of limit needs “Weeks running”"]
        );
    }

    /// The rules' tie-breaks: a list in the file shows as the form's choice, an unchanged form
    /// changes nothing, and a choice is saved for the loader to read.
    #[test]
    fn tie_breaks_from_the_settings_form() {
        let gtcl = include_str!("../instances/gtcl-2009-10.toml");
        let s = section("rules").unwrap();
        let shown = values(gtcl, s, None);
        assert_eq!(shown["tie_breaks"], vec!["game_points, head_to_head"]);
        assert!(TIE_BREAKS.iter().any(|(v, _)| *v == shown["tie_breaks"][0]));
        assert_eq!(apply(gtcl, s, None, &shown).unwrap().text, gtcl);
        let mut swiss = shown.clone();
        swiss.insert("tie_breaks".into(), vec![TIE_BREAKS[3].0.into()]);
        let text = apply(gtcl, s, None, &swiss).unwrap().text;
        let league = crate::model::parse_league(&text, "gtcl.toml").unwrap();
        assert_eq!(league.tie_breaks(0).len(), 3);
    }

    /// An edit that breaks another part of the league is refused with that part, its item and
    /// its field named in the forms' words, not the file's line and key.
    #[test]
    fn an_error_elsewhere_is_named_by_its_form() {
        let s = section("rules").unwrap();
        let mut v = values(LEAGUE, s, None);
        v.insert("max_unavailable".into(), vec!["0".into()]);
        let e = apply(LEAGUE, s, None, &v).unwrap_err();
        assert!(e.fields.is_empty(), "{e:?}");
        assert_eq!(e.general.len(), 1, "{e:?}");
        assert_eq!(
            e.general,
            vec!["Teams “Lewes 1”, Dates it cannot play: Team \"Lewes 1\" declares 1 unavailable dates (home or away, with its club's); the league allows at most 0"]
        );
    }

    /// A cup from its form: entrants ticked, round deadlines typed; deadlines out of order are
    /// named next to their field in the loader's words.
    #[test]
    fn a_cup_from_its_form() {
        let s = section("cup").unwrap();
        let v = form(&[
            ("name", "Knock-Out Cup"),
            ("teams", "Lewes 1"),
            ("teams", "Hove 1"),
            ("deadlines", "31/10/2026; 12/12/2026"),
            ("offer", "3"),
            ("weekends", "yes"),
        ]);
        let e = apply(LEAGUE, s, None, &v).unwrap();
        let l = parse_league(&e.text, "league.toml").unwrap();
        assert_eq!(l.cups.len(), 1);
        assert_eq!(
            (l.cups[0].name.as_str(), l.cups[0].offer),
            ("Knock-Out Cup", 3)
        );
        assert!(e.text.contains("[[cup]]"), "{}", e.text);
        let mut zoned = v.clone();
        zoned.insert("zones".into(), vec!["West: Lewes 1\r\nEast: Hove 1".into()]);
        let e = apply(LEAGUE, s, None, &zoned).unwrap();
        let l = parse_league(&e.text, "league.toml").unwrap();
        let zones: Vec<(&str, usize)> = l.cups[0]
            .zones
            .iter()
            .map(|(z, t)| (z.as_str(), t.len()))
            .collect();
        assert_eq!(zones, [("East", 1), ("West", 1)]);
        assert_eq!(
            values(&e.text, s, Some(0))["zones"],
            ["West: Lewes 1\nEast: Hove 1"]
        );
        zoned.insert("zones".into(), vec!["West: Lewes 1, Hove 2".into()]);
        let err = apply(LEAGUE, s, None, &zoned).unwrap_err();
        assert!(
            err.fields["zones"]
                .iter()
                .any(|m| m == "Unknown team \"Hove 2\""),
            "{err:?}"
        );
        zoned.insert("zones".into(), vec!["Lewes 1, Hove 1".into()]);
        let err = apply(LEAGUE, s, None, &zoned).unwrap_err();
        assert!(
            err.fields["zones"][0].contains("is not \"zone: team"),
            "{err:?}"
        );
        let mut late = v.clone();
        late.insert("deadlines".into(), vec!["12/12/2026; 31/10/2026".into()]);
        let err = apply(LEAGUE, s, None, &late).unwrap_err();
        assert!(
            err.fields["deadlines"][0].contains("is not after the deadline before it"),
            "{err:?}"
        );
    }

    /// Colours and the rule for changes from their forms; an empty form for a part the league
    /// does not have leaves the file as it was; a rule for changes without its issue date is
    /// named next to that field.
    #[test]
    fn colours_and_changes_from_their_forms() {
        let colours = section("colours").unwrap();
        let e = apply(
            LEAGUE,
            colours,
            None,
            &form(&[("odd_boards_white", "away")]),
        )
        .unwrap();
        assert!(
            e.text.contains("[colours]\nodd_boards_white = \"away\""),
            "{}",
            e.text
        );
        parse_league(&e.text, "league.toml").unwrap();
        let changes = section("changes").unwrap();
        assert_eq!(
            apply(LEAGUE, changes, None, &form(&[])).unwrap().text,
            LEAGUE
        );
        let v = form(&[("issued", "20/09/2026"), ("early_until", "30/11/2026")]);
        let e = apply(LEAGUE, changes, None, &v).unwrap();
        let l = parse_league(&e.text, "league.toml").unwrap();
        assert_eq!(l.changes.unwrap().early_days, 14);
        let err = apply(LEAGUE, changes, None, &form(&[("early_days", "10")])).unwrap_err();
        assert_eq!(
            err.fields["issued"],
            vec!["Date the fixture list was issued is required"]
        );
    }

    /// What defaults cost, from its form: the boards' points typed in one field become a list,
    /// shown again as typed; a word among them, or a board's points over 100, is named next to
    /// its field.
    #[test]
    fn penalties_from_their_form() {
        let penalties = section("penalties").unwrap();
        let v = form(&[
            ("board_points", "4, 3 2,1"),
            ("per_match_point", "6"),
            ("serious_default", "2"),
        ]);
        let e = apply(LEAGUE, penalties, None, &v).unwrap();
        assert!(
            e.text
                .contains("[penalties]\nboard_points = [4, 3, 2, 1]\nper_match_point = 6"),
            "{}",
            e.text
        );
        let l = parse_league(&e.text, "league.toml").unwrap();
        assert_eq!(l.penalties.for_boards(&[1, 2]), Ok(7));
        assert_eq!(
            values(&e.text, penalties, None)["board_points"],
            vec!["4, 3, 2, 1"]
        );
        let err = apply(
            LEAGUE,
            penalties,
            None,
            &form(&[("board_points", "4, three")]),
        )
        .unwrap_err();
        assert_eq!(
            err.fields["board_points"],
            vec!["`three` is not a whole number"]
        );
        let err = apply(
            LEAGUE,
            penalties,
            None,
            &form(&[("board_points", "4, 300")]),
        )
        .unwrap_err();
        assert!(
            err.fields["board_points"][0].contains("at most 100"),
            "{:?}",
            err.fields
        );
    }

    /// A match at a neutral venue, a fixture not to be played and a replay allowed after the
    /// season ends, from their forms; an unknown venue or a missing date is named next to its
    /// field.
    #[test]
    fn neutral_excluded_and_late_from_their_forms() {
        let text = LEAGUE.replace(
            "[[fixed]]\nhome = \"Lewes 1\"\naway = \"Hove 1\"\ndate = 2026-10-13\n",
            "",
        );
        let neutral = section("neutral").unwrap();
        let v = form(&[("home", "Lewes 1"), ("away", "Hove 1"), ("venue", "Hall")]);
        let e = apply(&text, neutral, None, &v).unwrap();
        // A single round robin's pair is at the venue whichever side is at home.
        let l = parse_league(&e.text, "league.toml").unwrap();
        assert_eq!(l.neutral.len(), 2);
        assert_eq!(items(&e.text, neutral), vec!["Lewes 1 v Hove 1"]);
        let mut nowhere = v.clone();
        nowhere.insert("venue".into(), vec!["Nowhere".into()]);
        let err = apply(&text, neutral, None, &nowhere).unwrap_err();
        assert_eq!(err.fields["venue"], vec!["Unknown venue \"Nowhere\""]);
        let excluded = section("excluded").unwrap();
        let e = apply(
            &text,
            excluded,
            None,
            &form(&[("home", "Lewes 1"), ("away", "Hove 1")]),
        );
        let e = e.unwrap();
        assert_eq!(
            parse_league(&e.text, "league.toml").unwrap().excluded.len(),
            1
        );
        let late = section("late").unwrap();
        let v = form(&[
            ("home", "Lewes 1"),
            ("away", "Hove 1"),
            ("date", "20/05/2027"),
        ]);
        let e = apply(&text, late, None, &v).unwrap();
        let l = parse_league(&e.text, "league.toml").unwrap();
        assert_eq!(l.late.len(), 1);
        assert_eq!(items(&e.text, late), vec!["Lewes 1 v Hove 1 on 2027-05-20"]);
        let err = apply(&text, late, None, &form(&[("home", "Lewes 1")])).unwrap_err();
        assert_eq!(err.fields["date"], vec!["Date is required"]);
    }

    /// A league with one `[cup]` table: saved unchanged it stays as written, byte for byte;
    /// changed, the cup is written as the first `[[cup]]`, the same league otherwise.
    #[test]
    fn a_single_cup_table_is_kept_until_changed() {
        let text = format!("{LEAGUE}\n[cup]\nname = \"Cup\"\n");
        let s = section("cup").unwrap();
        assert_eq!(items(&text, s), vec!["Cup"]);
        let v = values(&text, s, Some(0));
        assert_eq!(apply(&text, s, Some(0), &v).unwrap().text, text);
        let mut more = v.clone();
        more.insert("offer".into(), vec!["3".into()]);
        let e = apply(&text, s, Some(0), &more).unwrap();
        assert!(
            e.text.contains("[[cup]]\nname = \"Cup\"\noffer = 3"),
            "{}",
            e.text
        );
        let l = parse_league(&e.text, "league.toml").unwrap();
        assert_eq!((l.cups.len(), l.cups[0].offer), (1, 3));
    }

    /// A limit on listed fixtures: typed one a line ("home v away"), written as the file's
    /// list, shown again as typed; an unknown team or a line without " v " is named next to
    /// the field.
    #[test]
    fn a_limit_on_listed_fixtures_from_the_form() {
        let s = section("constraint").unwrap();
        let typed = "Lewes 1 v Hove 1\nHove 1 vs Lewes 1";
        let v = form(&[
            ("kind", "fixtures"),
            ("fixtures", typed),
            ("dates", "20/10/2026"),
            ("max", "1"),
        ]);
        let e = apply(LEAGUE, s, None, &v).unwrap();
        assert!(
            e.text.contains(
                r#"fixtures = [{ home = "Lewes 1", away = "Hove 1" }, { home = "Hove 1", away = "Lewes 1" }]"#
            ),
            "{}",
            e.text
        );
        let l = parse_league(&e.text, "league.toml").unwrap();
        assert_eq!(l.constraints.len(), 1);
        let again = values(&e.text, s, Some(0));
        assert_eq!(
            again["fixtures"],
            vec!["Lewes 1 v Hove 1\nHove 1 v Lewes 1"]
        );
        assert_eq!(apply(&e.text, s, Some(0), &again).unwrap().text, e.text);
        let unknown = form(&[
            ("kind", "fixtures"),
            ("fixtures", "Lewes 1 v Nowhere 1"),
            ("dates", "20/10/2026"),
            ("max", "1"),
        ]);
        let err = apply(LEAGUE, s, None, &unknown).unwrap_err();
        assert_eq!(err.fields["fixtures"], vec!["Unknown team \"Nowhere 1\""]);
        let bad = form(&[("kind", "fixtures"), ("fixtures", "Lewes 1 - Hove 1")]);
        let err = apply(LEAGUE, s, None, &bad).unwrap_err();
        assert!(err.fields["fixtures"][0].contains("is not \"home team v away team\""));
        let none = form(&[("kind", "fixtures"), ("dates", "20/10/2026"), ("max", "1")]);
        let err = apply(LEAGUE, s, None, &none).unwrap_err();
        assert_eq!(
            err.fields["fixtures"],
            vec!["This kind of limit lists its fixtures, one a line, like Lewes 1 v Hove 1"]
        );
    }

    #[test]
    fn a_new_league_needs_its_name_and_dates() {
        let e = new_league(&form(&[("name", "L"), ("start", "05/10/2026")])).unwrap_err();
        assert_eq!(e.fields["end"], vec!["Last day of the season is required"]);
        let e = new_league(&form(&[
            ("name", "L"),
            ("start", "05/10/2026"),
            ("end", "2026-09-01"),
        ]))
        .unwrap_err();
        assert!(
            e.fields["end"][0].contains("is before “First day of the season”"),
            "{e:?}"
        );
    }
}
