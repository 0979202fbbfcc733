//! The league file's `[[constraint]]` tables (RobinX's CA1–CA4, GA1, SE1): one tiny league per
//! kind where it binds. The solver obeys it (checked here on the rows directly, not only
//! through the checker), and the checker refuses a list that breaks it, naming the rule.

mod common;
use common::*;
use fixtures::solve::Outcome;

fn date(s: &str) -> chrono::NaiveDate {
    s.parse().unwrap()
}

/// Four one-team clubs A–D in one division of `format`.
fn abcd(start: &str, end: &str, format: &str) -> Lg {
    let mut lg = Lg::new(start, end).division("D", format);
    for t in ["A", "B", "C", "D"] {
        lg = lg.club(t, "").team(t, t, "D", "");
    }
    lg
}

/// A double round robin of A–D in six weeks: A home, home, away, away, away, home; D no home
/// match in the first two weeks.
fn weekly_double() -> String {
    csv_of(&[
        ("2027-01-04", "D", "A", "B", "A Hall"),
        ("2027-01-04", "D", "C", "D", "C Hall"),
        ("2027-01-11", "D", "A", "C", "A Hall"),
        ("2027-01-11", "D", "B", "D", "B Hall"),
        ("2027-01-18", "D", "D", "A", "D Hall"),
        ("2027-01-18", "D", "B", "C", "B Hall"),
        ("2027-01-25", "D", "B", "A", "B Hall"),
        ("2027-01-25", "D", "D", "C", "D Hall"),
        ("2027-02-01", "D", "C", "A", "C Hall"),
        ("2027-02-01", "D", "D", "B", "D Hall"),
        ("2027-02-08", "D", "A", "D", "A Hall"),
        ("2027-02-08", "D", "C", "B", "C Hall"),
    ])
}

fn week(d: chrono::NaiveDate) -> i64 {
    use chrono::Datelike;
    (i64::from(d.num_days_from_ce()) - 1).div_euclid(7)
}

#[test]
fn matches_against_opponents_on_dates_bind() {
    // CA1: A never at home; CA2: B plays C and D only after 17 January.
    let league = abcd("2027-01-04", "2027-01-31", "single")
        .rule("home_away_balance = 3")
        .raw(
            r#"[[constraint]]
name = "A plays away"
kind = "matches"
teams = ["A"]
side = "home"
max = 0

[[constraint]]
kind = "matches"
teams = ["B"]
opponents = ["C", "D"]
dates = [{ from = 2027-01-04, to = 2027-01-17 }]
max = 0
"#,
        )
        .league();
    let csv = solve_valid(&league);
    for (d, h, a) in rows(&csv) {
        assert_ne!(h, "A", "{csv}");
        if h == "B" || a == "B" {
            let other = if h == "B" { &a } else { &h };
            assert!(other == "A" || date(&d) > date("2027-01-17"), "{csv}");
        }
    }
    let bad = csv_of(&[
        ("2027-01-04", "D", "A", "B", "A Hall"),
        ("2027-01-11", "D", "C", "A", "C Hall"),
        ("2027-01-18", "D", "D", "A", "D Hall"),
        ("2027-01-05", "D", "C", "B", "C Hall"),
        ("2027-01-19", "D", "B", "D", "B Hall"),
        ("2027-01-20", "D", "C", "D", "C Hall"),
    ]);
    let r = check_csv(&league, &bad);
    assert_eq!(broken_rules(&league, &bad), vec!["constraint matches"]);
    assert!(
        r.violations.iter().any(|v| v.fixture == "A plays away: A"),
        "{:#?}",
        r.violations
    );
    assert!(
        r.violations.iter().any(|v| v.fixture == "constraint 2: B"),
        "{:#?}",
        r.violations
    );
}

