//! Swiss pairings (the 4NCL's third division): one round at a time, teams by match points, then
//! game points, never a repeat pairing, first-named side balanced, as a minimum-cost perfect
//! matching solved by HiGHS; a bye when the number of teams is odd (to the lowest-placed team
//! that has not had one).

use good_lp::{
    solvers::highs::highs, variable, Expression, ProblemVariables, Solution, SolverModel,
};

/// One match already played: (first-named team, second-named, their game points).
#[derive(Debug, Clone, PartialEq)]
pub struct Played {
    /// The round it was played in.
    pub round: u32,
    /// The first-named team.
    pub first: usize,
    /// The second-named team.
    pub second: usize,
    /// The first-named team's game points.
    pub first_points: f64,
    /// The second-named team's game points.
    pub second_points: f64,
}

/// A round-1 match and its game points, for the tests of tables and pairings.
#[cfg(test)]
pub(crate) fn played(first: usize, second: usize, a: f64, b: f64) -> Played {
    Played {
        round: 1,
        first,
        second,
        first_points: a,
        second_points: b,
    }
}

/// A team's standing: match points (2 a win, 1 a draw), game points, times first-named, bye.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Standing {
    /// Match points: 2 a win, 1 a draw.
    pub match_points: u32,
    /// Game points (boards won).
    pub game_points: f64,
    /// Times first-named.
    pub first_named: i32,
    /// Times second-named.
    pub second_named: i32,
    /// Whether it has had a bye.
    pub had_bye: bool,
}

/// Standings of `teams` teams after the `played` matches (a bye counts as a win).
pub fn standings(teams: usize, played: &[Played], byes: &[usize]) -> Vec<Standing> {
    let mut s = vec![Standing::default(); teams];
    for m in played {
        let (a, b) = (m.first, m.second);
        s[a].game_points += m.first_points;
        s[b].game_points += m.second_points;
        s[a].first_named += 1;
        s[b].second_named += 1;
        match m.first_points.total_cmp(&m.second_points) {
            std::cmp::Ordering::Greater => s[a].match_points += 2,
            std::cmp::Ordering::Less => s[b].match_points += 2,
            std::cmp::Ordering::Equal => {
                s[a].match_points += 1;
                s[b].match_points += 1;
            }
        }
    }
    for &t in byes {
        s[t].match_points += 2;
        s[t].had_bye = true;
    }
    s
}

/// The pairing of one round: (first-named, second-named) pairs and the team with the bye.
#[derive(Debug, Clone, PartialEq)]
pub struct Pairing {
    /// (first-named, second-named) pairs.
    pub pairs: Vec<(usize, usize)>,
    /// The team with the bye (odd number of teams).
    pub bye: Option<usize>,
}

#[derive(Debug, thiserror::Error, PartialEq)]
/// Why a round cannot be paired.
pub enum PairError {
    #[error("no pairing exists without a repeat or a team first-named too often (every remaining pairing has been played, or would unbalance a team)")]
    /// Every pairing left would repeat one already played.
    NoPairing,
    #[error("the solver failed: {0}")]
    /// The matching solver failed.
    Solver(String),
}

/// Each of `teams`' place by rating (extension `rating`; 0 the strongest, file order among
/// equals), for `pair`'s seeds.
pub fn seeds(league: &crate::model::League, teams: &[usize]) -> Vec<usize> {
    let rating = |i: usize| league.teams[teams[i]].rating.unwrap_or(0.0);
    let mut order: Vec<usize> = (0..teams.len()).collect();
    order.sort_by(|&a, &b| rating(b).total_cmp(&rating(a)).then(a.cmp(&b)));
    let mut seed = vec![0; teams.len()];
    for (place, &i) in order.iter().enumerate() {
        seed[i] = place;
    }
    seed
}

/// The cost of pairing a and b apart from the Dutch system's ideal, `[a][b]`: in a score
/// group ordered by seed, the first of the top half meets the first of the bottom half; at most
/// 0.2, below half a game point's cost.
fn folds(standings: &[Standing], seed: &[usize]) -> Vec<Vec<f64>> {
    let n = standings.len();
    let level = |a: usize, b: usize| standings[a].match_points == standings[b].match_points;
    // Each team's place in its score group by seed, and the group's size.
    let places: Vec<(usize, usize)> = (0..n)
        .map(|t| {
            let above = (0..n).filter(|&u| level(u, t) && seed[u] < seed[t]).count();
            (above, (0..n).filter(|&u| level(u, t)).count())
        })
        .collect();
    (0..n)
        .map(|a| {
            (0..n)
                .map(|b| {
                    if !level(a, b) {
                        return 0.0;
                    }
                    let (pa, g) = places[a];
                    let off = pa.abs_diff(places[b].0) as f64 - (g / 2) as f64;
                    0.2 * off * off / (n * n) as f64
                })
                .collect()
        })
        .collect()
}

