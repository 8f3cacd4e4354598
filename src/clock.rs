//! The time, and the host's word to stop. Where the platform has a clock
//! this is `std::time::Instant`, and nothing outside the library stops a
//! search. WebAssembly without an operating system (`wasm32-unknown-unknown`,
//! the web build) has neither: the host provides them as the imports
//! `othello_host.now_ms` (milliseconds from any fixed origin, as
//! `performance.now()` gives) and `othello_host.interrupted` (nonzero to stop
//! the running search: the only way into a search that holds the thread),
//! which the JavaScript package supplies (docs/web.md).

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

/// Whether the host asks the running search to stop (never, natively: a
/// search is stopped through its flag from another thread).
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
#[inline]
pub fn interrupted() -> bool {
    false
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use host::{interrupted, Instant};

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod host {
    use std::ops::Sub;
    use std::time::Duration;

    #[link(wasm_import_module = "othello_host")]
    extern "C" {
        fn now_ms() -> f64;
        #[link_name = "interrupted"]
        fn host_interrupted() -> i32;
    }

    /// A moment, in the host's milliseconds.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        pub fn now() -> Instant {
            // SAFETY: an import without arguments or memory access.
            Instant(unsafe { now_ms() })
        }

        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }

        /// The time from `earlier` to this moment, zero if it was later.
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
        }

        pub fn checked_add(&self, d: Duration) -> Option<Instant> {
            let t = self.0 + d.as_secs_f64() * 1000.0;
            t.is_finite().then_some(Instant(t))
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }
    }

    pub fn interrupted() -> bool {
        // SAFETY: an import without arguments or memory access.
        unsafe { host_interrupted() != 0 }
    }
}
