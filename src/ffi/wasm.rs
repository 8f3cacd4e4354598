//! What the web build exports beside the C API: memory for the JavaScript
//! package (web/), which has no C allocator of its own to place strings and
//! out-parameters in the module's memory. Not in the header: C programs
//! have malloc.

use std::alloc::{alloc_zeroed, dealloc, Layout};

/// Every block is aligned for the largest field of the C API's structs.
const ALIGN: usize = 8;

/// `len` zeroed bytes (at least one) of the module's memory, to be given
/// back with othello_wasm_free(p, len); NULL if memory runs out.
#[no_mangle]
pub extern "C" fn othello_wasm_alloc(len: usize) -> *mut u8 {
    match Layout::from_size_align(len.max(1), ALIGN) {
        // SAFETY: the layout's size is not zero.
        Ok(layout) => unsafe { alloc_zeroed(layout) },
        Err(_) => std::ptr::null_mut(),
    }
}

/// Gives back a block of othello_wasm_alloc(len). NULL is ignored.
///
/// # Safety
/// `p` is NULL or a block of othello_wasm_alloc(`len`) not yet freed.
#[no_mangle]
pub unsafe extern "C" fn othello_wasm_free(p: *mut u8, len: usize) {
    if let (false, Ok(layout)) = (p.is_null(), Layout::from_size_align(len.max(1), ALIGN)) {
        dealloc(p, layout);
    }
}
