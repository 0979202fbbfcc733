//! The operations on a season record: results, postponements, agreed changes (2.6),
//! withdrawals (11.2) and new unavailable dates, cup draws and their next rounds, play-offs
//! (12) and replays (6.2.2). Each reads the latest version and publishes the next through
//! `Season::publish`, which checks it and keeps everything before `today` as it was.

use super::record::{team, CupDraw, Current, Entry, Kind, Proposal, Score, Season, SeasonError};
use super::{changes, cup, playoff, reschedule, suggest};
use crate::check;
use crate::competitions::table;
use crate::model::short_date;
use crate::model::{parse_league, Extra, ExtraKind, FixtureList, League, Match, TeamId};
use crate::pipeline;
use crate::solve::Options;
use chrono::{Days, NaiveDate};

/// Days a home captain has to offer a tie's dates once its teams are known (KO rule 5); no
/// tie is placed sooner after the draw or the result that makes it known.
pub const OFFER_DAYS: u32 = 7;

/// One row of a division's table (Sussex rule 11.1: 2 match points a win, 1 a draw; level
/// teams placed by the league's tie-breaks, game points by default).
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    /// The team.
    pub team: TeamId,
    /// Matches with a result.
    pub played: u32,
    /// Won, drawn, lost.
    pub won: u32,
    /// Drawn.
    pub drawn: u32,
    /// Lost.
    pub lost: u32,
    /// Match points, less any deducted.
    pub match_points: i32,
    /// Match points deducted for penalties (Sussex rule 6, 4NCL rule 10).
    pub deducted: u32,
    /// Game points.
    pub game_points: f64,
}

/// A score "2½-1½", "2.5-1.5" or "3-1": the home and away game points.
pub fn parse_score(text: &str) -> Result<(f64, f64), SeasonError> {
    let bad = || SeasonError::Input(format!("\"{text}\" is not a score such as 2½-1½ or 3-1"));
    let (h, a) = text.split_once('-').ok_or_else(bad)?;
    let side = |s: &str| -> Result<f64, SeasonError> {
        let s = s.trim();
        let (whole, half) = match s.strip_suffix('½') {
            Some(w) => (w, 0.5),
            None => (s, 0.0),
        };
        let whole = if whole.is_empty() {
            0.0
        } else {
            whole.parse::<f64>().map_err(|_| bad())?
        };
        let v = whole + half;
        if v.is_finite() && (0.0..=1000.0).contains(&v) && (v * 2.0).fract() == 0.0 {
            Ok(v)
        } else {
            Err(bad())
        }
    };
    Ok((side(h)?, side(a)?))
}

/// A result as given: the fixture "HOME v AWAY", its competition when the pair has several
/// matches awaiting a result, the score, the team that went through a cup tie its score does
/// not decide, and the team that forfeited the match.
#[derive(Debug, Clone, Default)]
pub struct Given {
    /// "HOME v AWAY".
    pub fixture: String,
    /// The division or cup.
    pub competition: Option<String>,
    /// The score, home first: 2½-1½, 3-1.
    pub score: String,
    /// A cup tie's team that went through.
    pub winner: Option<String>,
    /// The team that forfeited the match (GTCL rule 8.4).
    pub forfeit: Option<String>,
}

/// The team named as going through: only for a cup tie (`cup`), where it must be one of the
/// tie's teams, and needed when the tie is `level` on game points; or why not.
fn went_through(
    lg: &League,
    given: &Given,
    cup: bool,
    (home, away): (TeamId, TeamId),
    level: bool,
) -> Result<Option<String>, SeasonError> {
    let fixture = &given.fixture;
    match (cup, &given.winner) {
        (true, Some(w)) => {
            let w = team(lg, w)?;
            if w != home && w != away {
                return Err(SeasonError::Input(format!(
                    "the winner of {fixture} is one of its teams"
                )));
            }
            Ok(Some(lg.teams[w].name.clone()))
        }
        (true, None) if level => Err(SeasonError::Input(format!(
            "{fixture} is a cup tie level at {}: name the team that went through (board count, board elimination)",
            given.score
        ))),
        (false, Some(_)) => Err(SeasonError::Input(format!(
            "{fixture} is not a cup tie: its score decides it, with no team named as going through"
        ))),
        _ => Ok(None),
    }
}

/// The team that forfeited (one of the match's, its defeat the score's), or why not.
fn forfeited(
    lg: &League,
    given: &Given,
    (home, away): (TeamId, TeamId),
    (hp, ap): (f64, f64),
) -> Result<Option<TeamId>, SeasonError> {
    let Some(f) = given.forfeit.as_deref().filter(|f| !f.trim().is_empty()) else {
        return Ok(None);
    };
    let t = team(lg, f)?;
    let lost = if t == home {
        hp < ap
    } else if t == away {
        ap < hp
    } else {
        return Err(SeasonError::Input(format!(
            "{} is not a team of {}",
            lg.teams[t].name, given.fixture
        )));
    };
    if !lost {
        return Err(SeasonError::Input(format!(
            "a forfeit is a defeat for {}: give the score as it stands (GTCL rule 8.4: 4-0 against it)",
            lg.teams[t].name
        )));
    }
    Ok(Some(t))
}

