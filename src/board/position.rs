//! A position seen from the side to move, on any board size: the discs of
//! the player to move and of the opponent (not their colours: the game knows
//! those, and the search needs only this). The rules' hot operations are the
//! geometry's (see [`Geometry`]); the board's symmetries are here too.

use super::bits::Bits;
use super::geometry::Geometry;
use std::fmt;

/// Square `sq` of the `n`x`n` board under symmetry `k` (0..8): the
/// identity, the three rotations and the four reflections.
pub fn symmetric_square(n: u32, sq: u32, k: usize) -> u32 {
    let (r, c) = (sq / n, sq % n);
    let (r, c) = match k {
        0 => (r, c),
        1 => (c, n - 1 - r),
        2 => (n - 1 - r, n - 1 - c),
        3 => (n - 1 - c, r),
        4 => (r, n - 1 - c),
        5 => (n - 1 - r, c),
        6 => (c, r),
        _ => (n - 1 - c, n - 1 - r),
    };
    r * n + c
}

/// `bits` under symmetry `k` (0..8) of the board. Square by square: for
/// rare use.
pub fn symmetric<G: Geometry>(bits: G::B, k: usize) -> G::B {
    let mut out = G::B::ZERO;
    for sq in bits.squares() {
        out |= G::B::bit(symmetric_square(G::N, sq, k));
    }
    out
}

/// The moves of `moves` worth searching in the position (`p`, `o`): all of
/// them, unless the position is symmetric; then only the first of each set
/// of moves that the position's symmetries map onto each other (they lead
/// to the same position up to a symmetry, so to the same value).
pub fn distinct_moves<G: Geometry>(p: G::B, o: G::B, moves: G::B) -> G::B {
    let symmetries: Vec<usize> = (1..8)
        .filter(|&k| symmetric::<G>(p, k) == p && symmetric::<G>(o, k) == o)
        .collect();
    if symmetries.is_empty() {
        return moves;
    }
    let mut kept = G::B::ZERO;
    for x in moves.squares() {
        if !symmetries
            .iter()
            .any(|&k| kept.has(symmetric_square(G::N, x, k)))
        {
            kept |= G::B::bit(x);
        }
    }
    kept
}

/// Discs of the side to move (`player`) and of the other side (`opponent`).
pub struct Position<G: Geometry> {
    pub player: G::B,
    pub opponent: G::B,
}

impl<G: Geometry> Clone for Position<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Geometry> Copy for Position<G> {}

impl<G: Geometry> PartialEq for Position<G> {
    fn eq(&self, other: &Self) -> bool {
        self.player == other.player && self.opponent == other.opponent
    }
}

impl<G: Geometry> Eq for Position<G> {}

impl<G: Geometry> std::hash::Hash for Position<G> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.player.hash(state);
        self.opponent.hash(state);
    }
}

impl<G: Geometry> fmt::Debug for Position<G> {
    /// The board row by row from row 1, `X` for the side to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position{}x{}(", G::N, G::N)?;
        for sq in 0..G::SQUARES {
            if sq > 0 && sq % G::N == 0 {
                f.write_str("/")?;
            }
            let c = if self.player.has(sq) {
                'X'
            } else if self.opponent.has(sq) {
                'O'
            } else {
                '-'
            };
            write!(f, "{c}")?;
        }
        f.write_str(")")
    }
}

impl<G: Geometry> Position<G> {
    /// The standard start, black (the side to move) on the lower-left and
    /// upper-right centre squares.
    pub fn start() -> Position<G> {
        Position {
            player: G::START_BLACK,
            opponent: G::START_WHITE,
        }
    }

    pub fn new(player: G::B, opponent: G::B) -> Position<G> {
        Position { player, opponent }
    }

    #[inline]
    pub fn empties(self) -> G::B {
        !(self.player | self.opponent) & G::ALL
    }

    #[inline]
    pub fn legal_moves(self) -> G::B {
        G::moves(self.player, self.opponent)
    }

    /// Moves the opponent would have if it were to move now.
    #[inline]
    pub fn opponent_moves(self) -> G::B {
        G::moves(self.opponent, self.player)
    }

    /// Discs flipped by a move on `sq`; empty if the move is illegal or `sq`
    /// is occupied.
    #[inline]
    pub fn flips(self, sq: u32) -> G::B {
        if (self.player | self.opponent).has(sq) {
            return G::B::ZERO;
        }
        G::flips(self.player, self.opponent, sq)
    }

    /// True if the side to move may play on `sq`.
    #[inline]
    pub fn is_legal(self, sq: u32) -> bool {
        sq < G::SQUARES && self.legal_moves().has(sq)
    }

