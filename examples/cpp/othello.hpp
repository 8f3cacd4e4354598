// othello.hpp: a header-only C++17 wrapper of the othello C library.
//
//   #include "othello.hpp"        // includes othello.h
//   othello::board b;            // the standard start
//   othello::engine e{16};       // 16 MiB transposition table
//   auto flipped = b.play("f5"); // std::vector<int> of the flipped squares
//   auto r = e.search(b, othello::search_limits{}.level(8));
//   b.play(r.move);              // r.from_book: the opening book chose it
//
// - board and engine own their library handle: move-only, freed by the
//   destructor (board::clone() makes an independent copy).
// - A failed call throws othello::error (a std::runtime_error) carrying the
//   status and the library's detail message; the try_* functions return an
//   othello::result<T> instead (a small std::expected-style value).
// - Lists (legal moves, flips, history, PV) come as std::vector<int>; under
//   C++20 the progress callback also offers the PV as a std::span.
// - Squares are ints 0..63 (row * 8 + col, a1 = 0, h8 = 63) or names
//   ("f5"); othello::pass (-1) is a pass.
//
// Link with the library as a C program does (see docs/guide.md "Linking"; docs/cpp.md is this wrapper's page); the
// header needs only the C++17 standard library and othello.h 0.4 (the first
// version with a game clock, search_limits::clock()).

#ifndef OTHELLO_HPP
#define OTHELLO_HPP

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>
#if __cplusplus >= 202002L
#include <span>
#endif

// Quoted: found beside this file where both are installed (cargo cinstall
// puts them in PREFIX/include), else on the include path (-Iinclude here).
#include "othello.h"

#if OTHELLO_VERSION_MAJOR == 0 && OTHELLO_VERSION_MINOR < 4
#error "othello.hpp needs othello.h 0.4 or later (the game clock: othello_search_limits.clock_remaining_ms)"
#endif

namespace othello {

/// OTHELLO_PASS: a pass in move lists and search results.
inline constexpr int pass = OTHELLO_PASS;

/// Room for the squares of the largest board (16x16 with sized boards).
inline constexpr std::size_t max_squares = 256;

enum class status : std::int32_t {
    ok = OTHELLO_STATUS_OK,
    null_argument = OTHELLO_STATUS_NULL_ARGUMENT,
    invalid_square = OTHELLO_STATUS_INVALID_SQUARE,
    illegal_move = OTHELLO_STATUS_ILLEGAL_MOVE,
    cannot_pass = OTHELLO_STATUS_CANNOT_PASS,
    game_over = OTHELLO_STATUS_GAME_OVER,
    nothing_to_undo = OTHELLO_STATUS_NOTHING_TO_UNDO,
    nothing_to_redo = OTHELLO_STATUS_NOTHING_TO_REDO,
    buffer_too_small = OTHELLO_STATUS_BUFFER_TOO_SMALL,
    parse_error = OTHELLO_STATUS_PARSE_ERROR,
    invalid_argument = OTHELLO_STATUS_INVALID_ARGUMENT,
    busy = OTHELLO_STATUS_BUSY,
    panic = OTHELLO_STATUS_PANIC,
    /// A stopped call with no partial result (othello_engine_analyze).
    stopped = OTHELLO_STATUS_STOPPED,
    /// A table could not be allocated.
    out_of_memory = OTHELLO_STATUS_OUT_OF_MEMORY,
};

enum class color : std::int32_t {
    empty = OTHELLO_COLOR_EMPTY,
    black = OTHELLO_COLOR_BLACK,
    white = OTHELLO_COLOR_WHITE,
};

enum class strategy : std::int32_t {
    engine = OTHELLO_STRATEGY_ENGINE,
    classic = OTHELLO_STRATEGY_CLASSIC,
    corners = OTHELLO_STRATEGY_CORNERS,
    greedy = OTHELLO_STRATEGY_GREEDY,
    random = OTHELLO_STRATEGY_RANDOM,
};

/// The opening book an engine plays from (engine::get_book()).
enum class book : std::int32_t {
    none = OTHELLO_BOOK_NONE,
    builtin = OTHELLO_BOOK_BUILTIN,
    /// From engine::load_book(); engine::set_book() cannot choose it.
    loaded = OTHELLO_BOOK_LOADED,
};

inline color opponent(color c) noexcept {
    return c == color::black ? color::white : c == color::white ? color::black : color::empty;
}

/// The static English description of a status code.
inline const char *message(status s) noexcept {
    return othello_status_message(static_cast<othello_status>(s));
}

/// The library version, "MAJOR.MINOR.PATCH" (compare OTHELLO_VERSION_STRING).
inline std::string version() { return othello_version(); }

namespace detail {

/// This thread's last detail message (othello_last_error), any length.
inline std::string last_message() {
    char small[256];
    std::size_t n = 0;
    othello_status st = othello_last_error(small, sizeof small, &n);
    if (st == OTHELLO_STATUS_OK) {
        return std::string(small, n);
    }
    if (st == OTHELLO_STATUS_BUFFER_TOO_SMALL) {
        std::string text(n, '\0');
        if (othello_last_error(text.data(), text.size(), &n) == OTHELLO_STATUS_OK) {
            text.resize(n);
            return text;
        }
    }
    return {};
}

}  // namespace detail

/// A failed library call: the status and the library's detail message.
class error : public std::runtime_error {
public:
    error(status s, const std::string &detail)
        : std::runtime_error(std::string(othello::message(s)) + (detail.empty() ? "" : ": " + detail)),
          status_(s), detail_(detail) {}

