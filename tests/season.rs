//! The season around the league draw, on the Sussex instance and its checked fixture list
//! (`instances/sussex-2026-7-fixtures.csv`): knockout cups (1,000 seeded draws, KO rule 4
//! replayed independently, offered dates checked by `fixtures check`), the all-play-all of three,
//! zones, play-offs (rule 12), replays (6.2.2) and rule 2.6's change windows (12 requests).

mod common;

use chrono::{Datelike, NaiveDate};
use common::Dir;
use fixtures::check;
use fixtures::model::{parse_league, Extra, ExtraKind, FixtureList, League, TeamId};
use fixtures::season::{changes, cup, playoff, reschedule};
use fixtures::solve::Options;

const SUSSEX: &str = include_str!("../instances/sussex-2026-7.toml");
const SUSSEX_LIST: &str = include_str!("../instances/sussex-2026-7-fixtures.csv");

fn sussex() -> (League, FixtureList) {
    let league = parse_league(SUSSEX, "sussex-2026-7.toml").expect("the instance loads");
    let parsed = check::parse_fixtures(&league, SUSSEX_LIST.as_bytes(), "list").unwrap();
    let report = check::check(&league, &parsed);
    assert!(
        report.is_valid(),
        "the shipped list is valid: {:?}",
        report.violations
    );
    let list = parsed.to_neutral(&league);
    (league, list)
}

