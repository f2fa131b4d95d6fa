// Specification of pixel-column decimation (M4): per pixel column the same first, lowest, highest and last
// point as the whole series, the series' order kept, and a growing series decimated as if from scratch.
#include "column_decimation.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <random>

using namespace scalebench;

namespace {

struct Series {
    std::vector<double> xs, ys;
};

// A noisy falling loss with spikes, at steps 1..n.
Series noisyLoss(std::size_t n, unsigned seed = 7) {
    std::mt19937 random(seed);
    std::normal_distribution<double> noise(0, 0.05);
    Series s;
    for (std::size_t i = 1; i <= n; ++i) {
        s.xs.push_back(static_cast<double>(i));
        s.ys.push_back(2.3 * std::exp(-1e-5 * static_cast<double>(i)) + noise(random) +
                       (i % 9973 == 0 ? 3.0 : 0.0));
    }
    return s;
}

// What a pixel column shows of a line: where the line enters and leaves it, and its vertical extent.
struct ColumnView {
    SeriesPoint first, last;
    double lowest = 0, highest = 0;
};

std::map<std::size_t, ColumnView> columnViews(const std::vector<SeriesPoint>& points,
                                              const PixelColumns& columns) {
    std::map<std::size_t, ColumnView> views;
    for (const SeriesPoint& p : points) {
        const std::size_t c = columns.columnOf(p.x);
        auto [it, fresh] = views.try_emplace(c, ColumnView{p, p, p.y, p.y});
        if (fresh) continue;
        it->second.last = p;
        it->second.lowest = std::min(it->second.lowest, p.y);
        it->second.highest = std::max(it->second.highest, p.y);
    }
    return views;
}

std::vector<SeriesPoint> everyPoint(const Series& s) {
    std::vector<SeriesPoint> points;
    for (std::size_t i = 0; i < s.xs.size(); ++i)
        points.push_back({s.xs[i], s.ys[i]});
    return points;
}

// The decimated line covers exactly the pixels the whole line covers: column by column, the same entry and
// exit points and the same extent.
void requireSameColumns(const std::vector<SeriesPoint>& decimated, const Series& whole,
                        const PixelColumns& columns) {
    const auto want = columnViews(everyPoint(whole), columns);
    const auto got = columnViews(decimated, columns);
    REQUIRE(got.size() == want.size());
    for (const auto& [column, view] : want) {
        INFO("column " << column);
        const ColumnView& g = got.at(column);
        REQUIRE(g.first.x == view.first.x);
        REQUIRE(g.first.y == view.first.y);
        REQUIRE(g.last.x == view.last.x);
        REQUIRE(g.last.y == view.last.y);
        REQUIRE(g.lowest == view.lowest);
        REQUIRE(g.highest == view.highest);
    }
}

} // namespace

TEST_CASE("a million points keep each pixel column's first, lowest, highest and last point, and no more",
          "[core][decimation]") {
    const Series s = noisyLoss(1'000'000);
    const PixelColumns columns{0, 1'050'000, 1180};
    const auto points = columnDecimate(s.xs, s.ys, columns);
    CHECK(points.size() <= 4 * columns.columns);
    requireSameColumns(points, s, columns);
    for (std::size_t i = 1; i < points.size(); ++i)
        REQUIRE(points[i].x > points[i - 1].x); // the series' order, each point once
}

