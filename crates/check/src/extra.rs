//! Matches outside the league's round robin, checked from the league file and the list alone:
//! cup ties (a row whose division column names a `[[cup]]`), play-offs and their replays
//! (Sussex rule 12) and replays after a serious default (rule 6.2.2), told by the `round`
//! column. They must be playable (the home team's nights, its venue open and with room, no
//! team unavailable), keep `min_days_between` from every other match of their teams, and keep
//! their own rules: a cup tie inside its round's window, between entrants, once a round; a
//! play-off after both teams' league matches, its venue reversed from their league meeting; a
//! replay after what it replays.

use super::{Checker, Place, Row, Violation};
use chrono::{Datelike, NaiveDate, Weekday};
use fixtures_model::{ExtraKind, League, TeamId, EXTRA_ROUNDS};
use std::collections::{BTreeMap, BTreeSet};

/// What a row is when it is not a league match: a cup tie (its division column names a cup),
/// or a play-off, play-off replay or replay (its round column says so).
pub(super) fn kind(league: &League, r: &Row) -> Option<ExtraKind> {
    let division = r.division.as_deref().unwrap_or("");
    let round = r.round.as_deref().unwrap_or("").trim();
    if let Some(cup) = league.cups.iter().position(|c| c.name == division) {
        // An unknown round name is reported by `check`; it stays a cup row.
        let round = league.cups[cup].round_by_name(round).unwrap_or(usize::MAX);
        return Some(ExtraKind::Cup { cup, round });
    }
    let d = league.teams[r.home].division;
    match EXTRA_ROUNDS
        .iter()
        .position(|w| w.eq_ignore_ascii_case(round))?
    {
        0 => Some(ExtraKind::PlayOff(d)),
        1 => Some(ExtraKind::PlayOffReplay(d)),
        _ => Some(ExtraKind::Replay(d)),
    }
}

/// Whether a coin toss decides the row's colours: a tie of a cup whose rules say so.
pub(super) fn coin_toss(league: &League, r: &Row) -> bool {
    matches!(kind(league, r), Some(ExtraKind::Cup { cup, .. }) if league.cups[cup].coin_toss)
}

/// Checks the extra rows against the league file and the league's rows.
pub(super) fn check(c: &mut Checker<'_>, league_rows: &[Row], extras: &[Row]) {
    if extras.is_empty() {
        return;
    }
    let lg = c.league;
    for r in extras {
        let Some(k) = kind(lg, r) else { continue };
        playable(c, r, k);
        match k {
            ExtraKind::Cup { cup, round } => cup_tie(c, r, cup, round),
            ExtraKind::PlayOff(_) => play_off(c, r, league_rows),
            ExtraKind::PlayOffReplay(_) => play_off_replay(c, r, extras),
            ExtraKind::Replay(_) => replay(c, r, league_rows),
        }
    }
    cup_rounds(c, extras);
    cup_tree(c, extras);
    super::draw::check(c, extras);
    once(c, extras);
    rest(c, league_rows, extras);
    capacity(c, league_rows, extras);
}

/// A rerun's promise for the matches outside the league: every one it keeps
/// (`Rerun::extra`) is in the list exactly, and none other is dated before its first movable
/// date.
pub(super) fn kept(c: &mut Checker<'_>, extras: &[Row]) {
    let lg = c.league;
    let rerun = c.rerun;
    let here = |e: &fixtures_model::Extra| {
        extras.iter().any(|r| {
            (r.date, r.home, r.away) == (e.date, e.home, e.away) && kind(lg, r) == Some(e.kind)
        })
    };
    for e in &rerun.extra {
        if !here(e) {
            c.out.push(Violation {
                rule: "rerun keeps",
                fixture: format!("{} v {}", c.name(e.home), c.name(e.away)),
                date: Some(e.date),
                detail: format!(
                    "the {} {} of the list the rerun started from is missing or changed",
                    e.competition(lg),
                    e.round(lg)
                ),
            });
        }
    }
    let Some(from) = rerun.from else { return };
    for r in extras.iter().filter(|r| r.date < from) {
        let known = rerun.extra.iter().any(|e| {
            (r.date, r.home, r.away) == (e.date, e.home, e.away) && kind(lg, r) == Some(e.kind)
        });
        if !known {
            c.push(
                "rerun from",
                r,
                format!("dated before the first movable date {from}, but not in the list the rerun started from"),
            );
        }
    }
}

