// Catch2's main, in a file of its own: it takes ~15 s to compile and never changes.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
