//! A knockout cup's ties against its pairing tree as drawn (the league file's `draw`, Sussex
//! KO rules 3 and 4): each tie between the teams the tree brings together in its round, byes
//! as drawn, and the home side rule 4 gives, from the sides of each team's earlier ties in the
//! list. Written apart from the solver's rule 4, from the rule's text.

use super::extra::kind;
use super::{Checker, Row};
use fixtures_model::{Cup, ExtraKind, TeamId};
use std::collections::BTreeMap;

/// Checks every cup with a draw.
pub(super) fn check(c: &mut Checker<'_>, extras: &[Row]) {
    let lg = c.league;
    for (ci, cup) in lg.cups.iter().enumerate() {
        if cup.draw.is_empty() || cup.is_all_play_all() {
            continue;
        }
        let mut ties: Vec<(usize, &Row)> = extras
            .iter()
            .filter_map(|r| match kind(lg, r) {
                Some(ExtraKind::Cup { cup, round }) if cup == ci && round < usize::MAX => {
                    Some((round, r))
                }
                _ => None,
            })
            .collect();
        ties.sort_by_key(|&(round, r)| (round, r.date));
        let mut sides: BTreeMap<TeamId, Vec<bool>> = BTreeMap::new();
        for (round, r) in ties {
            if let Some(x_home) = tie(c, cup, round, r, &sides) {
                let (x, y) = order(cup, r);
                let home = if x_home { x } else { y };
                if home != r.home {
                    let detail = format!(
                        "KO rule 4 puts {} at home: the higher in the tree in both teams' first match, then each alternating home and away",
                        c.name(home)
                    );
                    c.push("cup home side", r, detail);
                }
            }
            sides.entry(r.home).or_default().push(true);
            sides.entry(r.away).or_default().push(false);
        }
    }
}

fn position(cup: &Cup, t: TeamId) -> Option<usize> {
    cup.draw.iter().position(|&d| d == Some(t))
}

/// The tie's two teams, the higher in the tree first.
fn order(cup: &Cup, r: &Row) -> (TeamId, TeamId) {
    if position(cup, r.home) <= position(cup, r.away) {
        (r.home, r.away)
    } else {
        (r.away, r.home)
    }
}

/// Whether the tree pairs the tie's teams in its round; if so, whether rule 4 puts the higher
/// team at home.
fn tie(
    c: &mut Checker<'_>,
    cup: &Cup,
    round: usize,
    r: &Row,
    sides: &BTreeMap<TeamId, Vec<bool>>,
) -> Option<bool> {
    let (Some(p), Some(q)) = (position(cup, r.home), position(cup, r.away)) else {
        let detail = format!("a team of this tie is not in the draw of {}", cup.name);
        c.push("cup draw", r, detail);
        return None;
    };
    // Positions p and q meet in round `round` when they share the block of 2^(round+1)
    // positions but not the half of it.
    if p >> (round + 1) != q >> (round + 1) || p >> round == q >> round {
        let detail = format!(
            "the draw of {} does not bring these teams together in the {}",
            cup.name,
            cup.round_name(round)
        );
        c.push("cup draw", r, detail);
        return None;
    }
    let (x, y) = order(cup, r);
    let none = Vec::new();
    let hx = sides.get(&x).unwrap_or(&none);
    let hy = sides.get(&y).unwrap_or(&none);
    Some(rule4(hx, hy))
}

/// KO rule 4, for the higher team `x` against `y` given each one's sides so far (true = at
/// home): whether `x` is at home. "If it is the first match for both teams then the team
/// placed higher in the pairing tree shall play at home. Thereafter the venue shall be
/// determined in order that teams play alternately home and away and to avoid where possible
/// the difference between home and away games for either team being two or higher. Where
/// teams have equal past patterns the team that appears higher in the pairing tree shall
/// alternate." A choice is scored by (teams denied the side opposite their last, teams left
/// two or more games uneven), lower first; an exact tie goes to the higher team's wish.
fn rule4(x: &[bool], y: &[bool]) -> bool {
    if x.is_empty() && y.is_empty() {
        return true;
    }
    let wants_home = |h: &[bool]| h.last().map(|&was_home| !was_home);
    let uneven = |h: &[bool], home: bool| {
        let n = h.iter().filter(|&&b| b).count() as i64 + i64::from(home);
        let a = h.len() as i64 + 1 - n;
        u8::from((n - a).abs() >= 2)
    };
    let score = |x_home: bool| {
        let denied = u8::from(wants_home(x).is_some_and(|w| w != x_home))
            + u8::from(wants_home(y).is_some_and(|w| w == x_home));
        (denied, uneven(x, x_home) + uneven(y, !x_home))
    };
    let (s_home, s_away) = (score(true), score(false));
    if s_home != s_away {
        return s_home < s_away;
    }
    match (wants_home(x), wants_home(y)) {
        (Some(w), _) => w,
        (None, Some(w)) => !w,
        (None, None) => true,
    }
}
