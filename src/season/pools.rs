//! A 4NCL division's final pools (rule 6.3): once every preliminary result is in, the top half
//! of each preliminary pool forms the championship pool and the rest the relegation pool, and
//! their rounds go on the division's remaining round dates.

use super::operate::Standing;
use super::record::{Current, Entry, Kind, Season, SeasonError};
use crate::competitions::ncl;
use crate::competitions::swiss::Played;
use chrono::NaiveDate;

/// The preliminary pools of division `d` as drawn, less any team withdrawn: the two groups of
/// teams its matches up to the last preliminary round date join, the one its ratings' first
/// pool is first when it is one of them, else the one holding the lowest-numbered team; the
/// pools its ratings give when the list does not show two (a rating changed since the draw
/// moves no team).
pub fn drawn_pools(cur: &Current, d: usize) -> (Vec<usize>, Vec<usize>) {
    let lg = &cur.league;
    let div = &lg.divisions[d];
    let (mut a, mut b) = ncl::league_pools(lg, d);
    a.retain(|&t| !lg.withdrawn(t));
    b.retain(|&t| !lg.withdrawn(t));
    let last = div
        .rounds
        .as_ref()
        .and_then(|r| r.get((div.teams.len() / 2).saturating_sub(2)))
        .copied();
    let Some(last) = last else {
        return (a, b);
    };
    let prelim = cur
        .list
        .matches
        .iter()
        .filter(|m| m.division == d && m.date <= last);
    let teams: Vec<usize> = div
        .teams
        .iter()
        .copied()
        .filter(|&t| !lg.withdrawn(t))
        .collect();
    let mut two = joined(&teams, prelim, lg.teams.len());
    if two.len() != 2 {
        // Not two pools (nothing drawn yet).
        return (a, b);
    }
    let second = two.pop().unwrap_or_default();
    let first = two.pop().unwrap_or_default();
    if second == a {
        (second, first)
    } else {
        (first, second)
    }
}

/// The groups of `teams` (numbers below `n`) that `matches` join, each sorted, in the order
/// of their lowest team.
fn joined<'a>(
    teams: &[usize],
    matches: impl Iterator<Item = &'a crate::model::Match>,
    n: usize,
) -> Vec<Vec<usize>> {
    let mut group: Vec<usize> = (0..n).collect();
    fn root(g: &mut [usize], t: usize) -> usize {
        let mut r = t;
        while g[r] != r {
            r = g[r];
        }
        g[t] = r;
        r
    }
    for m in matches {
        let (x, y) = (root(&mut group, m.home), root(&mut group, m.away));
        group[x] = y;
    }
    let mut groups: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for &t in teams {
        groups.entry(root(&mut group, t)).or_default().push(t);
    }
    let mut out: Vec<Vec<usize>> = groups.into_values().collect();
    for g in &mut out {
        g.sort_unstable();
    }
    out.sort();
    out
}

/// Whether the final pools of division `d` are formed: a match between a team of preliminary
/// pool `a` and one of the other pool.
fn formed(cur: &Current, d: usize, a: &[usize]) -> bool {
    cur.list
        .matches
        .iter()
        .any(|m| m.division == d && a.contains(&m.home) != a.contains(&m.away))
}

/// The matches of division `d` in the list within a preliminary pool (`a` one of them).
fn preliminary_matches(cur: &Current, d: usize, a: &[usize]) -> usize {
    cur.list
        .matches
        .iter()
        .filter(|m| m.division == d && a.contains(&m.home) == a.contains(&m.away))
        .count()
}

/// Each team's times first-named less times second-named in division `d` so far, its fixtures
/// scratched by withdrawals too (as the checker counts them).
fn leans(cur: &Current, d: usize) -> Vec<i32> {
    let mut lean = vec![0; cur.league.teams.len()];
    let ours = |&&(h, _): &&(usize, usize)| cur.league.teams[h].division == d;
    let listed = cur.list.matches.iter().filter(|m| m.division == d);
    for (h, a) in listed
        .map(|m| (m.home, m.away))
        .chain(cur.scratched.iter().filter(ours).copied())
    {
        lean[h] += 1;
        lean[a] -= 1;
    }
    lean
}

