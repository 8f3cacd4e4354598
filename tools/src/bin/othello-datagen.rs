//! Self-play data generation for the pattern evaluation.
//!
//! ```text
//! cargo run --release -p othello-tools --bin othello-datagen -- \
//!     --out data/games.bin --games 20000 \
//!     [--threads N] [--minutes M] [--seed S] [--depth D] [--exact E]
//! ```
//!
//! Plays games `0..games` (see `othello_tools::datagen`) on `threads` threads
//! (all cores by default) and appends them to `--out` in game order. The file is a
//! pure function of its parameters and the game count: stop it at any time
//! (Ctrl-C or `--minutes`) and run the same command again to resume where it
//! stopped; the parameters are read back from the file. A progress line on
//! stderr shows games, positions, rates and the ETA.

use clap::builder::NonEmptyStringValueParser;
use clap::Parser;
use othello::engine::Engine;
use othello_tools::datagen::{encode_header, play_game, read_games, GenParams};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Plays self-play games for the pattern evaluation and appends them to a
/// file in game order. Stop it at any time (Ctrl-C or --minutes) and run the
/// same command again to resume; the parameters are read back from the file.
#[derive(Parser)]
#[command(name = "othello-datagen", args_override_self = true)]
struct Cli {
    /// The games file (created, or resumed if it exists).
    #[arg(long, value_name = "FILE", value_parser = NonEmptyStringValueParser::new())]
    out: String,
    /// Games to have in the file in all (games 0..N); at least 1.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Worker threads (at least 1); all cores by default.
    #[arg(long, value_name = "N", value_parser = at_least_one, default_value_t = all_cores())]
    threads: usize,
    /// Time budget in minutes: then finish the games in progress and stop.
    #[arg(long, value_name = "M")]
    minutes: Option<f64>,
    /// Every random choice derives from this and the game index.
    #[arg(long, value_name = "S", default_value_t = GenParams::default().seed)]
    seed: u64,
    /// Midgame search depth of the strong moves, in plies.
    #[arg(long, value_name = "D", default_value_t = GenParams::default().depth)]
    depth: u8,
    /// Perfect play from this many empties on (so the result is exact).
    #[arg(long, value_name = "E", default_value_t = GenParams::default().exact_empties)]
    exact: u8,
    /// Fewest plies of weak random play in the opening.
    #[arg(long, value_name = "N", default_value_t = GenParams::default().random_min)]
    random_min: u8,
    /// Most plies of weak random play in the opening.
    #[arg(long, value_name = "N", default_value_t = GenParams::default().random_max)]
    random_max: u8,
    /// Per mille: the chance that a midgame move is picked at random among
    /// the moves within 2 discs of the best, for variety.
    #[arg(long, value_name = "PERMILLE", default_value_t = GenParams::default().noise_permille)]
    noise: u16,
    /// Transposition table size per thread, in MB.
    #[arg(long = "hash", value_name = "MB", default_value_t = 16)]
    hash_mb: usize,
}

struct Args {
    out: String,
    games: u64,
    threads: usize,
    minutes: Option<f64>,
    params: GenParams,
    hash_mb: usize,
}

fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn at_least_one(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

fn parse_args() -> Args {
    let c = Cli::parse();
    Args {
        out: c.out,
        games: c.games,
        threads: c.threads,
        minutes: c.minutes,
        params: GenParams {
            seed: c.seed,
            depth: c.depth,
            exact_empties: c.exact,
            random_min: c.random_min,
            random_max: c.random_max,
            noise_permille: c.noise,
        },
        hash_mb: c.hash_mb,
    }
}

fn hms(secs: f64) -> String {
    let s = secs.max(0.0) as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

fn main() {
    let args = parse_args();
    let path = std::path::Path::new(&args.out);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).expect("create the output directory");
    }
    // Resume: keep the complete games of an existing file, with its parameters.
    let (params, done, mut positions) = match std::fs::read(path) {
        Ok(bytes) => {
            let (params, games, len) =
                read_games(&bytes).unwrap_or_else(|e| panic!("{}: {e}", args.out));
            if params != args.params {
                eprintln!("resuming with the file's parameters: {params:?}");
            }
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .expect("open the games file");
            file.set_len(len as u64).expect("drop a partial record");
            let positions: u64 = games.iter().map(|g| g.samples().len() as u64).sum();
            (params, games.len() as u64, positions)
        }
        Err(_) => {
            std::fs::write(path, encode_header(&args.params)).expect("write the header");
            (args.params, 0, 0)
        }
    };
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .expect("open the games file");
    if done >= args.games {
        eprintln!("{}: already {done} games", args.out);
        return;
    }
    eprintln!(
        "{}: {done} games there, playing {}..{} on {} threads, {params:?}",
        args.out, done, args.games, args.threads
    );
    let next = Arc::new(AtomicU64::new(done));
    let quit = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<(u64, Vec<u8>, u64)>();
    let mut workers = Vec::new();
    for _ in 0..args.threads {
        let (next, quit, tx) = (next.clone(), quit.clone(), tx.clone());
        let (total, hash_mb) = (args.games, args.hash_mb);
        workers.push(std::thread::spawn(move || {
            let mut engine = Engine::new(hash_mb);
            while !quit.load(Ordering::Relaxed) {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= total {
                    break;
                }
                let g = play_game(&mut engine, &params, i);
                let mut bytes = Vec::with_capacity(256);
                g.encode(&mut bytes);
                if tx.send((i, bytes, g.samples().len() as u64)).is_err() {
                    break;
                }
            }
        }));
    }
    drop(tx);
    let start = Instant::now();
    let deadline = args
        .minutes
        .map(|m| start + Duration::from_secs_f64(m * 60.0));
    let mut pending: BTreeMap<u64, (Vec<u8>, u64)> = BTreeMap::new();
    let mut written = done;
    let mut last_draw = Instant::now() - Duration::from_secs(10);
    loop {
        let msg = rx.recv_timeout(Duration::from_millis(500));
        match msg {
            Ok((i, bytes, n)) => {
                pending.insert(i, (bytes, n));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        while let Some((bytes, n)) = pending.remove(&written) {
            file.write_all(&bytes).expect("write a game");
            written += 1;
            positions += n;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) && !quit.load(Ordering::Relaxed) {
            quit.store(true, Ordering::Relaxed);
            eprintln!("\ntime budget reached: finishing the games in progress");
        }
        if last_draw.elapsed() >= Duration::from_secs(2) {
            last_draw = Instant::now();
            let secs = start.elapsed().as_secs_f64();
            let rate = (written - done) as f64 / secs.max(1e-9);
            let left = (args.games - written) as f64 / rate.max(1e-9);
            let width = 30;
            let filled = (written as f64 / args.games as f64 * width as f64) as usize;
            eprint!(
                "\r[{}{}] {written}/{} games, {positions} positions, {:.0} games/h, \
                 {:.0} positions/h, elapsed {}, ETA {}   ",
                "#".repeat(filled),
                ".".repeat(width - filled),
                args.games,
                rate * 3600.0,
                (positions as f64 - 0.0) / written.max(1) as f64 * rate * 3600.0,
                hms(secs),
                if rate > 0.0 { hms(left) } else { "?".into() }
            );
        }
    }
    for w in workers {
        w.join().expect("a worker thread panicked");
    }
    file.flush().expect("flush the games file");
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "\n{}: {written} games ({} new in {}, {:.0} games/h), {positions} positions",
        args.out,
        written - done,
        hms(secs),
        (written - done) as f64 / secs * 3600.0
    );
}