    /// The error of the last failed call on this thread.
    static error last(othello_status s) { return error(static_cast<status>(s), detail::last_message()); }

    status code() const noexcept { return status_; }
    const std::string &detail() const noexcept { return detail_; }

private:
    status status_;
    std::string detail_;
};

namespace detail {

inline void check(othello_status st) {
    if (st != OTHELLO_STATUS_OK) {
        throw error::last(st);
    }
}

}  // namespace detail

/// Either a value or the error of a failed call (std::expected-style).
template <typename T>
class result {
public:
    result(T value) : v_(std::move(value)) {}
    result(error e) : v_(std::move(e)) {}

    bool ok() const noexcept { return v_.index() == 0; }
    explicit operator bool() const noexcept { return ok(); }

    /// The value; throws the error if there is none.
    T &value() & {
        if (!ok()) throw std::get<1>(v_);
        return std::get<0>(v_);
    }
    const T &value() const & {
        if (!ok()) throw std::get<1>(v_);
        return std::get<0>(v_);
    }
    T value_or(T fallback) const { return ok() ? std::get<0>(v_) : std::move(fallback); }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }
    T *operator->() { return &value(); }

    /// The error; only valid when !ok().
    const error &err() const { return std::get<1>(v_); }
    status code() const noexcept { return ok() ? status::ok : std::get<1>(v_).code(); }

private:
    std::variant<T, error> v_;
};

/// Parses a square name ("f5", either case) into its index.
inline result<int> try_square(std::string_view name) {
    std::string text(name);  // NUL-terminated copy
    int sq = 0;
    othello_status st = othello_square_parse(text.c_str(), &sq);
    if (st != OTHELLO_STATUS_OK) return error::last(st);
    return sq;
}

/// Parses a square name; throws othello::error (parse_error) if it is not one.
inline int square(std::string_view name) { return try_square(name).value(); }

/// The name of a square ("f5"), or "pass" for othello::pass.
inline std::string square_name(int sq) {
    if (sq == pass) return "pass";
    char buf[3];
    detail::check(othello_square_name(sq, buf, sizeof buf));
    return buf;
}

/// The names of squares joined by spaces: "d3 c4 f5 e6".
inline std::string square_names(const std::vector<int> &squares) {
    std::string out;
    for (int sq : squares) {
        if (!out.empty()) out += ' ';
        out += square_name(sq);
    }
    return out;
}

