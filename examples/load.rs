//! Load client for `scripts/load`: N concurrent clients each submit jobs to a running
//! `fixtures serve` and poll them to their end; prints jobs per minute, p50/p95 latency of every
//! API request, jobs lost (accepted but never done with a valid list), 5xx answers and 429s.
//!
//! cargo run --release --example load -- BASE TOKEN LEAGUE.toml CLIENTS JOBS_PER_CLIENT TIME_LIMIT

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Default)]
struct Tally {
    latencies: Vec<f64>,
    server_errors: usize,
    refused: usize,
    done: usize,
    lost: usize,
    /// The largest peak memory of a solve's own process (MiB), as the jobs report it.
    solve_peak_mib: u64,
}

fn request(
    agent: &ureq::Agent,
    tally: &Mutex<Tally>,
    method: &str,
    url: &str,
    token: &str,
    body: Option<&str>,
) -> Option<(u16, String)> {
    let t = Instant::now();
    let req = agent
        .request(method, url)
        .set("Authorization", &format!("Bearer {token}"));
    let r = match body {
        Some(b) => req.send_string(b),
        None => req.call(),
    };
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    let (code, text) = match r {
        Ok(r) => (r.status(), r.into_string().unwrap_or_default()),
        Err(ureq::Error::Status(c, r)) => (c, r.into_string().unwrap_or_default()),
        Err(_) => return None,
    };
    let mut t = tally.lock().unwrap();
    t.latencies.push(ms);
    if code >= 500 {
        t.server_errors += 1;
    }
    Some((code, text))
}

fn field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let at = text.find(&format!("\"{key}\":"))? + key.len() + 3;
    let rest = text[at..].trim_start_matches('"');
    Some(rest.split(['"', ',', '}']).next().unwrap_or(""))
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() != 7 {
        eprintln!("usage: load BASE TOKEN LEAGUE.toml CLIENTS JOBS_PER_CLIENT TIME_LIMIT");
        std::process::exit(1);
    }
    let (base, token) = (a[1].clone(), a[2].clone());
    let league = std::fs::read_to_string(&a[3]).expect("league file");
    let clients: usize = a[4].parse().unwrap();
    let per_client: usize = a[5].parse().unwrap();
    let time_limit: u32 = a[6].parse().unwrap();
    let tally = Arc::new(Mutex::new(Tally::default()));
    let started = Instant::now();
    let threads: Vec<_> = (0..clients)
        .map(|c| {
            let (base, token, league, tally) =
                (base.clone(), token.clone(), league.clone(), tally.clone());
            std::thread::spawn(move || {
                let agent = ureq::AgentBuilder::new()
                    .timeout(Duration::from_secs(60))
                    .build();
                for j in 0..per_client {
                    let url = format!(
                        "{base}/api/jobs?time_limit={time_limit}&seed={}",
                        c * 100 + j
                    );
                    // Refused (429): wait as told and try again; accepted jobs are followed.
                    let id = loop {
                        match request(&agent, &tally, "POST", &url, &token, Some(&league)) {
                            Some((202, text)) => break field(&text, "id").map(String::from),
                            Some((429, _)) => {
                                tally.lock().unwrap().refused += 1;
                                std::thread::sleep(Duration::from_secs(2));
                            }
                            _ => break None,
                        }
                    };
                    let Some(id) = id else {
                        tally.lock().unwrap().lost += 1;
                        continue;
                    };
                    let end = Instant::now() + Duration::from_secs(600);
                    let ok = loop {
                        std::thread::sleep(Duration::from_millis(500));
                        let Some((code, text)) = request(
                            &agent,
                            &tally,
                            "GET",
                            &format!("{base}/api/jobs/{id}"),
                            &token,
                            None,
                        ) else {
                            continue;
                        };
                        let state = field(&text, "state").unwrap_or("").to_string();
                        if code == 200 && !["queued", "running"].contains(&state.as_str()) {
                            if let Some(p) = field(&text, "peak_mib").and_then(|p| p.parse().ok()) {
                                let mut t = tally.lock().unwrap();
                                t.solve_peak_mib = t.solve_peak_mib.max(p);
                            }
                            break state == "done" && field(&text, "valid") == Some("true");
                        }
                        if Instant::now() > end {
                            break false;
                        }
                    };
                    let csv = request(
                        &agent,
                        &tally,
                        "GET",
                        &format!("{base}/api/jobs/{id}/fixtures.csv"),
                        &token,
                        None,
                    );
                    let mut t = tally.lock().unwrap();
                    if ok && matches!(csv, Some((200, ref body)) if body.starts_with("date,")) {
                        t.done += 1;
                    } else {
                        t.lost += 1;
                    }
                }
            })
        })
        .collect();
    for t in threads {
        let _ = t.join();
    }
    let minutes = started.elapsed().as_secs_f64() / 60.0;
    let mut t = tally.lock().unwrap();
    t.latencies.sort_by(f64::total_cmp);
    let pct = |p: f64| {
        t.latencies
            .get(((t.latencies.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    println!(
        "jobs={} done={} lost={} 5xx={} refused_429={} minutes={:.2} jobs_per_minute={:.1} requests={} p50_ms={:.1} p95_ms={:.1} solve_peak_mib={}",
        clients * per_client,
        t.done,
        t.lost,
        t.server_errors,
        t.refused,
        minutes,
        t.done as f64 / minutes,
        t.latencies.len(),
        pct(0.5),
        pct(0.95),
        t.solve_peak_mib
    );
    if t.lost > 0 || t.server_errors > 0 {
        std::process::exit(1);
    }
}
