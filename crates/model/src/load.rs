//! Reading and validating a league file (league-format v1).
//!
//! Every problem is collected (not just the first) and located by file, line and key.

use super::error::{InputError, InputErrors, Problem};
use super::raw::*;
use super::*;
use std::collections::HashMap;
use std::path::Path;
use toml::Spanned;

mod constraints;
pub use constraints::keys as constraint_keys;

/// The longest date range we expand (a typo like `to = 2207-01-01` is refused, not expanded).
const MAX_RANGE_DAYS: i64 = 3700;
/// League files larger than this are refused before parsing.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;
/// The most fixtures a league may have (a 150-team league has about 730).
pub const MAX_FIXTURES: usize = 20_000;
/// The most teams a league may have.
pub const MAX_TEAMS: usize = 2_000;

/// Read and validate a league file.
pub fn read_league(path: &Path) -> Result<League, InputErrors> {
    let file = path.display().to_string();
    let one = |problem| {
        InputErrors(vec![InputError {
            file: file.clone(),
            line: 0,
            key: String::new(),
            problem,
        }])
    };
    let meta = std::fs::metadata(path).map_err(|e| one(Problem::Unreadable(e.to_string())))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(one(Problem::Unreadable(format!(
            "the file is {} bytes; league files of more than {} bytes are refused",
            meta.len(),
            MAX_FILE_BYTES
        ))));
    }
    let bytes = std::fs::read(path).map_err(|e| one(Problem::Unreadable(e.to_string())))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        one(Problem::Unreadable(format!(
            "the file is not UTF-8 text (bad byte at offset {})",
            e.utf8_error().valid_up_to()
        )))
    })?;
    parse_league(&text, &file)
}

/// Validate league-file text; `file` is the name used in messages.
pub fn parse_league(text: &str, file: &str) -> Result<League, InputErrors> {
    let mut cx = Cx::new(file, text);
    let raw: RawLeague = match toml::from_str(text) {
        Ok(raw) => raw,
        Err(e) => {
            let (line, key) = match e.span() {
                Some(span) => (cx.line(span.start), cx.key_on_line(span.start)),
                None => (0, String::new()),
            };
            let msg = e.message().trim().to_string();
            cx.errors.push(InputError {
                file: file.to_string(),
                line,
                key,
                problem: Problem::Syntax(msg),
            });
            return Err(InputErrors(cx.errors));
        }
    };
    let league = cx.league(&raw);
    if cx.errors.is_empty() {
        if let Some(league) = league {
            // Enormous leagues are refused here, before any model takes the memory for them.
            if let Some((offset, key, why)) = too_big(&raw, &league) {
                cx.errors.push(InputError {
                    file: file.to_string(),
                    line: cx.line(offset),
                    key: key.into(),
                    problem: Problem::BadValue(why),
                });
                return Err(InputErrors(cx.errors));
            }
            return Ok(league);
        }
    }
    // A club's bad key is met again through each of its teams: report it once.
    cx.errors.sort_by_key(|e| e.line);
    cx.errors.dedup();
    Err(InputErrors(cx.errors))
}

/// Whether the league is larger than we schedule: where (an offset), the key and why.
fn too_big(raw: &RawLeague, league: &League) -> Option<(usize, &'static str, String)> {
    if league.teams.len() > MAX_TEAMS {
        let at = raw.team.get(MAX_TEAMS).map_or(0, |t| t.span().start);
        let why = format!(
            "the league has {} teams; leagues of more than {MAX_TEAMS} teams are refused (this is team {})",
            league.teams.len(),
            MAX_TEAMS + 1
        );
        return Some((at, "team", why));
    }
    let fixtures = league.fixture_count();
    if fixtures > MAX_FIXTURES {
        let biggest = (0..league.divisions.len())
            .max_by_key(|&d| league.divisions[d].teams.len())
            .unwrap_or(0);
        let at = raw.division.get(biggest).map_or(0, |d| d.span().start);
        let (name, size) = league
            .divisions
            .get(biggest)
            .map_or(("", 0), |d| (d.name.as_str(), d.teams.len()));
        let why = format!(
            "the league has {fixtures} fixtures ({} teams; the largest division, \"{name}\", has {size}); leagues of more than {MAX_FIXTURES} fixtures are refused",
            league.teams.len()
        );
        return Some((at, "division", why));
    }
    None
}

struct Cx<'a> {
    file: &'a str,
    text: &'a str,
    line_starts: Vec<usize>,
    errors: Vec<InputError>,
}

impl<'a> Cx<'a> {
    fn new(file: &'a str, text: &'a str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Cx {
            file,
            text,
            line_starts,
            errors: Vec::new(),
        }
    }

    fn line(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }

    /// The key written on the line holding `offset` (`key = ...`), for parser errors.
    fn key_on_line(&self, offset: usize) -> String {
        let line = self.line(offset).max(1);
        let start = self.line_starts[line - 1];
        let end = self
            .line_starts
            .get(line)
            .copied()
            .unwrap_or(self.text.len());
        let text = self.text.get(start..end).unwrap_or("");
        match text.split_once('=') {
            Some((k, _)) if !k.trim_start().starts_with('[') => k.trim().to_string(),
            _ => String::new(),
        }
    }

    fn err(&mut self, offset: usize, key: &str, problem: Problem) {
        self.errors.push(InputError {
            file: self.file.to_string(),
            line: self.line(offset),
            key: key.to_string(),
            problem,
        });
    }

    fn date(&mut self, v: &RawValue, key: &str) -> Option<NaiveDate> {
        let at = v.span().start;
        match v.get_ref() {
            toml::Value::Datetime(dt) => match (dt.date, dt.time, dt.offset) {
                (Some(d), None, None) => {
                    let r = NaiveDate::from_ymd_opt(d.year as i32, d.month as u32, d.day as u32);
                    if r.is_none() {
                        self.err(
                            at,
                            key,
                            Problem::BadDate(format!("{dt} is not a real date")),
                        );
                    }
                    r
                }
                _ => {
                    self.err(
                        at,
                        key,
                        Problem::BadDate(format!(
                            "{dt} has a time of day; write a date only, like 2026-10-20"
                        )),
                    );
                    None
                }
            },
            toml::Value::String(s) => {
                let r = parse_iso_date(s);
                if r.is_none() {
                    self.err(
                        at,
                        key,
                        Problem::BadDate(format!(
                            "\"{s}\" is not a date; write YYYY-MM-DD, like 2026-10-20"
                        )),
                    );
                }
                r
            }
            other => {
                self.err(
                    at,
                    key,
                    Problem::BadDate(format!(
                        "expected a date like 2026-10-20, found {} {}",
                        other.type_str(),
                        other
                    )),
                );
                None
            }
        }
    }

