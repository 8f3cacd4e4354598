//! Evaluation v1: a hand-made static evaluation, on every board size. It
//! estimates the final disc difference for the side to move, in centi-discs
//! ([`SCALE`] per disc). The terms, each a difference "side to move minus
//! opponent":
//!
//! - edges: a table over each edge's configurations, built by the dynamic
//!   programming of Jan Gray's 1986 net.sources posting (score full edges,
//!   then edges with k empty squares as the average, over their empty
//!   squares and both colours, of the edge after that placement and its
//!   flips), for the board's own edge length up to 10 squares; on bigger
//!   boards each edge is read as two 8-square segments, one from each
//!   corner, with a table built for a line that has a corner at one end
//!   only;
//! - mobility (legal moves) and potential mobility (empty squares next to
//!   the other side's discs);
//! - corners, and X- and C-squares next to an empty corner;
//! - disc count: slightly bad in the midgame, the result at the end;
//! - parity: who plays the last empty square if nobody passes.
//!
//! The weights are interpolated between three anchors (opening, midgame,
//! endgame) on the fraction of the board still empty (on 8x8: 60, 30 and 0
//! empties). Every term but parity is antisymmetric in the two sides and
//! invariant under the board symmetries; the tests check both.

use super::pattern::BASE3;
use super::SCALE;
use crate::board::{Bits, Geometry};
use once_cell::sync::Lazy;

/// The weight of each term. At the three anchors, `edge` is a percentage of
/// the edge table's value and the rest centi-discs per unit of the feature;
/// interpolated ([`weights_at`]), all but parity are times [`FIXED`] (edge:
/// times FIXED / 100).
#[derive(Clone, Copy)]
struct Weights {
    edge: i32,
    mobility: i32,
    potential: i32,
    corner: i32,
    x_square: i32,
    c_square: i32,
    disc: i32,
    parity: i32,
}

const OPENING: Weights = Weights {
    edge: 390,
    mobility: 15,
    potential: 20,
    corner: 75,
    x_square: -1200,
    c_square: -600,
    disc: 0,
    parity: 0,
};

const MIDGAME: Weights = Weights {
    edge: 260,
    mobility: 80,
    potential: 15,
    corner: 75,
    x_square: -700,
    c_square: -350,
    disc: -40,
    parity: 75,
};

const ENDGAME: Weights = Weights {
    edge: 45,
    mobility: 240,
    potential: 0,
    corner: 0,
    x_square: -50,
    c_square: -200,
    disc: 40,
    parity: 50,
};

/// The phase scale: 60 at the start of any board, 0 when it is full.
const PHASE_SPAN: i32 = 60;
const MIDGAME_AT: i32 = 30;
/// Sums are kept in 1/FIXED centi-disc until the final division.
const FIXED: i32 = 64;

fn lerp(a: i32, b: i32, t: i32, span: i32, mul: i32, div: i32) -> i32 {
    let num = (a * (span - t) + b * t) * mul;
    let den = span * div;
    if num >= 0 {
        (num + den / 2) / den
    } else {
        (num - den / 2) / den
    }
}

