//! The league editor's pages in maud: the secretary's leagues, a league's parts, a part's form
//! with its fields (labels, help and errors linked by `aria-describedby`) and its calendars.
//! The handlers are in `editor.rs`; the forms' schema is the league file's (`crate::edit`).

use super::hub::Hub;
use super::page::small_page_wide;
use crate::edit::{self, FormErrors, Kind, Place, Section, Values};
use crate::store::{League, User, Version};
use chrono::{Datelike, NaiveDate};
use maud::{html, Markup};
use std::collections::BTreeSet;

/// A whole editor page.
pub(crate) fn page(title: &str, body: Markup) -> String {
    small_page_wide(&format!("fixtures — {title}"), &body.into_string())
}

fn nav() -> Markup {
    html! {
        nav.row { a href="/" { "Solve and publish" } " " a href="/leagues" { "Your leagues" } }
    }
}

/// The page a form read from an older version gets.
pub(crate) fn changed_meanwhile(id: &str, number: i64) -> String {
    let body = html! {
        h1 { "The league changed meanwhile" }
        p {
            "Someone saved version " (number) " of this league after you opened the form, so your changes were not saved. "
            a href={ "/leagues/" (id) } { "Open the league again" } " and repeat them."
        }
    };
    page("changed meanwhile", body)
}

/// The caller's leagues, a form to start one and one to upload a league file.
pub(crate) fn list_page(
    leagues: &[League],
    user: &User,
    csrf: &str,
    errors: &FormErrors,
    values: &Values,
    upload_errors: &[String],
) -> String {
    let section = edit::section("season").expect("the season's section");
    let season = &section.fields[..3];
    let body = html! {
        (nav())
        h1 { "Your leagues" }
        @if leagues.is_empty() {
            p.muted { "None yet: start one below." }
        } @else {
            ul { @for l in leagues {
                li {
                    a href={ "/leagues/" (l.id) } { (l.name) }
                    @if l.owner != user.id { " " span.muted { "(committee)" } }
                    " " span.muted { "version " (l.versions) }
                }
            } }
        }
        h2 { "Start a league" }
        form method="post" action="/leagues" {
            (general_errors(&errors.general))
            input type="hidden" name="csrf" value=(csrf);
            @for f in season { (field(section, f, values, errors, &[], None)) }
            button type="submit" { "Create the league" }
        }
        h2 { "Upload a league file" }
        form.upload method="post" action="/leagues/upload" {
            (general_errors(upload_errors))
            input type="hidden" name="csrf" value=(csrf);
            (upload_fields())
            button type="submit" { "Upload" }
        }
        // Fills the upload's text box from the chosen file (the form posts text).
        script src="/assets/upload.js" {}
    };
    page("your leagues", body)
}

fn upload_fields() -> Markup {
    html! {
        label for="tomlFile" { "League file (TOML)" }
        input type="file" id="tomlFile" accept=".toml,text/plain";
        label for="toml" { "or paste it" }
        textarea id="toml" name="toml" rows="6" spellcheck="false" {}
    }
}

fn general_errors(errors: &[String]) -> Markup {
    html! {
        @if !errors.is_empty() {
            div.error role="alert" { p { "Not saved:" } ul { @for m in errors { li { (m) } } } }
        }
    }
}