    /// A date list: dates and `{ from, to }` ranges, expanded.
    fn dates(&mut self, list: Option<&RawList>, key: &str) -> BTreeSet<NaiveDate> {
        let mut out = BTreeSet::new();
        let Some(list) = list else { return out };
        for item in list.get_ref() {
            let at = item.span().start;
            match item.get_ref() {
                toml::Value::Table(t) => {
                    let mut from = None;
                    let mut to = None;
                    for (k, v) in t {
                        let v = Spanned::new(item.span(), v.clone());
                        match k.as_str() {
                            "from" => from = self.date(&v, &format!("{key}.from")),
                            "to" => to = self.date(&v, &format!("{key}.to")),
                            other => self.err(
                                at,
                                key,
                                Problem::BadValue(format!(
                                    "a date range has keys `from` and `to`, not `{other}`"
                                )),
                            ),
                        }
                    }
                    if !t.contains_key("from") || !t.contains_key("to") {
                        self.err(
                            at,
                            key,
                            Problem::BadValue(
                                "a date range needs both `from` and `to`, like { from = 2026-12-19, to = 2027-01-03 }".into(),
                            ),
                        );
                        continue;
                    }
                    if let (Some(f), Some(t)) = (from, to) {
                        if t < f {
                            self.err(
                                at,
                                key,
                                Problem::RangeBackwards {
                                    from: f.to_string(),
                                    to: t.to_string(),
                                },
                            );
                        } else if (t - f).num_days() > MAX_RANGE_DAYS {
                            self.err(
                                at,
                                key,
                                Problem::BadValue(format!(
                                    "the range {f} to {t} is longer than ten years"
                                )),
                            );
                        } else {
                            out.extend(f.iter_days().take_while(|d| *d <= t));
                        }
                    }
                }
                _ => {
                    if let Some(d) = self.date(item, key) {
                        out.insert(d);
                    }
                }
            }
        }
        out
    }

    fn weekdays(&mut self, list: &RawList, key: &str) -> Vec<Weekday> {
        let mut out = Vec::new();
        for item in list.get_ref() {
            match item.get_ref() {
                toml::Value::String(s) => match parse_weekday(s.trim()) {
                    Some(w) => {
                        if !out.contains(&w) {
                            out.push(w);
                        }
                    }
                    None => self.err(item.span().start, key, Problem::BadWeekday(s.clone())),
                },
                other => self.err(
                    item.span().start,
                    key,
                    Problem::BadWeekday(other.to_string()),
                ),
            }
        }
        if list.get_ref().is_empty() {
            self.err(
                list.span().start,
                key,
                Problem::BadValue("the list of nights is empty".into()),
            );
        }
        out
    }

    fn int(&mut self, v: &Spanned<i64>, key: &str, min: i64) -> Option<u32> {
        let n = *v.get_ref();
        if n < min || n > u32::MAX as i64 {
            self.err(
                v.span().start,
                key,
                Problem::BadValue(format!("{n} is out of range; it must be at least {min}")),
            );
            None
        } else {
            Some(n as u32)
        }
    }

    /// Names must be unique within their kind, readable, and safe in every file they are
    /// written to; returns name -> index.
    fn names<T>(
        &mut self,
        items: &[Spanned<T>],
        name: impl Fn(&T) -> &Spanned<String>,
        what: &'static str,
    ) -> HashMap<String, usize> {
        let mut map: HashMap<String, usize> = HashMap::new();
        for (i, item) in items.iter().enumerate() {
            let n = name(item.get_ref());
            if n.get_ref().trim().is_empty() {
                self.err(
                    n.span().start,
                    "name",
                    Problem::BadValue(format!("a {what} name may not be empty")),
                );
            } else if let Some(why) = unsafe_name(n.get_ref()) {
                self.err(
                    n.span().start,
                    "name",
                    Problem::BadValue(format!(
                        "the {what} name \"{}\" {why}",
                        n.get_ref().escape_debug()
                    )),
                );
            }
            if let Some(&first) = map.get(n.get_ref()) {
                let first_line = self.line(name(items[first].get_ref()).span().start);
                self.err(
                    n.span().start,
                    "name",
                    Problem::Duplicate {
                        what,
                        name: n.get_ref().clone(),
                        first_line,
                    },
                );
            } else {
                map.insert(n.get_ref().clone(), i);
            }
        }
        map
    }

    fn lookup(
        &mut self,
        map: &HashMap<String, usize>,
        name: &Spanned<String>,
        key: &str,
        what: &'static str,
    ) -> Option<usize> {
        let r = map.get(name.get_ref()).copied();
        if r.is_none() {
            self.err(
                name.span().start,
                key,
                Problem::Unknown {
                    what,
                    name: name.get_ref().clone(),
                },
            );
        }
        r
    }

