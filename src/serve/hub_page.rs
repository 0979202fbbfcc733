//! The season on a league's page, in maud: where it stands, the actions that fit the moment
//! (each previewed before it publishes), the tables, the published versions, the solves with
//! their drafts, and the log. The data is `hub::Hub`; the handlers are in `editor.rs`.

use super::hub::Hub;
use chrono::NaiveDate;
use maud::{html, Markup};

/// A date as the pages write it: 4 Dec 2026.
fn day(d: NaiveDate) -> String {
    crate::model::short_date(d)
}

/// Where the season stands; with `csrf` (the secretary's), the actions too.
pub(crate) fn season(id: &str, hub: &Hub, csrf: Option<&str>, version: i64) -> Markup {
    html! {
        section #season {
            h2 { "The season" }
            p { "Today is " (day(hub.today)) "." }
            @if let Some(why) = &hub.refused {
                p.error role="alert" { "Not done: " (why) }
            }
            @if !hub.notice.is_empty() {
                div.todo role="status" { ul { @for n in &hub.notice { li { (n) } } } }
            }
            @if let Some(stable) = &hub.stable {
                p {
                    "The clubs' link, always the current list: "
                    a href=(stable) { (stable) }
                }
                @if let Some((played, awaiting, to_come)) = hub.counts {
                    p { (played) " fixtures played, " (awaiting) " awaiting a result, " (to_come) " to come." }
                }
                @if let Some(csrf) = csrf { (actions(id, hub, csrf, version)) }
                (tables(id, hub, csrf.map(|c| (c, version))))
                (versions(hub))
            } @else {
                p {
                    "Nothing is published yet: "
                    @if csrf.is_some() { a href={ "/?league=" (id) } { "solve it" } } @else { "the secretary solves it" }
                    " and publishes a list; the season starts then."
                }
            }
            (solves(hub, csrf.is_some()))
            (log(hub))
        }
    }
}

/// The hidden fields of a hub form: the session's CSRF token, the league version it was read
/// from, and the action.
fn hub_fields(csrf: &str, version: i64, action: &str) -> Markup {
    html! {
        input type="hidden" name="csrf" value=(csrf);
        input type="hidden" name="version" value=(version);
        input type="hidden" name="action" value=(action);
    }
}

/// A hub form posting `action`, with its fields.
fn hub_form(id: &str, csrf: &str, version: i64, action: &str, fields: Markup) -> Markup {
    html! {
        form method="post" action={ "/leagues/" (id) "/hub" } {
            (hub_fields(csrf, version, action))
            (fields)
        }
    }
}

/// The season's actions that fit the moment.
fn actions(id: &str, hub: &Hub, csrf: &str, version: i64) -> Markup {
    html! {
        (results(id, hub, csrf, version))
        (penalty(id, hub, csrf, version))
        (changes(id, hub, csrf, version))
    }
}

/// A penalty for defaults: boards defaulted (when the league prices them), default points
/// (when they cost match points), match points outright, and why.
fn penalty(id: &str, hub: &Hub, csrf: &str, version: i64) -> Markup {
    let p = &hub.penalties;
    html! {
        h3 { "A penalty for defaults" }
        p.help {
            @match p.per_match_point {
                Some(n) => { "Each " (n) " default points cost a match point in the table" }
                None => { "The league's settings give no default points, so a penalty takes match points" }
            }
            @if p.not_below_zero { ", and no team goes below none" }
            ". A penalty can be lifted later (an appeal upheld); it stays in the log."
        }
        (hub_form(id, csrf, version, "penalty", html! {
            label for="penalty-team" { "Team" }
            select #penalty-team name="team" { @for t in &hub.teams { option { (t) } } }
            @if !p.board_points.is_empty() && p.per_match_point.is_some() {
                fieldset {
                    legend { "Boards defaulted" }
                    @for (i, pts) in p.board_points.iter().enumerate() {
                        label.check {
                            input type="checkbox" name="board" value=(i + 1);
                            " Board " (i + 1) " (" (pts) " default point" @if *pts != 1 { "s" } ")"
                        }
                    }
                }
            }
            @if p.per_match_point.is_some() {
                label for="penalty-default-points" { "Default points (besides any boards ticked)" }
                input #penalty-default-points name="default_points" type="number" min="0" max="1000" inputmode="numeric";
            }
            label for="penalty-match-points" { "Match points taken off" }
            input #penalty-match-points name="match_points" type="number" min="0" max="100" inputmode="numeric";
            label for="penalty-why" { "Why (the match and the rule)" }
            input #penalty-why name="why" required maxlength="300";
            button type="submit" { "Record the penalty" }
        }))
    }
}

