//! What a secretary's other tools need (issue "The secretary's web app", in part): a list saved
//! again by a UK spreadsheet (DD/MM/YYYY, byte-order mark, CRLF) reads wherever a list is read;
//! the ECF LMS import file; calendars with start times in the league's time zone, SEQUENCE raised
//! when a fixture moves and cancelled events when one is scratched; printable club cards.

mod common;

use common::Dir;
use std::process::Output;

const SUSSEX: &str = include_str!("../instances/sussex-2026-7.toml");
const SUSSEX_LIST: &str = include_str!("../instances/sussex-2026-7-fixtures.csv");

/// A folder with the Sussex league and its list.
fn sussex_dir() -> Dir {
    Dir::with(&[("league.toml", SUSSEX), ("list.csv", SUSSEX_LIST)])
}

fn out(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The list as Excel saves it again on a UK machine: BOM, CRLF, dates as DD/MM/YYYY (and the
/// leading zero of the day dropped, as some locales do).
fn as_excel_saves_it(csv: &str) -> String {
    let mut text = String::from("\u{feff}");
    for (i, line) in csv.lines().enumerate() {
        let mut fields: Vec<String> = line.split(',').map(String::from).collect();
        if i > 0 {
            let d: Vec<&str> = fields[0].split('-').collect();
            fields[0] = format!("{}/{}/{}", d[2].trim_start_matches('0'), d[1], d[0]);
        }
        text.push_str(&fields.join(","));
        text.push_str("\r\n");
    }
    text
}

#[test]
fn a_list_saved_again_by_a_uk_spreadsheet_reads_everywhere() {
    let d = sussex_dir();
    // Names with commas are quoted: this list has none, so splitting on commas is safe.
    assert!(!SUSSEX_LIST.contains('"'));
    std::fs::write(d.path("excel.csv"), as_excel_saves_it(SUSSEX_LIST)).unwrap();
    let a = d.run(&["check", "league.toml", "list.csv"]);
    let b = d.run(&["check", "league.toml", "excel.csv"]);
    assert_eq!(b.status.code(), Some(0), "{}", out(&b));
    let figures = |o: &Output| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .skip(1)
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(figures(&a), figures(&b), "the same figures either way");
    let first = SUSSEX_LIST
        .lines()
        .nth(5)
        .unwrap()
        .split(',')
        .collect::<Vec<_>>();
    let fixture = format!("{} v {}", first[2], first[3]);
    let s = d.run(&[
        "suggest",
        "league.toml",
        "--current",
        "excel.csv",
        "--fixture",
        &fixture,
    ]);
    assert_eq!(s.status.code(), Some(0), "{}", out(&s));
    let r = d.run(&[
        "reschedule",
        "league.toml",
        "--current",
        "excel.csv",
        "--from",
        "2027-01-11",
        "--withdraw",
        "Lewes 2",
        "--time-limit",
        "5",
        "-o",
        "new.csv",
    ]);
    assert_eq!(r.status.code(), Some(0), "{}", out(&r));
    let c = d.run(&["report", "league.toml", "excel.csv", "-o", "site"]);
    assert_eq!(c.status.code(), Some(0), "{}", out(&c));
    // A date no reader could mean is still refused, with the forms it takes.
    std::fs::write(
        d.path("bad.csv"),
        SUSSEX_LIST.replacen("2026-10-13", "13/13/2026", 1),
    )
    .unwrap();
    let e = d.run(&["check", "league.toml", "bad.csv"]);
    assert_eq!(e.status.code(), Some(1));
    assert!(
        out(&e).contains("`13/13/2026` is not a date (YYYY-MM-DD, or DD/MM/YYYY"),
        "{}",
        out(&e)
    );
}

#[test]
fn the_report_has_the_lms_file_club_cards_and_timed_calendars_that_follow_changes() {
    let d = sussex_dir();
    // A second version: one fixture moved (as `change` would), one team withdrawn from January.
    let lines: Vec<&str> = SUSSEX_LIST.lines().collect();
    let moved_row: Vec<&str> = lines[10].split(',').collect();
    let fixture = format!("{} v {}", moved_row[2], moved_row[3]);
    let s = d.run(&[
        "suggest",
        "league.toml",
        "--current",
        "list.csv",
        "--fixture",
        &fixture,
        "--json",
    ]);
    let found: serde_json::Value = serde_json::from_slice(&s.stdout).unwrap();
    let to = found[0]["date"].as_str().unwrap().to_string();
    let moved = SUSSEX_LIST.replacen(lines[10], &lines[10].replacen(moved_row[0], &to, 1), 1);
    std::fs::write(d.path("v2.csv"), &moved).unwrap();
    let r = d.run(&[
        "reschedule",
        "league.toml",
        "--current",
        "v2.csv",
        "--from",
        "2027-01-11",
        "--withdraw",
        "Lewes 2",
        "--time-limit",
        "5",
        "-o",
        "v3.csv",
    ]);
    assert_eq!(r.status.code(), Some(0), "{}", out(&r));
    let o = d.run(&[
        "report",
        "league.toml",
        "v3.csv",
        "--previous",
        "list.csv",
        "--previous",
        "v2.csv",
        "-o",
        "site",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    // The LMS file: no header, four columns, every league fixture.
    let lms = d.read("site/lms.csv");
    let v3 = d.read("v3.csv");
    assert_eq!(lms.lines().count(), v3.lines().count() - 1);
    for line in lms.lines() {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 4, "{line}");
        assert!(
            chrono::NaiveDate::parse_from_str(f[3], "%Y-%m-%d").is_ok(),
            "{line}"
        );
    }
    // Calendars: the moved fixture's event has SEQUENCE 1 in both teams' calendars.
    let slug = |n: &str| fixtures::report::site::slug(n);
    for team in [moved_row[2], moved_row[3]] {
        let ics = d.read(&format!("site/ics/{}.ics", slug(team)));
        let event = ics
            .split("BEGIN:VEVENT")
            .find(|e| e.contains(&format!("DTSTART:{}", to.replace('-', ""))))
            .unwrap_or_else(|| panic!("no event on {to} in {team}'s calendar"));
        assert!(event.contains("SEQUENCE:1"), "{event}");
        // 19:30 in London: 18:30Z before the clocks go back on 25 October, 19:30Z after.
        let start = event.lines().find(|l| l.starts_with("DTSTART:")).unwrap();
        let date = chrono::NaiveDate::parse_from_str(&to, "%Y-%m-%d").unwrap();
        let bst = date < chrono::NaiveDate::from_ymd_opt(2026, 10, 25).unwrap()
            || date >= chrono::NaiveDate::from_ymd_opt(2027, 3, 28).unwrap();
        assert!(
            start.ends_with(if bst { "T183000Z" } else { "T193000Z" }),
            "{start}"
        );
    }
    // Lewes 2's fixtures from January: cancelled, in its own, its club's and its division's.
    let lewes = d.read("site/ics/lewes-2.ics");
    let cancelled = lewes.matches("STATUS:CANCELLED").count();
    assert!(cancelled > 0, "{lewes}");
    assert_eq!(
        d.read("site/ics/club-lewes.ics")
            .matches("STATUS:CANCELLED")
            .count(),
        cancelled
    );
    assert_eq!(
        d.read("site/ics/division-division-3.ics")
            .matches("STATUS:CANCELLED")
            .count(),
        cancelled
    );
    // The club card: a table per team, a print stylesheet, nothing from the network.
    let card = d.read("site/card-horsham.html");
    for t in [
        "Horsham 1",
        "Horsham 2",
        "Horsham 3",
        "Horsham 4",
        "Horsham 5",
    ] {
        assert!(card.contains(&format!("<h2>{t} — ")), "{t}");
    }
    assert!(card.contains("@media print"));
    assert!(!card.contains("http://") && !card.contains("https://"));
}

/// Every instance's teams, clubs and venues survive the template and its import unchanged,
/// through the XLSX workbook and through the CSV sheets.
#[test]
fn the_entry_template_round_trips_every_instance() {
    use fixtures::import;
    use fixtures::model::parse_league;
    let mut files = Vec::new();
    for dir in ["instances", "instances/examples", "instances/competitions"] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "toml") {
                files.push(p);
            }
        }
    }
    assert!(files.len() >= 7, "{files:?}");
    for p in files {
        let text = std::fs::read_to_string(&p).unwrap();
        let league = parse_league(&text, "x.toml").unwrap();
        let xlsx = import::template_xlsx(Some(&league)).unwrap();
        let from_xlsx = import::read_workbook(&xlsx, "entries.xlsx", "Teams").unwrap();
        let mut from_csv = Vec::new();
        for (name, rows) in import::template(Some(&league)) {
            let csv = import::sheet_csv(&rows);
            from_csv.extend(
                import::read_workbook(csv.as_bytes(), &format!("{name}.csv"), &name).unwrap(),
            );
        }
        for sheets in [from_xlsx, from_csv] {
            let out =
                import::import(&text, &sheets).unwrap_or_else(|e| panic!("{}: {e:?}", p.display()));
            let again = parse_league(&out, "y.toml").unwrap();
            assert_eq!(again.teams, league.teams, "{}", p.display());
            assert_eq!(again.clubs, league.clubs, "{}", p.display());
            assert_eq!(again.venues, league.venues, "{}", p.display());
        }
    }
}

