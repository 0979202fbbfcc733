//! A table's order: teams by match points (less any deducted for defaults), then the league's
//! tie-breaks in turn among the teams still level (game points; the matches among them; their
//! opponents' points), then a last resort the caller gives (names, or the order of entry).

use super::swiss::{standings, Played, Standing};
use crate::model::TieBreak;
use std::cmp::Ordering;

/// `teams` (numbers below `n`) best first after the `played` matches, a bye (`byes`) counting as
/// a win and `off[t]` match points deducted from team t (none past the slice's end): by match
/// points, then each of `tie_breaks` in turn among the teams still level, then `last`.
pub fn order(
    teams: &[usize],
    n: usize,
    (played, byes, off): (&[Played], &[usize], &[u32]),
    tie_breaks: &[TieBreak],
    last: &dyn Fn(usize, usize) -> Ordering,
) -> Vec<usize> {
    groups(teams, n, (played, byes, off), tie_breaks, last).concat()
}

/// The teams of `order` that no tie-break separates, each group (two or more teams) in the
/// order `last` gives: the ties a play-off may settle.
pub fn ties(
    teams: &[usize],
    n: usize,
    (played, off): (&[Played], &[u32]),
    tie_breaks: &[TieBreak],
) -> Vec<Vec<usize>> {
    let mut out = groups(teams, n, (played, &[], off), tie_breaks, &|a, b| a.cmp(&b));
    out.retain(|g| g.len() > 1);
    out
}

/// `order`'s teams in groups, best first: each group level on match points and every
/// tie-break, ordered by `last`.
fn groups(
    teams: &[usize],
    n: usize,
    (played, byes, off): (&[Played], &[usize], &[u32]),
    tie_breaks: &[TieBreak],
    last: &dyn Fn(usize, usize) -> Ordering,
) -> Vec<Vec<usize>> {
    let s = standings(n, played, byes);
    let points = |t: usize| s[t].match_points as f64 - f64::from(off.get(t).copied().unwrap_or(0));
    let mut out = Vec::new();
    for run in runs(teams.to_vec(), &points) {
        refine(run, (n, played, &s), tie_breaks, last, &mut out);
    }
    out
}

/// `teams` sorted by `key` (highest first), in runs of equal keys.
fn runs(mut teams: Vec<usize>, key: &dyn Fn(usize) -> f64) -> Vec<Vec<usize>> {
    teams.sort_by(|&a, &b| key(b).total_cmp(&key(a)));
    let mut out: Vec<Vec<usize>> = Vec::new();
    for t in teams {
        match out.last_mut() {
            Some(run) if key(run[0]) == key(t) => run.push(t),
            _ => out.push(vec![t]),
        }
    }
    out
}

