//! Board geometries: one zero-sized type per board size, fixing the side
//! length `N`, the bit type, the masks that shift-and-mask move generation
//! needs, and the hot operations with their generic bodies. Squares are
//! `row * N + col` (a1 = 0), bit `i` is square `i`.

use super::bits::{Bits, U256};
use super::rules;
use once_cell::sync::Lazy;
use std::fmt::Debug;
use std::hash::Hash;

/// A board size, with its bit type, its masks and its hot operations.
/// Everything in the core is written once over a geometry and monomorphised
/// per size, so `N` and the masks are compile-time constants in the hot
/// loops. The hot operations (move generation, flips, stability, the
/// solver's parity and neighbour tests) have generic bodies here that a
/// geometry may replace: [`S8`](super::s8::S8) replaces them with dedicated
/// 8x8 code, so the 8x8 instance runs that code.
pub trait Geometry: Copy + Clone + Default + Eq + Hash + Debug + Send + Sync + 'static {
    /// The bit set type: at least `N * N` bits.
    type B: Bits;
    /// Squares per side (even, 4..=16).
    const N: u32;
    /// `N * N`.
    const SQUARES: u32;
    /// Every square of the board (the bits above `N * N` are always clear).
    const ALL: Self::B;
    /// Every square but column 0 (a): where an eastward shift may land.
    const NOT_COL0: Self::B;
    /// Every square but the last column: where a westward shift may land.
    const NOT_COLN: Self::B;
    /// Columns 1..N-2: discs that horizontal and diagonal runs may cross.
    const INNER: Self::B;
    const CORNERS: Self::B;
    /// The diagonal neighbours of the corners.
    const X_SQUARES: Self::B;
    /// The edge neighbours of the corners.
    const C_SQUARES: Self::B;
    /// Every square of the four edges.
    const EDGES: Self::B;
    /// The start: black on the lower-left / upper-right centre squares...
    const START_BLACK: Self::B;
    /// ... and white on the upper-left / lower-right ones (d4 and e5 on 8x8).
    const START_WHITE: Self::B;

    /// Tables built once per geometry at first use.
    fn tables() -> &'static Tables<Self::B>;

    /// Legal moves of `p` against `o`.
    #[inline(always)]
    fn moves(p: Self::B, o: Self::B) -> Self::B {
        rules::moves_of::<Self>(p, o)
    }

    /// Discs of `o` flipped when `p` plays on the empty square `sq`; empty if
    /// the move is illegal.
    #[inline(always)]
    fn flips(p: Self::B, o: Self::B, sq: u32) -> Self::B {
        rules::flips_of::<Self>(p, o, sq)
    }

    /// The number of discs `p` flips by playing on `sq` when `sq` is the
    /// board's only empty square (`o` holds every other square): the
    /// solver's last move, which needs the count, not the discs.
    #[inline(always)]
    fn count_last_flips(p: Self::B, o: Self::B, sq: u32) -> u32 {
        Self::flips(p, o, sq).count()
    }

    /// Squares next to (in the 8 directions) any square of `bits`.
    #[inline(always)]
    fn neighbours(bits: Self::B) -> Self::B {
        rules::neighbours::<Self>(bits)
    }

    /// The squares around square `sq` (a move must touch an opponent disc).
    #[inline(always)]
    fn neighbours_of(sq: u32) -> Self::B {
        Self::tables().neighbours[sq as usize]
    }

    /// The quadrant 0..4 of square `sq` (parity regions).
    #[inline(always)]
    fn quadrant(sq: u32) -> u32 {
        let h = Self::N / 2;
        (sq / Self::N >= h) as u32 * 2 + (sq % Self::N >= h) as u32
    }

    /// Empties in quadrants holding an odd number of empties: playing there
    /// first tends to leave the opponent the even regions.
    #[inline(always)]
    fn odd_quadrant_empties(empties: Self::B) -> Self::B {
        let mut odd = Self::B::ZERO;
        for &q in &Self::tables().quadrants {
            if (empties & q).count() & 1 == 1 {
                odd |= empties & q;
            }
        }
        odd
    }

    /// Discs of `p` that can never be flipped (a safe under-estimate).
    #[inline]
    fn stable(p: Self::B, o: Self::B) -> Self::B {
        rules::stable_discs::<Self>(p, o)
    }

    /// [`Self::stable`] when it may hold `needed` discs; None when a
    /// cheaper test shows it holds fewer. The solver's stability cutoff
    /// needs a count: most tests fail, and fail on the cheap test.
    #[inline]
    fn stable_at_least(p: Self::B, o: Self::B, needed: u32) -> Option<Self::B> {
        let _ = needed;
        Some(Self::stable(p, o))
    }

    /// A static preference for squares, for move ordering only: corners
    /// best, then edges, the corners' neighbours worst.
    #[inline(always)]
    fn square_value(x: u32) -> i32 {
        if Self::CORNERS.has(x) {
            18
        } else if Self::X_SQUARES.has(x) {
            2
        } else if Self::C_SQUARES.has(x) {
            4
        } else if Self::EDGES.has(x) {
            14
        } else {
            8
        }
    }

    /// The squares in the order of [`Self::square_classes`], as places.
    fn square_order() -> &'static SquareOrder;

    /// The squares in five classes, in the order of [`Self::square_value`]
    /// (corners, other edge squares, inner squares, C- then X-squares): the
    /// order in which the solver tries the moves of its last few empties,
    /// within each parity half. A partition of the board.
    #[inline(always)]
    fn square_classes() -> [Self::B; 5] {
        [
            Self::CORNERS,
            Self::EDGES & !Self::CORNERS & !Self::C_SQUARES,
            Self::ALL & !Self::EDGES & !Self::X_SQUARES,
            Self::C_SQUARES,
            Self::X_SQUARES,
        ]
    }
}

