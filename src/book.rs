//! The opening book: 8x8 positions, each stored once for its eight
//! symmetric forms, with the value of the moves known there.
//!
//! A value is in discs, from the point of view of the side to move in the
//! position, and is negamaxed: a move leading to another book position is
//! worth minus that position's best value; the others were searched when
//! the book was built (`othello-book` in the tools crate).
//!
//! File format, version 1 (all integers little-endian):
//!
//! | bytes | content |
//! |-------|---------|
//! | 8     | magic `OTHBOOK\0` |
//! | 4     | format version, 1 |
//! | 4     | board side, 8 |
//! | 4     | number of positions `n` |
//! | 4     | reserved, 0 |
//! | `n` × | a position: 8 bytes the discs of the side to move, 8 bytes the other side's (bit `row * 8 + col`, a1 = bit 0), 1 byte the number of moves `m`, then `m` × (1 byte square, 1 byte signed value) |
//!
//! Positions are in their canonical form (the least `(player, opponent)`
//! pair of the eight symmetries, see [`canonical`]) and in increasing
//! order; moves are squares of that form, legal there, at most once each.

use crate::error::Error;
use once_cell::sync::Lazy;
use std::collections::HashMap;

/// The first bytes of a book file.
pub const MAGIC: &[u8; 8] = b"OTHBOOK\0";
/// The format version this library reads and writes.
pub const VERSION: u32 = 1;
const HEADER: usize = 24;

/// The book built into the library (see docs/guide.md: what it covers, and
/// docs/training.md: how it was built).
static DEFAULT_BYTES: &[u8] = include_bytes!("../weights/book.bin");
static DEFAULT: Lazy<Book> =
    Lazy::new(|| Book::from_bytes(DEFAULT_BYTES).expect("the built-in book is valid"));

/// A move of a book position with its value (discs, side to move's view).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BookMove {
    /// `row * 8 + col`.
    pub square: u32,
    pub value: i32,
}

/// Which opening book an engine plays from. The built-in book is read
/// when a search first looks in it, not when an engine is made.
#[derive(Clone, Debug, Default)]
pub enum BookChoice {
    /// No book: every move is searched.
    None,
    /// The book built into the library ([`Book::builtin`]).
    #[default]
    Builtin,
    /// A book read from a file or bytes.
    Loaded(std::sync::Arc<Book>),
}

impl BookChoice {
    /// The book chosen, if any.
    pub fn book(&self) -> Option<&Book> {
        match self {
            BookChoice::None => None,
            BookChoice::Builtin => Some(Book::builtin()),
            BookChoice::Loaded(book) => Some(book),
        }
    }
}

/// Positions (in canonical form) and their moves.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct Book {
    positions: HashMap<(u64, u64), Vec<(u8, i8)>>,
}

/// The board under symmetry `k` (0..8): first transposed (bit 2 of `k`),
/// then mirrored left-right (bit 1), then flipped top-bottom (bit 0).
pub fn transform(b: u64, k: usize) -> u64 {
    let mut b = b;
    if k & 4 != 0 {
        b = transpose(b);
    }
    if k & 2 != 0 {
        b = mirror(b);
    }
    if k & 1 != 0 {
        b = b.swap_bytes();
    }
    b
}

/// The inverse of [`transform`] with the same `k`.
pub fn untransform(b: u64, k: usize) -> u64 {
    let mut b = b;
    if k & 1 != 0 {
        b = b.swap_bytes();
    }
    if k & 2 != 0 {
        b = mirror(b);
    }
    if k & 4 != 0 {
        b = transpose(b);
    }
    b
}

/// Columns reversed (a <-> h) in every row.
fn mirror(b: u64) -> u64 {
    let b = ((b >> 1) & 0x5555_5555_5555_5555) | ((b & 0x5555_5555_5555_5555) << 1);
    let b = ((b >> 2) & 0x3333_3333_3333_3333) | ((b & 0x3333_3333_3333_3333) << 2);
    ((b >> 4) & 0x0f0f_0f0f_0f0f_0f0f) | ((b & 0x0f0f_0f0f_0f0f_0f0f) << 4)
}

/// Rows and columns exchanged (square `r * 8 + c` to `c * 8 + r`).
fn transpose(b: u64) -> u64 {
    let t = (b ^ (b >> 7)) & 0x00aa_00aa_00aa_00aa;
    let b = b ^ t ^ (t << 7);
    let t = (b ^ (b >> 14)) & 0x0000_cccc_0000_cccc;
    let b = b ^ t ^ (t << 14);
    let t = (b ^ (b >> 28)) & 0x0000_0000_f0f0_f0f0;
    b ^ t ^ (t << 28)
}

/// The canonical form of a position and the symmetry that gives it: the
/// least `(player, opponent)` pair over the eight symmetries.
pub fn canonical(player: u64, opponent: u64) -> (u64, u64, usize) {
    (0..8)
        .map(|k| (transform(player, k), transform(opponent, k), k))
        .min()
        .expect("eight symmetries")
}

