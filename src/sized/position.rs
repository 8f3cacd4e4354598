//! The rules on any board size: a position seen from the side to move, with
//! shift-and-mask move generation (parallel fills, a few doubling steps per
//! direction) and flips by walking each ray from the move with shifts. No
//! loop over squares on either path.

use super::bits::Bits;
use super::geometry::Geometry;
use std::fmt;

/// One step in direction `D` from every square of `x`, masked so that no
/// square wraps around to the other side of the board:
/// 0 east, 1 west, 2 north (row + 1), 3 south, 4 north-east, 5 south-west,
/// 6 north-west, 7 south-east.
#[inline(always)]
pub fn step<G: Geometry, const D: usize>(x: G::B) -> G::B {
    let n = G::N;
    match D {
        0 => (x << 1) & G::NOT_COL0,
        1 => (x >> 1) & G::NOT_COLN,
        2 => (x << n) & G::ALL,
        3 => x >> n,
        4 => (x << (n + 1)) & G::NOT_COL0,
        5 => (x >> (n + 1)) & G::NOT_COLN,
        6 => (x << (n - 1)) & G::NOT_COLN,
        _ => (x >> (n - 1)) & G::NOT_COL0,
    }
}

/// Candidate moves of `p` along one axis (shift `s`, both senses): squares
/// just past a run of `pr` squares that starts next to a disc of `p`. Runs
/// are at most N - 2 long: grown one step twice, then by doubling steps.
#[inline(always)]
fn axis<G: Geometry>(p: G::B, pr: G::B, s: u32) -> G::B {
    let n = G::N;
    let mut up = pr & (p << s);
    let mut down = pr & (p >> s);
    up |= pr & (up << s);
    down |= pr & (down >> s);
    if n > 4 {
        // Runs of 3 and 4, then (8x8 and up) 5 and 6.
        let pr2u = pr & (pr << s);
        let pr2d = pr & (pr >> s);
        let s2 = 2 * s;
        up |= pr2u & (up << s2);
        down |= pr2d & (down >> s2);
        if n > 6 {
            up |= pr2u & (up << s2);
            down |= pr2d & (down >> s2);
        }
        if n > 8 {
            // Runs up to 10, then (14x14 and up) 14.
            let pr4u = pr2u & (pr2u << s2);
            let pr4d = pr2d & (pr2d >> s2);
            let s4 = 4 * s;
            up |= pr4u & (up << s4);
            down |= pr4d & (down >> s4);
            if n > 12 {
                up |= pr4u & (up << s4);
                down |= pr4d & (down >> s4);
            }
        }
    }
    (up << s) | (down >> s)
}

/// Legal moves of `p` against `o`.
#[inline(always)]
pub fn moves_of<G: Geometry>(p: G::B, o: G::B) -> G::B {
    let n = G::N;
    // Horizontal and diagonal runs never include an edge column: a run
    // touching one cannot be flanked, and excluding them stops every wrap.
    let inner = o & G::INNER;
    let m = axis::<G>(p, inner, 1)
        | axis::<G>(p, o, n)
        | axis::<G>(p, inner, n + 1)
        | axis::<G>(p, inner, n - 1);
    m & !(p | o) & G::ALL
}

/// The discs of `o` flipped along direction `D` of `rays` (see
/// [`flips_of`]).
#[inline(always)]
fn ray_flips<G: Geometry, const D: usize>(p: G::B, o: G::B, rays: &[[G::B; 8]], sq: u32) -> G::B {
    let ray = rays[sq as usize][D];
    let stop = !o & ray;
    if stop.is_zero() {
        return G::B::ZERO;
    }
    let first = if D < 4 { stop.lowest() } else { stop.highest() };
    if p.has(first) {
        // The ray up to `first`, without it and what lies beyond.
        ray ^ rays[first as usize][D] ^ G::B::bit(first)
    } else {
        G::B::ZERO
    }
}

/// Discs flipped when `p` plays on the empty square `sq` against `o`; empty
/// if the move is illegal. Per direction, the first square of the ray that
/// is not an opponent disc is its lowest (rays walking up the square order)
/// or highest (walking down) bit outside `o`: if it holds a disc of `p`, the
/// squares of the ray before it flip.
#[inline]
pub fn flips_of<G: Geometry>(p: G::B, o: G::B, sq: u32) -> G::B {
    let rays: &[[G::B; 8]] = &G::tables().rays;
    ray_flips::<G, 0>(p, o, rays, sq)
        | ray_flips::<G, 1>(p, o, rays, sq)
        | ray_flips::<G, 2>(p, o, rays, sq)
        | ray_flips::<G, 3>(p, o, rays, sq)
        | ray_flips::<G, 4>(p, o, rays, sq)
        | ray_flips::<G, 5>(p, o, rays, sq)
        | ray_flips::<G, 6>(p, o, rays, sq)
        | ray_flips::<G, 7>(p, o, rays, sq)
}

/// Squares next to (in the 8 directions) any square of `bits`.
#[inline]
pub fn neighbours<G: Geometry>(bits: G::B) -> G::B {
    let h = step::<G, 0>(bits) | step::<G, 1>(bits);
    let row = bits | h;
    h | step::<G, 2>(row) | step::<G, 3>(row)
}

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
pub struct Pos<G: Geometry> {
    pub player: G::B,
    pub opponent: G::B,
}