/// A match of the list, league or extra, as a result names it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Played {
    League(Match),
    Extra(Extra),
}

impl Played {
    fn at(self) -> (NaiveDate, TeamId, TeamId) {
        match self {
            Played::League(m) => (m.date, m.home, m.away),
            Played::Extra(e) => (e.date, e.home, e.away),
        }
    }

    fn competition(self, league: &League) -> String {
        match self {
            Played::League(m) => league.divisions[m.division].name.clone(),
            Played::Extra(e) => e.competition(league).to_string(),
        }
    }
}

/// "HOME v AWAY" as two teams.
fn pair(league: &League, text: &str) -> Result<(TeamId, TeamId), SeasonError> {
    let (h, a) = text.split_once(" v ").ok_or_else(|| {
        SeasonError::Input(format!("\"{text}\" is not a fixture \"HOME v AWAY\""))
    })?;
    Ok((team(league, h)?, team(league, a)?))
}

impl Season {
    fn has_result(&self, league: &League, p: Played) -> bool {
        self.result(league, p).is_some()
    }

    /// The result entered for a match, if any.
    fn result(&self, league: &League, p: Played) -> Option<&Score> {
        let (date, home, away) = p.at();
        let competition = p.competition(league);
        self.results.iter().find(|s| {
            s.date == date
                && s.competition == competition
                && s.home == league.teams[home].name
                && s.away == league.teams[away].name
        })
    }

    /// The result of a league match, if one was entered.
    pub(super) fn league_result(&self, league: &League, m: Match) -> Option<&Score> {
        self.result(league, Played::League(m))
    }

    /// The one match "HOME v AWAY" (of `competition`) played on or before `today` without a
    /// result.
    fn awaiting_one(
        &self,
        cur: &Current,
        fixture: &str,
        competition: Option<&str>,
        today: NaiveDate,
    ) -> Result<Played, SeasonError> {
        let lg = &cur.league;
        let (home, away) = pair(lg, fixture)?;
        let all = cur
            .list
            .matches
            .iter()
            .map(|m| Played::League(*m))
            .chain(cur.list.extra.iter().map(|e| Played::Extra(*e)));
        let open: Vec<Played> = all
            .filter(|p| (p.at().1, p.at().2) == (home, away))
            .filter(|p| competition.is_none_or(|c| p.competition(lg) == c))
            .filter(|p| p.at().0 <= today && !self.has_result(lg, *p))
            .collect();
        match open.as_slice() {
            [p] => Ok(*p),
            [] => Err(SeasonError::Input(format!(
                "{fixture}: no match of the published list played on or before {today} awaits a result (check the home team, the date and --today)"
            ))),
            _ => Err(SeasonError::Input(format!(
                "{fixture}: {} matches await a result; name the competition",
                open.len()
            ))),
        }
    }

    /// Enters the result of "HOME v AWAY" (of `competition` when the pair has several
    /// matches awaiting one), played on or before `today`. A cup tie level on game points
    /// needs its `winner`; the cup's next ties that become known are placed.
    pub fn enter_result(
        &mut self,
        today: NaiveDate,
        fixture: &str,
        competition: Option<&str>,
        score: &str,
        winner: Option<&str>,
    ) -> Result<&Entry, SeasonError> {
        let given = Given {
            fixture: fixture.into(),
            competition: competition.map(str::to_string),
            score: score.into(),
            winner: winner.map(str::to_string),
            forfeit: None,
        };
        self.enter(today, &given)
    }

    /// Enters a result as given (see `enter_result`); a forfeit names the team that forfeited,
    /// whose defeat the score must show (GTCL rule 8.4: 4-0), and says how many it has.
    pub fn enter(&mut self, today: NaiveDate, given: &Given) -> Result<&Entry, SeasonError> {
        let cur = self.current()?;
        let lg = &cur.league;
        let fixture = given.fixture.as_str();
        let (home, away) = pair(lg, fixture)?;
        let (hp, ap) = parse_score(&given.score)?;
        let p = self.awaiting_one(&cur, fixture, given.competition.as_deref(), today)?;
        let cup = match p {
            Played::Extra(Extra {
                kind: ExtraKind::Cup { cup, .. },
                ..
            }) => Some(cup),
            _ => None,
        };
        let winner = went_through(lg, given, cup.is_some(), (home, away), hp == ap)?;
        let forfeit = forfeited(lg, given, (home, away), (hp, ap))?;
        self.results.push(Score {
            date: p.at().0,
            competition: p.competition(lg),
            home: lg.teams[home].name.clone(),
            away: lg.teams[away].name.clone(),
            home_points: hp,
            away_points: ap,
            winner,
            forfeited: forfeit.map(|t| lg.teams[t].name.clone()),
            entered: today,
        });
        let mut what = format!(
            "{fixture} {} ({}, {})",
            given.score,
            p.competition(lg),
            p.at().0
        );
        let verdict = match forfeit {
            Some(t) => {
                what += &format!(", forfeited by {}", lg.teams[t].name);
                self.forfeits_said(lg, t, &p.competition(lg))
            }
            None => "entered".into(),
        };
        self.log
            .push(Entry::noted(Kind::Result, what, today, verdict));
        if let Some(ci) = cup {
            // All or nothing: a refused round takes the result back out.
            let (results, log) = (self.results.len() - 1, self.log.len() - 1);
            if let Err(e) = self.after_tie(today, &cur, ci, (home, away), hp > ap) {
                self.results.truncate(results);
                self.log.truncate(log);
                return Err(e);
            }
        }
        Ok(self.log.last().expect("an entry was pushed"))
    }