#[test]
fn import_names_a_bad_cell_by_sheet_row_and_column_and_writes_nothing() {
    let d = sussex_dir();
    let o = d.run(&["template", "league.toml", "-o", "tpl"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let again = d.run(&["template", "league.toml", "-o", "tpl"]);
    assert_eq!(
        again.status.code(),
        Some(1),
        "a filled-in sheet is never overwritten"
    );
    // The shipped workbook is the template of the instance.
    let shipped = include_bytes!("../instances/sussex-2026-7-entries.xlsx");
    let sheets = fixtures::import::read_workbook(shipped, "entries.xlsx", "Teams").unwrap();
    assert_eq!(
        sheets.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        ["Teams", "Clubs", "Venues"]
    );
    assert_eq!(sheets[0].rows.len(), 38, "a header and 37 teams");
    // One bad date in row 3 (Horsham 2), and an unknown weekday in row 6 (Worthing 1).
    let teams = d.read("tpl/teams.csv");
    let mut lines: Vec<String> = teams.lines().map(String::from).collect();
    lines[2] = lines[2].replace("13/10/2026", "31/02/2027");
    assert!(lines[5].starts_with("Worthing 1,"));
    lines[5] = lines[5].replacen(",Mon,", ",Mnday,", 1);
    std::fs::write(d.path("bad.csv"), lines.join("\n")).unwrap();
    let o = d.run(&[
        "import",
        "league.toml",
        "--entries",
        "bad.csv",
        "--clubs",
        "tpl/clubs.csv",
        "--venues",
        "tpl/venues.csv",
        "-o",
        "new.toml",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let text = out(&o);
    assert!(
        text.contains("sheet Teams, row 3, column I (Avoid): `31/02/2027` is not a date"),
        "{text}"
    );
    assert!(
        text.contains("sheet Teams, row 6, column E (Nights): \"Mnday\" is not a weekday"),
        "{text}"
    );
    assert!(!d.path("new.toml").exists(), "nothing written");
    // The good sheets give a league whose list checks as before.
    let o = d.run(&[
        "import",
        "league.toml",
        "--entries",
        "tpl/entries.xlsx",
        "-o",
        "new.toml",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert_eq!(
        d.run(&["check", "new.toml", "list.csv"]).status.code(),
        Some(0)
    );
    // It never writes over its inputs.
    let o = d.run(&[
        "import",
        "league.toml",
        "--entries",
        "tpl/entries.xlsx",
        "-o",
        "league.toml",
    ]);
    assert_eq!(o.status.code(), Some(1));
}
