//! `[[constraint]]` tables: each resolved to a `Constraint`, every key checked against its
//! kind, so that a key the kind does not read is an error rather than silently ignored.

use super::Cx;
use crate::raw::{RawConstraint, RawExcluded, RawList};
use crate::{Constraint, ConstraintKind, Count, League, Problem, TeamId};
use chrono::NaiveDate;
use std::collections::{BTreeSet, HashMap};
use toml::Spanned;

/// The most `[[constraint]]` tables a league file may hold: a real league has a handful, and
/// each costs the solver rows and memory.
pub const MAX_CONSTRAINTS: usize = 200;
/// The longest run of weeks `in_a_row` takes (a season is under a year).
const MAX_WEEKS: i64 = 60;
/// The largest `max` of `breaks` and `level` (a season has far fewer matches).
const MAX_COUNT: i64 = 10_000;
/// The most days `apart` asks between two meetings.
const MAX_APART_DAYS: i64 = 400;
/// The largest weight of a soft constraint (as `[weights]`).
const MAX_WEIGHT: f64 = 1_000_000.0;

/// The kinds, as the league file names them.
const KINDS: &str = "matches, in_a_row, between, fixtures, apart, breaks, level";

/// Which keys each kind reads, besides `name`, `kind` and `weight`.
pub fn keys(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "matches" => &["teams", "opponents", "side", "dates", "max"],
        "in_a_row" => &["teams", "side", "weeks", "max"],
        "between" => &["teams", "opponents", "dates", "max", "per"],
        "fixtures" => &["fixtures", "dates", "min", "max"],
        "apart" => &["teams", "days"],
        "breaks" => &["teams", "max", "per"],
        "level" => &["teams", "dates", "max"],
        _ => return None,
    })
}

/// The keys given in a table, with where each starts (a list's first item, else the table's
/// `kind`).
fn given(c: &RawConstraint) -> Vec<(&'static str, usize)> {
    let kind = c.kind.span().start;
    let list = |v: &Option<Vec<Spanned<String>>>| {
        v.as_ref()
            .map(|l| l.first().map_or(kind, |n| n.span().start))
    };
    let int = |v: &Option<Spanned<i64>>| v.as_ref().map(|v| v.span().start);
    [
        ("teams", list(&c.teams)),
        ("opponents", list(&c.opponents)),
        ("side", c.side.as_ref().map(|v| v.span().start)),
        ("dates", c.dates.as_ref().map(|v| v.span().start)),
        ("max", int(&c.max)),
        ("min", int(&c.min)),
        ("weeks", int(&c.weeks)),
        ("days", int(&c.days)),
        ("per", c.per.as_ref().map(|v| v.span().start)),
        ("fixtures", c.fixtures.as_ref().map(|_| kind)),
    ]
    .into_iter()
    .filter_map(|(k, at)| Some((k, at?)))
    .collect()
}

