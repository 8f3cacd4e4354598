// Tests of the C++ wrapper examples/cpp/othello.hpp, built by tests/bindings.rs
// with g++ -std=c++17 (and -std=c++20) -Wall -Wextra -Wpedantic -Werror,
// against the shared library, and against the static one under
// AddressSanitizer + UBSan (which also checks that every handle is freed).
// Prints "wrapper_test: N checks passed" and exits 0 when every check passes
// (the checks are those of tests/c/check.h). Its argument is the path of the
// built-in book's file, weights/book.bin (default: relative to the current
// directory).

#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "../c/check.h"
#include "othello.hpp"

// Runs `f`, which must throw othello::error with status `code`.
template <typename F>
static void expect_error_at(int line, othello::status code, F f, const char *what) {
    try {
        f();
        check_at(__FILE__, line, 0, "%s: no exception", what);
    } catch (const othello::error &e) {
        check_at(__FILE__, line, e.code() == code, "%s: status %d, expected %d (%s)", what,
                 static_cast<int>(e.code()), static_cast<int>(code), e.what());
    }
}

// EXPECT_ERROR(code, f, what); variadic so that commas in the lambda pass.
#define EXPECT_ERROR(code, ...) expect_error_at(__LINE__, (code), __VA_ARGS__)

static const char *const ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
static const char *const pass_position = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOO- O";

// Handles are move-only.
static_assert(!std::is_copy_constructible_v<othello::board>);
static_assert(!std::is_copy_assignable_v<othello::board>);
static_assert(std::is_nothrow_move_constructible_v<othello::board>);
static_assert(std::is_nothrow_move_assignable_v<othello::board>);
static_assert(!std::is_copy_constructible_v<othello::engine>);
static_assert(std::is_nothrow_move_constructible_v<othello::engine>);
static_assert(std::is_base_of_v<std::runtime_error, othello::error>);

static void test_board() {
    othello::board b;
    CHECK(b.side_to_move() == othello::color::black);
    CHECK(b.count(othello::color::black) == 2 && b.count(othello::color::empty) == 60);
    CHECK(othello::square_names(b.legal_moves()) == "d3 c4 f5 e6");
    CHECK(b.at("d4") == othello::color::white && b.at(28) == othello::color::black);
    CHECK(b.mobility(othello::color::white) == 4);
    CHECK(b.is_legal("f5") && !b.is_legal(0));
    CHECK(b.flips(othello::square("f5")) == std::vector<int>{othello::square("e5")});
    CHECK(b.play("F5") == std::vector<int>{36});
    CHECK(b.move_number() == 2 && b.can_undo() && !b.can_redo());
    CHECK(b.history() == std::vector<int>{37});
    CHECK(b.transcript() == "f5");
    CHECK(b.to_string().size() == 66 && b.to_string().back() == 'O');

    EXPECT_ERROR(othello::status::illegal_move, [&] { b.play("a1"); }, "play a1");
    EXPECT_ERROR(othello::status::invalid_square, [&] { b.play(64); }, "play 64");
    EXPECT_ERROR(othello::status::invalid_square, [&] { b.at(-1); }, "at -1");
    EXPECT_ERROR(othello::status::parse_error, [&] { b.play("z9"); }, "play z9");
    EXPECT_ERROR(othello::status::cannot_pass, [&] { b.pass_turn(); }, "pass");
    EXPECT_ERROR(othello::status::invalid_argument, [&] { b.count(static_cast<othello::color>(7)); }, "count 7");
    EXPECT_ERROR(othello::status::parse_error, [] { othello::board::from_string("XO"); }, "from_string");
    EXPECT_ERROR(othello::status::parse_error, [] { othello::board::from_transcript("f5z9"); }, "from_transcript");
    EXPECT_ERROR(othello::status::invalid_square, [] { othello::square_name(99); }, "square_name 99");
    CHECK(b.transcript() == "f5");  // the failures changed nothing

    try {
        b.play("a1");
    } catch (const othello::error &e) {
        CHECK(e.detail().find("a1") != std::string::npos);
        CHECK(std::string(e.what()).find("illegal move") == 0);
    }

    // result<T>: no exception, the board unchanged on failure.
    auto bad = b.try_play("a1");
    CHECK(!bad && bad.code() == othello::status::illegal_move);
    CHECK(!bad.err().detail().empty());
    auto parsed = othello::try_square("h8");
    CHECK(parsed && *parsed == 63);
    CHECK(othello::try_square("i9").code() == othello::status::parse_error);
    CHECK(othello::try_square("i9").value_or(-5) == -5);
    auto good = b.try_play("d6");
    CHECK(good.ok() && !good->empty());
    CHECK(othello::board::try_from_string("nonsense").code() == othello::status::parse_error);
    auto parsed_board = othello::board::try_from_string(ffo1);
    CHECK(parsed_board && parsed_board->count(othello::color::empty) == 14);

    // Undo/redo and clones.
    othello::board copy = b.clone();
    b.undo();
    b.undo();
    EXPECT_ERROR(othello::status::nothing_to_undo, [&] { b.undo(); }, "undo");
    b.redo();
    b.redo();
    EXPECT_ERROR(othello::status::nothing_to_redo, [&] { b.redo(); }, "redo");
    CHECK(b.to_string() == copy.to_string());
    CHECK(copy.history() == b.history());

    // Moves: the moved-from handle is empty and says so.
    othello::board moved = std::move(copy);
    CHECK(moved.move_number() == 3);
    EXPECT_ERROR(othello::status::null_argument, [&] { (void)copy.move_number(); }, "moved-from");
    copy = std::move(moved);
    CHECK(copy.move_number() == 3);
    copy = othello::board::from_transcript("f5d6c3d3c4");
    CHECK(copy.move_number() == 6);

    // Passes: play(pass) passes.
    auto p = othello::board::from_string(pass_position);
    CHECK(p.must_pass() && p.legal_moves().empty());
    CHECK(p.play(othello::pass).empty());
    CHECK(p.history() == std::vector<int>{othello::pass});
    CHECK(p.play("h8").size() > 0 && p.is_game_over());
    CHECK(othello::square_name(othello::pass) == "pass");
    CHECK(othello::message(othello::status::ok) == std::string("ok"));
    CHECK(othello::version() == OTHELLO_VERSION_STRING);
    CHECK(othello::board{}.size() == 8);

    // Sized boards: every list fits, up to 16x16.
    auto big = othello::board::sized(16);
    CHECK(big.size() == 16 && big.count(othello::color::empty) == 252);
    int turns = 0;
    while (!big.is_game_over() && turns < 20) {
        auto moves = big.legal_moves();
        big.play(moves.empty() ? othello::pass : moves.back());
        turns++;
    }
    CHECK(turns == 20 && big.history().size() == 20);
    EXPECT_ERROR(othello::status::invalid_argument, [] { othello::board::sized(5); }, "size 5");
}

