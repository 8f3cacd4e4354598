//! The instruction sets a hot recursion is compiled for. The library is
//! built for the target of `.cargo/config.toml` (x86-64-v2: POPCNT but no
//! LZCNT, TZCNT, BMI or AVX2); a recursion that scans and counts bits at
//! every node (perft, the searches) has more copies, and runs the best
//! one the CPU has. The copies differ in the [`Isa`] their body is
//! instantiated with: [`Portable`] runs the geometry's own code on every
//! architecture; [`Haswell`] (x86-64-v3) runs the 8x8 moves and flips on
//! AVX2 (module `avx2`), and the bit scans and counts of its copy compile
//! to the v3 instructions; [`Avx512`] takes its flips from AVX-512 (module
//! `avx512`).
//!
//! A recursion makes its copies as perft does: the body is an
//! `#[inline(always)]` function generic over `I: Isa`; a function marked
//! `#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]` (the
//! features [`Haswell::detect`] checks) calls it with a [`Haswell`], one
//! that adds `avx512f,avx512vl,avx512cd` (those [`Avx512::detect`] adds)
//! with an [`Avx512`], and the body's recursive calls go back through the
//! same function.

use super::bits::Bits;
use super::geometry::Geometry;
#[cfg(target_arch = "x86_64")]
use super::s8::{from_s8, on_s8};

/// The moves and flips of an instruction set; values are zero-sized.
pub trait Isa: Copy {
    /// Legal moves of `p` against `o` (as [`Geometry::moves`]).
    fn moves<G: Geometry>(self, p: G::B, o: G::B) -> G::B;
    /// Discs of `o` flipped when `p` plays on the empty `sq` (as
    /// [`Geometry::flips`]).
    fn flips<G: Geometry>(self, p: G::B, o: G::B, sq: u32) -> G::B;

    /// The flips of `p` playing on the empty `sq` against `o`, and the
    /// moves the opponent then has: the child's mobility, without the
    /// child.
    #[inline(always)]
    fn flips_and_replies<G: Geometry>(self, p: G::B, o: G::B, sq: u32) -> (G::B, G::B) {
        flips_then_moves::<G, _>(self, p, o, sq)
    }

    /// The proof that this copy runs on AVX2 (x86-64-v3), for the kernels
    /// outside the board that have an AVX2 form (the evaluation's weight
    /// reads): `Some` in the [`Haswell`] and [`Avx512`] copies.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn haswell(self) -> Option<Haswell> {
        None
    }
}

/// [`Isa::flips_and_replies`] by its parts.
#[inline(always)]
fn flips_then_moves<G: Geometry, I: Isa>(isa: I, p: G::B, o: G::B, sq: u32) -> (G::B, G::B) {
    let f = isa.flips::<G>(p, o, sq);
    (f, isa.moves::<G>(o ^ f, p ^ f ^ G::B::bit(sq)))
}

/// The build's own target, on every architecture: the geometry's code.
#[derive(Clone, Copy, Debug)]
pub struct Portable;

impl Isa for Portable {
    #[inline(always)]
    fn moves<G: Geometry>(self, p: G::B, o: G::B) -> G::B {
        G::moves(p, o)
    }

    #[inline(always)]
    fn flips<G: Geometry>(self, p: G::B, o: G::B, sq: u32) -> G::B {
        G::flips(p, o, sq)
    }
}

/// x86-64-v3 CPUs: AVX2, BMI1, BMI2, LZCNT and POPCNT. A value is the
/// proof that this CPU has them: [`Haswell::detect`] is the only way to
/// make one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct Haswell(());

/// The newest copy the environment allows: `OTHELLO_ISA=portable`, `v3`
/// or `v4` (any other value, or none, allows every copy the CPU runs), to
/// compare the copies or to keep a CPU off AVX-512.
#[cfg(target_arch = "x86_64")]
static ALLOWED: once_cell::sync::Lazy<u8> =
    once_cell::sync::Lazy::new(|| match std::env::var("OTHELLO_ISA").as_deref() {
        Ok("portable") => 2,
        Ok("v3") => 3,
        _ => 4,
    });