/// The weights at `phase` (0..=60, 60 = empty board).
fn weights_at(phase: i32) -> Weights {
    let (a, b, t, span) = if phase >= PHASE_SPAN {
        (OPENING, OPENING, 0, 1)
    } else if phase >= MIDGAME_AT {
        (
            OPENING,
            MIDGAME,
            PHASE_SPAN - phase,
            PHASE_SPAN - MIDGAME_AT,
        )
    } else {
        (MIDGAME, ENDGAME, MIDGAME_AT - phase, MIDGAME_AT)
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

/// `WEIGHTS[n / 2 - 2][empties]` for the `n`x`n` board, 0..=n*n empties.
static WEIGHTS: Lazy<Vec<Vec<Weights>>> = Lazy::new(|| {
    (4..=16u32)
        .step_by(2)
        .map(|n| {
            let playable = (n * n - 4) as i32;
            (0..=n * n)
                .map(|e| {
                    let phase = ((e as i32).min(playable) * PHASE_SPAN + playable / 2) / playable;
                    weights_at(phase)
                })
                .collect()
        })
        .collect()
});

// ---------------------------------------------------------------------------
// Edge tables

/// Cells of a line: 0 empty, 1 the side to move's, 2 the opponent's;
/// index = sum of cell * 3^position.
fn decode(mut index: usize, len: usize) -> Vec<u8> {
    let mut cells = vec![0u8; len];
    for c in &mut cells {
        *c = (index % 3) as u8;
        index /= 3;
    }
    cells
}

fn encode(cells: &[u8]) -> usize {
    cells.iter().rev().fold(0, |i, &c| i * 3 + c as usize)
}

/// `cells` after `colour` is placed on the empty `square`, with the discs it
/// flips along the line.
fn place(cells: &[u8], square: usize, colour: u8) -> Vec<u8> {
    let len = cells.len() as isize;
    let mut next = cells.to_vec();
    next[square] = colour;
    let other = 3 - colour;
    for step in [-1isize, 1] {
        let mut i = square as isize + step;
        while (0..len).contains(&i) && cells[i as usize] == other {
            i += step;
        }
        if (0..len).contains(&i) && cells[i as usize] == colour {
            let mut j = square as isize + step;
            while j != i {
                next[j as usize] = colour;
                j += step;
            }
        }
    }
    next
}

/// Gray's averaging for a line of `len` squares, in centi-discs: a full
/// line scores its disc difference plus one disc per corner (cell 0 is a
/// corner; the last cell too when `both_corners`); a line with empties the
/// average, over its empty squares and both colours, of the line after that
/// placement. Kept exact by scaling by 2^len len! (see `crate::eval`).
fn build_table(len: usize, both_corners: bool) -> Vec<i16> {
    let configs = 3usize.pow(len as u32);
    let exact_scale: i64 = (1i64 << len) * (1..=len as i64).product::<i64>();
    let value = |c: u8| match c {
        1 => SCALE as i64,
        2 => -(SCALE as i64),
        _ => 0,
    };
    let mut exact = vec![0i64; configs];
    // Configurations in order of their number of empties, fewest first.
    let mut order: Vec<(usize, usize)> = (0..configs)
        .map(|i| (decode(i, len).iter().filter(|&&c| c == 0).count(), i))
        .collect();
    order.sort_unstable();
    for &(empties, index) in &order {
        let cells = decode(index, len);
        exact[index] = if empties == 0 {
            let mut v: i64 = cells.iter().map(|&c| value(c)).sum::<i64>() + value(cells[0]);
            if both_corners {
                v += value(cells[len - 1]);
            }
            v * exact_scale
        } else {
            let sum: i64 = (0..len)
                .filter(|&s| cells[s] == 0)
                .flat_map(|s| [1u8, 2].map(|colour| exact[encode(&place(&cells, s, colour))]))
                .sum();
            sum / (2 * empties as i64)
        };
    }
    exact
        .iter()
        .map(|&v| ((2 * v + v.signum() * exact_scale) / (2 * exact_scale)) as i16)
        .collect()
}

/// Full-edge tables by length (4, 6, 8, 10) and the 8-square corner segment.
static FULL_EDGE: [Lazy<Vec<i16>>; 4] = [
    Lazy::new(|| build_table(4, true)),
    Lazy::new(|| build_table(6, true)),
    Lazy::new(|| build_table(8, true)),
    Lazy::new(|| build_table(10, true)),
];
static SEGMENT: Lazy<Vec<i16>> = Lazy::new(|| build_table(SEGMENT_LEN, false));
/// Boards up to this side read whole edges; bigger ones corner segments.
const FULL_EDGE_MAX: u32 = 10;
const SEGMENT_LEN: usize = 8;

/// The table index of the line of `len` squares from `start`, `stride` apart.
#[inline]
fn line_index<B: Bits>(p: B, o: B, start: i32, stride: i32, len: usize) -> usize {
    let mut index = 0;
    let mut sq = start + stride * (len as i32 - 1);
    for _ in 0..len {
        let s = sq as u32;
        index = index * 3 + p.has(s) as usize + 2 * o.has(s) as usize;
        sq -= stride;
    }
    index
}

/// Column a (a1 = bit 0 .. a8 = bit 7) of an 8x8 board gathered into a
/// byte: each row's bit lands on its own bit of the top byte, no carries.
#[inline(always)]
fn column_a(bits: u64) -> u64 {
    (bits & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The edge term of an 8x8 board, read with byte masks instead of square by
/// square (the same table and value as the generic reading).
#[inline(always)]
fn edges_8x8(p: u64, o: u64) -> i32 {
    let table: &[i16] = &FULL_EDGE[2];
    let value = |p: u64, o: u64| table[BASE3[p as usize] as usize + 2 * BASE3[o as usize] as usize];
    (value(p & 0xff, o & 0xff) as i32)
        + value(p >> 56, o >> 56) as i32
        + value(column_a(p), column_a(o)) as i32
        + value(column_a(p >> 7), column_a(o >> 7)) as i32
}

/// The edge term: the table values of the four edges, or of the eight
/// corner segments.
#[inline(always)]
fn edges<G: Geometry>(p: G::B, o: G::B) -> i32 {
    if G::N == 8 {
        return edges_8x8(p.words()[0], o.words()[0]);
    }
    let n = G::N as i32;
    let last = n * n - 1;
    if G::N <= FULL_EDGE_MAX {
        let table: &[i16] = &FULL_EDGE[(G::N / 2 - 2) as usize];
        let len = G::N as usize;
        [(0, 1), (n * (n - 1), 1), (0, n), (n - 1, n)]
            .iter()
            .map(|&(start, stride)| table[line_index(p, o, start, stride, len)] as i32)
            .sum()
    } else {
        let table: &[i16] = &SEGMENT;
        [
            (0, 1),
            (0, n),
            (n - 1, -1),
            (n - 1, n),
            (n * (n - 1), 1),
            (n * (n - 1), -n),
            (last, -1),
            (last, -n),
        ]
        .iter()
        .map(|&(start, stride)| table[line_index(p, o, start, stride, SEGMENT_LEN)] as i32)
        .sum()
    }
}

/// The largest evaluation: one disc short of the largest real win.
pub fn max_eval<G: Geometry>() -> i32 {
    (G::SQUARES as i32 - 1) * SCALE
}

/// The parity term with `empties` empty squares (what the evaluation adds
/// for the side to move whatever the discs).
#[inline]
pub fn parity<G: Geometry>(empties: u32) -> i32 {
    let w = WEIGHTS[(G::N / 2 - 2) as usize][empties as usize].parity;
    if empties % 2 == 1 {
        w
    } else {
        -w
    }
}

/// The evaluation of `p` to move against `o`: the expected final disc
/// difference in centi-discs, within `-max_eval..=max_eval`.
///
/// On x86-64 CPUs with AVX2, BMI2 and POPCNT (checked once, then a cached
/// flag), this runs a copy of the same code compiled for them: it counts
/// bits 13 times and runs two move generators, and the copy runs about
/// twice as fast on 8x8.
#[inline]
pub fn evaluate<G: Geometry>(p: G::B, o: G::B) -> i32 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            // SAFETY: the CPU has every feature `evaluate_x86_64_v3` enables.
            return unsafe { evaluate_x86_64_v3::<G>(p, o) };
        }
    }
    evaluate_portable::<G>(p, o)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
fn evaluate_x86_64_v3<G: Geometry>(p: G::B, o: G::B) -> i32 {
    evaluate_portable::<G>(p, o)
}

/// The body of [`evaluate`], inlined into each compiled copy.
#[inline(always)]
fn evaluate_portable<G: Geometry>(p: G::B, o: G::B) -> i32 {
    let empty = !(p | o) & G::ALL;
    let empties = empty.count();
    let w = &WEIGHTS[(G::N / 2 - 2) as usize][empties as usize];
    let count = |b: G::B| b.count() as i32;
    let mobility = count(G::moves(p, o)) - count(G::moves(o, p));
    let potential = count(G::neighbours(o) & empty) - count(G::neighbours(p) & empty);
    let near_empty_corner = G::neighbours(empty & G::CORNERS);
    let x = near_empty_corner & G::X_SQUARES;
    let c = near_empty_corner & G::C_SQUARES;
    let sum = w.edge * edges::<G>(p, o)
        + w.mobility * mobility
        + w.potential * potential
        + w.corner * (count(p & G::CORNERS) - count(o & G::CORNERS))
        + w.x_square * (count(p & x) - count(o & x))
        + w.c_square * (count(p & c) - count(o & c))
        + w.disc * (count(p) - count(o));
    let max = max_eval::<G>();
    (sum / FIXED + parity::<G>(empties)).clamp(-max, max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::testing::{for_every_size, random_positions};
    use crate::board::*;
    use crate::rng::Rng;

    /// `b` under symmetry `k` (0..8) of the board.
    fn transform<G: Geometry>(b: G::B, k: usize) -> G::B {
        crate::board::position::symmetric::<G>(b, k)
    }

    fn symmetric_and_antisymmetric<G: Geometry>() {
        // Fewer games on the bigger boards, which have more positions each.
        let games = match G::N {
            _ if cfg!(miri) => 1,
            4 | 6 => 20,
            8 => 10,
            10 => 5,
            12 => 3,
            _ => 2,
        };
        let max = max_eval::<G>();
        for pos in random_positions::<G>(G::N as u64, games) {
            let (p, o) = (pos.player, pos.opponent);
            let v = evaluate::<G>(p, o);
            assert!((-max..=max).contains(&v));
            for k in 1..8 {
                let image = evaluate::<G>(transform::<G>(p, k), transform::<G>(o, k));
                assert_eq!(image, v, "{pos:?} symmetry {k}");
            }
            let swapped = evaluate::<G>(o, p);
            let par = parity::<G>((!(p | o) & G::ALL).count());
            if v.abs() < max && swapped.abs() < max {
                assert_eq!(v - par, -(swapped - par), "{pos:?}");
            }
        }
        assert_eq!(evaluate::<G>(G::START_BLACK, G::START_WHITE), 0);
    }

    #[test]
    fn every_size_is_symmetric_and_antisymmetric() {
        if cfg!(miri) {
            // Miri takes minutes to build the edge tables of 8x8 and up
            // (3^8 lines and more).
            symmetric_and_antisymmetric::<S4>();
            symmetric_and_antisymmetric::<S6>();
            return;
        }
        for_every_size!(symmetric_and_antisymmetric);
    }

    fn line(s: &str) -> usize {
        encode(
            &s.bytes()
                .map(|b| match b {
                    b'P' => 1,
                    b'O' => 2,
                    _ => 0,
                })
                .collect::<Vec<u8>>(),
        )
    }

    #[test]
    #[cfg_attr(miri, ignore = "the 8x8 edge table (3^8 lines): minutes under Miri")]
    fn edge_tables_value_edges_like_evaluation_v1() {
        let t: &[i16] = &FULL_EDGE[2];
        assert!(t[line("PPPPPPPP")] > 0 && t[line("OOOOOOOO")] < 0);
        assert!(t[line("PPPPPPPP")] > t[line("PPPPPPPO")]);
        assert_eq!(t[line("POOOOOOP")], -t[line("OPPPPPPO")]);
        // Gray's example: six discs that the opponent takes back from the
        // corner; a C-square disc the opponent can take from the corner.
        assert!(t[line("OPPPPPP-")] < 0);
        assert!(t[line("OPPPPPP-")] < t[line("-PPPPPP-")]);
        assert!(t[line("-PO-----")] < 0);
        // A corner-anchored segment values its corner, not its far end.
        let s: &[i16] = &SEGMENT;
        assert!(s[line("P-------")] > s[line("-------P")]);
    }

    #[test]
    fn full_edge_tables_are_symmetric_and_antisymmetric() {
        // Miri takes minutes to build the 8x8 table: up to 6x6 there.
        let tables = if cfg!(miri) { 2 } else { FULL_EDGE.len() };
        for (k, table) in FULL_EDGE.iter().take(tables).enumerate() {
            let len = 4 + 2 * k;
            assert_eq!(table[0], 0);
            for (index, &value) in table.iter().enumerate() {
                let cells = decode(index, len);
                let reversed: Vec<u8> = cells.iter().rev().copied().collect();
                assert_eq!(table[encode(&reversed)], value);
                let swapped: Vec<u8> = cells.iter().map(|&c| [0, 2, 1][c as usize]).collect();
                assert_eq!(table[encode(&swapped)], -value);
            }
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "the 8x8 edge table (3^8 lines): minutes under Miri")]
    fn owning_a_corner_scores_higher() {
        // The same edge with the side to move's disc on the empty corner, when
        // that disc would flip nothing: an empty corner that would flip (as in
        // `-OOPO---`) can be worth more empty, as the side to move may take it
        // with the flips; the table rightly says so.
        let table: &[i16] = &FULL_EDGE[2];
        let mut checked = 0;
        for (index, &value) in table.iter().enumerate() {
            let cells = decode(index, 8);
            for corner in [0, 7] {
                let mut with = cells.clone();
                with[corner] = 1;
                if cells[corner] != 0 || place(&cells, corner, 1) != with {
                    continue;
                }
                assert!(table[encode(&with)] > value, "{cells:?} corner {corner}");
                checked += 1;
            }
        }
        assert!(checked > 2000);
        assert!(table[line("P-------")] > table[line("--------")]);
        assert!(table[line("POOPO---")] < table[line("-OOPO---")]);
    }

    /// The 8x8 edge reading (byte masks) equals the square-by-square one.
    #[test]
    #[cfg_attr(miri, ignore = "the 8x8 edge table (3^8 lines): minutes under Miri")]
    fn eight_by_eight_edges_read_like_the_generic_lines() {
        let generic = |p: u64, o: u64| {
            let t: &[i16] = &FULL_EDGE[2];
            [(0, 1), (56, 1), (0, 8), (7, 8)]
                .iter()
                .map(|&(start, stride)| t[line_index(p, o, start, stride, 8)] as i32)
                .sum::<i32>()
        };
        let mut rng = Rng::new(12);
        for _ in 0..2000 {
            let (a, b) = (rng.next_u64(), rng.next_u64());
            let (p, o) = (a & b, a & !b);
            assert_eq!(edges_8x8(p, o), generic(p, o), "{p:x} {o:x}");
        }
        // b1 and a2 for the player, g1 and h2 for the opponent.
        let p = 1u64 << 1 | 1 << 8 | 1 << 48;
        let o = 1u64 << 6 | 1 << 15 | 1 << 62;
        let t: &[i16] = &FULL_EDGE[2];
        let expected = [
            line("-P----O-"),
            line("------O-"),
            line("-P----P-"),
            line("-O------"),
        ]
        .iter()
        .map(|&i| t[i] as i32)
        .sum::<i32>();
        assert_eq!(edges_8x8(p, o), expected);
    }

    #[test]
    fn compiled_copies_agree() {
        fn check<G: Geometry>(games: usize) {
            for pos in random_positions::<G>(4, games) {
                assert_eq!(
                    evaluate::<G>(pos.player, pos.opponent),
                    evaluate_portable::<G>(pos.player, pos.opponent),
                    "{pos:?}"
                );
            }
        }
        if cfg!(miri) {
            // Miri takes minutes to build the 8x8 edge table.
            check::<S4>(2);
            check::<S6>(1);
            return;
        }
        check::<S8>(50);
        check::<S6>(20);
        check::<S12>(5);
    }

    #[test]
    #[cfg_attr(miri, ignore = "the 8x8 edge table (3^8 lines): minutes under Miri")]
    fn start_is_even_and_values_stay_within_the_clamp() {
        assert_eq!(evaluate::<S8>(S8::START_BLACK, S8::START_WHITE), 0);
        let mut rng = Rng::new(3);
        let mut values = Vec::new();
        // Random dense boards reach far beyond what games do.
        for _ in 0..20_000 {
            let p = rng.next_u64() & rng.next_u64() | rng.next_u64() & rng.next_u64();
            let o = rng.next_u64() & !p;
            values.push(evaluate::<S8>(p, o));
            values.push(evaluate::<S8>(o, p));
        }
        // All four edges against one disc in the centre: far beyond 63 discs
        // before the clamp, at 35 empties where edges weigh most.
        let edges = 0xff81_8181_8181_81ffu64;
        let centre = 1u64 << 27;
        values.push(evaluate::<S8>(edges, centre));
        values.push(evaluate::<S8>(centre, edges));
        let max = max_eval::<S8>();
        assert_eq!(max, crate::eval::MAX_EVAL);
        assert!(values.iter().all(|v| (-max..=max).contains(v)));
        assert!(values.contains(&max) && values.contains(&-max));
    }

    #[test]
    fn corners_are_good_and_x_squares_bad_everywhere() {
        fn check<G: Geometry>() {
            let n = G::N;
            // The side to move holds a corner, or an X-square by an empty corner.
            let corner = evaluate::<G>(G::B::bit(0) | G::START_BLACK, G::START_WHITE);
            let x = evaluate::<G>(G::B::bit(n + 1) | G::START_BLACK, G::START_WHITE);
            assert!(corner > x, "{n}: corner {corner} x {x}");
            if n >= 6 {
                assert!(x < 0, "{n}: x-square {x}");
            }
        }
        check::<S6>();
        // Miri takes minutes to build the edge tables of 8x8 and up.
        #[cfg(not(miri))]
        {
            check::<S10>();
            check::<S16>();
        }
    }
}
