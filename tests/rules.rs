//! One tiny league per rule, where the rule binds: the solver obeys it (checked here against
//! the rows directly, not only through the checker), and the checker catches a list that breaks it.

mod common;
use common::*;
use fixtures::solve::Outcome;
use std::collections::BTreeMap;

fn date(s: &str) -> chrono::NaiveDate {
    s.parse().unwrap()
}

/// Three one-team clubs A, B, C in one single round robin division "D".
fn abc(start: &str, end: &str) -> Lg {
    Lg::new(start, end)
        .division("D", "single")
        .club("A", "")
        .club("B", "")
        .club("C", "")
        .team("A", "A", "D", "")
        .team("B", "B", "D", "")
        .team("C", "C", "D", "")
}

fn dates_of(csv: &str, team: &str) -> Vec<chrono::NaiveDate> {
    let mut d: Vec<_> = rows(csv)
        .into_iter()
        .filter(|(_, h, a)| h == team || a == team)
        .map(|(d, _, _)| date(&d))
        .collect();
    d.sort();
    d
}

#[test]
fn fixture_set_single_and_double() {
    let lg = Lg::new("2027-01-04", "2027-02-28")
        .division("S", "single")
        .division("W", "double")
        .club("A", "")
        .club("B", "")
        .team("S1", "A", "S", "")
        .team("S2", "B", "S", "")
        .team("S3", "B", "S", "")
        .team("W1", "A", "W", "")
        .team("W2", "B", "W", "")
        .team("W3", "A", "W", "");
    let league = lg.league();
    let csv = solve_valid(&league);
    let r = rows(&csv);
    assert_eq!(r.len(), 3 + 6);
    for (h, a) in [("W1", "W2"), ("W2", "W1"), ("W1", "W3"), ("W3", "W1")] {
        assert_eq!(r.iter().filter(|x| x.1 == h && x.2 == a).count(), 1);
    }
    // Missing, duplicated and foreign fixtures are all caught.
    let bad = csv_of(&[
        ("2027-01-04", "S", "S1", "S2", "A Hall"),
        ("2027-01-11", "S", "S2", "S1", "B Hall"),
        ("2027-01-05", "S", "S1", "W1", "A Hall"),
    ]);
    let v = common::check_csv(&league, &bad).violations;
    assert!(v
        .iter()
        .any(|v| v.rule == "5 fixtures" && v.detail.contains("missing")));
    assert!(v
        .iter()
        .any(|v| v.rule == "5 fixtures" && v.detail.contains("2 times")));
    assert!(v.iter().any(|v| v.detail.contains("different divisions")));
}

#[test]
fn min_days_between_binds_against_avoid_pressure() {
    // Everyone would rather play early; three days' rest forces a spread.
    let league = abc("2027-01-04", "2027-01-10")
        .rule("min_days_between = 3")
        .league();
    let mut lg2 = league.clone();
    for t in &mut lg2.teams {
        t.avoid = (7..=10).map(|d| date(&format!("2027-01-{d:02}"))).collect();
    }
    let csv = solve_valid(&lg2);
    for t in ["A", "B", "C"] {
        let d = dates_of(&csv, t);
        assert!((d[1] - d[0]).num_days() >= 3, "{t}: {d:?}");
    }
    let bad = csv_of(&[
        ("2027-01-04", "D", "A", "B", "A Hall"),
        ("2027-01-05", "D", "C", "A", "C Hall"),
        ("2027-01-09", "D", "B", "C", "B Hall"),
    ]);
    assert_eq!(broken_rules(&league, &bad), vec!["6 min_days_between"]);
}

#[test]
fn closed_dates_late_start_and_season() {
    let league = abc("2027-01-04", "2027-01-20")
        .top("closed = [{ from = 2027-01-05, to = 2027-01-12 }]")
        .rule("min_days_between = 2")
        .raw("")
        .league();
    let mut league = league;
    league.teams[2].start = date("2027-01-15");
    let csv = solve_valid(&league);
    for (d, h, a) in rows(&csv) {
        let d = date(&d);
        assert!(!(date("2027-01-05")..=date("2027-01-12")).contains(&d));
        if h == "C" || a == "C" {
            assert!(d >= date("2027-01-15"));
        }
    }
    let bad = csv_of(&[
        ("2027-01-06", "D", "A", "B", "A Hall"),
        ("2027-01-13", "D", "C", "A", "C Hall"),
        ("2027-01-21", "D", "B", "C", "B Hall"),
    ]);
    assert_eq!(
        broken_rules(&league, &bad),
        vec!["1 closed", "1 season", "1 start"]
    );
}

