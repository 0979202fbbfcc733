//! Issue 44's property: 200 random sequences of season operations (results, postponements,
//! agreed changes, new unavailable dates, a withdrawal, a cup draw, replays, days passing) on
//! generated leagues with a cup (in one league in three, the first two rounds share a deadline).
//! After every operation that publishes, every fixture of the
//! previous version is in the new one or in the log entry as moved or scratched with its
//! reason; the checker accepts the new version against the league version it records; no
//! fixture before today moved (but a withdrawn team's, scratched by rule 11.2). A refused
//! operation leaves the season as it was.

use chrono::{Days, NaiveDate};
use fixtures::model::parse_league;
use fixtures::season::record::{Season, SeasonError};
use fixtures::solve::Options;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::sync::atomic::{AtomicUsize, Ordering};

const START: &str = "2027-01-04";

fn start() -> NaiveDate {
    START.parse().unwrap()
}

/// A league of `teams` teams (each of its own club and venue, at home on the nights of its
/// mask), one single round robin over 150 days, and a knockout cup of every team.
fn toml_of(teams: usize, masks: &[u8], min_days: u32) -> String {
    const DAYS: [&str; 5] = ["Mon", "Tue", "Wed", "Thu", "Fri"];
    let end = start() + Days::new(149);
    let mut t = format!(
        "name = \"Generated\"\nstart = {START}\nend = {end}\n\n[rules]\nmin_days_between = {min_days}\n\n[changes]\nissued = 2027-01-01\nweekends = true\n\n[[division]]\nname = \"Division 1\"\nformat = \"single\"\n\n"
    );
    for (i, mask) in masks.iter().enumerate().take(teams) {
        let nights: Vec<String> = (0..5)
            .filter(|b| mask & (1 << b) != 0 || *b == i % 5)
            .map(|b| format!("\"{}\"", DAYS[b]))
            .collect();
        t += &format!(
            "[[venue]]\nname = \"V{i}\"\ncapacity = 2\n\n[[club]]\nname = \"C{i}\"\nvenue = \"V{i}\"\nnights = [{}]\n\n[[team]]\nname = \"T{i}\"\nclub = \"C{i}\"\ndivision = \"Division 1\"\n\n",
            nights.join(", ")
        );
    }
    // One deadline a round; for one league in three a round fewer, so that the first two
    // rounds share the first deadline (KO rule 3's preliminary rounds).
    let rounds = teams.next_power_of_two().trailing_zeros() as u64;
    let given = if teams.is_multiple_of(3) && rounds > 1 {
        rounds - 1
    } else {
        rounds
    };
    let deadlines: Vec<String> = (1..=given)
        .map(|r| (start() + Days::new(149 * r / given)).to_string())
        .collect();
    let names: Vec<String> = (0..teams).map(|i| format!("\"T{i}\"")).collect();
    t += &format!(
        "[[cup]]\nname = \"Cup\"\nteams = [{}]\nopens = {START}\ndeadlines = [{}]\n",
        names.join(", "),
        deadlines.join(", ")
    );
    t
}

/// One operation; the numbers pick a team, a match or a number of days.
#[derive(Debug, Clone)]
enum Op {
    Pass(u8),
    Result(u8, u8, u8),
    Postpone(u8),
    Change(u8, u8),
    Unavailable(u8, u8),
    Withdraw(u8),
    Draw(u8),
    Replay(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (1u8..30).prop_map(Op::Pass),
        4 => (any::<u8>(), 0u8..5, 0u8..5).prop_map(|(k, h, a)| Op::Result(k, h, a)),
        2 => any::<u8>().prop_map(Op::Postpone),
        2 => (any::<u8>(), 1u8..60).prop_map(|(k, d)| Op::Change(k, d)),
        1 => (any::<u8>(), 0u8..30).prop_map(|(t, d)| Op::Unavailable(t, d)),
        1 => any::<u8>().prop_map(Op::Withdraw),
        2 => any::<u8>().prop_map(Op::Draw),
        1 => any::<u8>().prop_map(Op::Replay),
    ]
}

