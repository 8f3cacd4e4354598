//! The evaluation choice and weight loading through the C API: the built-in
//! trained weights, weights from a buffer or a file, and corrupt or
//! truncated weights rejected with a clear error while the engine keeps the
//! evaluation it had.

mod common;

use common::last_error;
use othello::board::{Bits, S8};
use othello::engine::{Engine, Limits};
use othello::eval::pattern::{Layout, PatternWeights, MOBILITY_MAX};
use othello::eval::Evaluator;
use othello::ffi::board::{othello_board_free, othello_board_new};
use othello::ffi::engine::{
    othello_engine_free, othello_engine_new, othello_engine_search, othello_search_limits,
    othello_search_result,
};
use othello::ffi::evaluation::{
    othello_engine_get_evaluation, othello_engine_load_weights, othello_engine_load_weights_buffer,
    othello_engine_set_evaluation, othello_evaluation,
};
use othello::ffi::othello_status::{self, *};
use othello::Position;
use std::ffi::CString;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Weights unlike the built-in ones: every evaluation is the number of
/// legal moves of the side to move minus 10, in discs.
fn mobility_weights() -> PatternWeights {
    mobility_weights_with(Layout::standard())
}

/// The same evaluation by weights of the patterns of `layout`.
fn mobility_weights_with(f: Arc<Layout>) -> PatternWeights {
    let mut values = vec![0f32; f.len];
    for m in 0..=MOBILITY_MAX {
        values[f.mobility_offset + m] = m as f32 - 10.0;
    }
    let mut w = PatternWeights::zero_with(f, 1, 61).unwrap();
    w.set_stage(0, &values);
    w
}