#[test]
fn in_a_row_keeps_away_matches_apart() {
    // CA3: A plays at most one away match in any three weeks running.
    let league = abcd("2027-01-04", "2027-03-28", "double")
        .rule("min_days_between = 7")
        .raw("[[constraint]]\nkind = \"in_a_row\"\nteams = [\"A\"]\nside = \"away\"\nweeks = 3\nmax = 1\n")
        .league();
    let csv = solve_valid(&league);
    let mut away: Vec<i64> = rows(&csv)
        .into_iter()
        .filter(|r| r.2 == "A")
        .map(|r| week(date(&r.0)))
        .collect();
    away.sort();
    assert_eq!(away.len(), 3);
    assert!(away.windows(2).all(|p| p[1] - p[0] >= 3), "{away:?}\n{csv}");
    let mut bad = csv.lines().map(String::from).collect::<Vec<_>>();
    // Move A's second away match to the week after its first.
    let first = rows(&csv)
        .into_iter()
        .filter(|r| r.2 == "A")
        .min_by_key(|r| date(&r.0))
        .unwrap();
    let next = date(&first.0) + chrono::Days::new(7);
    let second = rows(&csv)
        .into_iter()
        .filter(|r| r.2 == "A" && r.0 != first.0)
        .min_by_key(|r| date(&r.0))
        .unwrap();
    for l in bad.iter_mut() {
        if l.starts_with(&format!("{},", second.0)) && l.contains(&format!(",{},A,", second.1)) {
            *l = l.replacen(&second.0, &next.to_string(), 1);
        }
    }
    let bad = bad.join("\n");
    let broken = broken_rules(&league, &bad);
    assert!(broken.contains(&"constraint in_a_row"), "{broken:?}\n{bad}");
}

#[test]
fn between_keeps_derbies_on_different_nights() {
    // CA4: of the four local teams, at most one match among them a night.
    let league = abcd("2027-01-04", "2027-01-10", "single")
        .raw("[[constraint]]\nname = \"Derbies apart\"\nkind = \"between\"\nteams = [\"A\", \"B\", \"C\", \"D\"]\nmax = 1\n")
        .league();
    let csv = solve_valid(&league);
    let mut dates: Vec<String> = rows(&csv).into_iter().map(|r| r.0).collect();
    dates.sort();
    let n = dates.len();
    dates.dedup();
    assert_eq!((n, dates.len()), (6, 6), "{csv}");
    let bad = csv_of(&[
        ("2027-01-04", "D", "A", "B", "A Hall"),
        ("2027-01-04", "D", "C", "D", "C Hall"),
        ("2027-01-05", "D", "A", "C", "A Hall"),
        ("2027-01-06", "D", "B", "D", "B Hall"),
        ("2027-01-07", "D", "D", "A", "D Hall"),
        ("2027-01-08", "D", "B", "C", "B Hall"),
    ]);
    assert_eq!(broken_rules(&league, &bad), vec!["constraint between"]);
}

#[test]
fn fixtures_on_dates_bind() {
    // GA1: A and B meet on 20 January (either at home: a single round robin).
    let league = abcd("2027-01-04", "2027-01-31", "single")
        .raw("[[constraint]]\nkind = \"fixtures\"\nfixtures = [{ home = \"A\", away = \"B\" }]\ndates = [2027-01-20]\nmin = 1\n")
        .league();
    let csv = solve_valid(&league);
    let ab: Vec<_> = rows(&csv)
        .into_iter()
        .filter(|r| (r.1 == "A" && r.2 == "B") || (r.1 == "B" && r.2 == "A"))
        .collect();
    assert_eq!(ab.len(), 1);
    assert_eq!(ab[0].0, "2027-01-20", "{csv}");
    let bad = csv_of(&[
        ("2027-01-04", "D", "B", "A", "B Hall"),
        ("2027-01-05", "D", "C", "D", "C Hall"),
        ("2027-01-11", "D", "A", "C", "A Hall"),
        ("2027-01-12", "D", "D", "B", "D Hall"),
        ("2027-01-18", "D", "D", "A", "D Hall"),
        ("2027-01-19", "D", "B", "C", "B Hall"),
    ]);
    assert_eq!(broken_rules(&league, &bad), vec!["constraint fixtures"]);
}

