//! A compact double round robin as a timetable by rounds: each team's opponent and venue in
//! each round, changed only by the moves that keep it a double round robin, each change
//! logged so a move can be undone.

use crate::solve::Rng;

/// One cell as it was before a move: (team × rounds + round, opponent, at home).
pub(super) type Was = (usize, u16, bool);

/// The timetable: `opp[t * rounds + r]` is team t's opponent in round r, `home` whether t is
/// at home there.
#[derive(Clone)]
pub(super) struct Table {
    pub(super) teams: usize,
    pub(super) rounds: usize,
    pub(super) opp: Vec<u16>,
    pub(super) home: Vec<bool>,
    /// The cells changed since the log was last cleared, oldest first.
    pub(super) log: Vec<Was>,
}

impl Table {
    /// A double round robin with the fewest breaks a mirrored one can have (3n − 6): the
    /// circle method's rounds with its canonical venues, the second half the first's mirror
    /// with venues swapped; only the teams' places, and all venues at once, are drawn at random.
    pub(super) fn random(teams: usize, rng: &mut Rng) -> Table {
        let half = teams - 1;
        let rounds = 2 * half;
        let mut label: Vec<usize> = (0..teams).collect();
        shuffle(&mut label, rng);
        let flip = rng.below(2) == 1;
        let mut t = Table {
            teams,
            rounds,
            opp: vec![0; teams * rounds],
            home: vec![false; teams * rounds],
            log: Vec::new(),
        };
        for k in 0..half {
            for (a, b, a_home) in circle(teams, k) {
                let (a, b) = (label[a], label[b]);
                t.put(a, b, k, a_home != flip);
                t.put(a, b, k + half, a_home == flip);
            }
        }
        t.log.clear();
        t
    }

    /// A timetable from games (home, away, round); None unless it is a double round robin.
    pub(super) fn from_games(teams: usize, games: &[(usize, usize, usize)]) -> Option<Table> {
        let rounds = 2 * (teams - 1);
        let mut t = Table {
            teams,
            rounds,
            opp: vec![u16::MAX; teams * rounds],
            home: vec![false; teams * rounds],
            log: Vec::new(),
        };
        for &(h, a, r) in games {
            if h >= teams || a >= teams || r >= rounds || h == a {
                return None;
            }
            t.put(h, a, r, true);
        }
        let consistent = (0..teams).all(|a| {
            (0..rounds).all(|r| {
                let (b, h) = (t.opp[a * rounds + r], t.home[a * rounds + r]);
                b != u16::MAX
                    && t.opp[b as usize * rounds + r] as usize == a
                    && t.home[b as usize * rounds + r] != h
            })
        });
        t.log.clear();
        (consistent && t.legs_valid()).then_some(t)
    }

    /// Every pair meets twice, once at each venue.
    fn legs_valid(&self) -> bool {
        (0..self.teams).all(|a| {
            (0..self.teams).filter(|&b| b != a).all(|b| {
                let rs = self.rounds_of(a, b);
                rs.len() == 2
                    && self.home[a * self.rounds + rs[0]] != self.home[a * self.rounds + rs[1]]
            })
        })
    }

    /// The rounds in which a meets b, in order.
    pub(super) fn rounds_of(&self, a: usize, b: usize) -> Vec<usize> {
        (0..self.rounds)
            .filter(|&r| self.opp[a * self.rounds + r] as usize == b)
            .collect()
    }

    /// The games as (home, away, round).
    pub(super) fn games(&self) -> Vec<(usize, usize, usize)> {
        let mut out = Vec::with_capacity(self.teams * self.rounds / 2);
        for t in 0..self.teams {
            for r in 0..self.rounds {
                if self.home[t * self.rounds + r] {
                    out.push((t, self.opp[t * self.rounds + r] as usize, r));
                }
            }
        }
        out
    }

    fn set(&mut self, t: usize, r: usize, opp: usize, home: bool) {
        let c = t * self.rounds + r;
        self.log.push((c, self.opp[c], self.home[c]));
        self.opp[c] = opp as u16;
        self.home[c] = home;
    }

