//! Mid-season reruns: what is played stays, withdrawals scratch fixtures, and the rest of the
//! season moves as little as the (possibly edited) league file allows.
//!
//! A rerun is an ordinary solve of a changed league: played fixtures (dated before `from`) become
//! `[[fixed]]`; a withdrawn team's fixtures are excluded, and kept as scratched (`Rerun`, passed
//! explicitly to the model and the checker) so that they still count towards their opponents'
//! home/away balance; every other fixture may only be dated on or after `from`; and leaving a
//! fixture's current slot costs `move_cost` plus `day_cost` a day (`solve::Steer::preferred`),
//! which dwarfs the quality objective. The solve starts from the current schedule, so a rerun
//! with nothing to change returns it at once.

use crate::model::{
    Excluded, Extra, ExtraKind, Fixed, FixtureList, Format, League, Match, Rerun, TeamId,
};
use crate::solve::{Options, Steer};
use chrono::NaiveDate;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The league to solve and the options that keep it close to the current schedule.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The changed league: played fixtures fixed, withdrawn teams' fixtures excluded.
    pub league: League,
    /// Each fixture's current (home, date), in the order of `League::fixtures`.
    pub preferred: Vec<Option<(TeamId, NaiveDate)>>,
    /// The rerun's state: first movable date, scratched fixtures, history.
    pub rerun: Rerun,
    /// Fixtures of the current list before `from`, kept as they are.
    pub played: usize,
}

/// A fixture's identity: its division and teams (unordered in a single round robin).
fn key(league: &League, home: TeamId, away: TeamId) -> (usize, TeamId, TeamId) {
    let d = league.teams[home].division;
    match league.divisions[d].format {
        Format::Double => (d, home, away),
        Format::Single | Format::Paired => (d, home.min(away), home.max(away)),
    }
}

/// The rerun of `current` from `from` with the teams of `withdraw` gone.
pub fn plan(league: &League, current: &FixtureList, from: NaiveDate, withdraw: &[TeamId]) -> Plan {
    let (current, extra) = (&current.matches, &current.extra);
    let mut changed = league.clone();
    let mut rerun = Rerun {
        from: Some(from),
        ..Rerun::default()
    };
    for &t in withdraw {
        let d = league.teams[t].division;
        for &u in &league.divisions[d].teams {
            if u != t {
                changed.excluded.push(Excluded { home: t, away: u });
                changed.excluded.push(Excluded { home: u, away: t });
            }
        }
        changed.fixed.retain(|f| f.home != t && f.away != t);
    }
    let gone = |r: &Match| withdraw.contains(&r.home) || withdraw.contains(&r.away);
    for r in current.iter().filter(|r| gone(r)) {
        rerun.scratched.push((r.home, r.away));
    }
    let mut played = 0;
    for r in current.iter().filter(|r| r.date < from && !gone(r)) {
        played += 1;
        let k = key(league, r.home, r.away);
        changed.fixed.retain(|f| key(league, f.home, f.away) != k);
        changed.fixed.push(Fixed {
            home: r.home,
            away: r.away,
            date: r.date,
        });
        rerun.history.push(*r);
    }
    // Cup ties, play-offs and replays stay where they are, but a withdrawn team's from `from`.
    rerun.extra = extra
        .iter()
        .filter(|e| e.date < from || !(withdraw.contains(&e.home) || withdraw.contains(&e.away)))
        .copied()
        .collect();
    let now: BTreeMap<(usize, TeamId, TeamId), (TeamId, NaiveDate)> = current
        .iter()
        .filter(|r| !gone(r))
        .map(|r| (key(league, r.home, r.away), (r.home, r.date)))
        .collect();
    let preferred = changed
        .fixtures()
        .iter()
        .map(|f| now.get(&key(league, f.a, f.b)).copied())
        .collect();
    Plan {
        league: changed,
        preferred,
        rerun,
        played,
    }
}

impl Plan {
    /// The league the solver schedules: `league` with the kept cup ties, play-offs and replays
    /// from `from` on as fixed matches of their teams. No league match of theirs comes within
    /// `min_days_between` of one, and each takes its place at its venue.
    pub fn solving(&self) -> League {
        let mut league = self.league.clone();
        let from = self.rerun.from.unwrap_or(league.start);
        let rest = i64::from(league.rules.min_days_between.max(1)) - 1;
        for e in self.rerun.extra.iter().filter(|e| e.date >= from) {
            for t in [e.home, e.away] {
                for d in -rest..=rest {
                    let day = e.date + chrono::Duration::days(d);
                    if day >= from {
                        league.teams[t].unavailable.insert(day);
                    }
                }
            }
            let venue = &mut league.venues[e.venue(&self.league)];
            let room = venue.capacity_on(e.date).saturating_sub(1);
            venue.capacity_on.insert(e.date, room);
        }
        league
    }

