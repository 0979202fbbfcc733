//! The quality figures of the spec: breaks, avoid hits, rest, spread, venue load.

use super::Row;
use crate::model::League;
use chrono::NaiveDate;
use std::collections::BTreeMap;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub struct Quality {
    pub fixtures: usize,
    /// Two consecutive fixtures of a team both at home or both away, summed over teams.
    pub breaks: usize,
    pub avoid_hits: usize,
    /// Shortest gap in days between consecutive fixtures of any team, and the team.
    pub shortest_rest: Option<(i64, String)>,
    /// Longest gap in days between consecutive fixtures of any team, and the team.
    pub longest_rest: Option<(i64, String)>,
    /// Worst team's spread: the largest difference, over the season's days, between the share
    /// of its fixtures played by then and the share of the season elapsed (0 = perfectly even).
    pub worst_spread: Option<(f64, String)>,
    /// Busiest venue night: matches, venue, date.
    pub busiest_venue_night: Option<(usize, String, NaiveDate)>,
}

pub fn quality(league: &League, rows: &[Row]) -> Quality {
    let mut of_team: Vec<Vec<&Row>> = vec![Vec::new(); league.teams.len()];
    for r in rows {
        of_team[r.home].push(r);
        if r.away != r.home {
            of_team[r.away].push(r);
        }
    }
    let mut q = Quality {
        fixtures: rows.len(),
        breaks: 0,
        avoid_hits: 0,
        shortest_rest: None,
        longest_rest: None,
        worst_spread: None,
        busiest_venue_night: None,
    };
    let season_days = ((league.end - league.start).num_days() + 1).max(1) as f64;
    for (t, list) in of_team.iter_mut().enumerate() {
        list.sort_by_key(|r| r.date);
        let name = &league.teams[t].name;
        for w in list.windows(2) {
            if (w[0].home == t) == (w[1].home == t) {
                q.breaks += 1;
            }
            let gap = (w[1].date - w[0].date).num_days();
            if q.shortest_rest.as_ref().is_none_or(|(g, _)| gap < *g) {
                q.shortest_rest = Some((gap, name.clone()));
            }
            if q.longest_rest.as_ref().is_none_or(|(g, _)| gap > *g) {
                q.longest_rest = Some((gap, name.clone()));
            }
        }
        q.avoid_hits += list
            .iter()
            .filter(|r| league.teams[t].avoid.contains(&r.date))
            .count();
        if !list.is_empty() {
            let s = spread(league.start, season_days, list.iter().map(|r| r.date));
            if q.worst_spread.as_ref().is_none_or(|(w, _)| s > *w) {
                q.worst_spread = Some((s, name.clone()));
            }
        }
    }
    let mut load: BTreeMap<(usize, NaiveDate), usize> = BTreeMap::new();
    for r in rows {
        *load
            .entry((league.teams[r.home].venue, r.date))
            .or_default() += 1;
    }
    for ((v, d), n) in load {
        if q.busiest_venue_night
            .as_ref()
            .is_none_or(|(m, _, _)| n > *m)
        {
            q.busiest_venue_night = Some((n, league.venues[v].name.clone(), d));
        }
    }
    q
}

/// Largest |share of fixtures played by day d - share of season elapsed by day d|.
/// `dates` must be sorted.
fn spread(start: NaiveDate, season_days: f64, dates: impl Iterator<Item = NaiveDate>) -> f64 {
    let days: Vec<f64> = dates.map(|d| ((d - start).num_days() + 1) as f64).collect();
    let n = days.len() as f64;
    let mut worst: f64 = 0.0;
    for (i, &day) in days.iter().enumerate() {
        let elapsed = (day / season_days).clamp(0.0, 1.0);
        // Just before the match i fixtures are played; just after, i + 1.
        let before = i as f64 / n;
        let after = (i + 1) as f64 / n;
        let prev_elapsed = ((day - 1.0) / season_days).clamp(0.0, 1.0);
        worst = worst
            .max((prev_elapsed - before).abs())
            .max((after - elapsed).abs());
    }
    worst
}

impl fmt::Display for Quality {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "fixtures: {}", self.fixtures)?;
        writeln!(f, "breaks: {}", self.breaks)?;
        writeln!(f, "avoid hits: {}", self.avoid_hits)?;
        match &self.shortest_rest {
            Some((g, t)) => writeln!(f, "shortest rest: {g} days ({t})")?,
            None => writeln!(f, "shortest rest: -")?,
        }
        match &self.longest_rest {
            Some((g, t)) => writeln!(f, "longest rest: {g} days ({t})")?,
            None => writeln!(f, "longest rest: -")?,
        }
        match &self.worst_spread {
            Some((s, t)) => writeln!(f, "worst spread: {:.1}% ({t})", s * 100.0)?,
            None => writeln!(f, "worst spread: -")?,
        }
        match &self.busiest_venue_night {
            Some((n, v, d)) => write!(f, "busiest venue night: {n} matches at {v} on {d}"),
            None => write!(f, "busiest venue night: -"),
        }
    }
}
