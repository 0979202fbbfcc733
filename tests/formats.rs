//! Competitions from the three leagues' rules: compact rounds with the fewest breaks, Berger
//! tables, GTCL's "auto" format, the cup draw and Swiss pairings.

mod common;
use common::*;
use fixtures::competitions::{berger, cup};
use fixtures::model::Format;
use fixtures::solve::{self, Outcome};

/// Ten teams, nine Saturdays, all at one central venue: a compact single round robin.
fn compact_ten() -> String {
    let mut t = String::from(
        "name = \"Compact\"\nstart = 2026-10-03\nend = 2026-12-05\n\n[rules]\nmin_days_between = 1\nsame_club_first = false\n\n",
    );
    t += "[[venue]]\nname = \"Congress Hall\"\ncapacity = 5\n\n";
    t += "[[division]]\nname = \"Championship\"\nvenue = \"Congress Hall\"\n";
    t += "rounds = [2026-10-03, 2026-10-10, 2026-10-17, 2026-10-24, 2026-10-31, 2026-11-07, 2026-11-14, 2026-11-21, 2026-11-28]\n\n";
    for i in 1..=10 {
        t += &format!(
            "[[venue]]\nname = \"Home {i}\"\n\n[[club]]\nname = \"Club {i}\"\nvenue = \"Home {i}\"\nnights = [\"Tue\"]\n\n[[team]]\nname = \"Team {i}\"\nclub = \"Club {i}\"\ndivision = \"Championship\"\n\n"
        );
    }
    t
}

#[test]
fn a_compact_ten_team_round_robin_has_exactly_eight_breaks_proven() {
    let league = league(&compact_ten());
    let solved = solve::solve(&league, &breaks_only()).unwrap();
    assert!(
        matches!(solved.outcome, Outcome::Optimal { .. }),
        "{:?}",
        solved.outcome
    );
    let csv = solved.schedule.as_ref().unwrap().to_csv(&league);
    let r = check_csv(&league, &csv);
    assert!(r.is_valid(), "{:#?}", r.violations);
    assert_eq!(r.quality.breaks, 8, "{csv}");
    // Every team plays once a round, every match at the central venue.
    for line in csv.lines().skip(1) {
        assert!(line.contains("Congress Hall"), "{line}");
    }
    let mut per_round = std::collections::BTreeMap::new();
    for line in csv.lines().skip(1) {
        *per_round.entry(&line[..10]).or_insert(0) += 1;
    }
    assert_eq!(per_round.len(), 9);
    assert!(per_round.values().all(|&n| n == 5));
}

#[test]
fn the_checker_holds_compact_divisions_to_their_round_dates() {
    let league = league(&compact_ten());
    let csv = csv_of(&[(
        "2026-10-04",
        "Championship",
        "Team 1",
        "Team 2",
        "Congress Hall",
    )]);
    assert!(broken_rules(&league, &csv).contains(&"2 round date"));
}

#[test]
fn auto_format_is_double_up_to_seven_teams() {
    let mut small = Lg::new("2026-10-05", "2027-04-30").division("Premier", "auto");
    for i in 0..7 {
        small = small.club(&format!("C{i}"), "").team(
            &format!("T{i}"),
            &format!("C{i}"),
            "Premier",
            "",
        );
    }
    assert_eq!(small.league().divisions[0].format, Format::Double);
    let mut big = Lg::new("2026-10-05", "2027-04-30").division("U2000", "auto");
    for i in 0..8 {
        big = big
            .club(&format!("C{i}"), "")
            .team(&format!("T{i}"), &format!("C{i}"), "U2000", "");
    }
    assert_eq!(big.league().divisions[0].format, Format::Single);
}

#[test]
fn berger_tables_have_the_fewest_breaks() {
    for n in [4, 6, 8, 10, 12, 16] {
        let t = berger::table(n);
        assert_eq!(t.len(), n - 1);
        assert_eq!(
            berger::breaks(&t, n).iter().sum::<usize>(),
            n - 2,
            "n = {n}"
        );
    }
    assert!(berger::text(5).contains("bye"));
}

#[test]
fn the_cup_draw_keeps_last_years_finalists_apart_in_a_thousand_draws() {
    for teams in [5usize, 8, 11, 16] {
        let ids: Vec<usize> = (0..teams).collect();
        for seed in 0..1000 {
            let d = cup::draw(&ids, &[2, 4], seed);
            assert!(d.grid.len().is_power_of_two() && d.grid.len() >= teams);
            assert_ne!(
                d.half(2),
                d.half(4),
                "teams {teams}, seed {seed}: {:?}",
                d.grid
            );
            let drawn: std::collections::BTreeSet<usize> =
                d.grid.iter().flatten().copied().collect();
            assert_eq!(drawn.len(), teams, "every team once");
            assert!(d.first_round().iter().all(|(a, b)| Some(*a) != *b));
        }
    }
    // The same seed, the same draw.
    assert_eq!(
        cup::draw(&[0, 1, 2, 3, 4], &[0, 1], 7),
        cup::draw(&[0, 1, 2, 3, 4], &[0, 1], 7)
    );
}

