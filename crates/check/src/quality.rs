//! The quality figures of the spec: breaks, avoid hits, rest, spread, venue load.

use super::Row;
use chrono::NaiveDate;
use fixtures_model::League;
use std::collections::BTreeMap;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
/// A fixture list's quality figures, as `check` prints them.
pub struct Quality {
    /// Fixtures in the list.
    pub fixtures: usize,
    /// Two consecutive fixtures of a team both at home or both away, summed over teams.
    pub breaks: usize,
    /// Fixtures on a date one of their teams would rather avoid.
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
    /// Matches either side of the winter break.
    pub winter: Option<Winter>,
    /// The figures of each team, in the league file's order.
    pub teams: Vec<TeamFigures>,
    /// The list's value under the league's `[weights]`, computed here from the definitions
    /// (docs/league-format-extensions.md), so that `solve`'s claimed objective can be checked.
    /// It includes the soft constraints' costs.
    pub objective: f64,
    /// Each soft `[[constraint]]`: its name, weight and units over its limit.
    pub soft: Vec<(String, f64, u32)>,
}

/// One team's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct TeamFigures {
    /// The team's name.
    pub name: String,
    /// Its matches.
    pub matches: usize,
    /// Its home matches.
    pub home: usize,
    /// Its breaks (two consecutive matches both at home or both away).
    pub breaks: usize,
    /// Shortest and longest gap in days between consecutive matches.
    pub shortest_rest: Option<i64>,
    /// The longest gap in days between consecutive matches.
    pub longest_rest: Option<i64>,
    /// Its spread (0 to 1): the largest gap between its share of matches played and the share of the season elapsed.
    pub spread: f64,
    /// Matches before the winter break, when there is one.
    pub before_winter: Option<usize>,
}

/// Matches either side of the winter break: the longest run of league-closed dates of a week or
/// more, else the turn of the year.
#[derive(Debug, Clone, PartialEq)]
pub struct Winter {
    /// First closed day and last closed day (equal to `from - 1` at the turn of the year).
    pub from: NaiveDate,
    /// Last closed day of the break.
    pub to: NaiveDate,
    /// Matches before the break.
    pub before: usize,
    /// Matches after the break.
    pub after: usize,
    /// The team furthest from its fair share of matches before the break (its matches times
    /// the share of its season, from its start, before the break): name, matches before,
    /// matches in all, fair share.
    pub most_uneven: Option<(String, usize, usize, f64)>,
}

/// Measures the quality figures of a list's rows (valid or not).
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
        winter: None,
        teams: Vec::new(),
        objective: 0.0,
        soft: crate::constraints::soft(league, rows),
    };
    let winter = winter_break(league);
    let season_days = ((league.end - league.start).num_days() + 1).max(1) as f64;
    for (t, list) in of_team.iter_mut().enumerate() {
        list.sort_by_key(|r| r.date);
        let name = &league.teams[t].name;
        let mut fig = TeamFigures {
            name: name.clone(),
            matches: list.len(),
            home: list.iter().filter(|r| r.home == t).count(),
            breaks: 0,
            shortest_rest: None,
            longest_rest: None,
            spread: 0.0,
            before_winter: winter.map(|(from, _)| list.iter().filter(|r| r.date < from).count()),
        };
        for w in list.windows(2) {
            if (w[0].home == t) == (w[1].home == t) {
                q.breaks += 1;
                fig.breaks += 1;
            }
            let gap = (w[1].date - w[0].date).num_days();
            fig.shortest_rest = Some(fig.shortest_rest.map_or(gap, |g| g.min(gap)));
            fig.longest_rest = Some(fig.longest_rest.map_or(gap, |g| g.max(gap)));
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
            fig.spread = s;
            if q.worst_spread.as_ref().is_none_or(|(w, _)| s > *w) {
                q.worst_spread = Some((s, name.clone()));
            }
        }
        q.teams.push(fig);
    }
    q.winter = winter.map(|(from, to)| winter_figures(league, rows, &of_team, from, to));
    q.objective = objective(league, &of_team, q.breaks, q.avoid_hits)
        + q.soft
            .iter()
            .map(|(_, w, n)| w * f64::from(*n))
            .sum::<f64>();
    q.busiest_venue_night = busiest_venue_night(league, rows);
    q
}

/// The matches before and after the winter break (closed `from` to `to`), and the team
/// furthest from its fair share before it.
fn winter_figures(
    league: &League,
    rows: &[Row],
    of_team: &[Vec<&Row>],
    from: NaiveDate,
    to: NaiveDate,
) -> Winter {
    let before = rows.iter().filter(|r| r.date < from).count();
    let mut most_uneven: Option<(String, usize, usize, f64)> = None;
    for (t, list) in of_team.iter().enumerate() {
        let team_start = league.teams[t].start.max(league.start);
        let days_before = (from - team_start).num_days().max(0) as f64;
        let days_after = (league.end - to).num_days().max(0) as f64;
        if list.is_empty() || days_before + days_after == 0.0 {
            continue;
        }
        let fair = list.len() as f64 * days_before / (days_before + days_after);
        let b = list.iter().filter(|r| r.date < from).count();
        let off = |x: usize, fair: f64| (x as f64 - fair).abs();
        if most_uneven
            .as_ref()
            .is_none_or(|m| off(b, fair) > off(m.1, m.3) + 1e-9)
        {
            most_uneven = Some((league.teams[t].name.clone(), b, list.len(), fair));
        }
    }
    Winter {
        from,
        to,
        before,
        after: rows.len() - before,
        most_uneven,
    }
}

