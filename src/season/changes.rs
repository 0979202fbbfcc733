//! Sussex rule 2.6: fixture changes by mutual agreement. A match originally in October or
//! November (on or before `early_until`) may be changed by an agreement concluded up to
//! `early_days` (14) after the fixture list was issued; a later match by an agreement concluded
//! at least `notice_days` (28) before its original date; anything else only "under exceptional
//! circumstances". Both clubs notify the secretary within `notify_days` (7) of agreeing.

use crate::model::{Changes, Fixed, FixtureList, League, Rerun};
use crate::pipeline::{self, Checked, Failure};
use chrono::{Days, NaiveDate};

/// What rule 2.6 says of a change, before the new date is checked against the league's rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Window {
    /// Within the rule: which bullet allows it.
    Within(String),
    /// Outside both windows: allowed only under exceptional circumstances, and why.
    Exceptional(String),
    /// Not a change the rule can allow at all, and why.
    Invalid(String),
}

impl Window {
    /// One word: within, exceptional or invalid.
    pub fn key(&self) -> &'static str {
        match self {
            Window::Within(_) => "within",
            Window::Exceptional(_) => "exceptional",
            Window::Invalid(_) => "invalid",
        }
    }

    /// Why, in words.
    pub fn reason(&self) -> &str {
        match self {
            Window::Within(s) | Window::Exceptional(s) | Window::Invalid(s) => s,
        }
    }
}

/// Rule 2.6 for moving a match from `original` to `to` by an agreement concluded on `agreed`.
pub fn classify(ch: &Changes, original: NaiveDate, to: NaiveDate, agreed: NaiveDate) -> Window {
    let d = crate::model::short_date;
    if agreed < ch.issued {
        return Window::Invalid(format!(
            "the agreement ({}) comes before the fixture list was issued ({})",
            d(agreed),
            d(ch.issued)
        ));
    }
    if to < agreed {
        return Window::Invalid(format!(
            "the new date {} is before the agreement ({})",
            d(to),
            d(agreed)
        ));
    }
    if to == original {
        return Window::Invalid(format!("the match is already on {}", d(original)));
    }
    let early = ch.early_until.is_some_and(|u| original <= u);
    if early {
        let by = ch.issued + Days::new(ch.early_days as u64);
        let until = d(ch.early_until.unwrap_or(original));
        if agreed <= by {
            Window::Within(format!(
                "rule 2.6: a match originally on or before {until} changed by an agreement up to {} days after the issue ({})",
                ch.early_days,
                d(by)
            ))
        } else {
            Window::Exceptional(format!(
                "rule 2.6: a match originally on or before {until} may be changed by agreement only up to {} ({} days after the issue); agreed on {}",
                d(by),
                ch.early_days,
                d(agreed)
            ))
        }
    } else {
        let by = original - Days::new(ch.notice_days as u64);
        if agreed <= by {
            Window::Within(format!(
                "rule 2.6: agreed at least {} days before the original date {} (by {})",
                ch.notice_days,
                d(original),
                d(by)
            ))
        } else {
            Window::Exceptional(format!(
                "rule 2.6: a match on {} may be changed by agreement only up to {} ({} days before); agreed on {}",
                d(original),
                d(by),
                ch.notice_days,
                d(agreed)
            ))
        }
    }
}

/// The last day both clubs may notify the secretary of a change agreed on `agreed`.
pub fn notify_by(ch: &Changes, agreed: NaiveDate) -> NaiveDate {
    agreed + Days::new(ch.notify_days as u64)
}

/// A fixture moved: the league with the fixture `[[fixed]]` on its new date, and the new list
/// as the independent checker accepted it.
#[derive(Debug, Clone)]
pub struct Moved {
    /// The league with the fixture fixed on its new date.
    pub league: League,
    /// The new list, checked.
    pub checked: Checked,
}