/// A game: position, side to move and history. Owns an othello_board.
class board {
public:
    /// The standard start, black to move.
    board() : b_(othello_board_new()) {
        if (!b_) throw error::last(othello_last_status());
    }
    ~board() { othello_board_free(b_); }

    board(board &&other) noexcept : b_(std::exchange(other.b_, nullptr)) {}
    board &operator=(board &&other) noexcept {
        if (this != &other) {
            othello_board_free(b_);
            b_ = std::exchange(other.b_, nullptr);
        }
        return *this;
    }
    board(const board &) = delete;
    board &operator=(const board &) = delete;

    /// From a board string (64 squares a1..h8 of X/O/-, a space, X or O).
    static board from_string(const std::string &text) { return adopt(othello_board_from_string(text.c_str())); }
    /// The moves of a transcript ("f5d6c3") played from the start.
    static board from_transcript(const std::string &text) {
        return adopt(othello_board_from_transcript(text.c_str()));
    }
    static result<board> try_from_string(const std::string &text) {
        othello_board *b = othello_board_from_string(text.c_str());
        if (!b) return error::last(othello_last_status());
        return board(b);
    }

    /// An independent copy, history included.
    board clone() const { return adopt(othello_board_clone(handle())); }

    /// The standard start of the size x size board (even, 4..16). Squares
    /// are row * size + col.
    static board sized(int size) { return adopt(othello_board_new_sized(size)); }
    /// Squares per side.
    int size() const { return othello_board_size(handle()); }

    /// The C handle, for calls this wrapper does not cover. Never NULL.
    const othello_board *handle() const {
        if (!b_) throw error(status::null_argument, "use of a moved-from othello::board");
        return b_;
    }
    othello_board *handle() {
        if (!b_) throw error(status::null_argument, "use of a moved-from othello::board");
        return b_;
    }

    color side_to_move() const { return static_cast<color>(othello_board_side_to_move(handle())); }
    color at(int sq) const {
        if (sq < 0 || sq > 63) throw error(status::invalid_square, "square " + std::to_string(sq) + " is outside 0..63");
        return static_cast<color>(othello_board_get(handle(), sq));
    }
    color at(std::string_view name) const { return at(square(name)); }
    int count(color c) const {
        int n = othello_board_count(handle(), static_cast<othello_color>(c));
        if (n < 0) throw error::last(othello_last_status());
        return n;
    }
    int mobility(color c) const {
        int n = othello_board_mobility(handle(), static_cast<othello_color>(c));
        if (n < 0) throw error::last(othello_last_status());
        return n;
    }
    std::vector<int> legal_moves() const {
        int buf[max_squares];
        std::size_t n = othello_board_legal_moves(handle(), buf, max_squares);
        return std::vector<int>(buf, buf + (n < max_squares ? n : max_squares));
    }
    bool is_legal(int sq) const { return othello_board_is_legal(handle(), sq); }
    bool is_legal(std::string_view name) const { return is_legal(square(name)); }
    bool must_pass() const { return othello_board_must_pass(handle()); }
    bool is_game_over() const { return othello_board_is_game_over(handle()); }
    bool can_undo() const { return othello_board_can_undo(handle()); }
    bool can_redo() const { return othello_board_can_redo(handle()); }
    int move_number() const { return othello_board_move_number(handle()); }

    /// The discs playing `sq` would flip.
    std::vector<int> flips(int sq) const {
        int buf[max_squares];
        std::size_t n = 0;
        detail::check(othello_board_flips(handle(), sq, buf, max_squares, &n));
        return std::vector<int>(buf, buf + n);
    }

    /// Plays `sq` (othello::pass passes); returns the flipped discs.
    std::vector<int> play(int sq) { return try_play(sq).value(); }
    std::vector<int> play(std::string_view name) { return play(square(name)); }