/// The squares in the order of [`Geometry::square_classes`] (by class,
/// then by square), and back: the shallow solver turns the empties of a
/// parity half into a set of places (bit `r` for `square[r]`), whose
/// lowest bit first is that order, rather than walking the five classes
/// (most of them without an empty square) at every node.
pub struct SquareOrder {
    /// `rank[sq]`: the place of square `sq`.
    pub rank: [u8; 256],
    /// `square[r]`: the square at place `r`.
    pub square: [u8; 256],
}

impl SquareOrder {
    pub fn build<B: Bits>(classes: [B; 5]) -> SquareOrder {
        let mut order = SquareOrder {
            rank: [0; 256],
            square: [0; 256],
        };
        for (r, sq) in classes.iter().flat_map(|c| c.squares()).enumerate() {
            order.rank[sq as usize] = r as u8;
            order.square[r] = sq as u8;
        }
        order
    }
}

/// Masks that are cheaper to build at run time than as constants.
#[derive(Debug)]
pub struct Tables<B> {
    /// `neighbours[sq]`: the up to 8 squares around `sq`.
    pub neighbours: Vec<B>,
    /// `rays[sq][d]`: the squares strictly beyond `sq` in direction `d`, to
    /// the edge. Directions 0..4 walk up the square order (east, north,
    /// north-east, north-west), 4..8 down (west, south, south-west,
    /// south-east).
    pub rays: Vec<[B; 8]>,
    /// `lines[sq]`: the squares that share a row, a column or a diagonal
    /// with `sq` (the union of its rays, without `sq`).
    pub lines: Vec<B>,
    /// Each row, each column, each diagonal (a1-h8 direction) and each
    /// anti-diagonal (h1-a8 direction).
    pub rows: Vec<B>,
    pub cols: Vec<B>,
    pub diagonals: Vec<B>,
    pub anti_diagonals: Vec<B>,
    /// The four (N/2)x(N/2) quadrants, for parity.
    pub quadrants: [B; 4],
    /// Columns 0 and N-1 / rows 0 and N-1.
    pub edge_cols: B,
    pub edge_rows: B,
}

