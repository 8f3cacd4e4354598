//! The generic bodies of the rules' hot operations (see
//! [`Geometry`]): shift-and-mask move generation (parallel
//! fills, a few doubling steps per direction), flips by walking each ray
//! from the move, and stable discs. No loop over squares on any path.

use super::bits::Bits;
use super::geometry::Geometry;

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
fn ray_flips<G: Geometry, const D: usize>(p: G::B, o: G::B, rays: &[G::B; 8]) -> G::B {
    let ray = rays[D];
    let stop = !o & ray;
    if stop.is_zero() {
        return G::B::ZERO;
    }
    let first = if D < 4 { stop.lowest() } else { stop.highest() };
    if !p.has(first) {
        G::B::ZERO
    } else if D < 4 {
        // The ray up to `first`, without it: its squares below `first`.
        ray & G::B::below(first)
    } else {
        ray & !G::B::below(first + 1)
    }
}

/// Discs flipped when `p` plays on the empty square `sq` against `o`; empty
/// if the move is illegal. Per direction, the first square of the ray that
/// is not an opponent disc is its lowest (rays walking up the square order)
/// or highest (walking down) bit outside `o`: if it holds a disc of `p`, the
/// squares of the ray before it flip.
#[inline]
pub fn flips_of<G: Geometry>(p: G::B, o: G::B, sq: u32) -> G::B {
    let rays = &G::tables().rays[sq as usize];
    ray_flips::<G, 0>(p, o, rays)
        | ray_flips::<G, 1>(p, o, rays)
        | ray_flips::<G, 2>(p, o, rays)
        | ray_flips::<G, 3>(p, o, rays)
        | ray_flips::<G, 4>(p, o, rays)
        | ray_flips::<G, 5>(p, o, rays)
        | ray_flips::<G, 6>(p, o, rays)
        | ray_flips::<G, 7>(p, o, rays)
}

/// Squares next to (in the 8 directions) any square of `bits`.
#[inline]
pub fn neighbours<G: Geometry>(bits: G::B) -> G::B {
    let h = step::<G, 0>(bits) | step::<G, 1>(bits);
    let row = bits | h;
    h | step::<G, 2>(row) | step::<G, 3>(row)
}

/// Discs of `p` that can never be flipped (a safe under-estimate): along
/// each of the four axes, on a full line, on the edge, or next to a stable
/// disc of their own colour.
pub fn stable_discs<G: Geometry>(p: G::B, o: G::B) -> G::B {
    let t = G::tables();
    let filled = p | o;
    let full = |lines: &[G::B]| {
        lines
            .iter()
            .filter(|&&l| filled & l == l)
            .fold(G::B::ZERO, |a, &l| a | l)
    };
    let (full_h, full_v) = (full(&t.rows), full(&t.cols));
    let (full_d, full_a) = (full(&t.diagonals), full(&t.anti_diagonals));
    let mut stable = G::B::ZERO;
    loop {
        let h = full_h | t.edge_cols | step::<G, 0>(stable) | step::<G, 1>(stable);
        let v = full_v | t.edge_rows | step::<G, 2>(stable) | step::<G, 3>(stable);
        let d = full_d | G::EDGES | step::<G, 4>(stable) | step::<G, 5>(stable);
        let a = full_a | G::EDGES | step::<G, 6>(stable) | step::<G, 7>(stable);
        let next = p & h & v & d & a;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}
