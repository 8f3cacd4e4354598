//! The public API of `othello::board` where no other test reached (found by
//! `tests/coverage.sh`):
//!
//! - the masks of every geometry computed at run time (`in_kind`,
//!   `mask_u64`, `mask_u128`, `mask_u256`): equal to the constants the
//!   compiler made with them, and right by count and by square;
//! - illegal moves and perft at depth 0 on every size;
//! - `Position` printed, hashed and cloned;
//! - `OTHELLO_ISA` (docs/guide.md): `portable` and `v3` keep a process off
//!   the newer copies of the hot recursions, any other value allows them
//!   all, and perft counts the same with each (in a child process per
//!   value: the choice is made once per process).

use othello::board::geometry::{in_kind, mask_u128, mask_u256, mask_u64, Kind};
use othello::board::perft::perft;
use othello::board::{Bits, Geometry, Position, S10, S12, S14, S16, S4, S6, S8, U256};
use std::collections::HashSet;

const KINDS: [Kind; 10] = [
    Kind::All,
    Kind::NotCol0,
    Kind::NotColN,
    Kind::Inner,
    Kind::Corners,
    Kind::XSquares,
    Kind::CSquares,
    Kind::Edges,
    Kind::StartBlack,
    Kind::StartWhite,
];

/// The mask `kind` of the `n`x`n` board computed now, in the words of
/// the bit set type of that size.
fn mask_words(n: u32, kind: Kind) -> [u64; 4] {
    match n {
        4..=8 => [mask_u64(n, kind), 0, 0, 0],
        10 => {
            let m = mask_u128(n, kind);
            [m as u64, (m >> 64) as u64, 0, 0]
        }
        _ => mask_u256(n, kind).0,
    }
}

fn squares(words: [u64; 4]) -> Vec<u32> {
    (0..256)
        .filter(|&i| words[i as usize / 64] >> (i % 64) & 1 == 1)
        .collect()
}

fn masks_of<G: Geometry>() {
    let n = G::N;
    let constants = [
        G::ALL,
        G::NOT_COL0,
        G::NOT_COLN,
        G::INNER,
        G::CORNERS,
        G::X_SQUARES,
        G::C_SQUARES,
        G::EDGES,
        G::START_BLACK,
        G::START_WHITE,
    ];
    for (kind, constant) in KINDS.into_iter().zip(constants) {
        let words = mask_words(n, kind);
        assert_eq!(words, constant.words(), "{n}x{n} {}", kind as u8);
        let listed = squares(words);
        let by_square: Vec<u32> = (0..n * n).filter(|&sq| in_kind(n, sq, kind)).collect();
        assert_eq!(listed, by_square, "{n}x{n} {}", kind as u8);
    }
    let count = |kind| squares(mask_words(n, kind)).len() as u32;
    assert_eq!(count(Kind::All), n * n);
    assert_eq!(count(Kind::NotCol0), n * n - n);
    assert_eq!(count(Kind::NotColN), n * n - n);
    assert_eq!(count(Kind::Inner), n * n - 2 * n);
    assert_eq!(count(Kind::Edges), 4 * n - 4);
    assert_eq!(count(Kind::XSquares), 4);
    assert_eq!(count(Kind::CSquares), 8);
    let last = n * n - 1;
    assert_eq!(
        squares(mask_words(n, Kind::Corners)),
        [0, n - 1, last - (n - 1), last]
    );
    // Black on the lower-left and upper-right centre squares (d5 e4 on 8x8).
    let h = n / 2;
    assert_eq!(
        squares(mask_words(n, Kind::StartBlack)),
        [(h - 1) * n + h, h * n + h - 1]
    );
    assert_eq!(
        squares(mask_words(n, Kind::StartWhite)),
        [(h - 1) * n + h - 1, h * n + h]
    );
}

