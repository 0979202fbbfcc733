//! The team-entry spreadsheet: a secretary's template (CSV or XLSX: a Teams sheet, one row per
//! team with its unavailable dates in one cell; Clubs and Venues sheets) and its import into a
//! league file. An import reads the whole workbook first and changes nothing unless every cell
//! reads; a bad cell is reported by sheet, row and column, in the words the league file's own
//! errors use.

use crate::model::parse_list_date;
use crate::model::{parse_league, Hosting, League};
use chrono::{Datelike, NaiveDate};
use std::collections::BTreeSet;
use std::fmt;
pub mod bounded;

use toml_edit::{value, Array, ArrayOfTables, DocumentMut, InlineTable, Item, Table};

/// One cell as read from a sheet.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// Text (numbers written as text included).
    Text(String),
    /// A number.
    Number(f64),
    /// A date cell.
    Date(NaiveDate),
}

impl Cell {
    fn text(&self) -> String {
        match self {
            Cell::Empty => String::new(),
            Cell::Text(s) => s.trim().to_string(),
            Cell::Number(n) if n.fract() == 0.0 => format!("{n:.0}"),
            Cell::Number(n) => n.to_string(),
            Cell::Date(d) => d.format("%d/%m/%Y").to_string(),
        }
    }
}

/// A sheet: its name and its rows, the header first.
#[derive(Debug, Clone)]
pub struct Sheet {
    /// The sheet's name (Teams, Clubs, Venues).
    pub name: String,
    /// Rows of cells, the header row first.
    pub rows: Vec<Vec<Cell>>,
}

/// A cell that does not read: where, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellError {
    /// The sheet.
    pub sheet: String,
    /// The row, 1-based as a spreadsheet shows it (the header is row 1); 0 for the sheet.
    pub row: usize,
    /// The column's letter and header ("F (Unavailable)"); empty for a whole row or sheet.
    pub column: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for CellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.row, self.column.is_empty()) {
            (0, _) => write!(f, "sheet {}: {}", self.sheet, self.message),
            (r, true) => write!(f, "sheet {}, row {r}: {}", self.sheet, self.message),
            (r, false) => write!(
                f,
                "sheet {}, row {r}, column {}: {}",
                self.sheet, self.column, self.message
            ),
        }
    }
}

const TEAMS: [&str; 10] = [
    "Team",
    "Club",
    "Division",
    "Venue",
    "Nights",
    "Start",
    "Unavailable",
    "Unavailable away",
    "Avoid",
    "Rating",
];
const CLUBS: [&str; 5] = ["Club", "Venue", "Nights", "Start time", "Max home dates"];
const VENUES: [&str; 5] = ["Venue", "Capacity", "Capacity on", "Closed", "Start time"];

/// Reads a workbook (XLSX, ODS) or a CSV file (one sheet, named after `sheet_for_csv`), within
/// the memory budget of `bounded` whatever the file claims.
pub fn read_workbook(
    bytes: &[u8],
    file: &str,
    sheet_for_csv: &str,
) -> Result<Vec<Sheet>, CellError> {
    let whole = |message: String| CellError {
        sheet: file.to_string(),
        row: 0,
        column: String::new(),
        message,
    };
    if file.to_ascii_lowercase().ends_with(".csv") {
        return read_csv(bytes, sheet_for_csv).map_err(whole);
    }
    if !bounded::check_unpacked(bytes).map_err(whole)? {
        return Err(whole(
            "not a spreadsheet this reads: save it as XLSX (Excel), ODS (LibreOffice) or CSV"
                .into(),
        ));
    }
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| whole(format!("not a spreadsheet: {e}")))?;
    if zip.by_name("xl/workbook.xml").is_ok() {
        return read_xlsx(bytes).map_err(whole);
    }
    if zip.by_name("content.xml").is_err() {
        return Err(whole(
            "not a spreadsheet this reads: save it as XLSX (Excel), ODS (LibreOffice) or CSV"
                .into(),
        ));
    }
    for (sheet, span) in bounded::ods_spans(bytes).map_err(whole)? {
        if let Some(span) = span {
            span.check(&sheet).map_err(whole)?;
        }
    }
    use calamine::Reader;
    let mut book = calamine::open_workbook_auto_from_rs(std::io::Cursor::new(bytes.to_vec()))
        .map_err(|e| whole(format!("not a spreadsheet (ODS): {e}")))?;
    let mut out = Vec::new();
    for name in book.sheet_names().to_owned() {
        let range = book
            .worksheet_range(&name)
            .map_err(|e| whole(format!("sheet {name} cannot be read: {e}")))?;
        let rows = range
            .rows()
            .map(|r| r.iter().map(cell_of).collect())
            .collect();
        out.push(Sheet { name, rows });
    }
    Ok(out)
}