static void test_engine() {
    othello::engine e{16};
    auto endgame = othello::board::from_string(ffo1);
    auto r = e.search(endgame, othello::search_limits{}.level(10));
    CHECK(r.move == othello::square("g8") && r.score == 18 && r.exact && !r.stopped);
    CHECK(!r.pv.empty() && r.pv[0] == r.move);
    auto scores = e.analyze(endgame, othello::search_limits{}.depths(2, 14, 14));
    CHECK(scores.size() == 8 && scores[0].score == 18 && scores[1].score == 12 && scores[7].score == -24);

    // Pondering after g8: the expected reply is legal, and the search
    // after it (the pondering's, or one on its table) stays exact: at
    // least +18 for the side that played g8.
    auto after = endgame.clone();
    after.play(r.move);
    int expected = e.ponder(after, othello::search_limits{}.level(10));
    CHECK(after.is_legal(expected));
    after.play(expected);
    auto reply = e.search(after, othello::search_limits{}.level(10));
    CHECK(reply.exact && reply.score >= 18 && !reply.stopped);
    e.ponder(after, othello::search_limits{}.level(10));
    e.stop();

    // Threads: 1 by default; two solve to the same exact score (g8 alone
    // reaches +18); out of range is invalid_argument naming the field.
    CHECK(othello::search_limits{}.c().threads == 1);
    CHECK(othello::search_limits{}.threads(3).c().threads == 3);
    e.clear();
    auto two = e.search(endgame, othello::search_limits{}.level(10).threads(2));
    CHECK(two.move == r.move && two.score == r.score && two.exact && !two.stopped);
    auto scores2 = e.analyze(endgame, othello::search_limits{}.depths(2, 14, 14).threads(2));
    CHECK(scores2.size() == 8 && scores2[0].score == 18 && scores2[7].score == -24);
    for (int bad : {257, -1}) {
        try {
            e.search(endgame, othello::search_limits{}.threads(bad));
            CHECK(false);
        } catch (const othello::error &err) {
            CHECK(err.code() == othello::status::invalid_argument);
            CHECK(err.detail().find("limits.threads") != std::string::npos);
        }
    }

    // The progress callback, in order of depth. The searches from the start
    // below say book(0): the opening book would answer without iterating.
    othello::board b;
    std::vector<int> depths;
    auto last = e.search(b, othello::search_limits{}.level(6).book(0), [&](const othello::search_progress &p) {
        depths.push_back(p.depth);
        CHECK(!p.pv.empty() && p.pv[0] == p.best_move);
#if __cplusplus >= 202002L
        CHECK(p.pv_view.size() == p.pv.size() && p.pv_view[0] == p.best_move);
#endif
    });
    CHECK((depths == std::vector<int>{1, 2, 4, 6}));
    CHECK(b.is_legal(last.move) && !last.from_book && last.nodes > 0);

    // Bad limits: exceptions naming the field.
    try {
        e.search(b, othello::search_limits{}.level(61));
        CHECK(false);
    } catch (const othello::error &err) {
        CHECK(err.code() == othello::status::invalid_argument);
        CHECK(err.detail().find("limits.level") != std::string::npos);
    }
    EXPECT_ERROR(othello::status::invalid_argument, [&] { e.search(b, othello::search_limits{}.time_limit_ms(-1)); },
                 "time");
    EXPECT_ERROR(othello::status::invalid_argument, [&] { e.search(b, othello::search_limits{}.clock(-2)); },
                 "clock_remaining_ms");
    EXPECT_ERROR(othello::status::invalid_argument, [&] { e.search(b, othello::search_limits{}.clock(1000, -1)); },
                 "clock_increment_ms");
    {
        // A clock with a second left: a level-60 search takes at most half.
        auto t0 = std::chrono::steady_clock::now();
        auto r = e.search(b, othello::search_limits{}.level(60).book(0).clock(1000));
        CHECK(b.is_legal(r.move));
        CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(600));
    }
    EXPECT_ERROR(othello::status::invalid_argument,
                 [&] { e.search(b, othello::search_limits{}.with_strategy(othello::strategy::classic, 10)); },
                 "classic_depth");
    auto over = othello::board::from_string(pass_position);
    over.pass_turn();
    over.play("h8");
    EXPECT_ERROR(othello::status::game_over, [&] { e.search(over); }, "game over");
    EXPECT_ERROR(othello::status::game_over, [&] { over.best_move(1); }, "best_move game over");

    // Strategies and seeds.
    for (auto s : {othello::strategy::engine, othello::strategy::classic, othello::strategy::corners,
                   othello::strategy::greedy, othello::strategy::random}) {
        auto m = e.search(b, othello::search_limits{}.level(2).with_strategy(s, 2).seed(9).randomness(1));
        CHECK(b.is_legal(m.move));
    }

    // stop() from another thread ends a deep search.
    std::atomic<bool> running{false};
    othello::search_result deep{};
    std::thread worker([&] {
        deep = e.search(b, othello::search_limits{}.level(60).book(0).time_limit_ms(30000),
                        [&](const othello::search_progress &) { running = true; });
    });
    auto start = std::chrono::steady_clock::now();
    while (!running) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    e.stop();
    worker.join();
    CHECK(deep.stopped && b.is_legal(deep.move));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));

    // A second search on a busy engine throws status::busy.
    std::atomic<bool> inside{false}, release{false};
    std::thread holder([&] {
        e.search(b, othello::search_limits{}.level(3).book(0), [&](const othello::search_progress &) {
            inside = true;
            while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        });
    });
    while (!inside) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_ERROR(othello::status::busy, [&] { e.search(b); }, "busy");
    release = true;
    holder.join();

    // An exception from the callback stops the search and comes back.
    struct enough {};
    int calls = 0;
    try {
        e.search(b, othello::search_limits{}.level(60).book(0), [&](const othello::search_progress &) {
            calls++;
            throw enough{};
        });
        CHECK(false);
    } catch (const enough &) {
        CHECK(calls == 1);
    }
    CHECK(!e.search(b, othello::search_limits{}.level(2)).stopped);

    othello::engine moved = std::move(e);
    CHECK(b.is_legal(moved.search(b, othello::search_limits{}.level(1)).move));
    e.stop();  // a moved-from engine: harmless
    moved.clear();
    EXPECT_ERROR(othello::status::invalid_argument, [] { othello::engine huge{1u << 20}; }, "hash");
}

