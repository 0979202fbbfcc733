//! Knockout cups beside the league (Sussex KO rules 3–5, the Paul Watson Trophy and McArthur
//! Cup rules): a seeded random pairing tree (zones kept apart in the first round, last year's
//! finalists in opposite halves), the home side of every tie by KO rule 4, and the dates the
//! home captain can offer for each tie whose teams are known (KO rule 5: at least two; the Paul
//! Watson Trophy: three, at least 14 days ahead). With three entrants a cup is an all-play-all.

use super::{open_dates, Host};
use crate::competitions::cup::{draw as draw_plain, draw_zoned, Draw};
use crate::model::{Cup, Extra, ExtraKind, FixtureList, League, TeamId};
use chrono::NaiveDate;
use std::collections::BTreeMap;

/// The pairing tree of `cup` drawn with `seed`.
pub fn draw(cup: &Cup, seed: u64) -> Draw {
    if cup.zones.is_empty() {
        draw_plain(&cup.teams, &cup.finalists, seed)
    } else {
        let zones: Vec<Vec<TeamId>> = cup.zones.iter().map(|(_, t)| t.clone()).collect();
        draw_zoned(&zones, cup.grid_size(), seed)
    }
}

/// A tie whose teams are known, with its home side by KO rule 4.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tie {
    /// The round (from 0).
    pub round: usize,
    /// Its place in the round, top of the tree first.
    pub index: usize,
    /// The home team.
    pub home: TeamId,
    /// The visiting team.
    pub away: TeamId,
}

/// KO rule 4: whether `x` is at home against `y`, given each team's sides in its earlier ties
/// (true = at home) and whether `x` is placed higher in the tree. In both teams' first match
/// the higher is at home; afterwards each alternates where it can; when both want the same
/// side, the choice that leaves no team (or fewer teams) with home and away games differing by
/// two or more wins, and otherwise the higher team alternates.
pub fn rule4_home(x: &[bool], y: &[bool], x_higher: bool) -> bool {
    match (x.last(), y.last()) {
        (None, None) => x_higher,
        // Only one has played: that one alternates.
        (None, Some(&y_was_home)) => y_was_home,
        (Some(&x_was_home), None) => !x_was_home,
        (Some(&x_was_home), Some(&y_was_home)) => {
            if x_was_home != y_was_home {
                return !x_was_home;
            }
            let balance = |h: &[bool]| h.iter().map(|&b| if b { 1 } else { -1 }).sum::<i32>();
            let (bx, by) = (balance(x), balance(y));
            let uneven = |x_home: bool| {
                let s = if x_home { 1 } else { -1 };
                u8::from((bx + s).abs() >= 2) + u8::from((by - s).abs() >= 2)
            };
            let (home, away) = (uneven(true), uneven(false));
            if home != away {
                return home < away;
            }
            if x_higher {
                !x_was_home
            } else {
                y_was_home
            }
        }
    }
}

/// Who fills a place of the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seat {
    /// This team.
    Team(TeamId),
    /// Nobody: a bye all the way down.
    Empty,
    /// The winner of a tie not yet played.
    Open,
}

/// The ties of the knockout whose teams are known, in round order, given the winners of ties
/// played so far (`winner(tie)`, `None` when not played yet). A team drawn against a bye goes
/// through without a tie. An all-play-all (three entrants) has its three ties in one round, each
/// team at home once, the order of the draw deciding who hosts whom.
pub fn ties(cup: &Cup, draw: &Draw, winner: &mut dyn FnMut(&Tie) -> Option<TeamId>) -> Vec<Tie> {
    let rank: BTreeMap<TeamId, usize> = draw
        .grid
        .iter()
        .enumerate()
        .filter_map(|(p, t)| t.map(|t| (t, p)))
        .collect();
    if cup.is_all_play_all() {
        let order: Vec<TeamId> = draw.grid.iter().flatten().copied().collect();
        return (0..3)
            .map(|i| Tie {
                round: 0,
                index: i,
                home: order[i],
                away: order[(i + 1) % 3],
            })
            .collect();
    }
    let mut seats: Vec<Seat> = draw
        .grid
        .iter()
        .map(|t| t.map_or(Seat::Empty, Seat::Team))
        .collect();
    let mut sides: BTreeMap<TeamId, Vec<bool>> = BTreeMap::new();
    let mut out = Vec::new();
    let mut round = 0;
    while seats.len() > 1 {
        let mut next = Vec::with_capacity(seats.len() / 2);
        for (index, pair) in seats.chunks(2).enumerate() {
            next.push(match (pair[0], pair[1]) {
                (Seat::Team(x), Seat::Team(y)) => {
                    let (hx, hy) = (
                        &sides.get(&x).cloned().unwrap_or_default(),
                        &sides.get(&y).cloned().unwrap_or_default(),
                    );
                    let x_home = rule4_home(hx, hy, rank[&x] < rank[&y]);
                    let (home, away) = if x_home { (x, y) } else { (y, x) };
                    let tie = Tie {
                        round,
                        index,
                        home,
                        away,
                    };
                    sides.entry(home).or_default().push(true);
                    sides.entry(away).or_default().push(false);
                    out.push(tie);
                    match winner(&tie) {
                        Some(w) if w == home || w == away => Seat::Team(w),
                        _ => Seat::Open,
                    }
                }
                (Seat::Team(x), Seat::Empty) | (Seat::Empty, Seat::Team(x)) => Seat::Team(x),
                (Seat::Empty, Seat::Empty) => Seat::Empty,
                _ => Seat::Open,
            });
        }
        seats = next;
        round += 1;
    }
    out
}

