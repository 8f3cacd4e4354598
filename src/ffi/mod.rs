//! The C ABI: thin glue that checks pointers and ranges, calls the core and
//! maps its errors to status codes. The only module that touches raw pointers.
//!
//! Every exported body runs inside `boundary`, so a panic never crosses into
//! C: it becomes `OTHELLO_STATUS_PANIC` (or NULL / a neutral value) with the
//! panic message kept as the thread's last error.

#![allow(non_camel_case_types)]
// The safety contract of every function is stated once, at the top of the
// generated header (and in docs/guide.md), rather than repeated on each function.
#![allow(clippy::missing_safety_doc)]

pub mod board;
pub mod book;
pub mod engine;
pub mod evaluation;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub mod wasm;

use crate::error::Error;
use std::cell::RefCell;
use std::ffi::{c_char, c_int, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Result of every fallible call. `OTHELLO_STATUS_OK` is 0; every other value
/// is a failure, described further by `othello_last_error`. The type is a
/// 32-bit integer in C; new codes may be added at the end.
#[repr(i32)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum othello_status {
    /// Success.
    OTHELLO_STATUS_OK = 0,
    /// A required pointer argument was NULL.
    OTHELLO_STATUS_NULL_ARGUMENT = 1,
    /// A square index outside the board (0..63 on 8x8).
    OTHELLO_STATUS_INVALID_SQUARE = 2,
    /// The square is occupied or the move flips nothing.
    OTHELLO_STATUS_ILLEGAL_MOVE = 3,
    /// A pass was asked for while the side to move has a legal move.
    OTHELLO_STATUS_CANNOT_PASS = 4,
    /// Neither side can move: the game is over.
    OTHELLO_STATUS_GAME_OVER = 5,
    /// Undo at the start of the history.
    OTHELLO_STATUS_NOTHING_TO_UNDO = 6,
    /// Redo with no undone turn to replay.
    OTHELLO_STATUS_NOTHING_TO_REDO = 7,
    /// An output buffer is too small; the size needed was written to the
    /// size out-parameter.
    OTHELLO_STATUS_BUFFER_TOO_SMALL = 8,
    /// Malformed text: square name, board string or transcript.
    OTHELLO_STATUS_PARSE_ERROR = 9,
    /// An argument outside its documented range.
    OTHELLO_STATUS_INVALID_ARGUMENT = 10,
    /// The handle is in use by another call (for example a running search).
    OTHELLO_STATUS_BUSY = 11,
    /// An internal error (a bug): nothing was changed; please report it.
    OTHELLO_STATUS_PANIC = 12,
    /// A stop or a time/node limit ended a call that has no partial result
    /// (othello_engine_analyze); nothing was written.
    OTHELLO_STATUS_STOPPED = 13,
    /// Memory could not be allocated (for example a transposition table of
    /// the size asked for); nothing was created or changed.
    OTHELLO_STATUS_OUT_OF_MEMORY = 14,
}

use othello_status::*;

/// The colour of a disc or of a player. A 32-bit integer in C.
#[repr(i32)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum othello_color {
    /// No disc / no player.
    OTHELLO_COLOR_EMPTY = 0,
    /// Black: `X` in strings, moves first.
    OTHELLO_COLOR_BLACK = 1,
    /// White: `O` in strings.
    OTHELLO_COLOR_WHITE = 2,
}

/// A status code as passed in from C, where any integer may arrive. The header
/// spells it `othello_status`.
pub type othello_status_arg = i32;

/// A colour as passed in from C, where any integer may arrive; checked before
/// use. The header spells it `othello_color`.
pub type othello_color_arg = i32;

impl From<Option<crate::Color>> for othello_color {
    fn from(c: Option<crate::Color>) -> Self {
        match c {
            None => othello_color::OTHELLO_COLOR_EMPTY,
            Some(crate::Color::Black) => othello_color::OTHELLO_COLOR_BLACK,
            Some(crate::Color::White) => othello_color::OTHELLO_COLOR_WHITE,
        }
    }
}

/// A failure on its way to C: the status and the detail for `othello_last_error`.
#[derive(Debug)]
pub(crate) struct Failure {
    status: othello_status,
    message: String,
}

