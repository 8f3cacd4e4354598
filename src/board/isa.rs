//! The instruction sets a hot recursion is compiled for. The library is
//! built for the target of `.cargo/config.toml` (x86-64-v2: POPCNT but no
//! LZCNT, TZCNT, BMI or AVX2); a recursion that scans and counts bits at
//! every node (perft, later the searches) has a second copy for x86-64-v3
//! CPUs, chosen at run time. The copies differ in the [`Isa`] their body
//! is instantiated with: [`Portable`] runs the geometry's own code on every
//! architecture; [`Haswell`] runs the 8x8 moves and flips on AVX2 (module
//! `avx2`), and the bit scans and counts of its copy compile to the v3
//! instructions.
//!
//! A recursion makes its v3 copy as perft does: the body is an
//! `#[inline(always)]` function generic over `I: Isa`; a function marked
//! `#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]` (the
//! features [`Haswell::detect`] checks) calls it with a [`Haswell`], and
//! the body's recursive calls go back through that function.

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

#[cfg(target_arch = "x86_64")]
static HASWELL: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
    is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("bmi1")
        && is_x86_feature_detected!("bmi2")
        && is_x86_feature_detected!("lzcnt")
        && is_x86_feature_detected!("popcnt")
});

#[cfg(target_arch = "x86_64")]
impl Haswell {
    /// `Some` on a CPU with the x86-64-v3 features (checked once).
    #[inline]
    pub fn detect() -> Option<Haswell> {
        HASWELL.then_some(Haswell(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Isa for Haswell {
    #[inline(always)]
    fn moves<G: Geometry>(self, p: G::B, o: G::B) -> G::B {
        if let Some((p8, o8)) = on_s8::<G>(p, o) {
            // SAFETY: `self` exists only on a CPU with AVX2.
            if let Some(m) = from_s8::<G>(unsafe { super::avx2::moves(p8, o8) }) {
                return m;
            }
        }
        G::moves(p, o)
    }

    #[inline(always)]
    fn flips<G: Geometry>(self, p: G::B, o: G::B, sq: u32) -> G::B {
        if let Some((p8, o8)) = on_s8::<G>(p, o) {
            // SAFETY: `self` exists only on a CPU with AVX2.
            if let Some(f) = from_s8::<G>(unsafe { super::avx2::flips(p8, o8, sq) }) {
                return f;
            }
        }
        G::flips(p, o, sq)
    }

    #[inline(always)]
    fn flips_and_replies<G: Geometry>(self, p: G::B, o: G::B, sq: u32) -> (G::B, G::B) {
        if let Some((p8, o8)) = on_s8::<G>(p, o) {
            // SAFETY: `self` exists only on a CPU with AVX2.
            let (f, m) = unsafe { super::avx2::flips_and_replies(p8, o8, sq) };
            if let (Some(f), Some(m)) = (from_s8::<G>(f), from_s8::<G>(m)) {
                return (f, m);
            }
        }
        flips_then_moves::<G, _>(self, p, o, sq)
    }
}
