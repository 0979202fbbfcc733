//! `fixtures season`: a season driven from the shell through one season file (JSON) that holds
//! every league version, published list, result, cup draw and change (`season::record`).

use super::{load, CliError, SearchArgs};
use chrono::NaiveDate;
use fixtures::files::write_atomically;
use fixtures::season::record::{Season, SeasonError, MAX_BYTES};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Run a season from one file: start it from a league file and its fixture list (or a solve),
/// then enter results, draw the cups, postpone, change, withdraw, play off and replay. Each
/// step writes the season file again with a new checked version and a log entry; nothing
/// dated before --today moves.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Start a season file from a league file and its published list (or solve one).
    Start(StartArgs),
    /// Where the season stands: versions, results awaited, next fixtures, cups, tables.
    Show(At),
    /// Every entry of the season's log, with what changed.
    Log(At),
    /// The matches played before today that await a result, one a line: date, competition,
    /// "HOME v AWAY", tab-separated.
    Awaiting(At),
    /// Write the league file and the fixture list in force.
    Export(ExportArgs),
    /// Enter a result: "HOME v AWAY" and the score (2½-1½).
    Result(ResultArgs),
    /// Postpone a fixture to a date (default: the best date that keeps every rule).
    Postpone(PostponeArgs),
    /// A change the clubs agreed (rule 2.6), judged by its windows.
    Change(ChangeArgs),
    /// A team withdraws (rule 11.2): the league is rerun from today.
    Withdraw(RerunArgs),
    /// A team cannot play on a date (TEAM=DATE): the league is rerun from today.
    Unavailable(RerunArgs),
    /// Draw a cup and place its known ties.
    Cup(CupArgs),
    /// Play-offs among teams level in a finished table (rule 12).
    Playoff(PlayoffArgs),
    /// Form a 4NCL division's final pools once every preliminary result is in (rule 6.3),
    /// and place their rounds.
    Pools(PoolsArgs),
    /// Pair a Swiss division's next round once every earlier result is in (4NCL rule 6.4).
    Swiss(PoolsArgs),
    /// Replay a match after a serious default (rule 6.2.2); the league's `[penalties]
    /// serious_default` takes match points off the defaulting team (rule 6.2.1).
    Replay(ReplayArgs),
    /// A penalty for defaults (Sussex rule 6.1, 4NCL rule 10): boards defaulted, default
    /// points or match points; the tables take it off.
    Penalty(PenaltyArgs),
    /// Lift a penalty (an appeal upheld, a mistake put right): it stays in the log.
    LiftPenalty(LiftArgs),
}

/// The season file, and today.
#[derive(clap::Args)]
struct At {
    /// The season file.
    season: PathBuf,
    /// Today's date (default: the real date): fixtures before it are played and never move.
    #[arg(long)]
    today: Option<String>,
}

#[derive(clap::Args)]
struct StartArgs {
    #[command(flatten)]
    at: At,
    /// The league file (TOML).
    league: PathBuf,
    /// The published fixture list (CSV); without it the league is solved.
    #[arg(long)]
    fixtures: Option<PathBuf>,
    /// Seconds for the solve.
    #[arg(long, default_value_t = 20.0)]
    time_limit: f64,
    #[command(flatten)]
    search: SearchArgs,
}

#[derive(clap::Args)]
struct ExportArgs {
    #[command(flatten)]
    at: At,
    /// The folder to write league.toml and fixtures.csv into.
    #[arg(short, long)]
    output: PathBuf,
}

#[derive(clap::Args)]
struct ResultArgs {
    #[command(flatten)]
    at: At,
    /// The match, "HOME v AWAY".
    fixture: String,
    /// The score in game points, home first: 2½-1½, 3-1.
    score: String,
    /// The division or cup, when the teams have more than one match awaiting a result.
    #[arg(long)]
    competition: Option<String>,
    /// A cup tie its score does not decide (level on game points, or won on a handicap,
    /// Sussex KO rule 9): the team that went through.
    #[arg(long)]
    winner: Option<String>,
    /// The team that forfeited the match (GTCL rule 8.4: a 4-0 defeat; the league's
    /// `[penalties] forfeits_exclude` says after how many a team is excluded).
    #[arg(long)]
    forfeit: Option<String>,
}

