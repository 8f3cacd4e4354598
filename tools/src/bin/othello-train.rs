//! Trains the pattern evaluation on self-play games.
//!
//! ```text
//! cargo run --release -p othello-tools --bin othello-train -- \
//!     --games data/games.bin [--games MORE.bin] \
//!     --out weights/pattern.bin [--stages 12] [--width 5] [--lambda 4] \
//!     [--iterations 120] [--mix 0] [--validation 20] [--threads N] [--max-games N]
//!     [--patterns standard|extended] [--base W.bin | --tune W.bin] [--empties LO..=HI]
//!     [--shift-bias DISCS]
//! ```
//!
//! Every `validation`-th game is held out. Prints, per stage, the number of
//! training and validation positions and the validation mean absolute error
//! in discs of the trained weights and of evaluation v1 (against the game's
//! result, which is exact from the file's `exact_empties` on), then writes
//! the weights file.

use clap::builder::NonEmptyStringValueParser;
use clap::Parser;
use othello::board::S8;
use othello::eval::pattern::{Layout, PatternWeights};
use othello::eval::{Evaluate, SCALE, V1};
use othello::obf;
use othello_tools::datagen::{read_games, GameRecord};
use othello_tools::games::{read, TextGame};
use othello_tools::training::{
    mae, on_top_of, residual_rows, row, rows_of, stage_rows, text_rows, train, tuning_rows, Row,
    TrainOptions,
};
use std::time::Instant;

/// Trains the pattern evaluation on self-play games: holds out every
/// --validation-th game, fits each stage, prints the per-stage validation
/// error against evaluation v1 and writes the weights file.
#[derive(Parser)]
#[command(name = "othello-train", args_override_self = true)]
struct Cli {
    /// A games file from othello-datagen; repeat the flag for several files.
    #[arg(long = "games", value_name = "FILE", required_unless_present_any = ["text", "labelled", "tune"])]
    files: Vec<String>,
    /// A text game collection (one game per line: moves, black's final disc
    /// difference, as in ../shared/games); positions are labelled by the
    /// game's result. Repeat the flag for several files.
    #[arg(long = "text", value_name = "FILE")]
    text: Vec<String>,
    /// Labelled positions (.obf lines as othello-label writes them: the
    /// first `move:score` entry's score, in discs for the side to move, is
    /// the label), all used for training. Repeat the flag for several files.
    #[arg(long = "labelled", value_name = "FILE")]
    labelled: Vec<String>,
    /// The weights file to write.
    #[arg(long, value_name = "FILE", value_parser = NonEmptyStringValueParser::new())]
    out: String,
    /// Stages of the weights written.
    #[arg(long, value_name = "N", default_value_t = TrainOptions::default().stages)]
    stages: u32,
    /// Empties per stage.
    #[arg(long, value_name = "N", default_value_t = TrainOptions::default().width)]
    width: u32,
    /// Positions up to this many empties beyond a stage's range on either
    /// side train it too (smoother weights across stages).
    #[arg(long, value_name = "N", default_value_t = TrainOptions::default().overlap)]
    overlap: u32,
    /// Ridge penalty per weight.
    #[arg(long, value_name = "X", default_value_t = TrainOptions::default().lambda)]
    lambda: f32,
    /// Conjugate-gradient iterations per stage.
    #[arg(long, value_name = "N", default_value_t = TrainOptions::default().iterations)]
    iterations: u32,
    /// Label of a midgame position: (1 - mix) * game result + mix * search
    /// value; exact positions are always labelled exactly.
    #[arg(long, value_name = "X", default_value_t = TrainOptions::default().mix)]
    mix: f32,
    /// Hold out every N-th game for validation (at least 2): of a text
    /// collection, the games whose 0-based line number is a multiple of N.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = at_least_two)]
    validation: usize,
    /// Threads (stages are fitted in parallel); all cores by default.
    #[arg(long, value_name = "N", default_value_t = all_cores())]
    threads: usize,
    /// Keep only positions with LO..=HI empties (quick experiments on some
    /// stages; the other stages are left at zero).
    #[arg(long, value_name = "LO..=HI", value_parser = parse_range)]
    empties: Option<(u8, u8)>,
    /// Use only the first N games of the files; all by default.
    #[arg(long, value_name = "N")]
    max_games: Option<usize>,
    /// The pattern set of the weights: `standard` (the 11 patterns of the
    /// built-in weights) or `extended` (those and 3 more 10-square corner
    /// patterns: triangle, edge block, cross). The file records its set.
    #[arg(long, value_name = "SET", default_value = "standard", value_parser = ["standard", "extended"])]
    patterns: String,
    /// Fit on top of these weights: their patterns must be the first of
    /// --patterns (e.g. built-in-style weights under `extended`); only the
    /// other patterns are fitted, to what these weights' evaluation leaves
    /// over, and these weights' stages are used.
    #[arg(long, value_name = "FILE")]
    base: Option<String>,
    /// Tune these weights (same pattern set as --patterns): every weight
    /// is fitted as a change to them, to what their evaluation leaves over,
    /// so the ridge penalty keeps the weights the rows say little about;
    /// their stages are used, and stages without a row (see --empties)
    /// stay as they are.
    #[arg(long, value_name = "FILE", conflicts_with = "base")]
    tune: Option<String>,
    /// Add DISCS to every stage's bias weight in the weights written, so
    /// every position's value for its side to move rises by that much:
    /// recentres weights that read low against exact scores (with --tune
    /// alone and no positions, the tuned weights shifted, nothing fitted).
    #[arg(long, value_name = "DISCS", allow_negative_numbers = true)]
    shift_bias: Option<f32>,
}

fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn parse_range(s: &str) -> Result<(u8, u8), String> {
    let (lo, hi) = s.split_once("..=").ok_or("expected LO..=HI")?;
    let num = |t: &str| t.trim().parse::<u8>().map_err(|e| e.to_string());
    Ok((num(lo)?, num(hi)?))
}

fn at_least_two(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n < 2 => Err("must be at least 2".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

fn main() {
    let cli = Cli::parse();
    let (files, out, validation, threads) = (cli.files, cli.out, cli.validation, cli.threads);
    let max_games = cli.max_games.unwrap_or(usize::MAX);
    let mut opts = TrainOptions {
        stages: cli.stages,
        width: cli.width,
        overlap: cli.overlap,
        lambda: cli.lambda,
        iterations: cli.iterations,
        mix: cli.mix,
    };
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
    let layout = match cli.patterns.as_str() {
        "extended" => Layout::extended(),
        _ => Layout::standard(),
    };
    let mut train_rows = rows_of(&layout, &train_games, opts.mix);
    // Validation labels are the game results, never mixed.
    let mut valid_rows = rows_of(&layout, &valid_games, 0.0);
    for file in &cli.text {
        let games = read(file, |_| true).unwrap_or_else(|e| panic!("{e}"));
        eprintln!("{file}: {} games", games.len());
        let (valid, train): (Vec<_>, Vec<_>) =
            games.into_iter().partition(|(i, _)| i % validation == 0);
        let strip = |v: Vec<(usize, TextGame)>| v.into_iter().map(|(_, g)| g).collect::<Vec<_>>();
        train_rows.extend(text_rows(&layout, &strip(train)));
        valid_rows.extend(text_rows(&layout, &strip(valid)));
    }
    for file in &cli.labelled {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let before = train_rows.len();
        for line in obf::parse::<S8>(&text).unwrap_or_else(|e| panic!("{file}:{e}")) {
            if let Some((_, score)) = line.best() {
                train_rows.push(row(&layout, line.position, score as f32, false));
            }
        }
        eprintln!("{file}: {} labelled positions", train_rows.len() - before);
    }
    if let Some((lo, hi)) = cli.empties {
        train_rows.retain(|r| (lo..=hi).contains(&r.empties));
        valid_rows.retain(|r| (lo..=hi).contains(&r.empties));
    }
    eprintln!(
        "{} training positions, {} validation positions; {:.1} s",
        train_rows.len(),
        valid_rows.len(),
        start.elapsed().as_secs_f64()
    );
    let base = cli.base.as_ref().map(|file| {
        let w = PatternWeights::load(std::path::Path::new(file)).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            layout.masks().len() > w.layout().masks().len()
                && layout.masks().starts_with(w.layout().masks()),
            "{file}: its patterns must be the first of --patterns {}, which must have more",
            cli.patterns
        );
        (opts.stages, opts.width) = (w.stages(), w.width());
        residual_rows(&w, &layout, &mut train_rows);
        eprintln!("{file}: fitting on top of its weights");
        w
    });
    let tuned = cli.tune.as_ref().map(|file| {
        let w = PatternWeights::load(std::path::Path::new(file)).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            layout.masks() == w.layout().masks(),
            "{file}: its patterns must be those of --patterns {}",
            cli.patterns
        );
        (opts.stages, opts.width) = (w.stages(), w.width());
        tuning_rows(&w, &mut train_rows);
        eprintln!("{file}: tuning its weights");
        w
    });
    eprintln!("{opts:?}, {threads} threads");
    let mut weights = train(&layout, &train_rows, &opts, threads);
    if let Some(base) = base.as_ref().or(tuned.as_ref()) {
        weights = on_top_of(base, &weights);
    }
    if let Some(discs) = cli.shift_bias {
        weights.shift_bias((discs * SCALE as f32).round() as i16);
    }
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
