// Specification of the block summaries that display decimation reads a long series by: each whole block's
// lowest and highest point, kept up as the series grows. (Decimation itself: test_column_decimation.cpp.)
#include "series_decimation.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

using namespace scalebench;

TEST_CASE("block summaries kept up as a series grows give each whole block's first lowest and highest point",
          "[core][decimation]") {
    std::vector<double> ys;
    SeriesBlocks growing;
    for (int i = 0; i < 2'000'000; ++i) {
        ys.push_back(i == 1'234'567 ? 9
                     : i == 345'678 ? -9
                                    : std::cos(i * 3e-5) + ((i * 7919) % 1000) * 1e-4);
        if (i % 300'000 == 0) growing.extend(ys); // as records arrive, in batches
    }
    growing.extend(ys);
    // Whole blocks only: the tail after the last one is left to be read point by point.
    REQUIRE(growing.completeBlocks() == 2'000'000 / SeriesBlocks::kSize);
    double lowest = 0, highest = 0;
    for (std::size_t block = 0; block < growing.completeBlocks(); ++block) {
        // The first of equal points, as reading the block in order gives (min_element, max_element).
        const auto first = ys.begin() + static_cast<std::ptrdiff_t>(block * SeriesBlocks::kSize);
        const auto end = first + SeriesBlocks::kSize;
        REQUIRE(growing.lowest(block) == static_cast<std::size_t>(std::min_element(first, end) - ys.begin()));
        REQUIRE(growing.highest(block) ==
                static_cast<std::size_t>(std::max_element(first, end) - ys.begin()));
        lowest = std::min(lowest, ys[growing.lowest(block)]);
        highest = std::max(highest, ys[growing.highest(block)]);
    }
    CHECK(highest == 9);
    CHECK(lowest == -9);
    CHECK(growing.highest(1'234'567 / SeriesBlocks::kSize) == 1'234'567);
    CHECK(growing.lowest(345'678 / SeriesBlocks::kSize) == 345'678);
}