#[test]
fn apart_keeps_the_return_match_a_month_away() {
    // SE1: the return match not within 28 days.
    let league = abcd("2027-01-04", "2027-03-28", "double")
        .raw("[[constraint]]\nname = \"Return not within a month\"\nkind = \"apart\"\ndays = 28\n")
        .league();
    let csv = solve_valid(&league);
    let r = rows(&csv);
    for (d, h, a) in &r {
        let back = r.iter().find(|x| &x.1 == a && &x.2 == h).unwrap();
        assert!((date(&back.0) - date(d)).num_days().abs() >= 28, "{csv}");
    }
    let bad = csv_of(&[
        ("2027-01-04", "D", "A", "B", "A Hall"),
        ("2027-01-11", "D", "B", "A", "B Hall"),
        ("2027-01-05", "D", "C", "D", "C Hall"),
        ("2027-02-15", "D", "D", "C", "D Hall"),
        ("2027-01-12", "D", "A", "C", "A Hall"),
        ("2027-02-16", "D", "C", "A", "C Hall"),
        ("2027-01-20", "D", "A", "D", "A Hall"),
        ("2027-03-01", "D", "D", "A", "D Hall"),
        ("2027-01-26", "D", "B", "C", "B Hall"),
        ("2027-03-02", "D", "C", "B", "C Hall"),
        ("2027-01-27", "D", "B", "D", "B Hall"),
        ("2027-03-03", "D", "D", "B", "D Hall"),
    ]);
    let v = check_csv(&league, &bad).violations;
    assert_eq!(v.len(), 1, "{v:#?}");
    assert_eq!(v[0].rule, "constraint apart");
    assert_eq!(v[0].fixture, "Return not within a month: A and B");
}

#[test]
fn breaks_are_limited_per_team_and_in_all() {
    // BR1 and BR2: at most one break a team, two in all.
    let league = abcd("2027-01-04", "2027-03-28", "double")
        .rule("min_days_between = 7")
        .raw("[[constraint]]\nkind = \"breaks\"\nmax = 1\n\n[[constraint]]\nname = \"Few breaks\"\nkind = \"breaks\"\nmax = 2\nper = \"total\"\n")
        .league();
    let csv = solve_valid(&league);
    let r = rows(&csv);
    let breaks = |t: &str| {
        let mut sides: Vec<(chrono::NaiveDate, bool)> = r
            .iter()
            .filter(|x| x.1 == t || x.2 == t)
            .map(|x| (date(&x.0), x.1 == t))
            .collect();
        sides.sort();
        sides.windows(2).filter(|p| p[0].1 == p[1].1).count()
    };
    let each: Vec<usize> = ["A", "B", "C", "D"].iter().map(|t| breaks(t)).collect();
    assert!(
        each.iter().all(|&b| b <= 1) && each.iter().sum::<usize>() <= 2,
        "{each:?}\n{csv}"
    );
    // A plays home, home, away, away, away, home: three breaks.
    let bad = weekly_double();
    let v = check_csv(&league, &bad).violations;
    assert!(v.iter().all(|v| v.rule == "constraint breaks"), "{v:#?}");
    assert!(v.iter().any(|v| v.fixture == "constraint 1: A"), "{v:#?}");
    assert!(
        v.iter().any(|v| v.fixture == "Few breaks: the teams named"),
        "{v:#?}"
    );
}

#[test]
fn level_keeps_home_counts_level_through_the_season() {
    // FA2: at the end of every Sunday, no team more than one home match ahead of another.
    let sundays: Vec<String> = (0..12)
        .map(|w| (date("2027-01-10") + chrono::Days::new(7 * w)).to_string())
        .collect();
    let league = abcd("2027-01-04", "2027-03-28", "double")
        .rule("min_days_between = 7")
        .raw(&format!(
            "[[constraint]]\nname = \"Level\"\nkind = \"level\"\ndates = [{}]\nmax = 1\n",
            sundays.join(", ")
        ))
        .league();
    let csv = solve_valid(&league);
    let r = rows(&csv);
    for d in &sundays {
        let homes: Vec<usize> = ["A", "B", "C", "D"]
            .iter()
            .map(|t| {
                r.iter()
                    .filter(|x| x.1 == *t && date(&x.0) <= date(d))
                    .count()
            })
            .collect();
        let (lo, hi) = (homes.iter().min().unwrap(), homes.iter().max().unwrap());
        assert!(hi - lo <= 1, "{d}: {homes:?}\n{csv}");
    }
    // A at home in the first two weeks, D in neither: two apart by 17 January.
    let bad = weekly_double();
    let v = check_csv(&league, &bad).violations;
    assert!(
        !v.is_empty() && v.iter().all(|v| v.rule == "constraint level"),
        "{v:#?}"
    );
    assert!(
        v.iter().any(|v| v.date == Some(date("2027-01-17"))),
        "{v:#?}"
    );
}

