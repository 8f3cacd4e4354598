//! The 8x8 board, the engine's fast instance: the generic core with the hot
//! operations of [`Geometry`] replaced by dedicated 8x8 code (fills with
//! fixed shifts, flips from per-square ray tables and bit scans, constant
//! quadrants and neighbour tables, stability over the 8x8 lines). `tests`
//! checks each against the generic body. [`on_s8`] lets an upper layer
//! take its own 8x8 path (the trained evaluation) inside generic code.

use super::geometry::{geometry_items, mask_u64, Geometry, Kind, SquareOrder, Tables};
use once_cell::sync::Lazy;

/// The 8x8 board, on a `u64` (a1 = bit 0, h8 = bit 63).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct S8;

impl Geometry for S8 {
    geometry_items!(S8, 8, u64, mask_u64);

    #[inline(always)]
    fn moves(p: u64, o: u64) -> u64 {
        moves_of(p, o)
    }

    #[inline(always)]
    fn flips(p: u64, o: u64, sq: u32) -> u64 {
        flips_of(p, o, sq)
    }

    #[inline(always)]
    fn count_last_flips(p: u64, _o: u64, sq: u32) -> u32 {
        count_last_flips(p, sq)
    }

    #[inline(always)]
    fn neighbours(bits: u64) -> u64 {
        neighbours(bits)
    }

    #[inline(always)]
    fn neighbours_of(sq: u32) -> u64 {
        NEIGHBOURS[sq as usize]
    }

    #[inline(always)]
    fn quadrant(sq: u32) -> u32 {
        (sq >> 5) << 1 | (sq >> 2 & 1)
    }

    /// Without a loop over the quadrants: each quadrant's parity is
    /// folded onto its first square (rows onto its first row, then columns
    /// onto its first column: bits 0, 4, 32 and 36), and one multiplication
    /// spreads those four bits over their quadrants (no carries: the
    /// products do not overlap). The shallow solver asks at every node.
    #[inline(always)]
    fn odd_quadrant_empties(empties: u64) -> u64 {
        let mut x = empties ^ (empties >> 8);
        x ^= x >> 16;
        x ^= x >> 1;
        x ^= x >> 2;
        empties & (x & 0x0000_0011_0000_0011).wrapping_mul(0x0f0f_0f0f)
    }

    #[inline]
    fn stable(p: u64, o: u64) -> u64 {
        stable_discs(p, o)
    }

    #[inline]
    fn stable_at_least(p: u64, o: u64, needed: u32) -> Option<u64> {
        stable_discs_at_least(p, o, needed)
    }

    #[inline(always)]
    fn square_value(x: u32) -> i32 {
        SQUARE_VALUE[x as usize]
    }
}

/// `x` as a `T`, when its type is `T`.
#[inline(always)]
fn same<T: Copy + 'static>(x: impl Copy + 'static) -> Option<T> {
    (&x as &dyn std::any::Any).downcast_ref::<T>().copied()
}

#[inline(always)]
fn is_s8<G: Geometry>() -> bool {
    std::any::TypeId::of::<G>() == std::any::TypeId::of::<S8>()
}

/// `x` as the 8x8 code's `u64` when `G` is [`S8`], else `None`: the test
/// folds away when generic code is monomorphised.
#[inline(always)]
pub fn to_s8<G: Geometry>(x: G::B) -> Option<u64> {
    is_s8::<G>().then(|| same(x)).flatten()
}

/// `p` and `o` as the 8x8 code's `u64`s when `G` is [`S8`].
#[inline(always)]
pub fn on_s8<G: Geometry>(p: G::B, o: G::B) -> Option<(u64, u64)> {
    Some((to_s8::<G>(p)?, to_s8::<G>(o)?))
}

/// `x` as `G`'s bit set when `G` is [`S8`].
#[inline(always)]
pub fn from_s8<G: Geometry>(x: u64) -> Option<G::B> {
    is_s8::<G>().then(|| same(x)).flatten()
}

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
static RAYS: [[u64; 8]; 64] = rays_along(DIRECTIONS);