#[derive(clap::Args)]
struct PostponeArgs {
    #[command(flatten)]
    at: At,
    /// The fixture, "HOME v AWAY".
    fixture: String,
    /// The new date (default: the best date from tomorrow that keeps every rule).
    #[arg(long)]
    to: Option<String>,
}

#[derive(clap::Args)]
struct ChangeArgs {
    #[command(flatten)]
    at: At,
    /// The fixture, "HOME v AWAY".
    fixture: String,
    #[command(flatten)]
    agreement: super::change::Agreement,
}

#[derive(clap::Args)]
struct RerunArgs {
    #[command(flatten)]
    at: At,
    /// The team (withdraw), or TEAM=DATE (unavailable); repeat for several.
    #[arg(required = true)]
    items: Vec<String>,
    /// Seconds for the rerun.
    #[arg(long, default_value_t = 20.0)]
    time_limit: f64,
    #[command(flatten)]
    search: SearchArgs,
}

#[derive(clap::Args)]
struct CupArgs {
    #[command(flatten)]
    at: At,
    /// The cup's name.
    cup: String,
    /// The draw's seed: the same seed gives the same tree.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

#[derive(clap::Args)]
struct PlayoffArgs {
    #[command(flatten)]
    at: At,
    /// The teams level on match points (two or more).
    #[arg(required = true, num_args = 2..)]
    teams: Vec<String>,
}

#[derive(clap::Args)]
struct PoolsArgs {
    #[command(flatten)]
    at: At,
    /// The division (played in pools, or Swiss).
    #[arg(long)]
    division: String,
}

#[derive(clap::Args)]
struct ReplayArgs {
    #[command(flatten)]
    at: At,
    /// The defaulted match, "HOME v AWAY".
    fixture: String,
    /// The team defaulted against.
    #[arg(long)]
    defaulted_against: String,
    /// The date the Tournament Controller or the Fixtures Secretary sets (default: the first
    /// convenient to the team defaulted against).
    #[arg(long)]
    date: Option<String>,
    /// The Fixtures Secretary permits a date after the season's end (rule 2.1); the league
    /// version records it.
    #[arg(long)]
    permitted: bool,
}

#[derive(clap::Args)]
struct PenaltyArgs {
    #[command(flatten)]
    at: At,
    /// The team penalised.
    team: String,
    /// Boards it defaulted (numbered from 1), priced by the league's `[penalties]
    /// board_points`: 2,4.
    #[arg(long, value_delimiter = ',')]
    boards: Vec<u32>,
    /// Default points (besides the boards').
    #[arg(long, default_value_t = 0)]
    default_points: u32,
    /// Match points taken off outright.
    #[arg(long, default_value_t = 0)]
    match_points: u32,
    /// Why: the match and the rule.
    #[arg(long)]
    why: String,
}

#[derive(clap::Args)]
struct LiftArgs {
    #[command(flatten)]
    at: At,
    /// The penalty's number, as the log gives it.
    number: usize,
    /// Why it is lifted.
    #[arg(long)]
    why: String,
}

/// A date argument (YYYY-MM-DD), for clap.
pub(crate) fn parse_day(text: &str) -> Result<NaiveDate, String> {
    fixtures::model::parse_iso_date(text.trim())
        .ok_or_else(|| format!("\"{text}\" is not a date (YYYY-MM-DD)"))
}

fn date(flag: &str, text: &str) -> Result<NaiveDate, CliError> {
    fixtures::model::parse_iso_date(text.trim()).ok_or_else(|| {
        CliError::input(format!(
            "error: {flag}: \"{text}\" is not a date (YYYY-MM-DD)"
        ))
    })
}

impl At {
    /// --today, else the real date (UTC).
    fn today(&self) -> Result<NaiveDate, CliError> {
        match &self.today {
            Some(t) => date("--today", t),
            None => {
                let secs = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs());
                Ok(NaiveDate::default() + chrono::Days::new(secs / 86_400))
            }
        }
    }

