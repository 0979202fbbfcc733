//! The season record: one file that holds a season from its first published list to its last
//! result. It keeps every version of the league file, every published fixture list (league
//! matches, cup ties, play-offs and replays together), the results, the cups' draws and an
//! append-only log of what changed, when, why and under which rule. Every operation reads the
//! whole season and writes a new version that the independent checker has accepted against
//! the league version it records; nothing dated before `today` moves.

use super::reschedule;
use crate::check;
use crate::model::{parse_league, FixtureList, League, Rerun, TeamId};
use crate::pipeline::{self, Failure};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// The record's format version, written in every file.
pub const FORMAT: u32 = 1;

/// A season file larger than this is refused unread: a 150-team league's season of a hundred
/// versions takes a few tens of MiB.
pub const MAX_BYTES: u64 = 256 << 20;

/// A season: its league versions, published lists, results, cup draws and log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Season {
    /// `FORMAT` when written.
    pub format: u32,
    /// The league's name (from its first version).
    pub name: String,
    /// The league file's versions (TOML text); version k is `leagues[k - 1]`.
    pub leagues: Vec<String>,
    /// The published fixture lists; version k is `lists[k - 1]`.
    pub lists: Vec<Version>,
    /// Results entered, in the order entered.
    pub results: Vec<Score>,
    /// The cups drawn.
    pub draws: Vec<CupDraw>,
    /// Penalties for defaults, in the order entered (a lifted one stays, marked).
    #[serde(default)]
    pub penalties: Vec<super::penalties::Penalty>,
    /// What happened, oldest first; entries are only ever appended.
    pub log: Vec<Entry>,
}

/// One published fixture list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Version {
    /// The league version it was checked against.
    pub league: usize,
    /// The list (CSV, as `fixtures check` reads it).
    pub csv: String,
    /// Fixtures (home, away) scratched by withdrawals so far: they still count towards their
    /// opponents' home and away balance.
    pub scratched: Vec<(String, String)>,
    /// The day it was published.
    pub published: NaiveDate,
}

/// A result, as far as scheduling needs it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Score {
    /// The match's date.
    pub date: NaiveDate,
    /// Its division or cup.
    pub competition: String,
    /// The home team.
    pub home: String,
    /// The visiting team.
    pub away: String,
    /// Game points of the home team.
    pub home_points: f64,
    /// Game points of the visitors.
    pub away_points: f64,
    /// Who went through, for a cup tie level on game points (board count, board elimination).
    pub winner: Option<String>,
    /// The team that forfeited the match (GTCL rule 8.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeited: Option<String>,
    /// The day it was entered.
    pub entered: NaiveDate,
}

/// A cup's draw: the seed gives its tree again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CupDraw {
    /// The cup's name.
    pub cup: String,
    /// The draw's seed.
    pub seed: u64,
    /// The day it was drawn.
    pub drawn: NaiveDate,
}

/// What kind of event an entry of the log records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The first published list.
    Started,
    /// A result entered.
    Result,
    /// A match postponed to a new date.
    Postponement,
    /// A change the clubs agreed within rule 2.6's windows.
    Agreed,
    /// A change the committee allowed under exceptional circumstances (rule 2.6).
    Exceptional,
    /// A team withdrew (rule 11.2): its fixtures scratched.
    Withdrawal,
    /// A team gave a date it cannot play: the league rerun around it.
    Unavailable,
    /// A match replayed after a serious default (rule 6.2.2).
    Replay,
    /// Play-offs between teams level in the table (rule 12).
    PlayOff,
    /// A cup drawn, its known ties placed.
    CupDraw,
    /// A cup's next ties placed after a result.
    CupRound,
    /// A whole new list published over the season's (a fresh solve or a draft chosen).
    NewList,
    /// A 4NCL division's final pools formed and their rounds placed (rule 6.3).
    FinalPools,
    /// A Swiss division's next round paired and placed (4NCL rule 6.4).
    SwissRound,
    /// A penalty for defaults (Sussex rule 6, 4NCL rule 10).
    Penalty,
    /// A penalty lifted.
    PenaltyLifted,
}

