//! C functions choosing an engine's evaluation: v1 or the trained pattern
//! evaluation, with weights built in or loaded from a file or a buffer.

use super::engine::{configure, engine_ref, inspect, othello_engine};
use super::{boundary_status, othello_status, read_bytes, read_path, Failure};
use crate::eval::pattern::PatternWeights;
use crate::eval::Evaluator;
use std::ffi::c_char;
use std::sync::Arc;

/// The evaluation at the leaves of an engine's midgame search. A 32-bit
/// integer in C. Levels keep their meaning whichever is chosen.
#[repr(i32)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum othello_evaluation {
    /// The hand-made evaluation v1 (edge table, mobility, corners, parity).
    OTHELLO_EVALUATION_V1 = 0,
    /// The trained pattern evaluation: the weights built into the library,
    /// or the ones last loaded into the engine.
    OTHELLO_EVALUATION_TRAINED = 1,
}

/// An evaluation as passed in from C; checked before use. Spelled
/// `othello_evaluation` in the header.
pub type othello_evaluation_arg = i32;

fn set(e: *mut othello_engine, eval: Evaluator) -> Result<(), Failure> {
    configure(e, |engine| engine.set_evaluator(eval))
}

/// Chooses the evaluation of `e`'s later searches: OTHELLO_EVALUATION_V1,
/// or OTHELLO_EVALUATION_TRAINED with the weights built into the library
/// (dropping weights loaded earlier). Clears the engine's table.
/// INVALID_ARGUMENT for another value; BUSY during a search.
#[no_mangle]
pub unsafe extern "C" fn othello_engine_set_evaluation(
    e: *mut othello_engine,
    evaluation: othello_evaluation_arg,
) -> othello_status {
    boundary_status(|| {
        let eval = match evaluation {
            0 => Evaluator::V1,
            1 => Evaluator::trained(),
            v => {
                return Err(Failure::invalid(format!(
                    "evaluation {v} is not an othello_evaluation"
                )))
            }
        };
        set(e, eval)
    })
}

/// The evaluation `e` searches with; OTHELLO_EVALUATION_V1 for NULL or
/// while a search runs on `e` (the last error says BUSY).
#[no_mangle]
pub unsafe extern "C" fn othello_engine_get_evaluation(
    e: *const othello_engine,
) -> othello_evaluation {
    inspect(
        e,
        othello_evaluation::OTHELLO_EVALUATION_V1,
        |engine| match engine.evaluator() {
            Evaluator::V1 => othello_evaluation::OTHELLO_EVALUATION_V1,
            Evaluator::Pattern(_) => othello_evaluation::OTHELLO_EVALUATION_TRAINED,
        },
    )
}

/// Loads pattern weights (a file written by `othello-train`) from `path`
/// and makes `e` search with them (OTHELLO_EVALUATION_TRAINED). The file
/// names its own pattern set: the built-in weights' or another (such as
/// `othello-train --patterns extended`). A file that cannot be read is
/// INVALID_ARGUMENT, as is a corrupt, truncated or incompatible one (the
/// last error says what is wrong); on failure the engine keeps its
/// evaluation. Clears the engine's table on success.
#[no_mangle]
pub unsafe extern "C" fn othello_engine_load_weights(
    e: *mut othello_engine,
    path: *const c_char,
) -> othello_status {
    boundary_status(|| {
        engine_ref(e)?;
        let w = PatternWeights::load(read_path(path)?)?;
        set(e, Evaluator::Pattern(Arc::new(w)))
    })
}

/// As othello_engine_load_weights(), from the `len` bytes at `data` (the
/// content of a weights file). The bytes are copied; `data` may be freed
/// after the call.
#[no_mangle]
pub unsafe extern "C" fn othello_engine_load_weights_buffer(
    e: *mut othello_engine,
    data: *const u8,
    len: usize,
) -> othello_status {
    boundary_status(|| {
        engine_ref(e)?;
        let w = PatternWeights::from_bytes(read_bytes(data, len)?)?;
        set(e, Evaluator::Pattern(Arc::new(w)))
    })
}
