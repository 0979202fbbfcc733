//! Reading an uploaded workbook within a memory budget that does not depend on what the file
//! claims. A workbook is a zip of XML parts: every part is unpacked once, counting the bytes it
//! really unpacks to (a declared size can lie), before the spreadsheet reader sees it; the cells
//! a sheet spans are counted before any grid of them is built.

use std::io::{Cursor, Read};

/// Bytes all of a workbook's parts may unpack to: a team-entry workbook of a thousand teams
/// unpacks to well under 2 MiB, so this leaves room for styles and many sheets.
pub const MAX_UNPACKED: u64 = 32 * 1024 * 1024;
/// Bytes one part (a sheet, the shared strings) may unpack to.
pub const MAX_PART: u64 = 16 * 1024 * 1024;
/// Parts a workbook may hold (a workbook of three sheets has about a dozen).
pub const MAX_PARTS: usize = 1000;
/// Cells one sheet may span (rows × columns from its first filled cell to its last): the
/// template's Teams sheet has 10 columns, so this is 10,000 teams.
pub const MAX_CELLS: u64 = 100_000;

/// Unpacks every part of a zip-based workbook (XLSX, ODS), refusing one whose parts unpack to
/// more than the budget. Not a zip: `Ok(false)`.
pub fn check_unpacked(bytes: &[u8]) -> Result<bool, String> {
    if !bytes.starts_with(b"PK") {
        return Ok(false);
    }
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| format!("not a spreadsheet: the file is a damaged zip ({e})"))?;
    if zip.len() > MAX_PARTS {
        return Err(format!(
            "the workbook holds {} parts; at most {MAX_PARTS} are read",
            zip.len()
        ));
    }
    let mut total = 0u64;
    let mut sink = [0u8; 64 * 1024];
    for i in 0..zip.len() {
        let mut part = zip
            .by_index(i)
            .map_err(|e| format!("not a spreadsheet: part {i} cannot be read ({e})"))?;
        let name = part
            .name()
            .map_or_else(|_| format!("part {i}"), |n| n.into_owned());
        let mut limited = (&mut part).take(MAX_PART + 1);
        let mut size = 0u64;
        loop {
            let n = limited
                .read(&mut sink)
                .map_err(|e| format!("not a spreadsheet: {name} cannot be unpacked ({e})"))?;
            if n == 0 {
                break;
            }
            size += n as u64;
        }
        if size > MAX_PART {
            return Err(format!(
                "the workbook's part {name} unpacks to more than {} MiB; at most {} MiB are read",
                MAX_PART >> 20,
                MAX_PART >> 20
            ));
        }
        total += size;
        if total > MAX_UNPACKED {
            return Err(format!(
                "the workbook unpacks to more than {} MiB; at most {} MiB are read",
                MAX_UNPACKED >> 20,
                MAX_UNPACKED >> 20
            ));
        }
    }
    Ok(true)
}

/// The cells a sheet spans, from its first filled row and column to its last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// First and last filled row (0-based).
    pub rows: (u64, u64),
    /// First and last filled column (0-based).
    pub cols: (u64, u64),
}

impl Span {
    /// The span of one cell.
    pub fn at(row: u64, col: u64) -> Span {
        Span {
            rows: (row, row),
            cols: (col, col),
        }
    }

    /// The span that also covers `other`.
    pub fn with(self, other: Span) -> Span {
        Span {
            rows: (self.rows.0.min(other.rows.0), self.rows.1.max(other.rows.1)),
            cols: (self.cols.0.min(other.cols.0), self.cols.1.max(other.cols.1)),
        }
    }

    /// How many cells it covers.
    pub fn cells(&self) -> u64 {
        (self.rows.1 - self.rows.0 + 1).saturating_mul(self.cols.1 - self.cols.0 + 1)
    }

    /// Refuses a span over `MAX_CELLS`, naming the sheet and the range.
    pub fn check(&self, sheet: &str) -> Result<(), String> {
        if self.cells() <= MAX_CELLS {
            return Ok(());
        }
        Err(format!(
            "sheet {sheet} spans {}{}:{}{} ({} cells); at most {} are read: delete the stray \
             cells far from the table",
            super::letter(self.cols.0 as usize),
            self.rows.0 + 1,
            super::letter(self.cols.1 as usize),
            self.rows.1 + 1,
            thousands(self.cells()),
            thousands(MAX_CELLS)
        ))
    }
}