#[test]
fn hosting_nights_home_dates_and_venue_closed() {
    let league = Lg::new("2027-01-04", "2027-01-31")
        .division("D", "single")
        .venue("Hall", "capacity = 3\nclosed = [2027-01-11]")
        .raw("[[club]]\nname = \"M\"\nvenue = \"Hall\"\nnights = [\"Mon\"]\n")
        .raw("[[club]]\nname = \"W\"\nvenue = \"Hall\"\nhome_dates = [2027-01-13, 2027-01-20]\n")
        .team("M1", "M", "D", "")
        .team("W1", "W", "D", "")
        .team("W2", "W", "D", "nights = [\"fri\"]")
        .league();
    let csv = solve_valid(&league);
    use chrono::Datelike;
    for (d, h, _) in rows(&csv) {
        let d = date(&d);
        assert_ne!(d, date("2027-01-11"));
        match h.as_str() {
            "M1" => assert_eq!(d.weekday(), chrono::Weekday::Mon),
            "W1" => assert!(d == date("2027-01-13") || d == date("2027-01-20")),
            _ => assert_eq!(d.weekday(), chrono::Weekday::Fri),
        }
    }
    let bad = csv_of(&[
        ("2027-01-11", "D", "M1", "W1", "Hall"),
        ("2027-01-14", "D", "W1", "W2", "Hall"),
        ("2027-01-22", "D", "W2", "M1", "Hall"),
    ]);
    assert_eq!(
        broken_rules(&league, &bad),
        vec!["2 hosting date", "3 venue closed"]
    );
}

#[test]
fn unavailable_and_unavailable_away() {
    let league = abc("2027-01-04", "2027-01-09").league();
    let mut league = league;
    // A is out on 4-6 entirely and cannot travel on 7-8.
    league.teams[0].unavailable = (4..=6).map(|d| date(&format!("2027-01-{d:02}"))).collect();
    league.teams[0].unavailable_away = (7..=8).map(|d| date(&format!("2027-01-{d:02}"))).collect();
    let csv = solve_valid(&league);
    for (d, h, a) in rows(&csv) {
        let d = date(&d);
        if h == "A" || a == "A" {
            assert!(d >= date("2027-01-07"));
        }
        if a == "A" {
            assert_eq!(d, date("2027-01-09"));
        }
    }
    let bad = csv_of(&[
        ("2027-01-04", "D", "A", "B", "A Hall"),
        ("2027-01-07", "D", "C", "A", "C Hall"),
        ("2027-01-08", "D", "B", "C", "B Hall"),
    ]);
    assert_eq!(
        broken_rules(&league, &bad),
        vec!["4 unavailable", "4 unavailable away"]
    );
}

#[test]
fn home_away_balance_binds() {
    // Four teams, single round robin: 3 matches each; balance 1 means 2-1 or 1-2.
    // B, C and D avoid every date at home... impossible to honour, but balance must hold.
    let league = Lg::new("2027-01-04", "2027-01-31")
        .rule("home_away_balance = 1")
        .division("D", "single")
        .club("A", "")
        .club("B", "")
        .team("A1", "A", "D", "")
        .team("A2", "A", "D", "")
        .team("B1", "B", "D", "")
        .team("B2", "B", "D", "")
        .league();
    let csv = solve_valid(&league);
    for t in ["A1", "A2", "B1", "B2"] {
        let home = rows(&csv).iter().filter(|r| r.1 == t).count();
        assert!((1..=2).contains(&home), "{t} has {home} home matches");
    }
    let bad = csv_of(&[
        ("2027-01-04", "D", "A1", "A2", "A Hall"),
        ("2027-01-11", "D", "A1", "B1", "A Hall"),
        ("2027-01-18", "D", "A1", "B2", "A Hall"),
        ("2027-01-04", "D", "B1", "B2", "B Hall"),
        ("2027-01-11", "D", "A2", "B2", "A Hall"),
        ("2027-01-18", "D", "B1", "A2", "B Hall"),
    ]);
    assert_eq!(broken_rules(&league, &bad), vec!["6 home_away_balance"]);
}

#[test]
fn venue_capacity_and_capacity_on() {
    // Four teams share a hall of capacity 1 (2 on the 6th); 6 fixtures in 5 days.
    let league = Lg::new("2027-01-04", "2027-01-08")
        .division("D", "single")
        .venue("Hall", "capacity = 1\ncapacity_on = { \"2027-01-06\" = 2 }")
        .raw(&format!(
            "[[club]]\nname = \"X\"\nvenue = \"Hall\"\nnights = {ALL_NIGHTS}\n"
        ))
        .team("X1", "X", "D", "")
        .team("X2", "X", "D", "")
        .team("X3", "X", "D", "")
        .team("X4", "X", "D", "")
        .league();
    let csv = solve_valid(&league);
    let mut per_date: BTreeMap<String, usize> = BTreeMap::new();
    for (d, _, _) in rows(&csv) {
        *per_date.entry(d).or_default() += 1;
    }
    for (d, n) in per_date {
        assert!(n <= if d == "2027-01-06" { 2 } else { 1 }, "{d}: {n}");
    }
    let bad = csv_of(&[
        ("2027-01-04", "D", "X1", "X2", "Hall"),
        ("2027-01-04", "D", "X3", "X4", "Hall"),
        ("2027-01-05", "D", "X3", "X1", "Hall"),
        ("2027-01-06", "D", "X2", "X4", "Hall"),
        ("2027-01-07", "D", "X4", "X1", "Hall"),
        ("2027-01-08", "D", "X2", "X3", "Hall"),
    ]);
    assert_eq!(broken_rules(&league, &bad), vec!["7 venue capacity"]);
}