/// No goal but the soft constraints: the objective is their cost alone.
fn only_constraints() -> Lg {
    let mut lg = abcd("2027-01-04", "2027-01-24", "double");
    for k in [
        "breaks",
        "avoid",
        "long_rest",
        "short_rest",
        "spread",
        "spread_max",
        "winter",
    ] {
        lg = lg.weight(&format!("{k} = 0"));
    }
    lg
}

#[test]
fn a_soft_constraint_costs_its_weight_per_unit_as_solve_and_check_both_count() {
    // Three weeks cannot keep every return match 28 days away: each pair too close costs 5.
    let league = only_constraints()
        .raw("[[constraint]]\nkind = \"apart\"\ndays = 28\nweight = 5\n\n[[constraint]]\nkind = \"matches\"\nteams = [\"A\"]\ndates = [{ from = 2027-01-04, to = 2027-01-10 }]\nmax = 0\nweight = 1\n")
        .league();
    let opts = fixtures::solve::Options {
        weights: None,
        ..common::opts()
    };
    let solved = fixtures::solve::solve(&league, &opts).unwrap();
    let (Outcome::Optimal { .. } | Outcome::Feasible { .. }, Some(s)) =
        (&solved.outcome, &solved.schedule)
    else {
        panic!("no schedule: {:?}", solved.outcome);
    };
    let csv = s.to_csv(&league);
    let report = check_csv(&league, &csv);
    assert!(report.is_valid(), "{:#?}", report.violations);
    let close = {
        let r = rows(&csv);
        r.iter()
            .filter(|(d, h, a)| {
                h < a
                    && r.iter().any(|x| {
                        &x.1 == a && &x.2 == h && (date(&x.0) - date(d)).num_days().abs() < 28
                    })
            })
            .count()
    };
    let early_a = rows(&csv)
        .iter()
        .filter(|r| (r.1 == "A" || r.2 == "A") && date(&r.0) <= date("2027-01-10"))
        .count();
    let cost = 5.0 * close as f64 + early_a as f64;
    assert_eq!(report.quality.objective, cost, "{csv}");
    assert!(
        (solved.objective.unwrap() - cost).abs() < 1e-6,
        "{:?} {cost}",
        solved.objective
    );
    assert_eq!(early_a, 0, "{csv}");
}

#[test]
fn a_constraint_table_is_read_key_by_key() {
    let bad = |text: &str| {
        let t = abcd("2027-01-04", "2027-01-31", "single").raw(text).toml();
        fixtures::model::parse_league(&t, "league.toml")
            .unwrap_err()
            .to_string()
    };
    let e = bad("[[constraint]]\nkind = \"apart\"\ndays = 28\nmax = 2\n");
    assert!(
        e.contains("key `max`") && e.contains("`apart` constraints have no `max`"),
        "{e}"
    );
    let e = bad("[[constraint]]\nkind = \"three_away\"\n");
    assert!(
        e.contains("\"three_away\" is not a kind of constraint"),
        "{e}"
    );
    let e = bad("[[constraint]]\nkind = \"matches\"\nteams = [\"Z\"]\nmax = 1\n");
    assert!(e.contains("unknown team \"Z\""), "{e}");
    let e = bad("[[constraint]]\nkind = \"in_a_row\"\nweeks = 3\n");
    assert!(e.contains("needs `max`"), "{e}");
    let e = bad("[[constraint]]\nkind = \"matches\"\nside = \"both\"\nmax = 1\n");
    assert!(e.contains("\"both\" is not a side"), "{e}");
    assert!(e.contains("league.toml:"), "{e}");
}

#[test]
fn a_file_of_too_many_constraints_is_refused() {
    let many = "[[constraint]]\nkind = \"apart\"\ndays = 7\n\n".repeat(201);
    let t = abcd("2027-01-04", "2027-01-31", "double").raw(&many).toml();
    let e = fixtures::model::parse_league(&t, "league.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("201 [[constraint]] tables; at most 200"), "{e}");
}