/// Per square, the squares strictly beyond it in each of `directions`
/// (column step, row step), to the edge.
pub(super) const fn rays_along(directions: [(i8, i8); 8]) -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = directions[d];
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
pub fn flips_of(p: u64, o: u64, sq: u32) -> u64 {
    let rays = &RAYS[sq as usize];
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

/// `LINE_FLIPS[i][line]`: the discs flipped along a line of 8 squares by a
/// move on its square `i`, when the line is full but for `i`; bit `j` of
/// `line` set when square `j` is the mover's (clear: the opponent's, or
/// off the board: a run that reaches the line's end unclosed flips nothing
/// either way).
static LINE_FLIPS: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut i = 0;
    while i < 8 {
        let mut line = 0;
        while line < 256 {
            let mut total = 0;
            // Up the line, then down: the opponent's run counts when one of
            // the mover's discs closes it.
            let mut j = i + 1;
            while j < 8 && line >> j & 1 == 0 {
                j += 1;
            }
            if j < 8 {
                total += j - i - 1;
            }
            let mut j = i as i32 - 1;
            while j >= 0 && line >> j & 1 == 0 {
                j -= 1;
            }
            if j >= 0 {
                total += i - j as usize - 1;
            }
            t[i][line] = total as u8;
            line += 1;
        }
        i += 1;
    }
    t
};