/// A result for a match played, or many imported at once.
fn results(id: &str, hub: &Hub, csrf: &str, version: i64) -> Markup {
    let form = |action: &str, fields: Markup| hub_form(id, csrf, version, action, fields);
    html! {
        h3 { "Results" }
        @if hub.awaiting.is_empty() {
            p.muted { "No match played so far is waiting for its result." }
        } @else {
            (form("result", html! {
                label for="result-fixture" { "Match" }
                select #result-fixture name="fixture" {
                    @for (d, c, f) in &hub.awaiting {
                        option value={ (f) "\t" (c) } { (day(*d)) " " (f) " (" (c) ")" }
                    }
                }
                label for="result-score" { "Score, home first (for example 3-1 or 2.5-1.5)" }
                input #result-score name="score" required inputmode="decimal";
                label for="result-winner" { "For a cup tie the score does not decide (level on points, or a handicap): the team that went through" }
                select #result-winner name="winner" {
                    option value="" { "(the score decides it)" }
                    @for t in &hub.teams { option { (t) } }
                }
                @if hub.penalties.forfeits_exclude.is_some() {
                    label for="result-forfeit" { "The team that forfeited the match, if one did" }
                    select #result-forfeit name="forfeit" {
                        option value="" { "(none)" }
                        @for t in &hub.teams { option { (t) } }
                    }
                }
                button type="submit" { "Record the result" }
            }))
            form.upload method="post" action={ "/leagues/" (id) "/hub" } {
                (hub_fields(csrf, version, "results"))
                label for="resultsFile" { "Or import results: one line per match with division, home team, away team, date and score (the LMS fixture file with the score added)" }
                input #resultsFile type="file" accept=".csv,text/csv,text/plain";
                label for="results" { "or paste them" }
                textarea #results name="results" rows="3" spellcheck="false" {}
                button type="submit" { "Import the results" }
            }
        }
    }
}

/// What the season's competitions ask for next: cups to draw, final pools to form (4NCL 6.3),
/// Swiss rounds to pair (6.4), play-offs among teams level (rule 12).
fn competitions(hub: &Hub, form: &dyn Fn(&str, Markup) -> Markup) -> Markup {
    html! {
        @for c in &hub.undrawn {
            h3 { (c) }
            (form("cup", html! {
                input type="hidden" name="cup" value=(c);
                button type="submit" { "Draw the " (c) }
            }))
        }
        @for division in &hub.pools_due {
            h3 { "Final pools of " (division) }
            p { "Every preliminary result is in: the top half of each pool plays for the championship, the rest to stay up (rule 6.3)." }
            (form("final_pools", html! {
                input type="hidden" name="division" value=(division);
                button type="submit" { "See the final pools" }
            }))
        }
        @for (division, round) in &hub.swiss_due {
            h3 { "Round " (round) " of " (division) }
            p { "Every earlier result is in: the round is paired by match points, then game points, no two teams meeting twice (a Swiss tournament)." }
            (form("swiss_round", html! {
                input type="hidden" name="division" value=(division);
                button type="submit" { "See round " (round) "'s pairings" }
            }))
        }
        @for (team, forfeits) in &hub.excluded {
            h3 { "Exclude " (team) }
            p { (team) " has forfeited " (forfeits) " match" @if *forfeits != 1 { "es" } ": after " (hub.penalties.forfeits_exclude.unwrap_or(0)) " a team is excluded from the competition (GTCL rule 8.4). Its results are struck out and its remaining fixtures cancelled, as for a team that withdraws." }
            (form("withdraw", html! {
                input type="hidden" name="team" value=(team);
                button type="submit" { "See the change" }
            }))
        }
        @for (division, teams, points) in &hub.level {
            h3 { "Play-off in " (division) }
            p { (teams.join(", ")) " finished level on " (points) " match points, and nothing in the table separates them (rule 12)." }
            (form("play_off", html! {
                fieldset {
                    legend { "The teams it settles (untick those whose place does not matter)" }
                    @for t in teams { label.check { input type="checkbox" name="team" value=(t) checked; " " (t) } }
                }
                button type="submit" { "See the play-off" }
            }))
        }
    }
}

