//! The one path from a league to a fixture list anybody sees: solve, verify with the
//! independent checker, and only then hand out the list. The CLI, `batch` and `serve` all call
//! these functions; no other code writes a fixture list.
//!
//! A [`Checked`] list can only be made here, by [`verify`] or [`verify_text`], and only when the
//! checker accepts it; [`save`] takes nothing else. So every list written anywhere, every draft
//! and every rerun included, has passed the checker. A cancelled solve returns
//! [`Failure::Cancelled`] and no list at all.

use crate::check;
use crate::files::write_atomically;
use crate::model::{FixtureList, Format, League, Match, Rerun, TeamId};
use crate::season::reschedule::{self, Change, Status};
use crate::solve::{self, Options, Outcome, Relaxation, Solved};
use chrono::NaiveDate;
use std::fmt;
use std::path::Path;

/// A fixture list the independent checker has accepted, with its CSV text and figures.
#[derive(Debug, Clone)]
pub struct Checked {
    list: FixtureList,
    csv: String,
    report: check::Report,
}

impl Checked {
    /// The list as CSV text (what `save` writes).
    pub fn csv(&self) -> &str {
        &self.csv
    }

    /// The checker's report: no violations, and the quality figures.
    pub fn report(&self) -> &check::Report {
        &self.report
    }

    /// The list itself.
    pub fn list(&self) -> &FixtureList {
        &self.list
    }
}

/// Why no checked list came out.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// No valid schedule exists: the reasons, and the relaxations that would allow one.
    Infeasible {
        /// The reasons, in plain words.
        reasons: Vec<String>,
        /// The fewest relaxations found by the elastic model.
        relaxations: Vec<Relaxation>,
        /// Whether they were proven the fewest.
        proven: bool,
    },
    /// The time limit passed with no valid schedule.
    TimedOut {
        /// The time limit, in seconds.
        seconds: f64,
    },
    /// No further draft puts enough of its fixtures on other dates than the earlier ones.
    NotDifferentEnough {
        /// Drafts found before this one.
        earlier: usize,
    },
    /// The solve was cancelled: nothing to offer.
    Cancelled,
    /// The independent checker refused the list (a bug in the solver; please report it).
    Rejected {
        /// The checker's violations.
        violations: Vec<String>,
    },
    /// The solver failed, or reported a figure it cannot have proven.
    Solver(String),
}

impl Failure {
    /// The exit status the CLI gives for it (the spec's: 2 infeasible, 3 timed out; 4 ours,
    /// an internal error).
    pub fn exit_code(&self) -> u8 {
        match self {
            Failure::Infeasible { .. } | Failure::NotDifferentEnough { .. } => 2,
            Failure::TimedOut { .. } | Failure::Cancelled => 3,
            Failure::Rejected { .. } | Failure::Solver(_) => 4,
        }
    }

    /// One word for summaries and the service: infeasible, timed-out, not-different-enough,
    /// cancelled, rejected or failed.
    pub fn key(&self) -> &'static str {
        match self {
            Failure::Infeasible { .. } => "infeasible",
            Failure::TimedOut { .. } => "timed-out",
            Failure::NotDifferentEnough { .. } => "not-different-enough",
            Failure::Cancelled => "cancelled",
            Failure::Rejected { .. } => "rejected",
            Failure::Solver(_) => "failed",
        }
    }

    /// The failure as lines of text, first the summary, then the details.
    pub fn lines(&self) -> Vec<String> {
        match self {
            Failure::Infeasible { reasons, .. } => {
                let mut out = vec!["no valid schedule exists:".to_string()];
                out.extend(reasons.iter().map(|r| format!("  - {r}")));
                out
            }
            Failure::TimedOut { seconds } => vec![format!(
                "no valid schedule found within {seconds} seconds (try a longer --time-limit)"
            )],
            Failure::NotDifferentEnough { earlier } => vec![format!(
                "no draft puts enough of its fixtures on other dates than the {earlier} before it"
            )],
            Failure::Cancelled => vec!["cancelled: no fixture list".into()],
            Failure::Rejected { violations } => {
                let mut out = vec![
                    "internal error: the solver's schedule fails the independent check (please report it):"
                        .to_string(),
                ];
                out.extend(violations.iter().map(|v| format!("  {v}")));
                out
            }
            Failure::Solver(e) => vec![e.clone()],
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.lines().join("\n"))
    }
}

