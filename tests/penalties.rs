//! Penalties for defaults through the season: Sussex rules 6.1 (default points by board, a
//! match point for each six) and 6.2.1 (two match points for a serious default), 4NCL rules
//! 10.1 (a match point for each three) and 10.6 (never below none). The tables take them off,
//! play-offs and final pools follow those tables, and a lifted penalty stays in the record.

use chrono::NaiveDate;
use fixtures::model::{parse_league, TeamId};
use fixtures::season::penalties::Given;
use fixtures::season::record::{Kind, Season, SeasonError};
use fixtures::solve::Options;

const SUSSEX: &str = include_str!("../instances/sussex-2026-7.toml");
const SUSSEX_LIST: &str = include_str!("../instances/sussex-2026-7-fixtures.csv");
const NCL: &str = include_str!("../instances/competitions/4ncl-2026-27-division-1.toml");
const FOUR: &str = include_str!("../instances/examples/four-teams-double.toml");

fn date(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

fn given(team: &str, boards: &[u32], default_points: u32, match_points: u32) -> Given {
    Given {
        team: team.into(),
        boards: boards.to_vec(),
        default_points,
        match_points,
        why: "defaults against Bexhill 3 on 13 Oct, rule 6.1".into(),
    }
}

/// The Sussex season with one Division 3 result in: Lewes 2 beat Bexhill 3 2½-1½.
fn sussex_with_a_result() -> Season {
    let mut s = Season::start(SUSSEX, "sussex.toml", SUSSEX_LIST, date("2026-09-28")).unwrap();
    s.enter_result(
        date("2026-11-01"),
        "Lewes 2 v Bexhill 3",
        None,
        "2½-1½",
        None,
    )
    .unwrap();
    s
}

/// Division 3's rows: (team, match points, deducted), best first.
fn division_3(s: &Season) -> Vec<(String, i32, u32)> {
    let cur = s.current().unwrap();
    let d = cur
        .league
        .divisions
        .iter()
        .position(|d| d.name == "Division 3")
        .unwrap();
    s.standings(&cur, d)
        .iter()
        .map(|r| {
            let name = cur.league.teams[r.team].name.clone();
            (name, r.match_points, r.deducted)
        })
        .collect()
}

fn row<'a>(rows: &'a [(String, i32, u32)], team: &str) -> (usize, &'a (String, i32, u32)) {
    rows.iter().enumerate().find(|(_, r)| r.0 == team).unwrap()
}

/// Rule 6.1: boards 2 and 4 cost 3 + 1 default points, no match point yet; board 1's 4 more
/// make 8, one match point off; with 14 and a match point outright Lewes 2 is below none and
/// last (the Sussex rules set no floor). Lifting a penalty gives its points back and keeps it
/// in the record and the log.
#[test]
fn board_defaults_cost_a_match_point_for_each_six_default_points() {
    let mut s = sussex_with_a_result();
    let today = date("2026-11-02");
    let e = s.penalise(today, &given("Lewes 2", &[2, 4], 0, 0)).unwrap();
    assert_eq!(e.kind, Kind::Penalty);
    assert!(
        e.what.starts_with("number 1: Lewes 2, 4 default points"),
        "{}",
        e.what
    );
    assert!(e.verdict.contains("0 match points off"), "{}", e.verdict);
    assert_eq!(row(&division_3(&s), "Lewes 2").1 .1, 2);
    let e = s.penalise(today, &given("Lewes 2", &[1], 0, 0)).unwrap();
    assert!(e.verdict.contains("8 default points"), "{}", e.verdict);
    assert!(e.verdict.contains("1 match point off"), "{}", e.verdict);
    let rows = division_3(&s);
    assert_eq!(row(&rows, "Lewes 2"), (0, &("Lewes 2".into(), 1, 1)));
    s.penalise(today, &given("Lewes 2", &[1, 3], 0, 1)).unwrap();
    let rows = division_3(&s);
    let (place, r) = row(&rows, "Lewes 2");
    assert_eq!((r.1, r.2), (-1, 3), "14 default points and one outright");
    assert_eq!(place, rows.len() - 1, "below every team on none: {rows:?}");
    // Penalty 3 lifted on appeal: 8 default points again.
    let e = s
        .lift_penalty(date("2026-11-09"), 3, "appeal upheld")
        .unwrap();
    assert_eq!(e.kind, Kind::PenaltyLifted);
    assert!(e.what.starts_with("number 3 (Lewes 2, "), "{}", e.what);
    assert!(e.what.ends_with("): appeal upheld"), "{}", e.what);
    assert_eq!(row(&division_3(&s), "Lewes 2").1 .1, 1);
    assert_eq!(s.penalties.len(), 3, "a lifted penalty stays in the record");
    let cur = s.current().unwrap();
    assert_eq!(s.penalties_in(&cur.league, 2).len(), 2);
    // The record keeps them; a season file written before penalties existed still reads.
    let again = Season::from_json(&s.to_json()).unwrap();
    assert_eq!(again.penalties, s.penalties);
    let mut old: serde_json::Value = serde_json::from_str(&s.to_json()).unwrap();
    old.as_object_mut().unwrap().remove("penalties");
    assert!(Season::from_json(&old.to_string())
        .unwrap()
        .penalties
        .is_empty());
}

