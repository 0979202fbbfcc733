//! The service's side of the season record (`crate::season::record::Season`): a league's
//! season read from the store, and after an operation its newest version published together
//! with the record, in one transaction. Every publication of the service goes through here,
//! so the season holds what the clubs see.

use super::{error, ApiError, Shared};
use crate::model::FixtureList;
use crate::season::record::{Entry, Season, SeasonError};
use crate::season::reschedule;
use crate::store::{Job, Publication, SeasonUpdate, VersionOf};
use axum::http::StatusCode;
use chrono::NaiveDate;

/// A league's season as stored and the revision it was read at (`None`, `None` before its
/// first publication through the season).
pub(crate) async fn load(
    app: &Shared,
    league: &str,
) -> Result<(Option<Season>, Option<i64>), ApiError> {
    match app.store.season(league).await? {
        Some((json, rev)) => Ok((Some(Season::from_json(&json)?), Some(rev))),
        None => Ok((None, None)),
    }
}

/// A season's refusal as the API answers it: 400 bad input, 422 what the rules refuse (with
/// the messages), 409 what only the committee can allow.
impl From<SeasonError> for ApiError {
    fn from(e: SeasonError) -> ApiError {
        match e {
            SeasonError::Input(m) => error(StatusCode::BAD_REQUEST, &m),
            SeasonError::Refused(v) => ApiError::Detailed(
                StatusCode::UNPROCESSABLE_ENTITY,
                serde_json::json!({ "error": "refused; nothing was published", "messages": v }),
            ),
            SeasonError::Failure(f) => ApiError::Detailed(
                StatusCode::UNPROCESSABLE_ENTITY,
                serde_json::json!({ "error": "no list keeps every rule", "messages": f.lines() }),
            ),
            e @ SeasonError::Exceptional(_) => error(
                StatusCode::CONFLICT,
                &format!("{e} (send \"exceptional\": true when the committee allows it)"),
            ),
        }
    }
}

/// What made the season's newest version.
pub(crate) struct Made<'a> {
    /// The list it replaces (for the diff); `None` for the first.
    pub before: Option<&'a FixtureList>,
    /// A stored league version (id, text) the newest may record.
    pub version: Option<(&'a str, &'a str)>,
    /// The job that solved it.
    pub job: Option<&'a str>,
    /// Its diff, when the job made one.
    pub diff: Option<String>,
}

/// Publishes the season's newest version with the record (read at `rev`): the league version
/// it records (a stored one with the same text, else a new one), its list and its diff.
/// 409 when another change landed on the season first.
pub(crate) async fn save(
    app: &Shared,
    league: &str,
    season: &Season,
    rev: Option<i64>,
    made: Made<'_>,
) -> Result<Publication, ApiError> {
    let cur = season.current()?;
    let text = season.league_text();
    let mut stored = made
        .version
        .filter(|(_, t)| *t == text)
        .map(|(id, _)| id.to_string());
    if stored.is_none() {
        if let Some(p) = app.store.publications(league).await?.last() {
            let v = app.store.version(&p.version).await?;
            stored = v.filter(|v| v.toml == text).map(|v| v.id);
        }
    }
    let version = match &stored {
        Some(id) => VersionOf::Stored(id),
        None => VersionOf::New(&cur.league.name, text),
    };
    let diff = made.diff.or_else(|| {
        made.before.map(|b| {
            reschedule::diff_csv(&cur.league, &reschedule::diff(&cur.league, b, &cur.list))
        })
    });
    let csv = &season.lists.last().expect("a season has a list").csv;
    let record = season.to_json();
    let update = SeasonUpdate {
        league,
        record: &record,
        rev,
        version,
        job: made.job,
        csv,
        diff: diff.as_deref(),
    };
    app.store.publish_season(update).await?.ok_or_else(|| {
        error(
            StatusCode::CONFLICT,
            "the season changed meanwhile (another change was published): load it again",
        )
    })
}

