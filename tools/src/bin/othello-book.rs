//! Builds, checks and measures opening books.
//!
//! ```text
//! # Search the book's positions (one part per shard; rerun to resume):
//! othello-book build --xot ../shared/games/xot.txt --games ../shared/games/wthor.txt \
//!     --plies 20 --min-games 10 --level 10 --shard 1/2 --out part-1.txt
//! # Negamax the parts into a book file:
//! othello-book merge part-*.txt --out weights/book.bin
//! # What it covers, and how its values compare with deeper searches:
//! othello-book cover --book weights/book.bin --xot ... --games ... --plies 20 --min-games 10
//! othello-book verify --book weights/book.bin --sample 200 --level 16
//! ```
//!
//! `build` writes a part file: a first line `% othello-book part ...` with
//! the plan (sources, plies, games, level, shard and the number of
//! positions of the whole plan), then one line per searched position (see
//! `othello_tools::book::Leaf`), each flushed when done. Running the same
//! command again resumes after the last whole line. A deeper search of the
//! same positions (a higher `--level`, another part file) replaces the
//! shallower one when the parts are merged: that is how a book is deepened
//! or corrected.

use clap::{Parser, Subcommand};
use othello::board::Bits;
use othello::book::Book;
use othello::engine::{Engine, Limits, LEVELS};
use othello::eval::discs;
use othello_tools::args::parse_shard;
use othello_tools::book::{
    deviations, line_positions, negamax, nodes, parse_moves, search_leaf, Key, Leaf,
};
use othello_tools::games::read_with;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "othello-book",
    about = "Builds, checks and measures opening books"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Where the book's positions come from.
#[derive(clap::Args, Clone)]
struct Sources {
    /// Openings taken whole, one per line (`f5d6c3...`; repeatable).
    #[arg(long = "xot", value_name = "FILE")]
    xot: Vec<String>,
    /// Game collections (`f5d6... +12` per line; repeatable).
    #[arg(long = "games", value_name = "FILE")]
    games: Vec<String>,
    /// Positions within this many first moves of the games.
    #[arg(long, default_value_t = 20)]
    plies: usize,
    /// ... that at least this many games reach.
    #[arg(long, default_value_t = 10)]
    min_games: usize,
}

#[derive(Subcommand)]
enum Command {
    /// Searches the book positions of one shard into a part file.
    Build {
        #[command(flatten)]
        sources: Sources,
        /// The level of each search (its depth; book off).
        #[arg(long, default_value_t = 10,
              value_parser = clap::value_parser!(u32).range(0..=60))]
        level: u32,
        /// This process searches the positions whose index in the sorted
        /// list is K-1 modulo N.
        #[arg(long, value_name = "K/N", value_parser = parse_shard, default_value = "1/1")]
        shard: (usize, usize),
        /// The part file (appended to when resuming).
        #[arg(long)]
        out: String,
        /// Transposition table, MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Instead of the sources' positions, the deviations of this book
        /// (see `othello_tools::book::deviations`): the positions one move
        /// off its lines within --margin of the best, in the first --plies.
        #[arg(long, value_name = "BOOK")]
        deviate: Option<String>,
        /// With --deviate: the margin in discs.
        #[arg(long, default_value_t = 2)]
        margin: i32,
    },
    /// Negamaxes part files into a book file.
    Merge {
        /// Part files written by `build` (all shards of each plan).
        #[arg(required = true)]
        parts: Vec<String>,
        #[arg(long)]
        out: String,
        /// Merge even when some shards of a plan are missing.
        #[arg(long)]
        partial: bool,
    },
    /// Reports which opening lines a book covers.
    Cover {
        /// A book file, or `builtin`.
        #[arg(long, default_value = "builtin")]
        book: String,
        #[command(flatten)]
        sources: Sources,
    },
    /// Compares book values with searches of the same positions.
    Verify {
        /// A book file, or `builtin`.
        #[arg(long, default_value = "builtin")]
        book: String,
        /// How many positions, drawn at random.
        #[arg(long, default_value_t = 200)]
        sample: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The level of the comparison searches.
        #[arg(long, default_value_t = 16)]
        level: u32,
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// This process checks the sampled positions K-1 modulo N.
        #[arg(long, value_name = "K/N", value_parser = parse_shard, default_value = "1/1")]
        shard: (usize, usize),
    },
}

