// Pixel-column decimation of a line chart's series (M4): of the points that fall in each pixel column, the
// first, the lowest, the highest and the last, so the line drawn through them covers exactly the pixels the
// line through every point covers; kept up to date as a live series grows.
#pragma once

#include "series_decimation.h"

#include <cstddef>
#include <vector>

namespace scalebench {

// How the x axis maps onto the plot's pixel columns: [x_low, x_high] spread over `columns` columns; points
// outside go to the first or the last column.
struct PixelColumns {
    double x_low = 0;
    double x_high = 1;
    std::size_t columns = 1;

    std::size_t columnOf(double x) const;
    friend bool operator==(const PixelColumns&, const PixelColumns&) = default;
};

// The decimated points of one series, in the series' order. xs must not decrease. While the columns stay the
// same, update() reads only the points appended since the last call (the last column's candidates are kept,
// and new points may still join them); new columns (a plot resized, an axis range changed) or a series that
// is not the one decimated before make it start over.
class ColumnDecimation {
  public:
    // Decimates xs/ys (with the block summaries of ys, if kept) onto `columns`; returns the points.
    const std::vector<SeriesPoint>& update(const std::vector<double>& xs, const std::vector<double>& ys,
                                           const PixelColumns& columns, const SeriesBlocks* blocks = nullptr);
    const std::vector<SeriesPoint>& points() const { return points_; }
    // Forgets the series: the next update decimates from its first point.
    void reset();

  private:
    // One column's four candidates, as indices into the series.
    struct Column {
        std::size_t column = 0;
        std::size_t first = 0, lowest = 0, highest = 0, last = 0;
    };
    // Points first..last, all in `column`, whose lowest and highest are known.
    void add(std::size_t column, std::size_t first, std::size_t lowest, std::size_t highest, std::size_t last,
             const std::vector<double>& xs, const std::vector<double>& ys);
    void close(const Column& column, const std::vector<double>& xs, const std::vector<double>& ys);
    // The points first..last of a block that spans more than one column.
    void addStraddling(std::size_t first, std::size_t last, const std::vector<double>& xs,
                       const std::vector<double>& ys);

    PixelColumns columns_{};
    std::size_t decimated_ = 0;      // points of the series read so far
    double last_x_ = 0, last_y_ = 0; // the last of them, to tell another series from a longer one
    bool open_ = false;              // the last column read, which later points may still join
    Column last_column_{};
    std::vector<SeriesPoint> points_; // every column's candidates, in the series' order, each point once
    std::size_t open_points_ = 0;     // how many of points_ the last column gave
};

// One decimation from scratch.
std::vector<SeriesPoint> columnDecimate(const std::vector<double>& xs, const std::vector<double>& ys,
                                        const PixelColumns& columns, const SeriesBlocks* blocks = nullptr);

} // namespace scalebench