/// A league's parts, each with its form; download and upload.
pub(crate) fn overview_page(
    id: &str,
    v: &Version,
    csrf: &str,
    upload_errors: &[String],
    hub: &Hub,
) -> String {
    let name = edit::accept(&v.toml).unwrap_or_else(|_| "league".into());
    let pending = edit::pending(&v.toml);
    let others: Vec<String> = edit::other_parts(&v.toml)
        .iter()
        .map(|(k, n)| {
            if *n > 1 {
                format!("{k} ({n})")
            } else {
                k.clone()
            }
        })
        .collect();
    let body = html! {
        (nav())
        h1 { (name) }
        p.muted {
            "Version " (v.number) ". "
            a href={ "/leagues/" (id) "/league.toml" } download="league.toml" { "Download the league file (TOML)" }
            " · " a href={ "/?league=" (id) } { "Solve it" }
        }
        @if !pending.is_empty() {
            div.todo { p { "Before it can be solved:" } ul { @for (p, form) in &pending {
                li { (p) " · " a href={ "/leagues/" (id) "/" (form) } { "Add a team" } }
            } } }
        }
        nav.parts aria-label="On this page" {
            a href="#season" { "The season" }
            a href="#part-settings" { "Settings" }
            @for s in edit::SECTIONS.iter().filter(|s| matches!(s.place, Place::Array(_))) {
                a href={ "#part-" (s.name) } { (s.title) }
            }
        }
        (super::hub_page::season(id, hub, Some(csrf), v.number))
        section #part-settings {
            h2 { "Settings" }
            ul.items { @for s in edit::SECTIONS.iter().filter(|s| !matches!(s.place, Place::Array(_))) {
                li { a href={ "/leagues/" (id) "/" (s.name) } { (s.title) } }
            } }
        }
        @for s in edit::SECTIONS.iter().filter(|s| matches!(s.place, Place::Array(_))) { (section(id, v, s)) }
        @if !others.is_empty() {
            section {
                h2 { "Also in the league file" }
                p.muted { (others.join(", ")) ": kept as written when you save a form; change them in the league file." }
            }
        }
        section {
            h2 { "Import the team entries" }
            p.help { "The entries spreadsheet (Excel, OpenDocument or CSV, with sheets Teams, Clubs and Venues): its teams, clubs and venues are saved as the league's next version. " a href="/api/template.xlsx" { "An empty entries spreadsheet" } }
            form.entries method="post" action={ "/leagues/" (id) "/entries" } {
                input type="hidden" name="csrf" value=(csrf);
                input type="hidden" name="version" value=(v.number);
                input type="hidden" name="name";
                input type="hidden" name="data";
                label for="entriesFile" { "Entries spreadsheet" }
                input type="file" id="entriesFile" accept=".xlsx,.ods,.csv" required;
                button type="submit" { "Import the entries" }
            }
        }
        section {
            h2 { "Replace with a league file" }
            form.upload method="post" action={ "/leagues/" (id) "/upload" } {
                (general_errors(upload_errors))
                input type="hidden" name="csrf" value=(csrf);
                input type="hidden" name="version" value=(v.number);
                (upload_fields())
                button type="submit" { "Upload as the next version" }
            }
        }
        script src="/assets/upload.js" {}
    };
    page(&name, body)
}

/// A league's page for a member of its committee: the season, read-only.
pub(crate) fn committee_page(id: &str, v: &Version, hub: &Hub) -> String {
    let name = edit::accept(&v.toml).unwrap_or_else(|_| "league".into());
    let body = html! {
        (nav())
        h1 { (name) }
        p.muted { "You are on this league's committee: you can read its season and drafts; its secretary makes the changes." }
        (super::hub_page::season(id, hub, None, v.number))
    };
    page(&name, body)
}

/// The page for what does not exist, and for what is not the caller's, alike.
pub(crate) fn not_found_page() -> String {
    let body = html! {
        (nav())
        h1 { "Not found" }
        p { "There is no such page, or it is not yours to see. " a href="/leagues" { "Your leagues" } }
    };
    page("not found", body)
}

/// Items a part lists openly on the league's page; a longer list is folded behind its count,
/// so the page stays a few screens long (a county league has 60 teams and 30 clubs).
const UNFOLDED: usize = 12;

/// A list part of the league on its overview: its items with their links and a link to add one.
fn section(id: &str, v: &Version, s: &Section) -> Markup {
    let items = edit::items(&v.toml, s);
    let list = html! {
        @if s.name == "team" {
            // Teams by division, each linked by its place in the file.
            @let teams = edit::teams_with_division(&v.toml);
            @for (division, members) in by_division(teams.iter().enumerate().map(|(i, (_, d))| (i, d.as_str()))) {
                h3 { @if division.is_empty() { "No division" } @else { (division) } }
                (item_links(id, s, &items, members.into_iter()))
            }
        } @else {
            (item_links(id, s, &items, 0..items.len()))
        }
    };
    html! {
        section id={ "part-" (s.name) } {
            h2 { (s.title) }
            @if items.is_empty() {
                p.muted { "None yet." }
            } @else if items.len() > UNFOLDED {
                details { summary { "Show all " (items.len()) } (list) }
            } @else {
                (list)
            }
            p { a.add href={ "/leagues/" (id) "/" (s.name) "/new" } { "Add a " (s.item) } }
        }
    }
}

