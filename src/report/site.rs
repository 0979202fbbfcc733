//! `fixtures report`: a static site a league can publish, and an iCalendar file per team.
//!
//! Pages (HTML from maud templates, one inline stylesheet, no external resources):
//! - `index.html`: every fixture by date, with links to the other pages;
//! - `division-<name>.html`: a grid of home team × away team with dates, and a calendar strip
//!   per team (a cell per week: home, away, idle, closed);
//! - `club-<name>.html`: the club's fixtures and the load on its venues' nights.
//!
//! - `card-<club>.html`: the club's printable fixture card (a print stylesheet, a table per team);
//! - `lms.csv`: the list as the ECF League Management System imports it (no header; division,
//!   home team, away team, date YYYY-MM-DD).
//!
//! `ics/<team>.ics`, `ics/club-<club>.ics` and `ics/division-<division>.ics` hold one VEVENT per
//! fixture: timed (in UTC, from the venue's or the home club's `start_time` in the league's
//! `timezone`) or all-day when no start time is known. A fixture's UID depends only on the
//! league, the division and the teams (not the date or, in a single round robin, who is at
//! home), so re-publishing after a change updates events instead of duplicating them; given the
//! earlier published versions, an event whose date, home side or venue changed carries a higher
//! SEQUENCE (RFC 5546), and a fixture no longer in the list (scratched) stays as
//! STATUS:CANCELLED.

use crate::model::short_date;
use crate::model::{FixtureList, Match};
use crate::model::{Format, League, TeamId};
use chrono::{Datelike, Days, NaiveDate};
use maud::{html, Markup, PreEscaped, DOCTYPE};
use std::collections::BTreeMap;
use std::path::Path;