fn fail(msg: impl std::fmt::Display) -> ! {
    eprintln!("othello-book: {msg}");
    std::process::exit(1);
}

fn read_lines(path: &str) -> Vec<Vec<u32>> {
    let lines = read_with(path, |_| true, parse_moves).unwrap_or_else(|e| fail(e));
    lines.into_iter().map(|(_, moves)| moves).collect()
}

fn load_sources(s: &Sources) -> (Vec<Vec<u32>>, Vec<Vec<u32>>) {
    let xot = s.xot.iter().flat_map(|p| read_lines(p)).collect();
    let games = s.games.iter().flat_map(|p| read_lines(p)).collect();
    (xot, games)
}

/// A `--book` value: `builtin` or a book file.
fn load_book(path: &str) -> Cow<'static, Book> {
    if path == "builtin" {
        return Cow::Borrowed(Book::builtin());
    }
    Cow::Owned(Book::load(path.as_ref()).unwrap_or_else(|e| fail(e)))
}

fn main() {
    match Cli::parse().command {
        Command::Build {
            sources,
            level,
            shard,
            out,
            hash,
            deviate,
            margin,
        } => build(
            &sources,
            deviate.as_deref(),
            margin,
            level,
            shard,
            &out,
            hash,
        ),
        Command::Merge {
            parts,
            out,
            partial,
        } => merge(&parts, &out, partial),
        Command::Cover { book, sources } => cover(&load_book(&book), &sources),
        Command::Verify {
            book,
            sample,
            seed,
            level,
            hash,
            shard,
        } => verify(&load_book(&book), sample, seed, level, hash, shard),
    }
}

/// A file's name without its directories: the same plan on machines that
/// keep the files in different places.
fn file_name(f: &str) -> String {
    std::path::Path::new(f)
        .file_name()
        .map_or(f.to_string(), |n| n.to_string_lossy().into_owned())
}