    /// a meets b in round r, a at home when `a_home`.
    fn put(&mut self, a: usize, b: usize, r: usize, a_home: bool) {
        self.set(a, r, b, a_home);
        self.set(b, r, a, !a_home);
    }

    /// Undoes every logged change, newest first, and clears the log.
    pub(super) fn undo(&mut self) {
        while let Some((c, o, h)) = self.log.pop() {
            self.opp[c] = o;
            self.home[c] = h;
        }
    }

    /// Team t's opponent in round r, and whether it is at home.
    pub(super) fn cell(&self, t: usize, r: usize) -> (usize, bool) {
        let c = t * self.rounds + r;
        (self.opp[c] as usize, self.home[c])
    }

    /// Both meetings of i and j change venue.
    pub(super) fn swap_homes(&mut self, i: usize, j: usize) {
        for r in self.rounds_of(i, j) {
            let (_, h) = self.cell(i, r);
            self.put(i, j, r, !h);
        }
    }

    /// Rounds r1 and r2 change places.
    pub(super) fn swap_rounds(&mut self, r1: usize, r2: usize) {
        for t in 0..self.teams {
            let (a, b) = (self.cell(t, r1), self.cell(t, r2));
            self.set(t, r1, b.0, b.1);
            self.set(t, r2, a.0, a.1);
        }
    }

    /// Teams i and j exchange their whole timetables (their own meetings change venue).
    pub(super) fn swap_teams(&mut self, i: usize, j: usize) {
        for r in 0..self.rounds {
            self.exchange(i, j, r);
        }
    }

    /// In round r, i takes j's game and j takes i's; when they meet, the venue changes.
    fn exchange(&mut self, i: usize, j: usize, r: usize) {
        let ((a, hi), (b, hj)) = (self.cell(i, r), self.cell(j, r));
        if a == j {
            self.put(i, j, r, !hi);
            return;
        }
        self.put(i, b, r, hj);
        self.put(j, a, r, hi);
    }

    /// Team t's games in rounds r1 and r2 change places, with every game of the chain of
    /// teams that must follow (the cycle through t of the two rounds' games).
    pub(super) fn partial_swap_rounds(&mut self, t: usize, r1: usize, r2: usize) {
        let mut chain = vec![t];
        let mut x = t;
        loop {
            let y = self.cell(x, r1).0;
            chain.push(y);
            let z = self.cell(y, r2).0;
            if z == t {
                break;
            }
            chain.push(z);
            x = z;
        }
        for &u in &chain {
            let (a, b) = (self.cell(u, r1), self.cell(u, r2));
            self.set(u, r1, b.0, b.1);
            self.set(u, r2, a.0, a.1);
        }
    }

    /// i and j exchange their games in round r, and in every round that must follow for both
    /// to keep meeting each opponent once at home and once away. False (nothing changed) when
    /// i meets j in r. When `phased`, the rounds that follow are those of r's half in which
    /// both keep meeting each opponent once, and a pair left with both meetings at one venue
    /// changes the venue of its meeting in that half.
    pub(super) fn partial_swap_teams(
        &mut self,
        i: usize,
        j: usize,
        r: usize,
        phased: bool,
    ) -> bool {
        if self.cell(i, r).0 == j {
            return false;
        }
        let half = self.rounds / 2;
        let span = if r < half { 0..half } else { half..self.rounds };
        let mut chain = vec![r];
        let mut cur = r;
        loop {
            let want = self.cell(j, cur);
            let same = |q: usize| {
                let got = self.cell(i, q);
                got.0 == want.0 && (phased || got.1 == want.1)
            };
            let next = if phased {
                span.clone().find(|&q| same(q))
            } else {
                (0..self.rounds).find(|&q| same(q))
            };
            let next = next.expect("a double round robin has every game once");
            if next == r {
                break;
            }
            chain.push(next);
            cur = next;
        }
        for q in chain {
            self.exchange(i, j, q);
        }
        if phased {
            for x in (0..self.teams).filter(|&x| x != i && x != j) {
                for t in [i, j] {
                    let legs = self.rounds_of(t, x);
                    if let [a, b] = legs[..] {
                        let h = self.cell(t, a).1;
                        if h == self.cell(t, b).1 {
                            let inside = if span.contains(&a) { a } else { b };
                            self.put(t, x, inside, !h);
                        }
                    }
                }
            }
        }
        true
    }
}

