//! For the committee: alternative drafts, comparisons, the published site and calendars.

mod common;
use common::*;
use fixtures::check;
use fixtures::report::{compare, site};
use fixtures::solve::{self, Options};
use std::collections::BTreeMap;

const MID_DOWNS: &str = include_str!("../instances/examples/mid-downs.toml");

/// Each fixture's date, keyed by division and the two teams (unordered in a single round
/// robin, home first in a double one), read from the CSV text, not from the solver.
fn dates_by_fixture(
    league: &fixtures::model::League,
    csv: &str,
) -> BTreeMap<(String, String, String), String> {
    let mut out = BTreeMap::new();
    let mut r = ::csv::Reader::from_reader(csv.as_bytes());
    for rec in r.records() {
        let rec = rec.unwrap();
        let (h, a) = (rec[2].to_string(), rec[3].to_string());
        let div = league.divisions.iter().find(|d| d.name == rec[1]).unwrap();
        let double = div.format == fixtures::model::Format::Double;
        let pair = if h < a || double { (h, a) } else { (a, h) };
        out.insert((rec[1].to_string(), pair.0, pair.1), rec[0].to_string());
    }
    out
}

#[test]
fn alternative_drafts_are_valid_and_pairwise_different() {
    let league = league(MID_DOWNS);
    let opts = Options {
        time_limit: 12.0,
        threads: 1,
        ..Options::default()
    };
    let drafts = solve::alternatives(&league, &opts, 3).unwrap();
    assert_eq!(drafts.len(), 3);
    let csvs: Vec<String> = drafts
        .iter()
        .map(|d| d.schedule.as_ref().expect("a draft").to_csv(&league))
        .collect();
    for csv in &csvs {
        assert!(check_csv(&league, csv).is_valid(), "{csv}");
    }
    for i in 0..csvs.len() {
        for j in i + 1..csvs.len() {
            let (a, b) = (
                dates_by_fixture(&league, &csvs[i]),
                dates_by_fixture(&league, &csvs[j]),
            );
            assert_eq!(a.len(), b.len());
            let differ = a.iter().filter(|(k, d)| b[*k] != **d).count();
            assert!(
                differ as f64 >= 0.3 * a.len() as f64,
                "drafts {i} and {j}: only {differ} of {} fixtures on other dates",
                a.len()
            );
            // The solver's own figure agrees with the one counted from the CSV text.
            let ours = solve::date_difference(
                &solve::fixture_dates(&league, drafts[i].schedule.as_ref().unwrap()),
                &solve::fixture_dates(&league, drafts[j].schedule.as_ref().unwrap()),
            );
            assert!((ours - differ as f64 / a.len() as f64).abs() < 1e-9);
        }
    }
}

#[test]
fn compare_figures_are_what_check_reports() {
    let league = league(MID_DOWNS);
    let a = solve_valid(&league);
    // A second list: the first with one fixture moved by a week (still parsed, maybe invalid).
    let mut lines: Vec<String> = a.lines().map(String::from).collect();
    let last = lines.len() - 1;
    lines[last] = lines[last].replacen("2027-0", "2026-1", 1);
    let b = lines.join("\n") + "\n";
    let lists: Vec<(String, check::FixtureList)> = [("a", &a), ("b", &b)]
        .iter()
        .map(|(n, csv)| {
            (
                n.to_string(),
                check::parse_fixtures(&league, csv.as_bytes(), n).unwrap(),
            )
        })
        .collect();
    let c = compare::compare(&league, &lists);
    let row = |name: &str| {
        c.figures
            .iter()
            .find(|(f, _)| f == name)
            .unwrap_or_else(|| panic!("no row {name}"))
            .1
            .clone()
    };
    for (i, (_, list)) in lists.iter().enumerate() {
        let r = check::check(&league, list);
        assert_eq!(row("breaks")[i], serde_json::json!(r.quality.breaks));
        assert_eq!(row("fixtures")[i], serde_json::json!(r.quality.fixtures));
        assert_eq!(
            row("avoid hits")[i],
            serde_json::json!(r.quality.avoid_hits)
        );
        let valid = row("valid")[i].as_str().unwrap().to_string();
        assert_eq!(valid == "yes", r.is_valid());
        let w = r.quality.winter.as_ref().unwrap();
        assert_eq!(row("before winter break")[i], serde_json::json!(w.before));
    }
    // Every format carries every list.
    let text = c.to_text();
    assert!(text.lines().next().unwrap().contains('a'));
    let json: serde_json::Value = serde_json::from_str(&c.to_json()).unwrap();
    assert_eq!(json["lists"].as_array().unwrap().len(), 2);
    let csv = c.to_csv();
    assert!(csv.starts_with("figure,a,b"));
    assert!(c.to_html("t").contains("<table>"));
}

fn site_files(league: &fixtures::model::League, csv: &str) -> BTreeMap<String, String> {
    let list = check::parse_fixtures(league, csv.as_bytes(), "list.csv").unwrap();
    site::site(league, &list.to_neutral(league))
        .into_iter()
        .collect()
}

/// (UID, date, summary) of every event of a calendar, parsed back with the iCalendar parser.
fn events(ics: &str) -> Vec<(String, String, String)> {
    use icalendar::{Calendar, CalendarComponent, Component};
    let cal: Calendar = ics.parse().expect("the calendar parses back");
    let mut out = Vec::new();
    for c in &cal.components {
        if let CalendarComponent::Event(e) = c {
            let date = match e.get_start() {
                Some(icalendar::DatePerhapsTime::Date(d)) => d.to_string(),
                other => panic!("not an all-day event: {other:?}"),
            };
            out.push((
                e.get_uid().unwrap().to_string(),
                date,
                e.get_summary().unwrap().to_string(),
            ));
        }
    }
    out
}