/// Runs `$check::<G>()` for every board size.
macro_rules! every_size {
    ($check:ident) => {
        $check::<S4>();
        $check::<S6>();
        $check::<S8>();
        $check::<S10>();
        $check::<S12>();
        $check::<S14>();
        $check::<S16>();
    };
}

#[test]
fn run_time_masks_equal_the_geometry_constants() {
    every_size!(masks_of);
    assert_eq!(
        U256::const_bit(3).const_or(U256::const_bit(200)),
        U256::bit(3) | U256::bit(200)
    );
    assert_eq!(
        mask_words(8, Kind::StartBlack),
        [(1 << 28) | (1 << 35), 0, 0, 0]
    );
}

fn illegal_moves_of<G: Geometry>() {
    let start = Position::<G>::start();
    let n = G::N;
    let occupied = (n / 2 - 1) * n + n / 2 - 1;
    assert!(start.play(occupied).is_none(), "{n}x{n}: occupied");
    assert!(start.play(0).is_none(), "{n}x{n}: flips nothing");
    assert!(start.play(n * n).is_none(), "{n}x{n}: off the board");
    assert!(!start.is_legal(n * n));
    assert_eq!(perft(start, 0), 1, "{n}x{n}");
    assert_eq!(perft(start, 1), 4, "{n}x{n}");
}

#[test]
fn illegal_moves_play_nothing() {
    every_size!(illegal_moves_of);
}

#[test]
fn positions_print_hash_and_clone() {
    let start = Position::<S4>::start();
    assert_eq!(format!("{start:?}"), "Position4x4(----/-OX-/-XO-/----)");
    // b1 flips b2; then white is to move, `X`.
    let after = start.play(1).expect("b1 is legal on 4x4");
    assert_eq!(format!("{after:?}"), "Position4x4(-O--/-OO-/-OX-/----)");
    #[allow(clippy::clone_on_copy)]
    let copy = start.clone();
    let set: HashSet<Position<S4>> = [start, copy, start.pass(), after].into_iter().collect();
    assert_eq!(set.len(), 3);
    assert!(set.contains(&Position::<S4>::start().pass()));
}

/// The copies each `OTHELLO_ISA` value allows on this CPU: (x86-64-v3,
/// AVX-512).
#[cfg(target_arch = "x86_64")]
fn allowed(value: &str) -> (bool, bool) {
    let v3 = is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("bmi1")
        && is_x86_feature_detected!("bmi2")
        && is_x86_feature_detected!("lzcnt")
        && is_x86_feature_detected!("popcnt");
    let v4 = v3
        && is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512vl")
        && is_x86_feature_detected!("avx512cd");
    match value {
        "portable" => (false, false),
        "v3" => (v3, false),
        _ => (v3, v4),
    }
}

/// Run by [`othello_isa_chooses_the_copies`] in a child process with
/// `OTHELLO_ISA` set.
#[cfg(target_arch = "x86_64")]
#[test]
#[ignore = "run by othello_isa_chooses_the_copies, with OTHELLO_ISA set"]
fn copies_under_othello_isa() {
    use othello::board::isa::{Avx512, Haswell};
    let value = std::env::var("OTHELLO_ISA").unwrap_or_default();
    let (v3, v4) = allowed(&value);
    assert_eq!(Haswell::detect().is_some(), v3, "OTHELLO_ISA={value}");
    assert_eq!(Avx512::detect().is_some(), v4, "OTHELLO_ISA={value}");
    assert_eq!(perft(Position::<S8>::start(), 6), 8200);
    assert_eq!(perft(Position::<S10>::start(), 3), 56);
}

#[cfg(target_arch = "x86_64")]
#[test]
fn othello_isa_chooses_the_copies() {
    let exe = std::env::current_exe().expect("the test executable");
    for value in ["portable", "v3", "any"] {
        let out = std::process::Command::new(&exe)
            .args(["--exact", "copies_under_othello_isa", "--ignored"])
            .env("OTHELLO_ISA", value)
            .output()
            .expect("the test executable runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("1 passed"),
            "OTHELLO_ISA={value}:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