/// Moves match `index` of `list` to `to`, keeping every other fixture: the league gains a
/// `[[fixed]]` entry for it (replacing one it had), and the list is verified against that
/// league. `Err` with the checker's violations (which rule, which team) when the date breaks
/// a rule of the league.
pub fn move_fixture(
    league: &League,
    list: &FixtureList,
    index: usize,
    to: NaiveDate,
) -> Result<Moved, Vec<String>> {
    let Some(m) = list.matches.get(index).copied() else {
        return Err(vec!["no such fixture in the list".into()]);
    };
    let mut moved = list.matches.clone();
    moved[index].date = to;
    let moved = FixtureList::new(moved, league).with_extra(list.extra.clone());
    let mut fixed = league.clone();
    fixed.fixed.retain(|f| {
        !((f.home, f.away) == (m.home, m.away) || (f.home, f.away) == (m.away, m.home))
    });
    fixed.fixed.push(Fixed {
        home: m.home,
        away: m.away,
        date: to,
    });
    match pipeline::verify(&fixed, moved, &Rerun::default()) {
        Ok(checked) => Ok(Moved {
            league: fixed,
            checked,
        }),
        Err(Failure::Rejected { violations }) => Err(violations),
        Err(f) => Err(f.lines()),
    }
}

/// A proposed change judged: what rule 2.6 says (`None` when the league has no `[changes]`)
/// and the list with the fixture moved, when the new date keeps every rule of the league. A
/// date that breaks a rule makes the change invalid whatever the windows say. The CLI and the
/// service both decide by this.
#[derive(Debug)]
pub struct Judged {
    /// Rule 2.6's verdict, the league's rules included.
    pub window: Option<Window>,
    /// The new list, or the checker's violations on the new date.
    pub moved: Result<Moved, Vec<String>>,
}

/// Judges moving match `index` of `list` to `to` by an agreement concluded on `agreed`.
pub fn judge(
    league: &League,
    list: &FixtureList,
    index: usize,
    to: NaiveDate,
    agreed: NaiveDate,
) -> Judged {
    let original = list.matches.get(index).map(|m| m.date);
    let window = league
        .changes
        .as_ref()
        .zip(original)
        .map(|(ch, from)| classify(ch, from, to, agreed));
    let moved = move_fixture(league, list, index, to);
    let window = match (window, &moved) {
        (Some(w), Err(v)) if !matches!(w, Window::Invalid(_)) => Some(Window::Invalid(format!(
            "on {to} it breaks the league's rules: {}",
            v.join("; ")
        ))),
        (w, _) => w,
    };
    Judged { window, moved }
}

/// The league file's text with the fixture `home v away` `[[fixed]]` on `date` (any earlier
/// `[[fixed]]` entry for the pair removed), comments and layout kept.
pub fn fixed_toml(
    text: &str,
    home: &str,
    away: &str,
    date: NaiveDate,
) -> Result<String, toml_edit::TomlError> {
    dated_toml(text, "fixed", home, away, date)
}

/// The league file's text with a replay of `home v away` on `date` permitted after the
/// season's end (`[[late]]`, Sussex rule 2.1).
pub fn late_toml(
    text: &str,
    home: &str,
    away: &str,
    date: NaiveDate,
) -> Result<String, toml_edit::TomlError> {
    dated_toml(text, "late", home, away, date)
}

/// The league file's text with `[[key]]` entry `home v away` on `date`, replacing the pair's.
fn dated_toml(
    text: &str,
    key: &str,
    home: &str,
    away: &str,
    date: NaiveDate,
) -> Result<String, toml_edit::TomlError> {
    use toml_edit::{value, DocumentMut, Item, Table};
    let mut doc: DocumentMut = text.parse()?;
    let same = |t: &Table| {
        let (h, a) = (
            t.get("home").and_then(|v| v.as_str()).unwrap_or(""),
            t.get("away").and_then(|v| v.as_str()).unwrap_or(""),
        );
        (h, a) == (home, away) || (h, a) == (away, home)
    };
    let mut entry = Table::new();
    entry["home"] = value(home);
    entry["away"] = value(away);
    entry["date"] = Item::Value(crate::import::toml_date(date));
    let list = tables(&mut doc, key);
    list.retain(|t| !same(t));
    list.push(entry);
    Ok(doc.to_string())
}

