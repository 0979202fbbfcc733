//! Reading league files: every key of the spec, both date spellings, ranges, defaults, and
//! errors that name the file, line and key.

mod common;
use fixtures::model::{parse_league, Format, Hosting, InputErrors, Problem};

const SPEC_EXAMPLE: &str = include_str!("../instances/examples/mid-downs.toml");

fn errors(text: &str) -> InputErrors {
    match parse_league(text, "bad.toml") {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(e) => e,
    }
}

/// The first error: its line, key and message.
fn first(text: &str) -> (usize, String, String) {
    let e = errors(text);
    let e = &e.0[0];
    (e.line, e.key.clone(), e.to_string())
}

const BASE: &str = r#"name = "L"
start = 2026-10-12
end = 2027-05-14

[[venue]]
name = "Hall"

[[club]]
name = "A"
venue = "Hall"
nights = ["Tue"]

[[division]]
name = "D1"

[[team]]
name = "A1"
club = "A"
division = "D1"

[[team]]
name = "A2"
club = "A"
division = "D1"
"#;

fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn spec_example_reads_with_every_default_and_inheritance() {
    let l = parse_league(SPEC_EXAMPLE, "mid-downs.toml").unwrap();
    assert_eq!(l.name, "Mid Downs League 2026-7");
    assert_eq!(l.rules.min_days_between, 6);
    assert_eq!(l.rules.home_away_balance, 1);
    assert_eq!(l.rules.max_unavailable, Some(15));
    assert!(l.rules.same_club_first);
    // 16 days of Christmas closure plus two dates.
    assert_eq!(l.closed.len(), 16 + 2);
    let hall = &l.venues[0];
    assert_eq!(hall.capacity, 2);
    assert_eq!(hall.capacity_on("2026-11-03".parse().unwrap()), 3);
    assert_eq!(l.venues[1].capacity, 1);
    let h1 = &l.teams[l.team_by_name("Horsham 1").unwrap()];
    assert_eq!(h1.unavailable.len(), 1 + 5);
    let h3 = &l.teams[l.team_by_name("Horsham 3").unwrap()];
    assert_eq!(h3.hosting, Hosting::Nights(vec![chrono::Weekday::Thu]));
    let lewes2 = &l.teams[l.team_by_name("Lewes 2").unwrap()];
    assert_eq!(lewes2.start, "2026-11-01".parse().unwrap());
    // Club unavailability is added to the team's.
    assert!(lewes2.unavailable.contains(&"2027-04-20".parse().unwrap()));
    assert_eq!(l.divisions[1].format, Format::Double);
    assert_eq!(l.fixed.len(), 1);
    // Division 1: 6 single fixtures; Division 2: 6 double fixtures.
    assert_eq!(l.fixtures().len(), 12);
}

#[test]
fn both_date_spellings_and_ranges() {
    let text = BASE
        .replace("start = 2026-10-12", "start = \"2026-10-12\"")
        .replace(
            "nights = [\"Tue\"]",
            "nights = [\"tue\", \"THU\"]\nunavailable = [\"2026-11-03\", { from = \"2026-12-01\", to = 2026-12-03 }]",
        );
    let l = parse_league(&text, "x").unwrap();
    assert_eq!(l.start, "2026-10-12".parse().unwrap());
    assert_eq!(l.teams[0].unavailable.len(), 4);
    assert_eq!(
        l.teams[0].hosting,
        Hosting::Nights(vec![chrono::Weekday::Tue, chrono::Weekday::Thu])
    );
}

#[test]
fn home_dates_replace_nights() {
    let text = BASE.replace(
        "nights = [\"Tue\"]",
        "nights = [\"Tue\"]\nhome_dates = [2026-10-13, { from = 2026-11-01, to = 2026-11-02 }]",
    );
    let l = parse_league(&text, "x").unwrap();
    match &l.teams[0].hosting {
        Hosting::Dates(d) => assert_eq!(d.len(), 3),
        other => panic!("{other:?}"),
    }
}