/// A CSV file as one sheet, refusing one of more than `bounded::MAX_CELLS` fields.
fn read_csv(bytes: &[u8], sheet: &str) -> Result<Vec<Sheet>, String> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    let mut rows = Vec::new();
    let mut cells = 0u64;
    for r in reader.records() {
        let r = r.map_err(|e| format!("not CSV: {e}"))?;
        cells += r.len() as u64;
        if cells > bounded::MAX_CELLS {
            return Err(format!(
                "the file holds more than {} cells; at most that many are read",
                bounded::MAX_CELLS
            ));
        }
        rows.push(
            r.iter()
                .map(|f| {
                    if f.trim().is_empty() {
                        Cell::Empty
                    } else {
                        Cell::Text(f.to_string())
                    }
                })
                .collect(),
        );
    }
    Ok(vec![Sheet {
        name: sheet.to_string(),
        rows,
    }])
}

/// An XLSX workbook, each sheet read as a stream of its filled cells: the grid is built only
/// once the cells' span is known to be within `bounded::MAX_CELLS`.
fn read_xlsx(bytes: &[u8]) -> Result<Vec<Sheet>, String> {
    use calamine::{DataRef, Reader};
    let mut book: calamine::Xlsx<_> = calamine::open_workbook_from_rs(std::io::Cursor::new(bytes))
        .map_err(|e| format!("not a spreadsheet (XLSX): {e}"))?;
    let mut out = Vec::new();
    for name in book.sheet_names().to_owned() {
        let mut reader = book
            .worksheet_cells_reader(&name)
            .map_err(|e| format!("sheet {name} cannot be read: {e}"))?;
        let mut filled = Vec::new();
        let mut span: Option<bounded::Span> = None;
        let mut text = 0u64;
        while let Some(c) = reader
            .next_cell()
            .map_err(|e| format!("sheet {name} cannot be read: {e}"))?
        {
            let (row, col) = c.get_position();
            let value = match c.get_value() {
                DataRef::Empty => continue,
                DataRef::SharedString(s) => calamine::Data::String(s.to_string()),
                DataRef::String(s) => calamine::Data::String(s.clone()),
                DataRef::Int(i) => calamine::Data::Int(*i),
                DataRef::Float(f) => calamine::Data::Float(*f),
                DataRef::Bool(b) => calamine::Data::Bool(*b),
                DataRef::DateTime(d) => calamine::Data::DateTime(*d),
                DataRef::DateTimeIso(s) => calamine::Data::DateTimeIso(s.clone()),
                DataRef::DurationIso(s) => calamine::Data::DurationIso(s.clone()),
                DataRef::Error(e) => calamine::Data::Error(e.clone()),
            };
            text += match &value {
                calamine::Data::String(s) => s.len() as u64,
                _ => 8,
            };
            if text > bounded::MAX_UNPACKED || filled.len() as u64 >= bounded::MAX_CELLS {
                return Err(format!(
                    "sheet {name} holds more than {} MiB of text or {} cells; at most that \
                     much is read",
                    bounded::MAX_UNPACKED >> 20,
                    bounded::MAX_CELLS
                ));
            }
            let here = bounded::Span::at(row.into(), col.into());
            let grown = span.map_or(here, |s| s.with(here));
            grown.check(&name)?;
            span = Some(grown);
            filled.push((row as usize, col as usize, cell_of(&value)));
        }
        let mut rows = Vec::new();
        if let Some(s) = span {
            let (r0, c0) = (s.rows.0 as usize, s.cols.0 as usize);
            let width = (s.cols.1 - s.cols.0 + 1) as usize;
            rows = vec![vec![Cell::Empty; width]; (s.rows.1 - s.rows.0 + 1) as usize];
            for (r, c, cell) in filled {
                rows[r - r0][c - c0] = cell;
            }
        }
        out.push(Sheet { name, rows });
    }
    Ok(out)
}

