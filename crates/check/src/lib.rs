//! The independent checker: verifies any fixture list against a league file.
//!
//! It shares the league loader (`model::read_league`, the `League` data) and nothing else with
//! the solver: no good_lp, no `formulate`, no `solve`, no `League::playable`,
//! `League::fixtures` or `League::home_range`. Every rule of the spec is written again here,
//! directly from the text, so a bug in the model cannot hide itself. A rerun's promises (history
//! kept exactly, nothing unplayed before the first movable date, scratched fixtures counted
//! for balance) are checked from the `Rerun` data, not from how the solver encoded them.
#![warn(missing_docs)]

mod constraints;
mod draw;
mod extra;
mod pools;
mod quality;
pub mod robinx;

pub use quality::{quality, Quality, TeamFigures, Winter};

use chrono::{Datelike, NaiveDate, Weekday};
use fixtures_model::{
    parse_list_date, FixtureList as Neutral, Format, Hosting, League, Match, Rerun, Side, TeamId,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::path::Path;

/// One row of a fixture list, resolved against the league.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// 1-based line in the CSV.
    pub line: usize,
    /// The date column.
    pub date: NaiveDate,
    /// The home team.
    pub home: TeamId,
    /// The away team.
    pub away: TeamId,
    /// The division column, when the list has one.
    pub division: Option<String>,
    /// The venue column, when the list has one.
    pub venue: Option<String>,
    /// The round column, when the list has one (a cup's round, "Play-off", "Replay", ...).
    pub round: Option<String>,
    /// The colours column, when the list has one ("Lewes 1 White on board 1").
    pub colours: Option<String>,
    /// The weekday column, when the list has one.
    pub weekday: Option<String>,
}

/// A broken rule: which, of what fixture or team, on what date, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The spec's rule number and name, e.g. "6 min_days_between".
    pub rule: &'static str,
    /// The fixture, team, venue or club concerned (or file:line of an unreadable row).
    pub fixture: String,
    /// The date concerned, if any.
    pub date: Option<NaiveDate>,
    /// What is wrong, in words.
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {}", self.rule, self.fixture)?;
        if let Some(d) = self.date {
            write!(f, " on {d}")?;
        }
        write!(f, ": {}", self.detail)
    }
}

/// A fixture list that cannot be read at all.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The file cannot be read, or is not CSV.
    #[error("{file}: cannot read the fixture list: {reason}")]
    Unreadable {
        /// The file.
        file: String,
        /// Why.
        reason: String,
    },
    /// A required column is missing from the header.
    #[error(
        "{file}:1: the header has no `{column}` column (expected date,division,home,away,venue)"
    )]
    MissingColumn {
        /// The file.
        file: String,
        /// The missing column.
        column: &'static str,
    },
}

/// The fixture list read from a CSV: resolved rows and the rows that could not be used.
#[derive(Debug, Clone, Default)]
pub struct FixtureList {
    /// Rows that name a date and two teams of the league.
    pub rows: Vec<Row>,
    /// Rows that could not be used, as violations naming file and line.
    pub unreadable: Vec<Violation>,
}

impl FixtureList {
    /// The rows as the program's neutral fixture list (for `report` and `reschedule`).
    pub fn to_neutral(&self, league: &League) -> Neutral {
        let (extra, rows): (Vec<&Row>, Vec<&Row>) = self
            .rows
            .iter()
            .partition(|r| extra::kind(league, r).is_some());
        Neutral::new(
            rows.iter()
                .map(|r| Match {
                    date: r.date,
                    division: league.teams[r.home].division,
                    home: r.home,
                    away: r.away,
                })
                .collect(),
            league,
        )
        .with_extra(extra.iter().filter_map(|r| {
            Some(fixtures_model::Extra {
                date: r.date,
                home: r.home,
                away: r.away,
                kind: extra::kind(league, r)?,
            })
        }))
    }
}

