//! Knockout cups (GTCL rule 7): a random draw into the KO grid with last year's finalists in
//! opposite halves (7.2), byes when the number of teams is not a power of two, and the
//! Scheveningen table of a cup match (7.3, colours 7.5).

/// A small deterministic generator, so a seed gives one draw.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// The KO grid: `size` positions (a power of two); position 2k meets 2k + 1 in the first round;
/// `None` is a bye. Positions below size / 2 are the top half.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draw {
    /// The draw's positions in bracket order: a team, or `None` for a bye.
    pub grid: Vec<Option<usize>>,
}

impl Draw {
    /// First-round pairs: (team, opponent or `None` for a bye).
    pub fn first_round(&self) -> Vec<(usize, Option<usize>)> {
        self.grid
            .chunks(2)
            .filter_map(|p| match (p[0], p[1]) {
                (Some(a), b) => Some((a, b)),
                (None, Some(b)) => Some((b, None)),
                (None, None) => None,
            })
            .collect()
    }

    /// The half (0 top, 1 bottom) a team is drawn in.
    pub fn half(&self, team: usize) -> Option<usize> {
        let pos = self.grid.iter().position(|&t| t == Some(team))?;
        Some(usize::from(pos >= self.grid.len() / 2))
    }
}

/// Draws `teams` (indices, at least 2) at random into a KO grid; `finalists` (at most two, both
/// among `teams`) go into opposite halves, so they can meet only in the final. Byes go to
/// random first-round matches, at most one per match.
pub fn draw(teams: &[usize], finalists: &[usize], seed: u64) -> Draw {
    let mut rng = Rng(seed);
    let n = teams.len();
    let size = n.next_power_of_two().max(2);
    let half = size / 2;
    let byes = size - n;
    // Which first-round matches have a bye (never two in one match: byes < size / 2 + 1).
    let mut matches: Vec<usize> = (0..half).collect();
    rng.shuffle(&mut matches);
    let mut grid: Vec<Option<usize>> = vec![None; size];
    let mut open: Vec<bool> = vec![true; size];
    for &m in matches.iter().take(byes) {
        // The bye takes one side of the match at random; the other side is for a team.
        let side = rng.below(2);
        open[2 * m + side] = false;
    }
    let mut rest: Vec<usize> = teams
        .iter()
        .copied()
        .filter(|t| !finalists.contains(t))
        .collect();
    rng.shuffle(&mut rest);
    // Finalists first: one in each half (which one goes top is random).
    let mut fin: Vec<usize> = finalists
        .iter()
        .copied()
        .filter(|t| teams.contains(t))
        .collect();
    fin.truncate(2);
    rng.shuffle(&mut fin);
    for (i, &f) in fin.iter().enumerate() {
        let range = if i == 0 { 0..half } else { half..size };
        let free: Vec<usize> = range.filter(|&p| open[p] && grid[p].is_none()).collect();
        let p = free[rng.below(free.len())];
        grid[p] = Some(f);
    }
    let mut next = rest.into_iter();
    for p in 0..size {
        if open[p] && grid[p].is_none() {
            grid[p] = next.next();
        }
    }
    Draw { grid }
}

/// Draws zoned entrants into a KO grid of `size` positions (a power of two, at least twice
/// the first-round matches the zones need): each zone takes a run of whole first-round matches,
/// so every first-round tie is within one zone; a zone's odd team, and any matches left over,
/// give byes, at most one per match. Zones and teams are placed at random.
pub fn draw_zoned(zones: &[Vec<usize>], size: usize, seed: u64) -> Draw {
    let mut rng = Rng(seed);
    let half = size / 2;
    // Matches per zone: at least half its teams (rounded up), at most one per team.
    let mut matches: Vec<usize> = zones.iter().map(|z| z.len().div_ceil(2)).collect();
    let mut spare = half.saturating_sub(matches.iter().sum());
    while spare > 0 {
        let open: Vec<usize> = (0..zones.len())
            .filter(|&z| matches[z] < zones[z].len())
            .collect();
        if open.is_empty() {
            break;
        }
        matches[open[rng.below(open.len())]] += 1;
        spare -= 1;
    }
    let mut order: Vec<usize> = (0..zones.len()).collect();
    rng.shuffle(&mut order);
    let mut grid: Vec<Option<usize>> = vec![None; size];
    let mut at = 0;
    for &z in &order {
        let m = matches[z];
        let mut teams = zones[z].clone();
        rng.shuffle(&mut teams);
        // Which of the zone's matches have a bye, and on which side.
        let byes = 2 * m - teams.len();
        let mut which: Vec<usize> = (0..m).collect();
        rng.shuffle(&mut which);
        let mut open = vec![true; 2 * m];
        for &k in which.iter().take(byes) {
            open[2 * k + rng.below(2)] = false;
        }
        let mut next = teams.into_iter();
        for (p, &free) in open.iter().enumerate() {
            if free {
                grid[at + p] = next.next();
            }
        }
        at += 2 * m;
    }
    Draw { grid }
}

/// The Scheveningen table of a match between two teams of `players` (GTCL: 4): each visitor meets
/// each home player, one round each. Per round, (home board, visitor board, home has White),
/// the home team Black on all boards in the odd rounds and White in the even ones (rule 7.5).
pub fn scheveningen(players: usize) -> Vec<Vec<(usize, usize, bool)>> {
    (1..=players)
        .map(|r| {
            (1..=players)
                .map(|h| (h, (h + r - 2) % players + 1, r % 2 == 0))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scheveningen_every_pair_once_colours_by_round() {
        let t = scheveningen(4);
        let mut met = std::collections::BTreeSet::new();
        for (r, round) in t.iter().enumerate() {
            let visitors: std::collections::BTreeSet<usize> = round.iter().map(|x| x.1).collect();
            assert_eq!(visitors.len(), 4, "each visitor plays once a round");
            for &(h, v, white) in round {
                assert!(met.insert((h, v)));
                assert_eq!(white, (r + 1) % 2 == 0, "home White only in even rounds");
            }
        }
        assert_eq!(met.len(), 16);
    }
}