    fn league(&mut self, raw: &RawLeague) -> Option<League> {
        let (start, end) = self.season(raw);
        let closed = self.dates(raw.closed.as_ref(), "closed");
        let rules = self.rules(raw.rules.as_ref().map(|r| r.get_ref()));

        let venue_ix = self.names(&raw.venue, |v| &v.name, "venue");
        let venues: Vec<Venue> = raw.venue.iter().map(|v| self.venue(v.get_ref())).collect();
        let club_ix = self.names(&raw.club, |c| &c.name, "club");
        let div_ix = self.names(&raw.division, |d| &d.name, "division");
        let team_ix = self.names(&raw.team, |t| &t.name, "team");
        if raw.team.is_empty() {
            // Nothing to schedule: say so, rather than let a solve find "no schedule in time".
            self.err(
                0,
                "team",
                Problem::Missing(
                    "the league has no teams: add a [[team]] table (name, club, division) for each"
                        .into(),
                ),
            );
        }
        let clubs = self.clubs(raw, &venue_ix);
        let mut divisions = self.divisions(raw, &venue_ix);

        let (start, end) = (start?, end?);
        let mut teams = Vec::new();
        let mut team_ok = true;
        for (i, t) in raw.team.iter().enumerate() {
            match self.team(t, raw, &club_ix, &div_ix, &venue_ix, start) {
                Some(team) => {
                    if team_ix.get(&team.name) == Some(&i) {
                        divisions[team.division].teams.push(i);
                    }
                    teams.push(team);
                }
                None => team_ok = false,
            }
        }
        if !team_ok {
            return None;
        }
        self.team_limits(raw, &rules, &clubs, &divisions, &teams);

        self.league_name(raw);
        let mut league = League {
            name: raw.name.get_ref().clone(),
            start,
            end,
            closed,
            rules,
            venues,
            clubs,
            divisions,
            teams,
            fixed: Vec::new(),
            excluded: Vec::new(),
            late: Vec::new(),
            weights: self.weights(raw.weights.as_ref().map(|w| w.get_ref())),
            timezone: self.timezone(raw.timezone.as_ref()),
            cups: Vec::new(),
            changes: None,
            neutral: BTreeMap::new(),
            joint_hosts: BTreeMap::new(),
            odd_boards_white: self.colours(raw),
            constraints: Vec::new(),
            penalties: raw
                .penalties
                .as_ref()
                .map(|p| self.penalties(p.get_ref()))
                .unwrap_or_default(),
        };
        self.cups(raw, &mut league, &team_ix, &div_ix);
        if let Some(ch) = &raw.changes {
            league.changes = self.changes(ch.get_ref());
        }
        self.joint_teams(raw, &mut league, &club_ix, &venue_ix);
        self.pairs(raw, &mut league, &team_ix, &venue_ix);
        league.constraints = self.constraints(&raw.constraint, &league, &team_ix);
        Some(league)
    }

    /// The league's name is safe to show.
    fn league_name(&mut self, raw: &RawLeague) {
        if let Some(why) = unsafe_name(raw.name.get_ref()) {
            self.err(
                raw.name.span().start,
                "name",
                Problem::BadValue(format!(
                    "the league name \"{}\" {why}",
                    raw.name.get_ref().escape_debug()
                )),
            );
        }
    }

    /// The season's first and last dates, at most ten years apart.
    fn season(&mut self, raw: &RawLeague) -> (Option<NaiveDate>, Option<NaiveDate>) {
        let start = self.date(&raw.start, "start");
        let end = self.date(&raw.end, "end");
        if let (Some(s), Some(e)) = (start, end) {
            if e < s {
                self.err(
                    raw.end.span().start,
                    "end",
                    Problem::EndBeforeStart {
                        start: s.to_string(),
                        end: e.to_string(),
                    },
                );
            } else if (e - s).num_days() > MAX_RANGE_DAYS {
                self.err(
                    raw.end.span().start,
                    "end",
                    Problem::BadValue("a season may not be longer than ten years".into()),
                );
            }
        }
        (start, end)
    }

    fn clubs(&mut self, raw: &RawLeague, venue_ix: &HashMap<String, usize>) -> Vec<Club> {
        let mut clubs = Vec::new();
        for c in &raw.club {
            let c = c.get_ref();
            if let Some(v) = &c.venue {
                self.lookup(venue_ix, v, "venue", "venue");
            }
            let max_home_dates = c
                .max_home_dates
                .as_ref()
                .and_then(|m| self.int(m, "max_home_dates", 0));
            let start_time = self.time(c.start_time.as_ref());
            clubs.push(Club {
                name: c.name.get_ref().clone(),
                max_home_dates,
                start_time,
            });
        }
        clubs
    }

    /// The divisions, without their teams yet.
    fn divisions(&mut self, raw: &RawLeague, venue_ix: &HashMap<String, usize>) -> Vec<Division> {
        let double_up_to = raw
            .rules
            .as_ref()
            .and_then(|r| r.get_ref().double_up_to.as_ref())
            .and_then(|v| self.int(v, "double_up_to", 0))
            .unwrap_or(7) as usize;
        let mut divisions = Vec::new();
        for d in &raw.division {
            let d = d.get_ref();
            let size = raw
                .team
                .iter()
                .filter(|t| t.get_ref().division.get_ref() == d.name.get_ref())
                .count();
            let format = self.format(d.format.as_ref(), size, double_up_to);
            let rounds = d.rounds.as_ref().map(|l| {
                self.dates(Some(l), "rounds")
                    .into_iter()
                    .collect::<Vec<_>>()
            });
            let venue = d
                .venue
                .as_ref()
                .and_then(|v| self.lookup(venue_ix, v, "venue", "venue"));
            let pools = d
                .format
                .as_ref()
                .is_some_and(|f| f.get_ref().eq_ignore_ascii_case("pools"));
            let tie_breaks = d
                .tie_breaks
                .as_ref()
                .map(|v| self.tie_breaks(v, "division.tie_breaks"));
            divisions.push(Division {
                name: d.name.get_ref().clone(),
                format,
                pools,
                teams: Vec::new(),
                rounds,
                venue,
                tie_breaks,
            });
        }
        divisions
    }

    /// A division's format, for `size` teams.
    fn format(
        &mut self,
        format: Option<&Spanned<String>>,
        size: usize,
        double_up_to: usize,
    ) -> Format {
        let Some(f) = format else {
            return Format::Single;
        };
        match f.get_ref().to_ascii_lowercase().as_str() {
            "single" => Format::Single,
            "double" => Format::Double,
            // GTCL rule 5.1: a double round robin for seven teams or fewer.
            "auto" if size <= double_up_to => Format::Double,
            "auto" => Format::Single,
            "pools" | "swiss" => Format::Paired,
            other => {
                self.err(
                    f.span().start,
                    "format",
                    Problem::BadValue(format!(
                        "format \"{other}\" is not known; use \"single\", \"double\", \"auto\", \"pools\" or \"swiss\""
                    )),
                );
                Format::Single
            }
        }
    }