#[test]
fn unknown_references_name_line_and_key() {
    let text = BASE.replace(
        "club = \"A\"\ndivision = \"D1\"\n\n[[team]]\nname = \"A2\"",
        "club = \"Q\"\ndivision = \"D1\"\n\n[[team]]\nname = \"A2\"",
    );
    let (line, key, msg) = first(&text);
    assert_eq!(line, line_of(&text, "club = \"Q\""));
    assert_eq!(key, "club");
    assert!(
        msg.contains("bad.toml:") && msg.contains("unknown club \"Q\""),
        "{msg}"
    );

    let text = BASE.replace("venue = \"Hall\"\nnights", "venue = \"Hal\"\nnights");
    let (line, key, msg) = first(&text);
    assert_eq!((line, key.as_str()), (line_of(&text, "\"Hal\""), "venue"));
    assert!(msg.contains("unknown venue \"Hal\""));

    let text = BASE.replace(
        "division = \"D1\"\n\n[[team]]",
        "division = \"D9\"\n\n[[team]]",
    );
    let (line, key, msg) = first(&text);
    assert_eq!((line, key.as_str()), (line_of(&text, "\"D9\""), "division"));
    assert!(msg.contains("unknown division \"D9\""));

    let text = format!("{BASE}\n[[fixed]]\nhome = \"A1\"\naway = \"Zed\"\ndate = 2026-10-13\n");
    let (line, key, msg) = first(&text);
    assert_eq!((line, key.as_str()), (line_of(&text, "\"Zed\""), "away"));
    assert!(msg.contains("unknown team \"Zed\""));
}

#[test]
fn duplicate_names() {
    let text = format!("{BASE}\n[[team]]\nname = \"A1\"\nclub = \"A\"\ndivision = \"D1\"\n");
    let e = errors(&text);
    let d =
        e.0.iter()
            .find(|e| matches!(e.problem, Problem::Duplicate { .. }))
            .unwrap();
    assert_eq!(
        d.line,
        text.lines()
            .collect::<Vec<_>>()
            .iter()
            .rposition(|l| *l == "name = \"A1\"")
            .unwrap()
            + 1
    );
    assert!(d.to_string().contains("two teams are called \"A1\""));
    let text = format!("{BASE}\n[[venue]]\nname = \"Hall\"\n");
    assert!(errors(&text)
        .to_string()
        .contains("two venues are called \"Hall\""));
}

#[test]
fn bad_weekday_and_bad_dates() {
    let text = BASE.replace("[\"Tue\"]", "[\"Tue\", \"Tuesday\"]");
    let (line, key, msg) = first(&text);
    assert_eq!((line, key.as_str()), (line_of(&text, "Tuesday"), "nights"));
    assert!(msg.contains("\"Tuesday\" is not a weekday"));

    let text = BASE.replace("start = 2026-10-12", "start = \"2026-02-30\"");
    let (line, key, msg) = first(&text);
    assert_eq!((line, key.as_str()), (2, "start"));
    assert!(msg.contains("2026-02-30"), "{msg}");

    // A TOML date that does not exist is refused by the parser with its line.
    let text = BASE.replace("end = 2027-05-14", "end = 2027-02-30");
    let (line, _, _) = first(&text);
    assert_eq!(line, 3);

    let text = BASE.replace("start = 2026-10-12", "start = \"12/10/2026\"");
    assert!(first(&text).2.contains("not a date"));
}

#[test]
fn end_before_start() {
    let text = BASE.replace("end = 2027-05-14", "end = 2026-01-01");
    let (line, key, msg) = first(&text);
    assert_eq!((line, key.as_str()), (3, "end"));
    assert!(msg.contains("before `start`"));
}

#[test]
fn backwards_range() {
    let text = BASE.replace(
        "nights = [\"Tue\"]",
        "nights = [\"Tue\"]\nunavailable = [{ from = 2026-12-05, to = 2026-12-01 }]",
    );
    let (line, key, msg) = first(&text);
    assert_eq!(key, "unavailable");
    assert_eq!(line, line_of(&text, "unavailable"));
    assert!(msg.contains("before it starts"));
}

#[test]
fn team_with_no_opponent() {
    let text = format!(
        "{BASE}\n[[division]]\nname = \"D2\"\n\n[[team]]\nname = \"Lonely\"\nclub = \"A\"\ndivision = \"D2\"\n"
    );
    let (line, key, msg) = first(&text);
    assert_eq!(
        (line, key.as_str()),
        (line_of(&text, "division = \"D2\""), "division")
    );
    assert!(msg.contains("\"Lonely\" has no opponent"));
}