    /// The matches of `competition` team `t` has forfeited.
    pub fn forfeits(&self, league: &League, t: TeamId, competition: &str) -> usize {
        let name = &league.teams[t].name;
        self.results
            .iter()
            .filter(|s| s.competition == competition && s.forfeited.as_ref() == Some(name))
            .count()
    }

    /// How many matches team `t` has forfeited, and what the league's rule makes of it.
    fn forfeits_said(&self, league: &League, t: TeamId, competition: &str) -> String {
        let n = self.forfeits(league, t, competition);
        let name = &league.teams[t].name;
        let mut out = format!(
            "{name} has forfeited {n} match{} of {competition}",
            if n == 1 { "" } else { "es" }
        );
        match league.penalties.forfeits_exclude {
            Some(most) if n >= most as usize => out += &format!(
                "; after {most} a team is excluded from the competition (GTCL rule 8.4): withdraw it (a team withdraws)"
            ),
            Some(most) => out += &format!("; after {most} a team is excluded (GTCL rule 8.4)"),
            None => {}
        }
        out
    }

    /// After the result of a tie of cup `ci` between (home, away), just entered: the loser of
    /// a knockout tie is out (the cup's reserved dates are its again, in a new league version)
    /// and the cup's next ties that become known are placed.
    fn after_tie(
        &mut self,
        today: NaiveDate,
        cur: &Current,
        ci: usize,
        (home, away): (TeamId, TeamId),
        home_won: bool,
    ) -> Result<(), SeasonError> {
        let lg = &cur.league;
        let c = &lg.cups[ci];
        let seed = self.draws.iter().find(|d| d.cup == c.name).map(|d| d.seed);
        let loser = match self.results.last().and_then(|s| s.winner.clone()) {
            Some(w) if w == lg.teams[home].name => away,
            Some(_) => home,
            None if home_won => away,
            None => home,
        };
        let text = (!c.is_all_play_all())
            .then(|| changes::cup_out_toml(self.league_text(), &c.name, &lg.teams[loser].name))
            .flatten();
        match seed {
            Some(seed) => self.place_cup(today, cur, ci, seed, Kind::CupRound, text),
            None => Ok(()),
        }
    }

    /// Who went through a cup tie, from its result.
    fn cup_winner(&self, league: &League, ci: usize, t: &cup::Tie) -> Option<TeamId> {
        let name = |t: TeamId| league.teams[t].name.as_str();
        let s = self.results.iter().find(|s| {
            s.competition == league.cups[ci].name
                && ((s.home == name(t.home) && s.away == name(t.away))
                    || (s.home == name(t.away) && s.away == name(t.home)))
        })?;
        let w = match &s.winner {
            Some(w) => w.as_str(),
            None if s.home_points > s.away_points => &s.home,
            None if s.away_points > s.home_points => &s.away,
            None => return None,
        };
        league.team_by_name(w)
    }

    /// Draws cup `name` with `seed` and places its ties whose teams are known.
    pub fn draw_cup(
        &mut self,
        today: NaiveDate,
        name: &str,
        seed: u64,
    ) -> Result<&Entry, SeasonError> {
        let cur = self.current()?;
        let ci = cur.league.cup_by_name(name).ok_or_else(|| {
            let names: Vec<&str> = cur.league.cups.iter().map(|c| c.name.as_str()).collect();
            SeasonError::Input(format!(
                "no cup \"{name}\" (the league's cups: {})",
                names.join(", ")
            ))
        })?;
        if let Some(d) = self.draws.iter().find(|d| d.cup == name) {
            return Err(SeasonError::Input(format!(
                "{name} was drawn on {} (seed {})",
                d.drawn, d.seed
            )));
        }
        // The league version records the tree as drawn, so that `check` holds the ties to it.
        let drawn = cup::draw(&cur.league.cups[ci], seed);
        let grid: Vec<Option<&str>> = drawn
            .grid
            .iter()
            .map(|t| t.map(|t| cur.league.teams[t].name.as_str()))
            .collect();
        let text = changes::cup_draw_toml(self.league_text(), name, &grid);
        self.place_cup(today, &cur, ci, seed, Kind::CupDraw, text)?;
        self.draws.push(CupDraw {
            cup: name.to_string(),
            seed,
            drawn: today,
        });
        Ok(self.log.last().expect("an entry was pushed"))
    }

