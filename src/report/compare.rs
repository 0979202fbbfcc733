//! `fixtures compare`: fixture lists side by side, on the figures clubs care about.
//!
//! Every figure comes from the independent checker (`check::check`), so what `compare` says of
//! a list is what `check` says of it.

use crate::check::{self, FixtureList, Quality};
use crate::model::League;
use serde_json::{json, Value};

/// Fixture lists side by side: a column per list, a row per figure.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// The lists' labels, one per column.
    pub labels: Vec<String>,
    /// (figure, one value per list)
    pub figures: Vec<(String, Vec<Value>)>,
    /// (team, figure, one value per list): the teams whose figures differ most between lists.
    pub teams: Vec<(String, String, Vec<Value>)>,
}

/// How many teams get their own rows.
const TEAM_ROWS: usize = 10;

/// Puts labelled fixture lists side by side; every figure comes from the checker.
pub fn compare(league: &League, lists: &[(String, FixtureList)]) -> Comparison {
    let reports: Vec<check::Report> = lists.iter().map(|(_, l)| check::check(league, l)).collect();
    let q: Vec<&Quality> = reports.iter().map(|r| &r.quality).collect();
    let figures = league_figures(&reports, &q);
    let teams = team_rows(league, &q);
    Comparison {
        labels: lists.iter().map(|(l, _)| l.clone()).collect(),
        figures,
        teams,
    }
}

/// The league-wide figures, one value per list.
fn league_figures(reports: &[check::Report], q: &[&Quality]) -> Vec<(String, Vec<Value>)> {
    let per = |f: &dyn Fn(&Quality) -> Value| q.iter().map(|q| f(q)).collect::<Vec<Value>>();
    let named_days = |v: &Option<(i64, String)>| match v {
        Some((d, t)) => json!(format!("{} ({t})", in_weeks(*d))),
        None => Value::Null,
    };
    let mut figures = vec![(
        "valid".to_string(),
        reports
            .iter()
            .map(|r| {
                if r.is_valid() {
                    json!("yes")
                } else {
                    json!(format!("no ({} violations)", r.violations.len()))
                }
            })
            .collect(),
    )];
    figures.push(("fixtures".into(), per(&|q| json!(q.fixtures))));
    figures.push(("breaks".into(), per(&|q| json!(q.breaks))));
    figures.push(("avoid hits".into(), per(&|q| json!(q.avoid_hits))));
    figures.push((
        "shortest rest".into(),
        per(&|q| named_days(&q.shortest_rest)),
    ));
    figures.push(("longest rest".into(), per(&|q| named_days(&q.longest_rest))));
    figures.push((
        "worst spread".into(),
        per(&|q| match &q.worst_spread {
            Some((s, t)) => json!(format!("{:.1}% ({t})", s * 100.0)),
            None => Value::Null,
        }),
    ));
    figures.push((
        "busiest venue night".into(),
        per(&|q| match &q.busiest_venue_night {
            Some((n, v, d)) => json!(format!("{n} at {v} on {d}")),
            None => Value::Null,
        }),
    ));
    figures.push((
        "before winter break".into(),
        per(&|q| q.winter.as_ref().map_or(Value::Null, |w| json!(w.before))),
    ));
    figures.push((
        "after winter break".into(),
        per(&|q| q.winter.as_ref().map_or(Value::Null, |w| json!(w.after))),
    ));
    figures.push((
        "most uneven home/away".into(),
        per(&|q| {
            let worst = q
                .teams
                .iter()
                .max_by_key(|t| (2 * t.home).abs_diff(t.matches));
            match worst {
                Some(t) if (2 * t.home).abs_diff(t.matches) <= 1 => {
                    json!("every team within one of even")
                }
                Some(t) => json!(format!(
                    "{} home, {} away ({})",
                    t.home,
                    t.matches - t.home,
                    t.name
                )),
                None => Value::Null,
            }
        }),
    ));
    figures.push((
        "objective".into(),
        per(&|q| json!((q.objective * 100.0).round() / 100.0)),
    ));

    figures
}

/// The rows of the teams whose figures differ most between the lists.
fn team_rows(league: &League, q: &[&Quality]) -> Vec<(String, String, Vec<Value>)> {
    let mut scored: Vec<(f64, usize)> = (0..league.teams.len())
        .map(|t| {
            let range = |f: &dyn Fn(&check::TeamFigures) -> f64| {
                let v: Vec<f64> = q.iter().filter_map(|q| q.teams.get(t)).map(f).collect();
                let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                if v.is_empty() {
                    0.0
                } else {
                    hi - lo
                }
            };
            let score = range(&|f| f.breaks as f64)
                + range(&|f| f.longest_rest.unwrap_or(0) as f64) / 7.0
                + range(&|f| f.spread) * 10.0;
            (score, t)
        })
        .filter(|(s, _)| *s > 0.0)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut teams = Vec::new();
    for &(_, t) in scored.iter().take(TEAM_ROWS) {
        let name = &league.teams[t].name;
        let cells = |f: &dyn Fn(&check::TeamFigures) -> Value| {
            q.iter()
                .map(|q| q.teams.get(t).map_or(Value::Null, f))
                .collect::<Vec<Value>>()
        };
        teams.push((name.clone(), "breaks".into(), cells(&|f| json!(f.breaks))));
        teams.push((
            name.clone(),
            "longest rest (days)".into(),
            cells(&|f| json!(f.longest_rest)),
        ));
        teams.push((
            name.clone(),
            "spread".into(),
            cells(&|f| json!(format!("{:.1}%", f.spread * 100.0))),
        ));
        teams.push((
            name.clone(),
            "home/away".into(),
            cells(&|f| json!(format!("{}/{}", f.home, f.matches - f.home))),
        ));
        if q.iter().any(|q| q.winter.is_some()) {
            teams.push((
                name.clone(),
                "before winter break".into(),
                cells(&|f| json!(f.before_winter)),
            ));
        }
    }
    teams
}

