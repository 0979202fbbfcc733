//! RobinX (ITC2021) instances and solutions as data: what the file says, read and written.
//! The checker scores them (`fixtures_check::robinx`) and the search solves them
//! (`fixtures::solve::compact`); this is all the two share.

use std::collections::HashMap;
use std::fmt::Write as _;

/// One constraint of an instance: its type (CA1 … SE1), whether it is hard, its penalty and
/// its attributes as written.
#[derive(Debug, Clone)]
pub struct Constraint {
    /// CA1, CA2, CA3, CA4, GA1, BR1, BR2, FA2 or SE1.
    pub kind: String,
    /// HARD or SOFT.
    pub hard: bool,
    /// The weight of each unit of deviation.
    pub penalty: i64,
    attrs: HashMap<String, String>,
}

/// A RobinX instance: its teams, slots and constraints.
#[derive(Debug, Clone)]
pub struct Instance {
    /// The instance's name, as its metadata gives it.
    pub name: String,
    /// Teams (ids 0..teams).
    pub teams: usize,
    /// Slots (ids 0..slots).
    pub slots: usize,
    /// Phased (`gameMode` P): every pair meets once in the first half of the slots and once in
    /// the second.
    pub phased: bool,
    /// The constraints, in file order.
    pub constraints: Vec<Constraint>,
}

/// A solution: every game as (home, away, slot).
pub type Games = Vec<(usize, usize, usize)>;

/// Why a RobinX file did not read.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct RobinxError(String);

/// An XML element: its name and attributes.
type Element = (String, HashMap<String, String>);

/// Every element of an XML text as (name, attributes), in order, with the text of the elements
/// named in `texts` as a `#text` attribute.
fn elements(xml: &str) -> Result<Vec<Element>, RobinxError> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut out: Vec<Element> = Vec::new();
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) => {
                let name = e.name().as_ref().to_string();
                let mut attrs = HashMap::new();
                for a in e.attributes().flatten() {
                    attrs.insert(a.key.as_ref().to_string(), a.value.to_string());
                }
                out.push((name, attrs));
            }
            Ok(Event::Text(t)) => append_text(&mut out, &t),
            Ok(Event::GeneralRef(r)) => {
                let entity = match &*r {
                    "amp" => "&",
                    "lt" => "<",
                    "gt" => ">",
                    "quot" => "\"",
                    "apos" => "'",
                    _ => "",
                };
                append_text(&mut out, entity);
            }
            Ok(Event::Eof) => return Ok(out),
            Err(e) => {
                return Err(RobinxError(format!(
                    "not XML at byte {}: {e}",
                    reader.buffer_position()
                )))
            }
            _ => {}
        }
    }
}

/// Adds text to the last element's `#text`, trimmed at both ends of the whole.
fn append_text(out: &mut [Element], text: &str) {
    if let Some(last) = out.last_mut() {
        let whole = last.1.entry("#text".into()).or_default();
        whole.push_str(text);
        *whole = whole.trim_start().to_string();
    }
}

/// The constraint types of ITC2021.
pub const KINDS: [&str; 9] = [
    "CA1", "CA2", "CA3", "CA4", "GA1", "BR1", "BR2", "FA2", "SE1",
];

/// The most teams and slots an instance may have (ITC2021's have at most 20 and 38); larger
/// ones are refused before anything is sized by them.
pub const MAX_TEAMS: usize = 500;
/// See `MAX_TEAMS`.
pub const MAX_SLOTS: usize = 1000;

