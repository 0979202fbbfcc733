//! The attacks of a hostile client, kept as regression tests: each must be refused with a clear
//! message and must not take the service down or past its memory budget.

mod common;

use common::bombs;
use common::service::{Db, Server, BACKENDS};
use fixtures::import::read_workbook;

fn refused(bytes: &[u8], file: &str) -> String {
    match read_workbook(bytes, file, "Teams") {
        Ok(_) => panic!("{file} was read"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_sheet_spanning_the_whole_grid_is_refused_by_its_span() {
    let bomb = bombs::dimension_bomb();
    assert!(bomb.len() < 16_000, "{} bytes", bomb.len());
    let e = refused(&bomb, "entries.xlsx");
    assert!(e.contains("sheet Teams spans A1:XFD1048576"), "{e}");
    assert!(e.contains("17,179,869,184 cells"), "{e}");
    assert!(e.contains("at most 100,000 are read"), "{e}");
}

#[test]
fn parts_that_unpack_past_the_budget_are_refused() {
    let e = refused(&bombs::shared_string_bomb(64 << 20), "entries.xlsx");
    assert!(
        e.contains("xl/sharedStrings.xml unpacks to more than 16 MiB"),
        "{e}"
    );
    let e = refused(&bombs::ods_text_bomb(64 << 20), "entries.ods");
    assert!(e.contains("content.xml unpacks to more than 16 MiB"), "{e}");
}

#[test]
fn an_ods_cell_repeated_over_the_grid_is_refused() {
    let e = refused(&bombs::ods_repeat_bomb(), "entries.ods");
    assert!(e.contains("sheet Teams spans A1:XFD1048576"), "{e}");
}

#[test]
fn a_plain_ods_file_still_reads() {
    let table = format!(
        "<table:table table:name=\"Teams\">{}{}<table:table-row table:number-rows-repeated=\"1048570\"><table:table-cell table:number-columns-repeated=\"1024\"/></table:table-row></table:table>",
        bombs::ods_row(&["Team", "Club", "Division"]),
        bombs::ods_row(&["Horsham 1", "Horsham", "Division 1"]),
    );
    let sheets = read_workbook(&bombs::ods(&table), "entries.ods", "Teams").unwrap();
    assert_eq!(sheets[0].name, "Teams");
    assert_eq!(sheets[0].rows.len(), 2, "{:?}", sheets[0].rows);
    assert_eq!(
        sheets[0].rows[1][0],
        fixtures::import::Cell::Text("Horsham 1".into())
    );
}

#[test]
fn xls_and_unknown_files_are_refused_with_what_to_do() {
    let e = refused(b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1 old excel", "entries.xls");
    assert!(e.contains("save it as XLSX"), "{e}");
    let too_many = "a,".repeat(60_000) + "\n" + &"b,".repeat(60_000);
    let e = refused(too_many.as_bytes(), "teams.csv");
    assert!(e.contains("more than 100000 cells"), "{e}");
}

/// Every upload attack against a running server: each answered 422, the server up after all
/// of them, its peak memory under 512 MiB.
#[test]
fn upload_bombs_leave_the_server_up_and_small() {
    use base64::Engine;
    let db = Db::new(BACKENDS[0]);
    let mut s = Server::start(&db, &["--workers", "0"]);
    let league = include_str!("../instances/sussex-2026-7.toml");
    let bombs: Vec<(&str, Vec<u8>)> = vec![
        ("entries.xlsx", bombs::dimension_bomb()),
        ("entries.xlsx", bombs::shared_string_bomb(1 << 30)),
        ("entries.ods", bombs::ods_text_bomb(1 << 30)),
        ("entries.ods", bombs::ods_repeat_bomb()),
    ];
    for (name, bytes) in &bombs {
        assert!(bytes.len() < 3 << 20, "{name}: {} bytes", bytes.len());
        let data = base64::engine::general_purpose::STANDARD.encode(bytes);
        let body = serde_json::json!({ "league": league, "name": name, "data": data });
        let (code, out) = s.post_json("/api/import", body);
        assert_eq!(code, 422, "{name}: {out}");
        assert!(
            out["messages"][0].as_str().unwrap().contains("at most"),
            "{out}"
        );
    }
    // Two at once, as the attack that aborted the server under an 8 GiB cap did.
    std::thread::scope(|scope| {
        for (name, bytes) in bombs.iter().skip(1).take(2) {
            let s = &s;
            scope.spawn(move || {
                let data = base64::engine::general_purpose::STANDARD.encode(bytes);
                let body = serde_json::json!({ "league": league, "name": name, "data": data });
                assert_eq!(s.post_json("/api/import", body).0, 422);
            });
        }
    });
    assert!(s.alive(), "the server died");
    assert_eq!(s.get("/").0, 200);
    let peak = s.peak_rss_mib();
    assert!(peak < 512, "peak RSS {peak} MiB");
}

/// Names a spreadsheet would run as a formula, or with a line break that would start a new
/// line of a calendar, are refused where the league file is read, with the field named; so no
/// fixture list, LMS file or calendar can carry them, and the spreadsheet import refuses them.
#[test]
fn formula_and_control_character_names_are_refused_at_load() {
    use common::Lg;
    for (bad, why) in [
        ("=HYPERLINK(\\\"http://x\\\")", "formula"),
        ("+SUM(A1)", "formula"),
        ("@cmd", "formula"),
        ("-2+3", "formula"),
        ("Lewes\\nBEGIN:VEVENT", "line break"),
        ("Lewes\\r1", "line break"),
    ] {
        let text = Lg::new("2026-09-01", "2027-04-30")
            .division("Division 1", "double")
            .club("Lewes", "")
            .club("Hove", "")
            .team(bad, "Lewes", "Division 1", "")
            .team("Hove 1", "Hove", "Division 1", "")
            .toml();
        let e = fixtures::model::parse_league(&text, "league.toml")
            .err()
            .unwrap_or_else(|| panic!("{bad} was accepted"))
            .to_string();
        assert!(e.contains("league.toml:") && e.contains("name"), "{e}");
        assert!(e.contains(why), "{bad}: {e}");
    }
    // Through the spreadsheet import too.
    let base = include_str!("../instances/sussex-2026-7.toml");
    let csv = "Team,Club,Division\n\"=HYPERLINK(\"\"http://x\"\")\",Horsham,Division 1\n";
    let sheets = read_workbook(csv.as_bytes(), "teams.csv", "Teams").unwrap();
    let errors = fixtures::import::import(base, &sheets).unwrap_err();
    let all: String = errors.iter().map(|e| e.to_string()).collect();
    assert!(all.contains("formula"), "{all}");
}
