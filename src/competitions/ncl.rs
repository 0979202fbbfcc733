//! The 4NCL's Divisions 1 and 2 (rule 6.3): sixteen teams in two preliminary pools of eight of
//! broadly equal strength play rounds 1–7; then the top four of each pool form the championship
//! pool and the bottom four the relegation pool, carrying forward only the results between teams
//! of the same final pool, and play rounds 8–11 against the four teams of their final pool they
//! have not met.

use super::berger;
use super::swiss::Played;
use crate::model::TieBreak;

/// One scheduled match: (round from 1, first-named team, second-named team).
pub type Match = (u32, usize, usize);

/// Two pools of equal size (`teams` even) with rating sums as close as the search finds:
/// snake seeding (1, 4, 5, 8, ... against 2, 3, 6, 7, ...), then pairwise swaps while they
/// bring the sums closer. Teams of one club go to different pools where a swap allows it.
pub fn pools(teams: &[usize], rating: &[f64], club: &[usize]) -> (Vec<usize>, Vec<usize>) {
    let mut order: Vec<usize> = teams.to_vec();
    order.sort_by(|&a, &b| rating[b].total_cmp(&rating[a]).then(a.cmp(&b)));
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for (i, &t) in order.iter().enumerate() {
        if matches!(i % 4, 0 | 3) {
            a.push(t);
        } else {
            b.push(t);
        }
    }
    let cost = |a: &[usize], b: &[usize]| {
        let sum = |p: &[usize]| p.iter().map(|&t| rating[t]).sum::<f64>();
        let clash = |p: &[usize]| {
            let mut n = 0;
            for (i, &x) in p.iter().enumerate() {
                n += p[i + 1..].iter().filter(|&&y| club[x] == club[y]).count();
            }
            n as f64
        };
        (sum(a) - sum(b)).abs() + 1e6 * (clash(a) + clash(b))
    };
    loop {
        let now = cost(&a, &b);
        let mut best: Option<(f64, usize, usize)> = None;
        for i in 0..a.len() {
            for j in 0..b.len() {
                std::mem::swap(&mut a[i], &mut b[j]);
                let c = cost(&a, &b);
                std::mem::swap(&mut a[i], &mut b[j]);
                if c < now - 1e-9 && best.is_none_or(|x| c < x.0) {
                    best = Some((c, i, j));
                }
            }
        }
        match best {
            Some((_, i, j)) => std::mem::swap(&mut a[i], &mut b[j]),
            None => break,
        }
    }
    a.sort();
    b.sort();
    (a, b)
}

/// Rounds 1 ... n - 1 of a pool from the Berger table (first-named = White on board 1).
pub fn pool_rounds(pool: &[usize], first_round: u32) -> Vec<Match> {
    let mut out = Vec::new();
    for (r, round) in berger::table(pool.len()).iter().enumerate() {
        for &(w, b) in round {
            if let (Some(&x), Some(&y)) = (pool.get(w - 1), pool.get(b - 1)) {
                out.push((first_round + r as u32, x, y));
            }
        }
    }
    out
}

/// The final pools after the preliminary rounds.
#[derive(Debug, Clone, PartialEq)]
pub struct Split {
    /// Championship (top four of each preliminary pool) and relegation (bottom four).
    pub championship: Vec<usize>,
    /// The relegation pool (bottom four of each preliminary pool).
    pub relegation: Vec<usize>,
    /// Results carried forward: those between teams of the same final pool.
    pub carried: Vec<Played>,
    /// Rounds 8–11.
    pub rounds: Vec<Match>,
}

/// Places of a pool by match points (less `off[t]` deducted from team t, rule 10.1), then game
/// points (rule 12.2 a), then the results of the
/// matches between the teams still tying (12.2 b: match points among them, then game points),
/// then team index (12.2's board count, board elimination and coin toss need board results
/// this program does not have).
pub fn placed(pool: &[usize], played: &[Played], teams: usize, off: &[u32]) -> Vec<usize> {
    let within: Vec<Played> = played
        .iter()
        .filter(|m| pool.contains(&m.first) && pool.contains(&m.second))
        .cloned()
        .collect();
    let rule = [TieBreak::GamePoints, TieBreak::HeadToHead];
    super::table::order(pool, teams, (&within, &[], off), &rule, &|a, b| a.cmp(&b))
}