impl From<solve::SolveError> for Failure {
    fn from(e: solve::SolveError) -> Self {
        Failure::Solver(e.to_string())
    }
}

/// A solve's figures and its checked list.
#[derive(Debug, Clone)]
pub struct Solution {
    /// The solver's figures (outcome, objective, bound, seconds).
    pub solved: Solved,
    /// The list, accepted by the checker.
    pub checked: Checked,
}

/// Runs the independent checker on `list` (with a rerun's promises); the checked list when it
/// is valid.
pub fn verify(league: &League, list: FixtureList, rerun: &Rerun) -> Result<Checked, Failure> {
    let csv = list.to_csv(league);
    let checked = verify_text(league, csv, rerun, "solver output")?;
    Ok(Checked { list, ..checked })
}

/// Runs the independent checker on fixture-list CSV text made elsewhere (4NCL pools and
/// split, Swiss pairings); the checked list when it is valid. The text is kept as it is.
pub fn verify_text(
    league: &League,
    csv: String,
    rerun: &Rerun,
    name: &str,
) -> Result<Checked, Failure> {
    let parsed =
        check::parse_fixtures(league, csv.as_bytes(), name).map_err(|e| Failure::Rejected {
            violations: vec![e.to_string()],
        })?;
    let report = check::check_rerun(league, &parsed, rerun);
    if !report.is_valid() {
        return Err(Failure::Rejected {
            violations: report.violations.iter().map(|v| v.to_string()).collect(),
        });
    }
    Ok(Checked {
        list: parsed.to_neutral(league),
        csv,
        report,
    })
}

/// Verifies the list of one division's rounds (4NCL pools and split, a Swiss round) as
/// `verify_text` does, as if the league had no other division: the other divisions' fixtures
/// are not this list's to hold.
pub fn verify_division_text(
    league: &League,
    division: usize,
    csv: String,
    name: &str,
) -> Result<Checked, Failure> {
    let mut only = league.clone();
    for (d, div) in only.divisions.iter_mut().enumerate() {
        if d != division {
            div.teams.clear();
        }
    }
    only.fixed
        .retain(|f| league.teams[f.home].division == division);
    verify_text(&only, csv, &Rerun::default(), name)
}

/// Writes a checked list to `path` (through a temporary file and a rename).
pub fn save(path: &Path, checked: &Checked) -> std::io::Result<()> {
    write_atomically(path, &checked.csv)
}

/// The solver's answer as a checked solution, or why there is none.
fn conclude(
    league: &League,
    solved: Solved,
    opts: &Options,
    rerun: &Rerun,
    carried: &[Match],
) -> Result<Solution, Failure> {
    if opts.cancelled() {
        return Err(Failure::Cancelled);
    }
    let Some(schedule) = solved.schedule.clone() else {
        return Err(match &solved.outcome {
            Outcome::Infeasible(reasons) => Failure::Infeasible {
                reasons: reasons.clone(),
                relaxations: solved.relaxations.clone(),
                proven: solved.relaxations_proven,
            },
            _ => Failure::TimedOut {
                seconds: opts.time_limit,
            },
        });
    };
    // A rerun's cup ties, play-offs and replays go back beside the league matches it moved.
    let list = with_paired_rounds(league, schedule, rerun, carried)?
        .with_extra(rerun.extra.iter().copied());
    let checked = verify(league, list, rerun)?;
    Ok(Solution { solved, checked })
}

