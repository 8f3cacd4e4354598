//! Bit sets wide enough for every board size: `u64` (up to 8x8), `u128`
//! (10x10) and [`U256`] (12x12 to 16x16), behind one trait so that the rules,
//! the search and the solver are written once and monomorphised per size.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// A set of squares as a fixed-width bit string, square `i` at bit `i`.
/// Shifts move every square by the same number of bits; bits shifted past
/// the width are lost (the geometry masks off the unused top bits).
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// The width in bits.
    const WIDTH: u32;
    const ZERO: Self;

    /// The set holding square `i` alone (`i` < `WIDTH`).
    fn bit(i: u32) -> Self;
    fn count(self) -> u32;
    fn is_zero(self) -> bool;
    /// The lowest square of a non-empty set.
    fn lowest(self) -> u32;
    /// The highest square of a non-empty set.
    fn highest(self) -> u32;
    /// The set without its lowest square.
    fn without_lowest(self) -> Self;
    /// True if square `i` is in the set.
    fn has(self, i: u32) -> bool;
    /// The squares below `i` (`i` < `WIDTH`).
    fn below(i: u32) -> Self;
    /// The words of the set, lowest first (unused words are zero).
    fn words(self) -> [u64; 4];

    /// The squares of the set, ascending.
    #[inline]
    fn squares(self) -> SquareIter<Self> {
        SquareIter(self)
    }
}

/// Iterates the squares of a set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct SquareIter<B>(pub B);

impl<B: Bits> Iterator for SquareIter<B> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0.is_zero() {
            return None;
        }
        let i = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(i)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<B: Bits> ExactSizeIterator for SquareIter<B> {}