/// Game points of a four-board match from a seed: a split of 4 in half points.
fn result(seed: u64) -> (f64, f64) {
    let halves = (seed.wrapping_mul(6364136223846793005) >> 33) % 9; // 0..=8 half points
    let a = halves as f64 / 2.0;
    (a, 4.0 - a)
}

#[test]
fn a_swiss_round_for_24_teams_after_four_rounds() {
    use fixtures::competitions::swiss::{pair, standings, Played};
    let n = 24;
    let mut played: Vec<Played> = Vec::new();
    for round in 1..=5u32 {
        let s = standings(n, &played, &[]);
        let p = pair(&s, &played, 1, &(0..n).collect::<Vec<_>>()).unwrap();
        assert_eq!(p.pairs.len(), n / 2);
        assert_eq!(p.bye, None);
        let mut seen = std::collections::BTreeSet::new();
        for &(a, b) in &p.pairs {
            assert!(
                seen.insert(a) && seen.insert(b),
                "a team twice in round {round}"
            );
            let again = played
                .iter()
                .any(|m| (m.first == a && m.second == b) || (m.first == b && m.second == a));
            assert!(!again, "round {round}: {a} v {b} again");
        }
        if round == 5 {
            // Score groups respected: at most one pair floats out of each score group.
            let groups: std::collections::BTreeSet<u32> =
                s.iter().map(|x| x.match_points).collect();
            let floats = p
                .pairs
                .iter()
                .filter(|&&(a, b)| s[a].match_points != s[b].match_points)
                .count();
            assert!(
                floats <= groups.len(),
                "{floats} floats for {} groups",
                groups.len()
            );
            // First-named balanced: nobody first-named more than one match more than second.
            let after = {
                let mut all = played.clone();
                all.extend(p.pairs.iter().map(|&(a, b)| Played {
                    round,
                    first: a,
                    second: b,
                    first_points: 2.0,
                    second_points: 2.0,
                }));
                standings(n, &all, &[])
            };
            assert!(after
                .iter()
                .all(|x| (x.first_named - x.second_named).abs() <= 3));
        }
        for (i, &(a, b)) in p.pairs.iter().enumerate() {
            let (x, y) = result(round as u64 * 100 + i as u64);
            played.push(Played {
                round,
                first: a,
                second: b,
                first_points: x,
                second_points: y,
            });
        }
    }
}

#[test]
fn an_odd_swiss_field_gives_one_bye_to_the_lowest_without_one() {
    use fixtures::competitions::swiss::{pair, standings, Played};
    let played = vec![
        Played {
            round: 1,
            first: 0,
            second: 1,
            first_points: 4.0,
            second_points: 0.0,
        },
        Played {
            round: 1,
            first: 2,
            second: 3,
            first_points: 3.0,
            second_points: 1.0,
        },
    ];
    let s = standings(5, &played, &[4]);
    let p = pair(&s, &played, 1, &[0, 1, 2, 3, 4]).unwrap();
    assert_eq!(p.pairs.len(), 2);
    // Team 4 had the bye; the lowest of the rest is team 1 (0 points).
    assert_eq!(p.bye, Some(1));
}

/// Round 1 of a Swiss by rating alone (the Dutch system): the top half meets the bottom half,
/// first against first; seeds, not team numbers, decide.
#[test]
fn a_first_swiss_round_pairs_the_top_half_with_the_bottom_half() {
    use fixtures::competitions::swiss::{pair, standings};
    let seeds = [3, 7, 0, 5, 1, 6, 2, 4]; // team 2 the strongest, team 1 the weakest
    let p = pair(&standings(8, &[], &[]), &[], 1, &seeds).unwrap();
    let mut met: Vec<(usize, usize)> = p
        .pairs
        .iter()
        .map(|&(a, b)| (seeds[a].min(seeds[b]), seeds[a].max(seeds[b])))
        .collect();
    met.sort();
    assert_eq!(met, [(0, 4), (1, 5), (2, 6), (3, 7)]);
}