/// A first draw with the divisions paired round by round beside the solver's matches: a 4NCL
/// pools division's preliminary rounds (rule 6.3), a Swiss division's first round (6.4). Their
/// pairings are the competition's, not the solver's; the season pairs their later rounds. A
/// rerun keeps the rounds it was given (`carried`).
fn with_paired_rounds(
    league: &League,
    schedule: FixtureList,
    rerun: &Rerun,
    carried: &[Match],
) -> Result<FixtureList, Failure> {
    use crate::competitions::ncl;
    use crate::season::swiss;
    let first_draw = rerun.from.is_none() && rerun.history.is_empty();
    let mut matches = schedule.matches;
    matches.extend_from_slice(carried);
    let cannot = |why: String| Failure::Infeasible {
        reasons: vec![why],
        relaxations: Vec::new(),
        proven: true,
    };
    for (d, div) in league.divisions.iter().enumerate() {
        if !first_draw || div.teams.len() < 2 {
            continue;
        }
        if div.pools {
            if let Some(why) = ncl::unfit(league, d) {
                return Err(cannot(why));
            }
            let rounds = ncl::as_matches(league, d, &ncl::preliminary(league, d));
            matches.extend(rounds.unwrap_or_default());
        } else if swiss::is_swiss(league, d) {
            let (round, _) = swiss::paired_round(league, d, 1, &[], &[], &[]).map_err(cannot)?;
            matches.extend(round);
        }
    }
    crate::model::sort_matches(&mut matches, league);
    Ok(FixtureList {
        matches,
        ..schedule
    })
}

/// Solves a league and verifies the result.
pub fn solve(league: &League, opts: &Options) -> Result<Solution, Failure> {
    let solved = solve::solve(league, opts)?;
    conclude(league, solved, opts, &opts.steer.rerun, &[])
}

/// Drafts for a committee: the checked ones, and why the search stopped short of `k`.
#[derive(Debug, Clone)]
pub struct Drafts {
    /// The drafts found, each checked.
    pub drafts: Vec<Solution>,
    /// Why fewer than asked were found (`None` when all were).
    pub stopped: Option<Failure>,
}

impl Drafts {
    /// For every pair of drafts (i, j), the share of fixtures on different dates.
    pub fn differences(&self, league: &League) -> Vec<(usize, usize, f64)> {
        let dates: Vec<Vec<NaiveDate>> = self
            .drafts
            .iter()
            .map(|d| solve::fixture_dates(league, d.checked.list()))
            .collect();
        let mut out = Vec::new();
        for i in 0..dates.len() {
            for j in i + 1..dates.len() {
                out.push((i, j, solve::date_difference(&dates[i], &dates[j])));
            }
        }
        out
    }
}

/// `k` drafts, each kept apart from the earlier ones (see `solve::alternatives`), each
/// verified. Cancelled: `Failure::Cancelled` and no drafts at all.
pub fn drafts(league: &League, opts: &Options, k: usize) -> Result<Drafts, Failure> {
    let all = solve::alternatives(league, opts, k)?;
    if opts.cancelled() {
        return Err(Failure::Cancelled);
    }
    let mut out = Drafts {
        drafts: Vec::new(),
        stopped: None,
    };
    for solved in all {
        let earlier = out.drafts.len();
        match conclude(league, solved, opts, &opts.steer.rerun, &[]) {
            Ok(s) => out.drafts.push(s),
            Err(e) => {
                // After the first draft, an infeasible model means the difference rows cannot
                // be met.
                out.stopped = Some(match e {
                    Failure::Infeasible { .. } if earlier > 0 => {
                        Failure::NotDifferentEnough { earlier }
                    }
                    other => other,
                });
                break;
            }
        }
    }
    if out.stopped.is_none() && out.drafts.len() < k.max(1) {
        out.stopped = Some(Failure::Cancelled);
    }
    match (out.drafts.is_empty(), out.stopped.take()) {
        (true, Some(why)) => Err(why),
        (_, stopped) => Ok(Drafts { stopped, ..out }),
    }
}

