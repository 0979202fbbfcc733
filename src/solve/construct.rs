//! A constructive first schedule, the warm start of the first (rules-only) run: on a dense
//! league HiGHS can take many seconds to find any valid schedule on its own, where placing the
//! fixtures one by one takes milliseconds. The most constrained fixtures go first, each to the
//! slot that keeps its teams' matches apart (rest days, never closer than `min_days_between`),
//! within its venue's capacity and its home team's share of home matches, on no date a team
//! would rather avoid when another will do. What comes out is checked against every rule the
//! annealing knows (`Anneal::valid`) and handed to HiGHS only as a hint: a schedule HiGHS
//! finds infeasible is ignored, so this can make the first run faster but never wrong.

use super::local::Anneal;
use super::Rng;
use crate::formulate::Candidates;
use crate::model::{League, Weights};

/// Tries to place every fixture, a few orders in turn; the slot of each fixture of the first
/// valid schedule found, else `None`.
pub(crate) fn greedy(league: &League, cand: &Candidates, seed: u64) -> Option<Vec<usize>> {
    const ATTEMPTS: u64 = 8;
    (0..ATTEMPTS).find_map(|k| {
        let cur = attempt(league, cand, seed.wrapping_mul(31).wrapping_add(k))?;
        let weights = Weights::none();
        Anneal::new(league, cand, &weights, &cur)
            .valid()
            .then_some(cur)
    })
}

