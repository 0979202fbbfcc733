//! Writing results: the fixture list CSV (the spec's columns, then `weekday`, and `colours`
//! when the league says who has White on board 1); comparisons (`compare`); the published
//! site and calendars (`site`).

pub mod compare;
pub mod site;

use crate::model::{League, Side};
use crate::solve::Schedule;
use chrono::Datelike;
use std::io::Write;
use std::path::Path;

/// The spec's five columns, then the weekday for readers' convenience.
pub const HEADER: [&str; 6] = ["date", "division", "home", "away", "venue", "weekday"];

pub fn write_csv<W: Write>(league: &League, schedule: &Schedule, out: W) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    let mut header = HEADER.to_vec();
    if league.odd_boards_white.is_some() {
        header.push("colours");
    }
    w.write_record(&header)?;
    for m in &schedule.matches {
        let home = &league.teams[m.home];
        let away = &league.teams[m.away];
        let mut record = vec![
            m.date.to_string(),
            league.divisions[m.division].name.clone(),
            home.name.clone(),
            away.name.clone(),
            league.venues[league.match_venue(m.home)].name.clone(),
            m.date.weekday().to_string(),
        ];
        // Who has White on board 1 (an odd board).
        match league.odd_boards_white {
            Some(Side::Home) => record.push(format!("{} White on board 1", home.name)),
            Some(Side::Away) => record.push(format!("{} White on board 1", away.name)),
            None => {}
        }
        w.write_record(&record)?;
    }
    w.flush()?;
    Ok(())
}

/// The fixture list as CSV text.
pub fn csv_string(league: &League, schedule: &Schedule) -> String {
    let mut buf = Vec::new();
    // Writing to a Vec cannot fail, and every field is valid UTF-8.
    let _ = write_csv(league, schedule, &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

/// Writes `text` to `path` through a temporary file in the same folder and a rename,
/// so an interrupted run never leaves a half-written file.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "fixtures.csv".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}