TEST_CASE("the first and the last point of the series are always drawn", "[core][decimation]") {
    const Series s = noisyLoss(50'000);
    const auto points = columnDecimate(s.xs, s.ys, {0, 60'000, 300});
    REQUIRE(!points.empty());
    CHECK(points.front().x == s.xs.front());
    CHECK(points.front().y == s.ys.front());
    CHECK(points.back().x == s.xs.back());
    CHECK(points.back().y == s.ys.back());
}

TEST_CASE("a series with fewer points than columns is drawn whole", "[core][decimation]") {
    const auto points = columnDecimate({1, 2, 3}, {5, 4, 6}, {0, 3, 1000});
    REQUIRE(points.size() == 3);
    CHECK(points[1].y == 4);
}

TEST_CASE("block summaries give the same points as reading every point", "[core][decimation]") {
    Series s = noisyLoss(700'000, 11);
    SECTION("values as a loss curve gives them") {}
    SECTION("values that repeat: the first of equal lowest or highest points, with blocks or without") {
        for (double& y : s.ys)
            y = std::round(y * 20) / 20;
    }
    SeriesBlocks blocks;
    blocks.extend(s.ys);
    // From many blocks a column to several columns a block (5000 and 20000: blocks of 256 span 2 to 8).
    for (std::size_t width : {97, 640, 1180, 2500, 5000, 20000}) {
        const PixelColumns columns{0, 700'000, width};
        const auto with_blocks = columnDecimate(s.xs, s.ys, columns, &blocks);
        const auto without = columnDecimate(s.xs, s.ys, columns);
        REQUIRE(with_blocks.size() == without.size());
        for (std::size_t i = 0; i < without.size(); ++i) {
            REQUIRE(with_blocks[i].x == without[i].x);
            REQUIRE(with_blocks[i].y == without[i].y);
        }
        requireSameColumns(with_blocks, s, columns);
    }
}

TEST_CASE("a series that grows in batches is decimated as if it were read at once", "[core][decimation]") {
    const Series all = noisyLoss(400'000, 3);
    const PixelColumns columns{0, 500'000, 800};
    Series growing;
    SeriesBlocks blocks;
    ColumnDecimation live;
    std::mt19937 random(5);
    std::uniform_int_distribution<std::size_t> batch(1, 20'000);
    while (growing.xs.size() < all.xs.size()) {
        const std::size_t to = std::min(all.xs.size(), growing.xs.size() + batch(random));
        growing.xs.insert(growing.xs.end(), all.xs.begin() + static_cast<std::ptrdiff_t>(growing.xs.size()),
                          all.xs.begin() + static_cast<std::ptrdiff_t>(to));
        growing.ys.insert(growing.ys.end(), all.ys.begin() + static_cast<std::ptrdiff_t>(growing.ys.size()),
                          all.ys.begin() + static_cast<std::ptrdiff_t>(to));
        blocks.extend(growing.ys);
        live.update(growing.xs, growing.ys, columns, &blocks);
    }
    const auto at_once = columnDecimate(all.xs, all.ys, columns);
    REQUIRE(live.points().size() == at_once.size());
    for (std::size_t i = 0; i < at_once.size(); ++i) {
        REQUIRE(live.points()[i].x == at_once[i].x);
        REQUIRE(live.points()[i].y == at_once[i].y);
    }
    requireSameColumns(live.points(), all, columns);
}

TEST_CASE("new columns, or another series in its place, are decimated from the start", "[core][decimation]") {
    const Series first = noisyLoss(30'000, 1);
    ColumnDecimation decimation;
    decimation.update(first.xs, first.ys, {0, 30'000, 200});
    SECTION("the plot became wider") {
        const PixelColumns wider{0, 30'000, 900};
        requireSameColumns(decimation.update(first.xs, first.ys, wider), first, wider);
    }
    SECTION("the axis range changed") {
        const PixelColumns longer{0, 60'000, 200};
        requireSameColumns(decimation.update(first.xs, first.ys, longer), first, longer);
    }
    SECTION("another run's series, longer than the first") {
        const Series other = noisyLoss(45'000, 2);
        const PixelColumns columns{0, 30'000, 200};
        requireSameColumns(decimation.update(other.xs, other.ys, columns), other, columns);
    }
    SECTION("a shorter series") {
        const Series shorter = noisyLoss(1000, 4);
        const PixelColumns columns{0, 30'000, 200};
        requireSameColumns(decimation.update(shorter.xs, shorter.ys, columns), shorter, columns);
    }
}

TEST_CASE("column decimation refuses series of different lengths", "[core][decimation]") {
    CHECK_THROWS_AS(columnDecimate({1, 2}, {1}, {0, 2, 10}), std::invalid_argument);
}