/// A rerun's result: the new list, checked, and what changed.
#[derive(Debug, Clone)]
pub struct Rescheduled {
    /// The new list and the solver's figures.
    pub solution: Solution,
    /// Every fixture of the current and the new list, matched.
    pub changes: Vec<Change>,
    /// The diff as CSV (status, division, before, after, reason).
    pub diff_csv: String,
    /// Per club, what changed, in words.
    pub summary: String,
    /// Fixtures of the current list before `from`, kept as they were.
    pub played: usize,
}

impl Rescheduled {
    /// Fixtures with this status.
    pub fn count(&self, status: Status) -> usize {
        self.changes.iter().filter(|c| c.status == status).count()
    }
}

/// Re-runs the draw mid-season: fixtures of `current` before `from` stay, `withdraw`'s
/// fixtures are scratched, the rest move as little as the league file allows. The new list is
/// checked with the rerun's promises (history exact, nothing new before `from`).
pub fn rerun(
    league: &League,
    current: &FixtureList,
    from: NaiveDate,
    withdraw: &[TeamId],
    opts: &Options,
) -> Result<Rescheduled, Failure> {
    rerun_planned(
        league,
        current,
        reschedule::plan(league, current, from, withdraw),
        opts,
    )
}

/// `rerun` of a plan the caller has made (and may have added to: a season's earlier
/// withdrawals' scratched fixtures).
pub fn rerun_planned(
    league: &League,
    current: &FixtureList,
    plan: reschedule::Plan,
    opts: &Options,
) -> Result<Rescheduled, Failure> {
    let opts = plan.options(opts);
    let solved = solve::solve(&plan.solving(), &opts)?;
    // The divisions paired round by round keep their rounds: the solver does not make them. A
    // withdrawn team's are scratched, the played ones too (rule 11.2), as in the other divisions.
    let carried: Vec<Match> = current
        .matches
        .iter()
        .filter(|m| plan.league.divisions[m.division].format == Format::Paired)
        .filter(|m| !(plan.league.withdrawn(m.home) || plan.league.withdrawn(m.away)))
        .copied()
        .collect();
    let solution = conclude(&plan.league, solved, &opts, &plan.rerun, &carried)?;
    let changes = reschedule::diff(league, current, solution.checked.list());
    Ok(Rescheduled {
        diff_csv: reschedule::diff_csv(league, &changes),
        summary: reschedule::club_summary(league, &changes),
        changes,
        solution,
        played: plan.played,
    })
}

/// Bytes of memory a solve takes per candidate slot, for the size model: the annealing peaks
/// at about 190 bytes a slot (generated 150- and 600-team leagues, 10 s); five times that
/// leaves room for the MIP and its drafts.
pub const BYTES_PER_SLOT: u64 = 1024;
/// MiB a solve takes whatever the league's size: the exact search and HiGHS peak at 277 MiB on
/// the 12-fixture Mid Downs league (`scripts/load`'s `solve_peak_mib`).
pub const BASE_MIB: u64 = 512;

/// Whether a league fits a solve within `memory_mib` MiB: the number of its candidate slots
/// (counted no further than the budget allows), or why it does not fit, in words a secretary
/// can act on.
pub fn fits(league: &League, memory_mib: u64) -> Result<usize, TooLarge> {
    let limit =
        (memory_mib.saturating_sub(BASE_MIB).saturating_mul(1 << 20) / BYTES_PER_SLOT) as usize;
    let n = crate::formulate::count_slots(league, &Rerun::default(), limit);
    if n <= limit {
        return Ok(n);
    }
    Err(TooLarge {
        fixtures: league.fixtures().len(),
        limit,
        memory_mib,
    })
}

/// A league whose solve would not fit a worker's memory (`fits`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "this league is too large to solve here: its {fixtures} fixtures have more than {limit} \
     possible dates between them, which would need more than the {memory_mib} MiB a solve \
     may use; shorten the season, play on fewer nights, or split the largest division"
)]
pub struct TooLarge {
    /// The league's fixtures.
    pub fixtures: usize,
    /// The most candidate (fixture, home, date) slots a solve may have.
    pub limit: usize,
    /// The memory a solve may use.
    pub memory_mib: u64,
}