    /// The limits on teams: a club's teams in one division, a division of one team, a team's
    /// unavailable dates.
    fn team_limits(
        &mut self,
        raw: &RawLeague,
        rules: &Rules,
        clubs: &[Club],
        divisions: &[Division],
        teams: &[Team],
    ) {
        if let Some(max) = rules.max_club_teams_per_division {
            for div in divisions {
                let mut count: HashMap<usize, usize> = HashMap::new();
                for &t in &div.teams {
                    let n = count.entry(teams[t].club).or_default();
                    *n += 1;
                    if *n == max as usize + 1 {
                        self.err(
                            raw.team[t].get_ref().club.span().start,
                            "club",
                            Problem::BadValue(format!(
                                "{} is the {}th team of club \"{}\" in division \"{}\"; at most {max} are allowed (max_club_teams_per_division)",
                                teams[t].name,
                                max + 1,
                                clubs[teams[t].club].name,
                                div.name
                            )),
                        );
                    }
                }
            }
        }
        for (d, div) in divisions.iter().enumerate() {
            if div.teams.len() == 1 {
                let t = div.teams[0];
                self.err(
                    raw.team[t].get_ref().division.span().start,
                    "division",
                    Problem::NoOpponent {
                        team: teams[t].name.clone(),
                        division: raw.division[d].get_ref().name.get_ref().clone(),
                    },
                );
            }
        }
        if let Some(max) = rules.max_unavailable {
            for (i, t) in teams.iter().enumerate() {
                // Rule 2.5's dates a team does not wish to play on: home or away, as given on
                // the application form (not the dates given later).
                let count = t
                    .unavailable
                    .union(&t.unavailable_away)
                    .filter(|d| !t.later.contains(d))
                    .count();
                if count > max as usize {
                    let rt = raw.team[i].get_ref();
                    let at = rt
                        .unavailable
                        .as_ref()
                        .map(|u| u.span().start)
                        .unwrap_or(rt.name.span().start);
                    self.err(
                        at,
                        "unavailable",
                        Problem::TooManyUnavailable {
                            team: t.name.clone(),
                            count,
                            max,
                        },
                    );
                }
            }
        }
    }

    /// Which side has white on odd boards (`[colours]`).
    fn colours(&mut self, raw: &RawLeague) -> Option<Side> {
        let v = &raw.colours.as_ref()?.get_ref().odd_boards_white;
        match v.get_ref().as_str() {
            "home" => Some(Side::Home),
            "away" => Some(Side::Away),
            other => {
                self.err(
                    v.span().start,
                    "colours.odd_boards_white",
                    Problem::BadValue(format!("\"{other}\" is not \"home\" or \"away\"")),
                );
                None
            }
        }
    }

    /// The league's cups (`[[cup]]`), each with a name of its own.
    fn cups(
        &mut self,
        raw: &RawLeague,
        league: &mut League,
        team_ix: &HashMap<String, usize>,
        div_ix: &HashMap<String, usize>,
    ) {
        let Some(cups) = &raw.cup else {
            return;
        };
        let at = cups.span().start;
        for cup in cups.get_ref().all() {
            let Some(c) = self.cup(cup, at, league, team_ix, div_ix) else {
                continue;
            };
            if let Some(why) = unsafe_name(&c.name) {
                self.err(
                    at,
                    "cup.name",
                    Problem::BadValue(format!("the cup name \"{}\" {why}", c.name.escape_debug())),
                );
            }
            if league.cups.iter().any(|o| o.name == c.name) {
                self.err(
                    at,
                    "cup.name",
                    Problem::BadValue(format!("two cups are called \"{}\"", c.name)),
                );
            }
            league.cups.push(c);
        }
    }

    /// The fixtures named by their teams: at a neutral venue, excluded, or fixed on a date.
    fn pairs(
        &mut self,
        raw: &RawLeague,
        league: &mut League,
        team_ix: &HashMap<String, usize>,
        venue_ix: &HashMap<String, usize>,
    ) {
        for n in &raw.neutral {
            let n = n.get_ref();
            let pair = self.pair(league, team_ix, &n.home, &n.away, "neutral");
            let venue = self.lookup(venue_ix, &n.venue, "venue", "venue");
            if let (Some((home, away)), Some(venue)) = (pair, venue) {
                league.neutral.insert((home, away), venue);
                let single = league.divisions[league.teams[home].division].format != Format::Double;
                if single {
                    league.neutral.insert((away, home), venue);
                }
            }
        }
        for e in &raw.excluded {
            let e = e.get_ref();
            if let Some((home, away)) = self.pair(league, team_ix, &e.home, &e.away, "excluded") {
                league.excluded.push(Excluded { home, away });
            }
        }
        for f in &raw.late {
            let f = f.get_ref();
            let pair = self.pair(league, team_ix, &f.home, &f.away, "late");
            let date = self.date(&f.date, "date");
            if let (Some((home, away)), Some(date)) = (pair, date) {
                league.late.push(Fixed { home, away, date });
            }
        }
        // Playability of fixed dates is only meaningful once the rest of the file is sound.
        let sound = self.errors.is_empty();
        for f in &raw.fixed {
            let f = f.get_ref();
            let pair = self.pair(league, team_ix, &f.home, &f.away, "fixed");
            let date = self.date(&f.date, "date");
            if let (Some((home, away)), Some(date), true) = (pair, date, sound) {
                self.fixed(league, home, away, date, f);
            }
        }
    }

    fn cup(
        &mut self,
        cup: &RawCup,
        at: usize,
        league: &League,
        team_ix: &HashMap<String, usize>,
        div_ix: &HashMap<String, usize>,
    ) -> Option<Cup> {
        let name = cup
            .name
            .as_ref()
            .map(|n| n.get_ref().clone())
            .unwrap_or_else(|| "Cup".into());
        if div_ix.contains_key(&name) {
            self.err(
                at,
                "cup.name",
                Problem::BadValue(format!(
                    "\"{name}\" names a division too; a cup needs its own name"
                )),
            );
        }
        let teams: Vec<TeamId> = match &cup.teams {
            Some(names) => names
                .iter()
                .filter_map(|n| self.lookup(team_ix, n, "cup.teams", "team"))
                .collect(),
            None => (0..league.teams.len()).collect(),
        };
        let finalists = self.cup_finalists(cup, team_ix);
        let deadlines = self.cup_deadlines(cup);
        let opens = match &cup.opens {
            Some(v) => self.date(v, "cup.opens")?,
            None => league.start,
        };
        let zones = self.cup_zones(cup, at, &name, &teams, &finalists, league, team_ix);
        let offer = match &cup.offer {
            Some(v) => self.int(v, "cup.offer", 1)?,
            None => 2,
        };
        let notice_days = match &cup.notice_days {
            Some(v) => self.int(v, "cup.notice_days", 0)?,
            None => 0,
        };
        if teams.len() < 2 {
            self.err(
                at,
                "cup.teams",
                Problem::BadValue(format!("{name} needs two entrants or more")),
            );
            return None;
        }
        let reserve = self.dates(cup.reserve.as_ref(), "cup.reserve");
        let draw = self.cup_draw(cup, &name, &teams, league, team_ix);
        let out = self.cup_entrants(cup.out.as_deref(), "cup.out", &name, &teams, team_ix);
        let c = Cup {
            name,
            teams,
            finalists,
            deadlines,
            opens,
            zones,
            offer,
            notice_days,
            reserve,
            weekends: flag(&cup.weekends),
            coin_toss: flag(&cup.coin_toss),
            all_play_all_of_three: flag(&cup.all_play_all_of_three),
            avoid_away_club: flag(&cup.avoid_away_club),
            draw,
            out: out.into_iter().collect(),
        };
        Some(c)
    }

