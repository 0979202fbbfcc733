//! Property tests over random small leagues: whatever `solve` returns, `check` accepts;
//! leagues that are impossible by construction are reported infeasible, never "solved".

mod common;
use common::*;
use fixtures::solve::Outcome;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::sync::atomic::{AtomicUsize, Ordering};

const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

#[derive(Debug, Clone)]
struct Spec {
    days: u32,
    min_days: u32,
    balance: u32,
    same_club_first: bool,
    capacity: u32,
    divisions: Vec<(bool, Vec<(usize, u8)>)>, // (double?, teams: (club, nights mask))
    unavailable: Vec<(usize, u32)>,           // (team index, day offset)
    closed: Vec<u32>,
    constraints: Vec<(u8, u32, u32, bool)>, // (kind, two numbers, soft?)
}

fn spec() -> impl Strategy<Value = Spec> {
    let division = (
        any::<bool>(),
        prop::collection::vec((0usize..3, 1u8..128), 2..6),
    );
    (
        20u32..120,
        1u32..8,
        0u32..3,
        any::<bool>(),
        1u32..3,
        prop::collection::vec(division, 1..3),
        prop::collection::vec((0usize..12, 0u32..120), 0..6),
        prop::collection::vec(0u32..120, 0..4),
        prop::collection::vec((0u8..7, 0u32..100, 0u32..100, any::<bool>()), 0..3),
    )
        .prop_map(
            |(
                days,
                min_days,
                balance,
                same_club_first,
                capacity,
                divisions,
                unavailable,
                closed,
                constraints,
            )| Spec {
                days,
                min_days,
                balance,
                same_club_first,
                capacity,
                divisions,
                unavailable,
                closed,
                constraints,
            },
        )
}

fn day(offset: u32) -> String {
    (chrono::NaiveDate::from_ymd_opt(2027, 1, 4).unwrap() + chrono::Days::new(offset as u64))
        .to_string()
}

fn toml_of(s: &Spec) -> String {
    let mut t = format!(
        "name = \"Random\"\nstart = 2027-01-04\nend = {}\nclosed = [{}]\n\n[rules]\nmin_days_between = {}\nhome_away_balance = {}\nsame_club_first = {}\n\n",
        day(s.days - 1),
        s.closed.iter().map(|&c| day(c)).collect::<Vec<_>>().join(", "),
        s.min_days,
        s.balance,
        s.same_club_first
    );
    for c in 0..3 {
        t += &format!("[[venue]]\nname = \"V{c}\"\ncapacity = {}\n\n", s.capacity);
        t += &format!("[[club]]\nname = \"C{c}\"\nvenue = \"V{c}\"\nnights = [\"Mon\"]\n\n");
    }
    let mut k = 0;
    for (d, (double, teams)) in s.divisions.iter().enumerate() {
        let format = if *double { "double" } else { "single" };
        t += &format!("[[division]]\nname = \"D{d}\"\nformat = \"{format}\"\n\n");
        for (club, mask) in teams {
            let nights: Vec<String> = (0..7)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| format!("\"{}\"", DAYS[i]))
                .collect();
            let unav: Vec<String> = s
                .unavailable
                .iter()
                .filter(|(team, _)| *team == k)
                .map(|(_, o)| day(*o))
                .collect();
            t += &format!(
                "[[team]]\nname = \"T{k}\"\nclub = \"C{club}\"\ndivision = \"D{d}\"\nnights = [{}]\nunavailable = [{}]\n\n",
                nights.join(", "),
                unav.join(", ")
            );
            k += 1;
        }
    }
    for c in &s.constraints {
        t += &constraint_of(s, k, *c);
    }
    t
}

