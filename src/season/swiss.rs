//! A Swiss division through the season (4NCL rule 6.4): each round paired from the results of
//! the rounds before it, once all of them are in, and placed on the division's round date.

use super::operate::Standing;
use super::record::{Current, Entry, Kind, Season, SeasonError};
use super::reschedule::Status;
use crate::competitions::swiss::{self, Played};
use crate::model::{Format, League, Match, TeamId};
use chrono::NaiveDate;

/// Whether division `d` is paired round by round as a Swiss tournament.
pub fn is_swiss(league: &League, d: usize) -> bool {
    let div = &league.divisions[d];
    div.format == Format::Paired && !div.pools
}

/// Round `round` (from 1) of Swiss division `d`, paired from the results so far (`played`,
/// `byes` and the fixtures `scratched` by withdrawals, in the division's own team numbers),
/// among the teams that have not withdrawn, on the division's date for it: its matches, and
/// the team with the bye. A scratched fixture counts towards its teams' first-named balance, as
/// the checker counts it.
pub fn paired_round(
    league: &League,
    d: usize,
    round: usize,
    played: &[Played],
    byes: &[usize],
    scratched: &[(usize, usize)],
) -> Result<(Vec<Match>, Option<TeamId>), String> {
    let div = &league.divisions[d];
    let date = div
        .rounds
        .as_ref()
        .and_then(|r| r.get(round.checked_sub(1)?))
        .ok_or_else(|| format!("{} has no date for round {round}", div.name))?;
    // The teams still in, numbered 0.. among themselves.
    let active: Vec<usize> = (0..div.teams.len())
        .filter(|&i| !league.withdrawn(div.teams[i]))
        .collect();
    let local = |i: usize| active.iter().position(|&a| a == i);
    let played: Vec<Played> = played
        .iter()
        .filter_map(|m| {
            Some(Played {
                first: local(m.first)?,
                second: local(m.second)?,
                ..m.clone()
            })
        })
        .collect();
    let byes: Vec<usize> = byes.iter().filter_map(|&t| local(t)).collect();
    let mut standings = swiss::standings(active.len(), &played, &byes);
    for &(first, second) in scratched {
        if let Some(t) = local(first) {
            standings[t].first_named += 1;
        }
        if let Some(t) = local(second) {
            standings[t].second_named += 1;
        }
    }
    let teams: Vec<TeamId> = active.iter().map(|&i| div.teams[i]).collect();
    let balance = league.rules.home_away_balance as i32;
    let pairing = swiss::pair(&standings, &played, balance, &swiss::seeds(league, &teams))
        .map_err(|e| format!("round {round} of {}: {e}", div.name))?;
    let matches = pairing
        .pairs
        .iter()
        .map(|&(x, y)| Match {
            date: *date,
            division: d,
            home: teams[x],
            away: teams[y],
        })
        .collect();
    Ok((matches, pairing.bye.map(|t| teams[t])))
}

/// Where a Swiss division stands in the list in force.
struct Progress {
    /// The next round to pair (from 1).
    next: usize,
    /// Results so far, in the division's own team numbers.
    played: Vec<Played>,
    /// Teams (own numbers) that had a bye.
    byes: Vec<usize>,
    /// Fixtures (own numbers, first-named first) scratched by withdrawals.
    scratched: Vec<(usize, usize)>,
    /// Matches of the division without a result.
    waiting: usize,
}

impl Season {
    /// The fixtures of division `d` that withdrawals scratched, with the dates they had (from
    /// the log's changes).
    fn scratched_in(&self, cur: &Current, d: usize) -> Vec<(TeamId, TeamId, NaiveDate)> {
        let lg = &cur.league;
        let div = &lg.divisions[d];
        let pair = |fixture: &str| {
            div.teams.iter().find_map(|&h| {
                let rest = fixture.strip_prefix(lg.teams[h].name.as_str())?;
                let away = rest.strip_prefix(" v ")?;
                Some((h, lg.team_by_name(away)?))
            })
        };
        self.log
            .iter()
            .filter(|e| e.kind == Kind::Withdrawal)
            .flat_map(|e| &e.changes)
            .filter(|c| c.status == Status::Scratched.as_str() && c.competition == div.name)
            .filter_map(|c| {
                let (h, a) = pair(&c.fixture)?;
                Some((h, a, c.old?))
            })
            .collect()
    }

