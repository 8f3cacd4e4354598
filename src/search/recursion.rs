//! The copies of a recursion per instruction set (see
//! [`crate::board::isa`]): the midgame search and the solver are each
//! compiled once for the build's own instructions and once for each set a
//! CPU may add, and run the copy the CPU has. [`recursion!`] writes the
//! trait through which a node calls its children, so that they stay within
//! its copy, and the copies.

/// Declares the trait `$trait` of a recursion whose nodes are the method
/// `$body` of `$searcher`: its one method, `node`, runs `$body` compiled
/// for the instruction set `Self`; and `dispatch`, which runs `node` in
/// the copy this CPU runs. `node`'s generic parameters are written
/// twice, declared (`[...]`) and as arguments (`<...>`); `$body` takes
/// them without the evaluation `E` (the searcher's own), then the
/// instruction set.
///
/// On x86-64, [`Haswell`](crate::board::isa::Haswell) (x86-64-v3) and
/// [`Avx512`](crate::board::isa::Avx512) (x86-64-v4) run a copy compiled
/// with their features, the `Portable` one the build's.
macro_rules! recursion {
    (
        $(#[$doc:meta])*
        trait $trait:ident:
        fn node[$($generics:tt)*]<$($param:ident),*>(
            s: &mut $searcher:ty $(, $arg:ident: $ty:ty)* $(,)?
        ) -> $ret:ty = $body:ident::<$($body_param:ident),*>;
    ) => {
        $(#[$doc])*
        trait $trait: crate::board::isa::Isa {
            fn node<$($generics)*>(self, s: &mut $searcher $(, $arg: $ty)*) -> $ret;
        }

        /// Runs `node` in the copy of the recursion this CPU runs.
        #[inline]
        fn dispatch<$($generics)*>(s: &mut $searcher $(, $arg: $ty)*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            if let Some(isa) = crate::board::isa::Avx512::detect() {
                return isa.node::<$($param),*>(s $(, $arg)*);
            }
            #[cfg(target_arch = "x86_64")]
            if let Some(isa) = crate::board::isa::Haswell::detect() {
                return isa.node::<$($param),*>(s $(, $arg)*);
            }
            crate::board::isa::Portable.node::<$($param),*>(s $(, $arg)*)
        }

        impl $trait for crate::board::isa::Portable {
            fn node<$($generics)*>(self, s: &mut $searcher $(, $arg: $ty)*) -> $ret {
                s.$body::<$($body_param,)* Self>(self $(, $arg)*)
            }
        }

        #[cfg(target_arch = "x86_64")]
        $crate::search::recursion::recursion!(
            @copy $trait, Haswell, node_v3, "avx2,bmi1,bmi2,lzcnt,popcnt",
            [$($generics)*] <$($param),*> ($searcher) ($($arg: $ty),*) $ret,
            $body <$($body_param),*>
        );
        #[cfg(target_arch = "x86_64")]
        $crate::search::recursion::recursion!(
            @copy $trait, Avx512, node_v4,
            "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512vl,avx512cd",
            [$($generics)*] <$($param),*> ($searcher) ($($arg: $ty),*) $ret,
            $body <$($body_param),*>
        );
    };
    // The copy for `$isa`: its nodes are calls to `$copy`, compiled with
    // `$features` (those `$isa::detect` checks).
    (
        @copy $trait:ident, $isa:ident, $copy:ident, $features:literal,
        [$($generics:tt)*] <$($param:ident),*> ($searcher:ty) ($($arg:ident: $ty:ty),*) $ret:ty,
        $body:ident <$($body_param:ident),*>
    ) => {
        impl $trait for crate::board::isa::$isa {
            #[inline(always)]
            fn node<$($generics)*>(self, s: &mut $searcher $(, $arg: $ty)*) -> $ret {
                // SAFETY: an `$isa` exists only on a CPU with these features.
                unsafe { $copy::<$($param),*>(self, s $(, $arg)*) }
            }
        }

        #[target_feature(enable = $features)]
        fn $copy<$($generics)*>(
            isa: crate::board::isa::$isa,
            s: &mut $searcher
            $(, $arg: $ty)*
        ) -> $ret {
            s.$body::<$($body_param,)* crate::board::isa::$isa>(isa $(, $arg)*)
        }
    };
}

pub(crate) use recursion;