/// The document's array of tables `key` (`[[key]]`), made when it has none.
fn tables<'a>(doc: &'a mut toml_edit::DocumentMut, key: &str) -> &'a mut toml_edit::ArrayOfTables {
    use toml_edit::{ArrayOfTables, Item};
    if !doc.get(key).is_some_and(Item::is_array_of_tables) {
        doc[key] = Item::ArrayOfTables(ArrayOfTables::new());
    }
    // Just made an array of tables when it was anything else.
    doc[key]
        .as_array_of_tables_mut()
        .expect("an array of tables")
}

/// The league file's text with the fixtures (home, away) `[[excluded]]` and no longer
/// `[[fixed]]`: a withdrawn team's (rule 11.2), so that the league version a list records no
/// longer asks for them.
pub fn excluded_toml(text: &str, pairs: &[(&str, &str)]) -> Result<String, toml_edit::TomlError> {
    use toml_edit::{value, DocumentMut, Table};
    let mut doc: DocumentMut = text.parse()?;
    let named = |t: &Table, key: &str| {
        t.get(key)
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_string()
    };
    if let Some(fixed) = doc
        .get_mut("fixed")
        .and_then(|f| f.as_array_of_tables_mut())
    {
        fixed.retain(|t| !pairs.contains(&(named(t, "home").as_str(), named(t, "away").as_str())));
    }
    let list = tables(&mut doc, "excluded");
    for (home, away) in pairs {
        let mut entry = Table::new();
        entry["home"] = value(*home);
        entry["away"] = value(*away);
        list.push(entry);
    }
    Ok(doc.to_string())
}

/// The league file's text with `date` among the `unavailable_later` dates of `team` (a date it
/// gave after the fixture list went out); `None` when no `[[team]]` has that name.
pub fn later_toml(text: &str, team: &str, date: NaiveDate) -> Option<String> {
    use toml_edit::{Array, DocumentMut, Item, Value};
    let mut doc: DocumentMut = text.parse().ok()?;
    let teams = doc.get_mut("team")?.as_array_of_tables_mut()?;
    let t = teams
        .iter_mut()
        .find(|t| t.get("name").and_then(|v| v.as_str()) == Some(team))?;
    if !t.get("unavailable_later").is_some_and(Item::is_array) {
        t["unavailable_later"] = Item::Value(Value::Array(Array::new()));
    }
    let dates = t["unavailable_later"].as_array_mut()?;
    dates.push(crate::import::toml_date(date));
    Some(doc.to_string())
}

/// The league file's text with cup `cup`'s table (`[cup]` or one of `[[cup]]`, found by its
/// name, "Cup" when it has none) edited by `edit`; `None` when the file has no such cup.
fn cup_toml(text: &str, cup: &str, edit: impl FnOnce(&mut toml_edit::Table)) -> Option<String> {
    use toml_edit::DocumentMut;
    let mut doc: DocumentMut = text.parse().ok()?;
    let named =
        |t: &toml_edit::Table| t.get("name").and_then(|v| v.as_str()).unwrap_or("Cup") == cup;
    let item = doc.get_mut("cup")?;
    let table = if let Some(t) = item.as_table_mut() {
        Some(t).filter(|t| named(t))
    } else {
        item.as_array_of_tables_mut()?.iter_mut().find(|t| named(t))
    }?;
    edit(table);
    Some(doc.to_string())
}

/// The league file's text with cup `cup`'s pairing tree as drawn (`draw`: its positions in
/// order, "" for a bye), so that `check` holds each tie to it.
pub fn cup_draw_toml(text: &str, cup: &str, grid: &[Option<&str>]) -> Option<String> {
    use toml_edit::{value, Array};
    let names: Array = grid.iter().map(|t| t.unwrap_or("")).collect();
    cup_toml(text, cup, |t| t["draw"] = value(names))
}

/// The league file's text with `team` among cup `cup`'s teams knocked out (`out`): its
/// reserved dates no longer bind the team.
pub fn cup_out_toml(text: &str, cup: &str, team: &str) -> Option<String> {
    use toml_edit::{value, Array};
    cup_toml(text, cup, |t| {
        let mut out: Array = t
            .get("out")
            .and_then(|v| v.as_array())
            .cloned()
            .unwrap_or_default();
        if !out.iter().any(|v| v.as_str() == Some(team)) {
            out.push(team);
        }
        t["out"] = value(out);
    })
}