/// 17179869184 as "17,179,869,184".
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The span of every sheet of an ODS file's `content.xml`, counting repeated rows and columns,
/// read as a stream (nothing of the grid is built).
pub fn ods_spans(bytes: &[u8]) -> Result<Vec<(String, Option<Span>)>, String> {
    use quick_xml::events::Event;
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| format!("not a spreadsheet: the file is a damaged zip ({e})"))?;
    let mut xml = String::new();
    zip.by_name("content.xml")
        .map_err(|_| "not a spreadsheet: an ODS file without content.xml".to_string())?
        .take(MAX_PART)
        .read_to_string(&mut xml)
        .map_err(|e| format!("not a spreadsheet: content.xml cannot be read ({e})"))?;
    let mut reader = quick_xml::Reader::from_str(&xml);
    let mut scan = OdsScan::default();
    loop {
        let event = reader
            .read_event()
            .map_err(|e| format!("not a spreadsheet: content.xml is not XML ({e})"))?;
        let is_cell = |name: &str| name == "table:table-cell" || name == "table:covered-table-cell";
        match &event {
            Event::Start(e) if e.name().as_ref() == "table:table" => {
                scan.current = Some((attr(e, "table:name").unwrap_or_default(), None));
                scan.row = 0;
            }
            Event::End(e) if e.name().as_ref() == "table:table" => scan.end_sheet()?,
            Event::Start(e) if e.name().as_ref() == "table:table-row" => {
                scan.row_repeat = repeat(e, "table:number-rows-repeated");
                scan.col = 0;
            }
            Event::Empty(e) if e.name().as_ref() == "table:table-row" => {
                scan.row = scan
                    .row
                    .saturating_add(repeat(e, "table:number-rows-repeated"));
            }
            Event::End(e) if e.name().as_ref() == "table:table-row" => {
                scan.row = scan.row.saturating_add(scan.row_repeat);
                scan.row_repeat = 1;
            }
            Event::Start(e) if is_cell(e.name().as_ref()) => scan.cell(e, true),
            Event::Empty(e) if is_cell(e.name().as_ref()) => scan.cell(e, false),
            Event::Text(t) => {
                let copies = scan.copies;
                scan.text = scan
                    .text
                    .saturating_add((t.len() as u64).saturating_mul(copies));
            }
            Event::End(e) if is_cell(e.name().as_ref()) => scan.copies = 0,
            Event::Eof => break,
            _ => {}
        }
    }
    if scan.text > MAX_UNPACKED {
        return Err(format!(
            "the workbook's cells, with their repeats, hold more than {} MiB of text; at most \
             {} MiB are read",
            MAX_UNPACKED >> 20,
            MAX_UNPACKED >> 20
        ));
    }
    Ok(scan.sheets)
}

/// Where `ods_spans` stands in `content.xml`.
#[derive(Default)]
struct OdsScan {
    /// The sheets read, with the span of their filled cells.
    sheets: Vec<(String, Option<Span>)>,
    /// The sheet being read.
    current: Option<(String, Option<Span>)>,
    /// The row's first index and how many times it repeats; the next column.
    row: u64,
    row_repeat: u64,
    col: u64,
    /// The text the reader will hold: each cell's text times the cells it is repeated into.
    text: u64,
    /// Into how many cells the text of the cell being read is repeated.
    copies: u64,
}

impl OdsScan {
    /// A cell (`open`: it has content inside, not a lone tag): its span and attributes' text.
    fn cell(&mut self, e: &quick_xml::events::BytesStart, open: bool) {
        let n = repeat(e, "table:number-columns-repeated");
        let row_repeat = self.row_repeat.max(1);
        let cells = n.saturating_mul(row_repeat);
        self.copies = if open { cells } else { 0 };
        if open || attr(e, "office:value-type").is_some() {
            let attrs: u64 = e.attributes().flatten().map(|a| a.value.len() as u64).sum();
            self.text = self.text.saturating_add(attrs.saturating_mul(cells));
            let span = Span {
                rows: (self.row, self.row.saturating_add(row_repeat - 1)),
                cols: (self.col, self.col.saturating_add(n - 1)),
            };
            if let Some((_, s)) = self.current.as_mut() {
                *s = Some(s.map_or(span, |s| s.with(span)));
            }
        }
        self.col = self.col.saturating_add(n);
    }

    /// The end of a sheet: refused when it spans too many cells.
    fn end_sheet(&mut self) -> Result<(), String> {
        if let Some(done) = self.current.take() {
            if let Some(span) = done.1 {
                span.check(&done.0)?;
            }
            self.sheets.push(done);
        }
        Ok(())
    }
}

/// An attribute's value.
fn attr(e: &quick_xml::events::BytesStart, key: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == key)
        .map(|a| a.value.to_string())
}

/// A repeat count attribute (1 when absent or unreadable).
fn repeat(e: &quick_xml::events::BytesStart, key: &str) -> u64 {
    attr(e, key)
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(1)
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_count_and_name_their_range() {
        let s = Span::at(0, 0).with(Span::at(1_048_575, 16_383));
        assert_eq!(s.cells(), 17_179_869_184);
        let e = s.check("Teams").unwrap_err();
        assert!(e.contains("A1:XFD1048576"), "{e}");
        assert!(e.contains("17,179,869,184 cells"), "{e}");
        assert!(e.contains("100,000"), "{e}");
        assert!(Span::at(0, 0)
            .with(Span::at(9_999, 9))
            .check("Teams")
            .is_ok());
        assert!(Span::at(0, 0)
            .with(Span::at(10_000, 9))
            .check("Teams")
            .is_err());
    }

    #[test]
    fn not_a_zip_is_left_to_the_reader() {
        assert_eq!(check_unpacked(b"Team,Club\n"), Ok(false));
        assert!(check_unpacked(b"PK\x03\x04 broken").is_err());
    }
}
