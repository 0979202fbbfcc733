//! Mid-season reruns: history stays byte for byte, withdrawals move nothing, a new blackout
//! moves only the fixtures it hits, and `batch` survives a broken scenario.

mod common;
use common::*;
use fixtures::check;
use fixtures::model::League;
use fixtures::season::reschedule::{self, Status};
use fixtures::solve::{self, Options, Outcome};

const MID_DOWNS: &str = include_str!("../instances/examples/mid-downs.toml");

fn quick() -> Options {
    Options {
        time_limit: 6.0,
        threads: 1,
        ..Options::default()
    }
}

/// Reschedules `csv` for `league` from `from`; returns the new CSV and the changes.
fn rerun(
    original: &League,
    edited: &League,
    csv: &str,
    from: &str,
    withdraw: &[&str],
) -> (String, Vec<reschedule::Change>) {
    let rows = check::parse_fixtures(original, csv.as_bytes(), "current.csv")
        .unwrap()
        .to_neutral(original);
    let gone: Vec<usize> = withdraw
        .iter()
        .map(|n| edited.team_by_name(n).unwrap())
        .collect();
    let plan = reschedule::plan(edited, &rows, from.parse().unwrap(), &gone);
    let solved = solve::solve(&plan.solving(), &plan.options(&quick())).unwrap();
    assert!(
        matches!(
            solved.outcome,
            Outcome::Optimal { .. } | Outcome::Feasible { .. }
        ),
        "{:?}",
        solved.outcome
    );
    let schedule = solved.schedule.unwrap();
    let new = schedule.to_csv(&plan.league);
    let r = check_csv(&plan.league, &new);
    assert!(r.is_valid(), "{:#?}\n{new}", r.violations);
    (new, reschedule::diff(edited, &rows, &schedule))
}

/// The CSV lines dated before `from`.
fn history<'a>(csv: &'a str, from: &str) -> Vec<&'a str> {
    csv.lines().skip(1).filter(|l| &l[..10] < from).collect()
}

fn count(changes: &[reschedule::Change], s: Status) -> usize {
    changes.iter().filter(|c| c.status == s).count()
}

#[test]
fn a_rerun_with_no_change_moves_nothing() {
    let league = league(MID_DOWNS);
    let csv = solve_valid(&league);
    let (new, changes) = rerun(&league, &league, &csv, "2027-01-10", &[]);
    assert_eq!(count(&changes, Status::Moved), 0, "{new}");
    assert_eq!(new, csv, "the same list, byte for byte");
}

#[test]
fn a_withdrawal_alone_moves_nothing_and_keeps_history() {
    let league = league(MID_DOWNS);
    let csv = solve_valid(&league);
    let from = "2027-01-10";
    let team = league.teams[0].name.clone();
    let (new, changes) = rerun(&league, &league, &csv, from, &[&team]);
    assert_eq!(count(&changes, Status::Moved), 0, "{new}");
    assert_eq!(count(&changes, Status::New), 0);
    let theirs = csv.lines().skip(1).filter(|l| l.contains(&team)).count();
    assert_eq!(count(&changes, Status::Scratched), theirs);
    let kept: Vec<&str> = history(&csv, from)
        .into_iter()
        .filter(|l| !l.contains(&team))
        .collect();
    assert_eq!(history(&new, from), kept, "played fixtures identical");
    assert!(!new.contains(&team));
}

#[test]
fn a_new_blackout_moves_only_the_fixtures_it_hits() {
    let league = league(MID_DOWNS);
    let csv = solve_valid(&league);
    let from = "2026-12-01";
    let rows = check::parse_fixtures(&league, csv.as_bytes(), "current.csv")
        .unwrap()
        .rows;
    // Two future fixtures: their home teams become unavailable on their dates.
    let hit: Vec<&check::Row> = rows
        .iter()
        .filter(|r| r.date.to_string().as_str() >= from)
        .take(2)
        .collect();
    assert_eq!(hit.len(), 2);
    let mut edited = league.clone();
    for r in &hit {
        edited.teams[r.home].unavailable.insert(r.date);
    }
    let (new, changes) = rerun(&league, &edited, &csv, from, &[]);
    let moved: Vec<_> = changes
        .iter()
        .filter(|c| c.status == Status::Moved)
        .map(|c| c.old.unwrap())
        .collect();
    assert_eq!(moved.len(), 2, "{new}");
    for r in &hit {
        assert!(moved.contains(&(r.home, r.away, r.date)), "{new}");
    }
    assert_eq!(history(&new, from), history(&csv, from));
}

#[test]
fn the_diff_and_club_summary_say_what_changed() {
    let league = league(MID_DOWNS);
    let csv = solve_valid(&league);
    let team = league.teams[0].name.clone();
    let (_, changes) = rerun(&league, &league, &csv, "2027-01-10", &[&team]);
    let diff = reschedule::diff_csv(&league, &changes);
    assert!(diff.starts_with("status,division,old_date,old_home,old_away,new_date"));
    assert_eq!(diff.lines().count(), 1 + csv.lines().count() - 1);
    let text = reschedule::club_summary(&league, &changes);
    let club = &league.clubs[league.teams[0].club].name;
    assert!(text.contains(&format!("{club}: ")), "{text}");
    assert!(text.contains("scratched"), "{text}");
}

