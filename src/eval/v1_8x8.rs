//! Evaluation v1: a hand-made static evaluation for the alpha-beta search.
//!
//! [`evaluate`] estimates the final disc difference from the side to move's
//! point of view, in units of 1/[`SCALE`] disc, the unit of exact endgame scores
//! times [`SCALE`]. It is the only entry point: a trained pattern evaluation is
//! meant to replace the body later without touching the search.
//!
//! The terms, each a difference "side to move minus opponent":
//! - an edge table over the four edges (3^8 configurations each), built once by
//!   the dynamic programming of Jan Gray's 1986 net.sources posting: score full
//!   edges, then edges with k empty squares as the average, over their empty
//!   squares and both colours, of the edge after that placement and its flips;
//! - mobility (legal moves) and potential mobility (empty squares next to the
//!   other side's discs);
//! - corners, X-squares and C-squares next to an empty corner;
//! - disc count: slightly bad in the midgame, the result at the end;
//! - parity: who plays the last empty square if nobody passes.
//!
//! Weights are interpolated by the number of empty squares between three
//! anchors (opening, midgame, endgame); see [`OPENING`], [`MIDGAME`], [`ENDGAME`].
//! Every term but parity is antisymmetric in the two sides and invariant under
//! the eight board symmetries; the tests check both.

use super::{MAX_EVAL, SCALE};
use crate::board::s8::{moves_of, neighbours};
use once_cell::sync::Lazy;

const CORNERS: u64 = 0x8100_0000_0000_0081;
/// b2, g2, b7, g7: the diagonal neighbours of the corners.
const X_SQUARES: u64 = 0x0042_0000_0000_4200;
/// b1, g1, a2, h2, a7, h7, b8, g8: the edge neighbours of the corners.
const C_SQUARES: u64 = 0x4281_0000_0000_8142;

/// The weights of one game phase, in evaluation units (1/100 disc) per unit of
/// the feature, except `edge`, a percentage of the edge table's value.
#[derive(Clone, Copy)]
struct Phase {
    /// Percent of the edge table value (the table is already in 1/100 disc).
    edge: i32,
    /// Per legal move more than the opponent.
    mobility: i32,
    /// Per empty square next to an opponent disc, more than the opponent has.
    potential: i32,
    /// Per corner disc, on top of what the edge table gives a corner.
    corner: i32,
    /// Per disc on an X-square whose corner is empty (a penalty: negative).
    x_square: i32,
    /// Per disc on a C-square whose corner is empty (negative).
    c_square: i32,
    /// Per disc more than the opponent.
    disc: i32,
    /// Bonus when the side to move gets the last empty square (odd empties),
    /// the same penalty when the opponent does.
    parity: i32,
}

// How the weights were chosen: the signs and the shape over the game are the
// classic ones. The magnitudes were first guessed, then set near a
// least-squares fit of these eight features to the final results of 2,000
// self-play games (4-ply, random moves mixed into the first 30 plies), bucket
// by bucket of 10 empties, rounded; then kept or changed by matches between
// variants (800 games from random 8-ply openings at each of 2-, 3- and 4-ply).
// The result beats the first guesses 76-79% at 2- to 4-ply. Last, all weights
// were scaled by 3/4, which changed no match result measurably, so that the
// evaluation reads as the expected final disc difference: over 3,000 4-ply
// self-play games, the least-squares slope of the final result on the
// evaluation is between 0.86 and 1.13 in each 10-empties bucket from 50
// empties down (1 would be exact calibration).
// Notable: the X-square penalty is far bigger than the classic guesses (7
// discs in the midgame: the opponent usually gets the corner and the edge
// behind it), mobility gains weight towards the end (running out of moves
// means passing or handing over a corner), and a disc more is slightly bad in
// the midgame (fewer discs, fewer moves for the opponent).