    fn read(&self) -> Result<Season, CliError> {
        let at = |e: String| CliError::input(format!("error: {}: {e}", self.season.display()));
        let file = std::fs::File::open(&self.season).map_err(|e| at(e.to_string()))?;
        let mut text = String::new();
        file.take(MAX_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(|e| at(e.to_string()))?;
        if text.len() as u64 > MAX_BYTES {
            return Err(at(format!("larger than {} MiB", MAX_BYTES >> 20)));
        }
        Season::from_json(&text).map_err(|e| at(e.to_string()))
    }

    fn write(&self, season: &Season) -> Result<(), CliError> {
        write_atomically(&self.season, season.to_json()).map_err(|e| {
            CliError::input(format!(
                "error: cannot write {}: {e}",
                self.season.display()
            ))
        })
    }

    /// Reads the season, applies `op`, prints the log entries it added and writes it.
    fn apply(
        &self,
        op: impl FnOnce(&mut Season, NaiveDate) -> Result<(), SeasonError>,
    ) -> Result<(), CliError> {
        let today = self.today()?;
        let mut season = self.read()?;
        let before = season.log.len();
        op(&mut season, today).map_err(refused)?;
        for e in &season.log[before..] {
            print_entry(e);
        }
        self.write(&season)
    }
}

/// A refusal (exit 2) or bad input (exit 1), in the season's words.
fn refused(e: SeasonError) -> CliError {
    match e {
        SeasonError::Input(m) if m.starts_with("error") => CliError::input(m),
        SeasonError::Input(m) => CliError::input(format!("error: {m}")),
        SeasonError::Refused(v) => CliError {
            code: super::EXIT_INFEASIBLE,
            lines: std::iter::once("error: refused; the season is unchanged:".to_string())
                .chain(v.into_iter().map(|l| format!("  {l}")))
                .collect(),
        },
        SeasonError::Failure(f) => CliError::failure("error: ", &f),
        e @ SeasonError::Exceptional(_) => CliError {
            code: super::EXIT_INFEASIBLE,
            lines: vec![
                "error: refused; the season is unchanged:".to_string(),
                format!("  {e}"),
            ],
        },
    }
}

fn print_entry(e: &fixtures::season::record::Entry) {
    let version = e
        .list
        .map(|v| format!(" -> version {v}"))
        .unwrap_or_default();
    println!("{} {}: {}{version}", e.entered, e.kind.as_str(), e.what);
    if let Some(a) = e.agreed {
        println!("  agreed {a}");
    }
    println!("  {}", e.verdict);
    for c in &e.changes {
        let show = |d: Option<NaiveDate>| d.map_or("-".to_string(), |d| d.to_string());
        println!(
            "  {} {} {}: {} -> {} ({})",
            c.status,
            c.competition,
            c.fixture,
            show(c.old),
            show(c.new),
            c.reason
        );
    }
}

/// Runs `season`.
pub fn run(a: Args) -> Result<(), CliError> {
    match a.command {
        Command::Start(s) => start(s),
        Command::Show(at) => super::season_show::show(&at.read()?, at.today()?),
        Command::Log(at) => {
            for e in &at.read()?.log {
                print_entry(e);
            }
            Ok(())
        }
        Command::Awaiting(at) => {
            let season = at.read()?;
            for (date, competition, fixture) in season.awaiting(at.today()?).map_err(refused)? {
                println!("{date}\t{competition}\t{fixture}");
            }
            Ok(())
        }
        Command::Export(x) => export(x),
        Command::Result(r) => {
            let given = fixtures::season::operate::Given {
                fixture: r.fixture,
                competition: r.competition,
                score: r.score,
                winner: r.winner,
                forfeit: r.forfeit,
            };
            r.at.apply(|s, today| s.enter(today, &given).map(|_| ()))
        }
        Command::Postpone(p) => {
            let to = p.to.as_deref().map(|t| date("--to", t)).transpose()?;
            p.at.apply(|s, today| s.postpone(today, &p.fixture, to).map(|_| ()))
        }
        Command::Change(c) => {
            let g = &c.agreement;
            let (to, agreed) = (date("--to", &g.to)?, date("--agreed", &g.agreed)?);
            c.at.apply(|s, today| {
                s.change(today, &c.fixture, to, agreed, g.exceptional)
                    .map(|_| ())
            })
        }
        Command::Withdraw(w) => {
            let opts = w.search.options(w.time_limit)?;
            w.at.apply(|s, today| s.reschedule(today, &w.items, &[], &opts).map(|_| ()))
        }
        Command::Unavailable(u) => {
            let opts = u.search.options(u.time_limit)?;
            let mut dates = Vec::new();
            for item in &u.items {
                let (t, d) = item.rsplit_once('=').ok_or_else(|| {
                    CliError::input(format!("error: \"{item}\" is not TEAM=YYYY-MM-DD"))
                })?;
                dates.push((t.trim().to_string(), date("TEAM=DATE", d)?));
            }
            u.at.apply(|s, today| s.reschedule(today, &[], &dates, &opts).map(|_| ()))
        }
        Command::Cup(c) => {
            c.at.apply(|s, today| s.draw_cup(today, &c.cup, c.seed).map(|_| ()))
        }
        Command::Playoff(p) => {
            p.at.apply(|s, today| s.play_off(today, &p.teams).map(|_| ()))
        }
        Command::Pools(p) => {
            p.at.apply(|s, today| s.final_pools(today, &p.division).map(|_| ()))
        }
        Command::Swiss(p) => {
            p.at.apply(|s, today| s.swiss_round(today, &p.division).map(|_| ()))
        }
        Command::Penalty(p) => penalty(p),
        Command::LiftPenalty(l) => {
            l.at.apply(|s, today| s.lift_penalty(today, l.number, &l.why).map(|_| ()))
        }
        Command::Replay(r) => {
            let d = r.date.as_deref().map(|d| date("--date", d)).transpose()?;
            r.at.apply(|s, today| {
                s.replay(today, &r.fixture, &r.defaulted_against, d, r.permitted)
                    .map(|_| ())
            })
        }
    }
}

fn start(s: StartArgs) -> Result<(), CliError> {
    if s.at.season.exists() {
        return Err(CliError::input(format!(
            "error: {} exists: a season is started once (its log keeps everything after)",
            s.at.season.display()
        )));
    }
    let today = s.at.today()?;
    let text = std::fs::read_to_string(&s.league)
        .map_err(|e| CliError::input(format!("error: cannot read {}: {e}", s.league.display())))?;
    let csv = match &s.fixtures {
        Some(p) => std::fs::read_to_string(p)
            .map_err(|e| CliError::input(format!("error: cannot read {}: {e}", p.display())))?,
        None => {
            let league = load(&s.league)?;
            let opts = s.search.options(s.time_limit)?;
            let prefix = format!("{}: ", s.league.display());
            let solution = fixtures::pipeline::solve(&league, &opts)
                .map_err(|f| CliError::failure(&prefix, &f))?;
            solution.checked.csv().to_string()
        }
    };
    let file = s.league.display().to_string();
    let season = Season::start(&text, &file, &csv, today).map_err(refused)?;
    print_entry(&season.log[0]);
    s.at.write(&season)
}

fn penalty(p: PenaltyArgs) -> Result<(), CliError> {
    let given = fixtures::season::penalties::Given {
        team: p.team,
        boards: p.boards,
        default_points: p.default_points,
        match_points: p.match_points,
        why: p.why,
    };
    p.at.apply(|s, today| s.penalise(today, &given).map(|_| ()))
}

fn export(x: ExportArgs) -> Result<(), CliError> {
    let season = x.at.read()?;
    std::fs::create_dir_all(&x.output)
        .map_err(|e| CliError::input(format!("error: cannot make {}: {e}", x.output.display())))?;
    let write = |name: &str, text: &str| {
        let p: PathBuf = Path::new(&x.output).join(name);
        write_atomically(&p, text)
            .map_err(|e| CliError::input(format!("error: cannot write {}: {e}", p.display())))
    };
    write("league.toml", season.league_text())?;
    // The list as published: checked against this league version when it was.
    let published = season.lists.last().map_or("", |v| v.csv.as_str());
    write("fixtures.csv", published)?;
    println!(
        "wrote {0}/league.toml and {0}/fixtures.csv (version {1})",
        x.output.display(),
        season.lists.len()
    );
    Ok(())
}