impl<B: Bits> Tables<B> {
    pub fn build(n: u32) -> Tables<B> {
        let set = |f: &dyn Fn(u32, u32) -> bool| {
            let mut b = B::ZERO;
            for sq in 0..n * n {
                if f(sq / n, sq % n) {
                    b |= B::bit(sq);
                }
            }
            b
        };
        let ni = n as i32;
        let neighbours = (0..n * n)
            .map(|sq| {
                let (r, c) = ((sq / n) as i32, (sq % n) as i32);
                set(&|rr, cc| {
                    let (dr, dc) = (rr as i32 - r, cc as i32 - c);
                    (dr, dc) != (0, 0) && dr.abs() <= 1 && dc.abs() <= 1
                })
            })
            .collect();
        const STEPS: [(i32, i32); 8] = [
            (0, 1),
            (1, 0),
            (1, 1),
            (1, -1),
            (0, -1),
            (-1, 0),
            (-1, -1),
            (-1, 1),
        ];
        let rays: Vec<[B; 8]> = (0..n * n)
            .map(|sq| {
                let mut out = [B::ZERO; 8];
                for (d, &(dr, dc)) in STEPS.iter().enumerate() {
                    let (mut r, mut c) = ((sq / n) as i32 + dr, (sq % n) as i32 + dc);
                    while (0..ni).contains(&r) && (0..ni).contains(&c) {
                        out[d] |= B::bit((r * ni + c) as u32);
                        r += dr;
                        c += dc;
                    }
                }
                out
            })
            .collect();
        let lines = rays
            .iter()
            .map(|r| r.iter().fold(B::ZERO, |l, &b| l | b))
            .collect();
        let rows = (0..n).map(|i| set(&|r, _| r == i)).collect();
        let cols = (0..n).map(|i| set(&|_, c| c == i)).collect();
        let diagonals = (0..2 * ni - 1)
            .map(|k| set(&|r, c| c as i32 - r as i32 + ni - 1 == k))
            .collect();
        let anti_diagonals = (0..2 * ni - 1)
            .map(|k| set(&|r, c| (c + r) as i32 == k))
            .collect();
        let h = n / 2;
        let quadrants = [
            set(&|r, c| r < h && c < h),
            set(&|r, c| r < h && c >= h),
            set(&|r, c| r >= h && c < h),
            set(&|r, c| r >= h && c >= h),
        ];
        Tables {
            neighbours,
            rays,
            lines,
            rows,
            cols,
            diagonals,
            anti_diagonals,
            quadrants,
            edge_cols: set(&|_, c| c == 0 || c == n - 1),
            edge_rows: set(&|r, _| r == 0 || r == n - 1),
        }
    }
}

/// The masks a geometry declares as constants.
#[derive(Clone, Copy)]
pub enum Kind {
    All,
    NotCol0,
    NotColN,
    Inner,
    Corners,
    XSquares,
    CSquares,
    Edges,
    StartBlack,
    StartWhite,
}

const fn is_end(x: u32, n: u32) -> bool {
    x == 0 || x == n - 1
}

const fn is_next_to_end(x: u32, n: u32) -> bool {
    x == 1 || x == n - 2
}

/// Whether square `sq` of the `n`x`n` board belongs to the mask `kind`.
pub const fn in_kind(n: u32, sq: u32, kind: Kind) -> bool {
    let (r, c) = (sq / n, sq % n);
    let h = n / 2;
    match kind {
        Kind::All => true,
        Kind::NotCol0 => c != 0,
        Kind::NotColN => c != n - 1,
        Kind::Inner => c != 0 && c != n - 1,
        Kind::Corners => is_end(r, n) && is_end(c, n),
        Kind::XSquares => is_next_to_end(r, n) && is_next_to_end(c, n),
        Kind::CSquares => {
            (is_end(r, n) && is_next_to_end(c, n)) || (is_next_to_end(r, n) && is_end(c, n))
        }
        Kind::Edges => is_end(r, n) || is_end(c, n),
        Kind::StartBlack => (r == h - 1 && c == h) || (r == h && c == h - 1),
        Kind::StartWhite => (r == h - 1 && c == h - 1) || (r == h && c == h),
    }
}

pub const fn mask_u64(n: u32, kind: Kind) -> u64 {
    let mut m = 0u64;
    let mut sq = 0;
    while sq < n * n {
        if in_kind(n, sq, kind) {
            m |= 1 << sq;
        }
        sq += 1;
    }
    m
}

pub const fn mask_u128(n: u32, kind: Kind) -> u128 {
    let mut m = 0u128;
    let mut sq = 0;
    while sq < n * n {
        if in_kind(n, sq, kind) {
            m |= 1 << sq;
        }
        sq += 1;
    }
    m
}

pub const fn mask_u256(n: u32, kind: Kind) -> U256 {
    let mut m = U256([0; 4]);
    let mut sq = 0;
    while sq < n * n {
        if in_kind(n, sq, kind) {
            m = m.const_or(U256::const_bit(sq));
        }
        sq += 1;
    }
    m
}