    /// The position after the side to move plays `sq`, which flips `flips`.
    #[inline]
    pub fn play_with(self, sq: u32, flips: G::B) -> Position<G> {
        Position {
            player: self.opponent ^ flips,
            opponent: self.player ^ flips ^ G::B::bit(sq),
        }
    }

    /// The position after a legal move on `sq`, or `None` if it is illegal.
    pub fn play(self, sq: u32) -> Option<Position<G>> {
        if sq >= G::SQUARES {
            return None;
        }
        let f = self.flips(sq);
        if f.is_zero() {
            None
        } else {
            Some(self.play_with(sq, f))
        }
    }

    /// The position with the turn handed over.
    #[inline]
    pub fn pass(self) -> Position<G> {
        Position {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// True when the side to move has no move but the opponent has one.
    pub fn must_pass(self) -> bool {
        self.legal_moves().is_zero() && !self.opponent_moves().is_zero()
    }

    /// True when neither side can move.
    pub fn is_game_over(self) -> bool {
        self.legal_moves().is_zero() && self.opponent_moves().is_zero()
    }

    /// The final disc difference for the side to move: empties go to the winner.
    pub fn final_score(self) -> i32 {
        final_score::<G>(self.player, self.opponent)
    }
}

/// The final disc difference of `p` against `o`, the empties to the winner.
#[inline]
pub fn final_score<G: Geometry>(p: G::B, o: G::B) -> i32 {
    let p = p.count() as i32;
    let o = o.count() as i32;
    let e = G::SQUARES as i32 - p - o;
    match p.cmp(&o) {
        std::cmp::Ordering::Greater => p - o + e,
        std::cmp::Ordering::Less => p - o - e,
        std::cmp::Ordering::Equal => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::testing::{for_every_size, random_positions};
    use crate::board::*;
    use crate::rng::Rng;

    /// Moves and flips by walking squares one by one, for any size.
    fn slow_flips<G: Geometry>(pos: Position<G>, sq: u32) -> G::B {
        let n = G::N as i32;
        let mut out = G::B::ZERO;
        if (pos.player | pos.opponent).has(sq) {
            return out;
        }
        for (dr, dc) in [
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
        ] {
            let (mut r, mut c) = (sq as i32 / n + dr, sq as i32 % n + dc);
            let mut run = G::B::ZERO;
            while (0..n).contains(&r) && (0..n).contains(&c) {
                let s = (r * n + c) as u32;
                if pos.opponent.has(s) {
                    run |= G::B::bit(s);
                } else {
                    if pos.player.has(s) {
                        out |= run;
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        out
    }

    fn agrees_with_square_walk<G: Geometry>(games: usize) {
        let mut rng = Rng::new(G::N as u64);
        let mut positions = random_positions::<G>(G::N as u64, games);
        // Random dense boards: long runs in every direction (one under
        // Miri, tests/miri.sh).
        for _ in 0..if cfg!(miri) { 1 } else { 300 } {
            let mut p = G::B::ZERO;
            let mut o = G::B::ZERO;
            for sq in 0..G::SQUARES {
                match rng.below(8) {
                    0 => p |= G::B::bit(sq),
                    1..=5 => o |= G::B::bit(sq),
                    _ => {}
                }
            }
            positions.push(Position::new(p, o));
        }
        for pos in positions {
            let mut moves = G::B::ZERO;
            for sq in 0..G::SQUARES {
                let f = slow_flips(pos, sq);
                assert_eq!(pos.flips(sq), f, "{pos:?} square {sq}");
                if !f.is_zero() {
                    moves |= G::B::bit(sq);
                }
            }
            assert_eq!(pos.legal_moves(), moves, "{pos:?}");
            assert!((pos.legal_moves() & !G::ALL).is_zero());
        }
    }

    #[test]
    fn every_size_agrees_with_a_square_walk() {
        // Miri (tests/miri.sh): a twentieth of the games.
        let games = |n: usize| if cfg!(miri) { n / 20 } else { n };
        agrees_with_square_walk::<S4>(games(40));
        agrees_with_square_walk::<S6>(games(20));
        agrees_with_square_walk::<S8>(games(5));
        agrees_with_square_walk::<S10>(games(3));
        // Miri (tests/miri.sh) stops at 10x10 (see `for_every_size`).
        #[cfg(not(miri))]
        {
            agrees_with_square_walk::<S12>(games(2));
            agrees_with_square_walk::<S14>(games(1));
            agrees_with_square_walk::<S16>(games(1));
        }
    }

    #[test]
    fn symmetric_moves_are_kept_once() {
        fn check<G: Geometry>() {
            let start = Position::<G>::start();
            let kept = distinct_moves::<G>(start.player, start.opponent, start.legal_moves());
            assert_eq!(kept.count(), 1, "the four openings are one");
            let mut dropped_some = false;
            for pos in random_positions::<G>(7, if cfg!(miri) { 1 } else { 30 }) {
                let moves = pos.legal_moves();
                let kept = distinct_moves::<G>(pos.player, pos.opponent, moves);
                assert!((kept & !moves).is_zero());
                assert_eq!(kept.is_zero(), moves.is_zero());
                // Every move left out leads to the image of a kept move's
                // position under a symmetry of the board.
                for x in (moves & !kept).squares() {
                    dropped_some = true;
                    let child = pos.play(x).unwrap();
                    let found = kept.squares().any(|y| {
                        let other = pos.play(y).unwrap();
                        (1..8).any(|k| {
                            symmetric::<G>(other.player, k) == child.player
                                && symmetric::<G>(other.opponent, k) == child.opponent
                        })
                    });
                    assert!(found, "{pos:?}: move {x}");
                }
            }
            assert!(dropped_some);
        }
        check::<S4>();
        check::<S6>();
        check::<S10>();
    }

    #[test]
    fn start_moves_on_every_size() {
        fn four<G: Geometry>() {
            let p = Position::<G>::start();
            assert_eq!(p.legal_moves().count(), 4);
            assert_eq!(p.final_score(), 0);
            let h = G::N / 2;
            // d3 on 8x8: row h - 2, column h - 1.
            assert!(p.legal_moves().has((h - 2) * G::N + h - 1));
        }
        for_every_size!(four);
    }

    fn sq(name: &str) -> u32 {
        crate::board::square::parse_square(8, name).unwrap()
    }

    fn names(n: u32, bits: impl Bits) -> Vec<String> {
        bits.squares()
            .map(|s| crate::board::square::square_name(n, s))
            .collect()
    }

    #[test]
    fn start_moves() {
        let p = Position::<S8>::start();
        assert_eq!(names(8, p.legal_moves()), vec!["d3", "c4", "f5", "e6"]);
        assert_eq!(p.flips(sq("f5")), <u64 as Bits>::bit(sq("e5")));
        assert!(p.flips(sq("d4")).is_zero());
        assert!(p.flips(sq("a1")).is_zero());
        assert!(!p.is_legal(64));
        assert_eq!(p.play(64), None);
    }

    #[test]
    fn final_score_gives_empties_to_winner() {
        let p = Position::<S8>::new(0b111, 0b1000);
        assert_eq!(p.final_score(), 3 - 1 + 60);
        assert_eq!(p.pass().final_score(), -62);
        let d = Position::<S8>::new(0b1, 0b10);
        assert_eq!(d.final_score(), 0);
        fn small<G: Geometry>() {
            let p = Position::<G>::new(G::B::bit(0) | G::B::bit(1), G::B::bit(2));
            assert_eq!(p.final_score(), G::SQUARES as i32 - 2);
            assert_eq!(p.pass().final_score(), 2 - G::SQUARES as i32);
        }
        for_every_size!(small);
    }

    #[test]
    fn neighbours_do_not_wrap() {
        assert_eq!(
            names(8, S8::neighbours(<u64 as Bits>::bit(sq("h1")))),
            vec!["g1", "g2", "h2"]
        );
        fn corners<G: Geometry>() {
            let n = G::N;
            // The last square of row 1 and the first of row 2 touch only
            // their own side of the board.
            let h = names(n, G::neighbours(G::B::bit(n - 1)));
            let last = (b'a' + (n - 1) as u8) as char;
            let before = (b'a' + (n - 2) as u8) as char;
            assert_eq!(
                h,
                vec![
                    format!("{before}1"),
                    format!("{before}2"),
                    format!("{last}2")
                ]
            );
            let a2 = names(n, G::neighbours(G::B::bit(n)));
            assert_eq!(a2, vec!["a1", "b1", "b2", "a3", "b3"]);
            assert!((G::neighbours(G::ALL) & !G::ALL).is_zero());
        }
        for_every_size!(corners);
    }

    #[test]
    fn squares_are_iterated_in_order() {
        let b: u64 = 0b1010_0001;
        let v: Vec<u32> = b.squares().collect();
        assert_eq!(v, vec![0, 5, 7]);
        assert_eq!(b.count(), 3);
        assert_eq!(b.squares().len(), 3);
    }
}
