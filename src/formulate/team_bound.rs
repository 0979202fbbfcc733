//! A lower bound on each team's own quality terms, from its season alone.
//!
//! A team's long waits, short rests, winter share, avoid dates and spread depend only on the
//! days it plays. Over its candidate days, with `min_days_between` kept and exactly as many
//! matches as it has fixtures, a dynamic programme finds the least such cost any schedule can
//! give it (`least`), and separately the least spread it can have (`spread`, a bottleneck
//! path). Every valid schedule gives each team a season the programme considered, so
//! - the sum of the teams' least costs, plus `spread_max` times the largest least spread, is a
//!   lower bound on the objective (`bound`), and
//! - each team's cost terms in the model are at least its least cost (`formulate::quality` adds
//!   that row): the LP relaxation, which spreads fractional matches evenly and so sees no long
//!   waits, learns the waits the whole numbers force.
//!
//! The programme drops what needs more than one team (breaks, opponents, venues) and the
//! non-consecutive pairs of short rests: a bound, never more than the true least cost.

use super::Candidates;
use crate::model::{League, Weights};
use chrono::Datelike;

/// One team's least costs over every season it could have.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TeamLeast {
    /// The least of its long waits, short rests, winter share and avoid dates (weighted).
    pub cost: f64,
    /// The least worst spread it can have (0 to 1).
    pub spread: f64,
}

/// The season as the objective counts it: days from the league's start, spread checkpoints.
pub struct Season {
    days: i32,
    /// (day, share of the season elapsed by its end): every Sunday and the last day.
    checks: Vec<(i32, f64)>,
}

impl Season {
    /// The season of `league`.
    pub fn new(league: &League) -> Season {
        let days = ((league.end - league.start).num_days() + 1).max(1) as i32;
        let mut checks: Vec<i32> = league
            .season_dates()
            .filter(|d| d.weekday() == chrono::Weekday::Sun)
            .map(|d| (d - league.start).num_days() as i32)
            .collect();
        checks.push(days - 1);
        let checks = checks
            .into_iter()
            .map(|c| (c, f64::from(c + 1) / f64::from(days)))
            .collect();
        Season { days, checks }
    }
}

/// Every team's least costs (`None` for a team with no fixtures), or `None` when some team
/// cannot fit its matches on its candidate days at all.
pub fn least(league: &League, cand: &Candidates, w: &Weights) -> Option<Vec<Option<TeamLeast>>> {
    let season = Season::new(league);
    (0..league.teams.len())
        .map(|t| match cand.fixtures_of[t].is_empty() {
            true => Some(None),
            false => team_least(league, cand, w, &season, t).map(Some),
        })
        .collect()
}

/// The lower bound on the whole objective (see the module's comment): the teams' least own
/// costs (with their spreads' weight) and the largest least spread.
pub fn bound(league: &League, cand: &Candidates, w: &Weights) -> Option<(f64, f64)> {
    let all = least(league, cand, w)?;
    let mut sum = 0.0;
    let mut worst = 0.0f64;
    for l in all.into_iter().flatten() {
        sum += l.cost + w.spread * l.spread;
        worst = worst.max(l.spread);
    }
    Some((sum, worst))
}

/// The days of the season (0 = the league's start) on which team `t` has a candidate slot.
fn candidate_days(league: &League, cand: &Candidates, t: usize) -> Vec<i32> {
    let mut days: Vec<i32> = cand.by_team[t]
        .iter()
        .map(|&s| (cand.slots[s].date - league.start).num_days() as i32)
        .collect();
    days.sort_unstable();
    days.dedup();
    days
}