fn attempt(league: &League, cand: &Candidates, seed: u64) -> Option<Vec<usize>> {
    let mut rng = Rng::new(seed);
    let days = ((league.end - league.start).num_days() + 1).max(1) as usize;
    let day = |s: usize| (cand.slots[s].date - league.start).num_days() as i32;
    let gap = league.rules.min_days_between.max(1) as i32;
    let teams = league.teams.len();
    let n = cand.fixtures.len();
    let first_rule = league.rules.same_club_first;
    let internal: Vec<bool> = (0..n).map(|f| cand.is_internal(league, f)).collect();
    // Fixtures with the fewest slots first (a club's own fixtures first when they must be
    // played first), ties at random; an evicted fixture goes back to the front.
    let mut order: Vec<(bool, usize, u64, usize)> = (0..n)
        .map(|f| {
            (
                !(first_rule && internal[f]),
                cand.by_fixture[f].len(),
                rng.next(),
                f,
            )
        })
        .collect();
    order.sort_unstable();
    let mut queue: std::collections::VecDeque<usize> = order.iter().map(|o| o.3).collect();
    let cap = super::local::capacities(league, days);
    let venue_day = |s: usize| {
        let slot = cand.slots[s];
        league.fixture_venue(slot.home, slot.away) * days + day(s) as usize
    };
    let mut at: Vec<Vec<usize>> = vec![Vec::new(); league.venues.len() * days];
    let mut played: Vec<Vec<usize>> = vec![Vec::new(); teams];
    let mut homes = vec![0i64; teams];
    let range: Vec<(i64, i64)> = (0..teams).map(|t| cand.home_range(league, t)).collect();
    let mut cur = vec![usize::MAX; n];
    let mut steps = 0usize;
    let mut last_placed = usize::MAX;
    while let Some(f) = queue.pop_front() {
        steps += 1;
        if steps > 30 * n {
            return None;
        }
        let mut best: Option<(usize, f64, usize, Vec<usize>)> = None;
        for &s in &cand.by_fixture[f] {
            let slot = cand.slots[s];
            let (h, a, d) = (slot.home, slot.away, day(s));
            // The placed fixtures this slot would have to evict.
            let mut evict: Vec<usize> = Vec::new();
            for t in [h, a] {
                for &g in &played[t] {
                    if (day(cur[g]) - d).abs() < gap && !evict.contains(&g) {
                        evict.push(g);
                    }
                }
            }
            let v = venue_day(s);
            let room = cap[v] - at[v].iter().filter(|g| !evict.contains(g)).count() as i32;
            if cap[v] == 0 {
                continue;
            }
            if room <= 0 {
                if let Some(&g) = at[v].iter().find(|g| !evict.contains(g)) {
                    evict.push(g);
                }
            }
            // The home side within its most home matches, the away side keeping room for its
            // fewest: else one of its fixtures on that side makes way.
            let (played, cur) = (&played, &cur);
            let on_side = |t: usize, home: bool| {
                played[t].iter().filter(move |&&g| {
                    let x = cand.slots[cur[g]];
                    if home {
                        x.home == t
                    } else {
                        x.away == t
                    }
                })
            };
            let full = [
                (h, true, homes[h] >= range[h].1),
                (
                    a,
                    false,
                    on_side(a, false).count() as i64
                        >= cand.fixtures_of[a].len() as i64 - range[a].0,
                ),
            ];
            let mut stuck = false;
            for (t, home, full) in full {
                if full {
                    match on_side(t, home).copied().find(|g| !evict.contains(g)) {
                        Some(g) => evict.push(g),
                        None => stuck = true,
                    }
                }
            }
            if stuck {
                continue;
            }
            if first_rule {
                let ok = |t: usize| {
                    played[t].iter().all(|&g| {
                        evict.contains(&g)
                            || internal[g] == internal[f]
                            || (internal[f] && d < day(cur[g]))
                            || (!internal[f] && d > day(cur[g]))
                    })
                };
                if !ok(h) || !ok(a) {
                    continue;
                }
            }
            if evict.contains(&last_placed) {
                continue;
            }
            // Crowding: the teams' matches within two weeks; a home side short of its share
            // preferred; a club's own fixtures early when they come first; avoid dates last.
            let near = |t: usize| {
                played[t]
                    .iter()
                    .filter(|&&g| (day(cur[g]) - d).abs() < 14)
                    .count()
            };
            let avoid = [h, a]
                .iter()
                .filter(|&&t| league.teams[t].avoid.contains(&slot.date))
                .count();
            let early = if first_rule && internal[f] {
                20.0 * f64::from(d) / days as f64
            } else {
                0.0
            };
            let score = early
                + (near(h) + near(a)) as f64
                + 0.3 * (homes[h] - homes[a]) as f64
                + 100.0 * avoid as f64
                + rng.unit();
            let better = match &best {
                None => true,
                Some((e, b, _, _)) => (evict.len(), score) < (*e, *b),
            };
            if better {
                best = Some((evict.len(), score, s, evict));
            }
        }
        let (_, _, s, evict) = best?;
        for g in evict {
            let sg = cur[g];
            let slot = cand.slots[sg];
            at[venue_day(sg)].retain(|&x| x != g);
            played[slot.home].retain(|&x| x != g);
            played[slot.away].retain(|&x| x != g);
            homes[slot.home] -= 1;
            cur[g] = usize::MAX;
            queue.push_front(g);
        }
        let slot = cand.slots[s];
        at[venue_day(s)].push(f);
        played[slot.home].push(f);
        played[slot.away].push(f);
        homes[slot.home] += 1;
        cur[f] = s;
        last_placed = f;
    }
    Some(cur)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formulate;

    /// On the Sussex league (no compact rounds, so no Berger start) the construction places
    /// every fixture, and the independent checker finds its schedule valid.
    #[test]
    fn the_constructed_schedule_passes_the_checker() {
        let league = crate::model::parse_league(
            include_str!("../../instances/sussex-2026-7.toml"),
            "sussex.toml",
        )
        .unwrap();
        let cand = formulate::candidates(&league, &crate::model::Rerun::default());
        for seed in 0..3 {
            let cur = greedy(&league, &cand, seed).expect("a constructed schedule");
            assert_eq!(cur.len(), cand.fixtures.len());
            // Through the CSV, as the checker reads any list.
            let csv = super::super::schedule_of(&cand, &cur, &league).to_csv(&league);
            let parsed =
                crate::check::parse_fixtures(&league, csv.as_bytes(), "built.csv").unwrap();
            let report = crate::check::check(&league, &parsed);
            assert!(report.is_valid(), "seed {seed}: {:#?}", report.violations);
        }
    }
}