#[test]
fn too_many_unavailable_dates_counts_club_and_team() {
    let text = BASE
        .replace("end = 2027-05-14\n", "end = 2027-05-14\n\n[rules]\nmax_unavailable = 15\n")
        .replace(
            "nights = [\"Tue\"]",
            "nights = [\"Tue\"]\nunavailable = [{ from = 2026-12-01, to = 2026-12-10 }]",
        )
        .replace(
            "name = \"A2\"\nclub = \"A\"\ndivision = \"D1\"",
            "name = \"A2\"\nclub = \"A\"\ndivision = \"D1\"\nunavailable = [{ from = 2027-01-01, to = 2027-01-06 }]",
        );
    let e = errors(&text);
    assert_eq!(e.0.len(), 1, "{e}");
    let msg = e.to_string();
    assert!(
        msg.contains("\"A2\" declares 16 unavailable dates"),
        "{msg}"
    );
    assert!(msg.contains("at most 15"));
    assert_eq!(e.0[0].line, line_of(&text, "2027-01-01"));
}

#[test]
fn fixed_fixture_never_playable_on_its_date() {
    // 2026-10-14 is a Wednesday; club A hosts on Tuesdays.
    let text = format!("{BASE}\n[[fixed]]\nhome = \"A1\"\naway = \"A2\"\ndate = 2026-10-14\n");
    let (line, key, msg) = first(&text);
    assert_eq!(
        (line, key.as_str()),
        (line_of(&text, "date = 2026-10-14"), "date")
    );
    assert!(msg.contains("can never be played on 2026-10-14"), "{msg}");
    assert!(msg.contains("not a hosting date of A1"), "{msg}");
}

#[test]
fn syntax_and_type_errors_name_line_and_key() {
    let text = BASE.replace(
        "[[venue]]\nname = \"Hall\"",
        "[[venue]]\nname = \"Hall\"\ncapacity = \"two\"",
    );
    let (line, key, msg) = first(&text);
    assert_eq!(
        (line, key.as_str()),
        (line_of(&text, "capacity"), "capacity")
    );
    assert!(msg.contains("bad.toml:"), "{msg}");

    let text = BASE.replace("nights = [\"Tue\"]", "nigths = [\"Tue\"]");
    let (line, _, msg) = first(&text);
    assert_eq!(line, line_of(&text, "nigths"));
    assert!(msg.contains("nigths"), "{msg}");

    let (line, _, _) = first("name = \"x\"\nstart = 2026-10-12\nstart = 2026-10-13\n");
    assert_eq!(line, 3);
}

#[test]
fn missing_required_keys() {
    let msg = errors("name = \"x\"\n").to_string();
    assert!(msg.contains("start"), "{msg}");
    let text = BASE.replace("venue = \"Hall\"\nnights = [\"Tue\"]", "nights = [\"Tue\"]");
    assert!(errors(&text).to_string().contains("has no venue"));
    let text = BASE.replace("nights = [\"Tue\"]\n", "");
    assert!(errors(&text).to_string().contains("has no home nights"));
}

#[test]
fn capacity_must_be_positive() {
    let text = BASE.replace("name = \"Hall\"", "name = \"Hall\"\ncapacity = 0");
    let (line, key, msg) = first(&text);
    assert_eq!(
        (line, key.as_str()),
        (line_of(&text, "capacity = 0"), "capacity")
    );
    assert!(msg.contains("capacity 0"));
}

#[test]
fn hostile_inputs_never_panic() {
    for text in [
        "",
        "\u{0}\u{1}\u{2}garbage",
        "[[team]]\n[[team]]\n",
        "name = 5\nstart = true\nend = []\n",
        "start = 2026-10-12T10:00:00\nend = 2026-10-13\nname = \"x\"",
        "name = \"x\"\nstart = 2026-10-12\nend = 2026-10-13\nclosed = [{ from = 0001-01-01, to = 9999-12-31 }]",
        "name = \"x\"\nstart = 0001-01-01\nend = 9999-12-31\n",
        "name = \"x\"\nstart = 2026-10-12\nend = 2026-10-13\n[rules]\nmin_days_between = -3\n",
        "name = \"x\"\nstart = 2026-10-12\nend = 2026-10-13\n[[venue]]\nname = \"v\"\ncapacity_on = { \"x\" = 1 }\n",
    ] {
        assert!(parse_league(text, "h.toml").is_err(), "{text}");
    }
}

