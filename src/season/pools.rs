//! A 4NCL division's final pools (rule 6.3): once every preliminary result is in, the top half
//! of each preliminary pool forms the championship pool and the rest the relegation pool, and
//! their rounds go on the division's remaining round dates.

use super::operate::Standing;
use super::record::{Current, Entry, Kind, Season, SeasonError};
use crate::competitions::ncl;
use crate::competitions::swiss::Played;
use chrono::NaiveDate;

/// The preliminary pools of division `d` as drawn: the two groups of teams its matches up to
/// the last preliminary round date join, in the order of the pools its ratings give when they
/// are the same, else the one holding the lowest-numbered team first; the pools its ratings
/// give when the list does not show two (a rating changed since the draw moves no team).
pub fn drawn_pools(cur: &Current, d: usize) -> (Vec<usize>, Vec<usize>) {
    let lg = &cur.league;
    let div = &lg.divisions[d];
    let (a, b) = ncl::league_pools(lg, d);
    let last = div
        .rounds
        .as_ref()
        .and_then(|r| r.get(a.len().saturating_sub(2)))
        .copied();
    let Some(last) = last else {
        return (a, b);
    };
    // Each team's group, merged along the preliminary matches.
    let mut group: Vec<usize> = (0..lg.teams.len()).collect();
    fn root(g: &mut [usize], t: usize) -> usize {
        let mut r = t;
        while g[r] != r {
            r = g[r];
        }
        g[t] = r;
        r
    }
    for m in cur
        .list
        .matches
        .iter()
        .filter(|m| m.division == d && m.date <= last)
    {
        let (x, y) = (root(&mut group, m.home), root(&mut group, m.away));
        group[x] = y;
    }
    let Some(&seed) = a.first() else {
        return (a, b);
    };
    let top = root(&mut group, seed);
    let (mut first, mut second) = (Vec::new(), Vec::new());
    for &t in &div.teams {
        if root(&mut group, t) == top {
            first.push(t);
        } else {
            second.push(t);
        }
    }
    first.sort_unstable();
    second.sort_unstable();
    if first.len() != a.len() || second.len() != b.len() || first == a {
        // Not two pools (nothing drawn yet), or the pools the ratings give, in their order.
        return (a, b);
    }
    if first == b {
        return (b, a);
    }
    // The drawn pools differ from the ratings' now: the one holding the first team first.
    if first.first() < second.first() {
        (first, second)
    } else {
        (second, first)
    }
}

/// Whether the final pools of division `d` are formed: a match between a team of preliminary
/// pool `a` and one of the other pool.
fn formed(cur: &Current, d: usize, a: &[usize]) -> bool {
    cur.list
        .matches
        .iter()
        .any(|m| m.division == d && a.contains(&m.home) != a.contains(&m.away))
}

/// The matches of the preliminary rounds of `teams` teams: two pools, each a round robin.
fn preliminary_matches(teams: usize) -> usize {
    let half = teams / 2;
    half * half.saturating_sub(1)
}

impl Season {
    /// The results of the preliminary matches of pools division `d` entered so far; `None` once
    /// its final pools are formed (a match between teams of different preliminary pools).
    fn preliminary(&self, cur: &Current, d: usize) -> Option<Vec<Played>> {
        let (a, _) = drawn_pools(cur, d);
        (!formed(cur, d, &a)).then(|| self.pool_results(cur, d, &a))
    }

    /// The results entered for matches of division `d` within a preliminary pool (`a` one of
    /// them).
    fn pool_results(&self, cur: &Current, d: usize, a: &[usize]) -> Vec<Played> {
        self.results_where(cur, d, |m| a.contains(&m.home) == a.contains(&m.away))
    }

    /// The results entered for the matches of division `d` that `keep` keeps.
    fn results_where(
        &self,
        cur: &Current,
        d: usize,
        keep: impl Fn(&crate::model::Match) -> bool,
    ) -> Vec<Played> {
        let lg = &cur.league;
        let dates = lg.divisions[d].rounds.clone().unwrap_or_default();
        let round = |date| {
            dates
                .iter()
                .position(|&x| x == date)
                .map_or(1, |r| r as u32 + 1)
        };
        cur.list
            .matches
            .iter()
            .filter(|m| m.division == d && keep(m))
            .filter_map(|m| {
                let s = self.league_result(lg, *m)?;
                Some(Played {
                    round: round(m.date),
                    first: m.home,
                    second: m.away,
                    first_points: s.home_points,
                    second_points: s.away_points,
                })
            })
            .collect()
    }