/// The items every geometry declares alike: its side, masks and tables.
macro_rules! geometry_items {
    ($name:ident, $n:expr, $b:ty, $mask:ident) => {
        type B = $b;
        const N: u32 = $n;
        const SQUARES: u32 = $n * $n;
        const ALL: $b = $mask($n, Kind::All);
        const NOT_COL0: $b = $mask($n, Kind::NotCol0);
        const NOT_COLN: $b = $mask($n, Kind::NotColN);
        const INNER: $b = $mask($n, Kind::Inner);
        const CORNERS: $b = $mask($n, Kind::Corners);
        const X_SQUARES: $b = $mask($n, Kind::XSquares);
        const C_SQUARES: $b = $mask($n, Kind::CSquares);
        const EDGES: $b = $mask($n, Kind::Edges);
        const START_BLACK: $b = $mask($n, Kind::StartBlack);
        const START_WHITE: $b = $mask($n, Kind::StartWhite);

        fn tables() -> &'static Tables<$b> {
            static TABLES: Lazy<Tables<$b>> = Lazy::new(|| Tables::build($n));
            &TABLES
        }

        fn square_order() -> &'static SquareOrder {
            static ORDER: Lazy<SquareOrder> =
                Lazy::new(|| SquareOrder::build(<$name as Geometry>::square_classes()));
            &ORDER
        }
    };
}
pub(crate) use geometry_items;

/// A geometry that keeps every generic body.
macro_rules! geometry {
    ($name:ident, $n:expr, $b:ty, $mask:ident, $doc:literal) => {
        #[doc = $doc]
        #[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
        pub struct $name;

        impl Geometry for $name {
            geometry_items!($name, $n, $b, $mask);
        }
    };
}

geometry!(
    S4,
    4,
    u64,
    mask_u64,
    "The 4x4 board, on a `u64` (16 bits used)."
);
geometry!(
    S6,
    6,
    u64,
    mask_u64,
    "The 6x6 board, on a `u64` (36 bits used)."
);
geometry!(
    S10,
    10,
    u128,
    mask_u128,
    "The 10x10 board, on a `u128` (100 bits used)."
);
geometry!(
    S12,
    12,
    U256,
    mask_u256,
    "The 12x12 board, on a `U256` (144 bits used)."
);
geometry!(
    S14,
    14,
    U256,
    mask_u256,
    "The 14x14 board, on a `U256` (196 bits used)."
);
geometry!(
    S16,
    16,
    U256,
    mask_u256,
    "The 16x16 board, on a `U256` (all 256 bits)."
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::testing::for_every_size;
    use crate::board::S8;

    fn check<G: Geometry>() {
        let n = G::N;
        assert_eq!(G::ALL.count(), n * n);
        assert_eq!(G::CORNERS.count(), 4);
        assert_eq!(G::X_SQUARES.count(), 4);
        assert_eq!(G::C_SQUARES.count(), 8);
        assert_eq!(G::EDGES.count(), 4 * n - 4);
        assert_eq!(G::INNER.count(), n * (n - 2));
        assert_eq!((G::START_BLACK | G::START_WHITE).count(), 4);
        let t = G::tables();
        assert_eq!(t.neighbours[0].count(), 3);
        assert_eq!(t.neighbours[(n + 1) as usize].count(), 8);
        // A corner's row, column and diagonal; a square's lines hold its
        // neighbours and never itself.
        assert_eq!(t.lines[0].count(), 3 * (n - 1));
        for sq in 0..n * n {
            assert!(
                (t.lines[sq as usize] & t.neighbours[sq as usize]) == t.neighbours[sq as usize]
            );
            assert!(!t.lines[sq as usize].has(sq));
        }
        assert_eq!(t.diagonals.len() as u32, 2 * n - 1);
        let all = t.rows.iter().fold(G::B::ZERO, |a, &b| a | b);
        assert!(all == G::ALL);
        let q = t.quadrants.iter().fold(G::B::ZERO, |a, &b| a | b);
        assert!(q == G::ALL);
        let classes = G::square_classes();
        let union = classes.iter().fold(G::B::ZERO, |a, &b| a | b);
        assert!(union == G::ALL);
        assert_eq!(classes.iter().map(|c| c.count()).sum::<u32>(), n * n);
        assert!(classes[0] == G::CORNERS && classes[4] == G::X_SQUARES);
        // The places walk the classes in order, each by square.
        let order = G::square_order();
        let walked: Vec<u32> = (0..n * n)
            .map(|r| order.square[r as usize] as u32)
            .collect();
        let classes: Vec<u32> = classes.iter().flat_map(|c| c.squares()).collect();
        assert_eq!(walked, classes);
        for sq in 0..n * n {
            assert_eq!(order.square[order.rank[sq as usize] as usize] as u32, sq);
        }
    }

    #[test]
    fn masks_of_every_size() {
        for_every_size!(check);
        // d5 e4 black, d4 e5 white on 8x8.
        assert_eq!(S8::START_BLACK, 0x0000_0008_1000_0000);
        assert_eq!(S8::START_WHITE, 0x0000_0010_0800_0000);
    }
}