#[test]
fn batch_finishes_the_other_scenarios_when_one_is_broken() {
    let dir = tempfile::tempdir().unwrap();
    let put = |path: &str, text: &str| {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    let league = league(MID_DOWNS);
    let csv = solve_valid(&league);
    put("a-fresh/league.toml", MID_DOWNS);
    put("a-fresh/scenario.toml", "time_limit = 3\n");
    put(
        "b-broken/league.toml",
        "name = \"Broken\"\nstart = 2026-02-30\n",
    );
    put("c-withdrawal/league.toml", MID_DOWNS);
    put("c-withdrawal/current.csv", &csv);
    put(
        "c-withdrawal/scenario.toml",
        &format!(
            "from = 2027-01-10\nwithdraw = [\"{}\"]\ntime_limit = 3\n",
            league.teams[0].name
        ),
    );
    let rows = fixtures::batch::run(dir.path(), false, 2).unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[1].status, "error");
    assert!(rows[1].error.contains("league.toml"), "{}", rows[1].error);
    for r in [&rows[0], &rows[2]] {
        assert_eq!(r.valid, Some(true), "{r:?}");
    }
    assert_eq!(rows[2].moves, Some(0));
    let summary = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 4, "{summary}");
    assert!(dir
        .path()
        .join("c-withdrawal/result/fixtures.diff.csv")
        .exists());
    // Again: finished scenarios are skipped, the broken one is too (its row is kept).
    let again = fixtures::batch::run(dir.path(), false, 2).unwrap();
    assert!(again[0].status.starts_with("skipped"), "{:?}", again[0]);
    assert_eq!(again[2].moves, Some(0));
}

/// Rule 2.6 before publication: a change two clubs agreed to the draft, entered as a fixed
/// fixture, is in the rerun on its new date with the reason said, and (on a date the rest of
/// the draft allows, as `suggest` gives) nothing else moves.
#[test]
fn an_agreed_change_before_publication_moves_only_itself() {
    let league = league(MID_DOWNS);
    let csv = solve_valid(&league);
    let list = check::parse_fixtures(&league, csv.as_bytes(), "draft.csv")
        .unwrap()
        .to_neutral(&league);
    let m = list.matches[list.matches.len() / 2];
    let options =
        fixtures::season::suggest::suggest(&league, &list, list.matches.len() / 2, league.start);
    let agreed = options
        .iter()
        .find(|s| s.date != m.date)
        .expect("a date the clubs could agree")
        .date;
    let mut edited = league.clone();
    edited.fixed.push(fixtures::model::Fixed {
        home: m.home,
        away: m.away,
        date: agreed,
    });
    let (new, changes) = rerun(&league, &edited, &csv, &league.start.to_string(), &[]);
    let moved: Vec<_> = changes
        .iter()
        .filter(|c| c.status == Status::Moved)
        .collect();
    assert_eq!(moved.len(), 1, "{new}");
    assert_eq!(moved[0].new.unwrap().2, agreed);
    assert!(
        moved[0].reason.contains("a change agreed"),
        "{}",
        moved[0].reason
    );
}

/// A change agreed for a date before the rerun's first movable date is refused in words that
/// name the fixture and the date to use, never solved into a list the checker refuses.
#[test]
fn an_agreed_date_before_the_first_movable_date_is_refused_in_words() {
    let league = league(MID_DOWNS);
    let csv = solve_valid(&league);
    let list = check::parse_fixtures(&league, csv.as_bytes(), "draft.csv")
        .unwrap()
        .to_neutral(&league);
    let mut by_date = list.matches.clone();
    by_date.sort_by_key(|m| m.date);
    // The last fixture, agreed for the date of the first: a rerun from the middle date.
    let (first, last) = (by_date[0], by_date[by_date.len() - 1]);
    let from = by_date[by_date.len() / 2].date;
    assert!(first.date < from && from <= last.date);
    let mut edited = league.clone();
    edited.fixed.push(fixtures::model::Fixed {
        home: last.home,
        away: last.away,
        date: first.date,
    });
    let plan = reschedule::plan(&edited, &list, from, &[]);
    let solved = solve::solve(&plan.solving(), &plan.options(&quick())).unwrap();
    let Outcome::Infeasible(reasons) = &solved.outcome else {
        panic!("{:?}", solved.outcome);
    };
    let name = |t: usize| edited.teams[t].name.as_str();
    let said = format!(
        "fixed fixture {} v {} on {} is dated before {from}, the first date that may change",
        name(last.home),
        name(last.away),
        first.date
    );
    assert!(reasons.iter().any(|r| r.contains(&said)), "{reasons:?}");
}
