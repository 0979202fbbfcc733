//! Where a league's season stands, for its page: today, the published versions with the
//! clubs' stable link, what is played, awaited and to come, and the season's log in words.

use super::{ApiError, Shared};
use crate::season::record::Season;
use chrono::NaiveDate;

/// A published version as the page lists it.
pub(crate) struct Published {
    /// Its number.
    pub(crate) number: i64,
    /// Its public id (`/p/{id}/`).
    pub(crate) id: String,
    /// When it was published.
    pub(crate) on: NaiveDate,
}

/// One step of the season's log.
pub(crate) struct Step {
    /// When it was entered.
    pub(crate) on: NaiveDate,
    /// What kind of step, in words.
    pub(crate) kind: &'static str,
    /// What it did.
    pub(crate) what: String,
    /// Why it stands (the rule's verdict).
    pub(crate) why: String,
}

/// Where the season stands.
pub(crate) struct Hub {
    /// The service's today.
    pub(crate) today: NaiveDate,
    /// The clubs' link to the current list; `None` before the first publication.
    pub(crate) stable: Option<String>,
    /// Published versions, oldest first.
    pub(crate) versions: Vec<Published>,
    /// Fixtures played, awaiting a result and to come; `None` without a season record.
    pub(crate) counts: Option<(usize, usize, usize)>,
    /// The season's log, newest first.
    pub(crate) log: Vec<Step>,
    /// Matches before today awaiting a result: (date, competition, "HOME v AWAY").
    pub(crate) awaiting: Vec<(NaiveDate, String, String)>,
    /// League matches from today on, which may be postponed: (date, "HOME v AWAY").
    pub(crate) to_come: Vec<(NaiveDate, String)>,
    /// What the last action on the page was refused for, in words.
    pub(crate) refused: Option<String>,
}

/// The hub of league `id`.
pub(crate) async fn hub(app: &Shared, id: &str) -> Result<Hub, ApiError> {
    let today = app.cfg.today();
    let day =
        |t: i64| chrono::DateTime::from_timestamp(t, 0).map_or(NaiveDate::MIN, |d| d.date_naive());
    let versions: Vec<Published> = app
        .store
        .publications(id)
        .await?
        .into_iter()
        .map(|p| Published {
            number: p.number,
            on: day(p.created),
            id: p.id,
        })
        .collect();
    let stable = versions.first().map(|p| format!("/p/{}/latest/", p.id));
    let (season, _) = super::season::load(app, id).await?;
    let (mut counts_of, mut log, mut awaiting, mut to_come) =
        (None, Vec::new(), Vec::new(), Vec::new());
    if let Some(s) = season {
        counts_of = Some(counts(&s, today)?);
        log = steps(&s);
        awaiting = s.awaiting(today)?;
        let cur = s.current()?;
        let name = |t: usize| cur.league.teams[t].name.as_str();
        to_come = cur
            .list
            .matches
            .iter()
            .filter(|m| m.date >= today)
            .map(|m| (m.date, format!("{} v {}", name(m.home), name(m.away))))
            .collect();
        to_come.sort();
    }
    Ok(Hub {
        today,
        stable,
        versions,
        counts: counts_of,
        log,
        awaiting,
        to_come,
        refused: None,
    })
}

/// Fixtures of the list in force played (with a result), awaiting one, and to come.
fn counts(s: &Season, today: NaiveDate) -> Result<(usize, usize, usize), ApiError> {
    let list = s.list()?;
    let dates = list
        .matches
        .iter()
        .map(|m| m.date)
        .chain(list.extra.iter().map(|e| e.date));
    let (due, all) = dates.fold((0, 0), |(d, a), x| (d + usize::from(x < today), a + 1));
    let awaiting = s.awaiting(today)?.len();
    Ok((due - awaiting, awaiting, all - due))
}

/// The log, newest first.
fn steps(s: &Season) -> Vec<Step> {
    s.log
        .iter()
        .rev()
        .map(|e| Step {
            on: e.entered,
            kind: e.kind.as_str(),
            what: e.what.clone(),
            why: e.verdict.clone(),
        })
        .collect()
}