    /// `base` with the steer that keeps the solve close to the current schedule.
    pub fn options(&self, base: &Options) -> Options {
        Options {
            steer: Steer {
                preferred: self.preferred.clone(),
                rerun: self.rerun.clone(),
                ..base.steer.clone()
            },
            ..base.clone()
        }
    }
}

/// What happened to one fixture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// Same date, same home team.
    Unchanged,
    /// Another date or home team.
    Moved,
    /// No longer played (a withdrawal or an exclusion).
    Scratched,
    /// Not in the current list.
    New,
}

impl Status {
    /// The word used in diffs.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Unchanged => "unchanged",
            Status::Moved => "moved",
            Status::Scratched => "scratched",
            Status::New => "new",
        }
    }
}

/// One fixture of a rerun's diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// What happened to it.
    pub status: Status,
    /// Its division (a cup tie's: its home team's).
    pub division: usize,
    /// A cup tie, play-off or replay: which; `None` for a league match.
    pub kind: Option<ExtraKind>,
    /// Before: (home, away, date), `None` when new.
    pub old: Option<(TeamId, TeamId, NaiveDate)>,
    /// After: (home, away, date), `None` when scratched.
    pub new: Option<(TeamId, TeamId, NaiveDate)>,
    /// Why a fixture moved: its old date is no longer possible (and why), or it made room.
    pub reason: String,
}

impl Change {
    /// Its division, or its cup and round ("Knock-Out Cup Quarter-final"), play-off or replay.
    pub fn competition(&self, league: &League) -> String {
        match (self.kind, self.old.or(self.new)) {
            (Some(kind), Some((home, away, date))) => {
                let e = Extra {
                    date,
                    home,
                    away,
                    kind,
                };
                format!("{} {}", e.competition(league), e.round(league))
            }
            _ => league.divisions[self.division].name.clone(),
        }
    }
}

fn why_moved(
    league: &League,
    extra: &[Extra],
    (h, a, d): (TeamId, TeamId, NaiveDate),
    new: (TeamId, TeamId, NaiveDate),
) -> String {
    let rest = i64::from(league.rules.min_days_between);
    if let Some(e) = extra.iter().find(|e| {
        [e.home, e.away].iter().any(|t| *t == h || *t == a) && (e.date - d).num_days().abs() < rest
    }) {
        let team = if e.home == h || e.away == h { h } else { a };
        return format!(
            "{} plays a {} {} on {}",
            league.teams[team].name,
            e.competition(league),
            e.round(league),
            e.date
        );
    }
    let fixed_there = league
        .fixed
        .iter()
        .any(|f| f.date == new.2 && key(league, f.home, f.away) == key(league, new.0, new.1));
    if fixed_there {
        return "fixed on its new date in the league file (a change agreed or a postponement)"
            .into();
    }
    match league.playable(h, a, d) {
        Err(why) => format!(
            "its date is no longer possible: {}",
            league.describe_unplayable(&why, h)
        ),
        Ok(()) => "to make room for another move (rest days, venue capacity or club rules)".into(),
    }
}

/// Every fixture of the current list and of the new schedule, matched by identity.
pub fn diff(league: &League, current: &FixtureList, new: &FixtureList) -> Vec<Change> {
    let mut out = Vec::new();
    let mut news: BTreeMap<(usize, TeamId, TeamId), (TeamId, TeamId, NaiveDate)> = new
        .matches
        .iter()
        .map(|m| (key(league, m.home, m.away), (m.home, m.away, m.date)))
        .collect();
    for r in &current.matches {
        let k = key(league, r.home, r.away);
        let old = Some((r.home, r.away, r.date));
        match news.remove(&k) {
            Some(n) if n == (r.home, r.away, r.date) => out.push(Change {
                status: Status::Unchanged,
                division: k.0,
                kind: None,
                old,
                new: Some(n),
                reason: String::new(),
            }),
            Some(n) => out.push(Change {
                status: Status::Moved,
                division: k.0,
                kind: None,
                old,
                new: Some(n),
                reason: why_moved(league, &new.extra, (r.home, r.away, r.date), n),
            }),
            None => out.push(Change {
                status: Status::Scratched,
                division: k.0,
                kind: None,
                old,
                new: None,
                reason: "no longer in the league's fixtures (a withdrawal or an exclusion)".into(),
            }),
        }
    }
    for (k, n) in news {
        out.push(Change {
            status: Status::New,
            division: k.0,
            kind: None,
            old: None,
            new: Some(n),
            reason: "not in the current list".into(),
        });
    }
    diff_extra(league, &current.extra, &new.extra, &mut out);
    out.sort_by_key(|c| (c.old.or(c.new).map(|x| x.2), c.status));
    out
}