/// Team `t`'s least costs over its candidate days; `None` when its matches do not fit.
pub fn team_least(
    league: &League,
    cand: &Candidates,
    w: &Weights,
    season: &Season,
    t: usize,
) -> Option<TeamLeast> {
    let team = &league.teams[t];
    let n = cand.fixtures_of[t].len();
    let days = candidate_days(league, cand, t);
    let m = days.len();
    if m < n {
        return None;
    }
    let avoid: Vec<f64> = days
        .iter()
        .map(|&d| {
            let date = league.start + chrono::Days::new(d as u64);
            if team.avoid.contains(&date) {
                w.avoid
            } else {
                0.0
            }
        })
        .collect();
    let gap = league.rules.min_days_between.max(1) as i32;
    let first = (team.start.max(league.start) - league.start).num_days() as i32;
    let g = w.long_rest_days as i32;
    // Days of a wait from a to b (inclusive) that begin `long_rest_days` days without a match.
    let free = |a: i32, b: i32| f64::from((b - a + 2 - g).max(0));
    let target = w.short_rest_days as i32;
    let winter = super::quality::winter_share(league, t, n as f64)
        .map(|(from, fair)| ((from - league.start).num_days() as i32, fair));
    // The winter term when `before` matches come before the break.
    let winter_cost = |before: usize| match winter {
        Some((_, fair)) if w.winter > 0.0 => w.winter * (before as f64 - fair).abs(),
        _ => 0.0,
    };
    // Whether the break's first day lies in (a, b]: the matches before it are those up to a.
    let crosses = |a: i32, b: i32| winter.is_some_and(|(from, _)| a < from && from <= b);
    let step = |a: usize, b: usize| -> f64 {
        let (da, db) = (days[a], days[b]);
        let mut c = w.long_rest * free(da + 1, db - 1);
        if db - da < target {
            c += w.short_rest * f64::from(target - (db - da));
        }
        c + avoid[b]
    };
    let inf = f64::INFINITY;
    // cost[i]: the least cost with the k-th match on days[i]; spread likewise (bottleneck).
    let mut cost: Vec<f64> = (0..m)
        .map(|i| {
            let mut c = w.long_rest * free(first, days[i] - 1) + avoid[i];
            if crosses(i32::MIN, days[i]) {
                c += winter_cost(0);
            }
            c
        })
        .collect();
    let dev = |k: usize, check: (i32, f64)| (k as f64 / n as f64 - check.1).abs();
    let mut spread: Vec<f64> = (0..m)
        .map(|i| {
            season
                .checks
                .iter()
                .take_while(|c| c.0 < days[i])
                .fold(0.0, |z, &c| f64::max(z, dev(0, c)))
        })
        .collect();
    for k in 1..n {
        let mut next_cost = vec![inf; m];
        let mut next_spread = vec![inf; m];
        for a in 0..m {
            if cost[a] == inf && spread[a] == inf {
                continue;
            }
            // The checkpoints from days[a] on, as b moves later: k matches counted at each.
            let mut ci = season.checks.partition_point(|c| c.0 < days[a]);
            let mut z = spread[a];
            for b in a + 1..m {
                while ci < season.checks.len() && season.checks[ci].0 < days[b] {
                    z = z.max(dev(k, season.checks[ci]));
                    ci += 1;
                }
                if days[b] - days[a] < gap {
                    continue;
                }
                let mut c = cost[a] + step(a, b);
                if crosses(days[a], days[b]) {
                    c += winter_cost(k);
                }
                next_cost[b] = next_cost[b].min(c);
                next_spread[b] = next_spread[b].min(z);
            }
        }
        cost = next_cost;
        spread = next_spread;
    }
    let mut best = TeamLeast {
        cost: inf,
        spread: inf,
    };
    for i in 0..m {
        let mut c = cost[i] + w.long_rest * free(days[i] + 1, season.days - 1);
        if winter.is_some_and(|(from, _)| days[i] < from) {
            c += winter_cost(n);
        }
        best.cost = best.cost.min(c);
        let z = season
            .checks
            .iter()
            .filter(|c| c.0 >= days[i])
            .fold(spread[i], |z, &c| f64::max(z, dev(n, c)));
        best.spread = best.spread.min(z);
    }
    (best.cost < inf).then_some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formulate::candidates;
    use crate::model::{parse_league, Rerun};

    /// Three teams, each hosting the others (four matches a team) in ten weeks with a two-week
    /// break, a late starter, an avoided date and unavailable dates; waits over 14 days cost.
    const LEAGUE: &str = r#"
name = "Bound test"
start = 2026-10-05
end = 2026-12-13
closed = [{ from = 2026-11-16, to = 2026-11-29 }]

[rules]
min_days_between = 3

[weights]
long_rest_days = 14
short_rest_days = 6

[[venue]]
name = "Hall"
capacity = 3

[[club]]
name = "A"
venue = "Hall"
nights = ["Mon", "Thu"]

[[club]]
name = "B"
venue = "Hall"
nights = ["Tue"]

[[club]]
name = "C"
venue = "Hall"
nights = ["Wed"]
start = 2026-10-14

[[division]]
name = "D"
format = "double"

[[team]]
name = "A1"
club = "A"
division = "D"
avoid = [2026-10-08, 2026-10-13]

[[team]]
name = "B1"
club = "B"
division = "D"
unavailable = [2026-10-06, 2026-10-20]

[[team]]
name = "C1"
club = "C"
division = "D"
"#;

    /// The team's own costs of playing on `days` (days of the season), counted straight from
    /// the weights' definitions, day by day: the oracle the programme must agree with.
    fn oracle(league: &League, w: &Weights, t: usize, n: usize, days: &[i32]) -> (f64, f64) {
        let season = ((league.end - league.start).num_days() + 1) as i32;
        let date = |d: i32| league.start + chrono::Days::new(d as u64);
        let first = (league.teams[t].start.max(league.start) - league.start).num_days() as i32;
        let g = w.long_rest_days as i32;
        // Every day from the team's start that begins g days without a match.
        let waits = (first..=season - g)
            .filter(|s| !days.iter().any(|d| (*s..*s + g).contains(d)))
            .count() as f64;
        let mut short = 0.0;
        for (i, a) in days.iter().enumerate() {
            for b in &days[i + 1..] {
                short += f64::from((w.short_rest_days as i32 - (b - a)).max(0));
            }
        }
        let avoid = days
            .iter()
            .filter(|d| league.teams[t].avoid.contains(&date(**d)))
            .count() as f64;
        let winter = match crate::formulate::quality::winter_share(league, t, n as f64) {
            Some((from, fair)) => {
                let before = days.iter().filter(|d| date(**d) < from).count() as f64;
                (before - fair).abs()
            }
            None => 0.0,
        };
        let mut spread = 0.0f64;
        for c in 0..season {
            if date(c).weekday() == chrono::Weekday::Sun || c == season - 1 {
                let played = days.iter().filter(|d| **d <= c).count() as f64;
                let elapsed = f64::from(c + 1) / f64::from(season);
                spread = spread.max((played / n as f64 - elapsed).abs());
            }
        }
        let cost = w.long_rest * waits + w.short_rest * short + w.avoid * avoid + w.winter * winter;
        (cost, spread)
    }

    /// Every way to choose `n` of `days` at least `gap` apart.
    fn seasons(
        days: &[i32],
        n: usize,
        gap: i32,
        from: usize,
        now: &mut Vec<i32>,
        out: &mut Vec<Vec<i32>>,
    ) {
        if now.len() == n {
            out.push(now.clone());
            return;
        }
        for i in from..days.len() {
            if now.last().is_none_or(|l| days[i] - l >= gap) {
                now.push(days[i]);
                seasons(days, n, gap, i + 1, now, out);
                now.pop();
            }
        }
    }

    #[test]
    fn least_costs_agree_with_every_season_counted_by_hand() {
        let league = parse_league(LEAGUE, "bound.toml").unwrap();
        let cand = candidates(&league, &Rerun::default());
        let w = league.weights;
        let least = least(&league, &cand, &w).unwrap();
        for (t, got) in least.iter().enumerate() {
            let n = cand.fixtures_of[t].len();
            let days = candidate_days(&league, &cand, t);
            let mut all = Vec::new();
            seasons(&days, n, 3, 0, &mut Vec::new(), &mut all);
            assert!(all.len() > 100, "{} seasons", all.len());
            let (mut cost, mut spread) = (f64::INFINITY, f64::INFINITY);
            for s in &all {
                let (c, z) = oracle(&league, &w, t, n, s);
                cost = cost.min(c);
                spread = spread.min(z);
            }
            let got = got.unwrap();
            // Short rests of non-consecutive matches cannot occur here (6 < 2 * 3): equal.
            assert!(
                (got.cost - cost).abs() < 1e-9,
                "team {t}: {} vs {cost}",
                got.cost
            );
            assert!(
                (got.spread - spread).abs() < 1e-9,
                "team {t}: {} vs {spread}",
                got.spread
            );
            assert!(
                cost > 0.0 && spread > 0.0,
                "the test league makes both bite"
            );
        }
    }

    /// The bound never exceeds the objective of schedules the solver finds, and the model's
    /// rows of least costs leave those schedules feasible (else HiGHS would report a bound
    /// above its own warm start, an error).
    #[test]
    fn bound_lies_under_solved_schedules() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/instances/sussex-rapid-2026-7.toml"
        );
        let league = crate::model::read_league(std::path::Path::new(path)).unwrap();
        let cand = candidates(&league, &Rerun::default());
        let (own, worst) = bound(&league, &cand, &league.weights).unwrap();
        let b = own + league.weights.spread_max * worst;
        for seed in 0..3 {
            let opts = crate::solve::Options {
                time_limit: 2.0,
                seed,
                threads: 1,
                ..Default::default()
            };
            let solved = crate::solve::solve(&league, &opts).unwrap();
            let objective = solved.objective.unwrap();
            assert!(
                b <= objective + 1e-6,
                "bound {b} above objective {objective}"
            );
            assert!(
                solved.bound.unwrap() >= b - 1e-6,
                "the reported bound uses it"
            );
        }
    }
}
