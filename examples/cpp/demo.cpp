// demo.cpp: the othello C++ wrapper (othello.hpp) in one page.
//
// A board and its moves, errors as exceptions and as results, an engine
// game with a progress callback, the opening book, an exact endgame
// analysis, undo/redo and copies, and handles moved around: everything is
// freed by destructors.
//
// Build and run: make -C examples cpp-demo && target/examples/cpp-demo

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "othello.hpp"

namespace {

// FFO endgame position #1: black to move, 14 empties, g8 wins by 18.
const char *const ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

struct enough {};

}  // namespace

int main() {
    std::printf("othello %s (header %s)\n", othello::version().c_str(), OTHELLO_VERSION_STRING);

    // 1. A board: legal moves and a move with its flips.
    othello::board b;
    std::printf("legal moves: %s\n", othello::square_names(b.legal_moves()).c_str());
    std::printf("f5 flips: %s\n", othello::square_names(b.play("f5")).c_str());

    // 2. Errors: an exception from play(), a result from try_play().
    try {
        b.play("z9");
    } catch (const othello::error &e) {
        std::printf("play(\"z9\") threw: status %d, %s\n", static_cast<int>(e.code()), e.what());
    }
    auto tried = b.try_play("a1");
    if (!tried) {
        std::printf("try_play(\"a1\"): %s (%s)\n", othello::message(tried.code()), tried.err().detail().c_str());
    }

    // 3. The opening book knows this position: its moves, and a search that
    //    plays one of them without searching.
    othello::engine engine{16};
    auto limits = othello::search_limits{}.level(3);
    std::printf("book moves:");
    for (const auto &m : engine.book_moves(b)) {
        std::printf(" %s %+d", othello::square_name(m.move).c_str(), m.score);
    }
    auto booked = engine.search(b, limits);
    std::printf("\nbook search: %s %+d, from book %s, %llu nodes\n", othello::square_name(booked.move).c_str(),
                booked.score, booked.from_book ? "yes" : "no", static_cast<unsigned long long>(booked.nodes));

    // 4. An engine game from here, both sides at level 3; the progress
    //    callback reports the iterations of the first search, made without
    //    the book (book(0)) to have some.
    std::vector<int> depths;
    auto first = engine.search(b, othello::search_limits{limits}.book(0), [&](const othello::search_progress &p) {
        depths.push_back(p.depth);
        std::printf("  depth %d: %s %+d, pv %s\n", p.depth, othello::square_name(p.best_move).c_str(), p.score,
                    othello::square_names(p.pv).c_str());
    });
    std::printf("first search: %s after %zu iterations\n", othello::square_name(first.move).c_str(), depths.size());
    int passes = 0;
    while (!b.is_game_over()) {
        auto r = engine.search(b, limits);
        if (r.move == othello::pass) passes++;
        b.play(r.move);
    }
    std::printf("game over: black %d, white %d, %d passes, %d turns\n", b.count(othello::color::black),
                b.count(othello::color::white), passes, b.move_number() - 1);
    std::printf("transcript: %s\n", b.transcript().c_str());

    // 5. Undo/redo, and an independent copy.
    othello::board copy = b.clone();
    b.undo();
    b.undo();
    std::printf("after two undos: move %d (copy: move %d)\n", b.move_number(), copy.move_number());
    b.redo();
    b.redo();
    std::printf("redone: %s\n", b.to_string() == copy.to_string() ? "same position" : "DIFFERENT");

    // 6. An exact endgame analysis: every move's final disc difference.
    auto endgame = othello::board::from_string(ffo1);
    auto scores = engine.analyze(endgame, othello::search_limits{}.level(10));
    std::printf("ffo #1:");
    for (std::size_t i = 0; i < scores.size() && i < 3; i++) {
        std::printf(" %s %+d%s", othello::square_name(scores[i].move).c_str(), scores[i].score,
                    scores[i].exact ? " (exact)" : "");
    }
    std::printf("\n");

    // 7. An exception thrown by the progress callback stops the search.
    try {
        engine.search(othello::board{}, othello::search_limits{}.level(60).book(0),
                      [](const othello::search_progress &) { throw enough{}; });
        std::printf("the callback did not stop the search\n");
        return EXIT_FAILURE;
    } catch (const enough &) {
        std::printf("callback exception: search stopped\n");
    }

    // 8. Handles are move-only: they move into containers and out again.
    std::vector<othello::board> boards;
    boards.push_back(std::move(copy));
    boards.push_back(othello::board::from_transcript("f5d6c3"));
    othello::engine moved = std::move(engine);
    std::printf("boards: %zu, the second at move %d; best there: %s\n", boards.size(), boards[1].move_number(),
                othello::square_name(moved.search(boards[1], othello::search_limits{}.level(2)).move).c_str());
    try {
        copy.legal_moves();  // moved from
    } catch (const othello::error &e) {
        std::printf("moved-from board: %s\n", e.what());
    }
    std::printf("done\n");
    return EXIT_SUCCESS;
}