/// The changes to the list: moves, postponement, withdrawal, replay, and what the competitions
/// ask for next.
fn changes(id: &str, hub: &Hub, csrf: &str, version: i64) -> Markup {
    let form = |action: &str, fields: Markup| hub_form(id, csrf, version, action, fields);
    html! {
        @if !hub.to_come.is_empty() {
            h3 { "Move a match" }
            form method="get" action={ "/leagues/" (id) "/moves" } {
                label for="move-fixture" { "Match" }
                select #move-fixture name="fixture" {
                    @for (d, f) in &hub.to_come { option value=(f) { (day(*d)) " " (f) } }
                }
                label for="move-agreed" { "The day the clubs agreed it (rule 2.6)" }
                input #move-agreed name="agreed" type="date" value=(hub.today);
                button type="submit" { "Show the dates it can move to" }
            }
            h3 { "Postpone a match" }
            (form("postpone", html! {
                label for="postpone-fixture" { "Match" }
                select #postpone-fixture name="fixture" {
                    @for (d, f) in &hub.to_come { option value=(f) { (day(*d)) " " (f) } }
                }
                label for="postpone-to" { "New date (leave empty for the best date from tomorrow)" }
                input #postpone-to name="to" type="date" min=(hub.today.succ_opt().unwrap_or(hub.today));
                button type="submit" { "See the change" }
            }))
        }
        h3 { "A team withdraws" }
        p.help { "Rule 11.2: every result of a withdrawn team is struck out, matches already played too, and its remaining fixtures are cancelled. The rest of the league stays where it is as far as it can." }
        (form("withdraw", html! {
            label for="withdraw-team" { "Team" }
            select #withdraw-team name="team" { @for t in &hub.teams { option { (t) } } }
            button type="submit" { "See the change" }
        }))
        @if !hub.played.is_empty() {
            h3 { "Replay a match" }
            p.help { "Rule 6.2.2: after a serious default the match is replayed, on a date convenient to the side defaulted against." }
            (form("replay", html! {
                label for="replay-fixture" { "Match" }
                select #replay-fixture name="fixture" {
                    @for (d, f) in &hub.played { option value=(f) { (day(*d)) " " (f) } }
                }
                label for="replay-against" { "The side defaulted against" }
                select #replay-against name="against" { @for t in &hub.teams { option { (t) } } }
                label for="replay-date" { "Date set by the Tournament Controller (leave empty for the first convenient date)" }
                input #replay-date name="date" type="date";
                label.check { input type="checkbox" name="permitted" value="yes"; " The Fixtures Secretary permits a date after the season's end (rule 2.1)" }
                button type="submit" { "See the change" }
            }))
        }
        (competitions(hub, &form))
    }
}