    /// Plays `sq`, or returns why it could not (the board is then unchanged).
    result<std::vector<int>> try_play(int sq) {
        if (sq == pass) {
            othello_status st = othello_board_pass(handle());
            if (st != OTHELLO_STATUS_OK) return error::last(st);
            return std::vector<int>{};
        }
        int buf[max_squares];
        std::size_t n = 0;
        othello_status st = othello_board_play(handle(), sq, buf, max_squares, &n);
        if (st != OTHELLO_STATUS_OK) return error::last(st);
        return std::vector<int>(buf, buf + n);
    }
    result<std::vector<int>> try_play(std::string_view name) {
        result<int> sq = try_square(name);
        if (!sq) return sq.err();
        return try_play(*sq);
    }

    void pass_turn() { detail::check(othello_board_pass(handle())); }
    void undo() { detail::check(othello_board_undo(handle())); }
    void redo() { detail::check(othello_board_redo(handle())); }

    /// The turns since the initial position (othello::pass for passes).
    std::vector<int> history() const {
        std::size_t n = 0;
        detail::check(othello_board_history(handle(), nullptr, 0, &n));
        std::vector<int> turns(n);
        if (n > 0) detail::check(othello_board_history(handle(), turns.data(), turns.size(), &n));
        return turns;
    }

    /// The board string: 64 squares a1..h8, a space, the side to move.
    std::string to_string() const {
        return text([this](char *buf, std::size_t len, std::size_t *n) {
            return othello_board_to_string(handle(), buf, len, n);
        });
    }
    /// The moves played, "f5d6c3" (passes left out).
    std::string transcript() const {
        return text([this](char *buf, std::size_t len, std::size_t *n) {
            return othello_board_transcript(handle(), buf, len, n);
        });
    }

    /// The move a fresh engine plays at `level` (othello::pass to pass).
    int best_move(int level) const {
        int mv = pass;
        detail::check(othello_board_best_move(handle(), level, &mv));
        return mv;
    }

private:
    explicit board(othello_board *b) noexcept : b_(b) {}

    static board adopt(othello_board *b) {
        if (!b) throw error::last(othello_last_status());
        return board(b);
    }

    template <typename F>
    static std::string text(F call) {
        char small[128];
        std::size_t n = 0;
        othello_status st = call(small, sizeof small, &n);
        if (st == OTHELLO_STATUS_OK) return std::string(small, n);
        if (st != OTHELLO_STATUS_BUFFER_TOO_SMALL) throw error::last(st);
        std::string big(n, '\0');
        detail::check(call(big.data(), big.size(), &n));
        big.resize(n);
        return big;
    }

    othello_board *b_;
};

/// What a search may do: othello_search_limits, initialised by the library,
/// with chainable setters: search_limits{}.level(8).seed(3).
class search_limits {
public:
    search_limits() noexcept { othello_search_limits_init(&lim_); }

    search_limits &level(int l) noexcept { lim_.level = l; return *this; }
    /// Explicit depths (sets level to -1).
    search_limits &depths(int midgame, int exact_empties, int wld_empties) noexcept {
        lim_.level = -1;
        lim_.depth = midgame;
        lim_.exact_empties = exact_empties;
        lim_.wld_empties = wld_empties;
        return *this;
    }
    search_limits &node_limit(std::uint64_t n) noexcept { lim_.node_limit = n; return *this; }
    search_limits &time_limit_ms(std::int64_t ms) noexcept { lim_.time_limit_ms = ms; return *this; }
    search_limits &with_strategy(strategy s, int classic_depth = 0) noexcept {
        lim_.strategy = static_cast<othello_strategy>(s);
        lim_.classic_depth = classic_depth;
        return *this;
    }
    search_limits &randomness(int discs) noexcept { lim_.randomness = discs; return *this; }
    search_limits &seed(std::uint64_t s) noexcept { lim_.seed = s; return *this; }
    /// Multi-ProbCut setting 0..5 (5: none); -1: the level's.
    search_limits &selectivity(int s) noexcept { lim_.selectivity = s; return *this; }
    /// Play from the engine's opening book when the position is in it:
    /// 1 (true) yes, 0 (false) no, -1 the level's (yes from level 1 except
    /// by a time limit without a clock, no at level 0 and with explicit
    /// depths).
    search_limits &book(int on) noexcept { lim_.book = on; return *this; }
    /// Threads of the search, 0..256: 1 (the default) the calling thread
    /// alone, reproducibly; N > 1 adds N - 1 helper threads (exact scores
    /// stay exact; moves among equal ones, midgame scores and node counts
    /// may vary from run to run); 0 one per core.
    search_limits &threads(int n) noexcept { lim_.threads = n; return *this; }
    // The side to move's game clock: time left (-1: none) and increment.
    search_limits &clock(std::int64_t remaining_ms, std::int64_t increment_ms = 0) noexcept {
        lim_.clock_remaining_ms = remaining_ms;
        lim_.clock_increment_ms = increment_ms;
        return *this;
    }

