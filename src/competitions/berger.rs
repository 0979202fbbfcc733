//! FIDE Berger tables (Handbook C.05, Annex 1): the round-robin schedule chess players know.
//!
//! For an even number n of players (odd n: player n + 1 is a bye), player n stays put and meets
//! in round r the player a_r = ((r - 1) n/2 mod (n - 1)) + 1, with White in the odd rounds for
//! a_r and in the even rounds for n. The other boards pair a_r + k with a_r - k (k = 1 ...
//! n/2 - 1, counted round 1 ... n - 1), the first with White. Round 1 of six players is
//! 1-6, 2-5, 3-4; round 2 is 6-4, 5-3, 1-2, as in the Handbook.

/// One round: pairs (White or home, Black or away), players numbered from 1, board order.
pub type Round = Vec<(usize, usize)>;

/// The Berger table for `n` players (n >= 2). For odd n the pairs include player n + 1, the bye.
pub fn table(n: usize) -> Vec<Round> {
    let n = if n % 2 == 1 { n + 1 } else { n.max(2) };
    let m = n - 1;
    let wrap = |x: i64| ((x - 1).rem_euclid(m as i64) + 1) as usize;
    (1..=m)
        .map(|r| {
            let a = ((r - 1) * (n / 2)) % m + 1;
            let mut round = Vec::with_capacity(n / 2);
            round.push(if r % 2 == 1 { (a, n) } else { (n, a) });
            for k in 1..n / 2 {
                round.push((wrap(a as i64 + k as i64), wrap(a as i64 - k as i64)));
            }
            round
        })
        .collect()
}

/// The table as text, one round a line: "Rd 1: 1-6 2-5 3-4".
pub fn text(n: usize) -> String {
    let bye = if n % 2 == 1 { Some(n + 1) } else { None };
    let mut out = String::new();
    for (r, round) in table(n).iter().enumerate() {
        let pairs: Vec<String> = round
            .iter()
            .map(|&(w, b)| match bye {
                Some(x) if w == x => format!("{b} bye"),
                Some(x) if b == x => format!("{w} bye"),
                _ => format!("{w}-{b}"),
            })
            .collect();
        out.push_str(&format!("Rd {:>2}: {}\n", r + 1, pairs.join("  ")));
    }
    out
}

/// Breaks of each player (two consecutive rounds with the same colour / side) in a table.
pub fn breaks(table: &[Round], players: usize) -> Vec<usize> {
    let mut last: Vec<Option<bool>> = vec![None; players + 2];
    let mut out = vec![0; players + 2];
    for round in table {
        for &(w, b) in round {
            for (p, white) in [(w, true), (b, false)] {
                if last[p] == Some(white) {
                    out[p] += 1;
                }
                last[p] = Some(white);
            }
        }
    }
    out.truncate(players + 1);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_handbook_for_four_and_six() {
        assert_eq!(
            table(4),
            vec![
                vec![(1, 4), (2, 3)],
                vec![(4, 3), (1, 2)],
                vec![(2, 4), (3, 1)]
            ]
        );
        let six = table(6);
        assert_eq!(six[0], vec![(1, 6), (2, 5), (3, 4)]);
        assert_eq!(six[1], vec![(6, 4), (5, 3), (1, 2)]);
        assert_eq!(six[2], vec![(2, 6), (3, 1), (4, 5)]);
        assert_eq!(six[3], vec![(6, 5), (1, 4), (2, 3)]);
        assert_eq!(six[4], vec![(3, 6), (4, 2), (5, 1)]);
    }

    #[test]
    fn every_pair_meets_once_and_breaks_are_n_minus_2() {
        for n in (4..=20).step_by(2) {
            let t = table(n);
            let mut met = std::collections::BTreeSet::new();
            for round in &t {
                let mut seen = std::collections::BTreeSet::new();
                for &(a, b) in round {
                    assert!(
                        seen.insert(a) && seen.insert(b),
                        "n={n}: a player twice in a round"
                    );
                    assert!(met.insert((a.min(b), a.max(b))), "n={n}: {a}-{b} twice");
                }
            }
            assert_eq!(met.len(), n * (n - 1) / 2);
            assert_eq!(breaks(&t, n).iter().sum::<usize>(), n - 2, "n={n}");
        }
    }
}