/// How many distinct teams play in round `r` of (round, first, second) matches.
fn teams_in_round(matches: &[(u32, usize, usize)], r: u32) -> usize {
    let playing: std::collections::BTreeSet<usize> = matches
        .iter()
        .filter(|m| m.0 == r)
        .flat_map(|m| [m.1, m.2])
        .collect();
    playing.len()
}

#[test]
fn a_4ncl_division_pools_rounds_split_and_final_rounds() {
    use fixtures::competitions::ncl;
    use fixtures::competitions::swiss::Played;
    use std::collections::BTreeSet;
    let league = league(include_str!(
        "../instances/competitions/4ncl-2026-27-division-1.toml"
    ));
    let teams = &league.divisions[0].teams;
    assert_eq!(teams.len(), 16);
    let rating: Vec<f64> = league.teams.iter().map(|t| t.rating.unwrap()).collect();
    let club: Vec<usize> = league.teams.iter().map(|t| t.club).collect();
    let (a, b) = ncl::pools(teams, &rating, &club);
    assert_eq!((a.len(), b.len()), (8, 8));
    let mean = |p: &[usize]| p.iter().map(|&t| rating[t]).sum::<f64>() / 8.0;
    assert!(
        (mean(&a) - mean(&b)).abs() < 10.0,
        "pools of broadly equal strength"
    );
    for p in [&a, &b] {
        let clubs: BTreeSet<usize> = p.iter().map(|&t| club[t]).collect();
        assert_eq!(clubs.len(), 8, "two teams of one squad in different pools");
    }
    // Rounds 1-7: every team once a round, every pair of a pool once.
    let mut prelim: Vec<(u32, usize, usize)> = ncl::pool_rounds(&a, 1);
    prelim.extend(ncl::pool_rounds(&b, 1));
    assert_eq!(prelim.len(), 2 * 28);
    for r in 1..=7 {
        assert_eq!(teams_in_round(&prelim, r), 16, "round {r}");
    }
    // Results: the higher-rated team wins 5-3, except every fifth match drawn.
    let played: Vec<Played> = prelim
        .iter()
        .enumerate()
        .map(|(i, &(round, x, y))| {
            let (px, py) = if i % 5 == 0 {
                (4.0, 4.0)
            } else if rating[x] > rating[y] {
                (5.0, 3.0)
            } else {
                (3.0, 5.0)
            };
            Played {
                round,
                first: x,
                second: y,
                first_points: px,
                second_points: py,
            }
        })
        .collect();
    let lean = ncl::leans(&played, league.teams.len());
    let s = ncl::split((&a, &b), (&played, &[]), league.teams.len(), 8, &lean);
    assert_eq!((s.championship.len(), s.relegation.len()), (8, 8));
    // Carried forward: exactly the matches between teams of the same final pool (3 per team).
    assert_eq!(s.carried.len(), 2 * 12);
    // Rounds 8-11: every team once a round, and every pair of a final pool met exactly once
    // over the season (carried + new); no other pair meets again.
    assert_eq!(s.rounds.len(), 32);
    for pool in [&s.championship, &s.relegation] {
        let mut met = BTreeSet::new();
        for m in &s.carried {
            if pool.contains(&m.first) {
                assert!(met.insert((m.first.min(m.second), m.first.max(m.second))));
            }
        }
        for &(_, x, y) in &s.rounds {
            if pool.contains(&x) {
                assert!(pool.contains(&y));
                let pair = (x.min(y), x.max(y));
                assert!(met.insert(pair), "{pair:?} twice");
                assert!(!played
                    .iter()
                    .any(|m| (m.first.min(m.second), m.first.max(m.second)) == pair));
            }
        }
        assert_eq!(met.len(), 28, "a full round robin of the final pool");
    }
    for r in 8..=11 {
        assert_eq!(teams_in_round(&s.rounds, r), 16, "round {r}");
    }
    // Each team first-named twice in rounds 8-11.
    for &t in teams {
        let first = s.rounds.iter().filter(|m| m.1 == t).count();
        assert_eq!(first, 2, "{}", league.teams[t].name);
    }
}

#[test]
fn no_more_than_two_teams_of_one_club_in_a_4ncl_division() {
    let text = include_str!("../instances/competitions/4ncl-2026-27-division-1.toml").replace(
        "name = \"Alba\"\nclub = \"Alba\"",
        "name = \"Alba\"\nclub = \"Guildford\"",
    );
    let e = fixtures::model::parse_league(&text, "4ncl.toml").unwrap_err();
    assert!(
        e.to_string()
            .contains("Alba is the 3th team of club \"Guildford\""),
        "{e}"
    );
    assert!(e.to_string().contains("4ncl.toml:"), "{e}");
}