macro_rules! native_bits {
    ($t:ty, $width:expr) => {
        impl Bits for $t {
            const WIDTH: u32 = $width;
            const ZERO: $t = 0;

            #[inline(always)]
            fn bit(i: u32) -> $t {
                1 << i
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn is_zero(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn highest(self) -> u32 {
                $width - 1 - self.leading_zeros()
            }
            #[inline(always)]
            fn without_lowest(self) -> $t {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn has(self, i: u32) -> bool {
                self >> i & 1 != 0
            }
            #[inline(always)]
            fn below(i: u32) -> $t {
                (1 << i) - 1
            }
            #[inline(always)]
            fn words(self) -> [u64; 4] {
                let v = self as u128;
                [v as u64, (v >> 64) as u64, 0, 0]
            }
        }
    };
}

native_bits!(u64, 64);
native_bits!(u128, 128);

/// 256 bits as four `u64` words, lowest first: boards up to 16x16.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct U256(pub [u64; 4]);

impl U256 {
    /// `U256` with only bit `i` set, usable in constants.
    pub const fn const_bit(i: u32) -> U256 {
        let mut w = [0u64; 4];
        w[(i / 64) as usize] = 1 << (i % 64);
        U256(w)
    }

    pub const fn const_or(self, other: U256) -> U256 {
        U256([
            self.0[0] | other.0[0],
            self.0[1] | other.0[1],
            self.0[2] | other.0[2],
            self.0[3] | other.0[3],
        ])
    }
}

macro_rules! u256_op {
    ($tr:ident $f:ident $atr:ident $af:ident $op:tt) => {
        impl $tr for U256 {
            type Output = U256;
            #[inline(always)]
            fn $f(self, rhs: U256) -> U256 {
                U256([
                    self.0[0] $op rhs.0[0],
                    self.0[1] $op rhs.0[1],
                    self.0[2] $op rhs.0[2],
                    self.0[3] $op rhs.0[3],
                ])
            }
        }
        impl $atr for U256 {
            #[inline(always)]
            fn $af(&mut self, rhs: U256) {
                *self = *self $op rhs;
            }
        }
    };
}

u256_op!(BitAnd bitand BitAndAssign bitand_assign &);
u256_op!(BitOr bitor BitOrAssign bitor_assign |);
u256_op!(BitXor bitxor BitXorAssign bitxor_assign ^);

impl Not for U256 {
    type Output = U256;
    #[inline(always)]
    fn not(self) -> U256 {
        U256([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}

impl Shl<u32> for U256 {
    type Output = U256;
    /// Shifts towards the high bits; `n` below 256.
    #[inline(always)]
    fn shl(self, n: u32) -> U256 {
        let q = (n / 64) as usize;
        let r = n % 64;
        let w = self.0;
        let mut out = [0u64; 4];
        let mut i = 3;
        loop {
            if i >= q {
                let src = i - q;
                let mut v = w[src] << r;
                if r != 0 && src > 0 {
                    v |= w[src - 1] >> (64 - r);
                }
                out[i] = v;
            }
            if i == 0 {
                break;
            }
            i -= 1;
        }
        U256(out)
    }
}

impl Shr<u32> for U256 {
    type Output = U256;
    /// Shifts towards the low bits; `n` below 256.
    #[inline(always)]
    fn shr(self, n: u32) -> U256 {
        let q = (n / 64) as usize;
        let r = n % 64;
        let w = self.0;
        let mut out = [0u64; 4];
        let mut i = 0;
        while i + q < 4 {
            let src = i + q;
            let mut v = w[src] >> r;
            if r != 0 && src < 3 {
                v |= w[src + 1] << (64 - r);
            }
            out[i] = v;
            i += 1;
        }
        U256(out)
    }
}

/// `BELOW_U256[i]`: the squares below `i`, one load instead of a word loop.
static BELOW_U256: [U256; 256] = {
    let mut t = [U256([0; 4]); 256];
    let mut i = 1;
    while i < 256 {
        t[i] = t[i - 1].const_or(U256::const_bit(i as u32 - 1));
        i += 1;
    }
    t
};

impl Bits for U256 {
    const WIDTH: u32 = 256;
    const ZERO: U256 = U256([0; 4]);

    #[inline(always)]
    fn bit(i: u32) -> U256 {
        U256::const_bit(i)
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }
    #[inline(always)]
    fn lowest(self) -> u32 {
        let mut i = 0;
        while i < 3 && self.0[i] == 0 {
            i += 1;
        }
        i as u32 * 64 + self.0[i].trailing_zeros()
    }
    #[inline(always)]
    fn highest(self) -> u32 {
        let mut i = 3;
        while i > 0 && self.0[i] == 0 {
            i -= 1;
        }
        i as u32 * 64 + 63 - self.0[i].leading_zeros()
    }
    #[inline(always)]
    fn without_lowest(self) -> U256 {
        let mut w = self.0;
        let mut i = 0;
        while i < 3 && w[i] == 0 {
            i += 1;
        }
        w[i] &= w[i].wrapping_sub(1);
        U256(w)
    }
    #[inline(always)]
    fn has(self, i: u32) -> bool {
        self.0[(i / 64) as usize] >> (i % 64) & 1 != 0
    }
    #[inline(always)]
    fn below(i: u32) -> U256 {
        BELOW_U256[i as usize]
    }
    #[inline(always)]
    fn words(self) -> [u64; 4] {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same operation on `U256` and on a plain bool array.
    fn model(b: U256) -> Vec<bool> {
        (0..256).map(|i| b.has(i)).collect()
    }

    #[test]
    fn u256_shifts_match_a_bit_array() {
        let mut rng = crate::rng::Rng::new(11);
        // Miri (tests/miri.sh): two values, some ten seconds each there.
        let values = if cfg!(miri) { 2 } else { 300 };
        for _ in 0..values {
            let b = U256([
                rng.next_u64(),
                rng.next_u64(),
                rng.next_u64(),
                rng.next_u64(),
            ]);
            let bits = model(b);
            for n in [0u32, 1, 5, 15, 16, 17, 63, 64, 65, 100, 128, 200, 255] {
                let l = model(b << n);
                let r = model(b >> n);
                for i in 0..256usize {
                    let want_l = i >= n as usize && bits[i - n as usize];
                    let want_r = i + (n as usize) < 256 && bits[i + n as usize];
                    assert_eq!(l[i], want_l, "shl {n} bit {i}");
                    assert_eq!(r[i], want_r, "shr {n} bit {i}");
                }
            }
            let n = b.count();
            assert_eq!(n as usize, bits.iter().filter(|&&x| x).count());
            let listed: Vec<u32> = b.squares().collect();
            let expected: Vec<u32> = (0..256).filter(|&i| bits[i as usize]).collect();
            assert_eq!(listed, expected);
            for i in [0u32, 1, 63, 64, 65, 127, 128, 200, 255] {
                let below: Vec<u32> = U256::below(i).squares().collect();
                assert_eq!(below, (0..i).collect::<Vec<u32>>());
            }
            if n > 0 {
                assert_eq!(b.lowest(), expected[0]);
                assert_eq!(b.highest(), *expected.last().unwrap());
            }
        }
    }

    #[test]
    fn native_widths() {
        assert_eq!(<u64 as Bits>::below(5), 0b11111);
        assert_eq!(<u128 as Bits>::below(100).count(), 100);
        assert_eq!(<u128 as Bits>::bit(100).highest(), 100);
        assert_eq!(<u64 as Bits>::bit(63).lowest(), 63);
        let v: Vec<u32> = (0b1011u128 << 90).squares().collect();
        assert_eq!(v, vec![90, 91, 93]);
        assert_eq!((5u64).words(), [5, 0, 0, 0]);
        assert_eq!((1u128 << 70).words(), [0, 64, 0, 0]);
    }
}