/// The move, score and principal variation of a depth-4 search after f5 d6
/// c3, from a cleared table.
unsafe fn search(e: *mut othello::ffi::engine::othello_engine) -> (i32, i32, Vec<i32>) {
    othello::ffi::engine::othello_engine_clear(e);
    let b = othello_board_new();
    for m in [37, 43, 18] {
        assert_eq!(
            othello::ffi::board::othello_board_play(
                b,
                m,
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut()
            ),
            OTHELLO_STATUS_OK
        );
    }
    let lim = othello_search_limits {
        level: -1,
        depth: 4,
        exact_empties: 0,
        wld_empties: 0,
        ..Default::default()
    };
    let mut out = othello_search_result::default();
    assert_eq!(
        othello_engine_search(e, b, &lim, &mut out),
        OTHELLO_STATUS_OK
    );
    othello_board_free(b);
    (out.r#move, out.score, out.pv[..out.pv_len].to_vec())
}

#[test]
fn evaluation_choice_and_weight_loading() {
    unsafe {
        let e = othello_engine_new(1);
        // The default is the trained evaluation with the built-in weights.
        let default = search(e);
        assert!(matches!(Evaluator::default(), Evaluator::Pattern(_)));
        assert_eq!(
            othello_engine_get_evaluation(e),
            othello_evaluation::OTHELLO_EVALUATION_TRAINED
        );
        assert_eq!(othello_engine_set_evaluation(e, 0), OTHELLO_STATUS_OK);
        assert_eq!(
            othello_engine_get_evaluation(e),
            othello_evaluation::OTHELLO_EVALUATION_V1
        );
        let v1 = search(e);
        assert_eq!(othello_engine_set_evaluation(e, 1), OTHELLO_STATUS_OK);
        assert_eq!(
            othello_engine_get_evaluation(e),
            othello_evaluation::OTHELLO_EVALUATION_TRAINED
        );
        let trained = search(e);
        assert_eq!(trained, default);
        assert_ne!(trained, v1);
        assert_eq!(
            othello_engine_set_evaluation(e, 7),
            OTHELLO_STATUS_INVALID_ARGUMENT
        );
        assert!(last_error().contains("evaluation 7"));

        // Weights from a buffer take over.
        let bytes = mobility_weights().to_bytes();
        assert_eq!(
            othello_engine_load_weights_buffer(e, bytes.as_ptr(), bytes.len()),
            OTHELLO_STATUS_OK
        );
        let custom = search(e);
        assert_ne!(custom, trained);
        let mut reference = Engine::new(1);
        reference.set_evaluator(Evaluator::Pattern(Arc::new(mobility_weights())));
        let game = othello::notation::parse_transcript::<S8>("f5d6c3").unwrap();
        // The limits the C call (level -1, depth 4) searches with.
        let lim = Limits::explicit(4, 0, 0).unwrap();
        let r = reference
            .search(game.position(), &lim, &AtomicBool::new(false), &mut |_| {})
            .unwrap();
        assert_eq!(custom.0, r.best.unwrap() as i32);

        // Truncated, corrupt or foreign buffers fail clearly and change nothing.
        let mut corrupt = bytes.clone();
        corrupt[bytes.len() - 10] ^= 1; // in the payload
        let cases: [(&[u8], &str); 4] = [
            (&bytes[..bytes.len() - 9], "truncated"),
            (&corrupt, "checksum"),
            (b"OTHGAMES and more bytes here", "magic"),
            (&[], "truncated"),
        ];
        for (buf, words) in cases {
            let status: othello_status =
                othello_engine_load_weights_buffer(e, buf.as_ptr(), buf.len());
            assert_eq!(status, OTHELLO_STATUS_INVALID_ARGUMENT, "{words}");
            assert!(last_error().contains(words), "{words}: {}", last_error());
            assert_eq!(
                othello_engine_get_evaluation(e),
                othello_evaluation::OTHELLO_EVALUATION_TRAINED
            );
            assert_eq!(search(e), custom, "{words}");
        }
        assert_eq!(
            othello_engine_load_weights_buffer(e, std::ptr::null(), 0),
            OTHELLO_STATUS_NULL_ARGUMENT
        );

        // From a file: a missing one fails, a written one loads.
        let dir = std::env::temp_dir().join(format!("othello-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = CString::new(dir.join("missing.bin").to_str().unwrap()).unwrap();
        assert_eq!(
            othello_engine_load_weights(e, missing.as_ptr()),
            OTHELLO_STATUS_INVALID_ARGUMENT
        );
        assert!(last_error().contains("cannot read"));
        assert_eq!(search(e), custom);
        let file = dir.join("embedded.bin");
        std::fs::write(&file, PatternWeights::embedded().to_bytes()).unwrap();
        let path = CString::new(file.to_str().unwrap()).unwrap();
        assert_eq!(
            othello_engine_load_weights(e, path.as_ptr()),
            OTHELLO_STATUS_OK
        );
        assert_eq!(search(e), trained);
        std::fs::remove_dir_all(&dir).ok();

        assert_eq!(
            othello_engine_load_weights(std::ptr::null_mut(), path.as_ptr()),
            OTHELLO_STATUS_NULL_ARGUMENT
        );
        othello_engine_free(e);
    }
}

/// A weights file names its pattern set: weights of the extended set load
/// through the C API and evaluate as their weights say (here the same
/// mobility-only evaluation as on the built-in set, so the same search),
/// and a file whose pattern set is invalid fails clearly.
#[test]
fn weights_of_another_pattern_set_load() {
    unsafe {
        let e = othello_engine_new(1);
        let standard = mobility_weights().to_bytes();
        let extended = mobility_weights_with(Layout::extended()).to_bytes();
        assert_ne!(standard, extended);
        assert_eq!(
            othello_engine_load_weights_buffer(e, standard.as_ptr(), standard.len()),
            OTHELLO_STATUS_OK
        );
        let by_standard = search(e);
        assert_eq!(
            othello_engine_load_weights_buffer(e, extended.as_ptr(), extended.len()),
            OTHELLO_STATUS_OK
        );
        assert_eq!(search(e), by_standard);
        // A pattern of 11 squares (the first mask, at byte 24) is refused,
        // whatever the checksum says, and the engine keeps its weights.
        let mut bad = extended.clone();
        bad[24..32].copy_from_slice(&0x7ffu64.to_le_bytes());
        assert_eq!(
            othello_engine_load_weights_buffer(e, bad.as_ptr(), bad.len()),
            OTHELLO_STATUS_INVALID_ARGUMENT
        );
        assert!(last_error().contains("11 squares"), "{}", last_error());
        assert_eq!(search(e), by_standard);
        othello_engine_free(e);
    }
}

#[test]
fn trained_engine_plays_legal_moves_to_the_end() {
    let mut engine = Engine::new(1);
    engine.set_evaluator(Evaluator::trained());
    let stop = AtomicBool::new(false);
    let mut pos = Position::<S8>::start();
    let limits = Limits::level(3).unwrap();
    while !pos.is_game_over() {
        if pos.legal_moves().is_zero() {
            pos = pos.pass();
            continue;
        }
        let r = engine.search(pos, &limits, &stop, &mut |_| {}).unwrap();
        let sq = r.best.unwrap();
        assert!(pos.is_legal(sq));
        pos = pos.play_with(sq, pos.flips(sq));
    }
}