impl Kind {
    /// The words the log prints.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Started => "started",
            Kind::Result => "result",
            Kind::Postponement => "postponement",
            Kind::Agreed => "agreed change (2.6)",
            Kind::Exceptional => "exceptional change (2.6)",
            Kind::Withdrawal => "withdrawal (11.2)",
            Kind::Unavailable => "new unavailable date",
            Kind::Replay => "replay (6.2.2)",
            Kind::PlayOff => "play-off (12)",
            Kind::CupDraw => "cup draw",
            Kind::CupRound => "cup round",
            Kind::NewList => "new list",
            Kind::FinalPools => "final pools (6.3)",
            Kind::SwissRound => "Swiss round (6.4)",
            Kind::Penalty => "penalty",
            Kind::PenaltyLifted => "penalty lifted",
        }
    }
}

/// One entry of the log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// What kind of event.
    pub kind: Kind,
    /// What happened, in a sentence.
    pub what: String,
    /// When the clubs agreed it (a change).
    pub agreed: Option<NaiveDate>,
    /// The day it was entered (`today`).
    pub entered: NaiveDate,
    /// The rules' verdict.
    pub verdict: String,
    /// The list version it published.
    pub list: Option<usize>,
    /// The league version it made.
    pub league: Option<usize>,
    /// Every fixture that moved, was scratched or is new, with why.
    pub changes: Vec<Changed>,
}

impl Entry {
    /// An entry that publishes nothing: what happened on `entered`, and the rules' verdict.
    pub fn noted(kind: Kind, what: String, entered: NaiveDate, verdict: String) -> Entry {
        Entry {
            kind,
            what,
            agreed: None,
            entered,
            verdict,
            list: None,
            league: None,
            changes: Vec::new(),
        }
    }
}

/// One line of an entry's diff.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Changed {
    /// moved, scratched or new.
    pub status: String,
    /// The division, or the cup and round.
    pub competition: String,
    /// "Home v Away" (after the change when it changed sides).
    pub fixture: String,
    /// The date before.
    pub old: Option<NaiveDate>,
    /// The date after.
    pub new: Option<NaiveDate>,
    /// Why.
    pub reason: String,
}

impl Changed {
    /// The change in a secretary's words: "Horsham 1 v Lewes 1 (Division 1) moves from 3 Mar
    /// 2027 to 1 Feb 2027".
    pub fn in_words(&self) -> String {
        let day = |d: Option<NaiveDate>| d.map_or(String::new(), crate::model::short_date);
        let what = format!("{} ({})", self.fixture, self.competition);
        match self.status.as_str() {
            "moved" => format!("{what} moves from {} to {}", day(self.old), day(self.new)),
            "scratched" => format!("{what} on {} is dropped", day(self.old)),
            "new" => format!("{what} is added on {}", day(self.new)),
            other => format!("{what}: {other}"),
        }
    }
}

/// Why an operation on the season was refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum SeasonError {
    /// Bad input: a name, a date, a score.
    #[error("{0}")]
    Input(String),
    /// The rules refuse it (the checker's violations, rule 2.6, today).
    #[error("refused: {}", .0.join("; "))]
    Refused(Vec<String>),
    /// The solver found no list.
    #[error("{}", .0.lines().join("\n"))]
    Failure(Failure),
    /// Rule 2.6 allows it only under exceptional circumstances, which the committee decides.
    #[error("{0}: only the committee can allow it (exceptional)")]
    Exceptional(String),
}

impl From<Failure> for SeasonError {
    fn from(f: Failure) -> SeasonError {
        match f {
            Failure::Rejected { violations } => SeasonError::Refused(violations),
            f => SeasonError::Failure(f),
        }
    }
}

/// A league version and its published list, read.
#[derive(Debug, Clone)]
pub struct Current {
    /// The league version the list records.
    pub league: League,
    /// The list.
    pub list: FixtureList,
    /// Its scratched fixtures.
    pub scratched: Vec<(TeamId, TeamId)>,
}