/// A cell as text: strings bare, `null` as "-".
fn cell(v: &Value) -> String {
    match v {
        Value::Null => "-".into(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A span of days as a secretary counts it: days under a fortnight, else weeks and days.
fn in_weeks(d: i64) -> String {
    match (d / 7, d % 7) {
        _ if d < 14 => format!("{d} days"),
        (w, 0) => format!("{w} weeks"),
        (w, r) => format!("{w} weeks {r} day{}", if r == 1 { "" } else { "s" }),
    }
}

/// A figure's name as the page says it to a secretary (the text and JSON keep the short
/// names); a team's row keeps its team.
fn in_words(figure: &str) -> String {
    let (team, name) = match figure.split_once(": ") {
        Some((t, f)) => (Some(t), f),
        None => (None, figure),
    };
    let words = match name {
        "valid" => "keeps every rule",
        "fixtures" => "matches",
        "breaks" => "times a team plays two home or two away matches in a row",
        "avoid hits" => "matches on a date a team asked to avoid",
        "shortest rest" => "shortest time between a team's two matches",
        "longest rest" => "longest wait between a team's two matches",
        "longest rest (days)" => "longest wait between two matches (days)",
        "worst spread" => "most uneven spread of a team's matches over the season",
        "spread" => "how unevenly its matches spread over the season",
        "busiest venue night" => "the busiest night at a venue",
        "most uneven home/away" => "the most uneven home and away",
        "home/away" => "home and away",
        "objective" => "score (lower is better)",
        other => other,
    };
    match team {
        Some(t) => format!("{t}: {words}"),
        None => words.to_string(),
    }
}

impl Comparison {
    /// Rows as (first column, values), figures first, then the teams' rows.
    fn rows(&self) -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = self
            .figures
            .iter()
            .map(|(f, v)| (f.clone(), v.iter().map(cell).collect()))
            .collect();
        for (t, f, v) in &self.teams {
            out.push((format!("{t}: {f}"), v.iter().map(cell).collect()));
        }
        out
    }

    /// An aligned text table.
    pub fn to_text(&self) -> String {
        let rows = self.rows();
        let mut widths = vec![rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0)];
        for (i, l) in self.labels.iter().enumerate() {
            let w = rows
                .iter()
                .map(|r| r.1[i].chars().count())
                .chain([l.chars().count()])
                .max()
                .unwrap_or(0);
            widths.push(w);
        }
        let line = |first: &str, rest: &[String]| {
            let mut s = format!("{first:<w$}", w = widths[0]);
            for (i, v) in rest.iter().enumerate() {
                s.push_str(&format!("  {v:<w$}", w = widths[i + 1]));
            }
            s.trim_end().to_string() + "\n"
        };
        let mut out = line("", &self.labels);
        let mut teams_started = false;
        for (i, (first, values)) in rows.iter().enumerate() {
            if i == self.figures.len() && !teams_started && !self.teams.is_empty() {
                teams_started = true;
                out.push_str("\nteams that differ most:\n");
            }
            out.push_str(&line(first, values));
        }
        out
    }

    /// The comparison as CSV: a row per figure, a column per list.
    pub fn to_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut header = vec!["figure".to_string()];
        header.extend(self.labels.iter().cloned());
        let _ = w.write_record(&header);
        for (first, values) in self.rows() {
            let mut rec = vec![first];
            rec.extend(values);
            let _ = w.write_record(&rec);
        }
        String::from_utf8_lossy(&w.into_inner().unwrap_or_default()).into_owned()
    }

    /// The comparison as JSON.
    pub fn to_json(&self) -> String {
        let v = json!({
            "lists": self.labels,
            "figures": self.figures.iter().map(|(f, v)| json!({"figure": f, "values": v})).collect::<Vec<_>>(),
            "teams": self.teams.iter().map(|(t, f, v)| json!({"team": t, "figure": f, "values": v})).collect::<Vec<_>>(),
        });
        serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
    }

    /// The comparison as a standalone HTML page (no network resources).
    pub fn to_html(&self, title: &str) -> String {
        use maud::{html, DOCTYPE};
        let rows = self.rows();
        let page = html! {
            (DOCTYPE)
            html lang="en" {
                head {
                    meta charset="utf-8";
                    meta name="viewport" content="width=device-width, initial-scale=1";
                    title { (title) }
                    style { (maud::PreEscaped(super::site::CSS)) }
                }
                body {
                    h1 { (title) }
                    div.scroll tabindex="0" { table {
                        thead { tr { th scope="col" { "How good it is" } @for l in &self.labels { th scope="col" { (l) } } } }
                        tbody {
                            @for (i, (first, values)) in rows.iter().enumerate() {
                                @if i == self.figures.len() {
                                    tr { th colspan=(self.labels.len() + 1) { "The teams whose weeks differ most" } }
                                }
                                tr { td { (in_words(first)) } @for v in values { td { (v) } } }
                            }
                        }
                    } }
                }
            }
        };
        page.into_string()
    }
}