    /// Places the ties of cup `ci` whose teams are known and that are not in the list yet,
    /// each on the first date its home captain can offer after `today`; publishes them with
    /// `league_text` as the new league version when given (also when no tie is new for a draw
    /// or a new league version, so that the log has them).
    fn place_cup(
        &mut self,
        today: NaiveDate,
        cur: &Current,
        ci: usize,
        seed: u64,
        kind: Kind,
        league_text: Option<String>,
    ) -> Result<(), SeasonError> {
        let lg = &cur.league;
        let c = &lg.cups[ci];
        let draw = cup::draw(c, seed);
        let ties = cup::ties(c, &draw, &mut |t| self.cup_winner(lg, ci, t));
        let listed = |t: &cup::Tie| {
            cur.list.extra.iter().any(|e| {
                e.kind
                    == (ExtraKind::Cup {
                        cup: ci,
                        round: t.round,
                    })
                    && [e.home, e.away].contains(&t.home)
                    && [e.home, e.away].contains(&t.away)
            })
        };
        let open: Vec<cup::Tie> = ties.into_iter().filter(|t| !listed(t)).collect();
        if open.is_empty() && kind == Kind::CupRound && league_text.is_none() {
            return Ok(());
        }
        // KO rule 5: the home captain has 7 days from hearing of the tie to offer its dates.
        let first = today + Days::new(u64::from(c.notice_days.max(OFFER_DAYS)));
        let (placed, offers) = cup::place_from(lg, ci, &cur.list, &open, first);
        let name = |t: TeamId| lg.teams[t].name.as_str();
        let missing: Vec<String> = offers
            .iter()
            .filter(|(_, dates)| dates.is_empty())
            .map(|(t, _)| format!("{} v {}", name(t.home), name(t.away)))
            .collect();
        let added = placed.extra.len() - cur.list.extra.len();
        if added == 0 && kind == Kind::CupRound && league_text.is_none() {
            // Nothing new to publish: the log says which ties wait for a date.
            self.log.push(Entry::noted(
                kind,
                format!("{}: no tie placed", c.name),
                today,
                format!("no date in the round's window for: {}", missing.join(", ")),
            ));
            return Ok(());
        }
        let verdict = if open.is_empty() {
            "no new tie; the team knocked out gets the cup's reserved dates back".to_string()
        } else if missing.is_empty() {
            format!(
                "every tie on the first date its home captain can offer from {}",
                short_date(first)
            )
        } else {
            format!("no date in the round's window for: {}", missing.join(", "))
        };
        self.publish(
            today,
            Proposal {
                kind,
                what: format!(
                    "{} (seed {seed}): {} ties placed",
                    c.name,
                    placed.extra.len() - cur.list.extra.len()
                ),
                agreed: None,
                verdict,
                league_text,
                list: placed,
                scratched: cur.scratched.clone(),
            },
        )?;
        Ok(())
    }

    /// The league match "HOME v AWAY" (either side) of the current list, dated on or after
    /// `today`.
    fn movable(
        &self,
        cur: &Current,
        fixture: &str,
        today: NaiveDate,
    ) -> Result<usize, SeasonError> {
        let index = suggest::find_fixture(&cur.league, &cur.list, fixture)
            .map_err(|e| SeasonError::Input(e.to_string()))?;
        let m = cur.list.matches[index];
        if m.date < today {
            return Err(SeasonError::Refused(vec![format!(
                "{fixture} was dated {}, before today ({today}): it is played or awaits its result",
                m.date
            )]));
        }
        Ok(index)
    }

    /// Moves a league match to `to` with the league file recording it `[[fixed]]` there.
    fn move_to(
        &mut self,
        today: NaiveDate,
        cur: &Current,
        index: usize,
        to: NaiveDate,
        head: (Kind, String, Option<NaiveDate>, String),
    ) -> Result<&Entry, SeasonError> {
        let m = cur.list.matches[index];
        let name = |t: TeamId| cur.league.teams[t].name.as_str();
        let moved = changes::move_fixture(&cur.league, &cur.list, index, to)
            .map_err(SeasonError::Refused)?;
        let text = changes::fixed_toml(self.league_text(), name(m.home), name(m.away), to)
            .map_err(|e| SeasonError::Input(e.to_string()))?;
        let (kind, what, agreed, verdict) = head;
        self.publish(
            today,
            Proposal {
                kind,
                what,
                agreed,
                verdict,
                league_text: Some(text),
                list: moved.checked.list().clone(),
                scratched: cur.scratched.clone(),
            },
        )
    }