/// Where a row is played: a cup tie at the home team's own venue; a play-off at the home team's
/// (or the division's central venue); a replay where its league match is.
fn venue_of(lg: &League, r: &Row, k: ExtraKind) -> usize {
    match k {
        ExtraKind::Cup { .. } => lg.teams[r.home].venue,
        // A play-off reverses the venue (12.2): the home team's own, never a half-way house.
        ExtraKind::PlayOff(_) | ExtraKind::PlayOffReplay(_) => {
            let t = &lg.teams[r.home];
            lg.divisions[t.division].venue.unwrap_or(t.venue)
        }
        ExtraKind::Replay(_) => super::venue_of_match(lg, r.home, r.away),
    }
}

fn playable(c: &mut Checker<'_>, r: &Row, k: ExtraKind) {
    if r.home == r.away {
        c.push("extra match", r, "a team cannot play itself".into());
        return;
    }
    // A cup whose rules allow weekend ties plays them whatever the home team's nights.
    let weekend = matches!(r.date.weekday(), Weekday::Sat | Weekday::Sun);
    let cup_weekend = match k {
        ExtraKind::Cup { cup, .. } => weekend && c.league.cups[cup].weekends,
        _ => false,
    };
    let at = Place {
        venue: venue_of(c.league, r, k),
        own_nights: !cup_weekend,
        league_start_binds: !matches!(k, ExtraKind::Cup { .. }),
    };
    c.playable(r, at);
}

fn cup_tie(c: &mut Checker<'_>, r: &Row, cup: usize, round: usize) {
    let lg = c.league;
    let cup = &lg.cups[cup];
    for t in [r.home, r.away] {
        if !cup.teams.contains(&t) {
            c.push(
                "cup entrants",
                r,
                format!("{} is not an entrant of {}", lg.teams[t].name, cup.name),
            );
        }
    }
    if round >= cup.rounds() {
        let names: Vec<String> = (0..cup.rounds()).map(|k| cup.round_name(k)).collect();
        c.push(
            "cup round",
            r,
            format!(
                "round \"{}\" is not a round of {} ({})",
                r.round.as_deref().unwrap_or(""),
                cup.name,
                names.join(", ")
            ),
        );
        return;
    }
    // Each round by its own deadline (`Cup::deadline`), from the cup's opening: a round may
    // be played early, once its teams are through (`cup_tree`).
    if let Some(end) = cup.deadline(round) {
        if r.date < cup.opens || r.date > end {
            c.push(
                "cup deadline",
                r,
                format!(
                    "the {} of {} is played from {} to {end}",
                    cup.round_name(round),
                    cup.name,
                    cup.opens
                ),
            );
        }
    } else if r.date < cup.opens {
        c.push(
            "cup deadline",
            r,
            format!("{} opens on {}", cup.name, cup.opens),
        );
    }
}

/// Per cup: a team plays at most once a round (an all-play-all: each pair once), and a
/// knockout pair meets at most once.
fn cup_rounds(c: &mut Checker<'_>, extras: &[Row]) {
    let lg = c.league;
    let mut per_round: BTreeMap<(usize, usize, TeamId), Vec<&Row>> = BTreeMap::new();
    let mut pairs: BTreeMap<(usize, TeamId, TeamId), Vec<&Row>> = BTreeMap::new();
    for r in extras {
        if let Some(ExtraKind::Cup { cup, round }) = kind(lg, r) {
            if !lg.cups[cup].is_all_play_all() {
                per_round.entry((cup, round, r.home)).or_default().push(r);
                per_round.entry((cup, round, r.away)).or_default().push(r);
            }
            let key = (cup, r.home.min(r.away), r.home.max(r.away));
            pairs.entry(key).or_default().push(r);
        }
    }
    for ((cup, round, t), rows) in per_round {
        if rows.len() > 1 {
            let cup = &lg.cups[cup];
            c.push(
                "cup round",
                rows[1],
                format!(
                    "{} plays {} ties in the {} of {}",
                    lg.teams[t].name,
                    rows.len(),
                    cup.round_name(round),
                    cup.name
                ),
            );
        }
    }
    for (_, rows) in pairs {
        for r in rows.iter().skip(1) {
            c.push(
                "cup round",
                r,
                "the two teams already met in this cup".into(),
            );
        }
    }
}

/// One play-off per pair of teams, one replay of a drawn play-off, one replay per defaulted
/// match (rules 12 and 6.2.2).
fn once(c: &mut Checker<'_>, extras: &[Row]) {
    let lg = c.league;
    let mut seen: BTreeMap<(u8, TeamId, TeamId), usize> = BTreeMap::new();
    for r in extras {
        let (what, rule) = match kind(lg, r) {
            Some(ExtraKind::PlayOff(_)) => (0, "12 play-off"),
            Some(ExtraKind::PlayOffReplay(_)) => (1, "12.3 replay"),
            Some(ExtraKind::Replay(_)) => (2, "6.2.2 replay"),
            _ => continue,
        };
        let n = seen
            .entry((what, r.home.min(r.away), r.home.max(r.away)))
            .or_default();
        *n += 1;
        if *n == 2 {
            let noun = ["play-off", "play-off replay", "replay"][what as usize];
            c.push(rule, r, format!("a second {noun} between the same teams"));
        }
    }
}