#[test]
fn same_club_first_binds_against_avoid_pressure() {
    let mut league = Lg::new("2027-01-04", "2027-01-31")
        .rule("same_club_first = true")
        .rule("min_days_between = 2")
        .division("D", "single")
        .club("A", "")
        .club("B", "")
        .team("A1", "A", "D", "")
        .team("A2", "A", "D", "")
        .team("B1", "B", "D", "")
        .team("B2", "B", "D", "")
        .league();
    // Everyone would like to play early, so the internal matches are tempted late.
    for t in &mut league.teams {
        t.avoid = (14..=31)
            .map(|d| date(&format!("2027-01-{d:02}")))
            .collect();
    }
    let csv = solve_valid(&league);
    for (a, b) in [("A1", "A2"), ("B1", "B2")] {
        let r = rows(&csv);
        let internal = r
            .iter()
            .find(|x| (x.1 == a && x.2 == b) || (x.1 == b && x.2 == a))
            .map(|x| date(&x.0))
            .unwrap();
        for x in &r {
            let involved = [a, b].contains(&x.1.as_str()) || [a, b].contains(&x.2.as_str());
            if involved && date(&x.0) != internal {
                assert!(
                    date(&x.0) > internal,
                    "{x:?} before {a} v {b} on {internal}"
                );
            }
        }
    }
    let bad = csv_of(&[
        ("2027-01-04", "D", "A1", "B1", "A Hall"),
        ("2027-01-07", "D", "A1", "A2", "A Hall"),
        ("2027-01-10", "D", "B1", "B2", "B Hall"),
        ("2027-01-13", "D", "A2", "B1", "A Hall"),
        ("2027-01-16", "D", "B2", "A1", "B Hall"),
        ("2027-01-19", "D", "B2", "A2", "B Hall"),
    ]);
    assert_eq!(broken_rules(&league, &bad), vec!["8 same_club_first"]);
}

#[test]
fn latest_internal_date_binds() {
    let mut league = Lg::new("2027-01-04", "2027-01-31")
        .rule("latest_internal_date = 2027-01-10")
        .division("D", "double")
        .club("A", "")
        .club("B", "")
        .team("A1", "A", "D", "")
        .team("A2", "A", "D", "")
        .team("B1", "B", "D", "")
        .league();
    for t in &mut league.teams {
        t.avoid = (4..=10).map(|d| date(&format!("2027-01-{d:02}"))).collect();
    }
    let csv = solve_valid(&league);
    for (d, h, a) in rows(&csv) {
        if h.starts_with('A') && a.starts_with('A') {
            assert!(date(&d) <= date("2027-01-10"));
        }
    }
    let bad = csv_of(&[
        ("2027-01-04", "D", "A1", "A2", "A Hall"),
        ("2027-01-12", "D", "A2", "A1", "A Hall"),
        ("2027-01-06", "D", "A1", "B1", "A Hall"),
        ("2027-01-14", "D", "B1", "A1", "B Hall"),
        ("2027-01-08", "D", "A2", "B1", "A Hall"),
        ("2027-01-16", "D", "B1", "A2", "B Hall"),
    ]);
    assert_eq!(broken_rules(&league, &bad), vec!["8 latest_internal_date"]);
}

#[test]
fn max_consecutive_weeks_binds() {
    // Three teams, double round robin: 4 matches each, Mondays only, at most 2 weeks in a row.
    let league = abc("2027-01-04", "2027-03-29")
        .rule("max_consecutive_weeks = 2")
        .rule("min_days_between = 7")
        .league();
    let mut league = league;
    league.divisions[0].format = fixtures::model::Format::Double;
    for t in &mut league.teams {
        t.hosting = fixtures::model::Hosting::Nights(vec![chrono::Weekday::Mon]);
        // Everyone wants an early finish: tempting runs of consecutive weeks.
        t.avoid = (0..8)
            .map(|w| date("2027-02-01") + chrono::Days::new(7 * w))
            .collect();
    }
    let csv = solve_valid(&league);
    for t in ["A", "B", "C"] {
        let d = dates_of(&csv, t);
        for w in d.windows(3) {
            assert!(
                (w[2] - w[0]).num_days() > 14,
                "{t} plays three weeks running: {w:?}"
            );
        }
    }
    let bad = csv_of(&[
        ("2027-01-04", "D", "A", "B", "A Hall"),
        ("2027-01-11", "D", "C", "A", "C Hall"),
        ("2027-01-18", "D", "A", "C", "A Hall"),
        ("2027-02-01", "D", "B", "A", "B Hall"),
        ("2027-02-08", "D", "B", "C", "B Hall"),
        ("2027-02-22", "D", "C", "B", "C Hall"),
    ]);
    assert_eq!(broken_rules(&league, &bad), vec!["6 max_consecutive_weeks"]);
}