/// Publishes the list `csv` that `job` solved: the season's first version, or a new list over
/// it (`Season::adopt`). A list not made from the version in force (a fresh solve, a draft, a
/// rerun of an older version) that would change its fixtures needs `confirm`; without it, 409
/// with the changes in words.
pub(crate) async fn publish_job(
    app: &Shared,
    job: &Job,
    csv: &str,
    confirm: bool,
) -> Result<Publication, ApiError> {
    let v = app
        .store
        .version(&job.version)
        .await?
        .ok_or(ApiError::NotFound)?;
    let spec: super::worker::JobSpec = serde_json::from_str(&job.spec).unwrap_or_default();
    let today = app.cfg.today();
    let (season, rev) = load(app, &job.league).await?;
    let Some(mut season) = season else {
        let season = Season::start(&v.toml, "league.toml", csv, today)?;
        let made = Made {
            before: None,
            version: Some((&job.version, &v.toml)),
            job: Some(&job.id),
            diff: None,
        };
        return save(app, &job.league, &season, rev, made).await;
    };
    let before = season.current()?.list;
    let league = crate::model::parse_league(&v.toml, "league.toml")
        .map_err(|e| error(StatusCode::BAD_REQUEST, &e.to_string()))?;
    let mut dates = Vec::new();
    for item in &spec.unavailable {
        let (t, d) = crate::model::parse_team_date(&league, item)
            .ok_or_else(|| error(StatusCode::BAD_REQUEST, &format!("unavailable: \"{item}\"")))?;
        dates.push((league.teams[t].name.clone(), d));
    }
    let entry = season.adopt(today, &v.toml, csv, &spec.withdraw, &dates)?;
    let newest = app.store.publications(&job.league).await?.pop();
    let from_newest =
        spec.rerun_of.is_some() && spec.rerun_of == newest.as_ref().map(|p| p.id.clone());
    if !confirm && !from_newest && !entry.changes.is_empty() {
        let words: Vec<String> = entry.changes.iter().map(|c| c.in_words()).collect();
        return Err(ApiError::Detailed(
            StatusCode::CONFLICT,
            serde_json::json!({
                "error": format!(
                    "This list was not made from the published version {}: publishing it changes {} of its fixtures",
                    newest.map_or(0, |p| p.number),
                    words.len()
                ),
                "changes": words,
            }),
        ));
    }
    let made = Made {
        before: Some(&before),
        version: Some((&job.version, &v.toml)),
        job: Some(&job.id),
        diff: app.store.file(&job.id, "fixtures.diff.csv").await?,
    };
    save(app, &job.league, &season, rev, made).await
}

/// An operation on a league's season through the API (`POST /api/leagues/{id}/season`), named
/// by `action`. A withdrawal reruns the league here, bounded in time; new unavailable dates
/// rerun it as a job (`rerun_of`), published like any other.
#[derive(serde::Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum Action {
    /// A result: "HOME v AWAY", the score ("3-1", "2.5-1.5"), the competition when the pair
    /// has several matches awaiting one, the team that went through a cup tie its score does
    /// not decide, the team that forfeited the match.
    Result {
        fixture: String,
        score: String,
        competition: Option<String>,
        winner: Option<String>,
        /// The team that forfeited (GTCL rule 8.4).
        forfeit: Option<String>,
    },
    /// A postponement to `to`, or to the best date from tomorrow.
    Postpone {
        fixture: String,
        to: Option<NaiveDate>,
    },
    /// A cup drawn with `seed`, its known ties placed.
    Cup { cup: String, seed: u64 },
    /// Play-offs among teams level in their finished table (rule 12).
    PlayOff { teams: Vec<String> },
    /// A 4NCL division's final pools formed and their rounds placed (rule 6.3).
    FinalPools { division: String },
    /// A Swiss division's next round paired and placed (4NCL rule 6.4).
    SwissRound { division: String },
    /// A replay after a serious default (rule 6.2.2); after the season's end only `permitted`.
    Replay {
        fixture: String,
        defaulted_against: String,
        date: Option<NaiveDate>,
        #[serde(default)]
        permitted: bool,
    },
    /// A team withdraws (rule 11.2): its fixtures scratched, played ones too, and the league
    /// rerun from today; with `list`, that rerun's list as previewed.
    Withdraw { team: String, list: Option<String> },
    /// A league match moved to `to`, a date the clubs agreed on `agreed` (today when absent):
    /// rule 2.6 decides, `exceptional` when the committee allows it.
    Move {
        fixture: String,
        to: NaiveDate,
        agreed: Option<NaiveDate>,
        #[serde(default)]
        exceptional: bool,
    },
    /// Results in the LMS fixture file's columns with the score added: division (or cup),
    /// home team, away team, date, score; one line per match, no header.
    Results { csv: String },
    /// A penalty for defaults (Sussex rule 6, 4NCL rule 10): the boards `team` defaulted
    /// (priced by the league's settings), default points, match points, and why.
    Penalty {
        team: String,
        #[serde(default)]
        boards: Vec<u32>,
        default_points: Option<u32>,
        match_points: Option<u32>,
        why: String,
    },
    /// Penalty `number` (from 1, as the log numbers them) lifted, and why.
    LiftPenalty { number: usize, why: String },
}

