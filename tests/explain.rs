//! When there is no schedule, say why: each pre-check on a league that trips it, and the elastic
//! model on leagues with a known single cause.

mod common;
use common::*;
use fixtures::solve::{self, Outcome};

/// The reasons `solve` gives, as one text.
fn why(league: &fixtures::model::League) -> String {
    let solved = solve::solve(league, &opts()).unwrap();
    match solved.outcome {
        Outcome::Infeasible(reasons) => reasons.join("\n"),
        other => panic!("expected infeasible, got {other:?}"),
    }
}

/// Four teams of one club share a hall that holds one match a Monday, from 2027-01-04 to `end`.
fn tiny_hall(end: &str) -> fixtures::model::League {
    Lg::new("2027-01-04", end)
        .rule("min_days_between = 1")
        .venue("Tiny Hall", "capacity = 1")
        .division("D", "single")
        .raw("[[club]]\nname = \"K\"\nvenue = \"Tiny Hall\"\nnights = [\"Mon\"]\n")
        .team("K1", "K", "D", "")
        .team("K2", "K", "D", "")
        .team("K3", "K", "D", "")
        .team("K4", "K", "D", "")
        .league()
}

/// Three teams, Mondays only, each at its own hall.
fn three_on_mondays(start: &str, end: &str) -> Lg {
    Lg::new(start, end)
        .rule("min_days_between = 7")
        .division("D", "single")
        .club("A", "")
        .club("B", "")
        .club("C", "")
}

#[test]
fn precheck_a_club_that_starts_too_late() {
    // Four Mondays; club C starts on the last: C1 has two fixtures and one date.
    let league = Lg::new("2027-01-04", "2027-01-31")
        .rule("min_days_between = 7")
        .division("D", "single")
        .club("A", "")
        .club("B", "")
        .club("C", "start = 2027-01-25")
        .team("A1", "A", "D", "nights = [\"Mon\"]")
        .team("B1", "B", "D", "nights = [\"Mon\"]")
        .team("C1", "C", "D", "nights = [\"Mon\"]")
        .league();
    let text = why(&league);
    assert!(
        text.contains("C1 has 2 fixtures but at most 1 dates"),
        "{text}"
    );
    assert!(
        text.contains("it starts on 2027-01-25, when its club C starts"),
        "{text}"
    );
}

#[test]
fn precheck_a_team_unavailable_too_often() {
    let league = three_on_mondays("2027-01-04", "2027-01-31")
        .team(
            "A1",
            "A",
            "D",
            "unavailable = [2027-01-04, 2027-01-11, 2027-01-18]\nnights = [\"Mon\"]",
        )
        .team("B1", "B", "D", "nights = [\"Mon\"]")
        .team("C1", "C", "D", "nights = [\"Mon\"]")
        .league();
    let text = why(&league);
    assert!(
        text.contains("A1 has 2 fixtures but at most 1 dates"),
        "{text}"
    );
}

#[test]
fn precheck_a_venue_too_small() {
    // Four teams share one hall that holds one match a Monday; three Mondays.
    let league = tiny_hall("2027-01-24");
    let text = why(&league);
    assert!(
        text.contains("Tiny Hall must host at least 4 home matches"),
        "{text}"
    );
    assert!(text.contains("room for only 3"), "{text}");
}

#[test]
fn precheck_fixed_fixtures_that_clash() {
    let league = three_on_mondays("2027-01-04", "2027-03-31")
        .rule("min_days_between = 7")
        .raw("[[fixed]]\nhome = \"A1\"\naway = \"B1\"\ndate = 2027-01-04\n")
        .raw("[[fixed]]\nhome = \"C1\"\naway = \"A1\"\ndate = 2027-01-04\n")
        .team("A1", "A", "D", "nights = [\"Mon\"]")
        .team("B1", "B", "D", "nights = [\"Mon\"]")
        .team("C1", "C", "D", "nights = [\"Mon\"]")
        .league();
    let text = why(&league);
    assert!(
        text.contains(
            "fixed fixtures A1 v B1 on 2027-01-04 and C1 v A1 on 2027-01-04 are 0 days apart"
        ),
        "{text}"
    );
}