static void test_book(const char *book_file) {
    othello::engine e{16};
    othello::board b;
    CHECK(e.get_book() == othello::book::builtin);

    // The start position is in the built-in book: its four moves, one up
    // to symmetry, so of one value.
    auto moves = e.book_moves(b);
    CHECK(moves.size() == 4);
    for (const auto &m : moves) {
        CHECK(b.is_legal(m.move) && !m.exact && m.score == moves[0].score);
    }
    CHECK(e.book_moves(othello::board::from_string(ffo1)).empty());
    CHECK(e.book_moves(othello::board::sized(10)).empty());

    // A level-10 search from the start is a book move; book(0) searches.
    auto r = e.search(b, othello::search_limits{}.level(10));
    CHECK(r.from_book && r.nodes == 0 && r.depth == 0 && b.is_legal(r.move));
    CHECK(r.score == moves[0].score && r.pv.size() > 1 && r.pv[0] == r.move);
    auto searched = e.search(b, othello::search_limits{}.level(4).book(0));
    CHECK(!searched.from_book && searched.nodes > 0 && searched.depth == 4);
    CHECK(!e.search(b, othello::search_limits{}.depths(2, 0, 0)).from_book);
    CHECK(e.search(b, othello::search_limits{}.depths(2, 0, 0).book(1)).from_book);
    EXPECT_ERROR(othello::status::invalid_argument, [&] { e.search(b, othello::search_limits{}.book(2)); },
                 "limits.book 2");

    // No book: no book moves, searches search.
    e.set_book(othello::book::none);
    CHECK(e.get_book() == othello::book::none);
    CHECK(e.book_moves(b).empty());
    CHECK(!e.search(b, othello::search_limits{}.level(2)).from_book);
    EXPECT_ERROR(othello::status::invalid_argument, [&] { e.set_book(othello::book::loaded); }, "set loaded");
    EXPECT_ERROR(othello::status::invalid_argument, [&] { e.set_book(static_cast<othello::book>(7)); }, "set 7");
    CHECK(e.get_book() == othello::book::none);
    e.set_book(othello::book::builtin);
    CHECK(e.get_book() == othello::book::builtin);

    // Bad books fail and the engine keeps its book.
    const std::vector<std::uint8_t> garbage{'n', 'o', 't', ' ', 'a', ' ', 'b', 'o', 'o', 'k'};
    EXPECT_ERROR(othello::status::invalid_argument, [&] { e.load_book_buffer(garbage); }, "garbage");
    EXPECT_ERROR(othello::status::invalid_argument, [&] { e.load_book_buffer(std::vector<std::uint8_t>{}); },
                 "empty buffer");
    EXPECT_ERROR(othello::status::invalid_argument, [&] { e.load_book("/nonexistent/book.bin"); }, "no file");
    CHECK(e.get_book() == othello::book::builtin);

    // The built-in book's own file, as bytes and by path.
    std::ifstream in(book_file, std::ios::binary);
    const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    CHECK(bytes.size() > 1000);
    const std::vector<std::uint8_t> half(bytes.begin(), bytes.begin() + bytes.size() / 2);
    EXPECT_ERROR(othello::status::invalid_argument, [&] { e.load_book_buffer(half); }, "truncated");
    CHECK(e.get_book() == othello::book::builtin);
    auto f5d6 = othello::board::from_transcript("f5d6");
    auto builtin = e.book_moves(f5d6);
    CHECK(!builtin.empty());
    e.load_book_buffer(bytes);
    CHECK(e.get_book() == othello::book::loaded);
    auto loaded = e.book_moves(f5d6);
    CHECK(loaded.size() == builtin.size());
    for (std::size_t i = 0; i < loaded.size() && i < builtin.size(); i++) {
        CHECK(loaded[i].move == builtin[i].move && loaded[i].score == builtin[i].score);
    }
    CHECK(e.search(f5d6, othello::search_limits{}.level(4)).from_book);
    e.set_book(othello::book::none);
    e.load_book(book_file);
    CHECK(e.get_book() == othello::book::loaded);
    CHECK(e.book_moves(f5d6).size() == builtin.size());
}

int main(int argc, char **argv) {
    test_board();
    test_engine();
    test_book(argc > 1 ? argv[1] : "weights/book.bin");
    return check_summary("wrapper_test");
}
