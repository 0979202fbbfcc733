//! `fixtures season show`: where a season stands, in a secretary's words.

use super::CliError;
use chrono::NaiveDate;
use fixtures::model::{ExtraKind, League};
use fixtures::season::record::{Current, Season};

/// Game points as a secretary writes them: 14½.
fn points(p: f64) -> String {
    let whole = p.trunc();
    if p - whole >= 0.5 {
        format!("{}½", whole as i64)
    } else {
        format!("{}", whole as i64)
    }
}

/// Prints the versions, what awaits a result, what comes next, the cups and the tables.
pub fn show(season: &Season, today: NaiveDate) -> Result<(), CliError> {
    let cur = season
        .current()
        .map_err(|e| CliError::input(format!("error: {e}")))?;
    let lg = &cur.league;
    let last = season.lists.last().map(|v| v.published);
    println!("{}, today {today}", season.name);
    println!(
        "  league file version {}, fixture list version {} (published {}), {} log entries",
        season.leagues.len(),
        season.lists.len(),
        last.map_or("-".into(), |d| d.to_string()),
        season.log.len()
    );
    let failing = season.verify_all();
    if failing.is_empty() {
        println!("  every version passes the checker against the league version it records");
    }
    for (v, problems) in &failing {
        println!("  version {v} FAILS: {}", problems.join("; "));
    }
    matches(season, &cur, today);
    cups(season, &cur);
    let withdrawn: Vec<&str> = lg
        .teams
        .iter()
        .enumerate()
        .filter(|(t, _)| {
            cur.list.of_team(*t).next().is_none()
                && cur.scratched.iter().any(|s| s.0 == *t || s.1 == *t)
        })
        .map(|(_, t)| t.name.as_str())
        .collect();
    if !withdrawn.is_empty() {
        println!("  withdrawn (rule 11.2): {}", withdrawn.join(", "));
    }
    for (d, div) in lg.divisions.iter().enumerate() {
        if season.final_pools_due(&cur, d) {
            println!(
                "  {}: every preliminary result is in; form the final pools with `season pools --division \"{}\"` (rule 6.3)",
                div.name, div.name
            );
        }
        if let Some(r) = season.swiss_round_due(&cur, d) {
            println!(
                "  {}: every earlier result is in; pair round {r} with `season swiss --division \"{}\"`",
                div.name, div.name
            );
        }
    }
    tables(season, &cur);
    if failing.is_empty() {
        Ok(())
    } else {
        Err(CliError::input(
            "error: a published version fails the checker",
        ))
    }
}

/// Each division's tables, with what penalties took off, and the penalties in force.
fn tables(season: &Season, cur: &Current) {
    let lg = &cur.league;
    let tables = (0..lg.divisions.len())
        .flat_map(|d| season.tables(cur, d).into_iter().map(move |t| (d, t)));
    for (d, (name, table)) in tables {
        if table.iter().all(|s| s.played == 0 && s.deducted == 0) {
            continue;
        }
        println!("  {name}:");
        for (i, s) in table.iter().enumerate() {
            let off = if s.deducted > 0 {
                format!(" (-{} for penalties)", s.deducted)
            } else {
                String::new()
            };
            println!(
                "    {:>2}. {:<28} P{:>3} W{:>3} D{:>3} L{:>3}  {:>3} pts  {:>5} game points{off}",
                i + 1,
                lg.teams[s.team].name,
                s.played,
                s.won,
                s.drawn,
                s.lost,
                s.match_points,
                points(s.game_points)
            );
        }
        println!("    {}", lg.placed_by(d));
    }
    for d in 0..lg.divisions.len() {
        for (k, p) in season.penalties_in(lg, d) {
            println!("  penalty {k}: {} ({})", p.in_words(), lg.divisions[d].name);
        }
    }
}

/// Results entered and awaited (`Season::awaiting`), and the next fixtures.
fn matches(season: &Season, cur: &Current, today: NaiveDate) {
    let lg = &cur.league;
    let name = |t: usize| lg.teams[t].name.as_str();
    let mut future: Vec<(NaiveDate, String, String)> = cur
        .list
        .matches
        .iter()
        .map(|m| {
            (
                m.date,
                lg.divisions[m.division].name.clone(),
                m.home,
                m.away,
            )
        })
        .chain(cur.list.extra.iter().map(|e| {
            let round = format!("{} {}", e.competition(lg), e.round(lg));
            (e.date, round, e.home, e.away)
        }))
        .filter(|r| r.0 >= today)
        .map(|(d, c, h, a)| (d, c, format!("{} v {}", name(h), name(a))))
        .collect();
    future.sort();
    let all = cur.list.matches.len() + cur.list.extra.len();
    let awaiting = season.awaiting(today).unwrap_or_default();
    println!(
        "  played before today: {}, {} of them awaiting a result; to come: {}",
        all - future.len(),
        awaiting.len(),
        future.len()
    );
    for (d, c, f) in awaiting.iter().take(10) {
        println!("    awaiting a result: {d} {c} {f}");
    }
    for (d, c, f) in future.iter().take(8) {
        println!("    next: {d} {c} {f}");
    }
}

/// Each cup: drawn or not, its ties listed and decided.
fn cups(season: &Season, cur: &Current) {
    let lg: &League = &cur.league;
    for (ci, c) in lg.cups.iter().enumerate() {
        let Some(draw) = season.draws.iter().find(|d| d.cup == c.name) else {
            println!("  {}: not drawn yet", c.name);
            continue;
        };
        let ties: Vec<_> = cur
            .list
            .extra
            .iter()
            .filter(|e| matches!(e.kind, ExtraKind::Cup { cup, .. } if cup == ci))
            .collect();
        let decided = ties
            .iter()
            .filter(|e| {
                season.results.iter().any(|s| {
                    s.competition == c.name && s.date == e.date && s.home == lg.teams[e.home].name
                })
            })
            .count();
        println!(
            "  {}: drawn {} (seed {}); {} ties listed, {} with a result",
            c.name,
            draw.drawn,
            draw.seed,
            ties.len(),
            decided
        );
    }
}
