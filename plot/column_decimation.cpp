// Pixel-column decimation of a line chart's series (M4): first, lowest, highest and last point per column.
#include "column_decimation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace scalebench {

std::size_t PixelColumns::columnOf(double x) const {
    const std::size_t count = std::max<std::size_t>(1, columns);
    if (!(x > x_low) || !(x_high > x_low)) return 0; // also NaN
    const double at = (x - x_low) / (x_high - x_low) * static_cast<double>(count);
    return at >= static_cast<double>(count) ? count - 1 : static_cast<std::size_t>(at);
}

void ColumnDecimation::reset() {
    decimated_ = 0;
    open_ = false;
    points_.clear();
    open_points_ = 0;
}

void ColumnDecimation::add(std::size_t column, std::size_t first, std::size_t lowest, std::size_t highest,
                           std::size_t last, const std::vector<double>& xs, const std::vector<double>& ys) {
    if (open_ && last_column_.column == column) {
        if (ys[lowest] < ys[last_column_.lowest]) last_column_.lowest = lowest;
        if (ys[highest] > ys[last_column_.highest]) last_column_.highest = highest;
        last_column_.last = last;
        return;
    }
    if (open_) close(last_column_, xs, ys); // points come in x order: that column has all of its points
    open_ = true;
    last_column_ = {column, first, lowest, highest, last};
}

void ColumnDecimation::close(const Column& column, const std::vector<double>& xs,
                             const std::vector<double>& ys) {
    std::size_t at[] = {column.first, column.lowest, column.highest, column.last};
    std::sort(std::begin(at), std::end(at));
    const std::size_t before = points_.size();
    for (std::size_t k = 0; k < 4; ++k)
        if (k == 0 || at[k] != at[k - 1]) points_.push_back({xs[at[k]], ys[at[k]]});
    open_points_ = points_.size() - before;
}

void ColumnDecimation::addStraddling(std::size_t first, std::size_t last, const std::vector<double>& xs,
                                     const std::vector<double>& ys) {
    // xs do not decrease, so each column's points are a run: its end is found by bisection and its lowest and
    // highest by one tight pass, the same points (the first of equal ones) as adding them one by one.
    while (first <= last) {
        const std::size_t column = columns_.columnOf(xs[first]);
        std::size_t lo = first + 1, hi = last + 1; // the first point of a later column lies in [lo, hi]
        while (lo < hi) {
            const std::size_t mid = lo + (hi - lo) / 2;
            if (columns_.columnOf(xs[mid]) == column)
                lo = mid + 1;
            else
                hi = mid;
        }
        std::size_t lowest = first, highest = first;
        for (std::size_t k = first + 1; k < lo; ++k) {
            if (ys[k] < ys[lowest]) lowest = k;
            if (ys[k] > ys[highest]) highest = k;
        }
        add(column, first, lowest, highest, lo - 1, xs, ys);
        first = lo;
    }
}

const std::vector<SeriesPoint>& ColumnDecimation::update(const std::vector<double>& xs,
                                                         const std::vector<double>& ys,
                                                         const PixelColumns& columns,
                                                         const SeriesBlocks* blocks) {
    if (xs.size() != ys.size()) throw std::invalid_argument("ColumnDecimation: xs and ys differ in length");
    const std::size_t n = xs.size();
    const bool same_series =
        decimated_ <= n &&
        (decimated_ == 0 || (xs[decimated_ - 1] == last_x_ && ys[decimated_ - 1] == last_y_));
    if (!(columns == columns_) || !same_series) {
        reset();
        columns_ = columns;
    }
    if (decimated_ == n) return points_;
    // The last column may grow: its points are taken back and given again when it closes below.
    if (open_) points_.resize(points_.size() - open_points_);
    std::size_t i = decimated_;
    constexpr std::size_t kBlock = SeriesBlocks::kSize;
    const std::size_t complete = blocks ? std::min(blocks->completeBlocks(), n / kBlock) : 0;
    while (i < n) {
        const std::size_t block = i / kBlock;
        if (i % kBlock == 0 && block < complete) {
            const std::size_t end = i + kBlock - 1;
            const std::size_t column = columns_.columnOf(xs[i]);
            if (column == columns_.columnOf(xs[end])) { // the whole block lies in one column
                add(column, i, blocks->lowest(block), blocks->highest(block), end, xs, ys);
                i = end + 1;
                continue;
            }
            addStraddling(i, end, xs, ys);
            i = end + 1;
            continue;
        }
        add(columns_.columnOf(xs[i]), i, i, i, i, xs, ys);
        ++i;
    }
    close(last_column_, xs, ys); // given now, and taken back if the next points join it
    decimated_ = n;
    last_x_ = xs[n - 1];
    last_y_ = ys[n - 1];
    return points_;
}

std::vector<SeriesPoint> columnDecimate(const std::vector<double>& xs, const std::vector<double>& ys,
                                        const PixelColumns& columns, const SeriesBlocks* blocks) {
    ColumnDecimation decimation;
    return decimation.update(xs, ys, columns, blocks);
}

} // namespace scalebench