impl Season {
    /// A season from a league file and its first fixture list, which must pass the checker.
    pub fn start(
        league_text: &str,
        file: &str,
        list_csv: &str,
        today: NaiveDate,
    ) -> Result<Season, SeasonError> {
        let league =
            parse_league(league_text, file).map_err(|e| SeasonError::Input(e.to_string()))?;
        let parsed = check::parse_fixtures(&league, list_csv.as_bytes(), "the fixture list")
            .map_err(|e| SeasonError::Input(e.to_string()))?;
        let list = parsed.to_neutral(&league);
        let checked = pipeline::verify(&league, list, &Rerun::default())?;
        let what = format!(
            "{} published: {} league matches, {} others",
            league.name,
            checked.list().matches.len(),
            checked.list().extra.len()
        );
        Ok(Season {
            format: FORMAT,
            name: league.name.clone(),
            leagues: vec![league_text.to_string()],
            lists: vec![Version {
                league: 1,
                csv: checked.csv().to_string(),
                scratched: Vec::new(),
                published: today,
            }],
            results: Vec::new(),
            draws: Vec::new(),
            penalties: Vec::new(),
            log: vec![Entry {
                kind: Kind::Started,
                what,
                agreed: None,
                entered: today,
                verdict: "checked: every rule of the league file holds".into(),
                list: Some(1),
                league: Some(1),
                changes: Vec::new(),
            }],
        })
    }

    /// The season from its JSON text.
    pub fn from_json(text: &str) -> Result<Season, SeasonError> {
        let season: Season = serde_json::from_str(text)
            .map_err(|e| SeasonError::Input(format!("not a season file: {e}")))?;
        if season.format != FORMAT || season.leagues.is_empty() || season.lists.is_empty() {
            return Err(SeasonError::Input(format!(
                "not a season file of format {FORMAT} with a league and a published list"
            )));
        }
        Ok(season)
    }

    /// The season as JSON text.
    pub fn to_json(&self) -> String {
        // Strings, numbers and dates only: serialising cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The latest league file.
    pub fn league_text(&self) -> &str {
        self.leagues.last().map_or("", String::as_str)
    }

    /// The latest published list with the league version it records.
    pub fn current(&self) -> Result<Current, SeasonError> {
        let v = self
            .lists
            .last()
            .ok_or_else(|| SeasonError::Input("the season has no published list".into()))?;
        self.version(v)
    }

    fn version(&self, v: &Version) -> Result<Current, SeasonError> {
        let text = self
            .leagues
            .get(v.league.wrapping_sub(1))
            .ok_or_else(|| SeasonError::Input(format!("no league version {}", v.league)))?;
        let league = parse_league(text, &format!("league version {}", v.league))
            .map_err(|e| SeasonError::Input(e.to_string()))?;
        let parsed = check::parse_fixtures(&league, v.csv.as_bytes(), "the published list")
            .map_err(|e| SeasonError::Input(e.to_string()))?;
        let list = parsed.to_neutral(&league);
        let scratched = v
            .scratched
            .iter()
            .map(|(h, a)| Ok((team(&league, h)?, team(&league, a)?)))
            .collect::<Result<_, SeasonError>>()?;
        Ok(Current {
            league,
            list,
            scratched,
        })
    }

    /// Checks every published version against the league version it records: the violations
    /// of each, by version number (empty when all pass).
    pub fn verify_all(&self) -> Vec<(usize, Vec<String>)> {
        let mut out = Vec::new();
        for (i, v) in self.lists.iter().enumerate() {
            let problems = match self.version(v) {
                Err(e) => vec![e.to_string()],
                Ok(c) => {
                    let rerun = Rerun {
                        scratched: c.scratched.clone(),
                        ..Rerun::default()
                    };
                    match pipeline::verify(&c.league, c.list, &rerun) {
                        Ok(_) => Vec::new(),
                        Err(f) => f.lines(),
                    }
                }
            };
            if !problems.is_empty() {
                out.push((i + 1, problems));
            }
        }
        out
    }
}

/// The team of `league` called `name`.
pub fn team(league: &League, name: &str) -> Result<TeamId, SeasonError> {
    league
        .team_by_name(name.trim())
        .ok_or_else(|| SeasonError::Input(format!("the league has no team \"{}\"", name.trim())))
}

/// What a new version brings: made by `kind` on `today`, with the league text it records
/// (`None`: the current one) and the fixtures scratched so far.
pub(super) struct Proposal {
    pub kind: Kind,
    pub what: String,
    pub agreed: Option<NaiveDate>,
    pub verdict: String,
    pub league_text: Option<String>,
    pub list: FixtureList,
    pub scratched: Vec<(TeamId, TeamId)>,
}

impl Season {
    /// Publishes the list in force with `new` league matches added (rounds a competition
    /// pairs as the season goes), under `kind`, saying `what` and why it stands.
    pub(super) fn publish_added(
        &mut self,
        today: NaiveDate,
        cur: Current,
        new: Vec<crate::model::Match>,
        kind: Kind,
        what: String,
        verdict: &str,
    ) -> Result<&Entry, SeasonError> {
        let mut matches = cur.list.matches;
        matches.extend(new);
        crate::model::sort_matches(&mut matches, &cur.league);
        let list = FixtureList {
            matches,
            extra: cur.list.extra,
        };
        self.publish(
            today,
            Proposal {
                kind,
                what,
                agreed: None,
                verdict: verdict.to_string(),
                league_text: None,
                list,
                scratched: cur.scratched,
            },
        )
    }