/// Links to the items at `indices` of a part of the league.
fn item_links(
    id: &str,
    s: &Section,
    items: &[String],
    indices: impl Iterator<Item = usize>,
) -> Markup {
    html! {
        ul.items { @for (i, n) in indices.filter_map(|i| Some((i, items.get(i)?))) {
            li { a href={ "/leagues/" (id) "/" (s.name) "/" (i) } {
                (if n.is_empty() { "(no name)" } else { n })
            } }
        } }
    }
}

/// The calendar's context: the season, the limit, the club's own unavailable dates.
pub(crate) struct Calendar {
    pub(crate) start: NaiveDate,
    pub(crate) end: NaiveDate,
    pub(crate) max: Option<i64>,
    pub(crate) club_dates: BTreeSet<NaiveDate>,
}

/// What a part's form shows.
pub(crate) struct Form<'a> {
    pub(crate) id: &'a str,
    pub(crate) v: &'a Version,
    pub(crate) csrf: &'a str,
    pub(crate) s: &'a Section,
    /// The item of an array part (`new` for a new one).
    pub(crate) item: Option<&'a str>,
    pub(crate) values: &'a Values,
    pub(crate) errors: &'a FormErrors,
    pub(crate) cal: Option<Calendar>,
    /// The choices of each field, by its key.
    pub(crate) options: &'a dyn Fn(edit::Choices) -> Vec<(String, String)>,
}

/// A part's form: its fields, Save, and Delete for an item.
pub(crate) fn form_page(f: &Form<'_>) -> String {
    let (id, s) = (f.id, f.s);
    let title = match (s.place, f.item) {
        (Place::Array(_), Some("new")) => format!("A new {}", s.item),
        (Place::Array(_), _) => f.values.get("name").and_then(|n| n.first()).map_or_else(
            || capitalised(s.item),
            |n| format!("{}: {n}", capitalised(s.item)),
        ),
        _ => s.title.to_string(),
    };
    let action = match f.item {
        Some(i) => format!("/leagues/{id}/{}/{i}", s.name),
        None => format!("/leagues/{id}/{}", s.name),
    };
    let deletable = match s.place {
        Place::Array(_) => f.item.filter(|i| *i != "new"),
        _ => None,
    };
    let body = html! {
        (nav())
        p { a href={ "/leagues/" (id) } { "← back to the league" } }
        h1 { (title) }
        (general_errors(&f.errors.general))
        form method="post" action=(action) novalidate {
            input type="hidden" name="csrf" value=(f.csrf);
            input type="hidden" name="version" value=(f.v.number);
            @for field_of in s.fields {
                (field(s, field_of, f.values, f.errors, &(f.options)(field_of.choices), f.cal.as_ref()))
            }
            button type="submit" { "Save" }
        }
        @if let Some(i) = deletable {
            form method="post" action={ "/leagues/" (id) "/" (s.name) "/" (i) "/delete" } {
                input type="hidden" name="csrf" value=(f.csrf);
                input type="hidden" name="version" value=(f.v.number);
                button.danger type="submit" { "Delete this " (s.item) }
            }
        }
        // Keeps each calendar's count up to date as days are ticked (the server counts again).
        script src="/assets/calendar.js" {}
        // Shows a limit's fields for its kind only (without scripts, every field shows).
        script src="/assets/kinds.js" {}
        // A button per division to tick all its teams at once.
        script src="/assets/teams.js" {}
    };
    page(&title, body)
}