/// A short search: the first list and every rerun of these small leagues is found (or
/// proven impossible) well inside it; what it does not find counts as refused.
fn quick() -> Options {
    Options {
        time_limit: 0.3,
        threads: 1,
        ..Options::default()
    }
}

/// The `k`-th of `items` (wrapping), if any.
fn nth<T: Clone>(items: &[T], k: u8) -> Option<T> {
    (!items.is_empty()).then(|| items[k as usize % items.len()].clone())
}

/// Applies `op` on `today`; the operation's outcome (Ok when it published or entered).
fn apply(season: &mut Season, op: &Op, today: &mut NaiveDate) -> Option<Result<(), SeasonError>> {
    let cur = season.current().ok()?;
    let lg = &cur.league;
    let name = |t: usize| lg.teams[t].name.clone();
    let fixture = |m: &fixtures::model::Match| format!("{} v {}", name(m.home), name(m.away));
    let future: Vec<String> = cur
        .list
        .matches
        .iter()
        .filter(|m| m.date >= *today)
        .map(fixture)
        .collect();
    let past: Vec<String> = cur
        .list
        .matches
        .iter()
        .filter(|m| m.date < *today)
        .map(fixture)
        .collect();
    let teams: Vec<String> = (0..lg.teams.len())
        .filter(|&t| cur.list.of_team(t).next().is_some())
        .map(name)
        .collect();
    let t = *today;
    Some(match *op {
        Op::Pass(d) => {
            *today = t + Days::new(u64::from(d));
            return None;
        }
        Op::Result(k, h, a) => {
            let open = season.awaiting(t).ok()?;
            let (_, competition, f) = nth(&open, k)?;
            let score = format!("{h}-{a}");
            // The home side named as going through a cup tie (a league match has none).
            let winner = f
                .split(" v ")
                .next()
                .filter(|_| lg.cup_by_name(&competition).is_some())
                .map(str::to_string);
            season
                .enter_result(t, &f, Some(&competition), &score, winner.as_deref())
                .map(|_| ())
        }
        Op::Postpone(k) => season.postpone(t, &nth(&future, k)?, None).map(|_| ()),
        Op::Change(k, d) => season
            .change(t, &nth(&future, k)?, t + Days::new(u64::from(d)), t, false)
            .map(|_| ()),
        Op::Unavailable(k, d) => {
            let when = t + Days::new(u64::from(d));
            season
                .reschedule(t, &[], &[(nth(&teams, k)?, when)], &quick())
                .map(|_| ())
        }
        Op::Withdraw(k) if teams.len() > 3 => season
            .reschedule(t, &[nth(&teams, k)?], &[], &quick())
            .map(|_| ()),
        Op::Withdraw(_) => return None,
        Op::Draw(seed) => season.draw_cup(t, "Cup", u64::from(seed)).map(|_| ()),
        Op::Replay(k) => {
            let f = nth(&past, k)?;
            let against = f.split(" v ").nth(1)?.to_string();
            season.replay(t, &f, &against, None, false).map(|_| ())
        }
    })
}

#[derive(Default, Debug)]
struct Ways {
    published: AtomicUsize,
    entered: AtomicUsize,
    refused: AtomicUsize,
    sequences: AtomicUsize,
}

fn add(n: &AtomicUsize) {
    n.fetch_add(1, Ordering::Relaxed);
}