    const othello_search_limits &c() const noexcept { return lim_; }
    othello_search_limits &c() noexcept { return lim_; }

private:
    othello_search_limits lim_;
};

/// Reported after each completed iteration of a search.
struct search_progress {
    int depth;
    int score;
    bool exact;
    int best_move;
    std::vector<int> pv;
    std::uint64_t nodes;
    std::uint64_t elapsed_ms;
#if __cplusplus >= 202002L
    /// The library's PV array, valid during the callback only.
    std::span<const int> pv_view;
#endif
};

/// The outcome of a search; move is othello::pass when the side must pass.
struct search_result {
    int move;
    int score;
    bool exact;
    bool wld;
    int depth;
    std::uint64_t nodes;
    std::uint64_t elapsed_ms;
    bool stopped;
    std::vector<int> pv;
    /// The move came from the opening book: score is the book's value,
    /// depth and nodes are 0, pv is the book's line.
    bool from_book;
};

/// A move and its score (engine::analyze(), engine::book_moves()).
struct move_score {
    int move;
    int score;
    bool exact;
};

using progress_fn = std::function<void(const search_progress &)>;

/// A search engine with its transposition table. Owns an othello_engine.
/// One search at a time (a concurrent one throws status::busy); stop() may
/// be called from any thread.
class engine {
public:
    /// `hash_mb` MiB of transposition table (0 = the library's default).
    explicit engine(std::size_t hash_mb = 0) : e_(othello_engine_new(hash_mb)) {
        if (!e_) throw error::last(othello_last_status());
    }
    ~engine() { othello_engine_free(e_); }

    engine(engine &&other) noexcept : e_(std::exchange(other.e_, nullptr)) {}
    engine &operator=(engine &&other) noexcept {
        if (this != &other) {
            othello_engine_free(e_);
            e_ = std::exchange(other.e_, nullptr);
        }
        return *this;
    }
    engine(const engine &) = delete;
    engine &operator=(const engine &) = delete;

    othello_engine *handle() const {
        if (!e_) throw error(status::null_argument, "use of a moved-from othello::engine");
        return e_;
    }

    void clear() { detail::check(othello_engine_clear(handle())); }
    /// Stops the running search, and the pondering.
    void stop() const noexcept { othello_engine_stop(e_); }

    /// Thinks on the opponent's time: `after` is the position after the
    /// engine's move, `limits` those of its next search. Returns at once
    /// with the reply it expects (pass when the opponent must pass); the
    /// next search, analysis, clear or change of the engine, or stop(),
    /// ends the pondering (see othello_engine_ponder).
    int ponder(const board &after, const search_limits &limits = {}) {
        othello_search_limits lim = limits.c();
        int expected = pass;
        detail::check(othello_engine_ponder(handle(), after.handle(), &lim, &expected));
        return expected;
    }

    /// Searches `b` for the side to move. `progress` (may be empty) runs on
    /// the calling thread after each iteration; an exception it throws stops
    /// the search and is rethrown here.
    search_result search(const board &b, const search_limits &limits = {}, progress_fn progress = {}) {
        othello_search_limits lim = limits.c();
        callback_state state{this, &progress, nullptr};
        if (progress) {
            lim.progress = &engine::trampoline;
            lim.userdata = &state;
        }
        othello_search_result r;
        othello_search_result_init(&r);
        othello_status st = othello_engine_search(handle(), b.handle(), &lim, &r);
        if (state.failure) std::rethrow_exception(state.failure);
        detail::check(st);
        std::size_t len = r.pv_len < OTHELLO_PV_MAX ? r.pv_len : OTHELLO_PV_MAX;
        return search_result{r.move, r.score, r.exact, r.wld, r.depth, r.nodes,
                             r.elapsed_ms, r.stopped, std::vector<int>(r.pv, r.pv + len), r.from_book};
    }