impl<G: Geometry> Clone for Pos<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Geometry> Copy for Pos<G> {}

impl<G: Geometry> PartialEq for Pos<G> {
    fn eq(&self, other: &Self) -> bool {
        self.player == other.player && self.opponent == other.opponent
    }
}

impl<G: Geometry> Eq for Pos<G> {}

impl<G: Geometry> fmt::Debug for Pos<G> {
    /// The board row by row from row 1, `X` for the side to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pos{}x{}(", G::N, G::N)?;
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

impl<G: Geometry> Pos<G> {
    /// The standard start, black (the side to move) on the lower-left and
    /// upper-right centre squares.
    pub fn start() -> Pos<G> {
        Pos {
            player: G::START_BLACK,
            opponent: G::START_WHITE,
        }
    }

    pub fn new(player: G::B, opponent: G::B) -> Pos<G> {
        Pos { player, opponent }
    }

    #[inline]
    pub fn empties(self) -> G::B {
        !(self.player | self.opponent) & G::ALL
    }

    #[inline]
    pub fn legal_moves(self) -> G::B {
        moves_of::<G>(self.player, self.opponent)
    }

    /// Moves the opponent would have if it were to move now.
    #[inline]
    pub fn opponent_moves(self) -> G::B {
        moves_of::<G>(self.opponent, self.player)
    }

    /// Discs flipped by a move on `sq`; empty if the move is illegal or `sq`
    /// is occupied.
    #[inline]
    pub fn flips(self, sq: u32) -> G::B {
        if (self.player | self.opponent).has(sq) {
            return G::B::ZERO;
        }
        flips_of::<G>(self.player, self.opponent, sq)
    }

    /// The position after the side to move plays `sq`, which flips `flips`.
    #[inline]
    pub fn play_with(self, sq: u32, flips: G::B) -> Pos<G> {
        Pos {
            player: self.opponent ^ flips,
            opponent: self.player ^ flips ^ G::B::bit(sq),
        }
    }

    /// The position after a legal move on `sq`, or `None` if it is illegal.
    pub fn play(self, sq: u32) -> Option<Pos<G>> {
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
    pub fn pass(self) -> Pos<G> {
        Pos {
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
    use crate::rng::Rng;
    use crate::sized::geometry::*;

    /// Random positions of random games, passes included.
    fn random_positions<G: Geometry>(seed: u64, games: usize) -> Vec<Pos<G>> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = Pos::<G>::start();
            loop {
                out.push(pos);
                let moves: Vec<u32> = pos.legal_moves().squares().collect();
                if moves.is_empty() {
                    if pos.opponent_moves().is_zero() {
                        break;
                    }
                    pos = pos.pass();
                    continue;
                }
                pos = pos.play(moves[rng.below(moves.len())]).unwrap();
            }
        }
        out
    }

    #[test]
    fn generic_8x8_equals_the_dedicated_rules() {
        for pos in random_positions::<S8>(1, 60) {
            let dedicated =
                crate::Position::new(crate::Bitboard(pos.player), crate::Bitboard(pos.opponent));
            assert_eq!(pos.legal_moves(), dedicated.legal_moves().0);
            assert_eq!(pos.opponent_moves(), dedicated.opponent_moves().0);
            for sq in 0..64 {
                let f = pos.flips(sq);
                let d = dedicated.flips(crate::Square::new(sq as i64).unwrap());
                assert_eq!(f, d.0, "{pos:?} {sq}");
            }
            assert_eq!(
                neighbours::<S8>(pos.player),
                crate::position::neighbours(pos.player)
            );
            assert_eq!(pos.final_score(), dedicated.final_score());
        }
    }

    /// Moves and flips by walking squares one by one, for any size.
    fn slow_flips<G: Geometry>(pos: Pos<G>, sq: u32) -> G::B {
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
        // Random dense boards: long runs in every direction.
        for _ in 0..300 {
            let mut p = G::B::ZERO;
            let mut o = G::B::ZERO;
            for sq in 0..G::SQUARES {
                match rng.below(8) {
                    0 => p |= G::B::bit(sq),
                    1..=5 => o |= G::B::bit(sq),
                    _ => {}
                }
            }
            positions.push(Pos::new(p, o));
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
        agrees_with_square_walk::<S4>(40);
        agrees_with_square_walk::<S6>(20);
        agrees_with_square_walk::<S8>(5);
        agrees_with_square_walk::<S10>(3);
        agrees_with_square_walk::<S12>(2);
        agrees_with_square_walk::<S14>(1);
        agrees_with_square_walk::<S16>(1);
    }

    #[test]
    fn symmetric_moves_are_kept_once() {
        fn check<G: Geometry>() {
            let start = Pos::<G>::start();
            let kept = distinct_moves::<G>(start.player, start.opponent, start.legal_moves());
            assert_eq!(kept.count(), 1, "the four openings are one");
            let mut dropped_some = false;
            for pos in random_positions::<G>(7, 30) {
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
            let p = Pos::<G>::start();
            assert_eq!(p.legal_moves().count(), 4);
            assert_eq!(p.final_score(), 0);
            let h = G::N / 2;
            // d3 on 8x8: row h - 2, column h - 1.
            assert!(p.legal_moves().has((h - 2) * G::N + h - 1));
        }
        four::<S4>();
        four::<S6>();
        four::<S10>();
        four::<S12>();
        four::<S14>();
        four::<S16>();
    }
}