    /// Publishes a new version when the checker accepts it against its league version and
    /// nothing dated before `today` moved (a withdrawal scratches earlier results, rule 11.2);
    /// appends its entry to the log.
    pub(super) fn publish(&mut self, today: NaiveDate, p: Proposal) -> Result<&Entry, SeasonError> {
        let before = self.current()?;
        let text = p.league_text.as_deref().unwrap_or(self.league_text());
        let number = self.leagues.len() + usize::from(p.league_text.is_some());
        let league = parse_league(text, &format!("league version {number}"))
            .map_err(|e| SeasonError::Input(e.to_string()))?;
        let rerun = Rerun {
            scratched: p.scratched.clone(),
            ..Rerun::default()
        };
        let checked = pipeline::verify(&league, p.list, &rerun)?;
        let diff = reschedule::diff(&league, &before.list, checked.list());
        let changes = before_today(&league, &diff, today, p.kind)?;
        let made_league = p.league_text.is_some();
        if let Some(t) = p.league_text {
            self.leagues.push(t);
        }
        let name = |t: TeamId| league.teams[t].name.clone();
        self.lists.push(Version {
            league: self.leagues.len(),
            csv: checked.csv().to_string(),
            scratched: p
                .scratched
                .iter()
                .map(|&(h, a)| (name(h), name(a)))
                .collect(),
            published: today,
        });
        self.log.push(Entry {
            kind: p.kind,
            what: p.what,
            agreed: p.agreed,
            entered: today,
            verdict: p.verdict,
            list: Some(self.lists.len()),
            league: made_league.then_some(self.leagues.len()),
            changes,
        });
        Ok(self.log.last().expect("just pushed"))
    }
}

/// The diff's changed lines, or the refusal when one moves a fixture dated before `today` or
/// puts one there.
fn before_today(
    league: &League,
    diff: &[reschedule::Change],
    today: NaiveDate,
    kind: Kind,
) -> Result<Vec<Changed>, SeasonError> {
    let name = |t: TeamId| league.teams[t].name.as_str();
    let mut refused = Vec::new();
    let mut out = Vec::new();
    for c in diff
        .iter()
        .filter(|c| c.status != reschedule::Status::Unchanged)
    {
        let (h, a, _) = c.new.or(c.old).unwrap_or((0, 0, today));
        let fixture = format!("{} v {}", name(h), name(a));
        let old = c.old.map(|x| x.2);
        let new = c.new.map(|x| x.2);
        let withdrawn = kind == Kind::Withdrawal && c.status == reschedule::Status::Scratched;
        if old.is_some_and(|d| d < today) && !withdrawn {
            refused.push(format!(
                "{fixture} of {} is before today ({today}): it is played or awaits its result and does not move",
                old.unwrap_or(today)
            ));
        }
        if new.is_some_and(|d| d < today) {
            refused.push(format!(
                "{fixture} would be dated {}, before today ({today})",
                new.unwrap_or(today)
            ));
        }
        out.push(Changed {
            status: c.status.as_str().to_string(),
            competition: c.competition(league),
            fixture,
            old,
            new,
            reason: c.reason.clone(),
        });
    }
    if refused.is_empty() {
        Ok(out)
    } else {
        Err(SeasonError::Refused(refused))
    }
}
