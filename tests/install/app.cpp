/*
 * app.cpp: the C++ wrapper as INSTALLED by cargo cinstall (othello.hpp
 * beside othello.h in the prefix's include directory), built by
 * tests/install.rs with pkg-config and through CMake. Like app.c, it checks
 * that header and library agree, plays a whole game, engine against engine,
 * and prints the result in app.c's words.
 */

#include <othello.hpp>

#include <cstdio>
#include <string>

int main()
{
    if (othello::version() != OTHELLO_VERSION_STRING) {
        std::fprintf(stderr, "header %s, library %s\n", OTHELLO_VERSION_STRING,
                     othello::version().c_str());
        return 1;
    }
    try {
        othello::board b;
        othello::engine e{1};
        int turns = 0;
        while (!b.is_game_over()) {
            othello::search_result r = e.search(b, othello::search_limits{}.level(2));
            b.play(r.move);
            turns++;
        }
        std::printf("othello %s: %d turns, black %d, white %d\n", othello::version().c_str(), turns,
                    b.count(othello::color::black), b.count(othello::color::white));
        std::printf("transcript %s\n", b.transcript().c_str());
    } catch (const othello::error &err) {
        std::fprintf(stderr, "%s\n", err.what());
        return 1;
    }
    return 0;
}