/// What a penalty cannot be: each refused in words, the season unchanged.
#[test]
fn a_penalty_is_refused_in_words() {
    let mut s = sussex_with_a_result();
    let today = date("2026-11-02");
    let refused = |s: &mut Season, g: Given| match s.penalise(today, &g) {
        Err(SeasonError::Input(m)) => m,
        other => panic!("{g:?}: {other:?}"),
    };
    let m = refused(&mut s, given("Lewes 2", &[5], 0, 0));
    assert!(m.contains("board 5 is not a board"), "{m}");
    let m = refused(&mut s, given("Lewes 2", &[2, 2], 0, 0));
    assert!(m.contains("named twice"), "{m}");
    let m = refused(&mut s, given("Lewes 2", &[], 0, 0));
    assert!(m.contains("give the boards defaulted"), "{m}");
    let m = refused(&mut s, given("Lewes 9", &[1], 0, 0));
    assert!(m.contains("no team \"Lewes 9\""), "{m}");
    let m = refused(&mut s, given("Lewes 2", &[], 5000, 0));
    assert!(m.contains("at most 1000 default points"), "{m}");
    let mut no_reason = given("Lewes 2", &[1], 0, 0);
    no_reason.why = "  \n ".into();
    let m = refused(&mut s, no_reason);
    assert!(m.contains("say why"), "{m}");
    assert!(s.penalties.is_empty());
    s.penalise(today, &given("Lewes 2", &[1], 0, 0)).unwrap();
    for (number, needle) in [(2, "no penalty 2"), (0, "no penalty 0")] {
        match s.lift_penalty(today, number, "appeal") {
            Err(SeasonError::Input(m)) => assert!(m.contains(needle), "{m}"),
            other => panic!("{other:?}"),
        }
    }
    s.lift_penalty(today, 1, "appeal").unwrap();
    match s.lift_penalty(today, 1, "twice") {
        Err(SeasonError::Input(m)) => assert!(m.contains("was lifted on 2026-11-02"), "{m}"),
        other => panic!("{other:?}"),
    }
    // A league that gives no rate for default points takes match points only.
    let text = SUSSEX.replace("per_match_point = 6", "");
    let mut t = Season::start(&text, "sussex.toml", SUSSEX_LIST, date("2026-09-28")).unwrap();
    let m = refused(&mut t, given("Lewes 2", &[1], 0, 0));
    assert!(m.contains("give match points instead"), "{m}");
    t.penalise(today, &given("Lewes 2", &[], 0, 2)).unwrap();
}

/// Rule 6.2.1: the replay of a seriously defaulted match takes two match points off the
/// defaulting team, as the league's `serious_default` says, and says so in the replay's entry.
#[test]
fn a_serious_default_replayed_costs_the_defaulting_team_two_match_points() {
    let mut s = sussex_with_a_result();
    let today = date("2026-11-02");
    match s.replay(today, "Lewes 2 v Bexhill 3", "Lewes 1", None, false) {
        Err(SeasonError::Input(m)) => assert!(m.contains("Lewes 1 is not a team of"), "{m}"),
        other => panic!("{other:?}"),
    }
    let e = s
        .replay(today, "Lewes 2 v Bexhill 3", "Bexhill 3", None, false)
        .unwrap();
    assert_eq!(e.kind, Kind::Replay);
    assert!(
        e.verdict
            .contains("penalty 1: 2 match points off Lewes 2 (rule 6.2.1)"),
        "{}",
        e.verdict
    );
    assert_eq!(s.penalties.len(), 1);
    assert_eq!(
        (s.penalties[0].team.as_str(), s.penalties[0].match_points),
        ("Lewes 2", 2)
    );
    assert_eq!(row(&division_3(&s), "Lewes 2").1 .1, 0);
    // Without the setting, a replay takes no points.
    let text = SUSSEX.replace("serious_default = 2", "");
    let mut t = Season::start(&text, "sussex.toml", SUSSEX_LIST, date("2026-09-28")).unwrap();
    t.replay(today, "Lewes 2 v Bexhill 3", "Bexhill 3", None, false)
        .unwrap();
    assert!(t.penalties.is_empty());
}