/// [`Geometry::count_last_flips`] on 8x8: each of the four lines through
/// `sq` is gathered into a byte of the mover's discs (a shift for the
/// row; multiplications for the column and the diagonals, which move
/// each square to a bit of its own without carries) and looked up in
/// `LINE_FLIPS`. Cheaper than the flips themselves, at the most
/// numerous nodes.
#[inline(always)]
pub fn count_last_flips(p: u64, sq: u32) -> u32 {
    const COLUMN_A: u64 = 0x0101_0101_0101_0101;
    let (r, c) = ((sq / 8) as usize, (sq % 8) as usize);
    // The a1-h8 and h1-a8 diagonals through `sq` (without `sq`, which is
    // empty): the rays of DIRECTIONS 4 and 5, 6 and 7.
    let rays = &RAYS[sq as usize];
    let (diagonal, anti) = (rays[4] | rays[5], rays[6] | rays[7]);
    let row = (p >> (8 * r)) as u8;
    // Bit r of the top byte: the column's square of row r.
    let column = (((p >> c) & COLUMN_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    // Bit c of the top byte: the diagonal's square of column c.
    let diagonal = ((p & diagonal).wrapping_mul(COLUMN_A) >> 56) as u8;
    let anti = ((p & anti).wrapping_mul(COLUMN_A) >> 56) as u8;
    (LINE_FLIPS[c][row as usize] as u32)
        + LINE_FLIPS[r][column as usize] as u32
        + LINE_FLIPS[c][diagonal as usize] as u32
        + LINE_FLIPS[c][anti as usize] as u32
}

/// Squares adjacent (in the 8 directions) to any square of `bits`, which may
/// include squares of `bits` itself.
#[inline]
pub fn neighbours(bits: u64) -> u64 {
    let h = ((bits << 1) & NOT_A) | ((bits >> 1) & NOT_H);
    let row = bits | h;
    h | (row << 8) | (row >> 8)
}

/// `NEIGHBOURS[sq]`: the squares around `sq`. A move must touch an opponent disc.
static NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        let (c, r) = ((i % 8) as i32, (i / 8) as i32);
        let mut m = 0u64;
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nc, nr) = (c + dc, r + dr);
                if (dc != 0 || dr != 0) && nc >= 0 && nc < 8 && nr >= 0 && nr < 8 {
                    m |= 1u64 << (nr * 8 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        t[i] = m;
        i += 1;
    }
    t
};

/// Discs of `p` that can never be flipped (a safe under-estimate): discs
/// that, along each of the four axes, sit on a full line or next to the edge
/// or to a stable disc of their own colour.
pub fn stable_discs(p: u64, o: u64) -> u64 {
    let full = FullLines::of(p | o);
    full.fill(p, 0)
}

/// [`Geometry::stable_at_least`] on 8x8: the stable discs are the least
/// set `s` with `s = round(s)` (one round of `FullLines::fill`), so they
/// lie within `round(p)`: when that holds fewer than `needed`, so do they.
pub fn stable_discs_at_least(p: u64, o: u64, needed: u32) -> Option<u64> {
    let full = FullLines::of(p | o);
    (full.round(p, p).count_ones() >= needed).then(|| full.fill(p, 0))
}

/// The full lines of a board along each axis.
struct FullLines {
    h: u64,
    v: u64,
    d: u64,
    a: u64,
}

impl FullLines {
    #[inline(always)]
    fn of(filled: u64) -> FullLines {
        FullLines {
            h: full_rows(filled),
            v: full_columns(filled),
            d: full_lines(filled, 9, NOT_A, NOT_H),
            a: full_lines(filled, 7, NOT_H, NOT_A),
        }
    }

    /// The discs of `p` that, along each axis, sit on a full line or next
    /// to the edge or to a disc of `stable`.
    #[inline(always)]
    fn round(&self, p: u64, stable: u64) -> u64 {
        const EDGE_H: u64 = 0x8181_8181_8181_8181;
        const EDGE_V: u64 = 0xff00_0000_0000_00ff;
        const EDGE: u64 = EDGE_H | EDGE_V;
        let h = self.h | EDGE_H | ((stable << 1) & NOT_A) | ((stable >> 1) & NOT_H);
        let v = self.v | EDGE_V | (stable << 8) | (stable >> 8);
        let d = self.d | EDGE | ((stable << 9) & NOT_A) | ((stable >> 9) & NOT_H);
        let a = self.a | EDGE | ((stable << 7) & NOT_H) | ((stable >> 7) & NOT_A);
        p & h & v & d & a
    }

    /// Rounds from `stable` (stable discs of `p`) until nothing changes.
    #[inline(always)]
    fn fill(&self, p: u64, mut stable: u64) -> u64 {
        loop {
            let next = self.round(p, stable);
            if next == stable {
                return stable;
            }
            stable = next;
        }
    }
}

/// The squares of the full rows of `filled`: each byte ANDed down to its
/// lowest bit, then spread back over the byte. (Bit tricks rather than a
/// loop over the lines: the solver asks at most nodes of its last empties.)
#[inline(always)]
fn full_rows(filled: u64) -> u64 {
    let mut r = filled & (filled >> 4);
    r &= r >> 2;
    r &= r >> 1;
    (r & 0x0101_0101_0101_0101) * 0xff
}

/// The squares of the full columns of `filled`: the eight rows ANDed into
/// the lowest, then copied to every row.
#[inline(always)]
fn full_columns(filled: u64) -> u64 {
    let mut c = filled & (filled >> 32);
    c &= c >> 16;
    c &= c >> 8;
    (c & 0xff) * 0x0101_0101_0101_0101
}

/// The squares of the full diagonal lines of `filled` in the direction of
/// `shift` (9: a1-h8, 7: h1-a8): the empty squares are spread both ways
/// along the lines (occluded fills, `up` and `down` the destination masks
/// that stop a step wrapping around the board); what they do not reach is
/// on a full line.
#[inline(always)]
fn full_lines(filled: u64, shift: u32, up: u64, down: u64) -> u64 {
    let empty = !filled;
    let (mut e_up, mut m_up) = (empty, up);
    let (mut e_down, mut m_down) = (empty, down);
    for step in [shift, 2 * shift, 4 * shift] {
        e_up |= m_up & (e_up << step);
        e_down |= m_down & (e_down >> step);
        m_up &= m_up << step;
        m_down &= m_down >> step;
    }
    !(e_up | e_down)
}

/// A static preference for squares, for ordering only (corners best, the
/// squares diagonally next to corners worst).
#[rustfmt::skip]
const SQUARE_VALUE: [i32; 64] = [
    18,  4, 16, 12, 12, 16,  4, 18,
     4,  2,  6,  8,  8,  6,  2,  4,
    16,  6, 14, 10, 10, 14,  6, 16,
    12,  8, 10,  0,  0, 10,  8, 12,
    12,  8, 10,  0,  0, 10,  8, 12,
    16,  6, 14, 10, 10, 14,  6, 16,
     4,  2,  6,  8,  8,  6,  2,  4,
    18,  4, 16, 12, 12, 16,  4, 18,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{rules, Bits, Position};
    use crate::rng::Rng;

    /// Positions of random games, and random dense boards.
    fn positions() -> Vec<(u64, u64)> {
        let mut rng = Rng::new(8);
        let mut out = Vec::new();
        // Miri (tests/miri.sh): a fortieth of the positions.
        let scale = if cfg!(miri) { 40 } else { 1 };
        for _ in 0..40 / scale {
            let mut pos = Position::<S8>::start();
            while !pos.is_game_over() {
                out.push((pos.player, pos.opponent));
                let moves: Vec<u32> = pos.legal_moves().squares().collect();
                pos = if moves.is_empty() {
                    pos.pass()
                } else {
                    pos.play(moves[rng.below(moves.len())]).unwrap()
                };
            }
        }
        for _ in 0..200 / scale {
            let (a, b) = (rng.next_u64(), rng.next_u64());
            out.push((a & b, a & !b));
        }
        // Nearly full boards: full rows, columns and diagonals (stability).
        for _ in 0..400 / scale {
            let filled = rng.next_u64() | rng.next_u64() | rng.next_u64() | rng.next_u64();
            let split = rng.next_u64();
            out.push((filled & split, filled & !split));
        }
        out
    }

    #[test]
    fn dedicated_code_equals_the_generic_bodies() {
        for (p, o) in positions() {
            assert_eq!(S8::moves(p, o), rules::moves_of::<S8>(p, o));
            assert_eq!(S8::neighbours(p), rules::neighbours::<S8>(p));
            let stable = rules::stable_discs::<S8>(p, o);
            assert_eq!(S8::stable(p, o), stable);
            for needed in 0..=stable.count() {
                assert_eq!(S8::stable_at_least(p, o, needed), Some(stable));
            }
            let empties = !(p | o);
            let generic_odd = S8::tables()
                .quadrants
                .iter()
                .filter(|&&q| (empties & q).count() % 2 == 1)
                .fold(0, |a, &q| a | (empties & q));
            assert_eq!(S8::odd_quadrant_empties(empties), generic_odd);
            for sq in empties.squares() {
                assert_eq!(S8::flips(p, o, sq), rules::flips_of::<S8>(p, o, sq));
                // The same discs with `sq` the last empty square.
                let (p, o) = (p, !p & !(1 << sq));
                let f = rules::flips_of::<S8>(p, o, sq).count();
                assert_eq!(S8::count_last_flips(p, o, sq), f);
            }
        }
        for sq in 0..64 {
            assert_eq!(S8::neighbours_of(sq), S8::tables().neighbours[sq as usize]);
            let (r, c) = (sq / 8, sq % 8);
            assert_eq!(S8::quadrant(sq), (r >= 4) as u32 * 2 + (c >= 4) as u32);
        }
    }

    /// Stable discs keep their colour to the end of random continuations.
    #[test]
    fn stable_discs_stay() {
        let mut rng = Rng::new(88);
        let random_move = |rng: &mut Rng, pos: Position<S8>| {
            let moves: Vec<u32> = pos.legal_moves().squares().collect();
            if moves.is_empty() {
                pos.pass()
            } else {
                pos.play(moves[rng.below(moves.len())]).unwrap()
            }
        };
        // Miri (tests/miri.sh): 2 starts of 5 continuations.
        let (starts, continuations) = if cfg!(miri) { (2, 5) } else { (300, 20) };
        for _ in 0..starts {
            let mut start = Position::<S8>::start();
            for _ in 0..20 + rng.below(40) {
                if !start.is_game_over() {
                    start = random_move(&mut rng, start);
                }
            }
            let (p, o) = (start.player, start.opponent);
            let (sp, so) = (stable_discs(p, o), stable_discs(o, p));
            for _ in 0..continuations {
                let (mut pos, mut swapped) = (start, false);
                while !pos.is_game_over() {
                    pos = random_move(&mut rng, pos);
                    swapped = !swapped;
                    let (mine, theirs) = if swapped {
                        (pos.opponent, pos.player)
                    } else {
                        (pos.player, pos.opponent)
                    };
                    assert_eq!(sp & mine, sp, "{p:#x} {o:#x}");
                    assert_eq!(so & theirs, so, "{p:#x} {o:#x}");
                }
            }
        }
    }

    #[test]
    fn stable_discs_of_simple_boards() {
        // A full board: every disc is stable.
        assert_eq!(
            stable_discs(0x00ff_00ff_00ff_00ff, 0xff00_ff00_ff00_ff00),
            0x00ff_00ff_00ff_00ff
        );
        // A lone corner is stable, a lone centre disc is not.
        assert_eq!(stable_discs(1 | 1 << 27, 1 << 28), 1);
    }
}
