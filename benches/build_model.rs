//! Criterion benchmark of model building: candidate slots and the MIP for the Sussex instance,
//! with and without the quality terms. `cargo bench --bench build_model`.

use criterion::{criterion_group, criterion_main, Criterion};
use fixtures::formulate::{build, candidates};
use fixtures::model::{parse_league, Rerun, Weights};
use std::hint::black_box;

fn model_building(c: &mut Criterion) {
    let text = include_str!("../instances/sussex-2026-7.toml");
    let league = parse_league(text, "sussex-2026-7.toml").expect("the instance parses");
    let none = Rerun::default();
    let cand = candidates(&league, &none);
    c.bench_function("parse sussex", |b| {
        b.iter(|| parse_league(black_box(text), "sussex"))
    });
    c.bench_function("candidates sussex", |b| {
        b.iter(|| candidates(black_box(&league), &none))
    });
    c.bench_function("build sussex, rules only", |b| {
        b.iter(|| {
            build(&league, &cand, &Weights::avoid_only())
                .constraints
                .len()
        })
    });
    c.bench_function("build sussex, full objective", |b| {
        b.iter(|| build(&league, &cand, &league.weights).constraints.len())
    });
}

criterion_group!(benches, model_building);
criterion_main!(benches);
