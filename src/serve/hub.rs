//! Where a league's season stands, for its page: today, the published versions with the
//! clubs' stable link, what is played, awaited and to come, and the season's log in words.

use super::{ApiError, Shared};
use crate::model::Format;
use crate::season::operate::Standing;
use crate::season::record::{Current, Season};
use chrono::NaiveDate;

/// A published version as the page lists it.
pub(crate) struct Published {
    /// Its number.
    pub(crate) number: i64,
    /// Its public id (`/p/{id}/`).
    pub(crate) id: String,
    /// When it was published.
    pub(crate) on: NaiveDate,
    /// What made it, from the season's log.
    pub(crate) what: Option<String>,
    /// Its list (CSV).
    csv: String,
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
    /// Who publishes its versions: the league's secretary (only they can).
    pub(crate) secretary: Option<String>,
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
    /// What the last action on the page did, in words.
    pub(crate) notice: Vec<String>,
    /// Each division's table from the results entered.
    pub(crate) tables: Vec<Table>,
    /// Teams still in the league, in file order.
    pub(crate) teams: Vec<String>,
    /// Cups not drawn yet.
    pub(crate) undrawn: Vec<String>,
    /// Teams level on match points in a finished table, with no play-off yet: (division,
    /// teams, points).
    pub(crate) level: Vec<(String, Vec<String>, i32)>,
    /// 4NCL divisions whose preliminary results are all in, their final pools not formed.
    pub(crate) pools_due: Vec<String>,
    /// Swiss divisions whose next round can be paired: (division, round).
    pub(crate) swiss_due: Vec<(String, usize)>,
    /// League matches played (before today), which a serious default may send to a replay:
    /// (date, "HOME v AWAY").
    pub(crate) played: Vec<(NaiveDate, String)>,
    /// Solves of the league that kept drafts or a list, newest first.
    pub(crate) solves: Vec<Solve>,
    /// What defaults cost, as the league's settings say.
    pub(crate) penalties: crate::model::Penalties,
    /// Teams still in the league that have forfeited as many matches as exclude a team (GTCL
    /// rule 8.4): (team, forfeits).
    pub(crate) excluded: Vec<(String, usize)>,
}

/// A division's table.
pub(crate) struct Table {
    /// The division.
    pub(crate) division: String,
    /// Its rows, first place first.
    pub(crate) rows: Vec<Row>,
    /// How teams level on points are placed, in a sentence.
    pub(crate) placed_by: String,
    /// The penalties in force on its teams: (number, in words).
    pub(crate) penalties: Vec<(usize, String)>,
}

/// A row of a table.
pub(crate) struct Row {
    /// The team.
    pub(crate) team: String,
    /// Matches with a result.
    pub(crate) played: u32,
    /// Won.
    pub(crate) won: u32,
    /// Drawn.
    pub(crate) drawn: u32,
    /// Lost.
    pub(crate) lost: u32,
    /// Match points, less those deducted.
    pub(crate) points: i32,
    /// Match points deducted for penalties.
    pub(crate) deducted: u32,
    /// Game points.
    pub(crate) game_points: f64,
}

/// A solve of the league, with its drafts.
pub(crate) struct Solve {
    /// The job's id.
    pub(crate) job: String,
    /// When it was submitted.
    pub(crate) on: NaiveDate,
    /// Drafts kept (0: one list only).
    pub(crate) drafts: usize,
    /// Breaks of its (first) list: two home or two away matches in a row.
    pub(crate) breaks: Option<usize>,
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
            what: None,
            csv: p.csv,
        })
        .collect();
    let stable = versions.first().map(|p| format!("/p/{}/latest/", p.id));
    let (season, _) = super::season::load(app, id).await?;
    let secretary = match app.store.league(id).await? {
        Some(l) => app.store.user_name(&l.owner).await?,
        None => None,
    };
    let mut hub = Hub {
        today,
        secretary,
        stable,
        versions,
        counts: None,
        log: Vec::new(),
        awaiting: Vec::new(),
        to_come: Vec::new(),
        refused: None,
        notice: Vec::new(),
        tables: Vec::new(),
        teams: Vec::new(),
        undrawn: Vec::new(),
        level: Vec::new(),
        pools_due: Vec::new(),
        swiss_due: Vec::new(),
        played: Vec::new(),
        solves: solves(app, id).await?,
        penalties: crate::model::Penalties::default(),
        excluded: Vec::new(),
    };
    if let Some(s) = season {
        of_season(&mut hub, &s)?;
    }
    Ok(hub)
}

/// The league's solves that ended with a list, newest first.
async fn solves(app: &Shared, id: &str) -> Result<Vec<Solve>, ApiError> {
    let day =
        |t: i64| chrono::DateTime::from_timestamp(t, 0).map_or(NaiveDate::MIN, |d| d.date_naive());
    let mut out: Vec<Solve> = app
        .store
        .jobs_of_league(id)
        .await?
        .into_iter()
        .filter(|j| j.figures.fixtures.is_some())
        .map(|j| Solve {
            on: day(j.submitted),
            drafts: j.figures.drafts.unwrap_or(0),
            breaks: j.figures.breaks,
            job: j.id,
        })
        .collect();
    out.reverse();
    Ok(out)
}