/// One `[[constraint]]` of each kind by `kind`, over the first teams (`T0` and `T1` are of
/// the first division), hard or soft.
fn constraint_of(s: &Spec, teams: usize, (kind, a, b, soft): (u8, u32, u32, bool)) -> String {
    let side = ["home", "away", "any"][(a % 3) as usize];
    let from = a % s.days;
    let range = |len: u32| {
        format!(
            "[{{ from = {}, to = {} }}]",
            day(from),
            day((from + len).min(s.days - 1))
        )
    };
    let group: Vec<String> = (0..teams.min(3)).map(|i| format!("\"T{i}\"")).collect();
    let mut t = String::from("[[constraint]]\n");
    t += &match kind {
        0 => format!("kind = \"matches\"\nteams = [\"T0\"]\nside = \"{side}\"\ndates = {}\nmax = {}\n", range(14), b % 3),
        1 => format!("kind = \"in_a_row\"\nside = \"{side}\"\nweeks = {}\nmax = {}\n", 2 + b % 3, 1 + a % 2),
        2 => format!(
            "kind = \"between\"\nteams = [{}]\nmax = {}\nper = \"{}\"\n",
            group.join(", "),
            if b % 4 == 0 { 3 } else { 1 + b % 2 },
            if b % 4 == 0 { "total" } else { "date" }
        ),
        3 => format!("kind = \"fixtures\"\nfixtures = [{{ home = \"T0\", away = \"T1\" }}]\ndates = {}\nmin = 1\n", range(30)),
        4 => format!("kind = \"apart\"\ndays = {}\n", 7 + b % 21),
        5 if b % 2 == 0 => format!("kind = \"breaks\"\nmax = {}\n", 1 + a % 3),
        5 => format!("kind = \"breaks\"\nper = \"total\"\nmax = {}\n", teams as u32 * (1 + a % 2)),
        _ => format!("kind = \"level\"\ndates = {}\nmax = {}\n", range(3 + b % 10), 2 + a % 2),
    };
    if soft {
        t += &format!("weight = {}\n", 1 + b % 5);
    }
    t + "\n"
}

/// The search as it runs for users: the league's own (default) weights, so the annealing,
/// fix-and-optimise (from half to 60% of the limit, moves of 0.05 s) and the final run all
/// take part, in a short time limit.
fn default_search() -> fixtures::solve::Options {
    fixtures::solve::Options {
        time_limit: 1.0,
        seed: 0,
        threads: 1,
        ..fixtures::solve::Options::default()
    }
}

/// Cases of a property with a fixed seed, so that a failure comes back on every run.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: proptest::test_runner::RngSeed::Fixed(20261204),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Runs `test` on `cases` cases of `strategy`; panics with the failing case.
fn run<S: Strategy>(cases: u32, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>) {
    let mut runner = proptest::test_runner::TestRunner::new(config(cases));
    if let Err(e) = runner.run(&strategy, test) {
        panic!("{e}");
    }
}

/// How many cases took each way through a property.
#[derive(Default, Debug)]
struct Ways {
    /// A list came back and was checked here.
    checked: AtomicUsize,
    /// The league (or the rerun) is impossible, with its reasons.
    infeasible: AtomicUsize,
    /// The search found no list in its time.
    timed_out: AtomicUsize,
}

impl Ways {
    fn count(n: &AtomicUsize) {
        n.fetch_add(1, Ordering::Relaxed);
    }
    fn get(n: &AtomicUsize) -> usize {
        n.load(Ordering::Relaxed)
    }
}

/// Whatever the full search returns, through the pipeline, the checker accepts: every move
/// kind of the annealing and of fix-and-optimise meets `check` on hundreds of leagues. Most
/// leagues get a checked list (a league whose search runs out of its second counts apart).
#[test]
fn whatever_the_search_returns_check_accepts() {
    let ways = Ways::default();
    run(200, spec(), |s| {
        let text = toml_of(&s);
        let league = league(&text);
        match fixtures::pipeline::solve(&league, &default_search()) {
            Ok(sol) => {
                let csv = sol.checked.csv().to_string();
                // Checked again here, independently of the pipeline's own check.
                let r = check_csv(&league, &csv);
                prop_assert!(r.is_valid(), "{:#?}\n{}\n{}", r.violations, text, csv);
                prop_assert_eq!(sol.checked.list().matches.len(), league.fixtures().len());
                if let (Some(o), Some(b)) = (sol.solved.objective, sol.solved.bound) {
                    prop_assert!(
                        b <= o + 1e-6 * o.abs().max(1.0),
                        "bound {} above objective {}",
                        b,
                        o
                    );
                }
                Ways::count(&ways.checked);
            }
            Err(fixtures::pipeline::Failure::Infeasible { reasons, .. }) => {
                prop_assert!(!reasons.is_empty());
                Ways::count(&ways.infeasible);
            }
            Err(fixtures::pipeline::Failure::TimedOut { .. }) => Ways::count(&ways.timed_out),
            Err(other) => prop_assert!(false, "{}\n{}", other, text),
        }
        Ok(())
    });
    eprintln!("solve: {ways:?}");
    // Most of the seed's leagues get a list and some are impossible; the margin is for the
    // searches a loaded machine times out.
    assert!(Ways::get(&ways.checked) >= 140, "{ways:?}");
    assert!(Ways::get(&ways.infeasible) >= 1, "{ways:?}");
}

