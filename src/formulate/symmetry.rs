//! Twin teams: two teams of one club, division and venue that the league tells apart by name
//! only (same nights, dates, start and avoided dates, no fixed, excluded or neutral fixture,
//! the same cups). Swapping them maps every schedule to one with the same cost, so a search
//! that proves a schedule optimal explores each schedule twice. One row per twin pair keeps
//! one of each mirrored pair: with both fixtures between them (a double round robin) the one
//! `a` hosts comes first; with one (a single round robin) `a` hosts it. Twin pairs are
//! disjoint, so the rows of different pairs never contradict each other: mirroring one pair
//! leaves the fixtures between the other pair where they were.
//!
//! The four-team teaching league has one pair (Ashby A and Ashby B).

use super::{Candidates, Mip};
use crate::model::League;
use chrono::{Datelike, NaiveDate};
use good_lp::Expression;
use std::collections::BTreeMap;

/// One pair of twins and what swapping them does to the slots.
pub struct Twin {
    /// The first twin (the lower team index).
    pub a: usize,
    /// The second twin.
    pub b: usize,
    /// Per slot: its mirror image (the same date, the twins swapped).
    pub image: Vec<usize>,
    /// Slots of the fixtures between the twins: (the first of them, the second), as the row
    /// orders them.
    first: Vec<usize>,
    second: Vec<usize>,
    /// Whether the row compares dates (both fixtures) or sides (one).
    by_date: bool,
}

/// Whether the league's own data names the team outside `[[team]]`.
fn named_elsewhere(league: &League, t: usize) -> bool {
    league.fixed.iter().any(|f| f.home == t || f.away == t)
        || league.excluded.iter().any(|e| e.home == t || e.away == t)
        || league.neutral.keys().any(|&(h, a)| h == t || a == t)
}

fn alike(league: &League, a: usize, b: usize) -> bool {
    let (x, y) = (&league.teams[a], &league.teams[b]);
    x.club == y.club
        && x.division == y.division
        && x.venue == y.venue
        && x.hosting == y.hosting
        && x.start == y.start
        && x.unavailable == y.unavailable
        && x.unavailable_away == y.unavailable_away
        && x.avoid == y.avoid
        && !named_elsewhere(league, a)
        && !named_elsewhere(league, b)
        && league
            .cups
            .iter()
            .all(|c| c.teams.contains(&a) == c.teams.contains(&b))
}

/// The twin pairs of a league (disjoint), each checked on the candidate slots themselves:
/// every slot's mirror must be a slot at the same venue.
pub fn twins(league: &League, cand: &Candidates) -> Vec<Twin> {
    if league.changes.is_some() || cand.rerun.from.is_some() || !cand.rerun.history.is_empty() {
        return Vec::new();
    }
    let key = |s: usize| {
        let sl = &cand.slots[s];
        (sl.home, sl.away, sl.date)
    };
    let index: BTreeMap<(usize, usize, NaiveDate), usize> =
        (0..cand.slots.len()).map(|s| (key(s), s)).collect();
    let mut taken = vec![false; league.teams.len()];
    let mut out = Vec::new();
    for a in 0..league.teams.len() {
        for b in a + 1..league.teams.len() {
            if taken[a] || taken[b] || !alike(league, a, b) {
                continue;
            }
            let swap = |t: usize| match t {
                t if t == a => b,
                t if t == b => a,
                t => t,
            };
            let image: Option<Vec<usize>> = (0..cand.slots.len())
                .map(|s| {
                    let (h, w, d) = key(s);
                    let m = *index.get(&(swap(h), swap(w), d))?;
                    (league.fixture_venue(h, w) == league.fixture_venue(swap(h), swap(w)))
                        .then_some(m)
                })
                .collect();
            let Some(image) = image else { continue };
            let Some(twin) = twin_of(cand, a, b, image) else {
                continue;
            };
            if twin.first.is_empty() || twin.second.is_empty() {
                continue;
            }
            taken[a] = true;
            taken[b] = true;
            out.push(twin);
        }
    }
    out
}

/// Teams `a` and `b` as twins (`image`: each slot's mirror): the slots in which each hosts
/// their fixtures, or `None` when they do not meet once or twice.
fn twin_of(cand: &Candidates, a: usize, b: usize, image: Vec<usize>) -> Option<Twin> {
    let between: Vec<usize> = cand.fixtures_of[a]
        .iter()
        .copied()
        .filter(|&f| {
            let fx = &cand.fixtures[f];
            (fx.a == a && fx.b == b) || (fx.a == b && fx.b == a)
        })
        .collect();
    let hosted_by = |t: usize, f: usize| -> Vec<usize> {
        cand.by_fixture[f]
            .iter()
            .copied()
            .filter(|&s| cand.slots[s].home == t)
            .collect()
    };
    Some(match between.as_slice() {
        // Both fixtures: the one `a` hosts first.
        [f, g] => {
            let (fa, fb) = match cand.fixtures[*f].a == a {
                true => (*f, *g),
                false => (*g, *f),
            };
            Twin {
                a,
                b,
                image,
                first: hosted_by(a, fa),
                second: hosted_by(b, fb),
                by_date: true,
            }
        }
        // One fixture: `a` hosts it.
        [f] => Twin {
            a,
            b,
            image,
            first: hosted_by(a, *f),
            second: hosted_by(b, *f),
            by_date: false,
        },
        _ => return None,
    })
}