/// Each division's table, with the penalties in force on its teams (each with a form that
/// lifts it, for the secretary: `csrf` and the league's version).
fn tables(id: &str, hub: &Hub, secretary: Option<(&str, i64)>) -> Markup {
    let shown =
        |t: &super::hub::Table| t.rows.iter().any(|r| r.played > 0) || !t.penalties.is_empty();
    html! {
        @if hub.tables.iter().any(shown) {
            h3 { "Tables" }
            @for t in hub.tables.iter().filter(|t| shown(t)) {
                @let deducted = t.rows.iter().any(|r| r.deducted > 0);
                div.scroll tabindex="0" {
                    table {
                        caption { (t.division) }
                        thead { tr {
                            th scope="col" { "Team" } th scope="col" { "Played" } th scope="col" { "Won" }
                            th scope="col" { "Drawn" } th scope="col" { "Lost" }
                            @if deducted { th scope="col" { "Points taken off" } }
                            th scope="col" { "Points" } th scope="col" { "Game points" }
                        } }
                        tbody { @for r in &t.rows { tr {
                            th scope="row" { (r.team) } td { (r.played) } td { (r.won) } td { (r.drawn) } td { (r.lost) }
                            @if deducted { td { @if r.deducted > 0 { "−" (r.deducted) } } }
                            td { (r.points) } td { (r.game_points) }
                        } } }
                    }
                }
                p.muted { (t.placed_by) }
                @if !t.penalties.is_empty() {
                    p { "Penalties:" }
                    ul {
                        @for (number, words) in &t.penalties {
                            li {
                                "Penalty " (number) ": " (words)
                                @if let Some((csrf, version)) = secretary {
                                    details {
                                        summary { "Lift penalty " (number) }
                                        (hub_form(id, csrf, version, "lift_penalty", html! {
                                            input type="hidden" name="number" value=(number);
                                            label for={ "lift-why-" (number) } { "Why it is lifted" }
                                            input id={ "lift-why-" (number) } name="why" required maxlength="300";
                                            button type="submit" { "Lift penalty " (number) }
                                        }))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The published versions, newest first, each with what made it.
fn versions(hub: &Hub) -> Markup {
    html! {
        h3 { "Published versions" }
        ul {
            @for p in hub.versions.iter().rev() {
                li {
                    a href={ "/p/" (p.id) "/" } { "Version " (p.number) } ", " (day(p.on))
                    @if let Some(by) = &hub.secretary { " by " (by) }
                    @if let Some(w) = &p.what { ": " (w) }
                    @if p.number > 1 { " (" a href={ "/p/" (p.id) "/changes.csv" } { "its changes" } ")" }
                }
            }
        }
    }
}

/// The solves with their drafts: each draft's own report, and the comparison.
fn solves(hub: &Hub, secretary: bool) -> Markup {
    html! {
        @if !hub.solves.is_empty() {
            h3 { "Solves and drafts" }
            ul {
                @for s in &hub.solves {
                    li {
                        "Solved " (day(s.on))
                        @if let Some(b) = s.breaks { " (" (b) " times a team plays two home or two away matches in a row)" }
                        ": "
                        @if s.drafts > 1 {
                            @for n in 1..=s.drafts {
                                a href={ "/api/jobs/" (s.job) "/drafts/" (n) "/report/" } { "draft " (n) } " · "
                            }
                            a href={ "/api/jobs/" (s.job) "/compare" } {
                                @if secretary { "compare them and choose" } @else { "compare them" }
                            }
                        } @else {
                            a href={ "/api/jobs/" (s.job) "/report/" } { "its list" }
                        }
                    }
                }
            }
        }
    }
}

/// The log, newest first.
fn log(hub: &Hub) -> Markup {
    let (recent, earlier) = hub.log.split_at(hub.log.len().min(RECENT));
    html! {
        @if !hub.log.is_empty() {
            h3 { "What happened" }
            (log_table(recent))
            @if !earlier.is_empty() {
                details {
                    summary { "Earlier (" (earlier.len()) ")" }
                    (log_table(earlier))
                }
            }
        }
    }
}

/// Steps of the log shown before the rest folds away (a season has hundreds of results).
const RECENT: usize = 10;

/// Steps of the log as a table.
fn log_table(steps: &[super::hub::Step]) -> Markup {
    html! {
        div.scroll tabindex="0" {
            table {
                thead { tr { th scope="col" { "Date" } th scope="col" { "What" } th scope="col" { "Why it stands" } } }
                tbody {
                    @for s in steps {
                        tr { td { (day(s.on)) } td { strong { (s.kind) } ": " (s.what) } td { (s.why) } }
                    }
                }
            }
        }
    }
}

/// What an action would publish, before it does: what it does, why it stands, every fixture
/// it changes, and a button that publishes it (the same form again, confirmed).
pub(crate) struct Preview<'a> {
    pub(crate) id: &'a str,
    pub(crate) league: &'a str,
    pub(crate) what: &'a str,
    pub(crate) why: &'a str,
    pub(crate) changes: Vec<String>,
    pub(crate) number: i64,
    /// The posted form's fields, sent again with `confirm`.
    pub(crate) fields: &'a [(String, String)],
}

/// The preview page.
pub(crate) fn preview_page(p: &Preview<'_>) -> String {
    let body = html! {
        nav.row { a href={ "/leagues/" (p.id) "#season" } { "Back to the league" } }
        h1 { "Check before publishing" }
        p { (super::forms::capitalised(p.what)) }
        p.muted { (super::forms::capitalised(p.why)) }
        h2 { "What changes for the clubs" }
        @if p.changes.is_empty() {
            p { "No fixture moves." }
        } @else {
            ul #changes { @for c in &p.changes { li { (c) } } }
        }
        form method="post" action={ "/leagues/" (p.id) "/hub" } {
            @for (k, v) in p.fields { input type="hidden" name=(k) value=(v); }
            input type="hidden" name="confirm" value="yes";
            button type="submit" #publish { "Publish as version " (p.number) }
        }
        p { a href={ "/leagues/" (p.id) "#season" } { "Cancel: change nothing" } }
    };
    super::forms::page(&format!("{}: check before publishing", p.league), body)
}

/// The moves page's content.
pub(crate) struct Moves<'a> {
    pub(crate) id: &'a str,
    pub(crate) csrf: &'a str,
    pub(crate) version: i64,
    pub(crate) fixture: &'a str,
    /// Its date now.
    pub(crate) now: NaiveDate,
    /// When the clubs agreed the move.
    pub(crate) agreed: NaiveDate,
    pub(crate) offers: &'a [super::season::Offer],
}

/// How a date compares with the list now, in words.
fn against(change: f64) -> String {
    if change < -0.5 {
        format!("better by {:.0}", -change)
    } else if change > 0.5 {
        format!("worse by {change:.0}")
    } else {
        "the same".into()
    }
}

/// Every date a match can move to, best first, each with a button that previews the move.
pub(crate) fn moves_page(m: &Moves<'_>) -> String {
    let body = html! {
        nav.row { a href={ "/leagues/" (m.id) "#season" } { "Back to the league" } }
        h1 { "Move " (m.fixture) }
        p { "Now on " (day(m.now)) ". Every date below keeps every rule; the best first. Agreed on " (day(m.agreed)) "." }
        @if m.offers.is_empty() {
            p { "No date from tomorrow keeps every rule." }
        } @else {
            div.scroll tabindex="0" { table #moves {
                thead { tr {
                    th scope="col" { "Date" } th scope="col" { "Against the list now" }
                    th scope="col" { "What it costs or gains" } th scope="col" { "Rule 2.6" } th scope="col" { "" }
                } }
                tbody { @for o in m.offers {
                    @let allowed = o.window.as_ref().is_none_or(|w| w.0 != "invalid");
                    @let exceptional = o.window.as_ref().is_some_and(|w| w.0 == "exceptional");
                    tr {
                        td { (day(o.date)) }
                        td { (against(o.change)) }
                        td { (if o.costs.is_empty() { "nothing changes for either team".to_string() } else { o.costs.join("; ") }) }
                        td { (o.window.as_ref().map_or("", |w| w.1.as_str())) }
                        td { @if allowed {
                            form method="post" action={ "/leagues/" (m.id) "/hub" } {
                                (hub_fields(m.csrf, m.version, "move"))
                                input type="hidden" name="fixture" value=(m.fixture);
                                input type="hidden" name="to" value=(o.date);
                                input type="hidden" name="agreed" value=(m.agreed);
                                @if exceptional { input type="hidden" name="exceptional" value="yes"; }
                                button type="submit" .move-here data-date=(o.date) {
                                    @if exceptional { "Move here (the committee allows it)" } @else { "Move here" }
                                }
                            }
                        } }
                    }
                } }
            } }
        }
    };
    super::forms::page(&format!("move {}", m.fixture), body)
}