fn build(
    sources: &Sources,
    deviate: Option<&str>,
    margin: i32,
    level: u32,
    (k, n): (usize, usize),
    out: &str,
    hash: usize,
) {
    // The positions to search, every position that counts as a node (for
    // the moves that lead to one), and how the plan line names them.
    let (all, set, what) = match deviate {
        Some(path) => {
            let book = load_book(path);
            let new = deviations(&book, sources.plies, margin);
            let mut set: HashSet<Key> = book.entries().into_iter().map(|(k, _)| k).collect();
            set.extend(new.iter().copied());
            let what = format!(
                "deviate={} plies={} margin={margin}",
                file_name(path),
                sources.plies
            );
            (new, set, what)
        }
        None => {
            let (xot, games) = load_sources(sources);
            let all = nodes(&xot, &games, sources.plies, sources.min_games);
            let names = |files: &[String]| -> String {
                files
                    .iter()
                    .map(|f| file_name(f))
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let what = format!(
                "xot={} games={} plies={} min-games={}",
                names(&sources.xot),
                names(&sources.games),
                sources.plies,
                sources.min_games
            );
            let set = all.iter().copied().collect();
            (all, set, what)
        }
    };
    let plan = format!(
        "% othello-book part {what} positions={} level={level} shard={k}/{n}",
        all.len()
    );
    let is_node = move |key: Key| set.contains(&key);
    let done = resume(out, &plan);
    let mine: Vec<Key> = all
        .iter()
        .enumerate()
        .filter(|(i, key)| i % n == k - 1 && !done.contains(key))
        .map(|(_, &key)| key)
        .collect();
    eprintln!(
        "{} positions in the plan, {} in shard {k}/{n} left to search ({} done)",
        all.len(),
        mine.len(),
        done.len()
    );
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .unwrap_or_else(|e| fail(format!("{out}: {e}")));
    if done.is_empty() {
        writeln!(file, "{plan}").unwrap_or_else(|e| fail(e));
    }
    let mut engine = Engine::try_new(hash).unwrap_or_else(|| fail("out of memory"));
    let limits = Limits::level(level).unwrap_or_else(|e| fail(e));
    let start = Instant::now();
    for (i, &key) in mine.iter().enumerate() {
        let leaf =
            search_leaf(&mut engine, key, &limits, level, &is_node).unwrap_or_else(|e| fail(e));
        writeln!(file, "{}", leaf.to_line()).unwrap_or_else(|e| fail(e));
        if (i + 1) % 500 == 0 || i + 1 == mine.len() {
            let t = start.elapsed().as_secs_f64();
            eprintln!(
                "{} / {} in {t:.0} s ({:.1} ms each)",
                i + 1,
                mine.len(),
                1000.0 * t / (i + 1) as f64
            );
        }
    }
}

/// The positions already in the part file `out` (none if it does not
/// exist); stops when it belongs to another plan. A partly written last
/// line is cut off.
fn resume(out: &str, plan: &str) -> HashSet<Key> {
    let Ok(text) = std::fs::read_to_string(out) else {
        return HashSet::new();
    };
    if text.is_empty() {
        return HashSet::new();
    }
    let mut lines = text.split_inclusive('\n');
    if lines.next().map(str::trim_end) != Some(plan) {
        fail(format!(
            "{out} belongs to another plan (its first line differs); not resuming"
        ));
    }
    let mut done = HashSet::new();
    let mut whole = 0;
    for l in text.split_inclusive('\n') {
        if !l.ends_with('\n') {
            break;
        }
        whole += l.len();
        if l.starts_with('%') {
            continue;
        }
        let leaf = Leaf::parse(l).unwrap_or_else(|e| fail(format!("{out}: {e}")));
        done.insert(leaf.key);
    }
    if whole < text.len() {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(out)
            .unwrap_or_else(|e| fail(e));
        f.set_len(whole as u64).unwrap_or_else(|e| fail(e));
    }
    done
}

fn merge(parts: &[String], out: &str, partial: bool) {
    // Plan (without its shard) -> shards seen, and the shard count.
    let mut plans: HashMap<String, (HashSet<usize>, usize)> = HashMap::new();
    let mut leaves = Vec::new();
    for path in parts {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(format!("{path}: {e}")));
        let mut lines = text.lines();
        let head = lines.next().unwrap_or("");
        let Some((plan, shard)) = head.rsplit_once(" shard=") else {
            fail(format!("{path}: not a part file (no plan line)"));
        };
        let (k, n) = parse_shard(shard).unwrap_or_else(|e| fail(format!("{path}: {e}")));
        let entry = plans.entry(plan.to_string()).or_insert((HashSet::new(), n));
        if entry.1 != n || !entry.0.insert(k) {
            fail(format!("{path}: shard {k}/{n} repeated or inconsistent"));
        }
        for l in lines.filter(|l| !l.starts_with('%') && !l.trim().is_empty()) {
            leaves.push(Leaf::parse(l).unwrap_or_else(|e| fail(format!("{path}: {e}"))));
        }
    }
    for (plan, (seen, n)) in &plans {
        if seen.len() != *n {
            let msg = format!("{} of {n} shards of: {plan}", seen.len());
            if !partial {
                fail(format!("{msg} (--partial merges anyway)"));
            }
            eprintln!("partial: {msg}");
        }
    }
    let book = negamax(&leaves);
    let bytes = book.to_bytes();
    std::fs::write(out, &bytes).unwrap_or_else(|e| fail(format!("{out}: {e}")));
    let start = othello::Position::<othello::board::S8>::start();
    let first = book.moves(start.player, start.opponent);
    eprintln!(
        "{out}: {} positions, {} bytes; the start is worth {:?} discs",
        book.len(),
        bytes.len(),
        first.first().map(|m| m.value)
    );
}