    /// Postpones a league match dated on or after `today` to `to`, or to the best date from
    /// tomorrow that keeps every rule (`suggest`).
    pub fn postpone(
        &mut self,
        today: NaiveDate,
        fixture: &str,
        to: Option<NaiveDate>,
    ) -> Result<&Entry, SeasonError> {
        let cur = self.current()?;
        let index = self.movable(&cur, fixture, today)?;
        let m = cur.list.matches[index];
        let tomorrow = today + Days::new(1);
        let to = match to {
            Some(d) => d,
            None => suggest::suggest(&cur.league, &cur.list, index, tomorrow)
                .first()
                .map(|s| s.date)
                .ok_or_else(|| {
                    SeasonError::Refused(vec![format!(
                        "{fixture}: no date from {tomorrow} keeps every rule of the league"
                    )])
                })?,
        };
        let what = format!(
            "{fixture} postponed from {} to {}",
            short_date(m.date),
            short_date(to)
        );
        let head = (
            Kind::Postponement,
            what,
            None,
            "checked: every rule holds on the new date".into(),
        );
        self.move_to(today, &cur, index, to, head)
    }

    /// A change the clubs agreed on `agreed` (rule 2.6): within its windows, or with
    /// `exceptional` when the committee allows it.
    pub fn change(
        &mut self,
        today: NaiveDate,
        fixture: &str,
        to: NaiveDate,
        agreed: NaiveDate,
        exceptional: bool,
    ) -> Result<&Entry, SeasonError> {
        let cur = self.current()?;
        let index = self.movable(&cur, fixture, today)?;
        let m = cur.list.matches[index];
        let judged = changes::judge(&cur.league, &cur.list, index, to, agreed);
        let (kind, mut verdict) = match judged.window {
            None => (Kind::Agreed, "the league has no change windows".to_string()),
            Some(changes::Window::Within(r)) => (Kind::Agreed, r),
            Some(changes::Window::Exceptional(r)) if exceptional => (Kind::Exceptional, r),
            Some(changes::Window::Exceptional(r)) => return Err(SeasonError::Exceptional(r)),
            Some(changes::Window::Invalid(r)) => return Err(SeasonError::Refused(vec![r])),
        };
        // Rule 2.6: both clubs notify the Fixtures Secretary within 7 days of agreeing, or
        // incur 4 default points; a change entered later says so, for a penalty if one is due.
        if let Some(ch) = &cur.league.changes {
            let by = changes::notify_by(ch, agreed);
            if today > by {
                verdict += &format!(
                    "; entered on {}, after {} (rule 2.6's {} days to notify the Fixtures Secretary): a club that did not notify in time incurs default points (a penalty)",
                    short_date(today),
                    short_date(by),
                    ch.notify_days
                );
            }
        }
        let what = format!(
            "{fixture} moved from {} to {}",
            short_date(m.date),
            short_date(to)
        );
        self.move_to(today, &cur, index, to, (kind, what, Some(agreed), verdict))
    }

    /// Reruns the league from `today`: `withdraw`'s teams leave (rule 11.2: their fixtures
    /// scratched, played ones too, and `[[excluded]]` in the new league version) and teams
    /// cannot play on the `unavailable` dates (`unavailable_later` in the new league version);
    /// everything else moves as little as it can, cup ties, play-offs and replays not at all.
    pub fn reschedule(
        &mut self,
        today: NaiveDate,
        withdraw: &[String],
        unavailable: &[(String, NaiveDate)],
        opts: &Options,
    ) -> Result<&Entry, SeasonError> {
        let cur = self.current()?;
        let mut league = cur.league.clone();
        let told = told(self.league_text(), &mut league, withdraw, unavailable)?;
        let mut plan = reschedule::plan(&league, &cur.list, today, &told.gone);
        plan.rerun.scratched.extend(cur.scratched.iter().copied());
        let scratched = plan.rerun.scratched.clone();
        let r = pipeline::rerun_planned(&league, &cur.list, plan, opts)?;
        self.publish(
            today,
            Proposal {
                kind: told.kind,
                what: format!(
                    "{}; the league rerun from {}",
                    told.said.join("; "),
                    crate::model::short_date(today)
                ),
                agreed: None,
                verdict: "checked: every rule holds, and nothing before today moved".into(),
                league_text: Some(told.text),
                list: r.solution.checked.list().clone(),
                scratched,
            },
        )
    }

    /// Publishes a whole new list (a fresh solve, a draft chosen, a rerun made elsewhere)
    /// recorded with `league_text`, which must name the same teams in the same order as the
    /// season's league. A rerun's withdrawals and new unavailable dates go into that league
    /// version as `reschedule` writes them. The checker accepts the list against it, nothing
    /// dated before `today` moves (a withdrawn team's fixtures are scratched, rule 11.2), and
    /// the log keeps its diff against the list it replaces.
    pub fn adopt(
        &mut self,
        today: NaiveDate,
        league_text: &str,
        list_csv: &str,
        withdraw: &[String],
        unavailable: &[(String, NaiveDate)],
    ) -> Result<&Entry, SeasonError> {
        let cur = self.current()?;
        let mut league = parse_league(league_text, "the new league version")
            .map_err(|e| SeasonError::Input(e.to_string()))?;
        let names = |l: &League| l.teams.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
        if names(&league) != names(&cur.league) {
            return Err(SeasonError::Input(
                "the new list's league has other teams than the season's: start a new season for it".into(),
            ));
        }
        let told = told(league_text, &mut league, withdraw, unavailable)?;
        let list = check::parse_fixtures(&league, list_csv.as_bytes(), "the new list")
            .map_err(|e| SeasonError::Input(e.to_string()))?
            .to_neutral(&league);
        let mut scratched = cur.scratched.clone();
        for m in &cur.list.matches {
            if told.gone.contains(&m.home) || told.gone.contains(&m.away) {
                scratched.push((m.home, m.away));
            }
        }
        let kind = match told.kind {
            Kind::Unavailable if unavailable.is_empty() => Kind::NewList,
            k => k,
        };
        let mut what = told.said;
        what.push(format!(
            "a new list: {} league matches, {} others",
            list.matches.len(),
            list.extra.len()
        ));
        self.publish(
            today,
            Proposal {
                kind,
                what: what.join("; "),
                agreed: None,
                verdict: "checked: every rule holds, and nothing before today moved".into(),
                league_text: (told.text != self.league_text()).then_some(told.text),
                list,
                scratched,
            },
        )
    }