    /// Last year's finalists (two at most).
    fn cup_finalists(&mut self, cup: &RawCup, team_ix: &HashMap<String, usize>) -> Vec<TeamId> {
        let finalists: Vec<usize> = cup
            .finalists
            .iter()
            .filter_map(|n| self.lookup(team_ix, n, "cup.finalists", "team"))
            .collect();
        if finalists.len() > 2 {
            self.err(
                cup.finalists[2].span().start,
                "cup.finalists",
                Problem::BadValue("a cup has two finalists".into()),
            );
        }
        finalists
    }

    /// Names in `list` (key `key`), each an entrant of cup `name`.
    fn cup_entrants(
        &mut self,
        list: Option<&[Spanned<String>]>,
        key: &str,
        name: &str,
        teams: &[TeamId],
        team_ix: &HashMap<String, usize>,
    ) -> Vec<TeamId> {
        let mut out = Vec::new();
        for n in list.unwrap_or_default() {
            let Some(t) = self.lookup(team_ix, n, key, "team") else {
                continue;
            };
            if teams.contains(&t) {
                out.push(t);
            } else {
                self.err(
                    n.span().start,
                    key,
                    Problem::BadValue(format!("\"{}\" is not an entrant of {name}", n.get_ref())),
                );
            }
        }
        out
    }

    /// The pairing tree as drawn: a power of two of positions, every entrant once, "" a bye.
    fn cup_draw(
        &mut self,
        cup: &RawCup,
        name: &str,
        teams: &[TeamId],
        league: &League,
        team_ix: &HashMap<String, usize>,
    ) -> Vec<Option<TeamId>> {
        let Some(raw) = &cup.draw else {
            return Vec::new();
        };
        let mut grid = Vec::new();
        for n in raw {
            if n.get_ref().trim().is_empty() {
                grid.push(None);
            } else {
                let t = self.cup_entrants(
                    Some(std::slice::from_ref(n)),
                    "cup.draw",
                    name,
                    teams,
                    team_ix,
                );
                grid.push(t.first().copied());
            }
        }
        let at = raw.first().map_or(0, |n| n.span().start);
        let drawn: Vec<TeamId> = grid.iter().flatten().copied().collect();
        let missing: Vec<&str> = teams
            .iter()
            .filter(|t| drawn.iter().filter(|d| d == t).count() != 1)
            .map(|&t| league.teams[t].name.as_str())
            .collect();
        if !grid.len().is_power_of_two() || grid.len() < 2 || !missing.is_empty() {
            self.err(
                at,
                "cup.draw",
                Problem::BadValue(format!(
                    "the draw of {name} has {} positions (a power of two, \"\" for a bye) and must hold every entrant once{}",
                    grid.len(),
                    if missing.is_empty() { String::new() } else { format!(": not once: {}", missing.join(", ")) }
                )),
            );
        }
        grid
    }

    /// A cup's rounds' deadlines, each after the one before.
    fn cup_deadlines(&mut self, cup: &RawCup) -> Vec<NaiveDate> {
        let mut deadlines = Vec::new();
        for item in cup.deadlines.iter().flat_map(|l| l.get_ref()) {
            if let Some(d) = self.date(item, "cup.deadlines") {
                if deadlines.last().is_some_and(|&p| p >= d) {
                    self.err(item.span().start, "cup.deadlines", Problem::BadValue(format!("{d} is not after the deadline before it: list the rounds' deadlines in order, the final's last")));
                }
                deadlines.push(d);
            }
        }
        deadlines
    }

    /// A cup's zones: every entrant in exactly one, and no finalists besides.
    #[allow(clippy::too_many_arguments)]
    fn cup_zones(
        &mut self,
        cup: &RawCup,
        at: usize,
        name: &str,
        teams: &[TeamId],
        finalists: &[usize],
        league: &League,
        team_ix: &HashMap<String, usize>,
    ) -> Vec<(String, Vec<TeamId>)> {
        let mut zones = Vec::new();
        for (zone, names) in cup.zones.iter().flatten() {
            let ids: Vec<TeamId> = names
                .iter()
                .filter_map(|n| self.lookup(team_ix, n, "cup.zones", "team"))
                .collect();
            for (&id, n) in ids.iter().zip(names) {
                if !teams.contains(&id) {
                    self.err(
                        n.span().start,
                        "cup.zones",
                        Problem::BadValue(format!(
                            "\"{}\" is in zone {zone} but not an entrant of {name}",
                            n.get_ref()
                        )),
                    );
                }
            }
            zones.push((zone.clone(), ids));
        }
        if !zones.is_empty() {
            for &t in teams {
                let count = zones.iter().filter(|(_, z)| z.contains(&t)).count();
                if count != 1 {
                    self.err(at, "cup.zones", Problem::BadValue(format!("\"{}\" is in {count} zones of {name}; with zones every entrant is in exactly one", league.teams[t].name)));
                }
            }
            if !finalists.is_empty() {
                self.err(
                    at,
                    "cup.finalists",
                    Problem::BadValue(format!(
                        "{name} has zones and finalists; give one or the other"
                    )),
                );
            }
        }
        zones
    }

    /// Teams entered jointly by two clubs (Rapid League rules): each home match at the venue of
    /// the club listed for the opponent in `hosts`, the others in turn (the opponents in the
    /// division's order alternate between the team's club and `joint_with`).
    fn joint_teams(
        &mut self,
        raw: &RawLeague,
        league: &mut League,
        club_ix: &HashMap<String, usize>,
        venue_ix: &HashMap<String, usize>,
    ) {
        if league.teams.len() != raw.team.len() {
            return; // a team did not resolve: its error is reported already
        }
        for (j, rt) in raw.team.iter().enumerate() {
            let rt = rt.get_ref();
            let Some(other) = &rt.joint_with else {
                if let Some(h) = &rt.hosts {
                    if let Some((_, club)) = h.iter().next() {
                        self.err(
                            club.span().start,
                            "hosts",
                            Problem::BadValue(
                                "`hosts` is for a team entered jointly: give `joint_with` too"
                                    .into(),
                            ),
                        );
                    }
                }
                continue;
            };
            self.joint_team(j, rt, other, raw, league, club_ix, venue_ix);
        }
    }