impl Cx<'_> {
    /// Every `[[constraint]]` of the file, in order.
    pub(super) fn constraints(
        &mut self,
        raw: &[Spanned<RawConstraint>],
        league: &League,
        team_ix: &HashMap<String, usize>,
    ) -> Vec<Constraint> {
        if raw.len() > MAX_CONSTRAINTS {
            self.err(
                raw[MAX_CONSTRAINTS].span().start,
                "constraint",
                Problem::BadValue(format!(
                    "the file has {} [[constraint]] tables; at most {MAX_CONSTRAINTS} are read",
                    raw.len()
                )),
            );
            return Vec::new();
        }
        let mut out: Vec<Constraint> = Vec::new();
        for (i, c) in raw.iter().enumerate() {
            if let Some(c) = self.constraint(c.get_ref(), i, league, team_ix) {
                if out.iter().any(|o| o.name == c.name) {
                    let at = raw[i].span().start;
                    let why = format!("two constraints are called \"{}\"", c.name);
                    self.err(at, "constraint.name", Problem::BadValue(why));
                }
                out.push(c);
            }
        }
        out
    }

    fn constraint(
        &mut self,
        c: &RawConstraint,
        i: usize,
        league: &League,
        team_ix: &HashMap<String, usize>,
    ) -> Option<Constraint> {
        let kind = c.kind.get_ref().as_str();
        let Some(allowed) = keys(kind) else {
            let why = format!("\"{kind}\" is not a kind of constraint (use one of {KINDS})");
            self.err(c.kind.span().start, "kind", Problem::BadValue(why));
            return None;
        };
        let mut ok = true;
        for (key, at) in given(c) {
            if !allowed.contains(&key) {
                let why = format!(
                    "`{kind}` constraints have no `{key}` (they read {})",
                    allowed.join(", ")
                );
                self.err(at, key, Problem::BadValue(why));
                ok = false;
            }
        }
        let name = self.constraint_name(c, i);
        let weight = self.constraint_weight(c);
        let kind = self.constraint_kind(c, league, team_ix);
        match (ok, name, weight, kind) {
            (true, Some(name), Some(weight), Some(kind)) => Some(Constraint { name, kind, weight }),
            _ => None,
        }
    }

    fn constraint_name(&mut self, c: &RawConstraint, i: usize) -> Option<String> {
        let Some(n) = &c.name else {
            return Some(format!("constraint {}", i + 1));
        };
        let why = if n.get_ref().trim().is_empty() {
            Some("may not be empty".to_string())
        } else {
            super::unsafe_name(n.get_ref()).map(|w| w.to_string())
        };
        if let Some(why) = why {
            let why = format!(
                "the constraint name \"{}\" {why}",
                n.get_ref().escape_debug()
            );
            self.err(n.span().start, "name", Problem::BadValue(why));
            return None;
        }
        Some(n.get_ref().clone())
    }

    /// `Some(None)` hard, `Some(Some(w))` soft, `None` a bad weight.
    fn constraint_weight(&mut self, c: &RawConstraint) -> Option<Option<f64>> {
        let Some(w) = &c.weight else {
            return Some(None);
        };
        let v = *w.get_ref();
        if !(0.0..=MAX_WEIGHT).contains(&v) {
            let why = format!("{v} is out of range; a weight is from 0 to 1000000");
            self.err(w.span().start, "weight", Problem::BadValue(why));
            return None;
        }
        Some(Some(v))
    }

    fn constraint_kind(
        &mut self,
        c: &RawConstraint,
        league: &League,
        team_ix: &HashMap<String, usize>,
    ) -> Option<ConstraintKind> {
        let all = || (0..league.teams.len()).collect::<Vec<TeamId>>();
        let (kind, at) = (c.kind.get_ref().as_str(), c.kind.span().start);
        let teams = self.team_list(c.teams.as_deref(), "teams", team_ix);
        Some(match kind {
            "matches" => ConstraintKind::Matches {
                teams: teams?.unwrap_or_else(all),
                opponents: self.team_list(c.opponents.as_deref(), "opponents", team_ix)?,
                count: self.side(c.side.as_ref())?,
                dates: self.constraint_dates((c.dates.as_ref(), at), false)?,
                max: self.bound((c.max.as_ref(), at), "max", 0, i64::from(u32::MAX), true)?,
            },
            "in_a_row" => ConstraintKind::InARow {
                teams: teams?.unwrap_or_else(all),
                count: self.side(c.side.as_ref())?,
                weeks: self.bound((c.weeks.as_ref(), at), "weeks", 1, MAX_WEEKS, true)?,
                max: self.bound((c.max.as_ref(), at), "max", 0, MAX_WEEKS, true)?,
            },
            "between" => self.between_kind(c, teams?, team_ix)?,
            "fixtures" => self.fixtures_kind(c, league, team_ix)?,
            "level" => ConstraintKind::Level {
                teams: teams?.unwrap_or_else(all),
                dates: self.constraint_dates((c.dates.as_ref(), at), true)??,
                max: self.bound((c.max.as_ref(), at), "max", 0, MAX_COUNT, true)?,
            },
            "breaks" => ConstraintKind::Breaks {
                teams: teams?.unwrap_or_else(all),
                max: self.bound((c.max.as_ref(), at), "max", 0, MAX_COUNT, true)?,
                per_team: !self.per(c.per.as_ref(), ("team", "total"))?,
            },
            _ => ConstraintKind::Apart {
                teams: teams?.unwrap_or_else(all),
                days: self.bound((c.days.as_ref(), at), "days", 1, MAX_APART_DAYS, true)?,
            },
        })
    }

    /// CA4: two groups (the second `teams` again when not given), dates, limit, per.
    fn between_kind(
        &mut self,
        c: &RawConstraint,
        teams: Option<Vec<TeamId>>,
        team_ix: &HashMap<String, usize>,
    ) -> Option<ConstraintKind> {
        let at = c.kind.span().start;
        let teams = self.required_teams(teams, c, "teams")?;
        let opponents = self.team_list(c.opponents.as_deref(), "opponents", team_ix)?;
        Some(ConstraintKind::Between {
            opponents: opponents.unwrap_or_else(|| teams.clone()),
            teams,
            dates: self.constraint_dates((c.dates.as_ref(), at), false)?,
            max: self.bound((c.max.as_ref(), at), "max", 0, i64::from(u32::MAX), true)?,
            per_date: !self.per(c.per.as_ref(), ("date", "total"))?,
        })
    }

    /// GA1: the fixtures, each of two teams of one division, and their dates.
    fn fixtures_kind(
        &mut self,
        c: &RawConstraint,
        league: &League,
        team_ix: &HashMap<String, usize>,
    ) -> Option<ConstraintKind> {
        let at = c.kind.span().start;
        let mut fixtures = Vec::new();
        let mut ok = true;
        for f in c.fixtures.as_deref().unwrap_or_default() {
            let RawExcluded { home, away } = f.get_ref();
            match self.pair(league, team_ix, home, away, "constraint") {
                Some(p) => fixtures.push(p),
                None => ok = false,
            }
        }
        if c.fixtures.as_ref().is_none_or(|f| f.is_empty()) {
            let why = "a `fixtures` constraint lists its fixtures, like fixtures = [{ home = \"Lewes 1\", away = \"Hove 1\" }]";
            self.err(
                c.kind.span().start,
                "fixtures",
                Problem::Missing(why.into()),
            );
            ok = false;
        }
        let dates = self.constraint_dates((c.dates.as_ref(), at), true)?;
        let n = fixtures.len() as i64;
        let min = self.bound((c.min.as_ref(), at), "min", 0, n, false)?;
        let max = self.bound((c.max.as_ref(), at), "max", 0, n, false)?;
        if c.min.is_none() && c.max.is_none() {
            let why = "a `fixtures` constraint gives `min`, `max` or both";
            self.err(c.kind.span().start, "max", Problem::Missing(why.into()));
            return None;
        }
        let max = if c.max.is_some() { max } else { n as u32 };
        if min > max {
            let why = format!("`min` ({min}) is above `max` ({max})");
            self.err(c.kind.span().start, "min", Problem::BadValue(why));
            return None;
        }
        ok.then_some(ConstraintKind::Fixtures {
            fixtures,
            dates: dates?,
            min,
            max,
        })
    }

    /// A list of team names: `Some(None)` when absent, `None` when a name is unknown.
    fn team_list(
        &mut self,
        list: Option<&[Spanned<String>]>,
        key: &str,
        team_ix: &HashMap<String, usize>,
    ) -> Option<Option<Vec<TeamId>>> {
        let Some(list) = list else {
            return Some(None);
        };
        let mut out = Vec::new();
        let mut ok = true;
        for n in list {
            match self.lookup(team_ix, n, key, "team") {
                Some(t) if !out.contains(&t) => out.push(t),
                Some(_) => {}
                None => ok = false,
            }
        }
        ok.then_some(Some(out))
    }

    fn required_teams(
        &mut self,
        teams: Option<Vec<TeamId>>,
        c: &RawConstraint,
        key: &str,
    ) -> Option<Vec<TeamId>> {
        if teams.is_none() {
            let why = format!("`{}` constraints name their `{key}`", c.kind.get_ref());
            self.err(c.kind.span().start, key, Problem::Missing(why));
        }
        teams
    }

    fn side(&mut self, v: Option<&Spanned<String>>) -> Option<Count> {
        match v.map(|s| s.get_ref().as_str()) {
            None | Some("any") => Some(Count::Any),
            Some("home") => Some(Count::Home),
            Some("away") => Some(Count::Away),
            Some(other) => {
                let why = format!("\"{other}\" is not a side (use \"home\", \"away\" or \"any\")");
                self.err(
                    v.map_or(0, |s| s.span().start),
                    "side",
                    Problem::BadValue(why),
                );
                None
            }
        }
    }

    /// `per`: false for the first choice (the default), true for the second.
    fn per(&mut self, v: Option<&Spanned<String>>, (one, two): (&str, &str)) -> Option<bool> {
        match v.map(|s| s.get_ref().as_str()) {
            None => Some(false),
            Some(x) if x == one => Some(false),
            Some(x) if x == two => Some(true),
            Some(other) => {
                let why =
                    format!("\"{other}\" is not a choice of `per` (use \"{one}\" or \"{two}\")");
                self.err(
                    v.map_or(0, |s| s.span().start),
                    "per",
                    Problem::BadValue(why),
                );
                None
            }
        }
    }

    /// An integer key within [lo, hi]; `None` when bad, or missing where `required`.
    fn bound(
        &mut self,
        (v, at): (Option<&Spanned<i64>>, usize),
        key: &str,
        lo: i64,
        hi: i64,
        required: bool,
    ) -> Option<u32> {
        let Some(v) = v else {
            if required {
                self.err(
                    at,
                    key,
                    Problem::Missing(format!("this constraint needs `{key}`")),
                );
                return None;
            }
            return Some(lo as u32);
        };
        let n = *v.get_ref();
        if n < lo || n > hi {
            let why = format!("{n} is out of range; `{key}` is from {lo} to {hi}");
            self.err(v.span().start, key, Problem::BadValue(why));
            return None;
        }
        Some(n as u32)
    }

    /// `dates`: `Some(None)` for every date when absent and not `required`.
    fn constraint_dates(
        &mut self,
        (list, at): (Option<&RawList>, usize),
        required: bool,
    ) -> Option<Option<BTreeSet<NaiveDate>>> {
        let Some(list) = list else {
            if required {
                self.err(
                    at,
                    "dates",
                    Problem::Missing("this constraint needs `dates`".into()),
                );
                return None;
            }
            return Some(None);
        };
        let before = self.errors.len();
        let dates = self.dates(Some(list), "dates");
        (self.errors.len() == before).then_some(Some(dates))
    }
}