    /// Play-offs among teams level in their division's finished table (rule 12): one between
    /// two, each pair once among three or more, after the division's last match and from
    /// tomorrow, the venue reversed from their league meeting (12.2).
    pub fn play_off(&mut self, today: NaiveDate, names: &[String]) -> Result<&Entry, SeasonError> {
        let cur = self.current()?;
        let lg = &cur.league;
        let teams: Vec<TeamId> = names
            .iter()
            .map(|n| team(lg, n))
            .collect::<Result<_, _>>()?;
        if teams.len() < 2 {
            return Err(SeasonError::Input(
                "a play-off needs two or more teams".into(),
            ));
        }
        self.level(&cur, &teams)?;
        let mut list = cur.list.clone();
        let mut placed = Vec::new();
        for (i, &a) in teams.iter().enumerate() {
            for &b in &teams[i + 1..] {
                let p = playoff::play_off_from(lg, &list, a, b, today + Days::new(1))
                    .map_err(|e| SeasonError::Refused(vec![e.to_string()]))?;
                // The play-off only: its replay (12.3) comes if every game is drawn.
                let new =
                    p.list.extra.iter().find(|e| {
                        matches!(e.kind, ExtraKind::PlayOff(_)) && !list.extra.contains(e)
                    });
                if let Some(&e) = new {
                    list = list.with_extra([e]);
                    placed.push(format!(
                        "{} v {} on {} ({})",
                        lg.teams[e.home].name,
                        lg.teams[e.away].name,
                        short_date(e.date),
                        p.why
                    ));
                }
            }
        }
        self.publish(
            today,
            Proposal {
                kind: Kind::PlayOff,
                what: format!("play-off: {}", placed.join("; ")),
                agreed: None,
                verdict: "the teams are level in the finished table".into(),
                league_text: None,
                list,
                scratched: cur.scratched.clone(),
            },
        )
    }

    /// Refuses teams of different divisions, a division with results to come, or teams not
    /// level on match points.
    fn level(&self, cur: &Current, teams: &[TeamId]) -> Result<(), SeasonError> {
        let lg = &cur.league;
        let d = lg.teams[teams[0]].division;
        if let Some(&t) = teams.iter().find(|&&t| lg.teams[t].division != d) {
            return Err(SeasonError::Input(format!(
                "{} is not in {}",
                lg.teams[t].name, lg.divisions[d].name
            )));
        }
        let table = self.standings(cur, d);
        let waiting = cur
            .list
            .matches
            .iter()
            .filter(|m| m.division == d && !self.has_result(lg, Played::League(**m)))
            .count();
        if waiting > 0 {
            return Err(SeasonError::Refused(vec![format!(
                "{} has {waiting} matches without a result: a play-off settles a finished table",
                lg.divisions[d].name
            )]));
        }
        let points = |t: TeamId| {
            table
                .iter()
                .find(|s| s.team == t)
                .map_or(0, |s| s.match_points)
        };
        if teams.iter().any(|&t| points(t) != points(teams[0])) {
            return Err(SeasonError::Refused(vec![
                "the teams are not level on match points (rule 12)".into(),
            ]));
        }
        Ok(())
    }