/// A line is covered when each of its positions is in the book with the
/// line's next move among its moves (the last position: in the book).
fn covered(book: &Book, line: &[u32]) -> bool {
    let positions = line_positions(line);
    if positions.len() != line.len() + 1 {
        return false;
    }
    positions.iter().enumerate().all(|(i, p)| {
        let moves = book.moves(p.player, p.opponent);
        match line.get(i) {
            Some(&sq) => moves.iter().any(|m| m.square == sq),
            None => !moves.is_empty() || p.legal_moves().is_zero(),
        }
    })
}

fn cover(book: &Book, sources: &Sources) {
    let (xot, games) = load_sources(sources);
    println!("book: {} positions", book.len());
    if !xot.is_empty() {
        let ok = xot.iter().filter(|l| covered(book, l)).count();
        println!(
            "openings: {ok} of {} covered (every position and move)",
            xot.len()
        );
    }
    if !games.is_empty() {
        // Distinct move sequences of 1..=plies moves that min_games share.
        let mut counts: HashMap<&[u32], usize> = HashMap::new();
        for g in &games {
            for len in 1..=sources.plies.min(g.len()) {
                *counts.entry(&g[..len]).or_default() += 1;
            }
        }
        let lines: Vec<&[u32]> = counts
            .into_iter()
            .filter(|&(_, c)| c >= sources.min_games)
            .map(|(l, _)| l)
            .collect();
        let ok = lines.iter().filter(|l| covered(book, l)).count();
        println!(
            "game lines of 1..={} moves that >= {} games share: {ok} of {} covered",
            sources.plies,
            sources.min_games,
            lines.len()
        );
    }
}

fn verify(book: &Book, sample: usize, seed: u64, level: u32, hash: usize, (k, n): (usize, usize)) {
    if !LEVELS.contains(&level) {
        fail(format!("level {level} is outside 0..60"));
    }
    let entries = book.entries();
    let mut rng = othello::rng::Rng::new(seed);
    let mut picked: Vec<usize> = Vec::new();
    while picked.len() < sample.min(entries.len()) {
        let i = rng.below(entries.len());
        if !picked.contains(&i) {
            picked.push(i);
        }
    }
    let mut engine = Engine::try_new(hash).unwrap_or_else(|| fail("out of memory"));
    let stop = AtomicBool::new(false);
    let mut limits = Limits::level(level).unwrap_or_else(|e| fail(e));
    limits.book = false;
    let (mut sum, mut within, mut count, mut worst, mut same) = (0i64, 0, 0, 0, 0);
    println!("# index empties book-move book-value search-move search-score");
    for (j, &i) in picked.iter().enumerate() {
        if j % n != k - 1 {
            continue;
        }
        let (key, _) = &entries[i];
        let pos = othello_tools::book::position(*key);
        let best = book.moves(pos.player, pos.opponent)[0];
        engine.clear();
        let r = engine
            .search(pos, &limits, &stop, &mut |_| {})
            .unwrap_or_else(|e| fail(e));
        let score = discs(r.score);
        let diff = (score - best.value).abs();
        sum += diff as i64;
        within += (diff <= 2) as usize;
        worst = worst.max(diff);
        same += (r.best == Some(best.square)) as usize;
        count += 1;
        println!(
            "{i} {} {} {:+} {} {score:+}",
            pos.empties().count(),
            othello::notation::square_name(8, best.square),
            best.value,
            r.best
                .map_or("--".into(), |s| othello::notation::square_name(8, s)),
        );
        let _ = std::io::stdout().flush();
    }
    println!(
        "positions {count}: mean |book - level {level}| {:.2} discs, within 2 discs {within} ({:.1}%), worst {worst}, same best move {same}",
        sum as f64 / count.max(1) as f64,
        100.0 * within as f64 / count.max(1) as f64
    );
}
