//! Dates as people write them: in the league file (ISO 8601), in a fixture list saved again by
//! a spreadsheet (UK day-first), on a form or a spreadsheet cell, and `TEAM=DATE` on a command
//! line. Every reader of a user's date calls one of these.

use crate::{League, TeamId};
use chrono::NaiveDate;

/// A date as the pages and the season's words write it: "4 Dec 2026".
pub fn short_date(d: NaiveDate) -> String {
    d.format("%-d %b %Y").to_string()
}

/// `YYYY-MM-DD`, strictly.
pub fn parse_iso_date(s: &str) -> Option<NaiveDate> {
    let s = s.trim();
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()
}

/// A fixture list's date: ISO 8601 (YYYY-MM-DD, as we write it) or the UK day-first form a
/// spreadsheet writes when it saves the list again (DD/MM/YYYY, D/M/YYYY, DD/MM/YY, or with
/// dashes or dots).
pub fn parse_list_date(text: &str) -> Option<NaiveDate> {
    let t = text.trim();
    if let Ok(d) = NaiveDate::parse_from_str(t, "%Y-%m-%d") {
        return Some(d);
    }
    let parts: Vec<&str> = t.split(['/', '.', '-']).collect();
    let [d, m, y] = parts.as_slice() else {
        return None;
    };
    let num = |s: &str| -> Option<i32> {
        (!s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    let (d, m, y) = (num(d)?, num(m)?, num(y)?);
    let year = match y {
        0..=99 if parts[2].len() == 2 => 2000 + y,
        1000..=9999 => y,
        _ => return None,
    };
    NaiveDate::from_ymd_opt(year, u32::try_from(m).ok()?, u32::try_from(d).ok()?)
}

/// `TEAM=YYYY-MM-DD` (a postponement: the team cannot play on the date), with a team of the
/// league.
pub fn parse_team_date(league: &League, item: &str) -> Option<(TeamId, NaiveDate)> {
    let (t, d) = item.rsplit_once('=')?;
    Some((league.team_by_name(t.trim())?, parse_iso_date(d.trim())?))
}
