//! Times one Swiss pairing of 24 teams after four rounds (scripts/bench-formats).
//! Rounds 1-4 are paired by the same code with deterministic results; round 5 is timed.

use fixtures::competitions::swiss::{pair, standings, Played};
use std::time::Instant;

fn main() {
    let n = 24;
    let seeds: Vec<usize> = (0..n).collect();
    let mut played: Vec<Played> = Vec::new();
    for round in 1..=4u32 {
        let p = pair(&standings(n, &played, &[]), &played, i32::MAX, &seeds).expect("a pairing");
        for (i, &(a, b)) in p.pairs.iter().enumerate() {
            let h = ((round as u64 * 97 + i as u64 * 31) % 9) as f64 / 2.0;
            played.push(Played {
                round,
                first: a,
                second: b,
                first_points: h,
                second_points: 4.0 - h,
            });
        }
    }
    let s = standings(n, &played, &[]);
    let t = Instant::now();
    let p = pair(&s, &played, i32::MAX, &seeds).expect("round 5 pairing");
    let seconds = t.elapsed().as_secs_f64();
    let repeats = p
        .pairs
        .iter()
        .filter(|&&(a, b)| {
            played
                .iter()
                .any(|m| (m.first.min(m.second), m.first.max(m.second)) == (a.min(b), a.max(b)))
        })
        .count();
    let groups: std::collections::BTreeSet<u32> = s.iter().map(|x| x.match_points).collect();
    let floats = p
        .pairs
        .iter()
        .filter(|&&(a, b)| s[a].match_points != s[b].match_points)
        .count();
    println!(
        "swiss: 24 teams after 4 rounds: round 5 paired in {seconds:.3} s; {} pairs, {repeats} repeats, {floats} floats across {} score groups",
        p.pairs.len(),
        groups.len()
    );
}