/// One field: its label, input, help and errors (linked by `aria-describedby`).
fn field(
    s: &Section,
    f: &edit::Field,
    values: &Values,
    errors: &FormErrors,
    opts: &[(String, String)],
    cal: Option<&Calendar>,
) -> Markup {
    let key = f.key;
    let vals: Vec<String> = values.get(key).cloned().unwrap_or_default();
    let errs = errors.fields.get(key).cloned().unwrap_or_default();
    let described = format!("{key}-help {key}-error");
    let kinds = edit::read_by(s, key).map(|k| k.join(" "));
    html! {
        div class={ "field" @if !errs.is_empty() { " has-error" } } data-kinds=[kinds] {
            @match f.kind {
                Kind::Nights => fieldset aria-describedby=(described) {
                    legend { (f.label) }
                    @for d in ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] {
                        label.inline {
                            input type="checkbox" name=(key) value=(d) checked[vals.iter().any(|v| v == d)];
                            " " (d)
                        }
                    }
                },
                Kind::TeamList => fieldset.teams aria-describedby=(described) {
                    legend { (f.label) }
                    @for (division, names) in by_division(named(opts)) {
                        fieldset.division {
                            legend { @if division.is_empty() { "No division" } @else { (division) } }
                            @for v in names {
                                label.inline {
                                    input type="checkbox" name=(key) value=(v) checked[vals.iter().any(|x| x == v)];
                                    " " (v)
                                }
                            }
                        }
                    }
                    // A name the league no longer has stays ticked, to be corrected.
                    @for v in vals.iter().filter(|v| !opts.iter().any(|(o, _)| o == *v)) {
                        label.inline {
                            input type="checkbox" name=(key) value=(v) checked;
                            " " (v)
                        }
                    }
                },
                                Kind::Calendar => fieldset.calendar aria-describedby=(described) data-key=(key) {
                    legend { (f.label) }
                    // On a phone the months run long: the count and any error come first.
                    (notes(f, &errs))
                    (calendar(key, &vals, cal, key == "unavailable"))
                },
                _ => {
                    label for={ "f-" (key) } { (f.label) }
                    (control(f, &vals, !errs.is_empty(), opts))
                },
            }
            @if f.kind != Kind::Calendar { (notes(f, &errs)) }
        }
    }
}

/// A field's input: a choice, a text box of dates, or a line.
fn control(f: &edit::Field, vals: &[String], invalid: bool, opts: &[(String, String)]) -> Markup {
    let key = f.key;
    let id = format!("f-{key}");
    let described = format!("{key}-help {key}-error");
    let invalid = invalid.then_some("true");
    let first = vals
        .iter()
        .find(|v| !v.trim().is_empty())
        .cloned()
        .unwrap_or_default();
    match f.kind {
        Kind::Choice | Kind::Flag => {
            let flag = [
                ("yes".to_string(), "yes".to_string()),
                ("no".to_string(), "no".to_string()),
            ];
            let (none, list) = if f.kind == Kind::Flag {
                ("(the league's default)", &flag[..])
            } else {
                ("(none)", opts)
            };
            // A value the list lacks (an unknown name) stays, to be corrected.
            let lacking = !first.is_empty() && !list.iter().any(|(v, _)| *v == first);
            let teams = f.choices == edit::Choices::Teams;
            html! {
                select id=(id) name=(key) aria-invalid=[invalid] aria-describedby=(described) required[f.required] {
                    option value="" { (none) }
                    @if teams {
                        @for (division, names) in by_division(named(list)) {
                            optgroup label=(division) {
                                @for v in names { option value=(v) selected[*v == first] { (v) } }
                            }
                        }
                    } @else {
                        @for (v, label) in list { option value=(v) selected[*v == first] { (label) } }
                    }
                    @if lacking { option value=(first) selected { (first) } }
                }
            }
        }
        Kind::PerDate | Kind::Dates | Kind::Fixtures | Kind::Zones => {
            let rows = if f.kind == Kind::Dates { 2 } else { 3 };
            html! {
                textarea id=(id) name=(key) rows=(rows) aria-invalid=[invalid] aria-describedby=(described) {
                    (vals.join("; "))
                }
            }
        }
        _ => {
            let (ty, inputmode, placeholder) = match f.kind {
                Kind::Date => ("date", None, None),
                Kind::Whole => ("text", Some("numeric"), None),
                Kind::Number => ("text", Some("decimal"), None),
                Kind::Time => ("text", None, Some("19:30")),
                _ => ("text", None, None),
            };
            html! {
                input id=(id) name=(key) type=(ty) value=(first) inputmode=[inputmode]
                    placeholder=[placeholder] aria-invalid=[invalid] aria-describedby=(described)
                    required[f.required];
            }
        }
    }
}