    /// Every legal move scored, best first (empty when the side must pass).
    std::vector<move_score> analyze(const board &b, const search_limits &limits = {}) {
        std::size_t n = 0;
        detail::check(othello_engine_analyze(handle(), b.handle(), &limits.c(), nullptr, 0, &n));
        std::vector<othello_move_score> raw(n);
        if (n > 0) detail::check(othello_engine_analyze(handle(), b.handle(), &limits.c(), raw.data(), raw.size(), &n));
        return scores(raw, n);
    }

    /// Chooses the book of later searches: book::none or book::builtin
    /// (book::loaded throws status::invalid_argument: load one instead).
    void set_book(book which) { detail::check(othello_engine_set_book(handle(), static_cast<othello_book>(which))); }
    /// The book the engine plays from (a new engine has book::builtin).
    book get_book() const { return static_cast<book>(othello_engine_get_book(handle())); }

    /// Loads an opening book file (written by `othello-book merge`); throws
    /// status::invalid_argument for an unreadable, corrupt or foreign one,
    /// and the engine keeps its book.
    void load_book(const std::string &path) { detail::check(othello_engine_load_book(handle(), path.c_str())); }
    /// As load_book(path), from the bytes of a book file (copied).
    void load_book_buffer(const std::uint8_t *data, std::size_t len) {
        detail::check(othello_engine_load_book_buffer(handle(), data, len));
    }
    void load_book_buffer(const std::vector<std::uint8_t> &bytes) {
        // An empty vector's data() may be NULL, which the library reports as
        // null_argument: an empty book is invalid_argument like any bad one.
        static const std::uint8_t nothing = 0;
        load_book_buffer(bytes.empty() ? &nothing : bytes.data(), bytes.size());
    }

    /// The moves the book knows in the position of `b`, best first, valued
    /// in discs for the side to move (exact false); empty when the position
    /// is not in the book, there is no book or the board is not 8x8.
    std::vector<move_score> book_moves(const board &b) const {
        std::size_t n = 0;
        detail::check(othello_engine_book_moves(handle(), b.handle(), nullptr, 0, &n));
        std::vector<othello_move_score> raw(n);
        if (n > 0) detail::check(othello_engine_book_moves(handle(), b.handle(), raw.data(), raw.size(), &n));
        return scores(raw, n);
    }

private:
    static std::vector<move_score> scores(const std::vector<othello_move_score> &raw, std::size_t n) {
        std::vector<move_score> out;
        out.reserve(n);
        for (std::size_t i = 0; i < n; i++) out.push_back(move_score{raw[i].move, raw[i].score, raw[i].exact});
        return out;
    }

    struct callback_state {
        engine *self;
        progress_fn *fn;
        std::exception_ptr failure;
    };

    // No exception may unwind into the library: it is caught, the search
    // stopped, and the exception rethrown by search().
    static void trampoline(const othello_search_progress *p, void *userdata) noexcept {
        auto *state = static_cast<callback_state *>(userdata);
        if (state->failure) return;  // stopping: ignore the last iterations
        try {
            search_progress info{p->depth, p->score, p->exact, p->best_move,
                                 std::vector<int>(p->pv, p->pv + p->pv_len), p->nodes, p->elapsed_ms
#if __cplusplus >= 202002L
                                 , std::span<const int>(p->pv, p->pv_len)
#endif
            };
            (*state->fn)(info);
        } catch (...) {
            state->failure = std::current_exception();
            state->self->stop();
        }
    }

    othello_engine *e_;
};

}  // namespace othello

#endif  // OTHELLO_HPP