/// One cell of the spreadsheet reader as a `Cell`.
fn cell_of(c: &calamine::Data) -> Cell {
    use calamine::Data;
    match c {
        Data::Empty => Cell::Empty,
        Data::String(s) if s.trim().is_empty() => Cell::Empty,
        Data::String(s) | Data::DateTimeIso(s) | Data::DurationIso(s) => Cell::Text(s.clone()),
        Data::Int(i) => Cell::Number(*i as f64),
        Data::Float(f) => Cell::Number(*f),
        Data::Bool(b) => Cell::Text(b.to_string()),
        Data::DateTime(d) => serial_date(d.as_f64()).map_or(Cell::Number(d.as_f64()), Cell::Date),
        Data::Error(e) => Cell::Text(format!("#{e:?}")),
    }
}

/// A spreadsheet's date serial number (days since 30 December 1899) as a date.
fn serial_date(serial: f64) -> Option<NaiveDate> {
    let base = NaiveDate::from_ymd_opt(1899, 12, 30)?;
    base.checked_add_days(chrono::Days::new(serial.floor().max(0.0) as u64))
}

/// Column letter of a 0-based index (A, B, ..., Z, AA, ...).
fn letter(mut i: usize) -> String {
    let mut s = String::new();
    loop {
        s.insert(0, (b'A' + (i % 26) as u8) as char);
        if i < 26 {
            return s;
        }
        i = i / 26 - 1;
    }
}

/// A sheet's columns by header name (any case), with the row reader.
struct Columns<'a> {
    sheet: &'a Sheet,
    headers: Vec<String>,
}

impl<'a> Columns<'a> {
    fn new(sheet: &'a Sheet) -> Self {
        let headers = sheet
            .rows
            .first()
            .map(|r| r.iter().map(|c| c.text().to_ascii_lowercase()).collect())
            .unwrap_or_default();
        Columns { sheet, headers }
    }
    fn index(&self, name: &str) -> Option<usize> {
        self.headers
            .iter()
            .position(|h| h == &name.to_ascii_lowercase())
    }
    fn cell(&self, row: usize, name: &str) -> (Cell, String) {
        match self.index(name) {
            Some(i) => (
                self.sheet.rows[row].get(i).cloned().unwrap_or(Cell::Empty),
                format!("{} ({name})", letter(i)),
            ),
            None => (Cell::Empty, name.to_string()),
        }
    }
}

/// Collects the errors of a whole workbook.
struct Reading {
    errors: Vec<CellError>,
}

impl Reading {
    fn err(&mut self, sheet: &str, row: usize, column: &str, message: String) {
        self.errors.push(CellError {
            sheet: sheet.into(),
            row: row + 1,
            column: column.into(),
            message,
        });
    }