#[test]
fn max_home_dates_binds() {
    // Club A's two teams host 3 matches between them... on at most 2 dates.
    let league = Lg::new("2027-01-04", "2027-01-31")
        .rule("home_away_balance = 3")
        .division("D", "single")
        .club("A", "max_home_dates = 1")
        .club("B", "")
        .team("A1", "A", "D", "")
        .team("A2", "A", "D", "")
        .team("B1", "B", "D", "")
        .team("B2", "B", "D", "")
        .league();
    let csv = solve_valid(&league);
    let dates: std::collections::BTreeSet<String> = rows(&csv)
        .into_iter()
        .filter(|r| r.1.starts_with('A'))
        .map(|r| r.0)
        .collect();
    assert!(dates.len() <= 1, "{dates:?}");
    let bad = csv_of(&[
        ("2027-01-04", "D", "A1", "A2", "A Hall"),
        ("2027-01-11", "D", "A1", "B1", "A Hall"),
        ("2027-01-12", "D", "B2", "A1", "B Hall"),
        ("2027-01-05", "D", "B1", "B2", "B Hall"),
        ("2027-01-13", "D", "B2", "A2", "B Hall"),
        ("2027-01-14", "D", "B1", "A2", "B Hall"),
    ]);
    assert_eq!(broken_rules(&league, &bad), vec!["8 max_home_dates"]);
}

#[test]
fn fixed_and_excluded() {
    let league = abc("2027-01-04", "2027-01-31")
        .raw("[[fixed]]\nhome = \"C\"\naway = \"A\"\ndate = \"2027-01-20\"\n")
        .raw("[[excluded]]\nhome = \"C\"\naway = \"B\"\n")
        .league();
    let csv = solve_valid(&league);
    let r = rows(&csv);
    assert_eq!(r.len(), 2);
    assert!(r.contains(&("2027-01-20".into(), "C".into(), "A".into())));
    let bad = csv_of(&[
        ("2027-01-04", "D", "A", "B", "A Hall"),
        ("2027-01-21", "D", "C", "A", "C Hall"),
        ("2027-01-25", "D", "B", "C", "B Hall"),
    ]);
    assert_eq!(broken_rules(&league, &bad), vec!["5 fixed", "5 fixtures"]);
}

#[test]
fn avoid_dates_are_honoured_where_possible() {
    let mut league = abc("2027-01-04", "2027-01-17")
        .rule("min_days_between = 2")
        .league();
    for t in &mut league.teams {
        t.avoid = (4..=12).map(|d| date(&format!("2027-01-{d:02}"))).collect();
    }
    let csv = solve_valid(&league);
    assert_eq!(common::check_csv(&league, &csv).quality.avoid_hits, 0);
}

#[test]
fn impossible_league_is_infeasible_not_timed_out() {
    // Three teams, two matches each, but only one date.
    let league = abc("2027-01-04", "2027-01-04").league();
    let solved = solve(&league);
    match solved.outcome {
        Outcome::Infeasible(reasons) => {
            assert!(
                reasons
                    .iter()
                    .any(|r| r.contains("fixtures but at most 1 dates")),
                "{reasons:?}"
            )
        }
        other => panic!("expected infeasible, got {other:?}"),
    }
}

#[test]
fn venue_too_small_is_reported_with_its_teams() {
    // Four teams of one club share a hall of capacity 1 open on two Mondays; a double round
    // robin needs 12 home matches there.
    let league = Lg::new("2027-01-04", "2027-01-11")
        .division("D", "double")
        .venue("Hall", "capacity = 1")
        .raw("[[club]]\nname = \"X\"\nvenue = \"Hall\"\nnights = [\"Mon\"]\n")
        .team("X1", "X", "D", "")
        .team("X2", "X", "D", "")
        .team("X3", "X", "D", "")
        .team("X4", "X", "D", "")
        .league();
    match solve(&league).outcome {
        Outcome::Infeasible(reasons) => assert!(
            reasons.iter().any(|r| r.contains(
                "Hall must host at least 12 home matches of X1, X2, X3, X4 but has room for only 2"
            )),
            "{reasons:?}"
        ),
        other => panic!("expected infeasible, got {other:?}"),
    }
}
