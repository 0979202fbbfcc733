//! Hostile input: every file of `tests/corpus/` gets exit 1 and a message naming the file,
//! never a panic; enormous leagues are refused; and a mutation fuzzer over the league-file and
//! CSV readers finds no panic (`FUZZ_SECONDS=600 cargo test --release --test hostile fuzz`
//! fuzzes for ten minutes: `scripts/fuzz`). An input that once panicked is saved into
//! `tests/corpus/found/`, so it stays a regression test.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_fixtures");
const MID_DOWNS: &str = include_str!("../instances/examples/mid-downs.toml");

fn corpus(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(kind);
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

fn run(args: &[&str]) -> (i32, String) {
    let o = Command::new(BIN).args(args).output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code().unwrap_or(-1), text)
}

#[test]
fn every_bad_league_file_exits_1_naming_the_file() {
    let files = corpus("league");
    assert!(files.len() >= 15);
    for f in files {
        let path = f.to_str().unwrap();
        let (code, text) = run(&["solve", path, "--time-limit", "2", "--threads", "1"]);
        assert_eq!(code, 1, "{path}: {text}");
        assert!(
            text.starts_with("error: ") && text.contains(path),
            "{path}: {text}"
        );
        assert!(!text.contains("panicked"), "{path}: {text}");
    }
}

#[test]
fn every_bad_fixture_list_exits_1_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let league = dir.path().join("league.toml");
    std::fs::write(&league, MID_DOWNS).unwrap();
    for f in corpus("csv") {
        let path = f.to_str().unwrap();
        let (code, text) = run(&["check", league.to_str().unwrap(), path]);
        assert_eq!(code, 1, "{path}: {text}");
        assert!(
            text.contains(path) || text.contains("VIOLATION"),
            "{path}: {text}"
        );
        assert!(!text.contains("panicked"), "{path}: {text}");
    }
}

/// Inputs the fuzzer once found panicking: now they run to an ordinary end (any exit status the
/// spec names, with a message), never a panic or an internal error.
#[test]
fn inputs_that_once_panicked_end_normally() {
    let dir = tempfile::tempdir().unwrap();
    let league = dir.path().join("league.toml");
    std::fs::write(&league, MID_DOWNS).unwrap();
    for f in corpus("found") {
        let path = f.to_str().unwrap();
        let (code, text) = if path.ends_with(".csv") {
            run(&["check", league.to_str().unwrap(), path])
        } else {
            run(&["solve", path, "--time-limit", "0.5", "--threads", "1"])
        };
        assert!((0..=3).contains(&code), "{path}: exit {code}: {text}");
        assert!(!text.contains("panicked"), "{path}: {text}");
    }
}

fn many_teams(teams: usize, per_division: usize) -> String {
    let mut t = String::from(
        "name = \"Huge\"\nstart = 2026-10-05\nend = 2027-05-28\n\n[[venue]]\nname = \"Hall\"\n\n[[club]]\nname = \"C\"\nvenue = \"Hall\"\nnights = [\"Mon\"]\n\n",
    );
    for d in 0..teams.div_ceil(per_division) {
        t += &format!("[[division]]\nname = \"D{d}\"\n\n");
    }
    for i in 0..teams {
        t += &format!(
            "[[team]]\nname = \"T{i}\"\nclub = \"C\"\ndivision = \"D{}\"\n\n",
            i / per_division
        );
    }
    t
}

#[test]
fn enormous_leagues_are_refused_before_any_model_is_built() {
    let e = fixtures::model::parse_league(&many_teams(10_000, 10), "huge.toml").unwrap_err();
    assert!(e.to_string().contains("10000 teams"), "{e}");
    assert!(
        e.to_string().contains("more than 2000 teams are refused"),
        "{e}"
    );
    let e = fixtures::model::parse_league(&many_teams(300, 300), "big.toml").unwrap_err();
    assert!(e.to_string().contains("44850 fixtures"), "{e}");
    assert!(e.to_string().contains("big.toml:"), "{e}");
}