    /// The replay of a league match after a serious default against `against` (rule 6.2.2):
    /// on `date` when the Tournament Controller or the Fixtures Secretary sets one, else on the
    /// first date from tomorrow convenient to `against`.
    pub fn replay(
        &mut self,
        today: NaiveDate,
        fixture: &str,
        against: &str,
        date: Option<NaiveDate>,
        permitted: bool,
    ) -> Result<&Entry, SeasonError> {
        let cur = self.current()?;
        let lg = &cur.league;
        let index = suggest::find_fixture(lg, &cur.list, fixture)
            .map_err(|e| SeasonError::Input(e.to_string()))?;
        let m = cur.list.matches[index];
        let against = team(lg, against)?;
        let defaulter = m.opponent(against).ok_or_else(|| {
            SeasonError::Input(format!(
                "{} is not a team of {fixture}",
                lg.teams[against].name
            ))
        })?;
        let date = match date {
            Some(d) => d,
            None => first_replay_date(&cur, &m, against, today)?,
        };
        // Rule 2.1: after the season's end only with the Fixtures Secretary's permission,
        // which the league version records.
        let mut verdict = "at the original venue, after the defaulted match".to_string();
        let league_text = if date <= lg.end {
            None
        } else if permitted {
            verdict += &format!(
                "; after {} by the Fixtures Secretary's permission (rule 2.1)",
                lg.end
            );
            let name = |t: TeamId| lg.teams[t].name.as_str();
            Some(
                changes::late_toml(self.league_text(), name(m.home), name(m.away), date)
                    .map_err(|e| SeasonError::Input(e.to_string()))?,
            )
        } else {
            return Err(SeasonError::Refused(vec![format!(
                "{date} is after the season's end ({}): a replay then needs the Fixtures Secretary's permission (rule 2.1; say so with --permitted)",
                lg.end
            )]));
        };
        let list = cur.list.clone().with_extra([Extra {
            date,
            home: m.home,
            away: m.away,
            kind: ExtraKind::Replay(m.division),
        }]);
        // Rule 6.2.1: the defaulting team loses match points, as the league's settings say.
        let penalty = super::penalties::serious_default(lg, &m, defaulter, today);
        if let Some(p) = &penalty {
            verdict += &format!(
                "; penalty {}: {} match points off {} (rule 6.2.1)",
                self.penalties.len() + 1,
                p.match_points,
                p.team
            );
        }
        self.publish(
            today,
            Proposal {
                kind: Kind::Replay,
                what: format!(
                    "{fixture} of {} replayed on {}",
                    short_date(m.date),
                    short_date(date)
                ),
                agreed: None,
                verdict,
                league_text,
                list,
                scratched: cur.scratched.clone(),
            },
        )?;
        self.penalties.extend(penalty);
        Ok(self.log.last().expect("an entry was published"))
    }

    /// A division's table from the results of its league matches in the current list (a
    /// withdrawn team's are scratched, rule 11.2).
    pub fn standings(&self, cur: &Current, division: usize) -> Vec<Standing> {
        self.standings_among(cur, division, &cur.league.divisions[division].teams)
    }

    /// The table of `teams` of a division from the results of the matches among them, teams
    /// level on match points placed by the league's tie-breaks, then by name.
    pub fn standings_among(
        &self,
        cur: &Current,
        division: usize,
        teams: &[TeamId],
    ) -> Vec<Standing> {
        let (mut table, played) = self.rows_among(cur, division, teams);
        self.place(&cur.league, division, &mut table, &played, &[]);
        table
    }

    /// The groups of teams of division `d` that neither match points nor any of the league's
    /// tie-breaks separate: the ties a play-off may settle (rule 12).
    pub fn tied(&self, cur: &Current, d: usize) -> Vec<Vec<TeamId>> {
        let lg = &cur.league;
        let (mut rows, played) = self.rows_among(cur, d, &lg.divisions[d].teams);
        let off = super::penalties::deduct(self, lg, &mut rows);
        let ours: Vec<TeamId> = rows.iter().map(|r| r.team).collect();
        table::ties(&ours, lg.teams.len(), (&played, &off), &lg.tie_breaks(d))
    }

    /// The unordered rows of `teams` of a division from the results of the matches among
    /// them (penalties not yet taken off: see `penalties::deduct`), and those results.
    pub(super) fn rows_among(
        &self,
        cur: &Current,
        division: usize,
        teams: &[TeamId],
    ) -> (Vec<Standing>, Vec<crate::competitions::swiss::Played>) {
        let lg = &cur.league;
        let mut table: Vec<Standing> = teams
            .iter()
            .filter(|&&t| cur.list.of_team(t).next().is_some())
            .map(|&t| Standing {
                team: t,
                played: 0,
                won: 0,
                drawn: 0,
                lost: 0,
                match_points: 0,
                deducted: 0,
                game_points: 0.0,
            })
            .collect();
        let among = |m: &&Match| teams.contains(&m.home) && teams.contains(&m.away);
        let mut played = Vec::new();
        for m in cur
            .list
            .matches
            .iter()
            .filter(|m| m.division == division)
            .filter(among)
        {
            let Some(s) = self.results.iter().find(|s| {
                s.date == m.date
                    && s.home == lg.teams[m.home].name
                    && s.away == lg.teams[m.away].name
            }) else {
                continue;
            };
            played.push(crate::competitions::swiss::Played {
                round: 0,
                first: m.home,
                second: m.away,
                first_points: s.home_points,
                second_points: s.away_points,
            });
            for (t, mine, theirs) in [
                (m.home, s.home_points, s.away_points),
                (m.away, s.away_points, s.home_points),
            ] {
                if let Some(row) = table.iter_mut().find(|r| r.team == t) {
                    row.played += 1;
                    row.game_points += mine;
                    if mine > theirs {
                        row.won += 1;
                        row.match_points += 2;
                    } else if mine == theirs {
                        row.drawn += 1;
                        row.match_points += 1;
                    } else {
                        row.lost += 1;
                    }
                }
            }
        }
        (table, played)
    }

