//! The objective is honest: what the solver reports is what the checker measures.

mod common;
use common::*;
use fixtures::model::Weights;
use fixtures::solve::{self, Options, Outcome};

#[test]
fn break_objective_equals_checked_breaks() {
    // Five teams, single round robin, every night possible: breaks are the only cost.
    // Mondays and Thursdays of four weeks: 8 dates, small enough to prove optimality.
    let mut league = Lg::new("2027-01-04", "2027-01-31")
        .rule("min_days_between = 3")
        .division("D", "single")
        .club("A", "")
        .club("B", "")
        .team("A1", "A", "D", "")
        .team("A2", "A", "D", "")
        .team("B1", "B", "D", "")
        .team("B2", "B", "D", "")
        .team("B3", "B", "D", "")
        .league();
    // Pin a few fixtures so that some breaks are forced and the count is not trivially zero.
    for t in &mut league.teams {
        t.hosting =
            fixtures::model::Hosting::Nights(vec![chrono::Weekday::Mon, chrono::Weekday::Thu]);
    }
    for (h, a, d) in [("A1", "A2", "2027-01-04"), ("A1", "B1", "2027-01-07")] {
        league.fixed.push(fixtures::model::Fixed {
            home: league.team_by_name(h).unwrap(),
            away: league.team_by_name(a).unwrap(),
            date: d.parse().unwrap(),
        });
    }
    let weights = Weights {
        breaks: 1.0,
        avoid: 0.0,
        long_rest: 0.0,
        spread: 0.0,
        spread_max: 0.0,
        ..Weights::default()
    };
    let opts = Options {
        time_limit: 60.0,
        threads: 1,
        weights: Some(weights),
        ..Options::default()
    };
    let solved = solve::solve(&league, &opts).unwrap();
    assert_eq!(solved.outcome, Outcome::Optimal, "{:?}", solved.outcome);
    let csv = fixtures::report::csv_string(&league, solved.schedule.as_ref().unwrap());
    let q = check_csv(&league, &csv).quality;
    let objective = solved.objective.unwrap();
    assert_eq!(q.breaks as f64, objective.round(), "{csv}");
    // A1 opens with two home matches and has exactly two (balance 1 of 4): HHAA, two breaks.
    assert!(q.breaks >= 2, "{csv}");
}