/// The stylesheet every page carries inline.
pub const CSS: &str = r#"
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
h1, h2 { font-weight: 600; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: left; font-size: 0.9em; }
th { background: #f1f1f1; }
nav a { margin-right: 1em; }
.card { page-break-inside: avoid; }
@media print { nav, .noprint { display: none; } body { margin: 0; font-size: 10pt; } .card { page-break-after: always; } }
.grid td { text-align: center; white-space: nowrap; }
.grid td.self { background: #444; }
.strip td { width: 1.1em; min-width: 1.1em; height: 1.1em; padding: 0; border: 1px solid #fff; }
.strip td.H { background: #2e7d32; }
.strip td.A { background: #1565c0; }
.strip td.I { background: #e0e0e0; }
.strip td.C { background: #616161; }
.strip th { font-weight: normal; white-space: nowrap; }
.legend span { display: inline-block; padding: 0 0.5em; margin-right: 0.5em; color: #fff; }
.over { color: #b71c1c; font-weight: 600; }
.scroll { overflow-x: auto; max-width: 100%; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 1em; top: 1em; background: #fff; padding: 0.5em; }
"#;

/// A file name for a name: lowercase letters and digits, dashes between words.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() {
        "x".into()
    } else {
        out
    }
}

/// Distinct slugs for a list of names (a number appended where two would collide).
fn slugs<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    names
        .map(|n| {
            let s = slug(n);
            let k = seen.entry(s.clone()).or_default();
            *k += 1;
            if *k == 1 {
                s
            } else {
                format!("{s}-{k}")
            }
        })
        .collect()
}

/// The files of the site: (path relative to the output folder, contents).
pub fn site(league: &League, list: &FixtureList) -> Vec<(String, String)> {
    site_with_history(league, list, &[])
}

/// What a calendar remembers of a fixture in one published version: date, home team, venue.
type Seen = (NaiveDate, TeamId, usize);

/// The site of `list`, whose calendars also know the earlier published versions (`history`,
/// oldest first): moved fixtures raise their SEQUENCE, scratched ones stay as cancelled events.
pub fn site_with_history(
    league: &League,
    list: &FixtureList,
    history: &[FixtureList],
) -> Vec<(String, String)> {
    let mut rows: Vec<&Match> = list.matches.iter().collect();
    rows.sort_by(|a, b| {
        a.date
            .cmp(&b.date)
            .then(
                league.teams[a.home]
                    .division
                    .cmp(&league.teams[b.home].division),
            )
            .then_with(|| league.teams[a.home].name.cmp(&league.teams[b.home].name))
    });
    let mut s = Site {
        league,
        rows,
        div_slugs: slugs(league.divisions.iter().map(|d| d.name.as_str())),
        club_slugs: slugs(league.clubs.iter().map(|c| c.name.as_str())),
        team_slugs: slugs(league.teams.iter().map(|t| t.name.as_str())),
        versions: Vec::new(),
    };
    s.versions = history
        .iter()
        .chain(std::iter::once(list))
        .map(|l| {
            l.matches
                .iter()
                .map(|m| {
                    (
                        s.uid(m),
                        (m.date, m.home, league.fixture_venue(m.home, m.away)),
                    )
                })
                .collect()
        })
        .collect();
    let mut files = vec![("index.html".to_string(), s.index())];
    for d in 0..league.divisions.len() {
        files.push((format!("division-{}.html", s.div_slugs[d]), s.division(d)));
        let name = format!("{} — {}", league.divisions[d].name, league.name);
        let of = |m: &Match| league.teams[m.home].division == d;
        files.push((
            format!("ics/division-{}.ics", s.div_slugs[d]),
            s.calendar(&name, &of, None),
        ));
    }
    for c in 0..league.clubs.len() {
        files.push((format!("club-{}.html", s.club_slugs[c]), s.club(c)));
        files.push((format!("card-{}.html", s.club_slugs[c]), s.card(c)));
        let name = format!("{} — {}", league.clubs[c].name, league.name);
        let of = |m: &Match| league.teams[m.home].club == c || league.teams[m.away].club == c;
        files.push((
            format!("ics/club-{}.ics", s.club_slugs[c]),
            s.calendar(&name, &of, None),
        ));
    }
    for t in 0..league.teams.len() {
        let name = format!("{} — {}", league.teams[t].name, league.name);
        let of = |m: &Match| m.home == t || m.away == t;
        files.push((
            format!("ics/{}.ics", s.team_slugs[t]),
            s.calendar(&name, &of, Some(t)),
        ));
    }
    files.push(("lms.csv".to_string(), lms(league, list)));
    files
}

/// The list as the ECF League Management System's importer reads it: no header row; division,
/// home team, away team, date as YYYY-MM-DD (league matches only).
pub fn lms(league: &League, list: &FixtureList) -> String {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    for m in &list.matches {
        // Writing to a Vec cannot fail.
        let _ = w.write_record([
            league.divisions[m.division].name.as_str(),
            league.teams[m.home].name.as_str(),
            league.teams[m.away].name.as_str(),
            &m.date.to_string(),
        ]);
    }
    String::from_utf8_lossy(&w.into_inner().unwrap_or_default()).into_owned()
}

/// Writes the site under `dir` (each file through a temporary file and a rename).
pub fn write_site(dir: &Path, files: &[(String, String)]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir.join("ics"))?;
    for (name, text) in files {
        crate::files::write_atomically(&dir.join(name), text)?;
    }
    Ok(())
}

/// The Mondays of the season's weeks.
pub fn weeks(league: &League) -> Vec<NaiveDate> {
    let lg = league;
    let mut monday = lg.start - Days::new(lg.start.weekday().num_days_from_monday() as u64);
    let mut out = Vec::new();
    while monday <= lg.end {
        out.push(monday);
        monday = monday + Days::new(7);
    }
    out
}

/// The key to the weekly strips' colours.
pub fn strip_legend() -> Markup {
    html! {
        p.legend {
            span style="background:#2e7d32" { "home" }
            span style="background:#1565c0" { "away" }
            span style="background:#e0e0e0;color:#222" { "no match" }
            span style="background:#616161" { "league closed" }
            "One cell per week, Monday to Sunday."
        }
    }
}

/// A team's weekly strip: per week of the season, its class (H home, A away, C league closed
/// all week, I no match) and a tip in words.
pub fn strip(league: &League, rows: &[&Match], t: TeamId) -> Vec<(&'static str, String)> {
    let lg = league;
    let name = |t: TeamId| lg.teams[t].name.as_str();
    let week_closed = |m: NaiveDate| {
        (0..7).all(|k| {
            let day = m + Days::new(k);
            day < lg.start || day > lg.end || lg.closed.contains(&day)
        })
    };
    weeks(lg)
        .iter()
        .map(|&m| {
            let end = m + Days::new(6);
            let games: Vec<&&Match> = rows
                .iter()
                .filter(|r| (r.home == t || r.away == t) && r.date >= m && r.date <= end)
                .collect();
            match games.first() {
                Some(r) if r.home == t => (
                    "H",
                    format!("{}: home v {}", short_date(r.date), name(r.away)),
                ),
                Some(r) => (
                    "A",
                    format!("{}: away at {}", short_date(r.date), name(r.home)),
                ),
                None if week_closed(m) => ("C", format!("week of {m}: closed")),
                None => ("I", format!("week of {m}: no match")),
            }
        })
        .collect()
}

struct Site<'a> {
    league: &'a League,
    rows: Vec<&'a Match>,
    div_slugs: Vec<String>,
    club_slugs: Vec<String>,
    team_slugs: Vec<String>,
    /// Per published version, oldest first and this list last: each fixture's UID to what a
    /// calendar shows of it.
    versions: Vec<BTreeMap<String, Seen>>,
}

impl Site<'_> {
    fn team(&self, t: TeamId) -> &str {
        &self.league.teams[t].name
    }

    fn venue_of(&self, r: &Match) -> &str {
        &self.league.venues[self.league.fixture_venue(r.home, r.away)].name
    }

    fn page(&self, title: &str, body: Markup) -> String {
        html! {
            (DOCTYPE)
            html lang="en" {
                head {
                    meta charset="utf-8";
                    meta name="viewport" content="width=device-width, initial-scale=1";
                    title { (title) " — " (self.league.name) }
                    style { (PreEscaped(CSS)) }
                }
                body {
                    a.skip href="#content" { "Skip to the content" }
                    nav {
                        a href="index.html" { "All fixtures" }
                        @for (d, div) in self.league.divisions.iter().enumerate() {
                            a href=(format!("division-{}.html", self.div_slugs[d])) { (div.name) }
                        }
                    }
                    main #content {
                        h1 { (title) }
                        (body)
                    }
                }
            }
        }
        .into_string()
    }

    fn fixture_table(&self, rows: &[&Match]) -> Markup {
        html! {
            div.scroll tabindex="0" { table {
                thead { tr { th { "Date" } th { "Day" } th { "Division" } th { "Home" } th { "Away" } th { "Venue" } } }
                tbody {
                    @for r in rows {
                        tr {
                            td { (short_date(r.date)) }
                            td { (r.date.weekday()) }
                            td { (self.league.divisions[self.league.teams[r.home].division].name) }
                            td { (self.team(r.home)) }
                            td { (self.team(r.away)) }
                            td { (self.venue_of(r)) }
                        }
                    }
                }
            } }
        }
    }

    fn index(&self) -> String {
        let lg = self.league;
        let body = html! {
            p { (short_date(lg.start)) " to " (short_date(lg.end)) ": " (self.rows.len()) " fixtures, " ((0..lg.teams.len()).filter(|&t| !lg.withdrawn(t)).count()) " teams." }
            h2 { "Clubs" }
            p {
                @for (c, club) in lg.clubs.iter().enumerate() {
                    a href=(format!("club-{}.html", self.club_slugs[c])) { (club.name) } " "
                }
            }
            h2 { "Calendars" }
            p { "Add a team's fixtures to your phone or computer calendar:" }
            ul {
                @for (t, team) in lg.teams.iter().enumerate() {
                    li {
                        a href=(format!("ics/{}.ics", self.team_slugs[t])) { (team.name) }
                        @if lg.withdrawn(t) { " (withdrew: its fixtures are cancelled)" }
                    }
                }
            }
            h2 { "All fixtures" }
            (self.fixture_table(&self.rows))
        };
        self.page(&lg.name, body)
    }

    fn division(&self, d: usize) -> String {
        let lg = self.league;
        let div = &lg.divisions[d];
        // A team that withdrew leaves the grid and the count (rule 11.2).
        let teams: Vec<TeamId> = div
            .teams
            .iter()
            .copied()
            .filter(|&t| !lg.withdrawn(t))
            .collect();
        let rows: Vec<&Match> = self
            .rows
            .iter()
            .copied()
            .filter(|r| lg.teams[r.home].division == d)
            .collect();
        let mut at: BTreeMap<(TeamId, TeamId), NaiveDate> = BTreeMap::new();
        for r in &rows {
            at.insert((r.home, r.away), r.date);
        }
        let weeks = weeks(lg);
        let strip = |t: TeamId| strip(lg, &rows, t);
        let body = html! {
            p { (match div.format { Format::Single => "Single round robin", Format::Double => "Double round robin", Format::Paired => "Paired round by round" }) ", " (teams.len()) " teams, " (rows.len()) " fixtures." }
            h2 { "Grid" }
            p { "Rows: home team; columns: away team." }
            div.scroll tabindex="0" { table.grid {
                thead { tr { th { "Home \\ Away" } @for &a in &teams { th { (self.team(a)) } } } }
                tbody {
                    @for &h in &teams {
                        tr {
                            th { (self.team(h)) }
                            @for &a in &teams {
                                @if h == a { td.self {} }
                                @else { td { @if let Some(dt) = at.get(&(h, a)) { (short_date(*dt)) } } }
                            }
                        }
                    }
                }
            } }
            h2 { "Team calendars" }
            (strip_legend())
            div.scroll tabindex="0" { table.strip {
                thead {
                    tr {
                        th {}
                        @for m in &weeks {
                            th title=(format!("week of {}", short_date(*m))) {
                                @if m.day() <= 7 { (m.format("%b")) }
                            }
                        }
                    }
                }
                tbody {
                    @for &t in &teams {
                        tr {
                            th { (self.team(t)) }
                            @for (class, tip) in strip(t) { td class=(class) title=(tip) {} }
                        }
                    }
                }
            } }
            h2 { "Fixtures" }
            (self.fixture_table(&rows))
        };
        self.page(&div.name, body)
    }

    fn club(&self, c: usize) -> String {
        let lg = self.league;
        let teams: Vec<TeamId> = (0..lg.teams.len())
            .filter(|&t| lg.teams[t].club == c)
            .collect();
        let rows: Vec<&Match> = self
            .rows
            .iter()
            .copied()
            .filter(|r| teams.contains(&r.home) || teams.contains(&r.away))
            .collect();
        // Load on the venues the club's teams play at: every match there, any club's.
        let mut venues: Vec<usize> = teams.iter().map(|&t| lg.match_venue(t)).collect();
        venues.sort();
        venues.dedup();
        let mut load: BTreeMap<(usize, NaiveDate), Vec<&Match>> = BTreeMap::new();
        for r in &self.rows {
            let v = lg.fixture_venue(r.home, r.away);
            if venues.contains(&v) {
                load.entry((v, r.date)).or_default().push(r);
            }
        }
        let body = html! {
            p { "Teams: " @for (i, &t) in teams.iter().enumerate() { @if i > 0 { ", " } (self.team(t)) } }
            p {
                a href=(format!("card-{}.html", self.club_slugs[c])) { "Printable fixture card" }
                " · " a href=(format!("ics/club-{}.ics", self.club_slugs[c])) { "Club calendar" }
            }
            h2 { "Venue nights" }
            div.scroll tabindex="0" { table {
                thead { tr { th { "Venue" } th { "Date" } th { "Day" } th { "Matches" } th { "Capacity" } th { "Fixtures" } } }
                tbody {
                    @for ((v, d), list) in &load {
                        @let cap = lg.venues[*v].capacity_on(*d) as usize;
                        tr {
                            td { (lg.venues[*v].name) }
                            td { (short_date(*d)) }
                            td { (d.weekday()) }
                            td class=[(list.len() > cap).then_some("over")] { (list.len()) }
                            td { (cap) }
                            td { @for (i, r) in list.iter().enumerate() { @if i > 0 { "; " } (self.team(r.home)) " v " (self.team(r.away)) } }
                        }
                    }
                }
            } }
            h2 { "Fixtures" }
            (self.fixture_table(&rows))
        };
        self.page(&lg.clubs[c].name, body)
    }

    /// The club's printable fixture card: a table per team (date, day, home or away, opponent,
    /// venue, start), each on its own printed page.
    fn card(&self, c: usize) -> String {
        let lg = self.league;
        let teams: Vec<TeamId> = (0..lg.teams.len())
            .filter(|&t| lg.teams[t].club == c)
            .collect();
        let body = html! {
            p class="noprint" { "A page per team when printed. " a href=(format!("club-{}.html", self.club_slugs[c])) { "Venue nights" } }
            @for &t in &teams {
                section class="card" {
                    h2 { (self.team(t)) " — " (lg.divisions[lg.teams[t].division].name) }
                    div.scroll tabindex="0" { table {
                        thead { tr { th { "Date" } th { "Day" } th { "Home or away" } th { "Opponent" } th { "Venue" } th { "Start" } } }
                        tbody {
                            @for r in self.rows.iter().filter(|r| r.home == t || r.away == t) {
                                @let home = r.home == t;
                                @let venue = lg.fixture_venue(r.home, r.away);
                                tr {
                                    td { (short_date(r.date)) }
                                    td { (r.date.weekday()) }
                                    td { (if home { "H" } else { "A" }) }
                                    td { (self.team(if home { r.away } else { r.home })) }
                                    td { (lg.venues[venue].name) }
                                    td { (lg.start_time(r.home, venue).map(|t| t.format("%H:%M").to_string()).unwrap_or_default()) }
                                }
                            }
                        }
                    } }
                }
            }
        };
        self.page(&format!("{} fixture card", lg.clubs[c].name), body)
    }

    /// The UID of a fixture: stable across re-publishing (see the module's comment).
    fn uid(&self, r: &Match) -> String {
        let lg = self.league;
        let d = lg.teams[r.home].division;
        let (h, a) = (slug(self.team(r.home)), slug(self.team(r.away)));
        let pair = match lg.divisions[d].format {
            Format::Double => format!("{h}-v-{a}"),
            Format::Single | Format::Paired if h <= a => format!("{h}-{a}"),
            Format::Single | Format::Paired => format!("{a}-{h}"),
        };
        format!(
            "{}.{}.{pair}@fixtures",
            slug(&lg.name),
            slug(&lg.divisions[d].name)
        )
    }

    /// How often a fixture's date, home side or venue changed across the published versions.
    fn sequence(&self, uid: &str) -> u32 {
        let seen: Vec<Option<&Seen>> = self.versions.iter().map(|v| v.get(uid)).collect();
        let mut changes = 0;
        let mut last: Option<&Seen> = None;
        for s in seen.into_iter().flatten() {
            if last.is_some_and(|l| l != s) {
                changes += 1;
            }
            last = Some(s);
        }
        changes
    }

    /// A calendar of the fixtures `of` selects (from a team's side when `team` is given), and
    /// those it selected in an earlier version that are gone now, as cancelled events.
    fn calendar(&self, name: &str, of: &dyn Fn(&Match) -> bool, team: Option<TeamId>) -> String {
        use icalendar::{Calendar, Component, EventStatus};
        let lg = self.league;
        let mut cal = Calendar::new();
        cal.name(name);
        cal.append_property(("X-WR-TIMEZONE", lg.timezone.name()));
        let mut current: Vec<String> = Vec::new();
        for r in self.rows.iter().filter(|r| of(r)) {
            let uid = self.uid(r);
            let mut e = self.event(r, team);
            e.uid(&uid).sequence(self.sequence(&uid));
            cal.push(e.done());
            current.push(uid);
        }
        // Fixtures of earlier versions no longer in the list: cancelled, last seen where they were.
        let mut gone: BTreeMap<String, Match> = BTreeMap::new();
        for v in &self.versions[..self.versions.len().saturating_sub(1)] {
            for (uid, &(date, home, _)) in v {
                if current.contains(uid) {
                    continue;
                }
                if let Some(away) = self.away_of(uid, home) {
                    let m = Match {
                        date,
                        division: lg.teams[home].division,
                        home,
                        away,
                    };
                    if of(&m) {
                        gone.insert(uid.clone(), m);
                    }
                }
            }
        }
        for (uid, m) in gone {
            let mut e = self.event(&m, team);
            e.uid(&uid)
                .sequence(self.sequence(&uid) + 1)
                .status(EventStatus::Cancelled);
            cal.push(e.done());
        }
        cal.done().to_string()
    }

    /// The away team of the fixture `uid` with `home` at home (from the UID's team slugs).
    fn away_of(&self, uid: &str, home: TeamId) -> Option<TeamId> {
        let lg = self.league;
        let d = lg.teams[home].division;
        lg.divisions[d].teams.iter().copied().find(|&a| {
            a != home
                && self.uid(&Match {
                    date: lg.start,
                    division: d,
                    home,
                    away: a,
                }) == uid
        })
    }

    /// One fixture as an event: timed when a start time is known, else all day.
    fn event(&self, r: &Match, team: Option<TeamId>) -> icalendar::Event {
        use icalendar::{Component, Event, EventLike};
        let lg = self.league;
        let summary = match team {
            Some(t) => format!(
                "{} v {} ({})",
                self.team(r.home),
                self.team(r.away),
                if r.home == t { "home" } else { "away" }
            ),
            None => format!("{} v {}", self.team(r.home), self.team(r.away)),
        };
        let description = format!(
            "{}, {}: {} at home to {}",
            lg.name,
            lg.divisions[lg.teams[r.home].division].name,
            self.team(r.home),
            self.team(r.away)
        );
        let venue = lg.fixture_venue(r.home, r.away);
        let mut e = Event::new();
        e.summary(&summary)
            .description(&description)
            .location(&lg.venues[venue].name);
        match lg
            .start_time(r.home, venue)
            .and_then(|t| utc(lg.timezone, r.date, t))
        {
            Some(start) => {
                e.starts(start)
                    .ends(start + chrono::Duration::hours(MATCH_HOURS));
            }
            None => {
                // An all-day event: DTEND is the day after (RFC 5545 3.6.1).
                e.starts(r.date).ends(r.date.succ_opt().unwrap_or(r.date));
            }
        }
        e
    }
}

/// How long a calendar event of a timed match lasts.
const MATCH_HOURS: i64 = 3;

/// Local `time` on `date` in `tz`, in UTC (the earlier instant when clocks go back; `None` in
/// the hour clocks skip).
fn utc(
    tz: chrono_tz::Tz,
    date: NaiveDate,
    time: chrono::NaiveTime,
) -> Option<chrono::DateTime<chrono::Utc>> {
    use chrono::TimeZone;
    tz.from_local_datetime(&date.and_time(time))
        .earliest()
        .map(|t| t.with_timezone(&chrono::Utc))
}

/// Which version a published page shows, for its banner.
pub struct Shown {
    /// Its version number.
    pub number: i64,
    /// When it was published (Unix seconds).
    pub published: i64,
    /// The newest version's number.
    pub newest: i64,
    /// When the newest was published (Unix seconds).
    pub replaced: i64,
    /// The stable URL of the newest version.
    pub stable: String,
}

/// The banner at the top of a published page: the version and its date; for an old version,
/// that it was replaced and where the current list is.
pub fn version_banner(s: &Shown) -> String {
    let day = |t: i64| {
        chrono::DateTime::from_timestamp(t, 0)
            .map(|d| short_date(d.date_naive()))
            .unwrap_or_default()
    };
    html! {
        p.version role="status" style="background:#fff4ce;color:#1a1a1a;border:1px solid #8a6d00;padding:.5em .8em;margin:0 0 1em" {
            @if s.number < s.newest {
                strong { "Replaced. " }
                "This is version " (s.number) " of the fixture list, published on " (day(s.published))
                ". Version " (s.newest) " replaced it on " (day(s.replaced)) ": "
                a href=(s.stable) { "see the current list" } "."
            } @else {
                "Version " (s.number) " of the fixture list, published on " (day(s.published)) "."
                @if s.number > 1 {
                    " " a href="changes.csv" { "What changed from version " (s.number - 1) } "."
                }
            }
        }
    }
    .into_string()
}