/// 60 empties and more. Edges seldom hold discs yet, but an early edge disc
/// weighs heavily; the X- and C-squares next to an empty corner are what
/// loses games at this stage. Mobility counts little: everyone has 4-10 moves.
const OPENING: Phase = Phase {
    edge: 390,
    mobility: 15,
    potential: 20,
    corner: 75,
    x_square: -1200,
    c_square: -600,
    disc: 0,
    parity: 0,
};

/// 30 empties: edges and corners are being fought over; a move more than the
/// opponent is worth most of a disc, a disc more costs 0.4 disc.
const MIDGAME: Phase = Phase {
    edge: 260,
    mobility: 80,
    potential: 15,
    corner: 75,
    x_square: -700,
    c_square: -350,
    disc: -40,
    parity: 75,
};

/// 0 empties (the weights matter from about 20 empties down): discs count,
/// edge discs are just discs, an X-square next to an empty corner costs
/// little (few discs are left to lose behind it), and each move more than the
/// opponent is worth over 2 discs, as running out of moves means passing.
const ENDGAME: Phase = Phase {
    edge: 45,
    mobility: 240,
    potential: 0,
    corner: 0,
    x_square: -50,
    c_square: -200,
    disc: 40,
    parity: 50,
};

/// Empty-square counts at which [`OPENING`] and [`MIDGAME`] apply exactly.
const OPENING_EMPTIES: i32 = 60;
const MIDGAME_EMPTIES: i32 = 30;

/// Weighted sums are accumulated in 1/`FIXED` of an evaluation unit, so the
/// edge percentage and the interpolated weights keep their fractions until the
/// one final division.
const FIXED: i32 = 64;

/// One row of [`WEIGHTS`]: a phase's weights multiplied by [`FIXED`] (the edge
/// weight by `FIXED / 100`, rounded), in the order the features are summed.
#[derive(Clone, Copy)]
struct Weights {
    edge: i32,
    mobility: i32,
    potential: i32,
    corner: i32,
    x_square: i32,
    c_square: i32,
    disc: i32,
    /// In evaluation units: added after the division.
    parity: i32,
}

/// `a` at `t = 0` to `b` at `t = span`, in fixed point, rounded to nearest.
const fn lerp(a: i32, b: i32, t: i32, span: i32, mul: i32, div: i32) -> i32 {
    let num = (a * (span - t) + b * t) * mul;
    let den = span * div;
    if num >= 0 {
        (num + den / 2) / den
    } else {
        (num - den / 2) / den
    }
}

const fn weights_for(empties: i32) -> Weights {
    // Interpolate from `a` (at t = 0) to `b` (at t = span), t counting the
    // empty squares filled since `a`'s anchor.
    let (a, b, t, span) = if empties >= OPENING_EMPTIES {
        (OPENING, OPENING, 0, 1)
    } else if empties >= MIDGAME_EMPTIES {
        (
            OPENING,
            MIDGAME,
            OPENING_EMPTIES - empties,
            OPENING_EMPTIES - MIDGAME_EMPTIES,
        )
    } else {
        (MIDGAME, ENDGAME, MIDGAME_EMPTIES - empties, MIDGAME_EMPTIES)
    };
    Weights {
        edge: lerp(a.edge, b.edge, t, span, FIXED, 100),
        mobility: lerp(a.mobility, b.mobility, t, span, FIXED, 1),
        potential: lerp(a.potential, b.potential, t, span, FIXED, 1),
        corner: lerp(a.corner, b.corner, t, span, FIXED, 1),
        x_square: lerp(a.x_square, b.x_square, t, span, FIXED, 1),
        c_square: lerp(a.c_square, b.c_square, t, span, FIXED, 1),
        disc: lerp(a.disc, b.disc, t, span, FIXED, 1),
        parity: lerp(a.parity, b.parity, t, span, 1, 1),
    }
}

/// Weights by number of empty squares (0..=64).
static WEIGHTS: [Weights; 65] = {
    let mut w = [weights_for(0); 65];
    let mut e = 1;
    while e < 65 {
        w[e] = weights_for(e as i32);
        e += 1;
    }
    w
};

