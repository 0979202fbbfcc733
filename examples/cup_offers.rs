//! Offered dates of a cup over many seeded draws (used by `scripts/bench-cup`): for each round,
//! how many ties had at least the dates the rules ask for, and the fewest. Results of ties are
//! drawn at random (seeded), so later rounds see many different pairings.
//!
//!     cargo run --release --example cup_offers -- LEAGUE.toml FIXTURES.csv [CUP] [DRAWS]

use fixtures::check;
use fixtures::model::read_league;
use fixtures::season::cup;
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: cup_offers LEAGUE.toml FIXTURES.csv [CUP] [DRAWS]");
        std::process::exit(1);
    }
    let league = read_league(Path::new(&args[1])).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let list = match check::read_fixtures(&league, Path::new(&args[2])) {
        Ok(l) => l.to_neutral(&league),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1)
        }
    };
    let ci = match args.get(3) {
        Some(name) => league.cup_by_name(name).unwrap_or_else(|| {
            eprintln!("no cup \"{name}\"");
            std::process::exit(1)
        }),
        None => 0,
    };
    let draws: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let c = &league.cups[ci];
    let rounds = c.rounds();
    let (mut enough, mut total, mut fewest) =
        (vec![0; rounds], vec![0; rounds], vec![usize::MAX; rounds]);
    for seed in 0..draws {
        let draw = cup::draw(c, seed);
        let mut k = seed;
        let ties = cup::ties(c, &draw, &mut |t| {
            k = k
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            Some(if (k >> 33) & 1 == 1 { t.home } else { t.away })
        });
        let (_, offers) = cup::place(&league, ci, &list, &ties);
        for (t, dates) in offers {
            total[t.round] += 1;
            enough[t.round] += usize::from(dates.len() >= c.offer as usize);
            fewest[t.round] = fewest[t.round].min(dates.len());
        }
    }
    println!(
        "{}: {draws} seeded draws, random results, {} dates asked per tie",
        c.name, c.offer
    );
    for r in 0..rounds {
        println!(
            "  {:<14} {:>5} of {:>5} ties with {} dates or more ({:.1}%), fewest {}",
            c.round_name(r),
            enough[r],
            total[r],
            c.offer,
            100.0 * enough[r] as f64 / total[r].max(1) as f64,
            if fewest[r] == usize::MAX {
                0
            } else {
                fewest[r]
            }
        );
    }
}