const MAX_CSV_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a fixture list file (CSV, at most 64 MiB) against a league.
pub fn read_fixtures(league: &League, path: &Path) -> Result<FixtureList, CheckError> {
    let file = path.display().to_string();
    let unreadable = |reason: String| CheckError::Unreadable {
        file: file.clone(),
        reason,
    };
    let meta = std::fs::metadata(path).map_err(|e| unreadable(e.to_string()))?;
    if meta.len() > MAX_CSV_BYTES {
        return Err(unreadable(format!(
            "the file is {} bytes; more than {MAX_CSV_BYTES} is refused",
            meta.len()
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| unreadable(e.to_string()))?;
    parse_fixtures(league, &bytes, &file)
}

/// Reads fixture-list CSV text against a league; `file` names it in messages.
pub fn parse_fixtures(
    league: &League,
    bytes: &[u8],
    file: &str,
) -> Result<FixtureList, CheckError> {
    // A list opened and saved again in a spreadsheet may start with a byte-order mark.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(bytes);
    let headers = reader
        .headers()
        .map_err(|e| CheckError::Unreadable {
            file: file.to_string(),
            reason: e.to_string(),
        })?
        .clone();
    let col = |name: &'static str| headers.iter().position(|h| h.eq_ignore_ascii_case(name));
    let need = |name: &'static str| {
        col(name).ok_or(CheckError::MissingColumn {
            file: file.to_string(),
            column: name,
        })
    };
    let columns = Columns {
        date: need("date")?,
        home: need("home")?,
        away: need("away")?,
        division: col("division"),
        venue: col("venue"),
        round: col("round"),
        colours: col("colours"),
        weekday: col("weekday"),
    };
    let teams: HashMap<&str, TeamId> = league
        .teams
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name.as_str(), i))
        .collect();
    let mut list = FixtureList::default();
    for (i, record) in reader.records().enumerate() {
        let line = i + 2;
        let bad = |detail: String| Violation {
            rule: "fixture list",
            fixture: format!("{file}:{line}"),
            date: None,
            detail,
        };
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                list.unreadable.push(bad(e.to_string()));
                continue;
            }
        };
        if record.iter().all(|f| f.is_empty()) {
            continue;
        }
        match row(&record, line, &columns, &teams) {
            Ok(r) => list.rows.push(r),
            Err(problems) => list.unreadable.push(bad(problems.join("; "))),
        }
    }
    Ok(list)
}

/// Where a list's columns are.
struct Columns {
    date: usize,
    home: usize,
    away: usize,
    division: Option<usize>,
    venue: Option<usize>,
    round: Option<usize>,
    colours: Option<usize>,
    weekday: Option<usize>,
}

/// A record of a list as a row, or what is wrong with it.
fn row(
    record: &csv::StringRecord,
    line: usize,
    c: &Columns,
    teams: &HashMap<&str, TeamId>,
) -> Result<Row, Vec<String>> {
    let field = |c: usize| record.get(c).unwrap_or("");
    let date = parse_list_date(field(c.date));
    let home = teams.get(field(c.home)).copied();
    let away = teams.get(field(c.away)).copied();
    let mut problems = Vec::new();
    if date.is_none() {
        problems.push(format!(
            "`{}` is not a date (YYYY-MM-DD, or DD/MM/YYYY as a UK spreadsheet saves it)",
            field(c.date)
        ));
    }
    for (col, t) in [(c.home, home), (c.away, away)] {
        if t.is_none() {
            problems.push(format!("unknown team \"{}\"", field(col)));
        }
    }
    match (date, home, away) {
        (Some(date), Some(home), Some(away)) => Ok(Row {
            line,
            date,
            home,
            away,
            division: c.division.map(|c| field(c).to_string()),
            venue: c.venue.map(|c| field(c).to_string()),
            round: c.round.map(|c| field(c).to_string()),
            colours: c.colours.map(|c| field(c).to_string()),
            weekday: c.weekday.map(|c| field(c).to_string()),
        }),
        _ => Err(problems),
    }
}