    /// A list of dates in one cell, as a TOML date list ([`parse_date_cell`]).
    fn dates(&mut self, sheet: &str, row: usize, (cell, col): (Cell, String)) -> Option<Array> {
        if let Cell::Date(d) = cell {
            let mut out = Array::new();
            out.push(toml_date(d));
            return Some(out);
        }
        match parse_date_cell(&cell.text()) {
            Ok(a) => Some(a),
            Err(m) => {
                self.err(sheet, row, &col, m);
                None
            }
        }
    }

    fn nights(&mut self, sheet: &str, row: usize, (cell, col): (Cell, String)) -> Option<Array> {
        let mut out = Array::new();
        for n in cell
            .text()
            .split([';', ',', ' '])
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            if crate::model::parse_weekday(n).is_none() {
                self.err(
                    sheet,
                    row,
                    &col,
                    format!("\"{n}\" is not a weekday (use Mon Tue Wed Thu Fri Sat Sun)"),
                );
                return None;
            }
            out.push(n);
        }
        Some(out)
    }

    fn whole(
        &mut self,
        sheet: &str,
        row: usize,
        (cell, col): (Cell, String),
        min: i64,
    ) -> Option<i64> {
        let t = cell.text();
        match t.parse::<i64>() {
            Ok(n) if n >= min => Some(n),
            _ => {
                self.err(
                    sheet,
                    row,
                    &col,
                    format!("`{t}` is not a whole number of at least {min}"),
                );
                None
            }
        }
    }
}

pub(crate) fn toml_date(d: NaiveDate) -> toml_edit::Value {
    let dt = toml_edit::Datetime {
        date: Some(toml_edit::Date {
            year: d.year() as u16,
            month: d.month() as u8,
            day: d.day() as u8,
        }),
        time: None,
        offset: None,
    };
    toml_edit::Value::from(dt)
}

