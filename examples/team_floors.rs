//! The least each team's own season can cost, whatever the other teams do
//! (`formulate::team_bound::least`): its least worst spread and its least weighted waits, rests,
//! winter share and avoid dates. A worst-spread target below the largest least spread cannot be
//! met by any valid schedule.
//!
//! cargo run --release --example team_floors -- LEAGUE.toml [N]   # the N teams with the largest
//!                                                                # least spread (default 5)

use fixtures::formulate::{candidates, team_bound};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: team_floors LEAGUE.toml [N]");
        std::process::exit(2);
    };
    let shown: usize = match args.next().map(|n| n.parse()) {
        None => 5,
        Some(Ok(n)) => n,
        Some(Err(_)) => {
            eprintln!("error: N must be a whole number");
            std::process::exit(2);
        }
    };
    let league = match fixtures::model::read_league(std::path::Path::new(&path)) {
        Ok(league) => league,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let cand = candidates(&league, &Default::default());
    let w = league.weights;
    let Some(all) = team_bound::least(&league, &cand, &w) else {
        println!("some team cannot fit its matches on its possible dates");
        return;
    };
    let mut rows: Vec<(f64, f64, &str)> = all
        .iter()
        .zip(&league.teams)
        .filter_map(|(l, t)| l.map(|l| (l.spread, l.cost, t.name.as_str())))
        .collect();
    rows.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.2.cmp(b.2)));
    for (spread, cost, name) in rows.iter().take(shown) {
        println!(
            "{name}: least spread {:.1}%, least own cost {cost:.2}",
            100.0 * spread
        );
    }
    if let Some((sum, worst)) = team_bound::bound(&league, &cand, &w) {
        println!(
            "largest least spread {:.1}%; the teams' least costs bound the objective at {:.2}",
            100.0 * worst,
            sum + w.spread_max * worst
        );
    }
}
