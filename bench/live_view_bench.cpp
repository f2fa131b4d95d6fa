// Live view under a flood of records: 1,000,000 step records arrive in frames of 10,000; each frame appends
// them to the RunProgressModel, redraws the LiveView's three charts at display decimation and lets the event
// loop lay out and paint the shown window (offscreen), as a frame on screen does. Peer: the same chart fed
// every point (no decimation), drawn side by side at the same sizes.
#include "live_view.h"
#include "run_progress_model.h"

#include <QAbstractScrollArea>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QElapsedTimer>
#include <QLineSeries>
#include <QPixmap>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <vector>

using namespace scalebench;

namespace {

double medianMs(std::vector<double> v) {
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

// CPU time of this thread, ms: what a frame costs whatever else the machine runs.
double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

// Counts the paint events of the widgets it watches.
class PaintCounter : public QObject {
  public:
    int paints = 0;

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Paint) ++paints;
        return QObject::eventFilter(watched, event);
    }
};

// What the event loop does after a redraw before the frame is on screen: the charts' layout requests, the
// scenes' changes, and the window's paint into its backing store. ms.
double settleMs() {
    QElapsedTimer timer;
    timer.start();
    for (int pass = 0; pass < 3; ++pass) // a scene change posts a view update, which posts a paint
        QApplication::processEvents();
    return static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::setvbuf(stdout, nullptr, _IOLBF, 0); // each figure as soon as it is known
    const std::int64_t total = argc > 1 ? std::atoll(argv[1]) : 1'000'000;
    constexpr int kPerFrame = 10'000;
    constexpr double kFrameBudgetMs = 16.0; // one frame at 60 Hz

    RunProgressModel model;
    RunSpec spec;
    spec.name = "resnet20-synthetic-n8-r1";
    spec.ranks = 8;
    spec.group.steps = static_cast<int>(total);
    model.startSession(1, {spec});
    model.runSubmitted(1, spec.name, "4242", "/tmp/run");
    // The view redraws once per frame, when this loop says so; the model's own 100 ms signal would add
    // redraws, more of them the slower the frames are.
    model.blockSignals(true);
    LiveView view(&model);
    view.resize(1280, 800);
    view.show();
    QApplication::processEvents();
    PaintCounter painted_charts;
    for (const char* chart : {"loss", "throughput", "breakdown"})
        view.chartView(QString::fromLatin1(chart))->viewport()->installEventFilter(&painted_charts);

    std::vector<double> frame_ms, append_ms, redraw_ms, paint_ms, frame_cpu_ms;
    for (std::int64_t first = 1; first <= total; first += kPerFrame) {
        const auto records =
            frameOfSteps(first, static_cast<int>(std::min<std::int64_t>(kPerFrame, total - first + 1)));
        QElapsedTimer timer;
        const double cpu_start = threadCpuMs();
        timer.start();
        model.appendRecords(1, records);
        const double appended = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        view.refresh();
        const double redrawn = static_cast<double>(timer.nsecsElapsed()) / 1e6 - appended;
        const double painted = settleMs();
        append_ms.push_back(appended);
        redraw_ms.push_back(redrawn);
        paint_ms.push_back(painted);
        frame_ms.push_back(appended + redrawn + painted);
        frame_cpu_ms.push_back(threadCpuMs() - cpu_start);
    }
    const int drawn = view.drawnPoints(QStringLiteral("loss"));
    if (argc > 2) view.grab().save(QString::fromLocal8Bit(argv[2])); // what the last frame showed
    const double charts_painted =
        static_cast<double>(painted_charts.paints) / static_cast<double>(frame_ms.size());

    // The peer: one chart of the same size holding every loss point, redrawn and painted (5 repetitions).
    QChartView full;
    full.resize(1280, 400);
    auto* series = new QLineSeries;
    full.chart()->addSeries(series);
    full.chart()->createDefaultAxes();
    full.show();
    QApplication::processEvents();
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
        full_ms.push_back(replaced + settleMs());
    }

    // The frame at full size: the last tenth of the frames, when the model holds 900,000+ records.
    std::vector<double> late(frame_ms.end() -
                                 static_cast<std::ptrdiff_t>(std::max<std::size_t>(1, frame_ms.size() / 10)),
                             frame_ms.end());
    std::printf(
        "live view: %lld step records in %zu frames of %d, three charts of 1280x800 at display decimation\n",
        static_cast<long long>(model.recordCount()), frame_ms.size(), kPerFrame);
    std::printf(
        "  per frame (median ms): append %.2f  redraw %.2f  layout+paint %.2f  total %.2f  (max %.2f)\n",
        medianMs(append_ms), medianMs(redraw_ms), medianMs(paint_ms), medianMs(frame_ms),
        *std::max_element(frame_ms.begin(), frame_ms.end()));
    std::printf("  frames at >= 90%% of the records: median %.2f ms, max %.2f; budget %.0f ms -> %.2fx\n",
                medianMs(late), *std::max_element(late.begin(), late.end()), kFrameBudgetMs,
                kFrameBudgetMs / medianMs(late));
    std::vector<double> late_cpu(frame_cpu_ms.end() - static_cast<std::ptrdiff_t>(late.size()),
                                 frame_cpu_ms.end());
    std::printf("  CPU time of the GUI thread per frame (the machine's other load left out): median %.2f ms, "
                "at >= 90%% of the records %.2f ms (max %.2f)\n",
                medianMs(frame_cpu_ms), medianMs(late_cpu),
                *std::max_element(late_cpu.begin(), late_cpu.end()));
    const auto over = [&](const std::vector<double>& ms) {
        return std::count_if(ms.begin(), ms.end(), [&](double m) { return m > kFrameBudgetMs; });
    };
    std::printf(
        "  frames over %.0f ms: %td of %zu by the clock, %td by the GUI thread's CPU time (max %.2f ms)\n",
        kFrameBudgetMs, over(frame_ms), frame_ms.size(), over(frame_cpu_ms),
        *std::max_element(frame_cpu_ms.begin(), frame_cpu_ms.end()));
    std::printf("  points drawn by the loss chart: %d of %zu; charts painted per frame: %.1f of 3\n", drawn,
                trace.step.size(), charts_painted);
    std::printf("peer: one chart with every point (no decimation): median %.1f ms per redraw+paint\n",
                medianMs(full_ms));
    std::printf("ratio peer / ours (late frames, three charts vs one): %.1fx\n",
                medianMs(full_ms) / medianMs(late));
    return medianMs(late) < kFrameBudgetMs ? 0 : 1;
}