/// A list of dates written in one cell or field: dates (DD/MM/YYYY or YYYY-MM-DD) and ranges
/// ("A to B"), separated by ";", "," or new lines, as a TOML date list (ranges as
/// `{ from, to }`); else what is wrong, in words.
pub(crate) fn parse_date_cell(text: &str) -> Result<Array, String> {
    let mut out = Array::new();
    for part in text
        .split([';', ',', '\n'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let bad = |p: &str| {
            format!("`{p}` is not a date (DD/MM/YYYY or YYYY-MM-DD) or a range (DD/MM/YYYY to DD/MM/YYYY)")
        };
        match part.split_once(" to ") {
            Some((a, b)) => match (parse_list_date(a.trim()), parse_list_date(b.trim())) {
                (Some(a), Some(b)) if a <= b => {
                    let mut t = InlineTable::new();
                    t.insert("from", toml_date(a));
                    t.insert("to", toml_date(b));
                    out.push(t);
                }
                (Some(a), Some(b)) => {
                    return Err(format!("range ends ({b}) before it starts ({a})"))
                }
                _ => return Err(bad(part)),
            },
            None => match parse_list_date(part) {
                Some(d) => out.push(toml_date(d)),
                None => return Err(bad(part)),
            },
        }
    }
    Ok(out)
}

/// The league file `base` with the workbook's teams (and its clubs and venues, when it has
/// those sheets) in place of its own; divisions it names that the base lacks are added. Every
/// bad cell is reported (sheet, row, column) and nothing is returned unless all read and the
/// new league file is valid.
pub fn import(base: &str, sheets: &[Sheet]) -> Result<String, Vec<CellError>> {
    let mut doc: DocumentMut = base.parse().map_err(|e: toml_edit::TomlError| {
        vec![CellError {
            sheet: "league file".into(),
            row: 0,
            column: String::new(),
            message: e.to_string(),
        }]
    })?;
    let find = |name: &str| sheets.iter().find(|s| s.name.eq_ignore_ascii_case(name));
    let Some(teams) = find("Teams") else {
        return Err(vec![CellError {
            sheet: "Teams".into(),
            row: 0,
            column: String::new(),
            message: "the workbook has no Teams sheet (the template's first sheet)".into(),
        }]);
    };
    let mut r = Reading { errors: Vec::new() };
    if let Some(v) = find("Venues") {
        let tables = venues(&mut r, v);
        doc["venue"] = Item::ArrayOfTables(tables);
    }
    if let Some(c) = find("Clubs") {
        let tables = clubs(&mut r, c);
        doc["club"] = Item::ArrayOfTables(tables);
    }
    let (tables, divisions) = team_rows(&mut r, teams);
    doc["team"] = Item::ArrayOfTables(tables);
    let known: BTreeSet<String> = doc
        .get("division")
        .and_then(|d| d.as_array_of_tables())
        .map(|a| {
            a.iter()
                .filter_map(|t| t.get("name")?.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    for d in divisions {
        if !known.contains(&d) {
            let mut t = Table::new();
            t["name"] = value(d.clone());
            if let Some(a) = doc
                .get_mut("division")
                .and_then(|d| d.as_array_of_tables_mut())
            {
                a.push(t);
            } else {
                let mut a = ArrayOfTables::new();
                a.push(t);
                doc["division"] = Item::ArrayOfTables(a);
            }
        }
    }
    if !r.errors.is_empty() {
        return Err(r.errors);
    }
    let text = doc.to_string();
    // What only the whole league can say (an unknown club, too many unavailable dates, ...).
    parse_league(&text, "league.toml").map_err(|e| {
        e.0.iter()
            .map(|x| CellError {
                sheet: "league".into(),
                row: 0,
                column: String::new(),
                message: format!("{}: {}", x.key, x.problem),
            })
            .collect::<Vec<_>>()
    })?;
    Ok(text)
}

fn venues(r: &mut Reading, s: &Sheet) -> ArrayOfTables {
    let c = Columns::new(s);
    let mut out = ArrayOfTables::new();
    for row in 1..s.rows.len() {
        let name = c.cell(row, "Venue").0.text();
        if name.is_empty() {
            continue;
        }
        let mut t = Table::new();
        t["name"] = value(name);
        let cap = c.cell(row, "Capacity");
        if cap.0 != Cell::Empty {
            if let Some(n) = r.whole(&s.name, row, cap, 1) {
                t["capacity"] = value(n);
            }
        }
        let (on, col) = c.cell(row, "Capacity on");
        let mut per = InlineTable::new();
        for part in on
            .text()
            .split([';', ','])
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            match part
                .split_once('=')
                .map(|(d, n)| (parse_list_date(d.trim()), n.trim().parse::<i64>()))
            {
                Some((Some(d), Ok(n))) if n >= 0 => {
                    per.insert(d.to_string(), n.into());
                }
                _ => r.err(
                    &s.name,
                    row,
                    &col,
                    format!("`{part}` is not DATE=CAPACITY (e.g. 16/02/2027=1)"),
                ),
            }
        }
        if !per.is_empty() {
            t["capacity_on"] = value(per);
        }
        if let Some(d) = r
            .dates(&s.name, row, c.cell(row, "Closed"))
            .filter(|a| !a.is_empty())
        {
            t["closed"] = value(d);
        }
        let st = c.cell(row, "Start time").0.text();
        if !st.is_empty() {
            t["start_time"] = value(st);
        }
        out.push(t);
    }
    out
}

fn clubs(r: &mut Reading, s: &Sheet) -> ArrayOfTables {
    let c = Columns::new(s);
    let mut out = ArrayOfTables::new();
    for row in 1..s.rows.len() {
        let name = c.cell(row, "Club").0.text();
        if name.is_empty() {
            continue;
        }
        let mut t = Table::new();
        t["name"] = value(name);
        let venue = c.cell(row, "Venue").0.text();
        if !venue.is_empty() {
            t["venue"] = value(venue);
        }
        if let Some(n) = r
            .nights(&s.name, row, c.cell(row, "Nights"))
            .filter(|a| !a.is_empty())
        {
            t["nights"] = value(n);
        }
        let st = c.cell(row, "Start time").0.text();
        if !st.is_empty() {
            t["start_time"] = value(st);
        }
        let m = c.cell(row, "Max home dates");
        if m.0 != Cell::Empty {
            if let Some(n) = r.whole(&s.name, row, m, 0) {
                t["max_home_dates"] = value(n);
            }
        }
        out.push(t);
    }
    out
}

fn team_rows(r: &mut Reading, s: &Sheet) -> (ArrayOfTables, Vec<String>) {
    let c = Columns::new(s);
    for need in ["Team", "Club", "Division"] {
        if c.index(need).is_none() {
            r.errors.push(CellError {
                sheet: s.name.clone(),
                row: 1,
                column: String::new(),
                message: format!(
                    "the header has no `{need}` column (the template's columns: {})",
                    TEAMS.join(", ")
                ),
            });
        }
    }
    let mut out = ArrayOfTables::new();
    let mut divisions = Vec::new();
    for row in 1..s.rows.len() {
        let name = c.cell(row, "Team").0.text();
        if name.is_empty() && s.rows[row].iter().all(|x| *x == Cell::Empty) {
            continue;
        }
        let mut t = Table::new();
        for (key, col) in [("name", "Team"), ("club", "Club"), ("division", "Division")] {
            let (cell, letter) = c.cell(row, col);
            let v = cell.text();
            if v.is_empty() {
                r.err(
                    &s.name,
                    row,
                    &letter,
                    format!("a team needs its {}", col.to_lowercase()),
                );
            }
            t[key] = value(v);
        }
        let division = c.cell(row, "Division").0.text();
        if !division.is_empty() && !divisions.contains(&division) {
            divisions.push(division);
        }
        let venue = c.cell(row, "Venue").0.text();
        if !venue.is_empty() {
            t["venue"] = value(venue);
        }
        team_dates_and_rating(r, s, &c, row, &mut t);
        out.push(t);
    }
    (out, divisions)
}

/// A team row's nights or home dates, start, unavailable and avoided dates, and rating.
fn team_dates_and_rating(r: &mut Reading, s: &Sheet, c: &Columns, row: usize, t: &mut Table) {
    // Nights, or explicit dates (a cell of dates) for a team that hosts on dates.
    let (nights, col) = c.cell(row, "Nights");
    let text = nights.text();
    if text.chars().any(|ch| ch.is_ascii_digit()) {
        if let Some(d) = r.dates(&s.name, row, (nights, col)) {
            t["home_dates"] = value(d);
        }
    } else if let Some(n) = r
        .nights(&s.name, row, (nights, col))
        .filter(|a| !a.is_empty())
    {
        t["nights"] = value(n);
    }
    let (start, col) = c.cell(row, "Start");
    if start != Cell::Empty {
        match r.dates(&s.name, row, (start, col.clone())) {
            Some(a) if a.len() == 1 => {
                t["start"] = value(a.get(0).cloned().unwrap_or_else(|| 0.into()))
            }
            Some(_) => r.err(
                &s.name,
                row,
                &col,
                "one date, the team's first possible date".into(),
            ),
            None => {}
        }
    }
    for (key, col) in [
        ("unavailable", "Unavailable"),
        ("unavailable_away", "Unavailable away"),
        ("avoid", "Avoid"),
    ] {
        if let Some(d) = r
            .dates(&s.name, row, c.cell(row, col))
            .filter(|a| !a.is_empty())
        {
            t[key] = value(d);
        }
    }
    let (rating, col) = c.cell(row, "Rating");
    match rating {
        Cell::Empty => {}
        Cell::Number(n) => t["rating"] = value(n),
        other => match other.text().parse::<f64>() {
            Ok(n) => t["rating"] = value(n),
            Err(_) => r.err(
                &s.name,
                row,
                &col,
                format!("`{}` is not a number", other.text()),
            ),
        },
    }
}

/// Consecutive dates written as ranges ("A to B" for three or more), the others one by one.
pub(crate) fn date_cell(dates: &BTreeSet<NaiveDate>) -> String {
    let v: Vec<NaiveDate> = dates.iter().copied().collect();
    let mut parts = Vec::new();
    let mut i = 0;
    let f = |d: NaiveDate| d.format("%d/%m/%Y").to_string();
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + chrono::Days::new(1) {
            j += 1;
        }
        if j - i >= 2 {
            parts.push(format!("{} to {}", f(v[i]), f(v[j])));
        } else {
            parts.extend(v[i..=j].iter().map(|&d| f(d)));
        }
        i = j + 1;
    }
    parts.join("; ")
}

/// The template's three sheets, filled from `league` when given (its teams with their own
/// resolved venue, nights and dates; its clubs; its venues), else with headers only.
pub fn template(league: Option<&League>) -> Vec<(String, Vec<Vec<String>>)> {
    let header = |h: &[&str]| vec![h.iter().map(|s| s.to_string()).collect::<Vec<_>>()];
    let (mut teams, mut clubs, mut venues) = (header(&TEAMS), header(&CLUBS), header(&VENUES));
    if let Some(lg) = league {
        for v in &lg.venues {
            let on: Vec<String> = v
                .capacity_on
                .iter()
                .map(|(d, n)| format!("{}={n}", d.format("%d/%m/%Y")))
                .collect();
            venues.push(vec![
                v.name.clone(),
                v.capacity.to_string(),
                on.join("; "),
                date_cell(&v.closed),
                v.start_time
                    .map(|t| t.format("%H:%M").to_string())
                    .unwrap_or_default(),
            ]);
        }
        for c in &lg.clubs {
            clubs.push(vec![
                c.name.clone(),
                String::new(),
                String::new(),
                c.start_time
                    .map(|t| t.format("%H:%M").to_string())
                    .unwrap_or_default(),
                c.max_home_dates.map(|n| n.to_string()).unwrap_or_default(),
            ]);
        }
        for t in &lg.teams {
            let nights = match &t.hosting {
                Hosting::Nights(n) => n
                    .iter()
                    .map(|w| w.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                Hosting::Dates(d) => date_cell(d),
            };
            teams.push(vec![
                t.name.clone(),
                lg.clubs[t.club].name.clone(),
                lg.divisions[t.division].name.clone(),
                lg.venues[t.venue].name.clone(),
                nights,
                if t.start == lg.start {
                    String::new()
                } else {
                    t.start.format("%d/%m/%Y").to_string()
                },
                date_cell(&t.unavailable),
                date_cell(&t.unavailable_away),
                date_cell(&t.avoid),
                t.rating.map(|r| r.to_string()).unwrap_or_default(),
            ]);
        }
    }
    vec![
        ("Teams".into(), teams),
        ("Clubs".into(), clubs),
        ("Venues".into(), venues),
    ]
}

/// The template as an XLSX workbook.
pub fn template_xlsx(league: Option<&League>) -> Result<Vec<u8>, String> {
    let mut book = rust_xlsxwriter::Workbook::new();
    for (name, rows) in template(league) {
        let sheet = book.add_worksheet();
        sheet.set_name(&name).map_err(|e| e.to_string())?;
        for (r, row) in rows.iter().enumerate() {
            for (c, text) in row.iter().enumerate() {
                if !text.is_empty() {
                    sheet
                        .write_string(r as u32, c as u16, text)
                        .map_err(|e| e.to_string())?;
                }
            }
        }
    }
    book.save_to_buffer().map_err(|e| e.to_string())
}

/// A template sheet as CSV text.
pub fn sheet_csv(rows: &[Vec<String>]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        // Writing to a Vec cannot fail.
        let _ = w.write_record(r);
    }
    String::from_utf8_lossy(&w.into_inner().unwrap_or_default()).into_owned()
}