/// Places `level` (teams level so far) by the first of `tie_breaks`, then the rest among those
/// still level, appending each group no tie-break separates to `out`, ordered by `last`.
/// `season`: the number of teams, the matches played and the standings after them.
fn refine(
    mut level: Vec<usize>,
    season: (usize, &[Played], &[Standing]),
    tie_breaks: &[TieBreak],
    last: &dyn Fn(usize, usize) -> Ordering,
    out: &mut Vec<Vec<usize>>,
) {
    let (n, played, s) = season;
    let Some((&first, rest)) = tie_breaks.split_first().filter(|_| level.len() > 1) else {
        level.sort_by(|&a, &b| last(a, b));
        out.push(level);
        return;
    };
    let opponents = |t: usize, of: &dyn Fn(usize) -> f64| -> f64 {
        played
            .iter()
            .filter_map(|m| match (m.first == t, m.second == t) {
                (true, _) => Some(of(m.second)),
                (_, true) => Some(of(m.first)),
                _ => None,
            })
            .sum()
    };
    let among: Vec<Played> = played
        .iter()
        .filter(|m| level.contains(&m.first) && level.contains(&m.second))
        .cloned()
        .collect();
    let h = standings(n, &among, &[]);
    let key = |t: usize| -> f64 {
        match first {
            TieBreak::GamePoints => s[t].game_points,
            // Match points among them first, their game points among them next (below 10⁶).
            TieBreak::HeadToHead => h[t].match_points as f64 * 1e6 + h[t].game_points,
            TieBreak::OpponentsMatchPoints => opponents(t, &|u| s[u].match_points as f64),
            TieBreak::OpponentsGamePoints => opponents(t, &|u| s[u].game_points),
        }
    };
    for run in runs(std::mem::take(&mut level), &key) {
        refine(run, season, rest, last, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::competitions::swiss::played as m;

    /// GTCL rule 5.7: teams level on match and game points are placed by the match between
    /// them, whatever the last resort says.
    #[test]
    fn the_match_between_level_teams_places_them() {
        // 0 beat 1, lost to 2, and drew with 3, as 1 beat 2 and drew with 3: 0 and 1 are level
        // on match and game points behind 2.
        let played = [
            m(0, 1, 2.5, 1.5),
            m(0, 2, 1.5, 2.5),
            m(1, 2, 2.5, 1.5),
            m(2, 3, 4.0, 0.0),
            m(0, 3, 2.0, 2.0),
            m(1, 3, 2.0, 2.0),
        ];
        let by_number_down = |a: usize, b: usize| b.cmp(&a);
        let tb = [TieBreak::GamePoints, TieBreak::HeadToHead];
        assert_eq!(
            order(&[0, 1, 2, 3], 4, (&played, &[], &[]), &tb, &by_number_down),
            [2, 0, 1, 3]
        );
        // Without the match between them the last resort places them: a tie a play-off may
        // settle.
        let tb = [TieBreak::GamePoints];
        assert_eq!(
            order(&[0, 1, 2, 3], 4, (&played, &[], &[]), &tb, &by_number_down),
            [2, 1, 0, 3]
        );
        assert_eq!(ties(&[0, 1, 2, 3], 4, (&played, &[]), &tb), [vec![0, 1]]);
        let tb = [TieBreak::GamePoints, TieBreak::HeadToHead];
        assert!(ties(&[0, 1, 2, 3], 4, (&played, &[]), &tb).is_empty());
    }

    /// 4NCL rule 12.3 (b) and (c): of two teams level on match and game points, the one whose
    /// opponents scored more match points goes above, then the one whose opponents scored more
    /// game points; a bye counts as a win.
    #[test]
    fn level_swiss_teams_are_placed_by_their_opponents_points() {
        let tb = [
            TieBreak::GamePoints,
            TieBreak::OpponentsMatchPoints,
            TieBreak::OpponentsGamePoints,
        ];
        let by_number = |a: usize, b: usize| a.cmp(&b);
        // 1 drew with the strong 2 (a bye and a win), 0 with the weak 3: 1 goes above 0.
        let played = [m(1, 2, 2.0, 2.0), m(0, 3, 2.0, 2.0), m(2, 4, 3.0, 1.0)];
        assert_eq!(
            order(&[0, 1, 2, 3, 4], 5, (&played, &[2], &[]), &tb, &by_number),
            [2, 1, 0, 3, 4]
        );
        // 0 and 1 drew with 3 and 4, who then beat 5 and 6: level on the opponents' match
        // points, 1's opponent had more game points.
        let played = [
            m(0, 3, 2.0, 2.0),
            m(1, 4, 2.0, 2.0),
            m(3, 5, 2.5, 1.5),
            m(4, 6, 3.5, 0.5),
        ];
        assert_eq!(
            order(
                &[0, 1, 2, 3, 4, 5, 6],
                7,
                (&played, &[], &[]),
                &tb,
                &by_number
            ),
            [4, 3, 1, 0, 5, 6, 2]
        );
    }

    /// Sussex rule 6.1, 4NCL 10.1: a match point deducted for defaults drops a team below one
    /// it led, and makes level two teams that were not.
    #[test]
    fn deducted_match_points_count_in_the_order_and_the_ties() {
        // 0 beat 1 and 2; 1 beat 2: 0 has 4 match points, 1 has 2, 2 none.
        let played = [m(0, 1, 3.0, 1.0), m(0, 2, 3.0, 1.0), m(1, 2, 3.0, 1.0)];
        let tb = [TieBreak::GamePoints];
        let by_number = |a: usize, b: usize| a.cmp(&b);
        assert_eq!(
            order(&[0, 1, 2], 3, (&played, &[], &[3]), &tb, &by_number),
            [1, 0, 2]
        );
        // Two off 0 leaves it level with 1, and game points place it above.
        assert_eq!(
            order(&[0, 1, 2], 3, (&played, &[], &[2]), &tb, &by_number),
            [0, 1, 2]
        );
        // Three draws leave all three level on both counts: a deduction takes one out.
        let played = [m(0, 1, 2.0, 2.0), m(0, 2, 2.0, 2.0), m(1, 2, 2.0, 2.0)];
        assert_eq!(ties(&[0, 1, 2], 3, (&played, &[]), &tb), [vec![0, 1, 2]]);
        assert_eq!(
            ties(&[0, 1, 2], 3, (&played, &[0, 0, 0]), &tb),
            [vec![0, 1, 2]]
        );
        assert_eq!(ties(&[0, 1, 2], 3, (&played, &[0, 1]), &tb), [vec![0, 2]]);
    }
}