/// Where a league match with `home` at home is played: the division's central venue
/// (extension), else the home team's venue.
fn played_at(lg: &League, home: TeamId) -> usize {
    let t = &lg.teams[home];
    lg.divisions[t.division].venue.unwrap_or(t.venue)
}

/// Where the league match `home v away` is played: a `[[neutral]]` venue agreed for it (rule
/// 2.3), else `played_at`.
fn venue_of_match(lg: &League, home: TeamId, away: TeamId) -> usize {
    lg.neutral
        .get(&(home, away))
        .copied()
        .unwrap_or_else(|| played_at(lg, home))
}

/// The result of checking a fixture list.
#[derive(Debug, Clone)]
pub struct Report {
    /// Every broken rule; empty for a valid list.
    pub violations: Vec<Violation>,
    /// The quality figures, measured whether valid or not.
    pub quality: Quality,
}

impl Report {
    /// Whether no rule is broken.
    pub fn is_valid(&self) -> bool {
        self.violations.is_empty()
    }
}

/// Checks every rule of the spec and measures the quality figures.
pub fn check(league: &League, list: &FixtureList) -> Report {
    check_rerun(league, list, &Rerun::default())
}

/// Checks a list as `check` does, and the promises of a rerun: every played fixture
/// (`rerun.history`) is in the list exactly, no other fixture is dated before `rerun.from`, and
/// scratched fixtures count towards their teams' home/away balance.
pub fn check_rerun(league: &League, list: &FixtureList, rerun: &Rerun) -> Report {
    let mut c = Checker {
        league,
        rerun,
        out: list.unreadable.clone(),
    };
    // Cup ties, play-offs and replays are checked apart, with the league's matches around them.
    let (extras, league_rows): (Vec<Row>, Vec<Row>) = list
        .rows
        .iter()
        .cloned()
        .partition(|r| extra::kind(league, r).is_some());
    let rows = &league_rows;
    for r in rows {
        c.row(r);
    }
    for r in list.rows.iter() {
        c.columns(r, extra::coin_toss(league, r));
    }
    extra::check(&mut c, rows, &extras);
    extra::kept(&mut c, &extras);
    c.history(rows);
    c.fixture_set(rows);
    c.per_team(rows);
    c.venues(rows);
    c.clubs(rows);
    c.out.extend(constraints::violations(league, rows));
    Report {
        violations: c.out,
        quality: quality(league, rows),
    }
}

/// Where a match is played, for the per-match rules.
#[derive(Clone, Copy)]
struct Place {
    /// The venue.
    venue: usize,
    /// Whether the home team's own nights apply (not at a division's central venue).
    own_nights: bool,
    /// Whether the league's start bounds the match (not a cup's).
    league_start_binds: bool,
}

struct Checker<'a> {
    league: &'a League,
    rerun: &'a Rerun,
    out: Vec<Violation>,
}

