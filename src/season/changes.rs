//! Sussex rule 2.6: fixture changes by mutual agreement. A match originally in October or
//! November (on or before `early_until`) may be changed by an agreement concluded up to
//! `early_days` (14) after the fixture list was issued; a later match by an agreement concluded
//! at least `notice_days` (28) before its original date; anything else only "under exceptional
//! circumstances". Both clubs notify the secretary within `notify_days` (7) of agreeing.

use crate::model::Changes;
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
    if agreed < ch.issued {
        return Window::Invalid(format!(
            "the agreement ({agreed}) comes before the fixture list was issued ({})",
            ch.issued
        ));
    }
    if to < agreed {
        return Window::Invalid(format!(
            "the new date {to} is before the agreement ({agreed})"
        ));
    }
    if to == original {
        return Window::Invalid(format!("the match is already on {original}"));
    }
    let early = ch.early_until.is_some_and(|u| original <= u);
    if early {
        let by = ch.issued + Days::new(ch.early_days as u64);
        if agreed <= by {
            Window::Within(format!(
                "rule 2.6: a match originally on or before {} changed by an agreement up to {} days after the issue ({by})",
                ch.early_until.unwrap_or(original),
                ch.early_days
            ))
        } else {
            Window::Exceptional(format!(
                "rule 2.6: a match originally on or before {} may be changed by agreement only up to {by} ({} days after the issue); agreed on {agreed}",
                ch.early_until.unwrap_or(original),
                ch.early_days
            ))
        }
    } else {
        let by = original - Days::new(ch.notice_days as u64);
        if agreed <= by {
            Window::Within(format!(
                "rule 2.6: agreed at least {} days before the original date {original} (by {by})",
                ch.notice_days
            ))
        } else {
            Window::Exceptional(format!(
                "rule 2.6: a match on {original} may be changed by agreement only up to {by} ({} days before); agreed on {agreed}",
                ch.notice_days
            ))
        }
    }
}

/// The last day both clubs may notify the secretary of a change agreed on `agreed`.
pub fn notify_by(ch: &Changes, agreed: NaiveDate) -> NaiveDate {
    agreed + Days::new(ch.notify_days as u64)
}