/// Reads a RobinX file as text, refusing files larger than a league file may be.
pub fn read_file(path: &std::path::Path) -> Result<String, RobinxError> {
    use std::io::Read;
    let limit = crate::load::MAX_FILE_BYTES;
    let file = std::fs::File::open(path).map_err(|e| RobinxError(e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| RobinxError(e.to_string()))?;
    if bytes.len() as u64 > limit {
        return Err(RobinxError(format!(
            "files of more than {limit} bytes are refused"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        RobinxError(format!(
            "not UTF-8 text (bad byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Reads a RobinX instance.
pub fn read_instance(xml: &str) -> Result<Instance, RobinxError> {
    let els = elements(xml)?;
    let count = |n: &str| els.iter().filter(|(e, _)| e == n).count();
    let text = |n: &str| {
        els.iter()
            .find(|(e, _)| e == n)
            .and_then(|(_, a)| a.get("#text").map(|t| t.trim().to_string()))
    };
    let mut constraints = Vec::new();
    for (name, attrs) in &els {
        if !KINDS.contains(&name.as_str()) {
            continue;
        }
        let penalty = attrs
            .get("penalty")
            .and_then(|p| p.trim().parse().ok())
            .ok_or_else(|| RobinxError(format!("{name}: no penalty")))?;
        constraints.push(Constraint {
            kind: name.clone(),
            hard: attrs.get("type").map(String::as_str) == Some("HARD"),
            penalty,
            attrs: attrs.clone(),
        });
    }
    if count("team") < 2 || count("slot") == 0 {
        return Err(RobinxError(
            "not a RobinX instance: no teams or no slots".into(),
        ));
    }
    if count("team") > MAX_TEAMS || count("slot") > MAX_SLOTS {
        return Err(RobinxError(format!(
            "{} teams and {} slots: instances of more than {MAX_TEAMS} teams or {MAX_SLOTS} slots are refused",
            count("team"),
            count("slot")
        )));
    }
    Ok(Instance {
        name: text("InstanceName").unwrap_or_default(),
        teams: count("team"),
        slots: count("slot"),
        phased: text("gameMode").as_deref() == Some("P"),
        constraints,
    })
}

/// Reads a RobinX solution's games.
pub fn read_solution(xml: &str) -> Result<Games, RobinxError> {
    let mut games = Vec::new();
    for (name, a) in elements(xml)? {
        if name != "ScheduledMatch" {
            continue;
        }
        let get = |k: &str| {
            a.get(k)
                .and_then(|v| v.trim().parse().ok())
                .ok_or_else(|| RobinxError(format!("ScheduledMatch without {k}")))
        };
        games.push((get("home")?, get("away")?, get("slot")?));
    }
    if games.is_empty() {
        return Err(RobinxError(
            "not a RobinX solution: no ScheduledMatch".into(),
        ));
    }
    Ok(games)
}

/// Writes a RobinX solution: the games, with the instance's name and the objective the solver
/// found in its metadata, as the competition's validator reads them.
pub fn write_solution(inst: &Instance, games: &Games, objective: i64) -> String {
    let mut games = games.clone();
    games.sort_by_key(|&(h, a, s)| (s, h, a));
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Solution>\n");
    let name = inst
        .name
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let _ = writeln!(
        out,
        "  <MetaData>\n    <InstanceName>{name}</InstanceName>\n    <SolutionName>fixtures</SolutionName>\n    <ObjectiveValue objective=\"{objective}\"/>\n  </MetaData>\n  <Games>"
    );
    for (h, a, s) in games {
        let _ = writeln!(
            out,
            "    <ScheduledMatch home=\"{h}\" away=\"{a}\" slot=\"{s}\"/>"
        );
    }
    out.push_str("  </Games>\n</Solution>\n");
    out
}

impl Constraint {
    /// The numbers of a `;`-separated attribute (teams, slots).
    pub fn list(&self, key: &str) -> Vec<usize> {
        self.attrs
            .get(key)
            .map(|v| v.split(';').filter_map(|x| x.trim().parse().ok()).collect())
            .unwrap_or_default()
    }
    /// A number attribute (min, max, intp), 0 when absent.
    pub fn num(&self, key: &str) -> i64 {
        self.attrs
            .get(key)
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0)
    }
    /// A text attribute (mode, mode1, mode2, homeMode), empty when absent.
    pub fn text(&self, key: &str) -> &str {
        self.attrs.get(key).map_or("", String::as_str)
    }
    /// GA1's meetings as (home, away) pairs.
    pub fn meetings(&self) -> Vec<(usize, usize)> {
        self.text("meetings")
            .split(';')
            .filter_map(|m| {
                let (h, a) = m.split_once(',')?;
                Some((h.trim().parse().ok()?, a.trim().parse().ok()?))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_solution_reads_back() {
        let inst = read_instance(
            "<Instance><MetaData><InstanceName>T &amp; 1</InstanceName></MetaData>\
             <Format><gameMode>P</gameMode></Format>\
             <team id=\"0\"/><team id=\"1\"/><slot id=\"0\"/><slot id=\"1\"/>\
             <CA1 teams=\"0\" slots=\"0;1\" max=\"1\" min=\"0\" mode=\"H\" penalty=\"5\" type=\"SOFT\"/>\
             </Instance>",
        )
        .unwrap();
        assert_eq!(
            (inst.name.as_str(), inst.teams, inst.slots),
            ("T & 1", 2, 2)
        );
        assert!(inst.phased);
        assert_eq!(inst.constraints[0].list("slots"), vec![0, 1]);
        assert!(!inst.constraints[0].hard);
        let games = vec![(1, 0, 1), (0, 1, 0)];
        let xml = write_solution(&inst, &games, 3);
        assert!(xml.contains("T &amp; 1"), "{xml}");
        assert_eq!(read_solution(&xml).unwrap(), vec![(0, 1, 0), (1, 0, 1)]);
    }
}