/// Rule 12: a deduction decides which teams are level for a play-off. Every match of the
/// four-team league drawn: all four level; a match point off one leaves the other three, and a
/// play-off that names it is refused.
#[test]
fn a_deduction_decides_who_is_level_for_a_play_off() {
    let league = parse_league(FOUR, "four.toml").unwrap();
    let mut s = Season::start(FOUR, "four.toml", four_list(), date("2026-10-01")).unwrap();
    let today = date("2027-03-27");
    let name = |t: TeamId| league.teams[t].name.clone();
    for m in &s.list().unwrap().matches {
        let fixture = format!("{} v {}", name(m.home), name(m.away));
        s.enter_result(today, &fixture, None, "2-2", None).unwrap();
    }
    let cur = s.current().unwrap();
    assert_eq!(s.tied(&cur, 0), [vec![0, 1, 2, 3]]);
    s.penalise(
        today,
        &Given {
            team: "Barton A".into(),
            match_points: 1,
            why: "fielded an ineligible player, committee's decision".into(),
            ..Given::default()
        },
    )
    .unwrap();
    let cur = s.current().unwrap();
    assert_eq!(s.tied(&cur, 0), [vec![0, 1, 3]]);
    let table = s.standings(&cur, 0);
    assert_eq!((name(table[3].team), table[3].match_points), (name(2), 5));
    let teams = ["Barton A".to_string(), "Barton B".to_string()];
    match s.play_off(today, &teams) {
        Err(SeasonError::Refused(why)) => assert!(why[0].contains("not level"), "{why:?}"),
        other => panic!("{other:?}"),
    }
    let teams = ["Ashby A".to_string(), "Barton B".to_string()];
    s.play_off(today, &teams).unwrap();
}

/// 4NCL rules 10.1 and 10.6 with 6.3: three default points cost a match point, so the team
/// placed fourth in its preliminary pool drops to eighth and plays in the relegation pool; a
/// deduction of more than its points leaves it on none.
#[test]
fn four_ncl_deductions_send_a_team_down_and_never_below_none() {
    let league = parse_league(NCL, "4ncl.toml").unwrap();
    let mut s = Season::start(NCL, "4ncl.toml", &first_draw(NCL), date("2026-11-01")).unwrap();
    let today = date("2027-03-13");
    let name = |t: TeamId| league.teams[t].name.clone();
    for m in &s.list().unwrap().matches {
        let fixture = format!("{} v {}", name(m.home), name(m.away));
        s.enter_result(today, &fixture, None, "4-4", None).unwrap();
    }
    let cur = s.current().unwrap();
    let pool_a = |s: &Season| -> Vec<(TeamId, i32, u32)> {
        let cur = s.current().unwrap();
        s.tables(&cur, 0)[0]
            .1
            .iter()
            .map(|r| (r.team, r.match_points, r.deducted))
            .collect()
    };
    let fourth = pool_a(&s)[3].0;
    let fifth = pool_a(&s)[4].0;
    let penalty = |team: TeamId, default_points, match_points| Given {
        team: name(team),
        default_points,
        match_points,
        why: "two players named and absent, rule 10.3".into(),
        ..Given::default()
    };
    let e = s.penalise(today, &penalty(fourth, 3, 0)).unwrap();
    assert!(e.verdict.contains("1 match point off"), "{}", e.verdict);
    assert!(e.verdict.contains("never below none"), "{}", e.verdict);
    let rows = pool_a(&s);
    assert_eq!(rows[7], (fourth, 6, 1), "{rows:?}");
    assert_eq!(rows[3].0, fifth);
    drop(cur);
    let e = s.final_pools(today, "Division 1").unwrap().clone();
    let (championship, relegation) = e.what.split_once("; relegation ").unwrap();
    assert!(!championship.contains(&name(fourth)), "{}", e.what);
    assert!(relegation.contains(&name(fourth)), "{}", e.what);
    assert!(championship.contains(&name(fifth)), "{}", e.what);
    // Ten match points off a team on three in its final pool's table: none, not minus seven.
    s.penalise(today, &penalty(fifth, 0, 10)).unwrap();
    let cur = s.current().unwrap();
    let champions = &s.tables(&cur, 0)[0].1;
    let r = champions.iter().find(|r| r.team == fifth).unwrap();
    assert_eq!((r.match_points, r.deducted), (0, 3), "{champions:?}");
}