    /// The joint club `other` as host of a team's matches: its own nights (unless the team
    /// gives its own, which both clubs agreed) and unavailable dates. The club's teams' loading
    /// reports any error in them already.
    fn joint_host(&mut self, rt: &RawTeam, raw: &RawLeague, other: ClubId) -> JointHost {
        let before = self.errors.len();
        let of_other = raw.club[other].get_ref().hosting();
        let own = rt.hosting();
        let agreed = own.home_dates.is_some() || own.nights.is_some();
        let host = JointHost {
            club: other,
            hosting: match (of_other.home_dates, of_other.nights) {
                _ if agreed => None,
                (Some(d), _) => Some(Hosting::Dates(self.dates(Some(d), "home_dates"))),
                (None, Some(n)) => Some(Hosting::Nights(self.weekdays(n, "nights"))),
                (None, None) => None,
            },
            unavailable: self.dates(of_other.unavailable, "unavailable"),
        };
        self.errors.truncate(before);
        host
    }

    /// The venue of club `c`, hosting a joint team's match.
    fn joint_venue(
        &mut self,
        raw: &RawLeague,
        venue_ix: &HashMap<String, usize>,
        c: ClubId,
        at: usize,
    ) -> Option<VenueId> {
        let club = raw.club[c].get_ref();
        match club.venue.as_ref() {
            Some(v) => self.lookup(venue_ix, v, "venue", "venue"),
            None => {
                self.err(
                    at,
                    "joint_with",
                    Problem::Missing(format!(
                        "club \"{}\" names no venue to host the joint team",
                        club.name.get_ref()
                    )),
                );
                None
            }
        }
    }

    /// Team `j` entered jointly by its club and `other`: where it plays each opponent.
    #[allow(clippy::too_many_arguments)]
    fn joint_team(
        &mut self,
        j: usize,
        rt: &RawTeam,
        other: &Spanned<String>,
        raw: &RawLeague,
        league: &mut League,
        club_ix: &HashMap<String, usize>,
        venue_ix: &HashMap<String, usize>,
    ) {
        let (Some(team), Some(other)) = (
            league.teams.get(j),
            self.lookup(club_ix, other, "joint_with", "club"),
        ) else {
            return;
        };
        let clubs = [team.club, other];
        let at = rt.name.span().start;
        let opponents: Vec<TeamId> = league.divisions[team.division]
            .teams
            .iter()
            .copied()
            .filter(|&o| o != j)
            .collect();
        let mut listed = BTreeMap::new();
        for (opp, club) in rt.hosts.iter().flatten() {
            let Some(o) = league.team_by_name(opp).filter(|o| opponents.contains(o)) else {
                self.err(
                    club.span().start,
                    "hosts",
                    Problem::BadValue(format!(
                        "\"{opp}\" is not an opponent of \"{}\" in its division",
                        team.name
                    )),
                );
                return;
            };
            match self.lookup(club_ix, club, "hosts", "club") {
                Some(c) if clubs.contains(&c) => {
                    listed.insert(o, c);
                }
                Some(_) => self.err(
                    club.span().start,
                    "hosts",
                    Problem::BadValue(format!(
                        "\"{}\" is not one of the joint team's clubs",
                        club.get_ref()
                    )),
                ),
                None => {}
            }
        }
        let host = self.joint_host(rt, raw, other);
        for (k, &o) in opponents.iter().enumerate() {
            let c = listed.get(&o).copied().unwrap_or(clubs[k % 2]);
            if let Some(v) = self.joint_venue(raw, venue_ix, c, at) {
                if v != team.venue {
                    league.neutral.insert((j, o), v);
                }
            }
            if c == other {
                league.joint_hosts.insert((j, o), host.clone());
            }
        }
    }

    /// `[penalties]`: a board's default points at most 100, at most 64 boards.
    fn penalties(&mut self, raw: &RawPenalties) -> Penalties {
        let mut out = Penalties::default();
        if let Some(list) = &raw.board_points {
            if list.len() > 64 {
                let at = list[64].span().start;
                self.err(
                    at,
                    "penalties.board_points",
                    Problem::BadValue(format!("{} boards; at most 64", list.len())),
                );
            }
            for v in list.iter().take(64) {
                if *v.get_ref() > 100 {
                    self.err(
                        v.span().start,
                        "penalties.board_points",
                        Problem::BadValue(format!("{} is out of range; at most 100", v.get_ref())),
                    );
                } else if let Some(n) = self.int(v, "penalties.board_points", 0) {
                    out.board_points.push(n);
                }
            }
        }
        out.per_match_point = raw
            .per_match_point
            .as_ref()
            .and_then(|v| self.int(v, "penalties.per_match_point", 1));
        if let Some(v) = &raw.serious_default {
            if *v.get_ref() > 100 {
                self.err(
                    v.span().start,
                    "penalties.serious_default",
                    Problem::BadValue(format!("{} is out of range; at most 100", v.get_ref())),
                );
            } else {
                out.serious_default = self.int(v, "penalties.serious_default", 0).unwrap_or(0);
            }
        }
        out.not_below_zero = flag(&raw.not_below_zero);
        out.forfeits_exclude = raw
            .forfeits_exclude
            .as_ref()
            .and_then(|v| self.int(v, "penalties.forfeits_exclude", 1));
        out
    }

    fn changes(&mut self, raw: &RawChanges) -> Option<Changes> {
        let issued = self.date(&raw.issued, "changes.issued")?;
        let early_until = match &raw.early_until {
            Some(v) => Some(self.date(v, "changes.early_until")?),
            None => None,
        };
        let mut days = |v: &Option<Spanned<i64>>, key: &str, default: u32| match v {
            Some(v) => self.int(v, key, 0).unwrap_or(default),
            None => default,
        };
        Some(Changes {
            issued,
            early_until,
            early_days: days(&raw.early_days, "changes.early_days", 14),
            notice_days: days(&raw.notice_days, "changes.notice_days", 28),
            notify_days: days(&raw.notify_days, "changes.notify_days", 7),
            weekends: flag(&raw.weekends),
        })
    }