#[test]
fn every_team_calendar_has_exactly_its_fixtures_with_stable_uids() {
    let league = league(MID_DOWNS);
    let csv = solve_valid(&league);
    let files = site_files(&league, &csv);
    let rows = rows(&csv); // (date, home, away)
    for team in &league.teams {
        let ics = files
            .get(&format!("ics/{}.ics", site::slug(&team.name)))
            .unwrap_or_else(|| panic!("no calendar for {}", team.name));
        let mut got: Vec<(String, String)> =
            events(ics).into_iter().map(|(_, d, s)| (d, s)).collect();
        got.sort();
        let mut want: Vec<(String, String)> = rows
            .iter()
            .filter(|(_, h, a)| *h == team.name || *a == team.name)
            .map(|(d, h, a)| {
                let side = if *h == team.name { "home" } else { "away" };
                (d.clone(), format!("{h} v {a} ({side})"))
            })
            .collect();
        want.sort();
        assert_eq!(got, want, "{}", team.name);
    }
    // Re-publishing: the same list gives the same UIDs; a moved fixture keeps its UID.
    let again = site_files(&league, &csv);
    let uids = |f: &BTreeMap<String, String>, name: &str| -> Vec<String> {
        let mut v: Vec<String> = events(&f[name]).into_iter().map(|e| e.0).collect();
        v.sort();
        v
    };
    let name = format!("ics/{}.ics", site::slug(&league.teams[0].name));
    assert_eq!(uids(&files, &name), uids(&again, &name));
    let first = csv.lines().nth(1).unwrap();
    let moved_line = first.replacen(&first[..10], "2027-05-13", 1);
    let moved = csv.replacen(first, &moved_line, 1);
    let after = site_files(&league, &moved);
    for team in &league.teams {
        let n = format!("ics/{}.ics", site::slug(&team.name));
        assert_eq!(uids(&files, &n), uids(&after, &n), "{}", team.name);
    }
    // UIDs are unique within a calendar.
    let all = uids(&files, &name);
    let mut dedup = all.clone();
    dedup.dedup();
    assert_eq!(all, dedup);
}

#[test]
fn the_site_has_a_page_per_division_and_club_and_no_external_resources() {
    let league = league(MID_DOWNS);
    let csv = solve_valid(&league);
    let files = site_files(&league, &csv);
    assert!(files.contains_key("index.html"));
    for d in &league.divisions {
        let page = &files[&format!("division-{}.html", site::slug(&d.name))];
        // A grid cell per fixture: every date of the division appears.
        for (date, h, _) in rows(&csv) {
            if league.teams[league.team_by_name(&h).unwrap()].division
                == league
                    .divisions
                    .iter()
                    .position(|x| x.name == d.name)
                    .unwrap()
            {
                let day = fixtures::model::parse_iso_date(&date).unwrap();
                let shown = fixtures::model::short_date(day);
                assert!(page.contains(&shown), "{shown} missing from {}", d.name);
            }
        }
    }
    for c in &league.clubs {
        assert!(files.contains_key(&format!("club-{}.html", site::slug(&c.name))));
    }
    for (name, text) in &files {
        if name.ends_with(".html") {
            for bad in ["src=\"http", "href=\"http", "url(http", "@import"] {
                assert!(!text.contains(bad), "{name} loads {bad}");
            }
        }
    }
}

/// Renders a division page in headless Chromium and keeps the screenshot (`scripts/test`
/// installs Chromium).
#[test]
fn the_report_renders_in_headless_chromium() {
    let league = league(MID_DOWNS);
    let csv = solve_valid(&league);
    let dir = tempfile::tempdir().unwrap();
    let list = check::parse_fixtures(&league, csv.as_bytes(), "list.csv").unwrap();
    site::write_site(dir.path(), &site::site(&league, &list.to_neutral(&league))).unwrap();
    let page = dir.path().join(format!(
        "division-{}.html",
        site::slug(&league.divisions[0].name)
    ));
    let url = format!("file://{}", page.display());
    let png = screenshot(&url, "report-division.png");
    assert!(png.len() > 10_000, "{} bytes", png.len());
}

#[test]
fn colours_column_names_who_has_white_on_board_one() {
    let text = MID_DOWNS.replace(
        "[rules]",
        "[colours]\nodd_boards_white = \"away\"\n\n[rules]",
    );
    let league = league(&text);
    let csv = solve_valid(&league); // the checker ignores the extra column
    let mut r = ::csv::Reader::from_reader(csv.as_bytes());
    let header = r.headers().unwrap().clone();
    let col = header
        .iter()
        .position(|h| h == "colours")
        .expect("a colours column");
    for rec in r.records() {
        let rec = rec.unwrap();
        assert_eq!(rec[col], format!("{} White on board 1", &rec[3]));
    }
    let bad = MID_DOWNS.replace(
        "[rules]",
        "[colours]\nodd_boards_white = \"first\"\n\n[rules]",
    );
    let e = fixtures::model::parse_league(&bad, "bad.toml").unwrap_err();
    assert!(e.to_string().contains("colours.odd_boards_white"), "{e}");
}
