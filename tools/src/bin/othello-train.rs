//! Trains the pattern evaluation on self-play games.
//!
//! ```text
//! cargo run --release -p othello-tools --bin othello-train -- \
//!     --games data/games.bin [--games MORE.bin] \
//!     --out weights/pattern.bin [--stages 12] [--width 5] [--lambda 4] \
//!     [--iterations 120] [--mix 0] [--validation 20] [--threads N] [--max-games N]
//! ```
//!
//! Every `validation`-th game is held out. Prints, per stage, the number of
//! training and validation positions and the validation mean absolute error
//! in discs of the trained weights and of evaluation v1 (against the game's
//! result, which is exact from the file's `exact_empties` on), then writes
//! the weights file.

use othello::board::S8;
use othello::eval::pattern::PatternWeights;
use othello::eval::{Evaluate, V1};
use othello_tools::datagen::{read_games, GameRecord};
use othello_tools::training::{mae, rows_of, stage_rows, train, Row, TrainOptions};
use std::time::Instant;

fn usage() -> ! {
    eprintln!(
        "usage: othello-train --games FILE [--games FILE...] --out FILE [--stages N] \
         [--width N] [--overlap N] [--lambda X] [--iterations N] [--mix X] \
         [--validation N] [--threads N] [--max-games N]"
    );
    std::process::exit(2)
}

fn main() {
    let mut files = Vec::new();
    let mut out = String::new();
    let mut opts = TrainOptions::default();
    let mut validation = 20usize;
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut max_games = usize::MAX;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| usage());
        macro_rules! num {
            () => {
                value().parse().unwrap_or_else(|_| usage())
            };
        }
        match flag.as_str() {
            "--games" => files.push(value()),
            "--out" => out = value(),
            "--stages" => opts.stages = num!(),
            "--width" => opts.width = num!(),
            "--overlap" => opts.overlap = num!(),
            "--lambda" => opts.lambda = num!(),
            "--iterations" => opts.iterations = num!(),
            "--mix" => opts.mix = num!(),
            "--validation" => validation = num!(),
            "--threads" => threads = num!(),
            "--max-games" => max_games = num!(),
            _ => usage(),
        }
    }
    if files.is_empty() || out.is_empty() || validation < 2 {
        usage();
    }
    let start = Instant::now();
    let mut games: Vec<GameRecord> = Vec::new();
    let mut exact_from = 0;
    for file in &files {
        let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let (params, g, _) = read_games(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
        eprintln!("{file}: {} games, {params:?}", g.len());
        exact_from = params.exact_empties;
        games.extend(g);
    }
    games.truncate(max_games);
    let (mut train_games, mut valid_games) = (Vec::new(), Vec::new());
    for (i, g) in games.into_iter().enumerate() {
        if i % validation == 0 {
            valid_games.push(g);
        } else {
            train_games.push(g);
        }
    }
    let train_rows = rows_of(&train_games, opts.mix);
    // Validation labels are the game results, never mixed.
    let valid_rows = rows_of(&valid_games, 0.0);
    eprintln!(
        "{} training games ({} positions), {} validation games ({} positions); {:.1} s",
        train_games.len(),
        train_rows.len(),
        valid_games.len(),
        valid_rows.len(),
        start.elapsed().as_secs_f64()
    );
    eprintln!("{opts:?}, {threads} threads");
    let weights = train(&train_rows, &opts, threads);
    eprintln!("trained in {:.1} s", start.elapsed().as_secs_f64());
    std::fs::write(&out, weights.to_bytes()).unwrap_or_else(|e| panic!("{out}: {e}"));
    // Per stage, on the validation positions of that stage's own range.
    let narrow = TrainOptions { overlap: 0, ..opts };
    println!(
        "stage  empties  train-pos  valid-pos  MAE-trained  MAE-v1   (discs, vs game result{})",
        if exact_from > 0 {
            format!("; exact at <= {exact_from} empties")
        } else {
            String::new()
        }
    );
    let eval_trained = |r: &Row| {
        let s = weights.stage(weights.stage_of(r.empties as u32));
        r.features
            .iter()
            .map(|&j| s[j as usize] as i32)
            .sum::<i32>()
            .clamp(-6300, 6300)
    };
    let v1_of = |rows: &[&Row]| {
        mae(rows, |r| {
            Evaluate::<S8>::evaluate(&V1, r.pos.player, r.pos.opponent)
        })
    };
    for s in 0..opts.stages {
        let t = stage_rows(&train_rows, &narrow, s).len();
        let v = stage_rows(&valid_rows, &narrow, s);
        let hi = if s + 1 == opts.stages {
            60
        } else {
            s * opts.width + opts.width - 1
        };
        println!(
            "{s:>5}  {:>3}-{:<3}  {t:>9}  {:>9}  {:>11.2}  {:>6.2}",
            s * opts.width,
            hi,
            v.len(),
            mae(&v, eval_trained),
            v1_of(&v)
        );
    }
    for (name, lo, hi) in [
        ("exact 0-16", 0, 16),
        ("12-16", 12, 16),
        ("20-30", 20, 30),
        ("all", 0, 64),
    ] {
        let v: Vec<&Row> = valid_rows
            .iter()
            .filter(|r| (lo..=hi).contains(&r.empties) && (hi > 16 || r.exact))
            .collect();
        println!(
            "{name:>11}: {:>8} positions, MAE trained {:.2}, v1 {:.2}",
            v.len(),
            mae(&v, eval_trained),
            v1_of(&v)
        );
    }
    let bytes = weights.to_bytes();
    println!("wrote {out}: {} bytes", bytes.len());
    assert!(PatternWeights::from_bytes(&bytes).is_ok());
}