/// The diff's rows for cup ties, play-offs and replays: one of the current list is unchanged
/// when the new list has it exactly, moved when it has the same match on another date.
fn diff_extra(league: &League, current: &[Extra], new: &[Extra], out: &mut Vec<Change>) {
    let mut news: Vec<Extra> = new.to_vec();
    let change = |status, e: &Extra, old, new, reason: &str| Change {
        status,
        division: league.teams[e.home].division,
        kind: Some(e.kind),
        old,
        new,
        reason: reason.into(),
    };
    let at = |e: &Extra| Some((e.home, e.away, e.date));
    for e in current {
        if let Some(i) = news.iter().position(|n| n == e) {
            news.remove(i);
            out.push(change(Status::Unchanged, e, at(e), at(e), ""));
        } else if let Some(i) = news
            .iter()
            .position(|n| (n.home, n.away, n.kind) == (e.home, e.away, e.kind))
        {
            let n = news.remove(i);
            out.push(change(
                Status::Moved,
                e,
                at(e),
                at(&n),
                "moved by agreement",
            ));
        } else {
            let why = "no longer played (a team withdrew)";
            out.push(change(Status::Scratched, e, at(e), None, why));
        }
    }
    for n in &news {
        out.push(change(Status::New, n, None, at(n), "added to the list"));
    }
}

/// The diff as CSV: status, division, then the fixture before and after.
pub fn diff_csv(league: &League, changes: &[Change]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record([
        "status", "division", "old_date", "old_home", "old_away", "new_date", "new_home",
        "new_away", "reason",
    ]);
    let name = |t: TeamId| league.teams[t].name.clone();
    for c in changes {
        let side = |x: Option<(TeamId, TeamId, NaiveDate)>| match x {
            Some((h, a, d)) => [d.to_string(), name(h), name(a)],
            None => Default::default(),
        };
        let mut rec = vec![c.status.as_str().to_string(), c.competition(league)];
        rec.extend(side(c.old));
        rec.extend(side(c.new));
        rec.push(c.reason.clone());
        let _ = w.write_record(&rec);
    }
    String::from_utf8_lossy(&w.into_inner().unwrap_or_default()).into_owned()
}

/// A short text per club naming its fixtures that moved, were scratched or are new.
pub fn club_summary(league: &League, changes: &[Change]) -> String {
    let name = |t: TeamId| league.teams[t].name.as_str();
    let mut out = String::new();
    for (c, club) in league.clubs.iter().enumerate() {
        let ours = |x: &Option<(TeamId, TeamId, NaiveDate)>| {
            x.is_some_and(|(h, a, _)| league.teams[h].club == c || league.teams[a].club == c)
        };
        let mut lines: BTreeMap<Status, Vec<String>> = BTreeMap::new();
        for ch in changes
            .iter()
            .filter(|ch| ch.status != Status::Unchanged && (ours(&ch.old) || ours(&ch.new)))
        {
            let text = match (ch.old, ch.new) {
                (Some((h, a, d)), Some((nh, na, nd))) => {
                    let mut t = format!("{} v {} {d} -> {nd}", name(h), name(a));
                    if (nh, na) != (h, a) {
                        let _ = write!(t, " (now {} v {})", name(nh), name(na));
                    }
                    let _ = write!(t, " ({})", ch.reason);
                    t
                }
                (Some((h, a, d)), None) => format!("{} v {} {d}", name(h), name(a)),
                (None, Some((h, a, d))) => format!("{} v {} {d}", name(h), name(a)),
                (None, None) => continue,
            };
            lines.entry(ch.status).or_default().push(text);
        }
        if lines.is_empty() {
            continue;
        }
        let parts: Vec<String> = lines
            .iter()
            .map(|(s, l)| {
                let noun = if l.len() == 1 { "fixture" } else { "fixtures" };
                format!("{} {noun} {}: {}", l.len(), s.as_str(), l.join("; "))
            })
            .collect();
        let _ = writeln!(out, "{}: {}", club.name, parts.join(". "));
    }
    if out.is_empty() {
        out.push_str("No fixture changes.\n");
    }
    out
}