impl Twin {
    /// Adds the row that keeps one of each mirrored pair of schedules.
    pub fn add_row(&self, cand: &Candidates, mip: &mut Mip) {
        if self.by_date {
            let day = |s: usize| cand.slots[s].date.num_days_from_ce() as f64;
            let mut e = Expression::default();
            for &s in &self.first {
                e += day(s) * mip.x[s];
            }
            for &s in &self.second {
                e -= day(s) * mip.x[s];
            }
            mip.constraints.push(e.leq(-1.0));
        } else {
            let e = mip.sum(self.first.iter().copied());
            mip.constraints.push(e.eq(1.0));
        }
    }

    /// Whether a schedule (a slot per fixture) keeps the row.
    pub fn keeps(&self, cand: &Candidates, chosen: &[usize]) -> bool {
        let pick = |list: &[usize]| chosen.iter().copied().find(|s| list.contains(s));
        match (pick(&self.first), pick(&self.second)) {
            (Some(f), Some(s)) if self.by_date => cand.slots[f].date < cand.slots[s].date,
            (Some(_), _) => !self.by_date,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formulate::candidates;
    use crate::model::{read_league, FixtureList, Match, Rerun};

    fn example(name: &str) -> League {
        let path = format!("{}/instances/examples/{name}", env!("CARGO_MANIFEST_DIR"));
        read_league(std::path::Path::new(&path)).unwrap()
    }

    fn names(league: &League, twins: &[Twin]) -> Vec<(String, String)> {
        twins
            .iter()
            .map(|t| {
                (
                    league.teams[t.a].name.clone(),
                    league.teams[t.b].name.clone(),
                )
            })
            .collect()
    }

    /// Teams alike in every rule are twins; a team with its own unavailable or avoided dates
    /// is not (Barton A and Barton B of the teaching league).
    #[test]
    fn twins_are_the_teams_the_league_tells_apart_by_name_only() {
        let four = example("four-teams-double.toml");
        let cand = candidates(&four, &Rerun::default());
        let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(
            names(&four, &twins(&four, &cand)),
            vec![pair("Ashby A", "Ashby B")]
        );
        let darts = example("darts-weekly.toml");
        let cand = candidates(&darts, &Rerun::default());
        assert_eq!(
            names(&darts, &twins(&darts, &cand)),
            vec![
                pair("Anchor Arrows", "Anchor Flights"),
                pair("Crown Jewels", "Crown Princes")
            ]
        );
        // A rerun keeps its played matches, which tell the twins apart: no rows.
        let rerun = Rerun {
            from: Some(four.start),
            ..Default::default()
        };
        assert!(twins(&four, &candidates(&four, &rerun)).is_empty());
    }

    /// The mirror of a valid schedule is valid with the same objective (the checker's figures),
    /// and the row keeps exactly one of the two.
    #[test]
    fn the_mirror_of_a_schedule_is_as_good_and_the_row_keeps_one_of_them() {
        let league = example("four-teams-double.toml");
        let cand = candidates(&league, &Rerun::default());
        let twins = twins(&league, &cand);
        let twin = &twins[0];
        let opts = crate::solve::Options {
            time_limit: 1.0,
            threads: 1,
            ..Default::default()
        };
        let list = crate::solve::solve(&league, &opts)
            .unwrap()
            .schedule
            .unwrap();
        let chosen: Vec<usize> = list
            .matches
            .iter()
            .map(|m| {
                (0..cand.slots.len())
                    .find(|&s| {
                        let sl = &cand.slots[s];
                        (sl.home, sl.away, sl.date) == (m.home, m.away, m.date)
                    })
                    .unwrap()
            })
            .collect();
        let mirror: Vec<usize> = chosen.iter().map(|&s| twin.image[s]).collect();
        assert_ne!(chosen, mirror);
        let report = |slots: &[usize]| {
            let matches = slots
                .iter()
                .map(|&s| Match {
                    date: cand.slots[s].date,
                    division: 0,
                    home: cand.slots[s].home,
                    away: cand.slots[s].away,
                })
                .collect();
            let csv = FixtureList::new(matches, &league).to_csv(&league);
            let list = crate::check::parse_fixtures(&league, csv.as_bytes(), "x.csv").unwrap();
            crate::check::check(&league, &list)
        };
        let (a, b) = (report(&chosen), report(&mirror));
        assert!(a.is_valid() && b.is_valid());
        assert!((a.quality.objective - b.quality.objective).abs() < 1e-9);
        assert_ne!(twin.keeps(&cand, &chosen), twin.keeps(&cand, &mirror));
    }
}