/// Each cup's shape: a knockout's first-round ties within a zone, and every later tie between
/// teams that came through the round before (each from a tie of its own, unless the first
/// round gave byes); an all-play-all's teams each at home once.
fn cup_tree(c: &mut Checker<'_>, extras: &[Row]) {
    let lg = c.league;
    for (ci, cup) in lg.cups.iter().enumerate() {
        let ties: Vec<(&Row, usize)> = extras
            .iter()
            .filter_map(|r| match kind(lg, r) {
                Some(ExtraKind::Cup { cup, round }) if cup == ci && round < usize::MAX => {
                    Some((r, round))
                }
                _ => None,
            })
            .collect();
        if cup.is_all_play_all() {
            let mut homes: BTreeMap<TeamId, usize> = BTreeMap::new();
            for (r, _) in &ties {
                let n = homes.entry(r.home).or_default();
                *n += 1;
                if *n == 2 {
                    let detail = format!(
                        "{} is at home twice in the all-play-all of {}",
                        c.name(r.home),
                        cup.name
                    );
                    c.push("cup all-play-all", r, detail);
                }
            }
            continue;
        }
        let zone = |t: TeamId| cup.zones.iter().position(|z| z.1.contains(&t));
        let byes = cup.grid_size() > cup.teams.len();
        for &(r, round) in &ties {
            if round == 0 && !cup.zones.is_empty() && zone(r.home) != zone(r.away) {
                let detail = format!("a first-round tie of {} stays within a zone", cup.name);
                c.push("cup zones", r, detail);
            }
            if round == 0 {
                continue;
            }
            let before: Vec<&Row> = ties
                .iter()
                .filter(|t| t.1 == round - 1)
                .map(|t| t.0)
                .collect();
            let came = |t: TeamId| before.iter().position(|b| b.home == t || b.away == t);
            let (h, a) = (came(r.home), came(r.away));
            let bye_ok = round == 1 && byes;
            for (t, from) in [(r.home, h), (r.away, a)] {
                if from.is_none() && !bye_ok {
                    let detail = format!(
                        "{} played no tie in the {} of {}",
                        c.name(t),
                        cup.round_name(round - 1),
                        cup.name
                    );
                    c.push("cup tree", r, detail);
                }
            }
            if h.is_some() && h == a {
                c.push(
                    "cup tree",
                    r,
                    "both teams come from one tie of the round before".into(),
                );
            }
            // A tie comes after the ties its teams came through.
            for from in [h, a].into_iter().flatten() {
                if before[from].date >= r.date {
                    let detail = format!(
                        "it comes before the {} tie its teams came through ({})",
                        cup.round_name(round - 1),
                        before[from].date
                    );
                    c.push("cup tree", r, detail);
                }
            }
        }
    }
}

fn play_off(c: &mut Checker<'_>, r: &Row, league_rows: &[Row]) {
    let lg = c.league;
    if lg.teams[r.home].division != lg.teams[r.away].division {
        c.push(
            "12 play-off",
            r,
            "a play-off is between teams of one division".into(),
        );
    }
    // A play-off settles a place in the table: it follows the division's last league match.
    let division = lg.teams[r.home].division;
    let last = league_rows
        .iter()
        .filter(|x| lg.teams[x.home].division == division)
        .map(|x| x.date)
        .max();
    if let Some(last) = last {
        if r.date <= last {
            c.push(
                "12 play-off",
                r,
                format!(
                    "a play-off follows the last league match of {} (on {last})",
                    lg.divisions[division].name
                ),
            );
        }
    }
    // Rule 12.2: when the teams met once, the venue is reversed.
    let met: Vec<&Row> = league_rows
        .iter()
        .filter(|x| (x.home, x.away) == (r.home, r.away) || (x.home, x.away) == (r.away, r.home))
        .collect();
    if let [only] = met.as_slice() {
        if only.home == r.home {
            c.push(
                "12.2 play-off venue",
                r,
                format!(
                    "the teams met at {}'s on {}: the play-off is at {}'s",
                    c.name(only.home),
                    only.date,
                    c.name(only.away)
                ),
            );
        }
    }
}

