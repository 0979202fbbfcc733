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

/// A construction in progress: the slot of each fixture (`usize::MAX` while unplaced) and
/// what each venue-day, team and home side holds.
struct Placing<'a> {
    league: &'a League,
    cand: &'a Candidates,
    days: usize,
    gap: i32,
    first_rule: bool,
    internal: Vec<bool>,
    cap: Vec<i32>,
    range: Vec<(i64, i64)>,
    at: Vec<Vec<usize>>,
    played: Vec<Vec<usize>>,
    homes: Vec<i64>,
    cur: Vec<usize>,
}

impl<'a> Placing<'a> {
    fn new(league: &'a League, cand: &'a Candidates) -> Self {
        let days = ((league.end - league.start).num_days() + 1).max(1) as usize;
        let teams = league.teams.len();
        let n = cand.fixtures.len();
        Placing {
            league,
            cand,
            days,
            gap: league.rules.min_days_between.max(1) as i32,
            first_rule: league.rules.same_club_first,
            internal: (0..n).map(|f| cand.is_internal(league, f)).collect(),
            cap: super::local::capacities(league, days),
            range: (0..teams).map(|t| cand.home_range(league, t)).collect(),
            at: vec![Vec::new(); league.venues.len() * days],
            played: vec![Vec::new(); teams],
            homes: vec![0i64; teams],
            cur: vec![usize::MAX; n],
        }
    }

    fn day(&self, s: usize) -> i32 {
        (self.cand.slots[s].date - self.league.start).num_days() as i32
    }

    fn venue_day(&self, s: usize) -> usize {
        let slot = self.cand.slots[s];
        self.league.fixture_venue(slot.home, slot.away) * self.days + self.day(s) as usize
    }

    /// Team `t`'s placed fixtures on its home (or away) side.
    fn on_side(&self, t: usize, home: bool) -> impl Iterator<Item = &usize> + '_ {
        self.played[t].iter().filter(move |&&g| {
            let x = self.cand.slots[self.cur[g]];
            if home {
                x.home == t
            } else {
                x.away == t
            }
        })
    }

    /// The placed fixtures that slot `s` of fixture `f` would have to evict; `None` when the
    /// slot cannot take it whatever is evicted.
    fn evictions(&self, f: usize, s: usize) -> Option<Vec<usize>> {
        let slot = self.cand.slots[s];
        let (h, a, d) = (slot.home, slot.away, self.day(s));
        // The teams' matches too close to this date.
        let mut evict: Vec<usize> = Vec::new();
        for t in [h, a] {
            for &g in &self.played[t] {
                if (self.day(self.cur[g]) - d).abs() < self.gap && !evict.contains(&g) {
                    evict.push(g);
                }
            }
        }
        let v = self.venue_day(s);
        if self.cap[v] == 0 {
            return None;
        }
        let room = self.cap[v] - self.at[v].iter().filter(|g| !evict.contains(g)).count() as i32;
        if room <= 0 {
            if let Some(&g) = self.at[v].iter().find(|g| !evict.contains(g)) {
                evict.push(g);
            }
        }
        // The home side within its most home matches, the away side keeping room for its
        // fewest: else one of its fixtures on that side makes way.
        let full = [
            (h, true, self.homes[h] >= self.range[h].1),
            (
                a,
                false,
                self.on_side(a, false).count() as i64
                    >= self.cand.fixtures_of[a].len() as i64 - self.range[a].0,
            ),
        ];
        for (t, home, full) in full {
            if full {
                let g = self
                    .on_side(t, home)
                    .copied()
                    .find(|g| !evict.contains(g))?;
                evict.push(g);
            }
        }
        if self.first_rule {
            let internal = &self.internal;
            let ok = |t: usize| {
                self.played[t].iter().all(|&g| {
                    evict.contains(&g)
                        || internal[g] == internal[f]
                        || (internal[f] && d < self.day(self.cur[g]))
                        || (!internal[f] && d > self.day(self.cur[g]))
                })
            };
            if !ok(h) || !ok(a) {
                return None;
            }
        }
        Some(evict)
    }

    /// How crowded slot `s` leaves fixture `f`'s teams (lower is better): their matches within
    /// two weeks; a home side short of its share preferred; a club's own fixtures early when
    /// they come first; avoid dates last; ties at random.
    fn crowding(&self, f: usize, s: usize, rng: &mut Rng) -> f64 {
        let slot = self.cand.slots[s];
        let (h, a, d) = (slot.home, slot.away, self.day(s));
        let near = |t: usize| {
            self.played[t]
                .iter()
                .filter(|&&g| (self.day(self.cur[g]) - d).abs() < 14)
                .count()
        };
        let avoid = [h, a]
            .iter()
            .filter(|&&t| self.league.teams[t].avoid.contains(&slot.date))
            .count();
        let early = if self.first_rule && self.internal[f] {
            20.0 * f64::from(d) / self.days as f64
        } else {
            0.0
        };
        early
            + (near(h) + near(a)) as f64
            + 0.3 * (self.homes[h] - self.homes[a]) as f64
            + 100.0 * avoid as f64
            + rng.unit()
    }

    fn remove(&mut self, g: usize) {
        let sg = self.cur[g];
        let slot = self.cand.slots[sg];
        let v = self.venue_day(sg);
        self.at[v].retain(|&x| x != g);
        self.played[slot.home].retain(|&x| x != g);
        self.played[slot.away].retain(|&x| x != g);
        self.homes[slot.home] -= 1;
        self.cur[g] = usize::MAX;
    }

    fn place(&mut self, f: usize, s: usize) {
        let slot = self.cand.slots[s];
        let v = self.venue_day(s);
        self.at[v].push(f);
        self.played[slot.home].push(f);
        self.played[slot.away].push(f);
        self.homes[slot.home] += 1;
        self.cur[f] = s;
    }
}

fn attempt(league: &League, cand: &Candidates, seed: u64) -> Option<Vec<usize>> {
    let mut rng = Rng::new(seed);
    let mut p = Placing::new(league, cand);
    let n = cand.fixtures.len();
    // Fixtures with the fewest slots first (a club's own fixtures first when they must be
    // played first), ties at random; an evicted fixture goes back to the front.
    let mut order: Vec<(bool, usize, u64, usize)> = (0..n)
        .map(|f| {
            (
                !(p.first_rule && p.internal[f]),
                cand.by_fixture[f].len(),
                rng.next(),
                f,
            )
        })
        .collect();
    order.sort_unstable();
    let mut queue: std::collections::VecDeque<usize> = order.iter().map(|o| o.3).collect();
    let mut steps = 0usize;
    let mut last_placed = usize::MAX;
    while let Some(f) = queue.pop_front() {
        steps += 1;
        if steps > 30 * n {
            return None;
        }
        let mut best: Option<(usize, f64, usize, Vec<usize>)> = None;
        for &s in &cand.by_fixture[f] {
            let Some(evict) = p.evictions(f, s) else {
                continue;
            };
            if evict.contains(&last_placed) {
                continue;
            }
            let score = p.crowding(f, s, &mut rng);
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
            p.remove(g);
            queue.push_front(g);
        }
        p.place(f, s);
        last_placed = f;
    }
    Some(p.cur)
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