/// The split after the preliminary rounds (`played`: their results; `off`: match points
/// deducted for defaults, by team, 4NCL rule 10.1), and rounds
/// `first_round` ... `first_round + 3` in each final pool: each team meets the four it has not
/// played (those from the other preliminary pool), first-named alternating by round. A pool a
/// withdrawal left short sends its top four up all the same, and the rest down; `lean` (each
/// team's times first-named less times second-named so far, as `leans` counts them) keeps the
/// teams level when a final pool's two halves differ in size.
pub fn split(
    (pool_a, pool_b): (&[usize], &[usize]),
    (played, off): (&[Played], &[u32]),
    teams: usize,
    first_round: u32,
    lean: &[i32],
) -> Split {
    let a = placed(pool_a, played, teams, off);
    let b = placed(pool_b, played, teams, off);
    let half = a.len().max(b.len()).div_ceil(2);
    let (ha, hb) = (half.min(a.len()), half.min(b.len()));
    let championship: Vec<usize> = a[..ha].iter().chain(&b[..hb]).copied().collect();
    let relegation: Vec<usize> = a[ha..].iter().chain(&b[hb..]).copied().collect();
    let same = |x: usize, y: usize| {
        (championship.contains(&x) && championship.contains(&y))
            || (relegation.contains(&x) && relegation.contains(&y))
    };
    let carried = played
        .iter()
        .filter(|m| same(m.first, m.second))
        .cloned()
        .collect();
    let mut rounds = Vec::new();
    for (top, bottom) in [(&a[..ha], &b[..hb]), (&a[ha..], &b[hb..])] {
        rounds.extend(final_rounds(top, bottom, first_round, lean));
    }
    Split {
        championship,
        relegation,
        carried,
        rounds,
    }
}

/// Each of `teams` teams' times first-named less times second-named in `played`.
pub fn leans(played: &[Played], teams: usize) -> Vec<i32> {
    let mut lean = vec![0; teams];
    for m in played {
        lean[m.first] += 1;
        lean[m.second] -= 1;
    }
    lean
}

/// The rounds of one final pool: each team of `top` meets each of `bottom` over k rounds (k the
/// larger side's size), first-named alternating by round. When the sides differ, a team of the
/// larger one is idle each round, and the alternation no longer evens out: the first-named of
/// each match is then chosen so that the largest first-named lean at the end (`lean` so far) is
/// as small as it can be (every choice tried up to 16 matches, single changes after that).
fn final_rounds(top: &[usize], bottom: &[usize], first_round: u32, lean: &[i32]) -> Vec<Match> {
    let k = top.len().max(bottom.len());
    let mut rounds = Vec::new();
    for r in 0..k {
        for i in 0..k {
            let (Some(&x), Some(&y)) = (top.get(i), bottom.get((i + r) % k)) else {
                continue;
            };
            let round = first_round + r as u32;
            rounds.push(if r % 2 == 0 {
                (round, x, y)
            } else {
                (round, y, x)
            });
        }
    }
    if top.len() == bottom.len() {
        return rounds;
    }
    // (largest lean, sum of squared leans) after `rounds`.
    let cost = |rounds: &[Match]| {
        let mut after: Vec<(usize, i32)> = top
            .iter()
            .chain(bottom)
            .map(|&t| (t, lean.get(t).copied().unwrap_or(0)))
            .collect();
        for &(_, x, y) in rounds {
            for (t, l) in after.iter_mut() {
                *l += i32::from(*t == x) - i32::from(*t == y);
            }
        }
        let worst = after.iter().map(|p| p.1.abs()).max().unwrap_or(0);
        (worst, after.iter().map(|p| p.1 * p.1).sum::<i32>())
    };
    let flip = |m: &mut Match| *m = (m.0, m.2, m.1);
    let mut best = cost(&rounds);
    if rounds.len() <= 16 {
        let base = rounds.clone();
        for mask in 1u32..1 << base.len() {
            let mut tried = base.clone();
            for (i, m) in tried.iter_mut().enumerate() {
                if mask >> i & 1 == 1 {
                    flip(m);
                }
            }
            let c = cost(&tried);
            if c < best {
                (rounds, best) = (tried, c);
            }
        }
        return rounds;
    }
    let mut better = true;
    while better {
        better = false;
        for i in 0..rounds.len() {
            flip(&mut rounds[i]);
            let c = cost(&rounds);
            if c < best {
                (best, better) = (c, true);
            } else {
                flip(&mut rounds[i]);
            }
        }
    }
    rounds
}

/// Why division `div` of `league` cannot be played as two 4NCL pools, if it cannot: a number
/// of teams that does not halve into two even pools that halve again, or too few round dates.
pub fn unfit(league: &crate::model::League, div: usize) -> Option<String> {
    let d = &league.divisions[div];
    let n = d.teams.len();
    if n < 4 || !n.is_multiple_of(4) {
        return Some(format!(
            "{} has {n} teams: two pools need a division of 8, 12, 16 ... teams",
            d.name
        ));
    }
    // Preliminary rounds: a round robin of a pool of n / 2; final rounds: n / 4.
    let needed = n / 2 - 1 + n / 4;
    let dates = d.rounds.as_ref().map_or(0, |r| r.len());
    (dates < needed).then(|| {
        format!(
            "{} needs {needed} round dates ({} preliminary rounds and {} final ones); it has {dates}",
            d.name,
            n / 2 - 1,
            n / 4
        )
    })
}

