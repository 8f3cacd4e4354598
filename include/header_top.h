/*
 * othello.h: the C API of the othello engine (an Othello / Reversi library).
 *
 * API conventions (they hold for every function below):
 *  - Status: fallible calls return othello_status; OTHELLO_STATUS_OK is 0.
 *    After any failure, othello_last_error() gives a detail message and
 *    othello_last_status() the code; both are per thread. Calls that return a
 *    handle return NULL on failure; calls that return a value return a
 *    documented neutral value (false, -1, OTHELLO_COLOR_EMPTY).
 *  - Out-parameters are written only on success, with one exception: on
 *    OTHELLO_STATUS_BUFFER_TOO_SMALL the size needed is written to the size
 *    out-parameter (when it is not NULL). There are no partial results.
 *  - Buffers are (pointer, length) pairs. Text buffers receive a NUL-terminated
 *    string; the size out-parameter gets its length without the NUL, and the
 *    size needed includes the NUL. A buffer may be NULL when its length or
 *    capacity is 0: a list call then only reports the count, a text call
 *    gives BUFFER_TOO_SMALL with the size needed (a size query).
 *  - Every pointer is checked: NULL gives OTHELLO_STATUS_NULL_ARGUMENT (or the
 *    neutral value). Integers are range-checked: a square outside the board
 *    (0..63 on 8x8, 0 .. size * size - 1 in general) gives
 *    OTHELLO_STATUS_INVALID_SQUARE. A failed call leaves every handle exactly
 *    as it was.
 *  - No panic crosses into C: an internal error gives OTHELLO_STATUS_PANIC.
 *  - Ownership: a handle returned by *_new, *_clone or *_from_* is owned by
 *    the caller and released with the matching *_free (which accepts NULL).
 *    Strings returned as `const char *` are static and never freed.
 *  - Structs that begin with `struct_size` (limits, results) are set up with
 *    their init macro (othello_search_limits_init(&lim),
 *    othello_search_result_init(&r)), which records the size the program
 *    was compiled with: the library reads and writes no more than that.
 *    Fields are only ever added at their ends (see the ABI promise in
 *    docs/guide.md).
 *  - Threads: see each handle type. The library keeps no global mutable state
 *    besides the per-thread last error.
 *  - Squares: index = row * 8 + col, a1 = 0, h1 = 7, a8 = 56, h8 = 63, where
 *    the row is the rank (1..8) minus 1 and the column the file (a..h).
 *  - Board sizes: a board is 8x8 unless made by othello_board_new_sized()
 *    (or from a board string or transcript of another size): any even size
 *    from 4x4 to 16x16. Every board function works on every size, with
 *    squares index = row * size + col (0 .. size * size - 1) named a1 ..
 *    p16 (column letter a.., row number 1..size: "j10" on 10x10); board
 *    strings hold size * size squares; othello_board_size() tells the size.
 */