/// The results of `Action::Results`: (line, competition, "HOME v AWAY", score).
fn results_of(csv: &str) -> Result<Vec<(usize, String, String, String)>, SeasonError> {
    let mut out = Vec::new();
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(csv.as_bytes());
    for (i, row) in reader.records().enumerate() {
        let line = i + 1;
        let row = row.map_err(|e| SeasonError::Input(format!("line {line}: {e}")))?;
        let cells: Vec<&str> = row.iter().collect();
        let [competition, home, away, _date, score] = cells[..] else {
            return Err(SeasonError::Input(format!(
                "line {line}: {} columns; a result has 5: division, home team, away team, date, score",
                cells.len()
            )));
        };
        out.push((
            line,
            competition.into(),
            format!("{home} v {away}"),
            score.into(),
        ));
    }
    if out.is_empty() {
        return Err(SeasonError::Input("no results given".into()));
    }
    Ok(out)
}

/// Enters every result of `csv` on `today`, all or none: the last entry, or the first refusal
/// with its line.
fn enter_results(season: &mut Season, today: NaiveDate, csv: &str) -> Result<Entry, SeasonError> {
    let mut last = None;
    for (line, competition, fixture, score) in results_of(csv)? {
        let at = |m: String| format!("line {line} ({fixture}): {m}");
        let e = season
            .enter_result(today, &fixture, Some(&competition), &score, None)
            .map_err(|e| match e {
                SeasonError::Input(m) => SeasonError::Input(at(m)),
                SeasonError::Refused(v) => SeasonError::Refused(v.into_iter().map(at).collect()),
                e => e,
            })?;
        last = Some(e.clone());
    }
    last.ok_or_else(|| SeasonError::Input("no results given".into()))
}

/// An action applied to a league's season in memory, not yet stored.
pub(crate) struct Applied {
    /// The season after it.
    pub season: Season,
    /// Its log entry.
    pub entry: Entry,
    /// The revision the season was read at.
    rev: i64,
    /// The list in force before it (for the diff).
    before: FixtureList,
    /// Versions published before it: it publishes one when the season has more.
    versions: usize,
    /// The number its publication would take.
    next: i64,
}

impl Applied {
    /// Whether it publishes a new version of the list.
    pub(crate) fn publishes(&self) -> bool {
        self.season.lists.len() > self.versions
    }

    /// The version number its publication would take.
    pub(crate) fn number(&self) -> i64 {
        self.next
    }

    /// The entry in words, for the API.
    fn said(&self) -> serde_json::Value {
        let e = &self.entry;
        serde_json::json!({
            "kind": e.kind.as_str(), "what": e.what, "verdict": e.verdict,
            "changes": e.changes.iter().map(|c| c.in_words()).collect::<Vec<_>>(),
        })
    }
}

/// A withdrawal's rerun: bounded in time, one search, seed 0.
fn rerun_options() -> crate::solve::Options {
    crate::solve::Options {
        time_limit: RERUN_SECONDS,
        threads: 1,
        ..crate::solve::Options::default()
    }
}

/// Seconds a withdrawal's rerun may search: a rerun keeps all but the withdrawn team's
/// fixtures, so it needs far less than a first solve.
const RERUN_SECONDS: f64 = 10.0;

/// One action on the season record, as the service takes it.
fn operate(season: &mut Season, today: NaiveDate, action: Action) -> Result<Entry, SeasonError> {
    match action {
        Action::Result {
            fixture,
            score,
            competition,
            winner,
            forfeit,
        } => {
            let given = crate::season::operate::Given {
                fixture,
                competition,
                score,
                winner,
                forfeit,
            };
            season.enter(today, &given).cloned()
        }
        Action::Postpone { fixture, to } => season.postpone(today, &fixture, to).cloned(),
        Action::Cup { cup, seed } => season.draw_cup(today, &cup, seed).cloned(),
        Action::PlayOff { teams } => season.play_off(today, &teams).cloned(),
        Action::FinalPools { division } => season.final_pools(today, &division).cloned(),
        Action::SwissRound { division } => season.swiss_round(today, &division).cloned(),
        Action::Replay {
            fixture,
            defaulted_against,
            date,
            permitted,
        } => season
            .replay(today, &fixture, &defaulted_against, date, permitted)
            .cloned(),
        Action::Results { csv } => enter_results(season, today, &csv),
        Action::Penalty {
            team,
            boards,
            default_points,
            match_points,
            why,
        } => {
            let given = crate::season::penalties::Given {
                team,
                boards,
                default_points: default_points.unwrap_or(0),
                match_points: match_points.unwrap_or(0),
                why,
            };
            season.penalise(today, &given).cloned()
        }
        Action::LiftPenalty { number, why } => season.lift_penalty(today, number, &why).cloned(),
        Action::Move {
            fixture,
            to,
            agreed,
            exceptional,
        } => season
            .change(today, &fixture, to, agreed.unwrap_or(today), exceptional)
            .cloned(),
        Action::Withdraw { team, list: None } => season
            .reschedule(today, std::slice::from_ref(&team), &[], &rerun_options())
            .cloned(),
        Action::Withdraw {
            team,
            list: Some(csv),
        } => {
            let text = season.league_text().to_string();
            season
                .adopt(today, &text, &csv, std::slice::from_ref(&team), &[])
                .cloned()
        }
    }
}