impl Checker<'_> {
    fn name(&self, t: TeamId) -> &str {
        &self.league.teams[t].name
    }

    fn fixture(&self, r: &Row) -> String {
        format!("{} v {}", self.name(r.home), self.name(r.away))
    }

    fn push(&mut self, rule: &'static str, r: &Row, detail: String) {
        self.out.push(Violation {
            rule,
            fixture: self.fixture(r),
            date: Some(r.date),
            detail,
        });
    }

    /// The weekday column names the date's day, and the colours column the side the league's
    /// `[colours]` gives White on board 1 (nothing, or "coin toss", where a cup's rules toss a
    /// coin).
    fn columns(&mut self, r: &Row, coin_toss: bool) {
        if let Some(day) = r.weekday.as_deref().filter(|d| !d.is_empty()) {
            let real = r.date.weekday();
            let full = format!("{real:?}");
            let named = day.eq_ignore_ascii_case(&real.to_string())
                || [
                    "Monday",
                    "Tuesday",
                    "Wednesday",
                    "Thursday",
                    "Friday",
                    "Saturday",
                    "Sunday",
                ]
                .iter()
                .any(|n| n.eq_ignore_ascii_case(day) && n.starts_with(&full));
            if !named {
                self.push(
                    "weekday",
                    r,
                    format!("{} is a {real}, not \"{day}\"", r.date),
                );
            }
        }
        let Some(said) = r.colours.as_deref().filter(|c| !c.is_empty()) else {
            return;
        };
        let lg = self.league;
        let want = if coin_toss {
            None
        } else {
            match lg.odd_boards_white {
                Some(Side::Home) => Some(r.home),
                Some(Side::Away) => Some(r.away),
                None => return,
            }
        };
        match want {
            None if !said.eq_ignore_ascii_case("coin toss") => self.push(
                "colours",
                r,
                format!("a coin toss decides the colours of this cup's ties, not \"{said}\""),
            ),
            Some(t) if said != format!("{} White on board 1", self.name(t)) => {
                let side = if t == r.home { "home" } else { "away" };
                self.push(
                    "colours",
                    r,
                    format!(
                        "the league gives the {side} team White on the odd boards: {} White on board 1, not \"{said}\"",
                        self.name(t)
                    ),
                );
            }
            _ => {}
        }
    }

    /// Rules 1–4 for one row, and its division and venue columns.
    /// Dates a cup keeps for its ties: its entrants play no league match on them, but one the
    /// league file fixes there (a change the clubs agreed); a team knocked out (`out`) gets
    /// them back.
    fn cup_reserve(&mut self, r: &Row) {
        let lg = self.league;
        let d = r.date;
        let fixed = lg
            .fixed
            .iter()
            .any(|f| (f.home, f.away, f.date) == (r.home, r.away, d));
        for cup in lg.cups.iter().filter(|c| c.reserve.contains(&d) && !fixed) {
            for id in [r.home, r.away] {
                if cup.teams.contains(&id) && !cup.out.contains(&id) {
                    let detail = format!("{} keeps this date for the {}", self.name(id), cup.name);
                    self.push("cup reserve", r, detail);
                }
            }
        }
    }

    fn row(&mut self, r: &Row) {
        let lg = self.league;
        let (h, a) = (&lg.teams[r.home], &lg.teams[r.away]);
        let d = r.date;
        if r.home == r.away {
            self.push("5 fixtures", r, "a team cannot play itself".into());
            return;
        }
        if d < lg.start || d > lg.end {
            self.push(
                "1 season",
                r,
                format!("outside the season {} to {}", lg.start, lg.end),
            );
        }
        let division = &lg.divisions[h.division];
        if let Some(rounds) = &division.rounds {
            if !rounds.contains(&d) {
                self.push(
                    "2 round date",
                    r,
                    format!("{} plays only on its round dates", division.name),
                );
            }
        }
        // At a division's central venue the home team's own nights do not matter; nor on a
        // weekend the clubs agreed (rule 2.6), when the league allows them and fixes it there.
        let weekend = matches!(d.weekday(), Weekday::Sat | Weekday::Sun);
        let agreed_weekend = weekend
            && lg.changes.as_ref().is_some_and(|c| c.weekends)
            && lg
                .fixed
                .iter()
                .any(|f| (f.home, f.away, f.date) == (r.home, r.away, d));
        let at = Place {
            venue: venue_of_match(lg, r.home, r.away),
            own_nights: division.venue.is_none() && !agreed_weekend,
            league_start_binds: true,
        };
        self.playable(r, at);
        self.cup_reserve(r);
        if h.division != a.division {
            self.push(
                "5 fixtures",
                r,
                "the teams are in different divisions".into(),
            );
        }
        if let Some(div) = &r.division {
            let want = &lg.divisions[h.division].name;
            if div != want {
                self.push(
                    "fixture list",
                    r,
                    format!(
                        "division column says \"{div}\" but {} is in \"{want}\"",
                        h.name
                    ),
                );
            }
        }
    }

    /// Rules 1 (closed, start), 2 (hosting night), 3 (venue closed), 4 (unavailable) for one
    /// match at `at`, and its venue column.
    fn playable(&mut self, r: &Row, at: Place) {
        let lg = self.league;
        let (h, a) = (&lg.teams[r.home], &lg.teams[r.away]);
        let d = r.date;
        if lg.closed.contains(&d) {
            self.push("1 closed", r, "the league is closed on this date".into());
        }
        for t in [h, a] {
            // A team's start is the league's unless its club starts later; a cup is bound
            // only by a later one.
            if d < t.start && (at.league_start_binds || t.start > lg.start) {
                self.push(
                    "1 start",
                    r,
                    format!("{} plays no fixture before {}", t.name, t.start),
                );
            }
        }
        // A joint team's match hosted by the other club: that club's nights and dates bind.
        let joint = lg
            .joint_hosts
            .get(&(r.home, r.away))
            .filter(|_| at.own_nights && at.venue == venue_of_match(lg, r.home, r.away));
        let hosting = joint.and_then(|j| j.hosting.as_ref()).unwrap_or(&h.hosting);
        let hosts = match hosting {
            Hosting::Nights(n) => n.contains(&d.weekday()),
            Hosting::Dates(ds) => ds.contains(&d),
        };
        if let Some(j) = joint.filter(|j| j.unavailable.contains(&d)) {
            let detail = format!(
                "{}, which hosts this match of the joint team, is unavailable",
                lg.clubs[j.club].name
            );
            self.push("4 unavailable", r, detail);
        }
        if !hosts && at.own_nights {
            self.push(
                "2 hosting date",
                r,
                format!("{} does not host on {} ({})", h.name, d, d.weekday()),
            );
        }
        let venue = &lg.venues[at.venue];
        if venue.closed.contains(&d) {
            self.push("3 venue closed", r, format!("{} is closed", venue.name));
        }
        for t in [h, a] {
            if t.unavailable.contains(&d) {
                self.push("4 unavailable", r, format!("{} is unavailable", t.name));
            }
        }
        if a.unavailable_away.contains(&d) {
            self.push(
                "4 unavailable away",
                r,
                format!("{} is unavailable for away matches", a.name),
            );
        }
        if let Some(v) = &r.venue {
            if !v.is_empty() && *v != venue.name {
                self.push(
                    "fixture list",
                    r,
                    format!(
                        "venue column says \"{v}\" but {} plays at \"{}\"",
                        h.name, venue.name
                    ),
                );
            }
        }
    }

    /// A rerun: history exactly as played, nothing else before the first movable date.
    fn history(&mut self, rows: &[Row]) {
        let played: BTreeSet<(NaiveDate, TeamId, TeamId)> = self
            .rerun
            .history
            .iter()
            .map(|m| (m.date, m.home, m.away))
            .collect();
        for &(date, home, away) in &played {
            if !rows
                .iter()
                .any(|r| (r.date, r.home, r.away) == (date, home, away))
            {
                self.out.push(Violation {
                    rule: "rerun history",
                    fixture: format!("{} v {}", self.name(home), self.name(away)),
                    date: Some(date),
                    detail: "a fixture played before the rerun's first movable date is missing or changed".into(),
                });
            }
        }
        let Some(from) = self.rerun.from else { return };
        for r in rows {
            if r.date < from && !played.contains(&(r.date, r.home, r.away)) {
                self.push(
                    "rerun from",
                    r,
                    format!("dated before the first movable date {from}, but not played by then"),
                );
            }
        }
    }

    /// Rule 5: exactly the fixtures the formats call for, less excluded, each once; fixed dates.
    fn fixture_set(&mut self, rows: &[Row]) {
        let lg = self.league;
        let expected = expected_fixtures(lg);
        let key = |r: &Row| -> (TeamId, TeamId) {
            let ordered = lg.divisions[lg.teams[r.home].division].format == Format::Double;
            if ordered {
                (r.home, r.away)
            } else {
                (r.home.min(r.away), r.home.max(r.away))
            }
        };
        let mut seen: BTreeMap<(TeamId, TeamId), Vec<&Row>> = BTreeMap::new();
        for r in rows {
            seen.entry(key(r)).or_default().push(r);
        }
        // A pools division: any pair of its teams, once; every team in each of its rounds.
        let pools = |k: &(TeamId, TeamId)| {
            let (x, y) = (&lg.teams[k.0], &lg.teams[k.1]);
            x.division == y.division && lg.divisions[x.division].format == Format::Paired
        };
        self.pool_rounds(rows);
        pools::check(self, rows);
        for (k, list) in &seen {
            let allowed = expected.contains_key(k) || (pools(k) && k.0 != k.1);
            if !allowed {
                for r in list {
                    let detail = if r.home == r.away {
                        "a team cannot play itself".to_string()
                    } else {
                        "not a fixture of this season (excluded, or not called for by the division's format)".to_string()
                    };
                    self.push("5 fixtures", r, detail);
                }
            } else if list.len() > 1 {
                for r in &list[1..] {
                    self.push(
                        "5 fixtures",
                        r,
                        format!("played {} times (first on {})", list.len(), list[0].date),
                    );
                }
            }
        }
        for (&(x, y), &ordered) in &expected {
            if !seen.contains_key(&(x, y)) {
                let what = if ordered {
                    format!("{} v {}", self.name(x), self.name(y))
                } else {
                    format!("{} v {} (either at home)", self.name(x), self.name(y))
                };
                self.out.push(Violation {
                    rule: "5 fixtures",
                    fixture: what,
                    date: None,
                    detail: "missing from the fixture list".into(),
                });
            }
        }
        self.fixed_dates(rows);
    }

    /// A division paired round by round: every team in each of its rounds, but for a bye and
    /// the teams a withdrawn team would have met.
    fn pool_rounds(&mut self, rows: &[Row]) {
        let lg = self.league;
        for (d, div) in lg.divisions.iter().enumerate() {
            if div.format != Format::Paired {
                continue;
            }
            let dates: BTreeSet<NaiveDate> = rows
                .iter()
                .filter(|r| lg.teams[r.home].division == d)
                .map(|r| r.date)
                .collect();
            // A withdrawn team plays no more (rule 11.2); each leaves at most one team without
            // a match in a round (the one it would have met), and one more may have a bye. With
            // none withdrawn this is the rule as before: the teams playing are even, so one bye
            // when the teams are odd and none when they are even.
            let (gone, active): (Vec<TeamId>, Vec<TeamId>) =
                div.teams.iter().partition(|&&t| lg.withdrawn(t));
            let allowed = 1 + gone.len();
            for date in dates {
                let absent: Vec<TeamId> = active
                    .iter()
                    .copied()
                    .filter(|&t| {
                        !rows
                            .iter()
                            .any(|r| r.date == date && (r.home == t || r.away == t))
                    })
                    .collect();
                if absent.len() <= allowed {
                    continue;
                }
                let may = match gone.len() {
                    0 => "one may, for a bye".to_string(),
                    k => format!(
                        "{allowed} at most may, a bye and one for each of the {k} teams withdrawn"
                    ),
                };
                for &t in &absent {
                    self.out.push(Violation {
                        rule: "5 rounds",
                        fixture: self.name(t).to_string(),
                        date: Some(date),
                        detail: format!(
                            "has no match in this round of {} ({} teams have none; {may})",
                            div.name,
                            absent.len()
                        ),
                    });
                }
            }
        }
    }

    /// Every `[[fixed]]` fixture on its date with its home team.
    fn fixed_dates(&mut self, rows: &[Row]) {
        let lg = self.league;
        for f in &lg.fixed {
            let ok = rows
                .iter()
                .any(|r| r.home == f.home && r.away == f.away && r.date == f.date);
            if !ok {
                self.out.push(Violation {
                    rule: "5 fixed",
                    fixture: format!("{} v {}", self.name(f.home), self.name(f.away)),
                    date: Some(f.date),
                    detail: "a [[fixed]] fixture is not on its date with this home team".into(),
                });
            }
        }
    }

    /// Rule 6: rest days, home/away balance, consecutive weeks; rule 8: same club first.
    fn per_team(&mut self, rows: &[Row]) {
        let lg = self.league;
        let mut of_team: Vec<Vec<&Row>> = vec![Vec::new(); lg.teams.len()];
        for r in rows {
            of_team[r.home].push(r);
            of_team[r.away].push(r);
        }
        for (t, list) in of_team.iter_mut().enumerate() {
            list.sort_by_key(|r| r.date);
            let team = &lg.teams[t];
            for w in list.windows(2) {
                let gap = (w[1].date - w[0].date).num_days();
                if gap < lg.rules.min_days_between as i64 {
                    self.push(
                        "6 min_days_between",
                        w[1],
                        format!(
                            "{} plays on {} and {}, {} days apart (at least {} required)",
                            team.name, w[0].date, w[1].date, gap, lg.rules.min_days_between
                        ),
                    );
                }
            }
            // Fixtures scratched by a withdrawal still count (see `Rerun::scratched`).
            let scratched = &self.rerun.scratched;
            let home = list.iter().filter(|r| r.home == t).count() as i64
                + scratched.iter().filter(|s| s.0 == t).count() as i64;
            let away = list.iter().filter(|r| r.away == t).count() as i64
                + scratched.iter().filter(|s| s.1 == t).count() as i64;
            if (home - away).abs() > lg.rules.home_away_balance as i64 {
                self.out.push(Violation {
                    rule: "6 home_away_balance",
                    fixture: team.name.clone(),
                    date: None,
                    detail: format!(
                        "{home} home and {away} away matches (may differ by at most {})",
                        lg.rules.home_away_balance
                    ),
                });
            }
            self.consecutive_weeks(t, list);
            self.club_first(t, list);
        }
    }

    /// Rule 6: at most `max_consecutive_weeks` weeks in a row with a match of team `t`.
    fn consecutive_weeks(&mut self, t: usize, list: &[&Row]) {
        let lg = self.league;
        let team = &lg.teams[t];
        if let Some(k) = lg.rules.max_consecutive_weeks {
            // Weeks run Monday to Sunday.
            let weeks: BTreeSet<NaiveDate> = list
                .iter()
                .map(|r| {
                    let back = chrono::Days::new(r.date.weekday().num_days_from_monday() as u64);
                    // The earliest representable week has no Monday before it: keep the date.
                    r.date.checked_sub_days(back).unwrap_or(r.date)
                })
                .collect();
            let mut run = 0;
            let mut prev: Option<NaiveDate> = None;
            for &w in &weeks {
                run = match prev {
                    Some(p) if (w - p).num_days() == 7 => run + 1,
                    _ => 1,
                };
                prev = Some(w);
                if run == k + 1 {
                    self.out.push(Violation {
                        rule: "6 max_consecutive_weeks",
                        fixture: team.name.clone(),
                        date: Some(w),
                        detail: format!(
                            "plays in {} consecutive weeks up to the week of {w} (at most {k})",
                            k + 1
                        ),
                    });
                }
            }
        }
    }

    /// Rule 8: team `t`'s matches against its own club by `latest_internal_date`, and before
    /// any other (`same_club_first`).
    fn club_first(&mut self, t: usize, list: &[&Row]) {
        let lg = self.league;
        let team = &lg.teams[t];
        let internal = |r: &&&Row| lg.teams[r.home].club == lg.teams[r.away].club;
        if let Some(li) = lg.rules.latest_internal_date {
            for r in list.iter().filter(internal) {
                if r.home == t && r.date > li {
                    self.push(
                        "8 latest_internal_date",
                        r,
                        format!("a fixture between two teams of one club after {li}"),
                    );
                }
            }
        }
        if lg.rules.same_club_first {
            let same_div_internal =
                |r: &&&Row| internal(r) && lg.teams[r.home].division == lg.teams[r.away].division;
            let last_internal = list.iter().filter(same_div_internal).map(|r| r.date).max();
            if let Some(last) = last_internal {
                for r in list.iter().filter(|r| !same_div_internal(r)) {
                    if r.date <= last {
                        self.push(
                            "8 same_club_first",
                            r,
                            format!(
                                "{} plays this before its last match against its own club ({last})",
                                team.name
                            ),
                        );
                    }
                }
            }
        }
    }

    /// Rule 7: venue capacity per date (a closed venue is rule 3's, reported per fixture).
    fn venues(&mut self, rows: &[Row]) {
        let lg = self.league;
        let mut load: BTreeMap<(usize, NaiveDate), usize> = BTreeMap::new();
        for r in rows {
            *load
                .entry((venue_of_match(lg, r.home, r.away), r.date))
                .or_default() += 1;
        }
        for ((v, d), n) in load {
            let venue = &lg.venues[v];
            let cap = *venue.capacity_on.get(&d).unwrap_or(&venue.capacity) as usize;
            if n > cap && !venue.closed.contains(&d) {
                self.out.push(Violation {
                    rule: "7 venue capacity",
                    fixture: venue.name.clone(),
                    date: Some(d),
                    detail: format!("hosts {n} matches (capacity {cap})"),
                });
            } else if !venue.closed.contains(&d) {
                // A cup's reserved date keeps a place free for each of its entrants at home here;
                // a match the league file fixes here (a change the clubs agreed) may take one.
                let fixed = lg
                    .fixed
                    .iter()
                    .filter(|f| f.date == d && venue_of_match(lg, f.home, f.away) == v)
                    .count();
                let kept: Vec<&str> = lg
                    .cups
                    .iter()
                    .filter(|c| c.reserve.contains(&d))
                    .flat_map(|c| c.teams.iter().map(move |&t| (c, t)))
                    .filter(|&(c, t)| lg.teams[t].venue == v && !c.out.contains(&t))
                    .map(|(c, _)| c.name.as_str())
                    .collect();
                let held = kept.len().min(cap).saturating_sub(fixed);
                if held > 0 && n + held > cap {
                    self.out.push(Violation {
                        rule: "cup reserve",
                        fixture: venue.name.clone(),
                        date: Some(d),
                        detail: format!(
                            "hosts {n} league matches (capacity {cap}), but {held} places are kept for {}",
                            kept.join(", ")
                        ),
                    });
                }
            }
        }
    }

    /// Rule 8: `max_home_dates` per club.
    fn clubs(&mut self, rows: &[Row]) {
        let lg = self.league;
        for (c, club) in lg.clubs.iter().enumerate() {
            let Some(max) = club.max_home_dates else {
                continue;
            };
            let dates: BTreeSet<NaiveDate> = rows
                .iter()
                .filter(|r| lg.teams[r.home].club == c)
                .map(|r| r.date)
                .collect();
            if dates.len() > max as usize {
                self.out.push(Violation {
                    rule: "8 max_home_dates",
                    fixture: club.name.clone(),
                    date: None,
                    detail: format!("hosts on {} dates (at most {max})", dates.len()),
                });
            }
        }
    }
}

/// The fixtures the season calls for: ordered pairs (`true`) in a double round robin,
/// unordered (min, max) ones in a single; none for pools, whose pairs are drawn.
fn expected_fixtures(lg: &League) -> BTreeMap<(TeamId, TeamId), bool> {
    let mut expected: BTreeMap<(TeamId, TeamId), bool> = BTreeMap::new(); // key -> ordered?
    for div in &lg.divisions {
        for &x in &div.teams {
            for &y in &div.teams {
                if x == y {
                    continue;
                }
                let left_out = lg.excluded.iter().any(|e| match div.format {
                    Format::Double => e.home == x && e.away == y,
                    Format::Single | Format::Paired => {
                        (e.home == x && e.away == y) || (e.home == y && e.away == x)
                    }
                });
                if left_out {
                    continue;
                }
                match div.format {
                    Format::Double => {
                        expected.insert((x, y), true);
                    }
                    Format::Single if x < y => {
                        expected.insert((x, y), false);
                    }
                    Format::Single | Format::Paired => {}
                }
            }
        }
    }
    expected
}