    /// The tables division `d` shows: a pools division its two preliminary pools, then, once
    /// they are formed, its championship and relegation pools, each counting only the matches
    /// among its teams (rule 6.3), placed as rule 12.2 (a) and (b) place them; any other
    /// division one table.
    pub fn tables(&self, cur: &Current, d: usize) -> Vec<(String, Vec<Standing>)> {
        let div = &cur.league.divisions[d];
        if !div.pools || ncl::unfit(&cur.league, d).is_some() {
            return vec![(div.name.clone(), self.standings(cur, d))];
        }
        let (a, b) = drawn_pools(cur, d);
        let pools = if !formed(cur, d, &a) {
            [("preliminary pool A", a), ("preliminary pool B", b)]
        } else {
            let played = self.pool_results(cur, d, &a);
            let split = ncl::split(&a, &b, &played, cur.league.teams.len(), a.len() as u32);
            [
                ("championship pool", split.championship),
                ("relegation pool", split.relegation),
            ]
        };
        pools
            .into_iter()
            .map(|(pool, teams)| {
                let among =
                    |m: &crate::model::Match| teams.contains(&m.home) && teams.contains(&m.away);
                let played = self.results_where(cur, d, among);
                let order = ncl::placed(&teams, &played, cur.league.teams.len());
                let mut rows = self.standings_among(cur, d, &teams);
                rows.sort_by_key(|r| order.iter().position(|&t| t == r.team));
                (format!("{}, {pool}", div.name), rows)
            })
            .collect()
    }

    /// Whether pools division `d` has every preliminary result and no final pools yet.
    pub fn final_pools_due(&self, cur: &Current, d: usize) -> bool {
        let lg = &cur.league;
        if !lg.divisions[d].pools || ncl::unfit(lg, d).is_some() {
            return false;
        }
        self.preliminary(cur, d)
            .is_some_and(|p| p.len() == preliminary_matches(lg.divisions[d].teams.len()))
    }

    /// Forms the final pools of `division` from its preliminary results and publishes their
    /// rounds; refused while a preliminary match lacks its result, or once they are formed.
    pub fn final_pools(&mut self, today: NaiveDate, division: &str) -> Result<&Entry, SeasonError> {
        let cur = self.current()?;
        let lg = &cur.league;
        let d = lg
            .divisions
            .iter()
            .position(|x| x.name == division.trim() && x.pools)
            .ok_or_else(|| {
                let pools: Vec<&str> = lg
                    .divisions
                    .iter()
                    .filter(|x| x.pools)
                    .map(|x| x.name.as_str())
                    .collect();
                SeasonError::Input(format!(
                    "no division \"{}\" played in pools (the league's: {})",
                    division.trim(),
                    if pools.is_empty() {
                        "none".to_string()
                    } else {
                        pools.join(", ")
                    }
                ))
            })?;
        let name = lg.divisions[d].name.clone();
        if let Some(why) = ncl::unfit(lg, d) {
            return Err(SeasonError::Refused(vec![why]));
        }
        let (a, b) = drawn_pools(&cur, d);
        let Some(played) = self.preliminary(&cur, d) else {
            return Err(SeasonError::Input(format!(
                "the final pools of {name} are formed already"
            )));
        };
        let prelim = preliminary_matches(a.len() + b.len());
        if played.len() < prelim {
            return Err(SeasonError::Refused(vec![format!(
                "{} of the {prelim} preliminary matches of {name} have no result yet: the final pools are formed from all of them",
                prelim - played.len()
            )]));
        }
        let split = ncl::split(&a, &b, &played, lg.teams.len(), a.len() as u32);
        let rounds = ncl::as_matches(lg, d, &split.rounds).ok_or_else(|| {
            SeasonError::Refused(vec![format!("{name} has no date for a final round")])
        })?;
        let team_names = |ts: &[usize]| {
            ts.iter()
                .map(|&t| lg.teams[t].name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let what = format!(
            "final pools of {name}: championship {}; relegation {}",
            team_names(&split.championship),
            team_names(&split.relegation)
        );
        let verdict = "every preliminary result is in (rule 6.3)";
        self.publish_added(today, cur, rounds, Kind::FinalPools, what, verdict)
    }
}