/// Applies `action` to the season of `league` on the service's today, in memory: nothing is
/// stored until `commit`.
pub(crate) async fn apply(app: &Shared, league: &str, action: Action) -> Result<Applied, ApiError> {
    let (season, rev) = load(app, league).await?;
    let (Some(mut season), Some(rev)) = (season, rev) else {
        return Err(error(
            StatusCode::CONFLICT,
            "nothing is published yet: publish a list first, and the season starts",
        ));
    };
    let today = app.cfg.today();
    let before = season.current()?.list;
    let versions = season.lists.len();
    let next = app
        .store
        .publications(league)
        .await?
        .last()
        .map_or(1, |p| p.number + 1);
    let entry = tokio::task::spawn_blocking(move || {
        let e = operate(&mut season, today, action);
        e.map(|e| (season, e))
    })
    .await
    .map_err(|_| error(StatusCode::INTERNAL_SERVER_ERROR, "the operation failed"))?;
    let (season, entry) = entry?;
    Ok(Applied {
        season,
        entry,
        rev,
        before,
        versions,
        next,
    })
}

/// Stores an applied action: the record, and the new version when it made one. Answers the
/// log entry (in words) and the publication, if any.
pub(crate) async fn commit(
    app: &Shared,
    league: &str,
    a: Applied,
) -> Result<serde_json::Value, ApiError> {
    let said = a.said();
    if !a.publishes() {
        if !app
            .store
            .update_season(league, &a.season.to_json(), a.rev)
            .await?
        {
            return Err(error(
                StatusCode::CONFLICT,
                "the season changed meanwhile (another change was published): load it again",
            ));
        }
        return Ok(serde_json::json!({ "entry": said, "publication": null }));
    }
    let made = Made {
        before: Some(&a.before),
        version: None,
        job: None,
        diff: None,
    };
    let p = save(app, league, &a.season, Some(a.rev), made).await?;
    Ok(serde_json::json!({
        "entry": said,
        "publication": { "id": p.id, "number": p.number, "url": format!("/p/{}/", p.id) },
    }))
}

/// Applies `action` and stores it (`apply`, then `commit`).
pub(crate) async fn act(
    app: &Shared,
    league: &str,
    action: Action,
) -> Result<serde_json::Value, ApiError> {
    let a = apply(app, league, action).await?;
    commit(app, league, a).await
}

/// Where the season of `league` stands, for the API: today, the matches awaiting a result, the
/// log in words and the penalties (numbered from 1 in order, lifted ones marked); `None` before
/// the first publication.
pub(crate) async fn status(app: &Shared, league: &str) -> Result<serde_json::Value, ApiError> {
    let (season, _) = load(app, league).await?;
    let today = app.cfg.today();
    let Some(season) = season else {
        return Ok(serde_json::json!({ "today": today, "published": false }));
    };
    let awaiting: Vec<serde_json::Value> = season
        .awaiting(today)?
        .into_iter()
        .map(|(date, competition, fixture)| {
            serde_json::json!({ "date": date, "competition": competition, "fixture": fixture })
        })
        .collect();
    let log: Vec<serde_json::Value> = season
        .log
        .iter()
        .map(|e| serde_json::json!({ "entered": e.entered, "kind": e.kind.as_str(), "what": e.what, "verdict": e.verdict }))
        .collect();
    Ok(serde_json::json!({
        "today": today, "published": true, "versions": season.lists.len(),
        "awaiting": awaiting, "log": log, "penalties": season.penalties,
    }))
}

/// A date a league match could move to, as the pages offer it.
pub(crate) struct Offer {
    /// The date.
    pub date: NaiveDate,
    /// How the list's score changes (negative: better).
    pub change: f64,
    /// What the date costs or gains the teams, in words.
    pub costs: Vec<String>,
    /// What rule 2.6 says of it: its key (within, exceptional, invalid) and why.
    pub window: Option<(&'static str, String)>,
}

/// Every date from tomorrow that match `index` of `list` could move to without breaking a
/// rule, best first, each with what rule 2.6 says of an agreement made on `agreed`.
pub(crate) fn offers(
    league: &crate::model::League,
    list: &FixtureList,
    index: usize,
    today: NaiveDate,
    agreed: NaiveDate,
) -> Vec<Offer> {
    let m = list.matches[index];
    let from = today.succ_opt().unwrap_or(league.start);
    crate::season::suggest::suggest(league, list, index, from)
        .into_iter()
        .map(|s| Offer {
            window: league.changes.as_ref().map(|ch| {
                let w = crate::season::changes::classify(ch, m.date, s.date, agreed);
                (w.key(), w.reason().to_string())
            }),
            date: s.date,
            change: s.change,
            costs: s.costs,
        })
        .collect()
}