impl Failure {
    pub(crate) fn new(status: othello_status, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
        }
    }

    /// INVALID_ARGUMENT: an argument outside its documented range.
    pub(crate) fn invalid(message: impl Into<String>) -> Failure {
        Failure::new(OTHELLO_STATUS_INVALID_ARGUMENT, message)
    }

    pub(crate) fn null(what: &str) -> Failure {
        Failure::new(OTHELLO_STATUS_NULL_ARGUMENT, format!("{what} is NULL"))
    }
}

/// The status code C callers get for an error (the Python package's native
/// module raises the exception class of the same code).
impl From<&Error> for othello_status {
    fn from(e: &Error) -> othello_status {
        match e {
            Error::InvalidSquare(_) => OTHELLO_STATUS_INVALID_SQUARE,
            Error::IllegalMove(_) => OTHELLO_STATUS_ILLEGAL_MOVE,
            Error::CannotPass => OTHELLO_STATUS_CANNOT_PASS,
            Error::GameOver => OTHELLO_STATUS_GAME_OVER,
            Error::NothingToUndo => OTHELLO_STATUS_NOTHING_TO_UNDO,
            Error::NothingToRedo => OTHELLO_STATUS_NOTHING_TO_REDO,
            Error::Parse(_) => OTHELLO_STATUS_PARSE_ERROR,
            Error::InvalidArgument(_) => OTHELLO_STATUS_INVALID_ARGUMENT,
            Error::Stopped => OTHELLO_STATUS_STOPPED,
        }
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        Failure::new((&e).into(), e.to_string())
    }
}

thread_local! {
    static LAST_ERROR: RefCell<(othello_status, String)> =
        const { RefCell::new((othello_status::OTHELLO_STATUS_OK, String::new())) };
}

fn record(f: &Failure) {
    LAST_ERROR.with(|l| *l.borrow_mut() = (f.status, f.message.clone()));
}

/// Records a failure of Rust code that shares the library with C callers
/// (the Python package's native module) as this thread's last error, as a
/// failed C call would.
pub fn set_last_error(status: othello_status, message: &str) {
    record(&Failure::new(status, message));
}

/// Runs an exported body: records a failure as the thread's last error, and
/// turns a panic into `on_panic` (with the panic message recorded).
pub(crate) fn boundary<T>(on_error: T, body: impl FnOnce() -> Result<T, Failure>) -> T
where
    T: Copy,
{
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(v)) => v,
        Ok(Err(f)) => {
            record(&f);
            on_error
        }
        Err(payload) => {
            let text = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            record(&Failure::new(
                OTHELLO_STATUS_PANIC,
                format!("internal error (please report): {text}"),
            ));
            on_error
        }
    }
}

/// [`boundary`] for calls that return a status: failures return their own code.
pub(crate) fn boundary_status(body: impl FnOnce() -> Result<(), Failure>) -> othello_status {
    let mut status = OTHELLO_STATUS_PANIC;
    let ok = boundary(false, || match body() {
        Ok(()) => Ok(true),
        Err(f) => {
            status = f.status;
            Err(f)
        }
    });
    if ok {
        OTHELLO_STATUS_OK
    } else {
        status
    }
}

/// The object behind a `const` handle pointer, or NULL_ARGUMENT naming it:
/// the one way every exported function reads its handles.
pub(crate) unsafe fn try_ref<'a, T>(p: *const T, what: &str) -> Result<&'a T, Failure> {
    p.as_ref().ok_or_else(|| Failure::null(what))
}

/// As [`try_ref`], for a mutable handle.
pub(crate) unsafe fn try_mut<'a, T>(p: *mut T, what: &str) -> Result<&'a mut T, Failure> {
    p.as_mut().ok_or_else(|| Failure::null(what))
}

/// The `len` bytes at `data`, borrowed for the call (the loaders' buffers):
/// NULL_ARGUMENT for NULL `data`.
pub(crate) unsafe fn read_bytes<'a>(data: *const u8, len: usize) -> Result<&'a [u8], Failure> {
    if data.is_null() {
        return Err(Failure::null("data"));
    }
    Ok(std::slice::from_raw_parts(data, len))
}

/// Releases a handle made by `Box::into_raw`; NULL is ignored: the body of
/// every `_free`.
pub(crate) unsafe fn free_handle<T>(p: *mut T) {
    boundary((), || {
        if !p.is_null() {
            drop(Box::from_raw(p));
        }
        Ok(())
    })
}