/// The most matches at one venue on one night: (matches, venue, date).
fn busiest_venue_night(league: &League, rows: &[Row]) -> Option<(usize, String, NaiveDate)> {
    let mut busiest: Option<(usize, String, NaiveDate)> = None;
    let mut load: BTreeMap<(usize, NaiveDate), usize> = BTreeMap::new();
    for r in rows {
        *load
            .entry((
                league.divisions[league.teams[r.home].division]
                    .venue
                    .unwrap_or(league.teams[r.home].venue),
                r.date,
            ))
            .or_default() += 1;
    }
    for ((v, d), n) in load {
        if busiest.as_ref().is_none_or(|(m, _, _)| n > *m) {
            busiest = Some((n, league.venues[v].name.clone(), d));
        }
    }
    busiest
}

/// The objective of `[weights]`, term by term, from the definitions. `of_team` holds each
/// team's rows in date order.
fn objective(league: &League, of_team: &[Vec<&Row>], breaks: usize, avoid_hits: usize) -> f64 {
    let w = &league.weights;
    let season_days = ((league.end - league.start).num_days() + 1).max(1) as f64;
    let winter = winter_break(league);
    let mut total = w.breaks * breaks as f64 + w.avoid * avoid_hits as f64;
    let mut worst: f64 = 0.0;
    for (t, list) in of_team.iter().enumerate() {
        if list.is_empty() {
            continue;
        }
        let n = list.len() as f64;
        // Long waits: every day from the team's start that begins `long_rest_days` days
        // without one of its matches.
        let team_start = league.teams[t].start.max(league.start);
        let g = i64::from(w.long_rest_days);
        let mut waiting_days = 0;
        let mut day = team_start;
        while (league.end - day).num_days() >= g - 1 {
            let window_end = day + chrono::Days::new((g - 1) as u64);
            if !list.iter().any(|r| r.date >= day && r.date <= window_end) {
                waiting_days += 1;
            }
            day = day.succ_opt().unwrap_or(league.end);
        }
        total += w.long_rest * f64::from(waiting_days);
        // Pairs of matches closer than `short_rest_days`, per day short.
        let target = i64::from(w.short_rest_days);
        for (i, a) in list.iter().enumerate() {
            for b in &list[i + 1..] {
                let gap = (b.date - a.date).num_days();
                if gap < target {
                    total += w.short_rest * (target - gap) as f64;
                }
            }
        }
        // Spread: the figure `check` prints for the team, over every day of the season.
        let z = spread(league.start, season_days, list.iter().map(|r| r.date));
        total += w.spread * z;
        worst = worst.max(z);
        // Matches before the winter break against the fair share.
        if let Some((from, to)) = winter {
            let days_before = (from - team_start).num_days().max(0) as f64;
            let days_after = (league.end - to).num_days().max(0) as f64;
            if days_before + days_after > 0.0 {
                let fair = n * days_before / (days_before + days_after);
                let before = list.iter().filter(|r| r.date < from).count() as f64;
                total += w.winter * (before - fair).abs();
            }
        }
    }
    total + w.spread_max * worst
}

/// The longest run of consecutive league-closed dates within the season, if a week or longer
/// (the first such run on a tie); else the turn of the year when the season spans one.
/// Returns its first and last day.
fn winter_break(league: &League) -> Option<(NaiveDate, NaiveDate)> {
    let closed: Vec<NaiveDate> = league
        .closed
        .iter()
        .copied()
        .filter(|d| *d >= league.start && *d <= league.end)
        .collect();
    let mut best: Option<(NaiveDate, NaiveDate)> = None;
    let mut i = 0;
    while i < closed.len() {
        let mut j = i;
        while j + 1 < closed.len() && (closed[j + 1] - closed[j]).num_days() == 1 {
            j += 1;
        }
        // A run that reaches the season's end is not a break between matches.
        let len = (closed[j] - closed[i]).num_days() + 1;
        let longer = best.is_none_or(|(a, b)| len > (b - a).num_days() + 1);
        if len >= 7 && closed[j] < league.end && longer {
            best = Some((closed[i], closed[j]));
        }
        i = j + 1;
    }
    best.or_else(|| {
        let new_year = NaiveDate::from_ymd_opt(chrono::Datelike::year(&league.start) + 1, 1, 1)?;
        (new_year <= league.end).then(|| (new_year, new_year.pred_opt().unwrap_or(new_year)))
    })
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
            Some((n, v, d)) => writeln!(f, "busiest venue night: {n} matches at {v} on {d}")?,
            None => writeln!(f, "busiest venue night: -")?,
        }
        match &self.winter {
            Some(w) => {
                let when = if w.to < w.from {
                    format!("the turn of the year {}", w.from)
                } else {
                    format!("{} to {}", w.from, w.to)
                };
                write!(
                    f,
                    "winter break: {when}: {} matches before, {} after",
                    w.before, w.after
                )?;
                if let Some((t, b, n, fair)) = &w.most_uneven {
                    write!(
                        f,
                        "; most uneven: {t}, {b} of {n} before (fair share {fair:.1})"
                    )?;
                }
            }
            None => write!(f, "winter break: -")?,
        }
        for (name, w, n) in &self.soft {
            write!(f, "\nsoft constraint {name}: {n} over (weight {w})")?;
        }
        write!(
            f,
            "\nobjective: {:.2} (the league's weights)",
            self.objective
        )
    }
}