    /// The matches before `today` without a result, in date order: (date, competition,
    /// "HOME v AWAY").
    pub fn awaiting(
        &self,
        today: NaiveDate,
    ) -> Result<Vec<(NaiveDate, String, String)>, SeasonError> {
        let cur = self.current()?;
        let lg = &cur.league;
        let mut out: Vec<(NaiveDate, String, String)> = cur
            .list
            .matches
            .iter()
            .map(|m| Played::League(*m))
            .chain(cur.list.extra.iter().map(|e| Played::Extra(*e)))
            .filter(|p| p.at().0 < today && !self.has_result(lg, *p))
            .map(|p| {
                let (d, h, a) = p.at();
                let fixture = format!("{} v {}", lg.teams[h].name, lg.teams[a].name);
                (d, p.competition(lg), fixture)
            })
            .collect();
        out.sort();
        Ok(out)
    }

    /// The fixture list in force.
    pub fn list(&self) -> Result<FixtureList, SeasonError> {
        Ok(self.current()?.list)
    }
}

impl Season {
    /// Takes the penalties off the `rows` of division `d` and sorts them after the `played`
    /// matches and `byes` (each a win): by match points, then the league's tie-breaks, then by
    /// name.
    pub(super) fn place(
        &self,
        lg: &League,
        d: usize,
        rows: &mut [Standing],
        played: &[crate::competitions::swiss::Played],
        byes: &[TeamId],
    ) {
        let off = super::penalties::deduct(self, lg, rows);
        let ours: Vec<TeamId> = rows.iter().map(|r| r.team).collect();
        let by_name = |a: TeamId, b: TeamId| lg.teams[a].name.cmp(&lg.teams[b].name);
        let order = table::order(
            &ours,
            lg.teams.len(),
            (played, byes, &off),
            &lg.tie_breaks(d),
            &by_name,
        );
        rows.sort_by_key(|r| order.iter().position(|&t| t == r.team));
    }
}

/// The first date from tomorrow convenient to `against` to replay league match `m` (rule
/// 6.2.2).
fn first_replay_date(
    cur: &Current,
    m: &Match,
    against: TeamId,
    today: NaiveDate,
) -> Result<NaiveDate, SeasonError> {
    let tomorrow = today + Days::new(1);
    playoff::replay_dates(&cur.league, &cur.list, m, against)
        .map_err(|e| SeasonError::Refused(vec![e.to_string()]))?
        .into_iter()
        .find(|d| *d >= tomorrow)
        .ok_or_else(|| {
            let name = |t: TeamId| cur.league.teams[t].name.as_str();
            SeasonError::Refused(vec![format!(
                "no date from {tomorrow} to replay {} v {}: the Fixtures Secretary sets one (a date)",
                name(m.home),
                name(m.away)
            )])
        })
}

/// What a rerun is told, written into the league version: the text with the withdrawn teams'
/// fixtures `[[excluded]]` (rule 11.2) and the new dates `unavailable_later`.
struct Told {
    text: String,
    gone: Vec<TeamId>,
    said: Vec<String>,
    kind: Kind,
}

/// `text` (the league version of `league`) with a rerun's withdrawals and new unavailable
/// dates written in; `league` takes the dates too.
fn told(
    text: &str,
    league: &mut League,
    withdraw: &[String],
    unavailable: &[(String, NaiveDate)],
) -> Result<Told, SeasonError> {
    let mut text = text.to_string();
    let mut said = Vec::new();
    for (name, d) in unavailable {
        let t = team(league, name)?;
        text = changes::later_toml(&text, &league.teams[t].name, *d).ok_or_else(|| {
            SeasonError::Input(format!("the league file has no [[team]] \"{name}\""))
        })?;
        league.teams[t].unavailable.insert(*d);
        league.teams[t].later.insert(*d);
        said.push(format!(
            "{} cannot play on {}",
            league.teams[t].name,
            short_date(*d)
        ));
    }
    let gone: Vec<TeamId> = withdraw
        .iter()
        .map(|n| team(league, n))
        .collect::<Result<_, _>>()?;
    let mut pairs = Vec::new();
    for &t in &gone {
        said.push(format!("{} withdrew", league.teams[t].name));
        for &u in &league.divisions[league.teams[t].division].teams {
            if u != t {
                pairs.push((league.teams[t].name.as_str(), league.teams[u].name.as_str()));
                pairs.push((league.teams[u].name.as_str(), league.teams[t].name.as_str()));
            }
        }
    }
    if !pairs.is_empty() {
        text =
            changes::excluded_toml(&text, &pairs).map_err(|e| SeasonError::Input(e.to_string()))?;
    }
    let kind = if gone.is_empty() {
        Kind::Unavailable
    } else {
        Kind::Withdrawal
    };
    Ok(Told {
        text,
        gone,
        said,
        kind,
    })
}