/// The invariants between the version before and the version after an operation.
fn published_well(before: &Season, after: &Season, today: NaiveDate) -> Result<(), TestCaseError> {
    let old = before.current().unwrap();
    let new = after.current().unwrap();
    let problems = after.verify_all();
    prop_assert!(problems.is_empty(), "{problems:?}");
    let entry = after
        .log
        .iter()
        .rev()
        .find(|e| e.list == Some(after.lists.len()))
        .unwrap();
    let lg = &old.league;
    let name = |t: usize| lg.teams[t].name.as_str();
    let rows = |l: &fixtures::model::FixtureList| -> Vec<(NaiveDate, String)> {
        l.matches
            .iter()
            .map(|m| (m.date, format!("{} v {}", name(m.home), name(m.away))))
            .chain(
                l.extra
                    .iter()
                    .map(|e| (e.date, format!("{} v {}", name(e.home), name(e.away)))),
            )
            .collect()
    };
    let now = rows(&new.list);
    for (date, f) in rows(&old.list) {
        if now.contains(&(date, f.clone())) {
            continue;
        }
        let said = entry.changes.iter().find(|c| {
            c.old == Some(date)
                && (c.fixture == f || c.fixture == swap(&f))
                && matches!(c.status.as_str(), "moved" | "scratched")
        });
        prop_assert!(
            said.is_some_and(|c| !c.reason.is_empty()),
            "{f} of {date} gone without a reason: {entry:?}"
        );
        // Only a withdrawal scratches (rule 11.2), and only the withdrawn team's fixtures (a
        // team with no fixture left); everything else moves.
        let scratched = said.is_some_and(|c| c.status == "scratched");
        let withdrawal = entry.kind == fixtures::season::record::Kind::Withdrawal;
        let gone = |t: &str| {
            !new.list
                .matches
                .iter()
                .any(|m| name(m.home) == t || name(m.away) == t)
        };
        let of_gone = f.split(" v ").any(gone);
        prop_assert!(
            !scratched || (withdrawal && of_gone),
            "{f} of {date} scratched by {entry:?}"
        );
        prop_assert!(
            date >= today || (withdrawal && scratched),
            "{f} of {date} moved before today {today}"
        );
    }
    for (date, f) in &now {
        prop_assert!(
            *date >= today || rows(&old.list).contains(&(*date, f.clone())),
            "{f} put on {date}, before today {today}"
        );
    }
    Ok(())
}

fn swap(f: &str) -> String {
    match f.split_once(" v ") {
        Some((h, a)) => format!("{a} v {h}"),
        None => f.to_string(),
    }
}

#[test]
fn random_season_operations_keep_every_fixture_accounted_for() {
    let ways = Ways::default();
    let cases = (
        4usize..8,
        prop::collection::vec(1u8..32, 8),
        1u32..4,
        prop::collection::vec(op(), 4..14),
    );
    let config = ProptestConfig {
        cases: 200,
        rng_seed: proptest::test_runner::RngSeed::Fixed(20261204),
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let mut runner = proptest::test_runner::TestRunner::new(config);
    let outcome = runner.run(&cases, |(teams, masks, min_days, ops)| {
        let text = toml_of(teams, &masks, min_days);
        let league = parse_league(&text, "generated.toml").expect("the generated league loads");
        let Ok(first) = fixtures::pipeline::solve(&league, &quick()) else {
            return Ok(());
        };
        let mut season = Season::start(
            &text,
            "generated.toml",
            first.checked.csv(),
            start() - Days::new(3),
        )
        .unwrap();
        add(&ways.sequences);
        let mut today = start() - Days::new(3);
        for op in &ops {
            let before = season.clone();
            let was = today;
            match apply(&mut season, op, &mut today) {
                None => season = before,
                Some(Err(_)) => {
                    add(&ways.refused);
                    season = before;
                }
                Some(Ok(())) if season.lists.len() > before.lists.len() => {
                    add(&ways.published);
                    published_well(&before, &season, was)?;
                }
                Some(Ok(())) => add(&ways.entered),
            }
        }
        Ok(())
    });
    if let Err(e) = outcome {
        panic!("{e}");
    }
    eprintln!("season operations: {ways:?}");
    // Most sequences start (a generated league may have no list in its time) and most publish.
    assert!(ways.sequences.load(Ordering::Relaxed) >= 150, "{ways:?}");
    assert!(ways.published.load(Ordering::Relaxed) >= 300, "{ways:?}");
    assert!(ways.entered.load(Ordering::Relaxed) >= 50, "{ways:?}");
}