fn square_under(sq: u32, k: usize, forward: bool) -> u32 {
    let b = 1u64 << sq;
    let t = if forward {
        transform(b, k)
    } else {
        untransform(b, k)
    };
    t.trailing_zeros()
}

impl Book {
    /// An empty book.
    pub fn new() -> Book {
        Book::default()
    }

    /// The book built into the library, read once, shared by every engine
    /// that plays from it.
    pub fn builtin() -> &'static Book {
        &DEFAULT
    }

    /// Reads a book file: InvalidArgument for a file that cannot be read,
    /// or as [`Book::from_bytes`].
    pub fn load(path: &std::path::Path) -> Result<Book, Error> {
        let bytes = std::fs::read(path).map_err(|e| {
            Error::InvalidArgument(format!("cannot read the book {}: {e}", path.display()))
        })?;
        Book::from_bytes(&bytes)
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Stores the moves of a position (squares and values as seen from this
    /// orientation), replacing what the book knew of it. InvalidArgument if
    /// the discs overlap, a move is not legal or repeated, or a value is
    /// outside -64..=64.
    pub fn insert(&mut self, player: u64, opponent: u64, moves: &[BookMove]) -> Result<(), Error> {
        let (cp, co, k) = canonical(player, opponent);
        let mut stored = Vec::with_capacity(moves.len());
        for m in moves {
            if m.square >= 64 || !(-64..=64).contains(&m.value) {
                return Err(Error::InvalidArgument(format!(
                    "book move {} with value {} is out of range",
                    m.square, m.value
                )));
            }
            stored.push((square_under(m.square, k, true) as u8, m.value as i8));
        }
        check_position(cp, co, &stored)?;
        self.positions.insert((cp, co), stored);
        Ok(())
    }

    /// The moves the book knows in this position, in its orientation, best
    /// first (ties by square); empty when the position is not in the book.
    pub fn moves(&self, player: u64, opponent: u64) -> Vec<BookMove> {
        let (cp, co, k) = canonical(player, opponent);
        let Some(stored) = self.positions.get(&(cp, co)) else {
            return Vec::new();
        };
        let mut out: Vec<BookMove> = stored
            .iter()
            .map(|&(sq, v)| BookMove {
                square: square_under(sq.into(), k, false),
                value: v.into(),
            })
            .collect();
        out.sort_by_key(|m| (-m.value, m.square));
        out
    }

    /// Every position, canonical, in increasing order, with its moves in
    /// canonical squares.
    pub fn entries(&self) -> Vec<((u64, u64), Vec<BookMove>)> {
        let mut keys: Vec<&(u64, u64)> = self.positions.keys().collect();
        keys.sort_unstable();
        keys.into_iter()
            .map(|key| {
                let moves = self.positions[key]
                    .iter()
                    .map(|&(sq, v)| BookMove {
                        square: sq.into(),
                        value: v.into(),
                    })
                    .collect();
                (*key, moves)
            })
            .collect()
    }

    /// The book in the file format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + self.len() * 24);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&8u32.to_le_bytes());
        out.extend_from_slice(&(self.len() as u32).to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        for ((p, o), moves) in self.entries() {
            out.extend_from_slice(&p.to_le_bytes());
            out.extend_from_slice(&o.to_le_bytes());
            out.push(moves.len() as u8);
            for m in moves {
                out.push(m.square as u8);
                out.push(m.value as i8 as u8);
            }
        }
        out
    }

    /// Reads a book file's bytes, checking everything: InvalidArgument
    /// saying what is wrong for a corrupt, truncated or foreign file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, Error> {
        let bad = |what: String| Error::InvalidArgument(format!("not a valid book: {what}"));
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(bad("it does not start with the book header".into()));
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        if word(8) != VERSION {
            return Err(bad(format!(
                "format version {} (this library reads {VERSION})",
                word(8)
            )));
        }
        if word(12) != 8 {
            return Err(bad(format!("board side {} (books are 8x8)", word(12))));
        }
        let count = word(16) as usize;
        let mut book = Book::new();
        book.positions.reserve(count.min(bytes.len() / 17));
        let mut at = HEADER;
        let mut last: Option<(u64, u64)> = None;
        for i in 0..count {
            let truncated = || bad(format!("truncated in position {i} of {count}"));
            let head = bytes.get(at..at + 17).ok_or_else(truncated)?;
            let p = u64::from_le_bytes(head[..8].try_into().expect("8 bytes"));
            let o = u64::from_le_bytes(head[8..16].try_into().expect("8 bytes"));
            let m = head[16] as usize;
            let body = bytes.get(at + 17..at + 17 + 2 * m).ok_or_else(truncated)?;
            at += 17 + 2 * m;
            if last.is_some_and(|l| l >= (p, o)) {
                return Err(bad(format!("position {i} is out of order or repeated")));
            }
            last = Some((p, o));
            let (cp, co, _) = canonical(p, o);
            if (cp, co) != (p, o) {
                return Err(bad(format!("position {i} is not in canonical form")));
            }
            let moves: Vec<(u8, i8)> = body.chunks(2).map(|c| (c[0], c[1] as i8)).collect();
            check_position(p, o, &moves).map_err(|e| bad(format!("position {i}: {e}")))?;
            book.positions.insert((p, o), moves);
        }
        if at != bytes.len() {
            return Err(bad(format!(
                "{} bytes after the last position",
                bytes.len() - at
            )));
        }
        Ok(book)
    }
}