/// Why final pools leaving each team's first-named less second-named matches at `lean` break
/// the league's `home_away_balance`, if they do: a pool a withdrawal left short plays an odd
/// number of final matches, and the counts cannot always be kept level.
fn unbalanced(lg: &crate::model::League, division: &str, lean: &[i32]) -> Option<String> {
    let most = lg.rules.home_away_balance as i32;
    let over: Vec<String> = lean
        .iter()
        .enumerate()
        .filter(|&(_, l)| l.abs() > most)
        .map(|(t, l)| {
            let (more, than) = if *l > 0 {
                ("home", "away")
            } else {
                ("away", "home")
            };
            format!(
                "{} would have {} more {more} matches than {than}",
                lg.teams[t].name,
                l.abs()
            )
        })
        .collect();
    (!over.is_empty()).then(|| {
        format!(
            "the final pools of {division} cannot keep every team's home and away matches within {most} of each other, a pool being short since a withdrawal: {}. The league's setting \"Largest difference between a team's home and away matches\" may allow {}",
            over.join("; "),
            most + 1
        )
    })
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

    /// The match points deducted for penalties from each team of pools division `d` (by team),
    /// each preliminary pool's floor at none kept as its table keeps it (4NCL rule 10.6).
    fn pool_deductions(&self, cur: &Current, d: usize) -> Vec<u32> {
        let n = cur.league.teams.len();
        let (a, b) = drawn_pools(cur, d);
        let mut off = vec![0; n];
        for pool in [a, b] {
            let (mut rows, _) = self.rows_among(cur, d, &pool);
            let o = super::penalties::deduct(self, &cur.league, &mut rows);
            for t in pool {
                off[t] = o[t];
            }
        }
        off
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
    /// among its teams (rule 6.3), placed as rule 12.2 (a) and (b) place them; a Swiss division
    /// its table with byes and rule 12.3's tie-breaks; any other division one table.
    pub fn tables(&self, cur: &Current, d: usize) -> Vec<(String, Vec<Standing>)> {
        let div = &cur.league.divisions[d];
        if super::swiss::is_swiss(&cur.league, d) {
            return vec![(div.name.clone(), self.swiss_table(cur, d))];
        }
        if !div.pools || ncl::unfit(&cur.league, d).is_some() {
            return vec![(div.name.clone(), self.standings(cur, d))];
        }
        let (a, b) = drawn_pools(cur, d);
        let pools = if !formed(cur, d, &a) {
            [("preliminary pool A", a), ("preliminary pool B", b)]
        } else {
            let (championship, relegation) = self.formed_pools(cur, d, (&a, &b));
            [
                ("championship pool", championship),
                ("relegation pool", relegation),
            ]
        };
        pools
            .into_iter()
            .map(|(pool, teams)| {
                let (mut rows, played) = self.rows_among(cur, d, &teams);
                let off = super::penalties::deduct(self, &cur.league, &mut rows);
                let order = ncl::placed(&teams, &played, cur.league.teams.len(), &off);
                rows.sort_by_key(|r| order.iter().position(|&t| t == r.team));
                (format!("{}, {pool}", div.name), rows)
            })
            .collect()
    }

    /// The championship and relegation pools of division `d` as formed: the two groups of
    /// teams its final rounds join (matches across the preliminary pools `a` and `b`), the
    /// championship the one that shares more teams with the split the results give now, so that
    /// a penalty entered after the pools were formed moves no team between them.
    fn formed_pools(
        &self,
        cur: &Current,
        d: usize,
        (a, b): (&[usize], &[usize]),
    ) -> (Vec<usize>, Vec<usize>) {
        let played = self.pool_results(cur, d, a);
        let off = self.pool_deductions(cur, d);
        let split = ncl::split((a, b), (&played, &off), cur.league.teams.len(), 0, &[]);
        let teams: Vec<usize> = a.iter().chain(b).copied().collect();
        let finals = cur
            .list
            .matches
            .iter()
            .filter(|m| m.division == d && a.contains(&m.home) != a.contains(&m.away));
        let mut two = joined(&teams, finals, cur.league.teams.len());
        if two.len() != 2 {
            return (split.championship, split.relegation);
        }
        let shared = |p: &[usize]| split.championship.iter().filter(|t| p.contains(t)).count();
        let (second, first) = (two.pop().unwrap_or_default(), two.pop().unwrap_or_default());
        if shared(&first) >= shared(&second) {
            (first, second)
        } else {
            (second, first)
        }
    }

    /// Whether pools division `d` has every preliminary result and no final pools yet.
    pub fn final_pools_due(&self, cur: &Current, d: usize) -> bool {
        let lg = &cur.league;
        if !lg.divisions[d].pools || ncl::unfit(lg, d).is_some() {
            return false;
        }
        let (a, _) = drawn_pools(cur, d);
        self.preliminary(cur, d)
            .is_some_and(|p| p.len() == preliminary_matches(cur, d, &a))
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
        let prelim = preliminary_matches(&cur, d, &a);
        if played.len() < prelim {
            return Err(SeasonError::Refused(vec![format!(
                "{} of the {prelim} preliminary matches of {name} have no result yet: the final pools are formed from all of them",
                prelim - played.len()
            )]));
        }
        // The first final round follows the n/2 - 1 preliminary ones.
        let first_round = (lg.divisions[d].teams.len() / 2) as u32;
        let mut lean = leans(&cur, d);
        let off = self.pool_deductions(&cur, d);
        let split = ncl::split(
            (&a, &b),
            (&played, &off),
            lg.teams.len(),
            first_round,
            &lean,
        );
        for &(_, x, y) in &split.rounds {
            lean[x] += 1;
            lean[y] -= 1;
        }
        if let Some(why) = unbalanced(lg, &name, &lean) {
            return Err(SeasonError::Refused(vec![why]));
        }
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