    fn rules(&mut self, raw: Option<&RawRules>) -> Rules {
        let mut rules = Rules::default();
        let Some(r) = raw else { return rules };
        if let Some(v) = &r.min_days_between {
            rules.min_days_between = self.int(v, "min_days_between", 1).unwrap_or(1);
        }
        if let Some(v) = r.same_club_first {
            rules.same_club_first = v;
        }
        if let Some(v) = &r.home_away_balance {
            rules.home_away_balance = self.int(v, "home_away_balance", 0).unwrap_or(0);
        }
        rules.max_unavailable = r
            .max_unavailable
            .as_ref()
            .and_then(|v| self.int(v, "max_unavailable", 0));
        rules.latest_internal_date = r
            .latest_internal_date
            .as_ref()
            .and_then(|v| self.date(v, "latest_internal_date"));
        rules.max_consecutive_weeks = r
            .max_consecutive_weeks
            .as_ref()
            .and_then(|v| self.int(v, "max_consecutive_weeks", 1));
        rules.max_club_teams_per_division = r
            .max_club_teams_per_division
            .as_ref()
            .and_then(|v| self.int(v, "max_club_teams_per_division", 1));
        rules.tie_breaks = r
            .tie_breaks
            .as_ref()
            .map(|v| self.tie_breaks(v, "rules.tie_breaks"));
        rules
    }

    /// A `tie_breaks` (`key`): a list of names, or one string of them separated by commas.
    fn tie_breaks(&mut self, v: &RawValue, key: &str) -> Vec<TieBreak> {
        let names: Vec<String> = match v.get_ref() {
            toml::Value::String(s) => s.split(',').map(str::to_string).collect(),
            toml::Value::Array(a) => a
                .iter()
                .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
                .collect(),
            other => vec![other.to_string()],
        };
        let mut out = Vec::new();
        for name in names.iter().filter(|n| !n.trim().is_empty()) {
            match TieBreak::named(name) {
                Some(t) if !out.contains(&t) => out.push(t),
                Some(_) => {}
                None => {
                    let known: Vec<&str> = TieBreak::NAMES.iter().map(|n| n.0).collect();
                    self.err(
                        v.span().start,
                        key,
                        Problem::BadValue(format!(
                            "\"{}\" is not a tie-break; use {}",
                            name.trim(),
                            known.join(", ")
                        )),
                    );
                }
            }
        }
        out
    }

    fn weights(&mut self, raw: Option<&RawWeights>) -> Weights {
        let mut w = Weights::default();
        let Some(r) = raw else { return w };
        for (key, value, slot) in [
            ("breaks", &r.breaks, &mut w.breaks),
            ("avoid", &r.avoid, &mut w.avoid),
            ("long_rest", &r.long_rest, &mut w.long_rest),
            ("short_rest", &r.short_rest, &mut w.short_rest),
            ("spread", &r.spread, &mut w.spread),
            ("spread_max", &r.spread_max, &mut w.spread_max),
            ("winter", &r.winter, &mut w.winter),
        ] {
            if let Some(v) = value {
                let x = *v.get_ref();
                if x.is_finite() && (0.0..=1e6).contains(&x) {
                    *slot = x;
                } else {
                    self.err(
                        v.span().start,
                        &format!("weights.{key}"),
                        Problem::BadValue(format!("{x} is not a weight from 0 to 1000000")),
                    );
                }
            }
        }
        if let Some(v) = &r.long_rest_days {
            if let Some(n) = self.int(v, "weights.long_rest_days", 1) {
                w.long_rest_days = n;
            }
        }
        if let Some(v) = &r.short_rest_days {
            if let Some(n) = self.int(v, "weights.short_rest_days", 1) {
                w.short_rest_days = n;
            }
        }
        w
    }

    fn venue(&mut self, v: &RawVenue) -> Venue {
        let capacity = match &v.capacity {
            Some(c) => {
                let n = *c.get_ref();
                if n < 1 {
                    self.err(
                        c.span().start,
                        "capacity",
                        Problem::BadValue(format!(
                            "capacity {n} is not allowed: a venue hosts at least 1 match a date (list dates it hosts nothing in `closed`)"
                        )),
                    );
                }
                self.int(c, "capacity", 1).unwrap_or(1)
            }
            None => 1,
        };
        let mut capacity_on = BTreeMap::new();
        if let Some(map) = &v.capacity_on {
            for (k, n) in map.get_ref() {
                let key = format!("capacity_on.{}", k.get_ref());
                let kv = Spanned::new(k.span(), toml::Value::String(k.get_ref().clone()));
                let d = self.date(&kv, &key);
                let n = self.int(n, &key, 0);
                if let (Some(d), Some(n)) = (d, n) {
                    capacity_on.insert(d, n);
                }
            }
        }
        let closed = self.dates(v.closed.as_ref(), "closed");
        Venue {
            name: v.name.get_ref().clone(),
            capacity,
            capacity_on,
            closed,
            start_time: self.time(v.start_time.as_ref()),
        }
    }

    /// A start time, "HH:MM" (24-hour), or `None` with an error naming the key.
    fn time(&mut self, v: Option<&Spanned<String>>) -> Option<chrono::NaiveTime> {
        let v = v?;
        match chrono::NaiveTime::parse_from_str(v.get_ref().trim(), "%H:%M") {
            Ok(t) => Some(t),
            Err(_) => {
                self.err(
                    v.span().start,
                    "start_time",
                    Problem::BadValue(format!(
                        "\"{}\" is not a time of day as HH:MM (e.g. \"19:30\")",
                        v.get_ref()
                    )),
                );
                None
            }
        }
    }

    /// The league's time zone (IANA name), Europe/London when not given.
    fn timezone(&mut self, v: Option<&Spanned<String>>) -> chrono_tz::Tz {
        let Some(v) = v else {
            return chrono_tz::Europe::London;
        };
        match v.get_ref().trim().parse::<chrono_tz::Tz>() {
            Ok(tz) => tz,
            Err(_) => {
                self.err(
                    v.span().start,
                    "timezone",
                    Problem::BadValue(format!(
                        "\"{}\" is not a time zone name (e.g. \"Europe/London\", \"America/Toronto\")",
                        v.get_ref()
                    )),
                );
                chrono_tz::Europe::London
            }
        }
    }