/// The four-team league's first draw, solved once for every test and case of the property.
fn four_list() -> &'static str {
    static LIST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    LIST.get_or_init(|| first_draw(FOUR))
}

/// A league's first draw (one search thread).
fn first_draw(text: &str) -> String {
    let league = parse_league(text, "league.toml").unwrap();
    let opts = Options {
        time_limit: 10.0,
        threads: 1,
        ..Options::default()
    };
    let first = fixtures::pipeline::solve(&league, &opts).expect("the first draw");
    first.checked.csv().to_string()
}

/// One step of the property: a penalty on team `team % 4` of default points or match points,
/// or the lifting of penalty `number` (refused when there is none, or lifted already).
#[derive(Debug, Clone)]
enum Step {
    Penalty {
        team: usize,
        default_points: u32,
        match_points: u32,
    },
    Lift(usize),
}

fn step() -> impl proptest::strategy::Strategy<Value = Step> {
    use proptest::prelude::*;
    prop_oneof![
        3 => (0usize..4, 0u32..8, 0u32..3).prop_map(|(team, default_points, match_points)| {
            Step::Penalty { team, default_points, match_points }
        }),
        1 => (1usize..6).prop_map(Step::Lift),
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, ..Default::default() })]
    /// After any sequence of penalties and liftings on the four-team league, each team's row
    /// takes off what an independent count of the penalties in force says: a match point for
    /// each 3 of its default points plus its match points, no lower than none (a league with
    /// `not_below_zero`); the points in the table are what it won less that; a refused step
    /// changes nothing.
    #[test]
    fn the_table_takes_off_what_the_penalties_in_force_say(
        steps in proptest::collection::vec(step(), 1..12),
        floor in proptest::bool::ANY,
    ) {
        let text = format!(
            "{FOUR}\n[penalties]\nper_match_point = 3\nnot_below_zero = {floor}\n"
        );
        let league = parse_league(&text, "four.toml").unwrap();
        let mut s = Season::start(&text, "four.toml", four_list(), date("2026-10-01")).unwrap();
        let today = date("2027-03-27");
        let name = |t: TeamId| league.teams[t].name.clone();
        // The first team wins every match at home, the rest are drawn.
        let mut won = [0i32; 4];
        for m in &s.list().unwrap().matches {
            let score = if m.home == 0 { "3-1" } else { "2-2" };
            s.enter_result(today, &format!("{} v {}", name(m.home), name(m.away)), None, score, None)
                .unwrap();
            if m.home == 0 {
                won[0] += 2;
            } else {
                won[m.home] += 1;
                won[m.away] += 1;
            }
        }
        // The independent count: (default points, match points, lifted) per penalty.
        let mut given: Vec<(usize, u32, u32, bool)> = Vec::new();
        for st in steps {
            let before = s.clone();
            let ok = match st {
                Step::Penalty { team, default_points, match_points } => {
                    let g = Given {
                        team: name(team),
                        default_points,
                        match_points,
                        why: "a default".into(),
                        ..Given::default()
                    };
                    let ok = s.penalise(today, &g).is_ok();
                    if ok {
                        given.push((team, default_points, match_points, false));
                    }
                    proptest::prop_assert_eq!(ok, default_points + match_points > 0);
                    ok
                }
                Step::Lift(number) => {
                    let open = given.get(number - 1).is_some_and(|g| !g.3);
                    let ok = s.lift_penalty(today, number, "appeal").is_ok();
                    proptest::prop_assert_eq!(ok, open);
                    if ok {
                        given[number - 1].3 = true;
                    }
                    ok
                }
            };
            if !ok {
                proptest::prop_assert_eq!(&s, &before);
            }
        }
        let cur = s.current().unwrap();
        for r in s.standings(&cur, 0) {
            let (d, m) = given
                .iter()
                .filter(|g| g.0 == r.team && !g.3)
                .fold((0, 0), |(d, m), g| (d + g.1, m + g.2));
            let mut off = (d / 3 + m) as i32;
            if floor {
                off = off.min(won[r.team]);
            }
            proptest::prop_assert_eq!(r.deducted as i32, off);
            proptest::prop_assert_eq!(r.match_points, won[r.team] - off);
        }
    }
}