    /// Swiss division `d`'s rounds in the list in force, and the results entered for them. A
    /// team still in without a match in a round had the bye, unless a withdrawal scratched its
    /// match of that round.
    fn progress(&self, cur: &Current, d: usize) -> Progress {
        let lg = &cur.league;
        let div = &lg.divisions[d];
        let dates = div.rounds.clone().unwrap_or_default();
        // A match counts for the last round dated on or before it (a postponed one too).
        let round = |date: NaiveDate| dates.iter().rposition(|&x| x <= date).map_or(1, |r| r + 1);
        let local = |t: TeamId| div.teams.iter().position(|&u| u == t);
        let ours: Vec<&Match> = cur
            .list
            .matches
            .iter()
            .filter(|m| m.division == d)
            .collect();
        let next = ours
            .iter()
            .map(|m| round(m.date))
            .max()
            .map_or(1, |r| r + 1);
        let scratched = self.scratched_in(cur, d);
        let mut p = Progress {
            next,
            played: Vec::new(),
            byes: Vec::new(),
            scratched: scratched
                .iter()
                .filter_map(|&(h, a, _)| Some((local(h)?, local(a)?)))
                .collect(),
            waiting: 0,
        };
        for m in &ours {
            let (Some(first), Some(second)) = (local(m.home), local(m.away)) else {
                continue;
            };
            match self.league_result(lg, **m) {
                Some(s) => p.played.push(Played {
                    round: round(m.date) as u32,
                    first,
                    second,
                    first_points: s.home_points,
                    second_points: s.away_points,
                }),
                None => p.waiting += 1,
            }
        }
        for r in 1..next {
            let busy = |t: TeamId| {
                ours.iter()
                    .any(|m| round(m.date) == r && (m.home == t || m.away == t))
                    || scratched
                        .iter()
                        .any(|&(h, a, date)| round(date) == r && (h == t || a == t))
            };
            p.byes.extend(
                (0..div.teams.len())
                    .filter(|&i| !lg.withdrawn(div.teams[i]) && !busy(div.teams[i])),
            );
        }
        p
    }

    /// The table of Swiss division `d`: a bye counts as a win (two match points, no game
    /// points); teams level on match points are placed by the league's tie-breaks, by default
    /// as 4NCL rule 12.3 places them: by game points, then the sum of their opponents' match
    /// points, then of their opponents' game points (then by name, where the rule tosses a
    /// coin).
    pub fn swiss_table(&self, cur: &Current, d: usize) -> Vec<Standing> {
        let lg = &cur.league;
        let teams = &lg.divisions[d].teams;
        let (mut rows, played) = self.rows_among(cur, d, teams);
        let byes: Vec<TeamId> = self
            .progress(cur, d)
            .byes
            .iter()
            .map(|&i| teams[i])
            .collect();
        for &t in &byes {
            if let Some(r) = rows.iter_mut().find(|r| r.team == t) {
                r.played += 1;
                r.won += 1;
                r.match_points += 2;
            }
        }
        self.place(lg, d, &mut rows, &played, &byes);
        rows
    }

    /// The next round of Swiss division `d` when every earlier result is in and the division
    /// has a date for it.
    pub fn swiss_round_due(&self, cur: &Current, d: usize) -> Option<usize> {
        let lg = &cur.league;
        if !is_swiss(lg, d) || lg.divisions[d].teams.len() < 2 {
            return None;
        }
        let p = self.progress(cur, d);
        let dates = lg.divisions[d].rounds.as_ref().map_or(0, |r| r.len());
        (p.waiting == 0 && p.next <= dates).then_some(p.next)
    }

    /// Pairs the next round of Swiss `division` from every result so far and publishes it;
    /// refused while an earlier match lacks its result.
    pub fn swiss_round(&mut self, today: NaiveDate, division: &str) -> Result<&Entry, SeasonError> {
        let cur = self.current()?;
        let lg = &cur.league;
        let d = (0..lg.divisions.len())
            .find(|&d| lg.divisions[d].name == division.trim() && is_swiss(lg, d))
            .ok_or_else(|| {
                SeasonError::Input(format!(
                    "no Swiss division \"{}\" in the league",
                    division.trim()
                ))
            })?;
        let name = lg.divisions[d].name.clone();
        let p = self.progress(&cur, d);
        let rounds = lg.divisions[d].rounds.as_ref().map_or(0, |r| r.len());
        if p.next > rounds {
            return Err(SeasonError::Input(format!(
                "every round of {name} is paired ({rounds})"
            )));
        }
        if p.waiting > 0 {
            return Err(SeasonError::Refused(vec![format!(
                "{} matches of {name} have no result yet: round {} is paired from all of them",
                p.waiting, p.next
            )]));
        }
        let (new, bye) = paired_round(lg, d, p.next, &p.played, &p.byes, &p.scratched)
            .map_err(|e| SeasonError::Refused(vec![e]))?;
        let names: Vec<String> = new
            .iter()
            .map(|m| format!("{} v {}", lg.teams[m.home].name, lg.teams[m.away].name))
            .collect();
        let mut what = format!("round {} of {name}: {}", p.next, names.join(", "));
        if let Some(t) = bye {
            what += &format!("; {} has the bye", lg.teams[t].name);
        }
        let verdict = "every earlier result is in (4NCL rule 6.4: a Swiss tournament)";
        self.publish_added(today, cur, new, Kind::SwissRound, what, verdict)
    }
}
