//! Hostile workbooks: small files that claim or unpack to huge ones.
#![allow(dead_code)]

use std::io::{Cursor, Read, Write};

/// A zip of `parts` (name, bytes), deflated.
pub fn zip(parts: &[(&str, Vec<u8>)]) -> Vec<u8> {
    zip_of_repeats(parts, "", "", 0)
}

/// A zip of `other`, then (when `name` is not empty) one part of `head` and `size` bytes of
/// one letter (deflated to about a thousandth), written in pieces so the test never holds it
/// whole.
pub fn zip_of_repeats(other: &[(&str, Vec<u8>)], name: &str, head: &str, size: usize) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(true);
    for (n, bytes) in other {
        w.start_file(*n, opts).unwrap();
        w.write_all(bytes).unwrap();
    }
    if !name.is_empty() {
        w.start_file(name, opts).unwrap();
        w.write_all(head.as_bytes()).unwrap();
        let chunk = vec![b'a'; 1 << 20];
        let mut left = size;
        while left > 0 {
            let n = left.min(chunk.len());
            w.write_all(&chunk[..n]).unwrap();
            left -= n;
        }
    }
    w.finish().unwrap().into_inner()
}

/// The parts of an XLSX file.
pub fn unzip(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut z = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    (0..z.len())
        .map(|i| {
            let mut f = z.by_index(i).unwrap();
            let name = f.name().unwrap().to_string();
            let mut b = Vec::new();
            f.read_to_end(&mut b).unwrap();
            (name, b)
        })
        .collect()
}

/// The entry template with one more cell, at XFD1048576 on the Teams sheet, and a dimension
/// claiming the whole sheet: about 6 KB.
pub fn dimension_bomb() -> Vec<u8> {
    let template = fixtures::import::template_xlsx(None).unwrap();
    let parts: Vec<(String, Vec<u8>)> = unzip(&template)
        .into_iter()
        .map(|(name, bytes)| {
            if name == "xl/worksheets/sheet1.xml" {
                let xml = String::from_utf8(bytes).unwrap();
                let xml = xml.replace(
                    "</sheetData>",
                    "<row r=\"1048576\"><c r=\"XFD1048576\" t=\"inlineStr\"><is><t>x</t></is></c></row></sheetData>",
                );
                let xml = regex_dimension(&xml);
                (name, xml.into_bytes())
            } else {
                (name, bytes)
            }
        })
        .collect();
    let refs: Vec<(&str, Vec<u8>)> = parts.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    zip(&refs)
}

fn regex_dimension(xml: &str) -> String {
    match (xml.find("<dimension ref=\""), xml.find("<sheetViews")) {
        (Some(a), Some(_)) => {
            let end = xml[a..].find("/>").map(|e| a + e + 2).unwrap();
            format!(
                "{}<dimension ref=\"A1:XFD1048576\"/>{}",
                &xml[..a],
                &xml[end..]
            )
        }
        _ => xml.to_string(),
    }
}

/// The entry template whose shared strings unpack to `size` bytes (one string of one letter).
pub fn shared_string_bomb(size: usize) -> Vec<u8> {
    let template = fixtures::import::template_xlsx(None).unwrap();
    let parts: Vec<(String, Vec<u8>)> = unzip(&template)
        .into_iter()
        .filter(|(n, _)| n != "xl/sharedStrings.xml")
        .collect();
    let refs: Vec<(&str, Vec<u8>)> = parts.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    zip_of_repeats(
        &refs,
        "xl/sharedStrings.xml",
        "<?xml version=\"1.0\"?><sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><si><t>",
        size,
    )
}

const ODS_HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><office:document-content xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" office:version=\"1.2\"><office:body><office:spreadsheet>";
const ODS_TAIL: &str = "</office:spreadsheet></office:body></office:document-content>";

/// An ODS file whose sheets are `tables` (the XML of each `table:table`).
pub fn ods(tables: &str) -> Vec<u8> {
    let manifest = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><manifest:manifest xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\" manifest:version=\"1.2\"><manifest:file-entry manifest:full-path=\"/\" manifest:media-type=\"application/vnd.oasis.opendocument.spreadsheet\"/><manifest:file-entry manifest:full-path=\"content.xml\" manifest:media-type=\"text/xml\"/></manifest:manifest>";
    zip(&[
        (
            "mimetype",
            b"application/vnd.oasis.opendocument.spreadsheet".to_vec(),
        ),
        (
            "content.xml",
            format!("{ODS_HEAD}{tables}{ODS_TAIL}").into_bytes(),
        ),
        ("META-INF/manifest.xml", manifest.as_bytes().to_vec()),
    ])
}

/// One ODS row of text cells.
pub fn ods_row(cells: &[&str]) -> String {
    let cells: String = cells
        .iter()
        .map(|c| {
            format!("<table:table-cell office:value-type=\"string\"><text:p>{c}</text:p></table:table-cell>")
        })
        .collect();
    format!("<table:table-row>{cells}</table:table-row>")
}

/// An ODS file whose one cell of text is repeated across every column of every row.
pub fn ods_repeat_bomb() -> Vec<u8> {
    ods("<table:table table:name=\"Teams\"><table:table-row table:number-rows-repeated=\"1048576\"><table:table-cell table:number-columns-repeated=\"16384\" office:value-type=\"string\"><text:p>Horsham</text:p></table:table-cell></table:table-row></table:table>")
}

/// An ODS file whose content unpacks to `size` bytes (one cell of one letter).
pub fn ods_text_bomb(size: usize) -> Vec<u8> {
    zip_of_repeats(
        &[(
            "mimetype",
            b"application/vnd.oasis.opendocument.spreadsheet".to_vec(),
        )],
        "content.xml",
        &format!("{ODS_HEAD}<table:table table:name=\"Teams\"><table:table-row><table:table-cell office:value-type=\"string\"><text:p>"),
        size,
    )
}