fn date(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

/// The independent checker's violations of a list (league matches and extras).
fn violations(league: &League, list: &FixtureList) -> Vec<String> {
    let csv = list.to_csv(league);
    let parsed = check::parse_fixtures(league, csv.as_bytes(), "test").unwrap();
    check::check(league, &parsed)
        .violations
        .iter()
        .map(|v| v.to_string())
        .collect()
}

/// A small deterministic generator for the results of ties.
fn coin(seed: u64, k: u64) -> bool {
    let mut z = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ k.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^= z >> 31;
    z = z.wrapping_mul(0x94D0_49BB_1331_11EB);
    (z >> 17) & 1 == 1
}

#[test]
fn a_thousand_knock_out_cup_draws_give_every_drawn_tie_two_checked_dates_and_rule_4_home_sides() {
    let (league, list) = sussex();
    let ci = league.cup_by_name("Knock-Out Cup").unwrap();
    let c = &league.cups[ci];
    assert_eq!(c.teams.len(), 16);
    assert_eq!(c.rounds(), 4);
    let mut fewest = usize::MAX;
    let mut later = (0, 0);
    for seed in 0..1000u64 {
        let draw = cup::draw(c, seed);
        // The league version with the draw recorded: `check` then holds every tie to the tree
        // and to KO rule 4's home side (its own reading of the rule, not the solver's).
        let grid: Vec<Option<&str>> = draw
            .grid
            .iter()
            .map(|t| t.map(|t| league.teams[t].name.as_str()))
            .collect();
        let text = changes::cup_draw_toml(SUSSEX, "Knock-Out Cup", &grid).unwrap();
        let drawn = parse_league(&text, "drawn.toml").unwrap();
        let mut k = 0;
        let ties = cup::ties(c, &draw, &mut |t| {
            k += 1;
            Some(if coin(seed, k) { t.home } else { t.away })
        });
        assert_eq!(ties.len(), 15, "seed {seed}: 8 + 4 + 2 + 1 ties");
        let (placed, offers) = cup::place(&league, ci, &list, &ties);
        for (t, dates) in &offers {
            let (from, to) = cup::offer_window(&league, c, t.round);
            assert!(dates.iter().all(|d| *d >= from && *d <= to));
            // The draw's ties (the first round, known when the tree goes out) have at least
            // the two dates KO rule 5 asks for; later ties are counted.
            if t.round == 0 {
                assert!(
                    dates.len() >= 2,
                    "seed {seed}: {} v {} has {} dates",
                    league.teams[t.home].name,
                    league.teams[t.away].name,
                    dates.len()
                );
                fewest = fewest.min(dates.len());
            } else {
                later.0 += usize::from(dates.len() >= 2);
                later.1 += 1;
            }
        }
        let v = violations(&drawn, &placed);
        assert!(
            v.is_empty(),
            "seed {seed}: the cup ties with the league fail check: {v:?}"
        );
        // Every offered date, on its own, beside the league's list and the earlier rounds' ties.
        if seed < 10 {
            for (t, dates) in &offers {
                let before = FixtureList {
                    extra: placed
                        .extra
                        .iter()
                        .copied()
                        .filter(
                            |e| matches!(e.kind, ExtraKind::Cup { round, .. } if round < t.round),
                        )
                        .collect(),
                    ..list.clone()
                };
                for &d in dates {
                    let with = before.clone().with_extra([Extra {
                        date: d,
                        home: t.home,
                        away: t.away,
                        kind: ExtraKind::Cup {
                            cup: ci,
                            round: t.round,
                        },
                    }]);
                    let v = violations(&league, &with);
                    assert!(v.is_empty(), "seed {seed}: offered {d} fails check: {v:?}");
                }
            }
        }
    }
    eprintln!(
        "later rounds (random results): {} of {} ties with two dates or more",
        later.0, later.1
    );
    assert!(fewest >= 2, "the fewest dates of any tie: {fewest}");
}

#[test]
fn three_entrants_play_all_play_all_and_zones_keep_first_round_ties_apart() {
    let (league, list) = sussex();
    let ci = league.cup_by_name("Paul Watson Trophy").unwrap();
    let c = &league.cups[ci];
    assert!(c.is_all_play_all());
    for seed in 0..50 {
        let ties = cup::ties(c, &cup::draw(c, seed), &mut |_| None);
        assert_eq!(ties.len(), 3);
        let mut pairs: Vec<(TeamId, TeamId)> = ties
            .iter()
            .map(|t| (t.home.min(t.away), t.home.max(t.away)))
            .collect();
        pairs.sort();
        pairs.dedup();
        assert_eq!(pairs.len(), 3, "each pair once");
        for &t in &c.teams {
            assert_eq!(
                ties.iter().filter(|x| x.home == t).count(),
                1,
                "each team at home once"
            );
        }
        let (placed, offers) = cup::place(&league, ci, &list, &ties);
        for (_, dates) in &offers {
            assert!(dates.len() >= 3, "Paul Watson: three dates to offer");
            assert!(
                dates[0] >= c.opens + chrono::Days::new(14),
                "at least 14 days ahead"
            );
        }
        assert!(violations(&league, &placed).is_empty());
    }
    let mi = league.cup_by_name("McArthur Cup").unwrap();
    let m = &league.cups[mi];
    let zone = |t: TeamId| m.zones.iter().position(|z| z.1.contains(&t)).unwrap();
    for seed in 0..1000 {
        let draw = cup::draw(m, seed);
        assert_eq!(draw.grid.iter().flatten().count(), 6);
        for t in cup::ties(m, &draw, &mut |_| None)
            .iter()
            .filter(|t| t.round == 0)
        {
            assert_eq!(
                zone(t.home),
                zone(t.away),
                "seed {seed}: a first-round tie across zones"
            );
        }
    }
    // Sixteen teams in two zones of nine and seven need a larger tree, never a cross-zone tie.
    let mut big = league.cups[league.cup_by_name("Knock-Out Cup").unwrap()].clone();
    big.zones = vec![
        ("West".into(), big.teams[..9].to_vec()),
        ("East".into(), big.teams[9..].to_vec()),
    ];
    for seed in 0..200 {
        let draw = cup::draw(&big, seed);
        assert_eq!(draw.grid.iter().flatten().count(), 16);
        let side = |t: TeamId| usize::from(big.teams[9..].contains(&t));
        for t in cup::ties(&big, &draw, &mut |_| None)
            .iter()
            .filter(|t| t.round == 0)
        {
            assert_eq!(side(t.home), side(t.away), "seed {seed}");
        }
    }
}

#[test]
fn check_refuses_cup_ties_out_of_their_window_or_between_non_entrants() {
    let (league, list) = sussex();
    let ci = league.cup_by_name("Knock-Out Cup").unwrap();
    let c = &league.cups[ci];
    let ties = cup::ties(c, &cup::draw(c, 3), &mut |_| None);
    let t = ties[0];
    let (placed, offers) = cup::place(&league, ci, &list, &ties[..1]);
    assert!(violations(&league, &placed).is_empty());
    // The same tie on a date after its round's deadline.
    let late = list.clone().with_extra([Extra {
        date: offers[0].1.iter().copied().max().unwrap() + chrono::Days::new(70),
        home: t.home,
        away: t.away,
        kind: ExtraKind::Cup { cup: ci, round: 0 },
    }]);
    let v = violations(&league, &late);
    assert!(v.iter().any(|v| v.contains("[cup deadline]")), "{v:?}");
    // A team that did not enter.
    let outsider = league.team_by_name("Argumentatives").unwrap();
    let wrong = list.clone().with_extra([Extra {
        date: offers[0].1[0],
        home: t.home,
        away: outsider,
        kind: ExtraKind::Cup { cup: ci, round: 0 },
    }]);
    let v = violations(&league, &wrong);
    assert!(v.iter().any(|v| v.contains("[cup entrants]")), "{v:?}");
}

#[test]
fn a_play_off_reverses_the_league_meeting_and_its_replay_is_at_the_away_team() {
    let (league, list) = sussex();
    let m = list.matches[20];
    let (a, b) = (m.home, m.away);
    let p = playoff::play_off(&league, &list, a, b).unwrap();
    assert_eq!(
        (p.home, p.away),
        (b, a),
        "they met at {}'s: the play-off is at the other's",
        league.teams[a].name
    );
    let po = p
        .list
        .extra
        .iter()
        .find(|e| matches!(e.kind, ExtraKind::PlayOff(_)))
        .unwrap();
    let replay = p
        .list
        .extra
        .iter()
        .find(|e| matches!(e.kind, ExtraKind::PlayOffReplay(_)))
        .unwrap();
    assert_eq!(
        (replay.home, replay.away),
        (po.away, po.home),
        "the replay is at the play-off's away team"
    );
    assert!(replay.date > po.date);
    let v = violations(&league, &p.list);
    assert!(v.is_empty(), "{v:?}");
    // The checker sees a play-off at the wrong venue, and a replay at the wrong one.
    let wrong = list.clone().with_extra([Extra {
        home: a,
        away: b,
        ..*po
    }]);
    assert!(violations(&league, &wrong)
        .iter()
        .any(|v| v.contains("[12.2 play-off venue]")));
    let wrong = list.clone().with_extra([
        *po,
        Extra {
            home: po.home,
            away: po.away,
            ..*replay
        },
    ]);
    assert!(violations(&league, &wrong)
        .iter()
        .any(|v| v.contains("[12.3 replay]")));
}

#[test]
fn a_replay_after_a_default_is_offered_on_dates_the_team_defaulted_against_can_play() {
    let (league, list) = sussex();
    let m = list.matches[30];
    let dates = playoff::replay_dates(&league, &list, &m, m.away).unwrap();
    assert!(!dates.is_empty());
    for &d in dates.iter().take(5) {
        let with = list.clone().with_extra([Extra {
            date: d,
            home: m.home,
            away: m.away,
            kind: ExtraKind::Replay(m.division),
        }]);
        assert!(violations(&league, &with).is_empty());
        assert!(!league.teams[m.away].unavailable.contains(&d));
        assert!(d > m.date);
    }
}

/// A folder with the Sussex league and its list.
fn sussex_dir() -> Dir {
    Dir::with(&[("league.toml", SUSSEX), ("list.csv", SUSSEX_LIST)])
}

/// A movable fixture: its text, its date, a date it can move to, a date breaking rule 2.
type Movable = (String, NaiveDate, NaiveDate, NaiveDate);

/// A fixture of the shipped list on the first date on or after `on`, a later date it can move
/// to (as `suggest` finds it) and a later date its home team does not host on, as (fixture
/// text, its date, a free date, a date breaking rule 2).
fn movable(
    league: &League,
    list: &FixtureList,
    on: &str,
) -> (String, NaiveDate, NaiveDate, NaiveDate) {
    for (i, m) in list
        .matches
        .iter()
        .enumerate()
        .filter(|(_, m)| m.date >= date(on))
    {
        let later = m.date + chrono::Days::new(1);
        if let Some(s) = fixtures::season::suggest::suggest(league, list, i, later).first() {
            let text = format!(
                "{} v {}",
                league.teams[m.home].name, league.teams[m.away].name
            );
            let off = later
                .iter_days()
                .find(|d| !league.teams[m.home].hosting.hosts_on(*d))
                .unwrap();
            return (text, m.date, s.date, off);
        }
    }
    panic!("no movable fixture after {on}");
}

#[test]
fn change_classifies_twelve_requests_as_rule_2_6_reads() {
    let (league, list) = sussex();
    let d = sussex_dir();
    let oct = movable(&league, &list, "2026-10-20");
    let nov = movable(&league, &list, "2026-11-16");
    let dec = movable(&league, &list, "2027-01-12");
    let mar = movable(&league, &list, "2027-03-01");
    let days = |d: NaiveDate, n: i64| (d + chrono::Duration::days(n)).to_string();
    let issued = date("2026-09-28");
    // (fixture, to, agreed, expected)
    let table: Vec<(&Movable, String, String, &str)> = vec![
        // October and November: agreed up to 14 days after the issue (12 October).
        (&oct, oct.2.to_string(), "2026-09-30".into(), "within"),
        (&oct, oct.2.to_string(), "2026-10-12".into(), "within"),
        (&oct, oct.2.to_string(), "2026-10-13".into(), "exceptional"),
        (&nov, nov.2.to_string(), "2026-10-01".into(), "within"),
        (&nov, nov.2.to_string(), "2026-10-20".into(), "exceptional"),
        // December or later: agreed at least 28 days before the original date.
        (&dec, dec.2.to_string(), days(dec.1, -28), "within"),
        (&dec, dec.2.to_string(), days(dec.1, -27), "exceptional"),
        (&mar, mar.2.to_string(), days(mar.1, -60), "within"),
        (&mar, mar.2.to_string(), days(mar.1, -3), "exceptional"),
        // Invalid: agreed before the list was issued; the new date before the agreement; a date
        // that breaks the league's rules (the home team does not host on it).
        (
            &dec,
            dec.2.to_string(),
            (issued - chrono::Duration::days(1)).to_string(),
            "invalid",
        ),
        (&mar, days(mar.1, -50), days(mar.1, -40), "invalid"),
        (&mar, mar.3.to_string(), days(mar.1, -60), "invalid"),
    ];
    assert_eq!(table.len(), 12);
    for (i, (fx, to, agreed, want)) in table.iter().enumerate() {
        let out = format!("new{i}.csv");
        let o = d.run(&[
            "change",
            "league.toml",
            "--current",
            "list.csv",
            "--fixture",
            &fx.0,
            "--to",
            to,
            "--agreed",
            agreed,
            "-o",
            &out,
        ]);
        let stdout = String::from_utf8_lossy(&o.stdout).to_string();
        let first = stdout.lines().next().unwrap_or("").to_string();
        assert!(
            first.ends_with(&format!(": {want}")),
            "request {i} ({} to {to}, agreed {agreed}): {first}\n{}",
            fx.0,
            String::from_utf8_lossy(&o.stderr)
        );
        let code = o.status.code().unwrap();
        let written = d.path(&out).exists();
        match *want {
            "within" => {
                assert_eq!(code, 0);
                assert!(written);
                let c = d.run(&["check", "league.toml", &out]);
                assert_eq!(c.status.code(), Some(0), "the new list passes check");
                assert!(stdout.contains("[[fixed]]"));
            }
            "exceptional" => assert_eq!((code, written), (2, false)),
            _ => assert_eq!((code, written), (1, false)),
        }
    }
    // The committee allows an exceptional change: written.
    let o = d.run(&[
        "change",
        "league.toml",
        "--current",
        "list.csv",
        "--fixture",
        &dec.0,
        "--to",
        &dec.2.to_string(),
        "--agreed",
        &days(dec.1, -3),
        "--exceptional",
        "-o",
        "exc.csv",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(d.path("exc.csv").exists());
    let _ = changes::notify_by;
}

#[test]
fn cup_playoff_and_replay_commands_write_lists_check_accepts() {
    let d = sussex_dir();
    // The Knock-Out Cup drawn with seed 7 over the list, with `extra` arguments.
    let cup = |extra: &[&str]| {
        let mut args = vec![
            "cup",
            "league.toml",
            "--current",
            "list.csv",
            "--cup",
            "Knock-Out Cup",
            "--seed",
            "7",
        ];
        args.extend_from_slice(extra);
        d.run(&args)
    };
    let o = cup(&["-o", "cup.csv"]);
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        text.contains("Round 1:") && text.contains("dates to offer"),
        "{text}"
    );
    // The next rounds: the winners named once per tie they won, round by round.
    let ties_of = |out: &str, round: &str| -> Vec<(String, String)> {
        out.lines()
            .filter(|l| l.starts_with(&format!("{round}: ")) && l.contains(" v "))
            .map(|l| {
                let body = &l[round.len() + 2..l.find(" (window").unwrap()];
                let (h, a) = body.split_once(" v ").unwrap();
                (h.to_string(), a.to_string())
            })
            .collect()
    };
    let first = ties_of(&text, "Round 1");
    assert_eq!(first.len(), 8);
    let mut won: Vec<String> = first.iter().map(|t| t.0.clone()).collect();
    let with_won = |won: &str| cup(&["--won", won]);
    let o = with_won(&won.join(","));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        ties_of(&out, "Round 1").is_empty(),
        "decided ties are history: {out}"
    );
    let qf = ties_of(&out, "Quarter-final");
    assert_eq!(qf.len(), 4, "{out}");
    won.extend(qf.iter().map(|t| t.1.clone()));
    let o = with_won(&won.join(","));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(ties_of(&out, "Semi-final").len(), 2, "{out}");
    assert!(ties_of(&out, "Quarter-final").is_empty(), "{out}");
    let o = with_won("Argumentatives");
    assert_eq!(o.status.code(), Some(1), "a winner with no tie is refused");
    let c = d.run(&["check", "league.toml", "cup.csv"]);
    assert_eq!(
        c.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&c.stdout)
    );
    let csv = std::fs::read_to_string(d.path("cup.csv")).unwrap();
    assert_eq!(
        csv.lines()
            .filter(|l| l.contains(",Knock-Out Cup,"))
            .count(),
        8
    );
    let o = d.run(&[
        "playoff",
        "league.toml",
        "--current",
        "list.csv",
        "--teams",
        "Horsham 1,Lewes 1",
        "-o",
        "po.csv",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        d.run(&["check", "league.toml", "po.csv"]).status.code(),
        Some(0)
    );
    let o = d.run(&[
        "playoff",
        "league.toml",
        "--current",
        "list.csv",
        "--teams",
        "Horsham 1,Uckfield 2",
    ]);
    assert_eq!(o.status.code(), Some(2), "teams of two divisions");
    let first = SUSSEX_LIST
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .collect::<Vec<_>>();
    // `replay` of the match in `row` (a list's fields), defaulted against its away team.
    let replay_of = |row: &[&str], extra: &[&str]| {
        let fixture = format!("{} v {}", row[2], row[3]);
        let mut args = vec![
            "replay",
            "league.toml",
            "--current",
            "list.csv",
            "--fixture",
            &fixture,
            "--defaulted-against",
            row[3],
        ];
        args.extend_from_slice(extra);
        d.run(&args)
    };
    let o = replay_of(&first, &["-o", "rp.csv"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        d.run(&["check", "league.toml", "rp.csv"]).status.code(),
        Some(0)
    );
    // Rule 6.2.2 for a match of the last week: no date offered is exit 2 (it was 0 with "0
    // dates"); the date the Tournament Controller sets goes in when the rules allow it.
    let last = SUSSEX_LIST
        .lines()
        .skip(1)
        .filter(|l| l.contains(",Division "))
        .last()
        .unwrap()
        .split(',')
        .collect::<Vec<_>>();
    let replay = |extra: &[&str]| replay_of(&last, extra);
    let o = replay(&[]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("the Tournament Controller sets one"));
    let league = parse_league(SUSSEX, "league.toml").unwrap();
    let home = league.team_by_name(last[2]).unwrap();
    let set = (1..60)
        .map(|k| date(last[0]) + chrono::Days::new(k))
        .find(|d| league.teams[home].hosting.hosts_on(*d) && !league.closed.contains(d))
        .unwrap()
        .to_string();
    // After 14 May only with the Fixtures Secretary's permission (rule 2.1), which the league
    // file records.
    assert!(date(&set) > league.end);
    let o = replay(&["--date", &set, "-o", "late.csv"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("Fixtures Secretary's permission"));
    d.write(
        "league.toml",
        &format!(
            "{SUSSEX}\n[[late]]\nhome = \"{}\"\naway = \"{}\"\ndate = {set}\n",
            last[2], last[3]
        ),
    );
    let o = replay(&["--date", &set, "-o", "late.csv"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let c = d.run(&["check", "league.toml", "late.csv"]);
    assert_eq!(
        c.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&c.stdout)
    );
}

#[test]
fn joint_teams_and_half_way_house_venues_host_where_the_league_file_says() {
    const RAPID: &str = include_str!("../instances/sussex-rapid-2026-7.toml");
    let league = parse_league(RAPID, "rapid.toml").unwrap();
    let d = sussex_dir();
    std::fs::write(d.path("rapid.toml"), RAPID).unwrap();
    let o = d.run(&[
        "solve",
        "rapid.toml",
        "--time-limit",
        "3",
        "--threads",
        "1",
        "-o",
        "rapid.csv",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let csv = std::fs::read_to_string(d.path("rapid.csv")).unwrap();
    let rows: Vec<Vec<String>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    let at = |home: &str, away: &str| {
        rows.iter()
            .find(|r| r[2] == home && r[3] == away)
            .map(|r| r[4].clone())
    };
    // The joint team: listed hosts, the others in turn between its two clubs.
    if let Some(v) = at("Lewes & Uckfield", "Brighton & Hove Juniors") {
        assert_eq!(v, "Uckfield Chess Club");
    }
    if let Some(v) = at("Lewes & Uckfield", "Horsham Juniors") {
        assert_eq!(v, "Lewes Constitutional Club");
    }
    let joint_home: Vec<&Vec<String>> =
        rows.iter().filter(|r| r[2] == "Lewes & Uckfield").collect();
    assert!(!joint_home.is_empty());
    for r in &joint_home {
        assert!(
            r[4] == "Uckfield Chess Club" || r[4] == "Lewes Constitutional Club",
            "{r:?}"
        );
    }
    // The half-way house, whichever side is at home; never on the date it is closed.
    let neutral = rows
        .iter()
        .find(|r| {
            [r[2].as_str(), r[3].as_str()] == ["Haywards Heath Juniors", "Horsham Rapid"]
                || [r[2].as_str(), r[3].as_str()] == ["Horsham Rapid", "Haywards Heath Juniors"]
        })
        .unwrap();
    assert_eq!(neutral[4], "Burgess Hill Hall");
    assert_ne!(neutral[0], "2027-02-16");
    // The checker holds the venue: the home club's venue in the column, or the closed date, fail.
    let home_venue = league.venues[league.teams[league.team_by_name(&neutral[2]).unwrap()].venue]
        .name
        .clone();
    let wrong = csv.replace(&neutral.join(","), &{
        let mut r = neutral.clone();
        r[4] = home_venue;
        r.join(",")
    });
    let parsed = check::parse_fixtures(&league, wrong.as_bytes(), "x").unwrap();
    assert!(check::check(&league, &parsed)
        .violations
        .iter()
        .any(|v| v.detail.contains("Burgess Hill Hall")));
    let closed = csv.replace(&neutral.join(","), &{
        let mut r = neutral.clone();
        r[0] = "2027-02-16".into();
        r.join(",")
    });
    let parsed = check::parse_fixtures(&league, closed.as_bytes(), "x").unwrap();
    assert!(check::check(&league, &parsed)
        .violations
        .iter()
        .any(|v| v.rule == "3 venue closed"));
    // A play-off after a meeting at the half-way house (rule 12.2): the team away in that
    // meeting at home, at its own venue, never the half-way house.
    let list = check::parse_fixtures(&league, csv.as_bytes(), "rapid.csv")
        .unwrap()
        .to_neutral(&league);
    let (h, a) = (
        league.team_by_name(&neutral[2]).unwrap(),
        league.team_by_name(&neutral[3]).unwrap(),
    );
    let p = playoff::play_off(&league, &list, h, a).expect("a play-off date");
    assert_eq!((p.home, p.away), (a, h), "{}", p.why);
    assert!(
        p.why.contains("half-way house Burgess Hill Hall"),
        "{}",
        p.why
    );
    for e in &p.list.extra {
        assert_ne!(
            league.venues[e.venue(&league)].name,
            "Burgess Hill Hall",
            "{e:?}"
        );
    }
    assert!(
        violations(&league, &p.list).is_empty(),
        "{:?}",
        violations(&league, &p.list)
    );
}

#[test]
fn a_cups_reserved_dates_keep_its_entrants_and_a_place_at_their_venues_free() {
    let (league, list) = sussex();
    let ko = &league.cups[league.cup_by_name("Knock-Out Cup").unwrap()];
    assert!(!ko.reserve.is_empty());
    // The shipped list (solved with the reserve) keeps it.
    for m in &list.matches {
        if ko.reserve.contains(&m.date) {
            assert!(
                !ko.teams.contains(&m.home) && !ko.teams.contains(&m.away),
                "{m:?}"
            );
        }
    }
    // An entrant's league match moved onto a reserved date is refused by the checker.
    let (i, m) = list
        .matches
        .iter()
        .enumerate()
        .find(|(_, m)| ko.teams.contains(&m.home))
        .unwrap();
    let reserved = *ko
        .reserve
        .iter()
        .find(|d| league.teams[m.home].hosting.hosts_on(**d))
        .unwrap();
    let mut moved = list.clone();
    moved.matches[i].date = reserved;
    assert!(violations(&league, &moved)
        .iter()
        .any(|v| v.contains("[cup reserve]")));
    // The solver's model says why a date is out.
    assert!(league
        .unplayable_reasons(m.home, m.away, reserved)
        .iter()
        .any(|r| matches!(r, fixtures::model::Unplayable::CupReserved(..))));
}

#[test]
fn bad_cups_changes_and_joint_teams_are_input_errors_naming_line_and_key() {
    let base = SUSSEX.split("\n[changes]").next().unwrap().to_string();
    let cases = [
        ("[[cup]]\nname = \"Division 1\"\n", "cup.name", "names a division too"),
        ("[[cup]]\nname = \"A\"\nteams = [\"Horsham 1\", \"Nobody\"]\n", "cup.teams", "unknown team \"Nobody\""),
        ("[[cup]]\nname = \"A\"\ndeadlines = [2027-01-10, 2026-12-10]\n", "cup.deadlines", "not after the deadline before it"),
        ("[[cup]]\nname = \"A\"\nteams = [\"Horsham 1\", \"Lewes 1\"]\nzones = { West = [\"Horsham 1\"] }\n", "cup.zones", "\"Lewes 1\" is in 0 zones"),
        ("[changes]\nissued = \"2026-13-01\"\n", "changes.issued", "2026-13-01"),
        ("[[neutral]]\nhome = \"Horsham 1\"\naway = \"Lewes 1\"\nvenue = \"Nowhere\"\n", "venue", "unknown venue \"Nowhere\""),
    ];
    for (extra, key, words) in cases {
        let text = format!("{base}\n{extra}");
        let err = parse_league(&text, "bad.toml")
            .expect_err(extra)
            .to_string();
        assert!(
            err.contains("bad.toml:") && err.contains(key) && err.contains(words),
            "{extra}: {err}"
        );
    }
    let joint = SUSSEX.replace(
        "name = \"Uckfield 2\"\nclub = \"Uckfield\"\n",
        "name = \"Uckfield 2\"\nclub = \"Uckfield\"\njoint_with = \"Lewes\"\nhosts = { \"Nobody\" = \"Lewes\" }\n",
    );
    let err = parse_league(&joint, "joint.toml")
        .expect_err("hosts names no opponent")
        .to_string();
    assert!(
        err.contains("hosts") && err.contains("not an opponent"),
        "{err}"
    );
}

/// Issue 44's first report: a rerun after a new unavailable date came back without the cup
/// ties, and moved a league match to the day before one of its teams' ties.
#[test]
fn a_rerun_keeps_every_cup_tie_and_moves_league_matches_around_them() {
    let (league, list) = sussex();
    let ci = league.cup_by_name("Knock-Out Cup").unwrap();
    let c = &league.cups[ci];
    let ties = cup::ties(c, &cup::draw(c, 1), &mut |t| Some(t.home));
    let (placed, _) = cup::place(&league, ci, &list, &ties);
    assert!(
        placed.extra.len() >= 12,
        "{} ties placed",
        placed.extra.len()
    );
    let from = date("2026-11-06");
    // A team with a tie after `from` cannot play one of its league matches after `from`, on a
    // date within a week of the tie: the match must move, and not onto the tie's rest days.
    let (tie, hit) = placed
        .extra
        .iter()
        .filter(|e| e.date >= from)
        .find_map(|e| {
            let m = list.of_team(e.home).find(|m| {
                m.date >= from && (m.date - e.date).num_days().abs() <= 10 && m.date != e.date
            })?;
            Some((*e, *m))
        })
        .expect("a league match near a tie");
    let mut edited = league.clone();
    edited.teams[tie.home].unavailable.insert(hit.date);
    let plan = reschedule::plan(&edited, &placed, from, &[]);
    assert_eq!(plan.rerun.extra, placed.extra, "the plan keeps every tie");
    let opts = Options {
        time_limit: 10.0,
        threads: 1,
        ..Options::default()
    };
    let r = fixtures::pipeline::rerun(&edited, &placed, from, &[], &opts).expect("a rerun");
    let new = r.solution.checked.list();
    assert_eq!(new.extra, placed.extra, "every cup tie kept as it was");
    assert!(
        violations(&edited, new).is_empty(),
        "{:?}",
        violations(&edited, new)
    );
    let moved = new
        .matches
        .iter()
        .find(|m| (m.home, m.away) == (hit.home, hit.away))
        .unwrap();
    assert_ne!(moved.date, hit.date);
    let ties_unchanged = r
        .changes
        .iter()
        .filter(|ch| ch.kind.is_some() && ch.status == reschedule::Status::Unchanged)
        .count();
    assert_eq!(
        ties_unchanged,
        placed.extra.len(),
        "the diff lists every tie as unchanged"
    );
    // `check --current OLD --from DATE`: a list that lost the ties breaks the rerun's promise.
    let without = FixtureList {
        extra: Vec::new(),
        ..new.clone()
    };
    let csv = without.to_csv(&edited);
    let parsed = check::parse_fixtures(&edited, csv.as_bytes(), "lost.csv").unwrap();
    let report = check::check_rerun(&plan.league, &parsed, &plan.rerun);
    let lost = report
        .violations
        .iter()
        .filter(|v| v.rule == "rerun keeps")
        .count();
    assert_eq!(lost, placed.extra.len(), "{:?}", report.violations);
}

/// A withdrawn team's cup ties from the rerun's first date on are scratched, with the reason;
/// its earlier ties stay.
#[test]
fn a_withdrawal_scratches_the_teams_later_cup_ties_only() {
    let (league, list) = sussex();
    let ci = league.cup_by_name("Knock-Out Cup").unwrap();
    let c = &league.cups[ci];
    let ties = cup::ties(c, &cup::draw(c, 2), &mut |t| Some(t.home));
    let (placed, _) = cup::place(&league, ci, &list, &ties);
    let from = date("2027-01-11");
    let team = placed
        .extra
        .iter()
        .find(|e| e.date >= from)
        .expect("a tie after the first date")
        .home;
    let plan = reschedule::plan(&league, &placed, from, &[team]);
    for e in &placed.extra {
        let gone = e.date >= from && (e.home == team || e.away == team);
        assert_eq!(!gone, plan.rerun.extra.contains(e), "{e:?}");
    }
    let kept = FixtureList {
        extra: plan.rerun.extra.clone(),
        ..placed.clone()
    };
    let diff = reschedule::diff(&league, &placed, &kept);
    let scratched: Vec<&reschedule::Change> = diff
        .iter()
        .filter(|ch| ch.kind.is_some() && ch.status == reschedule::Status::Scratched)
        .collect();
    assert_eq!(scratched.len(), placed.extra.len() - plan.rerun.extra.len());
    assert!(!scratched.is_empty());
    assert!(scratched.iter().all(|ch| ch.reason.contains("withdrew")));
    let csv = reschedule::diff_csv(&league, &diff);
    assert!(csv.contains("Knock-Out Cup"), "{csv}");
}

/// Rule 2.5 caps the dates a team does not wish to play on, home or away, as given on the
/// application form; dates it gives later (`unavailable_later`) are not capped.
#[test]
fn the_rule_2_5_cap_counts_away_dates_and_not_later_ones() {
    let away = SUSSEX.replace(
        "unavailable_away = [{ from = 2026-12-01, to = 2026-12-15 }]",
        "unavailable_away = [{ from = 2026-12-01, to = 2026-12-16 }]",
    );
    assert_ne!(away, SUSSEX);
    let e = parse_league(&away, "sussex.toml").unwrap_err().to_string();
    assert!(
        e.contains("Eastbourne 2") && e.contains("16 unavailable dates (home or away"),
        "{e}"
    );
    let later = SUSSEX.replace(
        "name = \"Worthing 1\"\n",
        "name = \"Worthing 1\"\nunavailable_later = [{ from = 2026-12-01, to = 2026-12-20 }]\n",
    );
    assert_ne!(later, SUSSEX);
    let league = parse_league(&later, "sussex.toml").expect("later dates are not capped");
    let w = &league.teams[league.team_by_name("Worthing 1").unwrap()];
    assert!(w.unavailable.contains(&date("2026-12-10")));
    assert_eq!(w.later.len(), 20);
}

/// Issue 44's second report: lists the rules forbid that `check` accepted. Each is refused now,
/// with the rule named.
#[test]
fn check_refuses_cup_trees_play_offs_replays_and_columns_the_rules_forbid() {
    let (league, list) = sussex();
    let t = |n: &str| league.team_by_name(n).unwrap();
    let cup = |n: &str| league.cup_by_name(n).unwrap();
    let tie = |c: &str, round: usize, home: &str, away: &str, d: &str| Extra {
        date: date(d),
        home: t(home),
        away: t(away),
        kind: ExtraKind::Cup { cup: cup(c), round },
    };
    let refused = |extra: Vec<Extra>, rule: &str| {
        let v = violations(&league, &list.clone().with_extra(extra));
        assert!(v.iter().any(|v| v.contains(rule)), "{rule} not in {v:?}");
    };
    // A McArthur first-round tie across zones (a West team v an East team).
    refused(
        vec![tie(
            "McArthur Cup",
            0,
            "Horsham 1",
            "Eastbourne 1",
            "2026-11-17",
        )],
        "[cup zones]",
    );
    // Knock-Out quarter-finals between teams that had no first-round tie.
    refused(
        vec![tie(
            "Knock-Out Cup",
            1,
            "Horsham 1",
            "Horsham 2",
            "2026-11-24",
        )],
        "[cup tree]",
    );
    // Two teams of one first-round tie both in the quarter-final.
    refused(
        vec![
            tie("Knock-Out Cup", 0, "Horsham 1", "Horsham 2", "2026-10-06"),
            tie("Knock-Out Cup", 1, "Horsham 2", "Horsham 1", "2026-11-24"),
        ],
        "[cup tree]",
    );
    // The Paul Watson all-play-all with one team at home twice.
    refused(
        vec![
            tie(
                "Paul Watson Trophy",
                0,
                "Horsham 3",
                "Lewes 2",
                "2026-11-17",
            ),
            tie(
                "Paul Watson Trophy",
                0,
                "Horsham 3",
                "Crowborough 2",
                "2026-12-08",
            ),
        ],
        "[cup all-play-all]",
    );
    let d1 = league.teams[t("Horsham 1")].division;
    let extra = |home: &str, away: &str, d: &str, kind: ExtraKind| Extra {
        date: date(d),
        home: t(home),
        away: t(away),
        kind,
    };
    // Two play-offs for one pair, and a play-off before the division's last match.
    let po = ExtraKind::PlayOff(d1);
    refused(
        vec![
            extra("Horsham 1", "Horsham 2", "2027-05-25", po),
            extra("Horsham 2", "Horsham 1", "2027-06-01", po),
        ],
        "second play-off",
    );
    let last = list
        .matches
        .iter()
        .filter(|m| m.division == d1)
        .map(|m| m.date)
        .max()
        .unwrap();
    refused(
        vec![extra(
            "Horsham 1",
            "Horsham 2",
            &(last - chrono::Days::new(1)).to_string(),
            po,
        )],
        "a play-off follows the last league match of Division 1",
    );
    // Two replays of one match in June with the home side swapped.
    let m = list.matches.iter().find(|m| m.division == d1).unwrap();
    let (h, a) = (
        league.teams[m.home].name.as_str(),
        league.teams[m.away].name.as_str(),
    );
    refused(
        vec![
            extra(h, a, "2027-06-01", ExtraKind::Replay(d1)),
            extra(a, h, "2027-06-08", ExtraKind::Replay(d1)),
        ],
        "second replay",
    );
    refused(
        vec![extra(a, h, "2027-06-08", ExtraKind::Replay(d1))],
        "replayed where it was to be played",
    );
    // Columns: the league gives the away team White on odd boards (rule 8.2); a coin toss
    // decides the McArthur's colours; the weekday is the date's.
    let csv = list.to_csv(&league);
    let first = csv.lines().nth(1).unwrap().to_string();
    let f: Vec<&str> = first.split(',').collect();
    let swapped = first.replace(
        &format!("{} White on board 1", f[3]),
        &format!("{} White on board 1", f[2]),
    );
    let weekday = first.replace(&format!(",{},", f[5]), ",Sun,");
    for (bad, rule) in [(swapped, "[colours]"), (weekday, "[weekday]")] {
        let text = csv.replace(&first, &bad);
        let parsed = check::parse_fixtures(&league, text.as_bytes(), "bad.csv").unwrap();
        let v: Vec<String> = check::check(&league, &parsed)
            .violations
            .iter()
            .map(|v| v.to_string())
            .collect();
        assert!(v.iter().any(|v| v.contains(rule)), "{rule} not in {v:?}");
    }
    let mc = list.clone().with_extra([tie(
        "McArthur Cup",
        0,
        "Horsham 1",
        "Worthing 2",
        "2026-11-17",
    )]);
    let text = mc.to_csv(&league);
    assert!(text.contains(",coin toss,Quarter-final"), "{text}");
    let bad = text.replace(
        ",coin toss,Quarter-final",
        ",Horsham 1 White on board 1,Quarter-final",
    );
    let parsed = check::parse_fixtures(&league, bad.as_bytes(), "bad.csv").unwrap();
    let v: Vec<String> = check::check(&league, &parsed)
        .violations
        .iter()
        .map(|v| v.to_string())
        .collect();
    assert!(
        v.iter()
            .any(|v| v.contains("[colours]") && v.contains("coin toss")),
        "{v:?}"
    );
}

/// A cup's reserve is the program's room for the cup, not a rule: a change the clubs agree
/// onto a reserved date passes (it was refused as `[cup reserve]`).
#[test]
fn an_agreed_change_may_use_a_cups_reserved_date() {
    let (league, list) = sussex();
    let ko = &league.cups[league.cup_by_name("Knock-Out Cup").unwrap()];
    let tried: Vec<Vec<String>> = list
        .matches
        .iter()
        .enumerate()
        .filter(|(_, m)| ko.teams.contains(&m.home) && m.date > date("2026-12-20"))
        .take(20)
        .flat_map(|(i, m)| {
            ko.reserve
                .iter()
                .filter(|d| **d > date("2026-12-20"))
                .map(move |d| (i, m, *d))
        })
        .map(
            |(i, _, d)| match changes::move_fixture(&league, &list, i, d) {
                Ok(_) => Vec::new(),
                Err(v) => v,
            },
        )
        .collect();
    let reserve: Vec<&String> = tried
        .iter()
        .flatten()
        .filter(|v| v.contains("[cup reserve]"))
        .collect();
    assert!(reserve.is_empty(), "{:?}", &reserve[..reserve.len().min(3)]);
    let taken = tried.iter().filter(|v| v.is_empty()).count();
    assert!(taken > 0, "no reserved date taken of {}", tried.len());
}

/// Rule 2.6's "mutually agreed weekend arrangements" and the McArthur's weekend ties: a
/// Saturday the clubs agree is a date the league file can fix and `check` accepts; a Saturday
/// nobody agreed is not a hosting date.
#[test]
fn weekend_arrangements_pass_where_the_rules_allow_them() {
    let (league, list) = sussex();
    let i = list.matches.len() / 2;
    let m = list.matches[i];
    let sat = (1..=6)
        .map(|k| m.date - chrono::Days::new(k))
        .find(|d| d.weekday() == chrono::Weekday::Sat)
        .unwrap();
    let mut moved = list.clone();
    moved.matches[i].date = sat;
    let not_agreed = violations(&league, &moved);
    assert!(
        not_agreed.iter().any(|v| v.contains("[2 hosting date]")),
        "{not_agreed:?}"
    );
    let judged = changes::move_fixture(&league, &list, i, sat);
    match judged {
        Ok(moved) => assert!(moved.league.agreed_weekend(m.home, m.away, sat)),
        // Another rule (a team unavailable, rest days) may forbid that Saturday; never the
        // home team's nights.
        Err(v) => assert!(v.iter().all(|v| !v.contains("hosting date")), "{v:?}"),
    }
}

/// Only the Paul Watson and McArthur rules make three entrants an all-play-all; the
/// Knock-Out Cup's rule 3 asks for a pairing tree, so three entrants there get a bye.
#[test]
fn three_knock_out_entrants_make_a_tree_with_a_bye() {
    let three = SUSSEX.replacen(
        "teams = [\"Horsham 1\", \"Horsham 2\", \"Horsham 3\", \"Hastings & St Leonards 1\", \"Bexhill 1\",\n         \"Bexhill 2\", \"Eastbourne 1\", \"Eastbourne 2\", \"Brighton & Hove 1\", \"Haywards Heath 1\",\n         \"Haywards Heath 2\", \"Crowborough 1\", \"Lewes 1\", \"Worthing 2\", \"Uckfield 1\",\n         \"East Grinstead\"]",
        "teams = [\"Horsham 1\", \"Lewes 1\", \"Bexhill 1\"]",
        1,
    );
    assert_ne!(three, SUSSEX);
    let league = parse_league(&three, "three.toml").unwrap();
    let ko = &league.cups[league.cup_by_name("Knock-Out Cup").unwrap()];
    assert!(!ko.is_all_play_all());
    assert_eq!(ko.rounds(), 2);
    let ties = cup::ties(ko, &cup::draw(ko, 1), &mut |_| None);
    assert_eq!(ties.len(), 1, "one semi-final, one bye: {ties:?}");
    let pw = &league.cups[league.cup_by_name("Paul Watson Trophy").unwrap()];
    assert!(pw.is_all_play_all());
}

/// KO rule 3 gives each round a deadline, not a start: a quarter-final played early, once both
/// its teams are through, passes; one before a tie its team came through does not.
#[test]
fn a_round_may_be_played_early_after_its_feeding_ties() {
    let (league, list) = sussex();
    let ci = league.cup_by_name("Knock-Out Cup").unwrap();
    let c = &league.cups[ci];
    let mut early = None;
    for seed in 0..20 {
        let ties = cup::ties(c, &cup::draw(c, seed), &mut |t| Some(t.home));
        let first: Vec<cup::Tie> = ties.iter().copied().filter(|t| t.round == 0).collect();
        let (placed, _) = cup::place(&league, ci, &list, &first);
        let date_of = |team: TeamId| {
            placed
                .extra
                .iter()
                .find(|e| e.home == team || e.away == team)
                .map(|e| e.date)
        };
        for t in ties.iter().filter(|t| t.round == 1) {
            let (Some(a), Some(b)) = (date_of(t.home), date_of(t.away)) else {
                continue;
            };
            let qf = |d: NaiveDate| {
                placed.clone().with_extra([Extra {
                    date: d,
                    home: t.home,
                    away: t.away,
                    kind: ExtraKind::Cup { cup: ci, round: 1 },
                }])
            };
            let window = a
                .max(b)
                .iter_days()
                .skip(1)
                .take_while(|d| *d <= date("2026-10-30"));
            if let Some(d) = window
                .into_iter()
                .find(|d| violations(&league, &qf(*d)).is_empty())
            {
                early = Some((qf(d), qf(a.min(b))));
                break;
            }
        }
        if early.is_some() {
            break;
        }
    }
    let (ok, before) = early.expect("a quarter-final with a date before 31 October");
    assert!(violations(&league, &ok).is_empty());
    let v = violations(&league, &before);
    assert!(
        v.iter()
            .any(|v| v.contains("[cup tree]") && v.contains("comes before")),
        "{v:?}"
    );
}

/// The Paul Watson and McArthur rules: the home captain offers dates "avoiding clashes with
/// away club fixtures". No offered date has another match of the away club; without the key,
/// some would.
#[test]
fn offered_dates_avoid_the_away_clubs_fixtures() {
    let (league, list) = sussex();
    let ci = league.cup_by_name("McArthur Cup").unwrap();
    let mut loose = league.clone();
    loose.cups[ci].avoid_away_club = false;
    let clubs_busy = |club: usize, d: NaiveDate| {
        list.matches.iter().any(|m| {
            m.date == d
                && [m.home, m.away]
                    .iter()
                    .any(|&t| league.teams[t].club == club)
        })
    };
    let (mut offered, mut clashes_without) = (0, 0);
    for seed in 0..20 {
        let c = &league.cups[ci];
        for t in cup::ties(c, &cup::draw(c, seed), &mut |t| Some(t.home)) {
            let club = league.teams[t.away].club;
            for d in cup::offered_dates(&league, c, &list, &t) {
                offered += 1;
                assert!(
                    !clubs_busy(club, d),
                    "seed {seed}: {d} clashes with the away club"
                );
            }
            clashes_without += cup::offered_dates(&loose, &loose.cups[ci], &list, &t)
                .into_iter()
                .filter(|d| clubs_busy(club, *d))
                .count();
        }
    }
    assert!(
        offered > 0 && clashes_without > 0,
        "{offered} offered, {clashes_without} clashes without the key"
    );
}

/// KO rule 3: "any preliminary round matches must be played by 30th October". Twenty entrants
/// need five rounds and the rules give four deadlines: the two rounds before the
/// quarter-finals both end on 30 October. The cup loads, every tie of a draw played to the
/// final gets a date in its window after the ties feeding it (twenty draws), and check accepts
/// the list.
#[test]
fn twenty_knock_out_entrants_play_two_preliminary_rounds_by_30_october() {
    let twenty = SUSSEX.replacen(
        "\"Haywards Heath 2\", \"Crowborough 1\", \"Lewes 1\", \"Worthing 2\", \"Uckfield 1\",\n         \"East Grinstead\"]",
        "\"Haywards Heath 2\", \"Crowborough 1\", \"Lewes 1\", \"Worthing 2\", \"Uckfield 1\",\n         \"East Grinstead\", \"Lewes 2\", \"Worthing 3\", \"Horsham 4\", \"Brighton & Hove 2\"]",
        1,
    );
    assert_ne!(twenty, SUSSEX);
    let league = parse_league(&twenty, "twenty.toml").expect("twenty entrants load");
    let list = check::parse_fixtures(&league, SUSSEX_LIST.as_bytes(), "list")
        .unwrap()
        .to_neutral(&league);
    let ci = league.cup_by_name("Knock-Out Cup").unwrap();
    let c = &league.cups[ci];
    assert_eq!((c.teams.len(), c.rounds()), (20, 5));
    let oct30 = date("2026-10-30");
    assert_eq!(c.window(0), Some((c.opens, oct30)));
    assert_eq!(c.window(1), Some((c.opens, oct30)));
    assert_eq!(c.window(2), Some((date("2026-10-31"), date("2026-12-15"))));
    assert_eq!(c.round_name(2), "Quarter-final");
    let mut placed_all = 0;
    for seed in 0..20u64 {
        let ties = cup::ties(c, &cup::draw(c, seed), &mut |t| Some(t.home));
        assert_eq!(ties.len(), 19, "seed {seed}: 20 entrants, 19 ties");
        let (placed, offers) = cup::place(&league, ci, &list, &ties);
        assert!(offers.iter().all(|(_, d)| !d.is_empty()), "seed {seed}");
        // The shipped list kept the reserve for the sixteen entrants it was solved with, not
        // for the four added here: their league matches on it are the list's, not the cup's.
        let v: Vec<String> = violations(&league, &placed)
            .into_iter()
            .filter(|v| !v.starts_with("[cup reserve]"))
            .collect();
        assert!(v.is_empty(), "seed {seed}: {v:?}");
        let cup_ties: Vec<_> = placed
            .extra
            .iter()
            .filter_map(|e| match e.kind {
                ExtraKind::Cup { round, .. } => Some((round, e.date)),
                _ => None,
            })
            .collect();
        assert!(cup_ties.iter().all(|&(r, d)| r > 1 || d <= oct30));
        placed_all += usize::from(cup_ties.len() == 19);
    }
    assert_eq!(placed_all, 20, "every draw has all 19 ties placed");
    // A preliminary tie after 30 October is refused with the rule named.
    let late = list.clone().with_extra([Extra {
        date: date("2026-11-02"),
        home: league.team_by_name("Lewes 2").unwrap(),
        away: league.team_by_name("Worthing 3").unwrap(),
        kind: ExtraKind::Cup { cup: ci, round: 1 },
    }]);
    let v = violations(&league, &late);
    assert!(
        v.iter()
            .any(|v| v.contains("[cup deadline]") && v.contains("2026-10-30")),
        "{v:?}"
    );
}

/// Rapid League rules: the clubs of a joint team say which hosts each home match. A match
/// hosted by the other club keeps that club's unavailable dates, and its nights when the team
/// gives none of its own; the matches the team's own club hosts do not.
#[test]
fn a_joint_teams_other_club_hosts_on_its_own_nights_and_dates() {
    const RAPID: &str = include_str!("../instances/sussex-rapid-2026-7.toml");
    let tuesday = date("2026-11-17");
    let text = RAPID.replacen(
        "venue = \"Uckfield Chess Club\"\nnights = [\"Wed\"]",
        "venue = \"Uckfield Chess Club\"\nnights = [\"Wed\"]\nunavailable = [2026-11-17]",
        1,
    );
    assert_ne!(text, RAPID);
    let league = parse_league(&text, "rapid.toml").unwrap();
    let t = |n: &str| league.team_by_name(n).unwrap();
    let (joint, at_uckfield, at_lewes) = (
        t("Lewes & Uckfield"),
        t("Brighton & Hove Juniors"),
        t("Horsham Juniors"),
    );
    let uckfield = league
        .clubs
        .iter()
        .position(|c| c.name == "Uckfield")
        .unwrap();
    assert_eq!(league.joint_hosts[&(joint, at_uckfield)].club, uckfield);
    assert!(!league.joint_hosts.contains_key(&(joint, at_lewes)));
    let reasons = league.unplayable_reasons(joint, at_uckfield, tuesday);
    assert!(
        reasons.contains(&fixtures::model::Unplayable::HostUnavailable(uckfield)),
        "{reasons:?}"
    );
    assert!(league.playable(joint, at_lewes, tuesday).is_ok());
    // The checker names the club.
    let row = |away: &str| {
        format!("date,division,home,away,venue\n2026-11-17,Rapid League,Lewes & Uckfield,{away},Uckfield Chess Club\n")
    };
    let parsed =
        check::parse_fixtures(&league, row("Brighton & Hove Juniors").as_bytes(), "x").unwrap();
    let v = check::check(&league, &parsed).violations;
    assert!(
        v.iter()
            .any(|v| v.rule == "4 unavailable" && v.detail.contains("Uckfield")),
        "{v:?}"
    );
    // Without nights of its own, the team plays at Uckfield on Uckfield's Wednesdays.
    let own_nights = "joint_with = \"Uckfield\"    # extension: a team entered jointly by two clubs\nnights = [\"Tue\"]";
    assert!(text.contains(own_nights));
    let clubs_nights = text.replacen(own_nights, "joint_with = \"Uckfield\"", 1);
    let league = parse_league(&clubs_nights, "rapid.toml").unwrap();
    let (tue, wed) = (date("2026-11-24"), date("2026-11-25"));
    assert!(league
        .unplayable_reasons(joint, at_uckfield, tue)
        .contains(&fixtures::model::Unplayable::NotHostingDate));
    assert!(league.playable(joint, at_uckfield, wed).is_ok());
    assert!(league.playable(joint, at_lewes, tue).is_ok());
}

/// A team knocked out gets the cup's reserved dates back (`out`): before, a league match of it
/// on a reserved date is refused with `[cup reserve]`; after, the same list passes.
#[test]
fn a_team_knocked_out_gets_the_cups_reserved_dates_back() {
    let (league, list) = sussex();
    let ci = league.cup_by_name("Knock-Out Cup").unwrap();
    let out_text = SUSSEX.replacen(
        "offer = 2\n",
        "offer = 2\nout = [\"Lewes 1\", \"Horsham 1\", \"Bexhill 1\"]\n",
        1,
    );
    assert_ne!(out_text, SUSSEX);
    let after = parse_league(&out_text, "out.toml").unwrap();
    assert_eq!(after.cups[ci].out.len(), 3);
    let reserve: Vec<NaiveDate> = league.cups[ci].reserve.iter().copied().collect();
    let mut found = None;
    'search: for name in ["Lewes 1", "Horsham 1", "Bexhill 1"] {
        let t = league.team_by_name(name).unwrap();
        for (i, m) in list.matches.iter().enumerate() {
            if m.home != t && m.away != t {
                continue;
            }
            for &d in &reserve {
                let mut moved = list.clone();
                moved.matches[i].date = d;
                if violations(&after, &moved).is_empty() {
                    found = Some(moved);
                    break 'search;
                }
            }
        }
    }
    let moved = found.expect("a league match of a knocked-out team fits a reserved date");
    let before = violations(&league, &moved);
    assert!(
        before.iter().any(|v| v.contains("[cup reserve]")),
        "{before:?}"
    );
    // The program's own reasons agree.
    let lewes = league.team_by_name("Lewes 1").unwrap();
    let kept = |lg: &League| {
        lg.fixtures().iter().any(|f| {
            (f.a == lewes || f.b == lewes)
                && reserve.iter().any(|&d| {
                    lg.unplayable_reasons(f.a, f.b, d)
                        .contains(&fixtures::model::Unplayable::CupReserved(lewes, ci))
                })
        })
    };
    assert!(kept(&league));
    assert!(!kept(&after));
}

/// KO rules 3 and 4 against the draw the league file records (`draw`): the ties of a draw
/// played through pass; a first-round tie with its sides swapped fails `[cup home side]`, and
/// teams the tree does not bring together fail `[cup draw]`.
#[test]
fn check_holds_a_cups_ties_to_its_recorded_draw_and_rule_4() {
    let (league, list) = sussex();
    let ci = league.cup_by_name("Knock-Out Cup").unwrap();
    let c = &league.cups[ci];
    let mut checked = 0;
    for seed in 0..10u64 {
        let draw = cup::draw(c, seed);
        let grid: Vec<Option<&str>> = draw
            .grid
            .iter()
            .map(|t| t.map(|t| league.teams[t].name.as_str()))
            .collect();
        let text = changes::cup_draw_toml(SUSSEX, "Knock-Out Cup", &grid).unwrap();
        let drawn = parse_league(&text, "drawn.toml").unwrap();
        assert_eq!(drawn.cups[ci].draw, draw.grid);
        let mut k = 0;
        let ties = cup::ties(c, &draw, &mut |t| {
            k += 1;
            Some(if coin(seed, k) { t.home } else { t.away })
        });
        let (placed, _) = cup::place(&league, ci, &list, &ties);
        let v = violations(&drawn, &placed);
        assert!(v.is_empty(), "seed {seed}: {v:?}");
        // Only first-round ties are changed below: every other tie keeps its teams.
        let first: Vec<usize> = (0..placed.extra.len())
            .filter(
                |&i| matches!(placed.extra[i].kind, ExtraKind::Cup { cup, round: 0 } if cup == ci),
            )
            .collect();
        let mut swapped = placed.clone();
        let e = &mut swapped.extra[first[0]];
        std::mem::swap(&mut e.home, &mut e.away);
        let v = violations(&drawn, &swapped);
        assert!(
            v.iter().any(|v| v.contains("[cup home side]")),
            "seed {seed}: {v:?}"
        );
        let mut crossed = placed.clone();
        let other = crossed.extra[first[1]].away;
        crossed.extra[first[1]].away = crossed.extra[first[0]].away;
        crossed.extra[first[0]].away = other;
        let v = violations(&drawn, &crossed);
        assert!(
            v.iter().any(|v| v.contains("[cup draw]")),
            "seed {seed}: {v:?}"
        );
        // Without the recorded draw the checker cannot tell.
        assert!(!violations(&league, &crossed)
            .iter()
            .any(|v| v.contains("[cup draw]")));
        checked += 1;
    }
    assert_eq!(checked, 10);
}

/// Sussex rule 2.1: "unless permission has been obtained from the Fixtures Secretary to play the
/// game at a later date". A replay after 14 May fails `[2.1 season end]` unless the league file
/// records the permission (`[[late]]`).
#[test]
fn a_replay_after_the_seasons_end_needs_the_fixtures_secretarys_permission() {
    let (league, list) = sussex();
    let m = *list
        .matches
        .iter()
        .rev()
        .find(|m| {
            let t = &league.teams[m.home];
            matches!(&t.hosting, fixtures::model::Hosting::Nights(n) if n.contains(&chrono::Weekday::Tue))
        })
        .unwrap();
    let late = date("2027-05-25");
    assert!(late > league.end && late.weekday() == chrono::Weekday::Tue);
    let with = list.clone().with_extra([Extra {
        date: late,
        home: m.home,
        away: m.away,
        kind: ExtraKind::Replay(m.division),
    }]);
    let v = violations(&league, &with);
    assert!(v.iter().any(|v| v.contains("[2.1 season end]")), "{v:?}");
    let name = |t: TeamId| league.teams[t].name.as_str();
    let text = changes::late_toml(SUSSEX, name(m.home), name(m.away), late).unwrap();
    let permitted = parse_league(&text, "late.toml").unwrap();
    assert_eq!(permitted.late.len(), 1);
    let v = violations(&permitted, &with);
    assert!(!v.iter().any(|v| v.contains("[2.1 season end]")), "{v:?}");
    // The season refuses the date without the permission and records it with.
    use fixtures::season::record::{Season, SeasonError};
    let mut season = Season::start(SUSSEX, "sussex.toml", SUSSEX_LIST, date("2026-09-28")).unwrap();
    let fixture = format!("{} v {}", name(m.home), name(m.away));
    let today = date("2027-05-20");
    match season.replay(today, &fixture, name(m.away), Some(late), false) {
        Err(SeasonError::Refused(why)) => assert!(why[0].contains("rule 2.1"), "{why:?}"),
        other => panic!("a replay after the season's end without permission: {other:?}"),
    }
    let entry = season
        .replay(today, &fixture, name(m.away), Some(late), true)
        .unwrap();
    assert!(entry.verdict.contains("permission"), "{}", entry.verdict);
    assert!(season.league_text().contains("[[late]]"));
    assert!(season.verify_all().iter().all(|(_, v)| v.is_empty()));
}

/// Issue 45: a team that withdrew (its fixtures `[[excluded]]`, rule 11.2) leaves the published
/// site's team count and its division's grid; its calendar stays, marked, for those who
/// subscribed.
#[test]
fn a_withdrawn_team_leaves_the_count_and_the_grid_of_the_published_site() {
    let (league, list) = sussex();
    let lewes = league.team_by_name("Lewes 2").unwrap();
    let mut pairs = Vec::new();
    for &u in &league.divisions[league.teams[lewes].division].teams {
        if u != lewes {
            pairs.push(("Lewes 2", league.teams[u].name.as_str()));
            pairs.push((league.teams[u].name.as_str(), "Lewes 2"));
        }
    }
    let text = changes::excluded_toml(SUSSEX, &pairs).unwrap();
    let after = parse_league(&text, "withdrawn.toml").unwrap();
    assert!(after.withdrawn(lewes) && !league.withdrawn(lewes));
    let kept = FixtureList {
        matches: list
            .matches
            .iter()
            .copied()
            .filter(|m| m.home != lewes && m.away != lewes)
            .collect(),
        ..list.clone()
    };
    let site = fixtures::report::site::site(&after, &kept);
    let page = |name: &str| {
        site.iter()
            .find(|(n, _)| n.starts_with(name))
            .unwrap()
            .1
            .clone()
    };
    let index = page("index.html");
    assert!(
        index.contains(&format!("{} teams.", league.teams.len() - 1)),
        "{index}"
    );
    assert!(index.contains("Lewes 2</a> (withdrew"), "{index}");
    let d = league.teams[lewes].division;
    let slug = fixtures::report::site::slug(&league.divisions[d].name);
    let division = page(&format!("division-{slug}"));
    assert!(!division.contains("Lewes 2"), "{division}");
}

const NCL: &str = include_str!("../instances/competitions/4ncl-2026-27-division-1.toml");

/// 4NCL rule 6.3 through the season: the first draw gives each preliminary pool its round
/// robin; the final pools are refused while a preliminary result is missing, then formed from
/// the results, their rounds placed on the remaining dates and every version checked.
#[test]
fn a_4ncl_division_plays_its_preliminary_pools_then_its_final_pools() {
    use fixtures::season::record::{Season, SeasonError};
    let league = parse_league(NCL, "4ncl.toml").unwrap();
    let opts = Options {
        time_limit: 10.0,
        threads: 1,
        ..Options::default()
    };
    let first = fixtures::pipeline::solve(&league, &opts).expect("the first draw");
    let (a, _) = fixtures::competitions::ncl::league_pools(&league, 0);
    let prelim = first.checked.list().matches.clone();
    assert_eq!(prelim.len(), 56, "two pools of eight, each a round robin");
    assert!(prelim
        .iter()
        .all(|m| a.contains(&m.home) == a.contains(&m.away)));
    let today = date("2027-03-13");
    let mut season =
        Season::start(NCL, "4ncl.toml", first.checked.csv(), date("2026-11-01")).unwrap();
    // A rerun (a new unavailable date, between rounds) keeps every round as it was drawn; one
    // on a round's date is refused, the season unchanged.
    let oxford = |d: &str| vec![("Oxford".to_string(), date(d))];
    season
        .reschedule(date("2026-11-20"), &[], &oxford("2026-11-22"), &opts)
        .unwrap();
    assert_eq!(season.list().unwrap().matches, prelim);
    let versions = season.lists.len();
    match season.reschedule(date("2026-11-20"), &[], &oxford("2026-12-12"), &opts) {
        Err(SeasonError::Refused(why)) => {
            assert!(
                why.iter().any(|w| w.contains("Oxford is unavailable")),
                "{why:?}"
            )
        }
        other => panic!("a round's date made unavailable: {other:?}"),
    }
    assert_eq!(season.lists.len(), versions);
    let name = |t: TeamId| league.teams[t].name.clone();
    for (k, m) in prelim.iter().enumerate() {
        let fixture = format!("{} v {}", name(m.home), name(m.away));
        if k == 0 {
            match season.final_pools(today, "Division 1") {
                Err(SeasonError::Refused(why)) => {
                    assert!(why[0].starts_with("56 of the 56 preliminary"), "{why:?}")
                }
                other => panic!("final pools before any result: {other:?}"),
            }
        }
        // Every match drawn: the pools' places fall to rule 12.2's last resort, the order
        // the teams were entered in, not their names.
        let score = "4-4";
        season
            .enter_result(today, &fixture, None, score, None)
            .unwrap();
    }
    let cur = season.current().unwrap();
    assert!(season.final_pools_due(&cur, 0));
    let tables = |season: &Season| -> Vec<(String, Vec<(TeamId, u32)>)> {
        let cur = season.current().unwrap();
        season
            .tables(&cur, 0)
            .into_iter()
            .map(|(name, rows)| (name, rows.iter().map(|r| (r.team, r.played)).collect()))
            .collect()
    };
    let played = |rows: &[(TeamId, u32)]| rows.iter().map(|r| r.1).collect::<Vec<_>>();
    let pools = tables(&season);
    assert_eq!(
        pools.iter().map(|p| p.0.as_str()).collect::<Vec<_>>(),
        [
            "Division 1, preliminary pool A",
            "Division 1, preliminary pool B"
        ]
    );
    assert!(pools.iter().all(|p| played(&p.1) == [7; 8]), "{pools:?}");
    // The top four of each preliminary table, as rule 12.2 places them, go up.
    let mut up: Vec<TeamId> = pools
        .iter()
        .flat_map(|p| p.1[..4].iter().map(|r| r.0))
        .collect();
    up.sort();
    let entry = season.final_pools(today, "Division 1").unwrap();
    assert!(entry
        .what
        .starts_with("final pools of Division 1: championship "));
    let list = season.list().unwrap();
    assert_eq!(list.matches.len(), 56 + 32, "four final rounds of eight");
    let finals: Vec<_> = list
        .matches
        .iter()
        .filter(|m| a.contains(&m.home) != a.contains(&m.away))
        .collect();
    assert_eq!(finals.len(), 32);
    assert!(finals.iter().all(|m| m.date > today));
    assert!(season.verify_all().iter().all(|(_, v)| v.is_empty()));
    // Each final pool's table carries only the results among its own teams: three each.
    let finals = tables(&season);
    assert_eq!(
        finals.iter().map(|p| p.0.as_str()).collect::<Vec<_>>(),
        [
            "Division 1, championship pool",
            "Division 1, relegation pool"
        ]
    );
    assert!(finals.iter().all(|p| played(&p.1) == [3; 8]), "{finals:?}");
    let mut championship: Vec<TeamId> = finals[0].1.iter().map(|r| r.0).collect();
    championship.sort();
    assert_eq!(championship, up);
    assert!(!season.final_pools_due(&season.current().unwrap(), 0));
    assert!(matches!(
        season.final_pools(today, "Division 1"),
        Err(SeasonError::Input(m)) if m.contains("formed already")
    ));
}

/// A Swiss division of seven teams over five weekend rounds (4NCL rule 6.4).
fn swiss_league() -> String {
    let mut text = String::from(
        "name = \"4NCL Division 3\"\nstart = 2026-11-01\nend = 2027-05-31\n\n\
         [rules]\nmin_days_between = 1\nsame_club_first = false\n\n\
         [[venue]]\nname = \"Hall\"\ncapacity = 16\n\n\
         [[division]]\nname = \"Division 3\"\nformat = \"swiss\"\nvenue = \"Hall\"\n\
         rounds = [2026-11-14, 2026-11-15, 2026-12-12, 2026-12-13, 2027-01-30]\n",
    );
    for i in 1..=7 {
        text += &format!(
            "\n[[club]]\nname = \"Club {i}\"\nvenue = \"Hall\"\nnights = [\"Sat\", \"Sun\"]\n\n\
             [[team]]\nname = \"Team {i}\"\nclub = \"Club {i}\"\ndivision = \"Division 3\"\n"
        );
    }
    text
}

/// League `text`'s first draw started as a season on 1 November, and the options its reruns
/// use.
fn started(
    text: &str,
) -> (
    fixtures::model::League,
    Options,
    fixtures::season::record::Season,
) {
    let league = parse_league(text, "league.toml").unwrap();
    let opts = Options {
        time_limit: 10.0,
        threads: 1,
        ..Options::default()
    };
    let first = fixtures::pipeline::solve(&league, &opts).expect("the first draw");
    let season = fixtures::season::record::Season::start(
        text,
        "league.toml",
        first.checked.csv(),
        date("2026-11-01"),
    )
    .unwrap();
    (league, opts, season)
}

/// 4NCL rule 6.4 through the season: the first draw pairs round 1 of a Swiss division; each
/// later round is refused while a result is missing, then paired from the results with no
/// pair met twice and a different team on the bye each round, every version checked.
#[test]
fn a_swiss_division_is_paired_round_by_round_from_its_results() {
    use fixtures::season::record::SeasonError;
    use std::collections::BTreeSet;
    let (league, _, mut season) = started(&swiss_league());
    assert_eq!(
        season.list().unwrap().matches.len(),
        3,
        "seven teams: three matches and a bye"
    );
    let name = |t: TeamId| league.teams[t].name.clone();
    let dates = [
        "2026-11-14",
        "2026-11-15",
        "2026-12-12",
        "2026-12-13",
        "2027-01-30",
    ];
    for (r, day) in dates.iter().enumerate() {
        let today = date(day);
        let list = season.list().unwrap();
        let round: Vec<_> = list
            .matches
            .iter()
            .filter(|m| m.date == today)
            .copied()
            .collect();
        assert_eq!(round.len(), 3, "round {}", r + 1);
        for (k, m) in round.iter().enumerate() {
            let fixture = format!("{} v {}", name(m.home), name(m.away));
            if k == 0 && r + 1 < dates.len() {
                match season.swiss_round(today, "Division 3") {
                    Err(SeasonError::Refused(why)) => {
                        assert!(why[0].starts_with("3 matches of Division 3"), "{why:?}")
                    }
                    other => panic!("a round paired before the results: {other:?}"),
                }
            }
            // Every home team wins: first-named teams meet first-named teams, whom the
            // league's home_away_balance keeps apart.
            season
                .enter_result(today, &fixture, None, "4-2", None)
                .unwrap();
        }
        if r + 1 < dates.len() {
            let cur = season.current().unwrap();
            assert_eq!(season.swiss_round_due(&cur, 0), Some(r + 2));
            let e = season.swiss_round(today, "Division 3").unwrap();
            assert!(
                e.what
                    .starts_with(&format!("round {} of Division 3: ", r + 2)),
                "{}",
                e.what
            );
        }
    }
    let list = season.list().unwrap();
    assert_eq!(list.matches.len(), 15);
    let pairs: BTreeSet<(TeamId, TeamId)> = list
        .matches
        .iter()
        .map(|m| (m.home.min(m.away), m.home.max(m.away)))
        .collect();
    assert_eq!(pairs.len(), 15, "no pair meets twice");
    let byes: BTreeSet<TeamId> = dates
        .iter()
        .map(|d| {
            (0..7)
                .find(|&t| {
                    !list
                        .matches
                        .iter()
                        .any(|m| m.date == date(d) && (m.home == t || m.away == t))
                })
                .unwrap()
        })
        .collect();
    assert_eq!(byes.len(), 5, "a different team on the bye each round");
    assert!(season.verify_all().iter().all(|(_, v)| v.is_empty()));
    let cur = season.current().unwrap();
    assert_eq!(
        season.swiss_round_due(&cur, 0),
        None,
        "every round is paired"
    );
    assert!(matches!(
        season.swiss_round(date("2027-01-30"), "Division 3"),
        Err(SeasonError::Input(m)) if m == "every round of Division 3 is paired (5)"
    ));
}

/// The final pools follow the preliminary pools as drawn: a rating changed after the draw (the
/// top seed's, which the pools by rating would move) does not move a team between them.
#[test]
fn the_preliminary_pools_are_those_drawn_whatever_the_ratings_say_later() {
    use fixtures::competitions::ncl;
    use fixtures::season::{pools::drawn_pools, record::Current};
    let league = parse_league(NCL, "4ncl.toml").unwrap();
    let opts = Options {
        time_limit: 10.0,
        threads: 1,
        ..Options::default()
    };
    let list = fixtures::pipeline::solve(&league, &opts)
        .expect("the first draw")
        .checked
        .list()
        .clone();
    let drawn = ncl::league_pools(&league, 0);
    let top = &league.teams[drawn.0[0]].name;
    let mut lines: Vec<String> = NCL.lines().map(String::from).collect();
    let at = lines
        .iter()
        .position(|l| *l == format!("name = \"{top}\""))
        .unwrap();
    let rating = at
        + lines[at..]
            .iter()
            .position(|l| l.starts_with("rating"))
            .unwrap();
    lines[rating] = "rating = 1000".into();
    let later = parse_league(&lines.join("\n"), "later.toml").unwrap();
    let unordered = |(a, b): (Vec<usize>, Vec<usize>)| if a < b { (a, b) } else { (b, a) };
    assert_ne!(
        unordered(ncl::league_pools(&later, 0)),
        unordered(drawn.clone()),
        "the change would move teams"
    );
    let cur = Current {
        league: later,
        list,
        scratched: Vec::new(),
    };
    assert_eq!(unordered(drawn_pools(&cur, 0)), unordered(drawn));
}

/// Enters a result for each match of the list in force dated `day`, entered that day: `score`
/// of its (first-named, second-named) teams.
fn play_day(
    season: &mut fixtures::season::record::Season,
    day: &str,
    score: impl Fn(TeamId, TeamId) -> &'static str,
) {
    let cur = season.current().unwrap();
    let name = |t: TeamId| cur.league.teams[t].name.clone();
    for m in cur.list.matches.iter().filter(|m| m.date == date(day)) {
        let fixture = format!("{} v {}", name(m.home), name(m.away));
        season
            .enter_result(date(day), &fixture, None, score(m.home, m.away), None)
            .unwrap();
    }
}

/// A team withdrawing from a Swiss division after two rounds: its matches are scratched, the
/// played ones too (rule 11.2), and the later rounds pair the six teams left, with no bye.
/// The teams whose matches against it were scratched did not have a bye: the table counts a
/// bye as a win for the two teams that had one and for no one else.
#[test]
fn a_team_withdrawing_from_a_swiss_division_leaves_the_later_rounds() {
    let (league, opts, mut season) = started(&swiss_league());
    play_day(&mut season, "2026-11-14", |_, _| "4-2");
    season
        .swiss_round(date("2026-11-14"), "Division 3")
        .unwrap();
    play_day(&mut season, "2026-11-15", |_, _| "4-2");
    let list = season.list().unwrap();
    let of = |t: TeamId| {
        list.matches
            .iter()
            .filter(|m| m.home == t || m.away == t)
            .count()
    };
    // A team that played both rounds, so that both byes went to teams that stay.
    let gone = (0..7).find(|&t| of(t) == 2).unwrap();
    let gone_name = league.teams[gone].name.clone();
    season
        .reschedule(date("2026-11-20"), &[gone_name], &[], &opts)
        .unwrap();
    let list = season.list().unwrap();
    assert!(
        list.matches
            .iter()
            .all(|m| m.home != gone && m.away != gone),
        "its matches are scratched, the played ones too"
    );
    assert_eq!(list.matches.len(), 4);
    let days = ["2026-11-15", "2026-12-12", "2026-12-13", "2027-01-30"];
    for w in days.windows(2) {
        season.swiss_round(date(w[0]), "Division 3").unwrap();
        let round: Vec<_> = season
            .list()
            .unwrap()
            .matches
            .into_iter()
            .filter(|m| m.date == date(w[1]))
            .collect();
        assert_eq!(round.len(), 3, "six teams left: three matches, no bye");
        assert!(round.iter().all(|m| m.home != gone && m.away != gone));
        play_day(&mut season, w[1], |_, _| "4-2");
    }
    let problems = season.verify_all();
    assert!(problems.iter().all(|(_, v)| v.is_empty()), "{problems:?}");
    let cur = season.current().unwrap();
    let table = &season.tables(&cur, 0)[0].1;
    assert_eq!(table.len(), 6, "the withdrawn team leaves the table");
    assert!(league
        .placed_by(0)
        .ends_with("their opponents' game points, then by name. A bye counts as a win."));
    let points: i32 = table.iter().map(|r| r.match_points).sum();
    assert_eq!(points, 2 * 13 + 2 * 2, "13 results and two byes");
}

/// A team withdrawing from a preliminary pool of a 4NCL division: its matches are scratched, its
/// pool plays on with seven (each team idle in the round it would have met it), and the final
/// pools are formed from the top four of each pool, the relegation pool of seven teams playing
/// four rounds with one of them idle each round; every version checked. When the seven teams'
/// home and away counts cannot be kept within the league's limit, the final pools are refused
/// in words that name the setting that allows them.
#[test]
fn a_team_withdrawing_from_a_4ncl_pool_leaves_a_relegation_pool_of_seven() {
    use fixtures::season::record::SeasonError;
    let (league, opts, mut season) = started(NCL);
    let first = season.list().unwrap();
    let (a, b) = fixtures::competitions::ncl::league_pools(&league, 0);
    // Each team's home matches less away ones in its preliminary pool; within each pool the
    // teams ahead of the others have them alternately more and fewer, so the relegation pool's
    // can be kept level.
    let lean = |t: TeamId| {
        let l = first.matches.iter();
        l.map(|m| i32::from(m.home == t) - i32::from(m.away == t))
            .sum::<i32>()
    };
    let mut strength = vec![0; league.teams.len()];
    for pool in [&a, &b] {
        let (mut more, mut fewer): (Vec<TeamId>, Vec<TeamId>) =
            pool.iter().partition(|&&t| lean(t) > 0);
        let mut order = Vec::new();
        while !more.is_empty() || !fewer.is_empty() {
            order.extend(more.pop());
            order.extend(fewer.pop());
        }
        for (k, &t) in order.iter().enumerate() {
            strength[t] = pool.len() - k;
        }
    }
    let result = move |x: TeamId, y: TeamId| {
        if strength[x] > strength[y] {
            "5-3"
        } else {
            "3-5"
        }
    };
    let rounds = league.divisions[0].rounds.clone().unwrap();
    // The same season where the first-named team always wins: the relegation pool is the seven
    // teams with fewer home matches, and four of them play three final matches.
    let mut lopsided = season.clone();
    for r in &rounds[..2] {
        play_day(&mut season, &r.to_string(), &result);
        play_day(&mut lopsided, &r.to_string(), |_, _| "5-3");
    }
    let gone = vec![league.teams[a[2]].name.clone()];
    for s in [&mut season, &mut lopsided] {
        s.reschedule(date("2026-11-20"), &gone, &[], &opts).unwrap();
        let list = s.list().unwrap();
        assert_eq!(
            list.matches.len(),
            56 - 7,
            "its seven preliminary matches scratched"
        );
    }
    for r in &rounds[2..7] {
        play_day(&mut season, &r.to_string(), &result);
        play_day(&mut lopsided, &r.to_string(), |_, _| "5-3");
    }
    match lopsided.final_pools(date("2027-03-13"), "Division 1") {
        Err(SeasonError::Refused(why)) => assert!(
            why[0].contains("more away matches than home") && why[0].ends_with("may allow 2"),
            "{why:?}"
        ),
        other => panic!("final pools that break home_away_balance: {other:?}"),
    }
    let cur = season.current().unwrap();
    assert!(season.final_pools_due(&cur, 0));
    season
        .final_pools(date("2027-03-13"), "Division 1")
        .unwrap();
    let list = season.list().unwrap();
    assert_eq!(
        list.matches.len(),
        49 + 16 + 12,
        "four rounds of four and of three"
    );
    let problems = season.verify_all();
    assert!(problems.iter().all(|(_, v)| v.is_empty()), "{problems:?}");
    let cur = season.current().unwrap();
    let sizes: Vec<(String, usize)> = season
        .tables(&cur, 0)
        .into_iter()
        .map(|(n, rows)| (n, rows.len()))
        .collect();
    assert_eq!(
        sizes,
        [
            ("Division 1, championship pool".to_string(), 8),
            ("Division 1, relegation pool".to_string(), 7)
        ]
    );
}

/// A play-off settles only a tie nothing in the table breaks (Sussex rules 11.1.3 and 12): of
/// four teams level on match points, the two with the same game points are tied; the others
/// are placed by their game points.
#[test]
fn only_teams_no_tie_break_separates_are_tied() {
    let text = include_str!("../instances/examples/four-teams-double.toml");
    let (league, _, mut season) = started(text);
    let list = season.list().unwrap();
    let name = |t: TeamId| league.teams[t].name.clone();
    let narrow = list.matches[0];
    // Every home team wins: six match points each. One win by a narrower margin leaves its
    // home team half a game point behind the two in the middle and its visitor ahead.
    for m in &list.matches {
        let score = if *m == narrow { "2½-1½" } else { "3-1" };
        let fixture = format!("{} v {}", name(m.home), name(m.away));
        season
            .enter_result(date("2027-03-27"), &fixture, None, score, None)
            .unwrap();
    }
    let cur = season.current().unwrap();
    let table = season.standings(&cur, 0);
    assert!(table.iter().all(|r| r.match_points == 6), "{table:?}");
    let mut middle: Vec<TeamId> = (0..4)
        .filter(|&t| t != narrow.home && t != narrow.away)
        .collect();
    middle.sort();
    assert_eq!(season.tied(&cur, 0), [middle]);
    assert_eq!(table[0].team, narrow.away);
    assert_eq!(table[3].team, narrow.home);
}

/// A league match's score decides it: naming a team as going through is refused, not ignored;
/// a cup tie may name one whatever its score (Sussex KO rule 9's handicaps).
#[test]
fn only_a_cup_tie_names_the_team_that_went_through() {
    use fixtures::season::record::{Season, SeasonError};
    let mut s = Season::start(SUSSEX, "sussex.toml", SUSSEX_LIST, date("2026-09-28")).unwrap();
    match s.enter_result(
        date("2026-11-01"),
        "Lewes 2 v Bexhill 3",
        None,
        "2-2",
        Some("Lewes 2"),
    ) {
        Err(SeasonError::Input(m)) => assert!(m.contains("is not a cup tie"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert!(s.results.is_empty());
}