/// Rule 2.6: both clubs notify the Fixtures Secretary within 7 days of agreeing a change, or
/// incur default points. A change entered within the 7 days says nothing of it; one entered
/// later says when notice was due, so that the secretary can record the penalty.
#[test]
fn a_change_entered_after_the_days_to_notify_says_a_penalty_may_be_due() {
    let s = sussex_with_a_result();
    let cur = s.current().unwrap();
    let name = |t: TeamId| cur.league.teams[t].name.clone();
    // A February match, agreed on 2 December (well over 28 days before it).
    let index = cur
        .list
        .matches
        .iter()
        .position(|m| m.date >= date("2027-02-01"))
        .unwrap();
    let m = cur.list.matches[index];
    let fixture = format!("{} v {}", name(m.home), name(m.away));
    let agreed = date("2026-12-02");
    let to = fixtures::season::suggest::suggest(&cur.league, &cur.list, index, date("2027-01-05"))
        .into_iter()
        .map(|x| x.date)
        .find(|d| *d < m.date)
        .expect("a date to move to");
    for (today, late) in [("2026-12-09", false), ("2026-12-10", true)] {
        let mut t = s.clone();
        let e = t.change(date(today), &fixture, to, agreed, false).unwrap();
        assert_eq!(
            e.verdict
                .contains("after 9 Dec 2026 (rule 2.6's 7 days to notify"),
            late,
            "{today}: {}",
            e.verdict
        );
    }
}

/// GTCL rule 8.4: a forfeit is a 4-0 defeat, and after two the team is excluded. A result may
/// name the team that forfeited (its defeat the score's); the second forfeit's entry says the
/// rule excludes the team, for the secretary to withdraw it.
#[test]
fn two_forfeits_exclude_a_team_as_gtcl_rule_8_4_says() {
    let text = format!("{FOUR}\n[penalties]\nforfeits_exclude = 2\n");
    let mut s = Season::start(&text, "four.toml", four_list(), date("2026-10-01")).unwrap();
    let cur = s.current().unwrap();
    let lg = cur.league.clone();
    let name = |t: TeamId| lg.teams[t].name.clone();
    let barton_a = lg.team_by_name("Barton A").unwrap();
    let theirs: Vec<_> = cur
        .list
        .matches
        .iter()
        .filter(|m| m.home == barton_a || m.away == barton_a)
        .copied()
        .collect();
    let today = date("2027-03-27");
    let forfeit = |m: &fixtures::model::Match, by: &str, lost: bool| {
        let home_lost = (m.home == barton_a) == lost;
        fixtures::season::operate::Given {
            fixture: format!("{} v {}", name(m.home), name(m.away)),
            score: if home_lost { "0-4" } else { "4-0" }.into(),
            forfeit: Some(by.into()),
            ..Default::default()
        }
    };
    for (g, says) in [
        (
            forfeit(&theirs[0], "Barton A", false),
            "a forfeit is a defeat for Barton A",
        ),
        (forfeit(&theirs[0], "Nobody", true), "no team \"Nobody\""),
    ] {
        match s.enter(today, &g) {
            Err(SeasonError::Input(m)) => assert!(m.contains(says), "{m}"),
            other => panic!("{g:?}: {other:?}"),
        }
    }
    let stranger = theirs[0].opponent(barton_a).unwrap();
    let other = cur
        .list
        .matches
        .iter()
        .find(|m| ![m.home, m.away].contains(&barton_a) && ![m.home, m.away].contains(&stranger))
        .copied()
        .unwrap();
    let mut g = forfeit(&other, "Barton A", true);
    g.score = "4-0".into();
    match s.enter(today, &g) {
        Err(SeasonError::Input(m)) => assert!(m.contains("Barton A is not a team of"), "{m}"),
        other => panic!("{other:?}"),
    }
    let e = s
        .enter(today, &forfeit(&theirs[0], "Barton A", true))
        .unwrap();
    assert!(e.what.ends_with(", forfeited by Barton A"), "{}", e.what);
    assert!(
        e.verdict
            .contains("Barton A has forfeited 1 match of Division 1; after 2 a team is excluded"),
        "{}",
        e.verdict
    );
    let e = s
        .enter(today, &forfeit(&theirs[1], "Barton A", true))
        .unwrap();
    assert!(e.verdict.contains("forfeited 2 matches"), "{}", e.verdict);
    assert!(e.verdict.contains("withdraw it"), "{}", e.verdict);
    assert_eq!(s.forfeits(&lg, barton_a, "Division 1"), 2);
    // A forfeit is a result like any other: the table counts the 4-0.
    let table = s.standings(&s.current().unwrap(), 0);
    let row = table.iter().find(|r| r.team == barton_a).unwrap();
    assert_eq!((row.played, row.lost, row.game_points), (2, 2, 0.0));
}
