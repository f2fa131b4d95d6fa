// Specification of display decimation: few points out, every extreme kept, order kept.
#include "series_decimation.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace scalebench;

TEST_CASE("a short series is drawn whole", "[core][decimation]") {
    const auto points = minMaxDecimate({1, 2, 3}, {5, 4, 6}, 10);
    REQUIRE(points.size() == 3);
    CHECK(points[2].x == 3);
    CHECK(points[2].y == 6);
}

TEST_CASE("a million points become at most two per bucket, and every spike survives", "[core][decimation]") {
    std::vector<double> xs, ys;
    for (int i = 0; i < 1'000'000; ++i) {
        xs.push_back(i);
        ys.push_back(std::sin(i * 1e-4));
    }
    ys[123'457] = 50;  // one spike up
    ys[876'543] = -50; // and one down
    const auto points = minMaxDecimate(xs, ys, 1000);
    CHECK(points.size() <= 2001);
    CHECK(points.size() >= 1000);
    bool up = false, down = false;
    for (std::size_t i = 0; i < points.size(); ++i) {
        up = up || (points[i].x == 123'457 && points[i].y == 50);
        down = down || (points[i].x == 876'543 && points[i].y == -50);
        if (i > 0) CHECK(points[i].x > points[i - 1].x);
    }
    CHECK(up);
    CHECK(down);
    CHECK(points.back().x == 999'999); // the newest point is never lost
}

TEST_CASE("series of different lengths are refused", "[core][decimation]") {
    CHECK_THROWS_AS(minMaxDecimate({1, 2}, {1}, 4), std::invalid_argument);
}

TEST_CASE("block summaries kept up as a series grows give its extremes and its newest point",
          "[core][decimation]") {
    std::vector<double> xs, ys;
    SeriesBlocks growing;
    for (int i = 0; i < 2'000'000; ++i) {
        xs.push_back(i);
        ys.push_back(i == 1'234'567 ? 9
                     : i == 345'678 ? -9
                                    : std::cos(i * 3e-5) + ((i * 7919) % 1000) * 1e-4);
        if (i % 300'000 == 0) growing.extend(ys); // as records arrive, in batches
    }
    growing.extend(ys);
    const auto points = minMaxDecimate(xs, ys, 500, &growing);
    CHECK(points.size() <= 1001); // two per bucket, and the newest point
    CHECK(points.size() >= 500);
    double lowest = 0, highest = 0;
    for (const auto& p : points) {
        lowest = std::min(lowest, p.y);
        highest = std::max(highest, p.y);
    }
    CHECK(highest == 9);
    CHECK(lowest == -9);
    CHECK(points.back().x == 1'999'999); // the tail after the last whole block is scanned point by point
    for (std::size_t i = 1; i < points.size(); ++i)
        REQUIRE(points[i].x > points[i - 1].x);
}