/// Round k of the circle method for an even number of teams (team n−1 fixed, the rest
/// turning), each game with whether its first team is at home: the canonical venues, which
/// give n − 2 breaks in a single round robin.
fn circle(teams: usize, k: usize) -> Vec<(usize, usize, bool)> {
    let m = teams - 1;
    let mut out = vec![(m, k, k.is_multiple_of(2))];
    for d in 1..teams / 2 {
        out.push(((k + d) % m, (k + m - d) % m, d % 2 == 1));
    }
    out
}

/// Fisher–Yates.
pub(super) fn shuffle<T>(v: &mut [T], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether every pair meets once in each half.
    fn phased(t: &Table) -> bool {
        (0..t.teams).all(|a| {
            (0..t.teams).filter(|&b| b != a).all(|b| {
                t.rounds_of(a, b)
                    .iter()
                    .filter(|&&r| r < t.rounds / 2)
                    .count()
                    == 1
            })
        })
    }

    #[test]
    fn the_first_timetable_has_the_fewest_breaks_of_a_mirrored_one() {
        for n in [4, 6, 16, 20] {
            let t = Table::random(n, &mut Rng::new(n as u64));
            assert!(Table::from_games(n, &t.games()).is_some());
            assert!(phased(&t));
            let breaks = (0..n)
                .flat_map(|a| (1..t.rounds).map(move |r| (a, r)))
                .filter(|&(a, r)| t.home[a * t.rounds + r] == t.home[a * t.rounds + r - 1])
                .count();
            assert_eq!(breaks, 3 * n - 6, "{n} teams");
        }
    }

    /// Every move keeps a double round robin, and a phased one phased; undo restores it.
    #[test]
    fn every_move_keeps_a_double_round_robin() {
        let mut rng = Rng::new(7);
        let n = 8;
        let mut t = Table::random(n, &mut rng);
        let half = t.rounds / 2;
        for k in 0..4000 {
            let before = t.games();
            let (i, j) = (rng.below(n), rng.below(n));
            let (r1, r2) = (rng.below(half), rng.below(half));
            let changed = match k % 5 {
                0 => {
                    i != j && {
                        t.swap_homes(i, j);
                        true
                    }
                }
                1 => {
                    r1 != r2 && {
                        t.swap_rounds(r1 + half, r2 + half);
                        true
                    }
                }
                2 => {
                    i != j && {
                        t.swap_teams(i, j);
                        true
                    }
                }
                3 => {
                    r1 != r2 && {
                        t.partial_swap_rounds(i, r1, r2);
                        true
                    }
                }
                _ => i != j && t.partial_swap_teams(i, j, rng.below(t.rounds), true),
            };
            assert!(Table::from_games(n, &t.games()).is_some(), "move {k}");
            assert!(phased(&t), "move {k} broke the phases");
            if k % 3 == 0 {
                t.undo();
                assert_eq!(t.games(), before);
            } else {
                t.log.clear();
            }
            let _ = changed;
        }
    }

    /// Unphased, team swaps across the halves are allowed and still give a double round robin.
    #[test]
    fn partial_team_swaps_across_halves_keep_a_double_round_robin() {
        let mut rng = Rng::new(3);
        let n = 10;
        let mut t = Table::random(n, &mut rng);
        let mut crossed = 0;
        for _ in 0..2000 {
            let (i, j) = (rng.below(n), rng.below(n));
            if i != j && t.partial_swap_teams(i, j, rng.below(t.rounds), false) {
                crossed += usize::from(!phased(&t));
                assert!(Table::from_games(n, &t.games()).is_some());
            }
            t.log.clear();
        }
        assert!(crossed > 0, "no swap left the phases");
    }
}