/// Items (each with its division's name) grouped by division, the divisions in the order
/// they first come.
fn by_division<'a, T>(items: impl Iterator<Item = (T, &'a str)>) -> Vec<(&'a str, Vec<T>)> {
    let mut out: Vec<(&str, Vec<T>)> = Vec::new();
    for (item, division) in items {
        match out.iter_mut().find(|(d, _)| *d == division) {
            Some((_, members)) => members.push(item),
            None => out.push((division, vec![item])),
        }
    }
    out
}

/// Teams as (name, division) options, borrowed.
fn named(teams: &[(String, String)]) -> impl Iterator<Item = (&str, &str)> {
    teams.iter().map(|(n, d)| (n.as_str(), d.as_str()))
}

/// A field's help line and its errors (ids for `aria-describedby`).
fn notes(f: &edit::Field, errs: &[String]) -> Markup {
    let key = f.key;
    html! {
        div class="help" id={ (key) "-help" } { (f.help) }
        div class="field-error" id={ (key) "-error" } role="alert" { @for e in errs { p { (e) } } }
    }
}

/// A month-by-month calendar of the season: a checkbox per day (its label the day, its full
/// date for screen readers). For unavailable dates it counts the ticked days with the club's
/// own (shown ticked and fixed) against the league's limit. Dates outside the season are kept.
fn calendar(key: &str, vals: &[String], cal: Option<&Calendar>, counts: bool) -> Markup {
    let chosen: BTreeSet<NaiveDate> = vals
        .iter()
        .filter_map(|v| crate::model::parse_list_date(v.trim()))
        .collect();
    let Some(cal) = cal else {
        return html! { input name=(key) value=(vals.join("; ")) aria-label="dates"; };
    };
    let club = cal.club_dates.len();
    let ticked = chosen.union(&cal.club_dates).count();
    let mut months = Vec::new();
    let mut month = cal.start.with_day(1).unwrap_or(cal.start);
    while month <= cal.end {
        months.push(month);
        match month.checked_add_months(chrono::Months::new(1)) {
            Some(m) => month = m,
            None => break,
        }
    }
    html! {
        @if counts {
            p.count data-max=(cal.max.unwrap_or(-1)) data-club=(club) {
                span.n { (ticked) } " dates"
                @if let Some(m) = cal.max { " of at most " (m) }
                @if club > 0 { " (with its club's " (club) ")" }
            }
        }
        @for d in chosen.iter().filter(|d| **d < cal.start || **d > cal.end) {
            input type="hidden" name=(key) value=(d);
        }
        div.months { @for m in months { (month_table(key, m, cal, &chosen, counts)) } }
    }
}

/// One month of a calendar: a row per week, Monday first.
fn month_table(
    key: &str,
    month: NaiveDate,
    cal: &Calendar,
    chosen: &BTreeSet<NaiveDate>,
    counts: bool,
) -> Markup {
    let lead = month.weekday().num_days_from_monday() as usize;
    let mut weeks: Vec<Vec<Option<NaiveDate>>> = vec![vec![None; lead]];
    let mut d = month;
    while d.month() == month.month() {
        if weeks.last().is_some_and(|w| w.len() == 7) {
            weeks.push(Vec::new());
        }
        let in_season = d >= cal.start && d <= cal.end;
        if let Some(w) = weeks.last_mut() {
            w.push(in_season.then_some(d));
        }
        match d.succ_opt() {
            Some(n) => d = n,
            None => break,
        }
    }
    html! {
        table.month {
            caption { (month.format("%B %Y")) }
            tr { @for h in ["M", "T", "W", "T", "F", "S", "S"] { th scope="col" { (h) } } }
            @for week in &weeks { tr { @for day in week { td { @if let Some(d) = day {
                @let club = counts && cal.club_dates.contains(d);
                label {
                    input type="checkbox" name=(key) value=(d) checked[club || chosen.contains(d)]
                        disabled[club] data-club=[club.then_some("1")]
                        aria-label={ (d.format("%A %-d %B %Y")) @if club { " (the club's)" } };
                    span { (d.day()) }
                }
            } } } } }
        }
    }
}

pub(crate) fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}