proptest! {
    #![proptest_config(config(40))]

    #[test]
    fn too_short_seasons_are_infeasible(teams in 3usize..7, min_days in 1u32..5, double in any::<bool>()) {
        // Each team has (teams - 1) matches (twice that for a double round robin), which
        // need (matches - 1) * min_days + 1 days; give it one day fewer.
        let matches = (teams - 1) * if double { 2 } else { 1 };
        let days = (matches as u32 - 1) * min_days;
        let s = Spec {
            days: days.max(1),
            min_days,
            balance: 5,
            same_club_first: false,
            capacity: 5,
            divisions: vec![(double, (0..teams).map(|i| (i % 3, 127u8)).collect())],
            unavailable: vec![],
            closed: vec![],
            constraints: vec![],
        };
        let league = league(&toml_of(&s));
        let solved = solve(&league);
        prop_assert!(matches!(solved.outcome, Outcome::Infeasible(_)), "{:?}", solved.outcome);
        prop_assert!(solved.schedule.is_none());
    }
}

/// A rerun with random changes (a withdrawal, new blackouts after `from`), with the full
/// search: whatever comes back through the pipeline is valid for the changed league (checked
/// again here with the rerun's promises) and keeps every played fixture as it was. Leagues
/// without a first list have nothing to rerun; most do.
#[test]
fn reschedule_keeps_history_and_stays_valid() {
    let ways = Ways::default();
    let changes = (
        spec(),
        0u32..120,
        proptest::option::of(0usize..12),
        prop::collection::vec((0usize..12, 0u32..120), 0..4),
    );
    run(200, changes, |(s, cut, withdraw, blackouts)| {
        let league = league(&toml_of(&s));
        let Ok(first) = fixtures::pipeline::solve(&league, &default_search()) else {
            return Ok(());
        };
        let current = first.checked.list().clone();
        let from = chrono::NaiveDate::parse_from_str(&day(cut % s.days), "%Y-%m-%d").unwrap();
        let mut edited = league.clone();
        for (t, o) in blackouts {
            let d = chrono::NaiveDate::parse_from_str(&day(o % s.days), "%Y-%m-%d").unwrap();
            if t < edited.teams.len() && d >= from {
                edited.teams[t].unavailable.insert(d);
            }
        }
        let gone: Vec<usize> = withdraw
            .into_iter()
            .filter(|&t| t < league.teams.len())
            .collect();
        match fixtures::pipeline::rerun(&edited, &current, from, &gone, &default_search()) {
            Ok(r) => {
                let new = r.solution.checked.list();
                let plan = fixtures::season::reschedule::plan(&edited, &current, from, &gone);
                let list = fixtures::check::parse_fixtures(
                    &plan.league,
                    r.solution.checked.csv().as_bytes(),
                    "new.csv",
                )
                .unwrap();
                let report = fixtures::check::check_rerun(&plan.league, &list, &plan.rerun);
                prop_assert!(report.is_valid(), "{:#?}", report.violations);
                for m in &current.matches {
                    if m.date < from && !gone.contains(&m.home) && !gone.contains(&m.away) {
                        prop_assert!(new.matches.contains(m), "played {:?} lost", m);
                    }
                }
                for m in &new.matches {
                    prop_assert!(
                        m.date >= from || current.matches.contains(m),
                        "{:?} moved before {}",
                        m,
                        from
                    );
                }
                Ways::count(&ways.checked);
            }
            Err(fixtures::pipeline::Failure::Infeasible { .. }) => Ways::count(&ways.infeasible),
            Err(fixtures::pipeline::Failure::TimedOut { .. }) => Ways::count(&ways.timed_out),
            Err(other) => prop_assert!(false, "{}", other),
        }
        Ok(())
    });
    eprintln!("rerun: {ways:?}");
    // Most of the seed's leagues have a first list to rerun; the margin is for the searches a
    // loaded machine times out.
    assert!(Ways::get(&ways.checked) >= 140, "{ways:?}");
}