/// A small deterministic generator (no dependency needed for a fuzzer this simple).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const TOKENS: &[&str] = &[
    "[[team]]",
    "[[club]]",
    "[[venue]]",
    "[[division]]",
    "[[fixed]]",
    "[[excluded]]",
    "[rules]",
    "[weights]",
    "[colours]",
    "name = ",
    "\"",
    "=",
    "[",
    "]",
    "{",
    "}",
    ",",
    "\n",
    "2026-02-30",
    "2027-01-01",
    "0001-01-01",
    "9999-12-31",
    "-1",
    "0",
    "1e308",
    "nan",
    "inf",
    "true",
    "\"Mon\"",
    "nights = [\"Mon\"]",
    "home_dates = []",
    "capacity = 0",
    "format = \"double\"",
    "{ from = 2027-01-01, to = 2026-01-01 }",
    "min_days_between = 0",
    "\u{0}",
    "é",
    "#",
];

fn mutate(rng: &mut Rng, base: &[u8]) -> Vec<u8> {
    let mut v = base.to_vec();
    for _ in 0..1 + rng.below(6) {
        let at = rng.below(v.len() + 1);
        match rng.below(6) {
            0 => {
                let end = (at + rng.below(40)).min(v.len());
                v.drain(at..end);
            }
            1 => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                v.splice(at..at, t.iter().copied());
            }
            2 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] = rng.next() as u8;
            }
            3 => {
                // Duplicate a slice (a table or a line twice).
                let end = (at + rng.below(120)).min(v.len());
                let piece: Vec<u8> = v[at..end].to_vec();
                v.splice(at..at, piece);
            }
            4 => v.truncate(at),
            _ => {
                let d = (b'0' + rng.below(10) as u8) as char;
                if let Some(i) = v.iter().skip(at).position(|b| b.is_ascii_digit()) {
                    v[at + i] = d as u8;
                }
            }
        }
    }
    v
}

/// Saves an input that panicked into the corpus, so it stays a regression test.
fn keep(kind: &str, ext: &str, input: &[u8]) -> PathBuf {
    let hash = input.iter().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ *b as u64).wrapping_mul(0x100000001b3)
    });
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus/found")
        .join(format!("{kind}-{hash:016x}.{ext}"));
    let _ = std::fs::write(&p, input);
    p
}

#[test]
fn fuzz_the_readers() {
    // By default a few thousand inputs (a second or two); FUZZ_SECONDS for a long run.
    let budget = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse::<u64>().ok());
    let deadline = Instant::now() + Duration::from_secs(budget.unwrap_or(3600));
    let cases = if budget.is_some() { u64::MAX } else { 3000 };
    let seed = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x9E37_79B9_7F4A_7C15u64);
    let mut rng = Rng(seed | 1);
    let league = fixtures::model::parse_league(MID_DOWNS, "mid-downs.toml").unwrap();
    let csv = {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/valid-mid-downs.csv");
        std::fs::read(path).unwrap()
    };
    let mut n = 0u64;
    while n < cases && Instant::now() < deadline {
        n += 1;
        let input = mutate(&mut rng, MID_DOWNS.as_bytes());
        let text = String::from_utf8_lossy(&input).into_owned();
        let solve_it = n.is_multiple_of(64);
        let ok = std::panic::catch_unwind(|| {
            // A league that still reads is modelled, and now and then solved briefly.
            if let Ok(lg) = fixtures::model::parse_league(&text, "fuzz.toml") {
                let none = fixtures::model::Rerun::default();
                let cand = fixtures::formulate::candidates(&lg, &none);
                if fixtures::formulate::precheck::impossible(&lg, &cand).is_empty() {
                    let _ = fixtures::formulate::build(&lg, &cand, &lg.weights);
                }
                if solve_it {
                    let opts = fixtures::solve::Options {
                        time_limit: 0.5,
                        threads: 1,
                        ..Default::default()
                    };
                    let _ = fixtures::solve::solve(&lg, &opts);
                }
            }
        });
        if ok.is_err() {
            panic!(
                "league reader panicked; input kept as {}",
                keep("league", "toml", &input).display()
            );
        }
        let input = mutate(&mut rng, &csv);
        let ok = std::panic::catch_unwind(|| {
            if let Ok(list) = fixtures::check::parse_fixtures(&league, input.as_slice(), "fuzz.csv")
            {
                let _ = fixtures::check::check(&league, &list);
            }
        });
        if ok.is_err() {
            panic!(
                "CSV reader panicked; input kept as {}",
                keep("csv", "csv", &input).display()
            );
        }
    }
    eprintln!("fuzz: {n} league files and {n} fixture lists, no panic");
}