/// The two preliminary pools of a 4NCL division (by team `rating`, clubs apart).
pub fn league_pools(league: &crate::model::League, div: usize) -> (Vec<usize>, Vec<usize>) {
    let rating: Vec<f64> = league
        .teams
        .iter()
        .map(|t| t.rating.unwrap_or(0.0))
        .collect();
    let club: Vec<usize> = league.teams.iter().map(|t| t.club).collect();
    pools(&league.divisions[div].teams, &rating, &club)
}

/// Rounds as the league's matches, each on its round's date (`None` when the division has no
/// date for one of them; `unfit` says when).
pub fn as_matches(
    league: &crate::model::League,
    div: usize,
    rounds: &[Match],
) -> Option<Vec<crate::model::Match>> {
    let dates = league.divisions[div].rounds.as_ref()?;
    rounds
        .iter()
        .map(|&(r, home, away)| {
            Some(crate::model::Match {
                date: *dates.get((r as usize).checked_sub(1)?)?,
                division: div,
                home,
                away,
            })
        })
        .collect()
}

/// The preliminary rounds of a 4NCL division (rule 6.3): each pool's round robin from the
/// Berger table, the pools played side by side: each round pool A's matches, then pool B's.
pub fn preliminary(league: &crate::model::League, div: usize) -> Vec<Match> {
    let (a, b) = league_pools(league, div);
    let mut rounds = pool_rounds(&a, 1);
    rounds.extend(pool_rounds(&b, 1));
    rounds.sort_by_key(|m| m.0);
    rounds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::competitions::swiss::{played as m, standings};

    /// Rule 12.2 (b): teams level on match and game points are placed by the match between
    /// them, not by file order.
    #[test]
    fn a_tie_on_match_and_game_points_is_broken_by_the_match_between_the_teams() {
        // 2 and 3 both end on 3 match points and 12 game points; 3 beat 2.
        let played = [
            m(0, 1, 6.0, 2.0),
            m(0, 2, 3.5, 4.5),
            m(0, 3, 4.5, 3.5),
            m(1, 2, 4.0, 4.0),
            m(1, 3, 4.0, 4.0),
            m(2, 3, 3.5, 4.5),
        ];
        let s = standings(4, &played, &[]);
        assert_eq!(
            (s[2].match_points, s[2].game_points),
            (s[3].match_points, s[3].game_points),
            "2 and 3 level on (a)"
        );
        assert_ne!(s[0].match_points, s[2].match_points);
        let order = placed(&[0, 1, 2, 3], &played, 4, &[]);
        assert_eq!(order, [0, 3, 2, 1], "3 won the match between 2 and 3");
    }

    #[test]
    fn pools_are_balanced_and_keep_clubs_apart() {
        let rating: Vec<f64> = (0..16).map(|i| 2500.0 - 20.0 * i as f64).collect();
        let mut club: Vec<usize> = (0..16).collect();
        club[1] = 0; // teams 0 and 1 share a club
        let (a, b) = pools(&(0..16).collect::<Vec<_>>(), &rating, &club);
        assert_eq!((a.len(), b.len()), (8, 8));
        let sum = |p: &[usize]| p.iter().map(|&t| rating[t]).sum::<f64>();
        assert!((sum(&a) - sum(&b)).abs() <= 20.0, "{a:?} {b:?}");
        assert_ne!(
            a.contains(&0),
            a.contains(&1),
            "club-mates in different pools"
        );
    }

    /// A final pool of three and four teams: every pair meets once, one team of the four is
    /// idle each round, and the first-named are chosen so every lean ends within one, where
    /// alternating by round would leave two of the four at two.
    #[test]
    fn a_short_final_pool_keeps_the_home_and_away_counts_level() {
        let (top, bottom) = ([0, 1, 2], [3, 4, 5, 6]);
        // Alternating by round gives the team in place j of the four one home match less than
        // away when j is even: these leans would end at -2 and +2 there.
        let lean = [1, -1, 1, -1, 1, -1, 1];
        let rounds = final_rounds(&top, &bottom, 8, &lean);
        assert_eq!(rounds.len(), 12);
        let mut pairs: Vec<(usize, usize)> = rounds
            .iter()
            .map(|m| (m.1.min(m.2), m.1.max(m.2)))
            .collect();
        pairs.sort();
        pairs.dedup();
        assert_eq!(pairs.len(), 12, "every pair once");
        for r in 8..12 {
            let playing: Vec<usize> = rounds
                .iter()
                .filter(|m| m.0 == r)
                .flat_map(|m| [m.1, m.2])
                .collect();
            assert_eq!(playing.len(), 6, "round {r}: one team idle");
        }
        let mut after = lean.to_vec();
        for &(_, x, y) in &rounds {
            after[x] += 1;
            after[y] -= 1;
        }
        assert!(after.iter().all(|l| l.abs() <= 1), "{after:?}");
    }
}