    fn team(
        &mut self,
        t: &Spanned<RawTeam>,
        raw: &RawLeague,
        club_ix: &HashMap<String, usize>,
        div_ix: &HashMap<String, usize>,
        venue_ix: &HashMap<String, usize>,
        league_start: NaiveDate,
    ) -> Option<Team> {
        let t = t.get_ref();
        let club = self.lookup(club_ix, &t.club, "club", "club");
        let division = self.lookup(div_ix, &t.division, "division", "division");
        let (club, division) = (club?, division?);
        let own = t.hosting();
        let of_club = raw.club[club].get_ref().hosting();
        let name_at = t.name.span().start;

        let venue_name = own.venue.or(of_club.venue);
        let venue = match venue_name {
            Some(v) => self.lookup(venue_ix, v, "venue", "venue"),
            None => {
                self.err(
                    name_at,
                    "venue",
                    Problem::Missing(format!(
                        "team \"{}\" has no venue: neither it nor its club \"{}\" names one",
                        t.name.get_ref(),
                        t.club.get_ref()
                    )),
                );
                None
            }
        };

        let hosting = self.hosting(t, &own, &of_club);
        let start = match own.start.or(of_club.start) {
            Some(s) => self.date(s, "start")?,
            None => league_start,
        };
        let mut unavailable = self.dates(of_club.unavailable, "unavailable");
        unavailable.extend(self.dates(own.unavailable, "unavailable"));
        let mut unavailable_away = self.dates(of_club.unavailable_away, "unavailable_away");
        unavailable_away.extend(self.dates(own.unavailable_away, "unavailable_away"));
        let avoid = self.dates(t.avoid.as_ref(), "avoid");
        let later = self.dates(t.unavailable_later.as_ref(), "unavailable_later");
        unavailable.extend(later.iter().copied());
        Some(Team {
            name: t.name.get_ref().clone(),
            club,
            division,
            venue: venue?,
            hosting: hosting?,
            start,
            unavailable,
            later,
            unavailable_away,
            avoid,
            rating: t
                .rating
                .as_ref()
                .map(|r| *r.get_ref())
                .filter(|r| r.is_finite()),
        })
    }

    /// A team's home nights or dates: its own `home_dates` or `nights` replace whatever its
    /// club says.
    fn hosting(
        &mut self,
        t: &RawTeam,
        own: &RawHostingRef<'_>,
        of_club: &RawHostingRef<'_>,
    ) -> Option<Hosting> {
        let name_at = t.name.span().start;
        let src = if own.home_dates.is_some() || own.nights.is_some() {
            own
        } else {
            of_club
        };
        if let Some(d) = src.home_dates {
            Some(Hosting::Dates(self.dates(Some(d), "home_dates")))
        } else if let Some(n) = src.nights {
            Some(Hosting::Nights(self.weekdays(n, "nights")))
        } else {
            self.err(
                name_at,
                "nights",
                Problem::Missing(format!(
                    "team \"{}\" has no home nights: give `nights` or `home_dates` for it or its club \"{}\"",
                    t.name.get_ref(),
                    t.club.get_ref()
                )),
            );
            None
        }
    }

    /// Resolves the two teams of a `[[fixed]]` or `[[excluded]]` entry.
    fn pair(
        &mut self,
        league: &League,
        team_ix: &HashMap<String, usize>,
        home: &Spanned<String>,
        away: &Spanned<String>,
        table: &str,
    ) -> Option<(TeamId, TeamId)> {
        let h = self.lookup(team_ix, home, "home", "team");
        let a = self.lookup(team_ix, away, "away", "team");
        let (h, a) = (h?, a?);
        if h == a {
            self.err(
                away.span().start,
                "away",
                Problem::Fixture(format!(
                    "[[{table}]] names \"{}\" as both home and away team",
                    home.get_ref()
                )),
            );
            return None;
        }
        if league.teams[h].division != league.teams[a].division {
            self.err(
                away.span().start,
                "away",
                Problem::Fixture(format!(
                    "[[{table}]] {} v {}: the teams are in different divisions (\"{}\" and \"{}\"), so they never meet",
                    home.get_ref(),
                    away.get_ref(),
                    league.divisions[league.teams[h].division].name,
                    league.divisions[league.teams[a].division].name
                )),
            );
            return None;
        }
        Some((h, a))
    }

    fn fixed(
        &mut self,
        league: &mut League,
        home: TeamId,
        away: TeamId,
        date: NaiveDate,
        raw: &RawFixed,
    ) {
        let at = raw.date.span().start;
        let hname = &league.teams[home].name;
        let aname = &league.teams[away].name;
        let fixture_exists = league
            .fixtures()
            .iter()
            .any(|f| (f.a == home && f.b == away) || (!f.home_fixed && f.a == away && f.b == home));
        if !fixture_exists {
            let problem = Problem::Fixture(format!(
                "[[fixed]] {hname} v {aname} is not a fixture of this season (it is excluded)"
            ));
            self.err(raw.home.span().start, "home", problem);
            return;
        }
        let single = league.divisions[league.teams[home].division].format != Format::Double;
        if let Some(prev) = league.fixed.iter().find(|f| {
            (f.home == home && f.away == away) || (single && f.home == away && f.away == home)
        }) {
            let problem = Problem::Fixture(format!(
                "{hname} v {aname} is fixed twice (also on {})",
                prev.date
            ));
            self.err(raw.home.span().start, "home", problem);
            return;
        }
        // Pushed before the test: a weekend the clubs agreed is playable because it is fixed.
        league.fixed.push(Fixed { home, away, date });
        if let Err(why) = league.playable(home, away, date) {
            league.fixed.pop();
            let problem = Problem::Fixture(format!(
                "[[fixed]] {hname} v {aname} can never be played on {date}: {}",
                league.describe_unplayable(&why, home)
            ));
            self.err(at, "date", problem);
        }
    }
}

/// An optional `true`/`false` key: false when absent.
fn flag(v: &Option<Spanned<bool>>) -> bool {
    v.as_ref().is_some_and(|w| *w.get_ref())
}

/// Why a name cannot be written safely into a fixture list, calendar or spreadsheet, if it
/// cannot: a control character (a line break would start a new line of a calendar) or a
/// first character a spreadsheet takes as the start of a formula.
pub fn unsafe_name(name: &str) -> Option<&'static str> {
    if name.chars().any(char::is_control) {
        return Some("holds a line break, tab or other control character");
    }
    if name.trim_start().starts_with(['=', '+', '-', '@']) {
        return Some("starts with =, +, - or @, which a spreadsheet would run as a formula");
    }
    None
}