/// Pairs one round. The cost of pairing a and b is the square of their match-point difference
/// (times 100) plus that of their game points, so teams meet within their score group and float
/// as little as possible; pairs played before are not allowed, nor pairs of teams already
/// first-named `balance` times more (or less) than second-named, one of which would go past it
/// (the league's `home_away_balance`, kept after every round). Within a score group (teams
/// level on match points), ordered by `seed` (0 the strongest), the top half meets the bottom
/// half, first against first (as the Dutch system pairs, round 1 by rating alone): a cost too
/// small to outweigh half a game point.
pub fn pair(
    standings: &[Standing],
    played: &[Played],
    balance: i32,
    seed: &[usize],
) -> Result<Pairing, PairError> {
    let n = standings.len();
    let fold = folds(standings, seed);
    let met = |a: usize, b: usize| {
        played
            .iter()
            .any(|m| (m.first == a && m.second == b) || (m.first == b && m.second == a))
    };
    let mut vars = ProblemVariables::new();
    let mut pairs = Vec::new();
    let mut objective = Expression::default();
    let lean = |t: usize| standings[t].first_named - standings[t].second_named;
    // Either side first-named: the lower-leaning one keeps both within `balance` if any does.
    let unbalanced = |a: usize, b: usize| {
        let (lo, hi) = (lean(a).min(lean(b)), lean(a).max(lean(b)));
        (lo + 1).abs() > balance || (hi - 1).abs() > balance
    };
    for a in 0..n {
        for b in a + 1..n {
            if met(a, b) || unbalanced(a, b) {
                continue;
            }
            let (sa, sb) = (&standings[a], &standings[b]);
            let dm = sa.match_points as f64 - sb.match_points as f64;
            let dg = sa.game_points - sb.game_points;
            let x = vars.add(variable().binary());
            objective += (100.0 * dm * dm + dg * dg + fold[a][b]) * x;
            pairs.push((a, b, x));
        }
    }
    // A bye for odd n: to the lowest-placed team without one first (its cost dwarfs any
    // pairing's), then the pairings as good as they can be around it.
    let mut byes = Vec::new();
    if n % 2 == 1 {
        for (t, s) in standings.iter().enumerate() {
            if !s.had_bye {
                let y = vars.add(variable().binary());
                objective += (1e6 * (1.0 + s.match_points as f64) + 1e4 * s.game_points) * y;
                byes.push((t, y));
            }
        }
    }
    let mut model = vars.minimise(objective).using(highs);
    model.set_verbose(false);
    for t in 0..n {
        let mut e = Expression::default();
        for &(a, b, x) in &pairs {
            if a == t || b == t {
                e += x;
            }
        }
        for &(u, y) in &byes {
            if u == t {
                e += y;
            }
        }
        model.add_constraint(e.eq(1));
    }
    let solution = match model.solve() {
        Ok(s) => s,
        Err(good_lp::ResolutionError::Infeasible) => return Err(PairError::NoPairing),
        Err(e) => return Err(PairError::Solver(e.to_string())),
    };
    Ok(pairing_of(standings, &pairs, &byes, |v| {
        solution.value(v) > 0.5
    }))
}

/// The pairing the chosen variables make: each pair first-named fairly, the top boards first.
fn pairing_of(
    standings: &[Standing],
    pairs: &[(usize, usize, good_lp::Variable)],
    byes: &[(usize, good_lp::Variable)],
    chosen: impl Fn(good_lp::Variable) -> bool,
) -> Pairing {
    let mut out = Pairing {
        pairs: Vec::new(),
        bye: None,
    };
    for &(a, b, x) in pairs {
        if chosen(x) {
            // First-named: the team first-named less often so far (then the higher placed).
            let balance = |t: usize| standings[t].first_named - standings[t].second_named;
            let a_first = (balance(a), std::cmp::Reverse(standings[a].match_points))
                <= (balance(b), std::cmp::Reverse(standings[b].match_points));
            out.pairs.push(if a_first { (a, b) } else { (b, a) });
        }
    }
    for &(t, y) in byes {
        if chosen(y) {
            out.bye = Some(t);
        }
    }
    out.pairs.sort_by_key(|&(a, b)| {
        let s = |t: usize| {
            (
                standings[t].match_points,
                (standings[t].game_points * 2.0) as i64,
            )
        };
        std::cmp::Reverse(s(a).max(s(b)))
    });
    out
}