/// What the season record tells the hub: counts, log, the matches each action may take, the
/// tables and what may still be asked for (cups to draw, play-offs).
fn of_season(hub: &mut Hub, s: &Season) -> Result<(), ApiError> {
    let today = hub.today;
    hub.counts = Some(counts(s, today)?);
    hub.log = steps(s);
    // A publication is the season's list with its text (one action, such as an import of
    // results, may make several lists and publish the last), dated as the season dated it.
    for p in &mut hub.versions {
        let n = s.lists.iter().rposition(|l| l.csv == p.csv).map(|k| k + 1);
        if let Some(l) = n.and_then(|k| s.lists.get(k - 1)) {
            p.on = l.published;
        }
        p.what = s
            .log
            .iter()
            .rev()
            .find(|e| e.list.is_some() && e.list == n)
            .map(|e| e.what.clone());
    }
    hub.awaiting = s.awaiting(today)?;
    let cur = s.current()?;
    let lg = &cur.league;
    let name = |t: usize| lg.teams[t].name.as_str();
    let pair = |m: &crate::model::Match| (m.date, format!("{} v {}", name(m.home), name(m.away)));
    hub.to_come = cur
        .list
        .matches
        .iter()
        .filter(|m| m.date >= today)
        .map(pair)
        .collect();
    hub.to_come.sort();
    hub.played = cur
        .list
        .matches
        .iter()
        .filter(|m| m.date < today)
        .map(pair)
        .collect();
    hub.played.sort();
    hub.teams = (0..lg.teams.len())
        .filter(|&t| !lg.withdrawn(t))
        .map(|t| name(t).to_string())
        .collect();
    hub.penalties = lg.penalties.clone();
    if let Some(most) = lg.penalties.forfeits_exclude {
        hub.excluded = (0..lg.teams.len())
            .filter(|&t| !lg.withdrawn(t))
            .map(|t| {
                let division = &lg.divisions[lg.teams[t].division].name;
                (name(t).to_string(), s.forfeits(lg, t, division))
            })
            .filter(|(_, n)| *n >= most as usize)
            .collect();
    }
    hub.undrawn = lg
        .cups
        .iter()
        .filter(|c| !s.draws.iter().any(|d| d.cup == c.name))
        .map(|c| c.name.clone())
        .collect();
    divisions(hub, s, &cur);
    Ok(())
}

/// Each division's tables, with what its state offers: final pools to form (4NCL 6.3), a
/// Swiss round to pair (6.4) or, once it is finished, play-offs among teams level (rule 12).
fn divisions(hub: &mut Hub, s: &Season, cur: &Current) {
    let today = hub.today;
    let lg = &cur.league;
    let name = |t: usize| lg.teams[t].name.as_str();
    for d in 0..lg.divisions.len() {
        let tables = s.tables(cur, d);
        let division = lg.divisions[d].name.clone();
        let open = hub.awaiting.iter().any(|(_, c, _)| *c == division)
            || cur
                .list
                .matches
                .iter()
                .any(|m| m.division == d && m.date >= today);
        if s.final_pools_due(cur, d) {
            hub.pools_due.push(division.clone());
        } else if let Some(round) = s.swiss_round_due(cur, d) {
            hub.swiss_due.push((division.clone(), round));
        } else if !open && lg.divisions[d].format != Format::Paired {
            // A round robin's one table.
            if let Some((_, rows)) = tables.first().filter(|t| !t.1.is_empty()) {
                level(hub, s, cur, rows, d);
            }
        }
        let penalties: Vec<(usize, String)> = s
            .penalties_in(lg, d)
            .into_iter()
            .map(|(k, p)| (k, p.in_words()))
            .collect();
        for (division, rows) in tables {
            hub.tables.push(Table {
                division,
                rows: rows
                    .iter()
                    .map(|r| Row {
                        team: name(r.team).to_string(),
                        played: r.played,
                        won: r.won,
                        drawn: r.drawn,
                        lost: r.lost,
                        points: r.match_points,
                        deducted: r.deducted,
                        game_points: r.game_points,
                    })
                    .collect(),
                placed_by: lg.placed_by(d),
                penalties: penalties.clone(),
            });
        }
    }
}

/// The groups of teams in division `d`'s finished table (`rows`) that no tie-break separates,
/// with no play-off among them yet.
fn level(hub: &mut Hub, s: &Season, cur: &Current, rows: &[Standing], d: usize) {
    use crate::model::ExtraKind;
    let lg = &cur.league;
    let arranged = |a: usize, b: usize| {
        cur.list.extra.iter().any(|e| {
            matches!(e.kind, ExtraKind::PlayOff(x) if x == d)
                && ((e.home, e.away) == (a, b) || (e.home, e.away) == (b, a))
        })
    };
    let points = |t: usize| {
        rows.iter()
            .find(|r| r.team == t)
            .map_or(0, |r| r.match_points)
    };
    for group in s.tied(cur, d) {
        if arranged(group[0], group[1]) {
            continue;
        }
        let names = group.iter().map(|&t| lg.teams[t].name.clone()).collect();
        hub.level
            .push((lg.divisions[d].name.clone(), names, points(group[0])));
    }
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