#[cfg(target_arch = "x86_64")]
static HASWELL: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
    *ALLOWED >= 3
        && is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("bmi1")
        && is_x86_feature_detected!("bmi2")
        && is_x86_feature_detected!("lzcnt")
        && is_x86_feature_detected!("popcnt")
});

#[cfg(target_arch = "x86_64")]
impl Haswell {
    /// `Some` on a CPU with the x86-64-v3 features (checked once), unless
    /// `OTHELLO_ISA=portable`.
    #[inline]
    pub fn detect() -> Option<Haswell> {
        HASWELL.then_some(Haswell(()))
    }
}

/// CPUs with the x86-64-v3 features and AVX-512 F, VL and CD (those of
/// x86-64-v4 that the copies use). A value is the proof that this CPU has
/// them: [`Avx512::detect`] is the only way to make one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct Avx512(());

#[cfg(target_arch = "x86_64")]
static AVX512: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
    *ALLOWED >= 4
        && *HASWELL
        && is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512vl")
        && is_x86_feature_detected!("avx512cd")
});

#[cfg(target_arch = "x86_64")]
impl Avx512 {
    /// `Some` on a CPU with these features (checked once), unless
    /// `OTHELLO_ISA` is `portable` or `v3`.
    #[inline]
    pub fn detect() -> Option<Avx512> {
        AVX512.then_some(Avx512(()))
    }
}

/// The [`Isa`] of `$isa`: the 8x8 moves from module `avx2`, the flips
/// (alone and with the replies) from `$flips`, the geometry's own code on
/// other sizes. (A macro rather than a generic: the kernels must be
/// called from code compiled with their features, which a closure or a
/// trait object would not be.)
#[cfg(target_arch = "x86_64")]
macro_rules! isa_on_s8 {
    ($isa:ident, $flips:ident) => {
        impl Isa for $isa {
            #[inline(always)]
            fn moves<G: Geometry>(self, p: G::B, o: G::B) -> G::B {
                if let Some((p8, o8)) = on_s8::<G>(p, o) {
                    // SAFETY: `self` exists only on a CPU with the features.
                    if let Some(m) = from_s8::<G>(unsafe { super::avx2::moves(p8, o8) }) {
                        return m;
                    }
                }
                G::moves(p, o)
            }

            #[inline(always)]
            fn flips<G: Geometry>(self, p: G::B, o: G::B, sq: u32) -> G::B {
                if let Some((p8, o8)) = on_s8::<G>(p, o) {
                    // SAFETY: `self` exists only on a CPU with the features.
                    if let Some(f) = from_s8::<G>(unsafe { super::$flips::flips(p8, o8, sq) }) {
                        return f;
                    }
                }
                G::flips(p, o, sq)
            }

            #[inline(always)]
            fn flips_and_replies<G: Geometry>(self, p: G::B, o: G::B, sq: u32) -> (G::B, G::B) {
                if let Some((p8, o8)) = on_s8::<G>(p, o) {
                    // SAFETY: `self` exists only on a CPU with the features.
                    let (f, m) = unsafe { super::$flips::flips_and_replies(p8, o8, sq) };
                    if let (Some(f), Some(m)) = (from_s8::<G>(f), from_s8::<G>(m)) {
                        return (f, m);
                    }
                }
                flips_then_moves::<G, _>(self, p, o, sq)
            }

            #[inline(always)]
            fn haswell(self) -> Option<Haswell> {
                // A `$isa` CPU has the x86-64-v3 features (its `detect`
                // checks them).
                Some(Haswell(()))
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
isa_on_s8!(Haswell, avx2);
#[cfg(target_arch = "x86_64")]
isa_on_s8!(Avx512, avx512);