/// The window of a tie's round, and from when its home captain may offer dates.
pub fn offer_window(league: &League, cup: &Cup, round: usize) -> (NaiveDate, NaiveDate) {
    let (start, end) = cup.window(round).unwrap_or((cup.opens, league.end));
    (start + chrono::Days::new(cup.notice_days as u64), end)
}

/// The dates the home captain of `tie` can offer beside the matches of `list`: inside the
/// round's window, on the home club's nights, at its venue with room to spare, neither team
/// unavailable nor with another match within `min_days_between`. The league's start does not
/// bound a cup (its first round may come before the league's); a club's late start does.
pub fn offered_dates(league: &League, cup: &Cup, list: &FixtureList, tie: &Tie) -> Vec<NaiveDate> {
    let (from, to) = offer_window(league, cup, tie.round);
    let h = &league.teams[tie.home];
    let host = Host {
        venue: h.venue,
        hosting: &h.hosting,
        after_league_start: false,
    };
    let mut dates = open_dates(league, list, tie.home, tie.away, host, from, to);
    if cup.avoid_away_club {
        // "avoiding clashes with away club fixtures": no other match of the away club that day.
        let club = league.teams[tie.away].club;
        let busy: Vec<NaiveDate> = list
            .matches
            .iter()
            .map(|m| (m.date, m.home, m.away))
            .chain(list.extra.iter().map(|e| (e.date, e.home, e.away)))
            .filter(|&(_, h, a)| league.teams[h].club == club || league.teams[a].club == club)
            .map(|(d, _, _)| d)
            .collect();
        dates.retain(|d| !busy.contains(d));
    }
    dates
}

/// Gives every tie the dates its home captain can offer and places it on one. The ties of a
/// round are offered dates independently, beside the league's matches and the ties of earlier
/// rounds (each on its placed date); each is then placed on the first of its offered dates
/// that still has room beside the ties of its round placed before it. Returns the list with
/// the placed ties and, for every tie, the dates it could offer.
pub fn place(
    league: &League,
    cup_ix: usize,
    list: &FixtureList,
    ties: &[Tie],
) -> (FixtureList, Vec<(Tie, Vec<NaiveDate>)>) {
    place_from(league, cup_ix, list, ties, NaiveDate::MIN)
}

/// `place`, offering no date before `first` (in a season under way: after the day the ties
/// become known, so that the home captain can offer them).
pub fn place_from(
    league: &League,
    cup_ix: usize,
    list: &FixtureList,
    ties: &[Tie],
    first: NaiveDate,
) -> (FixtureList, Vec<(Tie, Vec<NaiveDate>)>) {
    let cup = &league.cups[cup_ix];
    let offered = |base: &FixtureList, tie: &Tie| -> Vec<NaiveDate> {
        // After the ties its teams came through (rounds may share a deadline: KO rule 3's
        // preliminary rounds).
        let after = base
            .extra
            .iter()
            .filter(|e| {
                matches!(e.kind, ExtraKind::Cup { cup, round } if cup == cup_ix && round < tie.round)
                    && [e.home, e.away].iter().any(|t| *t == tie.home || *t == tie.away)
            })
            .map(|e| e.date)
            .max();
        let mut dates = offered_dates(league, cup, base, tie);
        dates.retain(|d| *d >= first && after.is_none_or(|a| *d > a));
        dates
    };
    let mut out = list.clone();
    let mut offers = Vec::new();
    let rounds: Vec<usize> = {
        let mut r: Vec<usize> = ties.iter().map(|t| t.round).collect();
        r.dedup();
        r
    };
    // A tie whose feeding tie found no date cannot be played before it: it waits too.
    let mut unplaced: Vec<TeamId> = Vec::new();
    for round in rounds {
        let base = out.clone();
        for tie in ties.iter().filter(|t| t.round == round) {
            if unplaced.contains(&tie.home) || unplaced.contains(&tie.away) {
                unplaced.extend([tie.home, tie.away]);
                offers.push((*tie, Vec::new()));
                continue;
            }
            let dates = offered(&base, tie);
            let still = offered(&out, tie);
            if let Some(&d) = dates.iter().find(|d| still.contains(d)) {
                out = out.with_extra([Extra {
                    date: d,
                    home: tie.home,
                    away: tie.away,
                    kind: ExtraKind::Cup {
                        cup: cup_ix,
                        round: tie.round,
                    },
                }]);
            } else {
                unplaced.extend([tie.home, tie.away]);
            }
            offers.push((*tie, dates));
        }
    }
    (out, offers)
}