fn play_off_replay(c: &mut Checker<'_>, r: &Row, extras: &[Row]) {
    let lg = c.league;
    let play_off = extras.iter().find(|x| {
        matches!(kind(lg, x), Some(ExtraKind::PlayOff(_)))
            && (x.home.min(x.away), x.home.max(x.away)) == (r.home.min(r.away), r.home.max(r.away))
    });
    let Some(p) = play_off else {
        c.push(
            "12.3 replay",
            r,
            "no play-off between these teams to replay".into(),
        );
        return;
    };
    if r.home != p.away {
        c.push(
            "12.3 replay",
            r,
            format!(
                "a drawn play-off is replayed at the away team's venue ({})",
                c.name(p.away)
            ),
        );
    }
    if r.date <= p.date {
        c.push(
            "12.3 replay",
            r,
            format!("the replay follows the play-off of {}", p.date),
        );
    }
}

fn replay(c: &mut Checker<'_>, r: &Row, league_rows: &[Row]) {
    let original = league_rows.iter().find(|x| {
        (x.home.min(x.away), x.home.max(x.away)) == (r.home.min(r.away), r.home.max(r.away))
    });
    match original {
        None => c.push(
            "6.2.2 replay",
            r,
            "no league match between these teams to replay".into(),
        ),
        Some(o) if r.date <= o.date => c.push(
            "6.2.2 replay",
            r,
            format!("the replay follows the defaulted match of {}", o.date),
        ),
        Some(o) if o.home != r.home => c.push(
            "6.2.2 replay",
            r,
            format!(
                "a match is replayed where it was to be played: {} at home",
                c.name(o.home)
            ),
        ),
        Some(_) => {}
    }
    // Rule 2.1: after the season's end only with the Fixtures Secretary's permission.
    let lg = c.league;
    let permitted = lg
        .late
        .iter()
        .any(|f| (f.home, f.away, f.date) == (r.home, r.away, r.date));
    if r.date > lg.end && !permitted {
        let detail = format!(
            "a replay after the season's end ({}) needs the Fixtures Secretary's permission, recorded as [[late]] in the league file",
            lg.end
        );
        c.push("2.1 season end", r, detail);
    }
}

/// `min_days_between` between an extra match and any other match of its teams.
fn rest(c: &mut Checker<'_>, league_rows: &[Row], extras: &[Row]) {
    let lg = c.league;
    let min = lg.rules.min_days_between as i64;
    let all: Vec<(&Row, bool)> = league_rows
        .iter()
        .map(|r| (r, false))
        .chain(extras.iter().map(|r| (r, true)))
        .collect();
    for t in 0..lg.teams.len() {
        let mut mine: Vec<&(&Row, bool)> = all
            .iter()
            .filter(|(r, _)| r.home == t || r.away == t)
            .collect();
        if !mine.iter().any(|x| x.1) {
            continue;
        }
        mine.sort_by_key(|x| x.0.date);
        for w in mine.windows(2) {
            let gap = (w[1].0.date - w[0].0.date).num_days();
            if (w[0].1 || w[1].1) && gap < min {
                let extra = if w[1].1 { w[1].0 } else { w[0].0 };
                c.push(
                    "6 min_days_between",
                    extra,
                    format!(
                        "{} plays on {} and {}, {gap} days apart (at least {min} required)",
                        lg.teams[t].name, w[0].0.date, w[1].0.date
                    ),
                );
            }
        }
    }
}

/// Venue capacity on every date an extra match is played, league matches included.
fn capacity(c: &mut Checker<'_>, league_rows: &[Row], extras: &[Row]) {
    let lg = c.league;
    let mut load: BTreeMap<(usize, NaiveDate), usize> = BTreeMap::new();
    let mut touched: BTreeSet<(usize, NaiveDate)> = BTreeSet::new();
    for r in league_rows {
        let v = super::venue_of_match(lg, r.home, r.away);
        *load.entry((v, r.date)).or_default() += 1;
    }
    for r in extras {
        let Some(k) = kind(lg, r) else { continue };
        let v = venue_of(lg, r, k);
        *load.entry((v, r.date)).or_default() += 1;
        touched.insert((v, r.date));
    }
    for (v, d) in touched {
        let venue = &lg.venues[v];
        let cap = *venue.capacity_on.get(&d).unwrap_or(&venue.capacity) as usize;
        let n = load[&(v, d)];
        if n > cap && !venue.closed.contains(&d) {
            c.out.push(Violation {
                rule: "7 venue capacity",
                fixture: venue.name.clone(),
                date: Some(d),
                detail: format!("hosts {n} matches with cup ties and play-offs (capacity {cap})"),
            });
        }
    }
}