#[test]
fn winter_break_is_the_longest_closure_else_the_turn_of_the_year() {
    let d = |s: &str| s.parse::<chrono::NaiveDate>().unwrap();
    let league = parse_league(SPEC_EXAMPLE, "mid-downs.toml").unwrap();
    // closed = [{ from = 2026-12-19, to = 2027-01-03 }, 2027-03-26, 2027-03-29]
    assert_eq!(
        league.winter_break(),
        Some((d("2026-12-19"), d("2027-01-04")))
    );
    // Closures shorter than a week are not a break: the turn of the year stands in.
    let short = SPEC_EXAMPLE.replace(
        "closed = [{ from = 2026-12-19, to = 2027-01-03 }, 2027-03-26, 2027-03-29]",
        "closed = [{ from = 2026-12-24, to = 2026-12-27 }]",
    );
    let league = parse_league(&short, "short.toml").unwrap();
    assert_eq!(
        league.winter_break(),
        Some((d("2027-01-01"), d("2027-01-01")))
    );
}

/// `[rules] tie_breaks`: a list of names or one string of them; an unknown name is refused with
/// its line, key and the names known; without it each division has its format's own.
#[test]
fn tie_breaks_read_as_a_list_or_a_string() {
    use fixtures::model::TieBreak;
    let base = parse_league(BASE, "base.toml").unwrap();
    assert_eq!(base.tie_breaks(0), [TieBreak::GamePoints]);
    for rules in [
        "tie_breaks = [\"game_points\", \"head_to_head\"]",
        "tie_breaks = \"game_points, head_to_head\"",
    ] {
        let text = format!("{BASE}\n[rules]\n{rules}\n");
        let l = parse_league(&text, "l.toml").unwrap();
        assert_eq!(
            l.tie_breaks(0),
            [TieBreak::GamePoints, TieBreak::HeadToHead]
        );
        assert_eq!(
            l.placed_by(0),
            "Teams level on points are placed by game points, then the matches between them, then by name."
        );
    }
    // A division's own beat the league's.
    let text = BASE.replace(
        "[[division]]\nname = \"D1\"\n",
        "[[division]]\nname = \"D1\"\ntie_breaks = \"head_to_head, game_points\"\n",
    ) + "\n[rules]\ntie_breaks = \"game_points, head_to_head\"\n";
    let l = parse_league(&text, "l.toml").unwrap();
    assert_eq!(
        l.tie_breaks(0),
        [TieBreak::HeadToHead, TieBreak::GamePoints]
    );
    let text = format!("{BASE}\n[rules]\ntie_breaks = [\"game_points\", \"coin\"]\n");
    let (line, key, msg) = first(&text);
    assert_eq!(
        (line, key.as_str()),
        (line_of(&text, "tie_breaks"), "rules.tie_breaks")
    );
    assert!(
        msg.contains("\"coin\" is not a tie-break; use game_points, head_to_head"),
        "{msg}"
    );
}

/// `[penalties]` (Sussex rule 6, 4NCL rule 10): read as written, each bad value named by its
/// line and key, an unknown key refused.
#[test]
fn penalties_read_and_their_errors_name_line_and_key() {
    let text = format!(
        "{BASE}\n[penalties]\nboard_points = [4, 3, 2, 1]\nper_match_point = 6\nserious_default = 2\n"
    );
    let p = parse_league(&text, "l.toml").unwrap().penalties;
    assert_eq!(p.board_points, [4, 3, 2, 1]);
    assert_eq!(
        (p.per_match_point, p.serious_default, p.not_below_zero),
        (Some(6), 2, false)
    );
    assert_eq!(p.for_boards(&[1, 4]), Ok(5));
    assert_eq!(p.match_points_for(13), 2);
    assert!(parse_league(BASE, "l.toml")
        .unwrap()
        .penalties
        .board_points
        .is_empty());
    for (bad, key, says) in [
        (
            "board_points = [4, 300]",
            "penalties.board_points",
            "at most 100",
        ),
        (
            "per_match_point = 0",
            "penalties.per_match_point",
            "at least 1",
        ),
        (
            "serious_default = -2",
            "penalties.serious_default",
            "at least 0",
        ),
        (
            "forfeits_exclude = 0",
            "penalties.forfeits_exclude",
            "at least 1",
        ),
        ("not_below_zero = \"yes\"", "not_below_zero", "invalid type"),
        ("match_points = 3", "match_points", "unknown field"),
    ] {
        let text = format!("{BASE}\n[penalties]\n{bad}\n");
        let (line, k, msg) = first(&text);
        assert_eq!(line, line_of(&text, bad), "{bad}: {msg}");
        assert_eq!(k, key, "{bad}: {msg}");
        assert!(msg.contains(says), "{bad}: {msg}");
    }
}