/// Reads a NUL-terminated C string as UTF-8.
pub(crate) unsafe fn read_str<'a>(text: *const c_char, what: &str) -> Result<&'a str, Failure> {
    if text.is_null() {
        return Err(Failure::null(what));
    }
    CStr::from_ptr(text).to_str().map_err(|_| {
        Failure::new(
            OTHELLO_STATUS_PARSE_ERROR,
            format!("{what} is not valid UTF-8"),
        )
    })
}

/// Reads a file path argument: NULL_ARGUMENT for NULL, INVALID_ARGUMENT
/// when it is not UTF-8 (the loaders of weights and books).
pub(crate) unsafe fn read_path<'a>(path: *const c_char) -> Result<&'a std::path::Path, Failure> {
    if path.is_null() {
        return Err(Failure::null("path"));
    }
    let path = CStr::from_ptr(path)
        .to_str()
        .map_err(|_| Failure::invalid("path is not valid UTF-8"))?;
    Ok(std::path::Path::new(path))
}

/// Copies `text` and a NUL into `(buf, len)`; `*out_n` gets the length without
/// the NUL, or on BUFFER_TOO_SMALL the size needed with it.
pub(crate) unsafe fn write_str(
    text: &str,
    buf: *mut c_char,
    len: usize,
    out_n: *mut usize,
) -> Result<(), Failure> {
    let needed = text.len() + 1;
    if buf.is_null() && len > 0 {
        return Err(Failure::null("buf (with len > 0)"));
    }
    if len < needed {
        if !out_n.is_null() {
            *out_n = needed;
        }
        return Err(Failure::new(
            OTHELLO_STATUS_BUFFER_TOO_SMALL,
            format!("buffer of {len} bytes is too small: {needed} needed"),
        ));
    }
    std::ptr::copy_nonoverlapping(text.as_ptr(), buf as *mut u8, text.len());
    *buf.add(text.len()) = 0;
    if !out_n.is_null() {
        *out_n = text.len();
    }
    Ok(())
}

/// Checks that the caller's list `(buf, cap)` takes `count` items: `buf`
/// may be NULL with `cap` 0 (the caller only wants the count), else `cap`
/// must reach `count` (BUFFER_TOO_SMALL, with `count` in `*out_n`).
pub(crate) unsafe fn check_room<T>(
    count: usize,
    buf: *mut T,
    cap: usize,
    out_n: *mut usize,
    what: &str,
) -> Result<(), Failure> {
    if buf.is_null() && cap > 0 {
        return Err(Failure::null(&format!("{what} (with cap > 0)")));
    }
    if !buf.is_null() && cap < count {
        if !out_n.is_null() {
            *out_n = count;
        }
        return Err(Failure::new(
            OTHELLO_STATUS_BUFFER_TOO_SMALL,
            format!("{what}: room for {cap}, {count} needed"),
        ));
    }
    Ok(())
}

/// Copies `items` into the caller's list `(buf, cap)` (see [`check_room`]),
/// their number into `*out_n` (may be NULL): the one writer of every list
/// the C API returns.
pub(crate) unsafe fn write_list<T: Copy>(
    items: &[T],
    buf: *mut T,
    cap: usize,
    out_n: *mut usize,
    what: &str,
) -> Result<(), Failure> {
    check_room(items.len(), buf, cap, out_n, what)?;
    if !buf.is_null() {
        std::ptr::copy_nonoverlapping(items.as_ptr(), buf, items.len());
    }
    if !out_n.is_null() {
        *out_n = items.len();
    }
    Ok(())
}

/// Every status with its description: the one table behind
/// othello_status_message() (the test checks that it lists every code).
const STATUS_TEXT: [(othello_status, &std::ffi::CStr); 15] = [
    (OTHELLO_STATUS_OK, c"ok"),
    (
        OTHELLO_STATUS_NULL_ARGUMENT,
        c"a required pointer argument was NULL",
    ),
    (OTHELLO_STATUS_INVALID_SQUARE, c"square out of range"),
    (OTHELLO_STATUS_ILLEGAL_MOVE, c"illegal move"),
    (
        OTHELLO_STATUS_CANNOT_PASS,
        c"cannot pass: a legal move exists",
    ),
    (OTHELLO_STATUS_GAME_OVER, c"the game is over"),
    (OTHELLO_STATUS_NOTHING_TO_UNDO, c"nothing to undo"),
    (OTHELLO_STATUS_NOTHING_TO_REDO, c"nothing to redo"),
    (OTHELLO_STATUS_BUFFER_TOO_SMALL, c"buffer too small"),
    (OTHELLO_STATUS_PARSE_ERROR, c"malformed text"),
    (OTHELLO_STATUS_INVALID_ARGUMENT, c"invalid argument"),
    (OTHELLO_STATUS_BUSY, c"handle busy"),
    (OTHELLO_STATUS_PANIC, c"internal error"),
    (OTHELLO_STATUS_STOPPED, c"stopped before finishing"),
    (OTHELLO_STATUS_OUT_OF_MEMORY, c"out of memory"),
];

