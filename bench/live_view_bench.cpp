// Live view under a flood of records: 1,000,000 step records arrive in frames of 10,000; each frame appends
// them to the RunProgressModel, redraws the LiveView's three charts at display decimation and paints the
// view. Peer: the same chart fed every point (no decimation), drawn side by side at the same sizes.
#include "live_view.h"
#include "run_progress_model.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QElapsedTimer>
#include <QImage>
#include <QLineSeries>
#include <QPainter>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace scalebench;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

std::vector<MetricRecord> frameOfSteps(std::int64_t first, int count) {
    std::vector<MetricRecord> records;
    records.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        const auto step = first + i;
        StepRecord s;
        s.step = step;
        s.loss = 2.3 * std::exp(-1e-6 * static_cast<double>(step)) +
                 0.05 * std::sin(0.01 * static_cast<double>(step));
        s.step_s = 0.2 + 0.01 * std::sin(0.003 * static_cast<double>(step));
        s.samples_per_s = 256 / s.step_s;
        s.forward_s = 0.07;
        s.backward_s = 0.12;
        s.allreduce_s = 0.005;
        s.comm_hidden_s = 0.01;
        s.elapsed_s = 0.2 * static_cast<double>(step);
        records.emplace_back(s);
    }
    return records;
}

// Paints the widget as the screen would (the scene of every chart, not a cached pixmap).
double paintMs(QWidget& widget) {
    QImage image(widget.size(), QImage::Format_ARGB32_Premultiplied);
    QElapsedTimer timer;
    timer.start();
    QPainter painter(&image);
    widget.render(&painter);
    painter.end();
    return static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const std::int64_t total = argc > 1 ? std::atoll(argv[1]) : 1'000'000;
    constexpr int kPerFrame = 10'000;

    RunProgressModel model;
    RunSpec spec;
    spec.name = "resnet20-synthetic-n8-r1";
    spec.ranks = 8;
    spec.group.steps = static_cast<int>(total);
    model.startSession(1, {spec});
    model.runSubmitted(1, spec.name, "4242", "/tmp/run");
    LiveView view(&model);
    view.resize(1280, 800);
    view.show();
    QApplication::processEvents();

    std::vector<double> frame_ms, append_ms, redraw_ms, paint_ms;
    for (std::int64_t first = 1; first <= total; first += kPerFrame) {
        const auto records =
            frameOfSteps(first, static_cast<int>(std::min<std::int64_t>(kPerFrame, total - first + 1)));
        QElapsedTimer timer;
        timer.start();
        model.appendRecords(1, records);
        const double appended = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        view.refresh();
        const double redrawn = static_cast<double>(timer.nsecsElapsed()) / 1e6 - appended;
        const double painted = paintMs(view);
        append_ms.push_back(appended);
        redraw_ms.push_back(redrawn);
        paint_ms.push_back(painted);
        frame_ms.push_back(appended + redrawn + painted);
    }
    const int drawn = view.drawnPoints(QStringLiteral("loss"));

    // The peer: one chart of the same size holding every loss point, redrawn and painted (5 repetitions).
    QChartView full;
    full.resize(1280, 400);
    auto* series = new QLineSeries;
    full.chart()->addSeries(series);
    full.chart()->createDefaultAxes();
    full.show();
    const RunTrace& trace = model.trace(0);
    std::vector<double> full_ms;
    for (int repeat = 0; repeat < 5; ++repeat) {
        QElapsedTimer timer;
        timer.start();
        QList<QPointF> points;
        points.reserve(static_cast<qsizetype>(trace.step.size()));
        for (std::size_t i = 0; i < trace.step.size(); ++i)
            points.append(QPointF(trace.step[i], trace.loss[i]));
        series->replace(points);
        const double replaced = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        full_ms.push_back(replaced + paintMs(full));
    }

    // The frame at full size: the last tenth of the frames, when the model holds 900,000+ records.
    std::vector<double> late(frame_ms.end() -
                                 static_cast<std::ptrdiff_t>(std::max<std::size_t>(1, frame_ms.size() / 10)),
                             frame_ms.end());
    std::printf(
        "live view: %lld step records in %zu frames of %d, three charts of 1280x800 at display decimation\n",
        static_cast<long long>(model.recordCount()), frame_ms.size(), kPerFrame);
    std::printf("  per frame (median ms): append %.2f  redraw %.2f  paint %.2f  total %.2f  (max %.2f)\n",
                median(append_ms), median(redraw_ms), median(paint_ms), median(frame_ms),
                *std::max_element(frame_ms.begin(), frame_ms.end()));
    std::printf("  frames at >= 90%% of the records: median %.2f ms; budget 50 ms -> %.1fx headroom\n",
                median(late), 50.0 / median(late));
    std::printf("  points drawn by the loss chart: %d of %zu\n", drawn, trace.step.size());
    std::printf("peer: one chart with every point (no decimation): median %.1f ms per redraw+paint\n",
                median(full_ms));
    std::printf("ratio peer / ours (late frames, three charts vs one): %.1fx\n",
                median(full_ms) / median(late));
    return median(late) < 50.0 ? 0 : 1;
}
