//! The Othello rules on bitboards: a position seen from the side to move.
//!
//! `Position` holds the discs of the player to move and of the opponent; it does
//! not know colours (the game handle does), which halves the work of search code.
//! Move generation uses shift-and-mask fills, flips use per-square ray masks and
//! a leading/trailing-zero scan: no loop over squares on either path.

use crate::bitboard::Bitboard;
use crate::square::Square;

/// Columns a..g (shifting east must not wrap into column a) and b..h.
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;

/// The eight directions as (column step, row step).
const DIRECTIONS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

/// `RAYS[sq][d]`: the squares strictly beyond `sq` in direction `d`, to the edge.
static RAYS: [[u64; 8]; 64] = build_rays();

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = DIRECTIONS[d];
            let mut c = (sq % 8) as i8 + dc;
            let mut r = (sq / 8) as i8 + dr;
            let mut mask = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                mask |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[sq][d] = mask;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// Discs of the side to move (`player`) and of the other side (`opponent`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub player: Bitboard,
    pub opponent: Bitboard,
}

/// Legal moves of `p` against `o`: one fill per direction, at most six steps.
#[inline(always)]
pub fn moves_of(p: u64, o: u64) -> u64 {
    #[inline(always)]
    fn fill(p: u64, mask: u64, shift: u32) -> u64 {
        // Opponent runs adjacent to a player disc, grown one step at a time in
        // both senses of the axis; the square past each run is a candidate.
        let mut up = mask & (p << shift);
        let mut down = mask & (p >> shift);
        let mask2 = mask & (mask << shift);
        let mask2d = mask & (mask >> shift);
        up |= mask & (up << shift);
        down |= mask & (down >> shift);
        let s2 = 2 * shift;
        up |= mask2 & (up << s2);
        down |= mask2d & (down >> s2);
        up |= mask2 & (up << s2);
        down |= mask2d & (down >> s2);
        (up << shift) | (down >> shift)
    }
    let inner = o & 0x7e7e_7e7e_7e7e_7e7e;
    let m = fill(p, inner, 1) | fill(p, o, 8) | fill(p, inner, 7) | fill(p, inner, 9);
    m & !(p | o)
}

/// Discs flipped when `p` plays on `sq` (empty) against `o`; zero if illegal.
#[inline(always)]
pub fn flips_of(p: u64, o: u64, sq: Square) -> u64 {
    let rays = &RAYS[sq.index() as usize];
    let mut flips = 0;
    // Directions that walk up the bit order: the nearest square on the ray that
    // is not an opponent disc is the lowest set bit of `!o & ray`.
    for &d in &[0usize, 2, 4, 7] {
        let ray = rays[d];
        let stop = !o & ray;
        let first = stop & stop.wrapping_neg();
        if first & p != 0 {
            flips |= (first - 1) & ray;
        }
    }
    // Directions that walk down: the nearest is the highest set bit.
    for &d in &[1usize, 3, 5, 6] {
        let ray = rays[d];
        let stop = !o & ray;
        if stop != 0 {
            let hi = 63 - stop.leading_zeros();
            if p >> hi & 1 != 0 {
                flips |= ray & (!1u64 << hi);
            }
        }
    }
    flips
}

/// Squares adjacent (in the 8 directions) to any square of `bits`, which may
/// include squares of `bits` itself.
#[inline]
pub fn neighbours(bits: u64) -> u64 {
    let h = ((bits << 1) & NOT_A) | ((bits >> 1) & NOT_H);
    let row = bits | h;
    h | (row << 8) | (row >> 8)
}

impl Position {
    /// The standard start, black (the side to move) on d5 and e4.
    pub const fn start() -> Position {
        Position {
            player: Bitboard(0x0000_0008_1000_0000),
            opponent: Bitboard(0x0000_0010_0800_0000),
        }
    }

    pub const fn new(player: Bitboard, opponent: Bitboard) -> Position {
        Position { player, opponent }
    }

    #[inline]
    pub fn empties(self) -> Bitboard {
        !(self.player | self.opponent)
    }

    #[inline]
    pub fn legal_moves(self) -> Bitboard {
        Bitboard(moves_of(self.player.0, self.opponent.0))
    }

    /// Moves the opponent would have if it were to move now.
    #[inline]
    pub fn opponent_moves(self) -> Bitboard {
        Bitboard(moves_of(self.opponent.0, self.player.0))
    }

    #[inline]
    pub fn is_legal(self, sq: Square) -> bool {
        self.legal_moves().contains(sq)
    }

    /// Discs flipped by a move on `sq`; empty if the move is illegal.
    #[inline]
    pub fn flips(self, sq: Square) -> Bitboard {
        if (self.player | self.opponent).contains(sq) {
            return Bitboard::EMPTY;
        }
        Bitboard(flips_of(self.player.0, self.opponent.0, sq))
    }

    /// The position after the side to move plays `sq`, which flips `flips`.
    #[inline]
    pub fn play_with(self, sq: Square, flips: Bitboard) -> Position {
        Position {
            player: self.opponent ^ flips,
            opponent: self.player ^ flips ^ Bitboard::from_square(sq),
        }
    }

    /// The position after a legal move on `sq`, or `None` if it is illegal.
    pub fn play(self, sq: Square) -> Option<Position> {
        let f = self.flips(sq);
        if f.is_empty() {
            None
        } else {
            Some(self.play_with(sq, f))
        }
    }

    /// The position with the turn handed over.
    #[inline]
    pub fn pass(self) -> Position {
        Position {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// True when the side to move has no move but the opponent has one.
    pub fn must_pass(self) -> bool {
        self.legal_moves().is_empty() && !self.opponent_moves().is_empty()
    }

    /// True when neither side can move.
    pub fn is_game_over(self) -> bool {
        self.legal_moves().is_empty() && self.opponent_moves().is_empty()
    }

    /// The final disc difference for the side to move: empties go to the winner.
    pub fn final_score(self) -> i32 {
        let p = self.player.count() as i32;
        let o = self.opponent.count() as i32;
        let e = 64 - p - o;
        match p.cmp(&o) {
            std::cmp::Ordering::Greater => p - o + e,
            std::cmp::Ordering::Less => p - o - e,
            std::cmp::Ordering::Equal => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn start_moves() {
        let p = Position::start();
        let names: Vec<String> = p.legal_moves().map(|s| s.to_string()).collect();
        assert_eq!(names, vec!["d3", "c4", "f5", "e6"]);
        assert_eq!(p.flips(sq("f5")), Bitboard::from_square(sq("e5")));
        assert!(p.flips(sq("d4")).is_empty());
        assert!(p.flips(sq("a1")).is_empty());
    }

    #[test]
    fn final_score_gives_empties_to_winner() {
        let p = Position::new(Bitboard(0b111), Bitboard(0b1000));
        assert_eq!(p.final_score(), 3 - 1 + 60);
        assert_eq!(p.pass().final_score(), -62);
        let d = Position::new(Bitboard(0b1), Bitboard(0b10));
        assert_eq!(d.final_score(), 0);
    }

    #[test]
    fn neighbours_do_not_wrap() {
        let h1 = Bitboard::from_square(sq("h1")).0;
        let n: Vec<String> = Bitboard(neighbours(h1)).map(|s| s.to_string()).collect();
        assert_eq!(n, vec!["g1", "g2", "h2"]);
    }
}