/// The description of a status code: a static, NUL-terminated English string,
/// never NULL (unknown codes get a generic text).
#[no_mangle]
pub extern "C" fn othello_status_message(status: othello_status_arg) -> *const c_char {
    STATUS_TEXT
        .iter()
        .find(|(code, _)| *code as i32 == status)
        .map_or(c"unknown status code", |(_, text)| text)
        .as_ptr()
}

/// Copies the detail message of the last failed call on this thread into
/// `(buf, len)`, NUL-terminated; the empty string if no call has failed yet.
/// Successful calls do not clear it. `*out_n` (may be NULL) gets the message
/// length, or on OTHELLO_STATUS_BUFFER_TOO_SMALL the buffer size needed.
/// This call does not itself change the last error.
#[no_mangle]
pub unsafe extern "C" fn othello_last_error(
    buf: *mut c_char,
    len: usize,
    out_n: *mut usize,
) -> othello_status {
    let text = LAST_ERROR.with(|l| l.borrow().1.clone());
    let mut status = OTHELLO_STATUS_PANIC;
    catch_unwind(AssertUnwindSafe(|| {
        status = match write_str(&text, buf, len, out_n) {
            Ok(()) => OTHELLO_STATUS_OK,
            Err(f) => f.status,
        };
    }))
    .ok();
    status
}

/// The status of the last failed call on this thread (OTHELLO_STATUS_OK if
/// none has failed): the code behind a NULL or neutral return value.
#[no_mangle]
pub extern "C" fn othello_last_status() -> othello_status {
    LAST_ERROR
        .try_with(|l| l.borrow().0)
        .unwrap_or(OTHELLO_STATUS_PANIC)
}

/// The library version as "MAJOR.MINOR.PATCH", a static string; it equals the
/// OTHELLO_VERSION_* macros of the header the program was compiled against
/// when library and header match.
#[no_mangle]
pub extern "C" fn othello_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr() as *const c_char
}

/// The library version as one number, MAJOR * 10000 + MINOR * 100 + PATCH
/// (10000 for 1.0.0), to compare with OTHELLO_VERSION_NUMBER: a program
/// built against x.y runs with a library whose number has the same
/// MAJOR (`number / 10000`) and is at least the header's. Since 1.0.
#[no_mangle]
pub extern "C" fn othello_version_number() -> c_int {
    VERSION_NUMBER
}

const VERSION_NUMBER: c_int = version_part(env!("CARGO_PKG_VERSION_MAJOR")) * 10000
    + version_part(env!("CARGO_PKG_VERSION_MINOR")) * 100
    + version_part(env!("CARGO_PKG_VERSION_PATCH"));

/// A decimal part of the crate's version, at compile time.
const fn version_part(digits: &str) -> c_int {
    let bytes = digits.as_bytes();
    let mut value = 0;
    let mut i = 0;
    while i < bytes.len() {
        value = value * 10 + (bytes[i] - b'0') as c_int;
        i += 1;
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_table_lists_every_code_in_order() {
        for (i, (code, _)) in STATUS_TEXT.iter().enumerate() {
            assert_eq!(*code as usize, i);
        }
        assert_eq!(
            STATUS_TEXT.last().map(|(c, _)| *c),
            Some(OTHELLO_STATUS_OUT_OF_MEMORY)
        );
        let text = |s: i32| unsafe { CStr::from_ptr(othello_status_message(s)) };
        assert_eq!(text(3).to_str(), Ok("illegal move"));
        assert_eq!(text(99).to_str(), Ok("unknown status code"));
    }

    #[test]
    fn version_number_matches_the_version_string() {
        let text = unsafe { CStr::from_ptr(othello_version()) }
            .to_str()
            .unwrap();
        let parts: Vec<c_int> = text.split('.').map(|p| p.parse().unwrap()).collect();
        assert_eq!(
            othello_version_number(),
            parts[0] * 10000 + parts[1] * 100 + parts[2]
        );
    }
}