/// Checks a stored position: disjoint discs, legal distinct moves, values
/// within -64..=64.
fn check_position(p: u64, o: u64, moves: &[(u8, i8)]) -> Result<(), Error> {
    if p & o != 0 {
        return Err(Error::InvalidArgument(
            "a square holds discs of both sides".into(),
        ));
    }
    let legal = crate::board::s8::moves_of(p, o);
    let mut seen = 0u64;
    for &(sq, v) in moves {
        if sq >= 64 || legal & (1u64 << sq) == 0 || seen & (1u64 << sq) != 0 {
            return Err(Error::InvalidArgument(format!(
                "move {sq} is not legal there or repeated"
            )));
        }
        if !(-64..=64).contains(&v) {
            return Err(Error::InvalidArgument(format!(
                "value {v} is outside -64..64"
            )));
        }
        seen |= 1u64 << sq;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Bits, Position, S8};

    fn start() -> (u64, u64) {
        let s = Position::<S8>::start();
        (s.player, s.opponent)
    }

    #[test]
    fn transforms_are_the_eight_symmetries() {
        use crate::board::position::symmetric_square;
        // Each transform maps squares as one of the board's symmetries,
        // all eight differ, and untransform inverts it.
        let mut seen = Vec::new();
        for k in 0..8 {
            let map: Vec<u32> = (0..64).map(|sq| square_under(sq, k, true)).collect();
            let matches = (0..8)
                .filter(|&j| (0..64).all(|sq| map[sq as usize] == symmetric_square(8, sq, j)))
                .count();
            assert_eq!(matches, 1, "transform {k}");
            assert!(!seen.contains(&map));
            seen.push(map);
            let b = 0x0123_4567_89ab_cdefu64;
            assert_eq!(untransform(transform(b, k), k), b);
        }
    }

    #[test]
    fn a_position_is_found_in_every_orientation() {
        let (p, o) = start();
        let pos = Position::<S8>::new(p, o).play(19).unwrap(); // d3
        let moves: Vec<BookMove> = pos
            .legal_moves()
            .squares()
            .enumerate()
            .map(|(i, sq)| BookMove {
                square: sq,
                value: i as i32 - 1,
            })
            .collect();
        let mut book = Book::new();
        book.insert(pos.player, pos.opponent, &moves).unwrap();
        for k in 0..8 {
            let (tp, to) = (transform(pos.player, k), transform(pos.opponent, k));
            let found = book.moves(tp, to);
            assert_eq!(found.len(), moves.len());
            for m in &moves {
                let sq = square_under(m.square, k, true);
                assert!(found.contains(&BookMove {
                    square: sq,
                    value: m.value
                }));
            }
            assert!(found.windows(2).all(|w| w[0].value >= w[1].value));
        }
        // Bytes round trip.
        let again = Book::from_bytes(&book.to_bytes()).unwrap();
        assert_eq!(again, book);
        assert!(book.moves(p, o).is_empty());
    }

    #[test]
    fn bad_files_and_moves_are_refused() {
        let (p, o) = start();
        let mut book = Book::new();
        let illegal = [BookMove {
            square: 0,
            value: 0,
        }];
        assert!(book.insert(p, o, &illegal).is_err());
        let big = [BookMove {
            square: 19,
            value: 65,
        }];
        assert!(book.insert(p, o, &big).is_err());
        book.insert(
            p,
            o,
            &[BookMove {
                square: 19,
                value: 0,
            }],
        )
        .unwrap();
        let bytes = book.to_bytes();
        assert!(Book::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Book::from_bytes(&longer).is_err());
        let mut version = bytes.clone();
        version[8] = 2;
        assert!(Book::from_bytes(&version).is_err());
        let mut corrupt = bytes.clone();
        let last = corrupt.len() - 2;
        corrupt[last] = 0; // a1: not legal at the start
        assert!(Book::from_bytes(&corrupt).is_err());
        assert!(Book::from_bytes(b"OTHBOOK").is_err());
    }

    #[test]
    #[cfg_attr(miri, ignore = "the 800 KB built-in book: over 15 minutes under Miri")]
    fn the_builtin_book_knows_the_start() {
        let (p, o) = start();
        let book = Book::builtin();
        let moves = book.moves(p, o);
        // The four first moves are one up to symmetry: all in the book with
        // one value.
        assert_eq!(moves.len(), 4, "{moves:?}");
        assert!(moves.iter().all(|m| m.value == moves[0].value));
    }
}