/// The parity term of a position with `empties` empty squares: what
/// [`evaluate`] adds for the side to move regardless of the discs, so that
/// `evaluate(p) + evaluate(p.pass()) == 2 * parity(empties)` (up to the clamp).
#[inline(always)]
fn parity(empties: u32) -> i32 {
    let w = WEIGHTS[empties as usize].parity;
    if empties % 2 == 1 {
        w
    } else {
        -w
    }
}

/// Squares on an edge, by their position 0..8 along it.
const EDGE_LEN: usize = 8;
/// Edge configurations: each of the 8 squares empty (0), the side to move's (1)
/// or the opponent's (2); index = sum of cell * 3^position.
const EDGE_CONFIGS: usize = 6561;

/// `BASE3[b]`: the base-3 index of the edge whose set bits `b` are 1s.
static BASE3: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let mut v = 0u16;
        let mut pow = 1u16;
        let mut i = 0;
        while i < EDGE_LEN {
            if b >> i & 1 != 0 {
                v += pow;
            }
            pow *= 3;
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// The edge table index of an edge given as the 8-bit masks of both sides.
#[inline(always)]
fn edge_index(p: u64, o: u64) -> usize {
    BASE3[p as usize] as usize + 2 * BASE3[o as usize] as usize
}

/// Column a (a1 = bit 0 .. a8 = bit 7) gathered into a byte: each row's bit
/// lands on its own bit of the top byte, with no carries between them.
#[inline(always)]
fn column_a(bits: u64) -> u64 {
    (bits & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The value of a full edge, in evaluation units: its disc difference plus
/// one disc per corner. Every disc of a full edge is stable (an edge disc can
/// only be flipped along the edge), so each is a final disc; a corner also
/// anchors stable discs on the other edge and inside the board. Most of a
/// corner's value on the edge comes out of the averaging anyway (a corner is
/// never flipped and it flips runs); the bonus makes a corner strictly better
/// than an empty corner that would flip nothing, which plain disc counting
/// leaves tied in a few configurations (such as `POOOOP-P` and `POOOOP--`).
fn full_edge_score(cells: &[u8; EDGE_LEN]) -> i64 {
    let value = |c: &u8| match c {
        1 => SCALE as i64,
        2 => -SCALE as i64,
        _ => 0,
    };
    cells.iter().map(value).sum::<i64>() + value(&cells[0]) + value(&cells[EDGE_LEN - 1])
}

fn decode(mut index: usize) -> [u8; EDGE_LEN] {
    let mut cells = [0u8; EDGE_LEN];
    for c in &mut cells {
        *c = (index % 3) as u8;
        index /= 3;
    }
    cells
}

fn encode(cells: &[u8; EDGE_LEN]) -> usize {
    cells.iter().rev().fold(0, |i, &c| i * 3 + c as usize)
}

/// `cells` after `colour` (1 or 2) is placed on the empty `square`, with the
/// discs it would flip along the edge flipped.
fn place(cells: &[u8; EDGE_LEN], square: usize, colour: u8) -> [u8; EDGE_LEN] {
    let mut next = *cells;
    next[square] = colour;
    let other = 3 - colour;
    for step in [-1isize, 1] {
        let mut i = square as isize + step;
        while (0..EDGE_LEN as isize).contains(&i) && cells[i as usize] == other {
            i += step;
        }
        if (0..EDGE_LEN as isize).contains(&i) && cells[i as usize] == colour {
            let mut j = square as isize + step;
            while j != i {
                next[j as usize] = colour;
                j += step;
            }
        }
    }
    next
}

/// The edge table by Gray's dynamic programming, in evaluation units.
///
/// The values are kept exact in integers: a configuration with k empty squares
/// is an average of 2k values with k - 1 empties, so its value times
/// 2^k k! is an integer when full edges are integers; scaling everything by
/// 2^8 8! keeps every division exact. Exactness makes the table exactly
/// symmetric (reversed edge, same value) and antisymmetric (colours swapped,
/// negated value), which the board symmetry tests rely on.
fn build_edge_table() -> [i16; EDGE_CONFIGS] {
    const EXACT: i64 = 256 * 40320;
    let mut exact = [0i64; EDGE_CONFIGS];
    for empties in 0..=EDGE_LEN {
        for index in 0..EDGE_CONFIGS {
            let cells = decode(index);
            if cells.iter().filter(|&&c| c == 0).count() != empties {
                continue;
            }
            exact[index] = if empties == 0 {
                full_edge_score(&cells) * EXACT
            } else {
                let sum: i64 = (0..EDGE_LEN)
                    .filter(|&s| cells[s] == 0)
                    .flat_map(|s| [1u8, 2].map(|colour| exact[encode(&place(&cells, s, colour))]))
                    .sum();
                let count = 2 * empties as i64;
                debug_assert_eq!(sum % count, 0);
                sum / count
            };
        }
    }
    let mut table = [0i16; EDGE_CONFIGS];
    for (t, &v) in table.iter_mut().zip(&exact) {
        // Round half away from zero: keeps the table antisymmetric.
        *t = ((2 * v + v.signum() * EXACT) / (2 * EXACT)) as i16;
    }
    table
}

static EDGE_TABLE: Lazy<[i16; EDGE_CONFIGS]> = Lazy::new(build_edge_table);

/// The evaluation of `pos` for the side to move: the expected final disc
/// difference times [`SCALE`], within `-MAX_EVAL..=MAX_EVAL`.
///
/// On x86-64 CPUs with AVX2, BMI2 and POPCNT (checked once, then a cached
/// flag), this runs a copy of the same code compiled for them: the baseline
/// x86-64 target has no popcount instruction, this function counts bits 13
/// times and runs two move generators, and the copy runs about twice as fast
/// (353 instructions per call instead of 620, measured with callgrind on the
/// benchmark).
#[inline]
pub fn evaluate(p: u64, o: u64) -> i32 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            // SAFETY: the CPU has every feature `evaluate_x86_64_v3` enables.
            return unsafe { evaluate_x86_64_v3(p, o) };
        }
    }
    evaluate_portable(p, o)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
fn evaluate_x86_64_v3(p: u64, o: u64) -> i32 {
    evaluate_portable(p, o)
}

/// The body of [`evaluate`], inlined into each compiled copy.
#[inline(always)]
fn evaluate_portable(p: u64, o: u64) -> i32 {
    let empty = !(p | o);
    let empties = empty.count_ones();
    let w = &WEIGHTS[empties as usize];
    let edges: &[i16; EDGE_CONFIGS] = &EDGE_TABLE;

    let edge = edges[edge_index(p & 0xff, o & 0xff)] as i32
        + edges[edge_index(p >> 56, o >> 56)] as i32
        + edges[edge_index(column_a(p), column_a(o))] as i32
        + edges[edge_index(column_a(p >> 7), column_a(o >> 7))] as i32;

    let count = |bits: u64| bits.count_ones() as i32;
    let mobility = count(moves_of(p, o)) - count(moves_of(o, p));
    let potential = count(neighbours(o) & empty) - count(neighbours(p) & empty);
    let near_empty_corner = neighbours(empty & CORNERS);
    let x = near_empty_corner & X_SQUARES;
    let c = near_empty_corner & C_SQUARES;

    let sum = w.edge * edge
        + w.mobility * mobility
        + w.potential * potential
        + w.corner * (count(p & CORNERS) - count(o & CORNERS))
        + w.x_square * (count(p & x) - count(o & x))
        + w.c_square * (count(p & c) - count(o & c))
        + w.disc * (count(p) - count(o));
    // Division truncates toward zero, so the sum's antisymmetry survives it.
    (sum / FIXED + parity(empties)).clamp(-MAX_EVAL, MAX_EVAL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Bits, S8};

    type Position = crate::board::Position<S8>;
    use crate::rng::Rng;

    /// A map of squares, (row, col) to (row, col).
    type SquareMap = fn(u64, u64) -> (u64, u64);

    /// `bits` with each square (row, col) moved to `map(row, col)`.
    fn transform(bits: u64, map: SquareMap) -> u64 {
        (0..64)
            .filter(|sq| bits >> sq & 1 != 0)
            .map(|sq| {
                let (r, c) = map(sq / 8, sq % 8);
                1u64 << (r * 8 + c)
            })
            .fold(0, |a, b| a | b)
    }

    /// The 8 symmetries of the board: identity, 3 rotations, 4 reflections.
    const SYMMETRIES: [SquareMap; 8] = [
        |r, c| (r, c),
        |r, c| (c, 7 - r),
        |r, c| (7 - r, 7 - c),
        |r, c| (7 - c, r),
        |r, c| (r, 7 - c),
        |r, c| (7 - r, c),
        |r, c| (c, r),
        |r, c| (7 - c, 7 - r),
    ];

    fn symmetric(pos: Position, map: SquareMap) -> Position {
        Position::new(transform(pos.player, map), transform(pos.opponent, map))
    }

    /// Every position of `games` random games, passes included.
    fn random_positions(seed: u64, games: usize) -> Vec<Position> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = Position::start();
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
                let sq = moves[rng.below(moves.len())];
                pos = pos.play(sq).unwrap();
            }
        }
        out
    }

    fn ev(pos: Position) -> i32 {
        evaluate(pos.player, pos.opponent)
    }

    fn edge(cells: &str) -> usize {
        let cells: Vec<u8> = cells
            .bytes()
            .map(|b| match b {
                b'P' => 1,
                b'O' => 2,
                _ => 0,
            })
            .collect();
        encode(&cells.try_into().unwrap())
    }

    #[test]
    fn symmetry_maps_are_the_eight_distinct_ones() {
        // An asymmetric set of squares (a1, b1, a3) tells all 8 maps apart.
        let probe = 0b1_0000_0000_0000_0011u64;
        let images: Vec<u64> = SYMMETRIES.iter().map(|&m| transform(probe, m)).collect();
        for (i, a) in images.iter().enumerate() {
            assert_eq!(a.count_ones(), 3);
            assert!(images[i + 1..].iter().all(|b| a != b));
        }
    }

    #[test]
    fn board_symmetries_give_the_same_value() {
        let mut differing = 0;
        for pos in random_positions(1, 200) {
            let v = ev(pos);
            for &map in &SYMMETRIES[1..] {
                let image = symmetric(pos, map);
                differing += (image != pos) as usize;
                assert_eq!(ev(image), v, "{pos:?}");
            }
        }
        assert!(differing > 10_000);
    }

    #[test]
    fn swapping_sides_negates_all_but_parity() {
        let mut nonzero = 0;
        for pos in random_positions(2, 200) {
            let v = ev(pos);
            let swapped = ev(pos.pass());
            let p = parity(pos.empties().count());
            nonzero += (v != p) as usize;
            if v.abs() < MAX_EVAL && swapped.abs() < MAX_EVAL {
                assert_eq!(v - p, -(swapped - p), "{pos:?}");
            }
        }
        assert!(nonzero > 10_000);
        // Parity is a real term that favours whoever plays the last square.
        assert!(parity(11) > 0 && parity(12) < 0);
        assert_eq!(parity(60), 0);
    }

    #[test]
    fn compiled_copies_agree() {
        for pos in random_positions(4, 100) {
            assert_eq!(
                ev(pos),
                evaluate_portable(pos.player, pos.opponent),
                "{pos:?}"
            );
        }
    }

    #[test]
    fn start_position_is_even() {
        assert_eq!(ev(Position::start()), 0);
    }

    #[test]
    fn values_stay_within_the_clamp() {
        let mut rng = Rng::new(3);
        let mut positions = random_positions(3, 300);
        // Random dense boards reach far beyond what games do.
        for _ in 0..20_000 {
            let p = rng.next_u64() & rng.next_u64() | rng.next_u64() & rng.next_u64();
            let o = rng.next_u64() & !p;
            positions.push(Position::new(p, o));
            positions.push(Position::new(o, p));
        }
        // All four edges against one disc in the centre: far beyond 63 discs
        // before the clamp, at 35 empties where edges weigh most.
        let edges = 0xff81_8181_8181_81ffu64;
        let centre = 1u64 << 27;
        positions.push(Position::new(edges, centre));
        positions.push(Position::new(centre, edges));
        let values: Vec<i32> = positions.iter().map(|&p| ev(p)).collect();
        assert!(values.iter().all(|v| (-MAX_EVAL..=MAX_EVAL).contains(v)));
        assert!(values.contains(&MAX_EVAL) && values.contains(&-MAX_EVAL));
    }

    #[test]
    fn edge_index_reads_the_four_edges() {
        // b1 and a2 for the player, g1 and h2 for the opponent.
        let p = 1u64 << 1 | 1 << 8 | 1 << 48;
        let o = 1u64 << 6 | 1 << 15 | 1 << 62;
        assert_eq!(edge_index(p & 0xff, o & 0xff), edge("-P----O-"));
        assert_eq!(edge_index(p >> 56, o >> 56), edge("------O-"));
        assert_eq!(edge_index(column_a(p), column_a(o)), edge("-P----P-"));
        assert_eq!(
            edge_index(column_a(p >> 7), column_a(o >> 7)),
            edge("-O------")
        );
    }

    #[test]
    fn edge_table_is_symmetric_and_antisymmetric() {
        let table = &*EDGE_TABLE;
        assert_eq!(table[0], 0);
        for (index, &value) in table.iter().enumerate() {
            let cells = decode(index);
            let mut reversed = cells;
            reversed.reverse();
            assert_eq!(table[encode(&reversed)], value);
            let swapped = cells.map(|c| [0, 2, 1][c as usize]);
            assert_eq!(table[encode(&swapped)], -value);
        }
    }

    #[test]
    fn full_edges_score_for_their_owner() {
        let table = &*EDGE_TABLE;
        let mine = table[edge("PPPPPPPP")];
        let theirs = table[edge("OOOOOOOO")];
        assert!(mine > 0 && theirs < 0 && mine > table[edge("PPPPPPPO")]);
        assert_eq!(table[edge("POOOOOOP")], -table[edge("OPPPPPPO")]);
    }

    #[test]
    fn owning_a_corner_scores_higher() {
        // The same edge with the side to move's disc on the empty corner, when
        // that disc would flip nothing: an empty corner that would flip (as in
        // `-OOPO---`) can be worth more empty, as the side to move may take it with
        // the flips; the table rightly says so.
        let table = &*EDGE_TABLE;
        let mut checked = 0;
        for index in 0..EDGE_CONFIGS {
            let cells = decode(index);
            for corner in [0, EDGE_LEN - 1] {
                let mut with = cells;
                with[corner] = 1;
                if cells[corner] != 0 || place(&cells, corner, 1) != with {
                    continue;
                }
                let (a, b) = (table[encode(&with)], table[index]);
                assert!(a > b, "{cells:?} corner {corner}: {a} vs {b}");
                checked += 1;
            }
        }
        assert!(checked > 2000);
        assert!(table[edge("P-------")] > table[edge("--------")]);
        assert!(table[edge("POOPO---")] < table[edge("-OOPO---")]);
    }

    #[test]
    fn unbalanced_edge_next_to_an_empty_corner_is_bad() {
        // Gray's example: six discs that the opponent takes back from the corner.
        let table = &*EDGE_TABLE;
        assert!(table[edge("OPPPPPP-")] < 0);
        assert!(table[edge("OPPPPPP-")] < table[edge("-PPPPPP-")]);
        // A C-square disc the opponent can take from the corner is a liability.
        assert!(table[edge("-PO-----")] < 0);
    }
}
