//! 4NCL pools (rule 6.3) checked from the list: in a `format = "pools"` division of n teams
//! (a multiple of four) with its round dates, the first n/2 - 1 rounds are played within two
//! preliminary pools of n/2 teams (`[4NCL pools]`), and the later rounds pair each team with
//! teams of the other preliminary pool, within final pools of n/2 (`[4NCL split]`). The pools
//! are read from the list itself: the teams a team has met, directly or through others.

use super::{Checker, Row};
use fixtures_model::TeamId;
use std::collections::BTreeMap;

/// Teams joined by matches; each group's size kept at its root.
struct Groups {
    parent: BTreeMap<TeamId, TeamId>,
    size: BTreeMap<TeamId, usize>,
}

impl Groups {
    fn new() -> Self {
        Groups {
            parent: BTreeMap::new(),
            size: BTreeMap::new(),
        }
    }

    fn root(&mut self, t: TeamId) -> TeamId {
        let mut r = t;
        while let Some(&p) = self.parent.get(&r).filter(|&&p| p != r) {
            r = p;
        }
        self.parent.insert(t, r);
        r
    }

    /// Joins the groups of `a` and `b`; the size of the joined group.
    fn join(&mut self, a: TeamId, b: TeamId) -> usize {
        let (ra, rb) = (self.root(a), self.root(b));
        let sa = *self.size.get(&ra).unwrap_or(&1);
        if ra == rb {
            return sa;
        }
        let sb = *self.size.get(&rb).unwrap_or(&1);
        self.parent.insert(rb, ra);
        self.size.insert(ra, sa + sb);
        sa + sb
    }
}

/// Checks every pools division of the league against the list's rows.
pub(super) fn check(c: &mut Checker<'_>, rows: &[Row]) {
    let lg = c.league;
    for (d, div) in lg.divisions.iter().enumerate() {
        let n = div.teams.len();
        let Some(dates) = div.rounds.as_ref().filter(|_| div.pools) else {
            continue;
        };
        if n < 8 || !n.is_multiple_of(4) || dates.len() < n / 2 - 1 {
            continue;
        }
        let last_prelim = dates[n / 2 - 2];
        let mut of: Vec<&Row> = rows
            .iter()
            .filter(|r| lg.teams[r.home].division == d)
            .collect();
        of.sort_by_key(|r| r.date);
        let mut prelim = Groups::new();
        let mut finals = Groups::new();
        for r in &of {
            if r.date <= last_prelim {
                if prelim.join(r.home, r.away) > n / 2 {
                    let detail = format!(
                        "the first {} rounds are played within two pools of {} teams: this match joins the pools",
                        n / 2 - 1,
                        n / 2
                    );
                    c.push("4NCL pools", r, detail);
                }
            } else {
                if prelim.root(r.home) == prelim.root(r.away) {
                    let detail = format!(
                        "after round {} each team meets the teams of the other preliminary pool",
                        n / 2 - 1
                    );
                    c.push("4NCL split", r, detail);
                }
                if finals.join(r.home, r.away) > n / 2 {
                    let detail = format!(
                        "the final rounds are played within a championship and a relegation pool of {} teams each",
                        n / 2
                    );
                    c.push("4NCL split", r, detail);
                }
            }
        }
    }
}