#[test]
fn precheck_club_mates_who_can_only_meet_late() {
    // A1 and A2 (same club) can only meet on the last Monday, but must meet before A1 plays B1.
    let league = Lg::new("2027-01-04", "2027-01-31")
        .rule("min_days_between = 7")
        .rule("same_club_first = true")
        .division("D", "single")
        .club("A", "")
        .club("B", "")
        .team(
            "A1",
            "A",
            "D",
            "unavailable = [2027-01-04, 2027-01-11, 2027-01-18]\nnights = [\"Mon\"]",
        )
        .team("A2", "A", "D", "nights = [\"Mon\"]")
        .team("B1", "B", "D", "nights = [\"Mon\"]")
        .league();
    let text = why(&league);
    // A1 has only one date: the plain pre-check speaks first.
    assert!(text.contains("A1 has 2 fixtures"), "{text}");
    let league = Lg::new("2027-01-04", "2027-02-07")
        .rule("min_days_between = 7")
        .rule("same_club_first = true")
        .division("D", "single")
        .club("A", "")
        .club("B", "")
        .team("A1", "A", "D", "nights = [\"Mon\"]")
        .team(
            "A2",
            "A",
            "D",
            "unavailable = [2027-01-04, 2027-01-11, 2027-01-18, 2027-01-25]\nnights = [\"Mon\"]",
        )
        .team("B1", "B", "D", "nights = [\"Mon\"]")
        .league();
    // A2 can only play on 2027-02-01: A1 v A2 then, so A1 v B1 after it: no date left.
    let text = why(&league);
    assert!(
        text.contains("A1 v A2 (same club) can be played on 2027-02-01 at the earliest"),
        "{text}"
    );
}

#[test]
fn elastic_names_the_unavailable_team_and_date() {
    // Three Mondays; A1 and B1 are both away on the first, so only C1 could play then: three
    // fixtures, two Mondays, one match a Monday. Every team alone has enough dates.
    let league = three_on_mondays("2027-01-04", "2027-01-24")
        .team(
            "A1",
            "A",
            "D",
            "unavailable = [2027-01-04]\nnights = [\"Mon\"]",
        )
        .team(
            "B1",
            "B",
            "D",
            "unavailable = [2027-01-04]\nnights = [\"Mon\"]",
        )
        .team("C1", "C", "D", "nights = [\"Mon\"]")
        .league();
    let solved = solve::solve(&league, &opts()).unwrap();
    let Outcome::Infeasible(reasons) = &solved.outcome else {
        panic!("{:?}", solved.outcome)
    };
    let text = reasons.join("\n");
    assert!(
        text.contains("A1 could play on 1 of its unavailable dates (2027-01-04)")
            || text.contains("B1 could play on 1 of its unavailable dates (2027-01-04)"),
        "{text}"
    );
    assert_eq!(solved.relaxations.len(), 1, "{:?}", solved.relaxations);
    assert_eq!(solved.relaxations[0].rule, "unavailable");
}

#[test]
fn elastic_names_the_venue_that_is_too_small() {
    // Four teams share a hall of capacity 1 on Mondays; five Mondays for six fixtures. The
    // venue pre-check (4 home matches needed) passes; the venue is the single cause.
    let league = tiny_hall("2027-02-07");
    let solved = solve::solve(&league, &opts()).unwrap();
    assert!(
        matches!(solved.outcome, Outcome::Infeasible(_)),
        "{:?}",
        solved.outcome
    );
    assert_eq!(solved.relaxations.len(), 1, "{:?}", solved.relaxations);
    let r = &solved.relaxations[0];
    assert_eq!((r.rule.as_str(), r.who.as_str()), ("capacity", "Tiny Hall"));
    assert!(
        r.message
            .contains("Tiny Hall could host more than 1 matches on 2027-"),
        "{}",
        r.message
    );
}
