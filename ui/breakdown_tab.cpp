// The Breakdown tab: where a step's time goes per rank count, and the per-rank step times of one run (which
// rank the others wait for, a heat map of ranks by step with slow ranks marked), over the shown session as
// the loader read it.
#include "breakdown_tab.h"

#include "breakdown_chart_view.h"
#include "breakdown_model.h"
#include "decimal_delegate.h"
#include "rank_heat_map_model.h"
#include "rank_heat_map_view.h"
#include "rank_times_chart_view.h"
#include "rank_times_model.h"
#include "record_table.h"
#include "stored_session_loader.h"

#include <QHeaderView>
#include <QLabel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace scalebench {

BreakdownTab::BreakdownTab(QWidget* parent)
    : QSplitter(Qt::Vertical, parent), breakdown_(new BreakdownModel(this)),
      rank_times_(new RankTimesModel(this)), heat_map_(new RankHeatMapModel(this)) {
    auto* chart = new BreakdownChartView(breakdown_, this);
    chart->setObjectName(QStringLiteral("breakdownChart"));
    auto* bottom = new QSplitter(Qt::Horizontal, this);
    auto* table = makeRecordTable(breakdown_, QStringLiteral("breakdownTable"), bottom);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->setItemDelegate(new DecimalDelegate(2, table));
    table->setItemDelegateForColumn(0, new QStyledItemDelegate(table)); // ranks
    buildStragglers(bottom);
    bottom->setSizes({450, 600});
    setSizes({480, 300});
}

QWidget* BreakdownTab::buildStragglers(QWidget* parent) {
    auto* stragglers = new QWidget(parent);
    auto* layout = new QVBoxLayout(stragglers);
    layout->setContentsMargins(0, 0, 0, 0);
    heading_ = new QLabel(stragglers);
    heading_->setWordWrap(true);
    layout->addWidget(heading_);
    auto* split = new QSplitter(Qt::Horizontal, stragglers);
    // Readable at 1280x800 and at scale 2: the splitter squeezes the table, not the chart.
    (new RankTimesChartView(rank_times_, split))->setMinimumSize(340, 220);
    auto* table = makeRecordTable(rank_times_, QStringLiteral("rankTimesTable"), split);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->setItemDelegate(new DecimalDelegate(2, table));
    table->setItemDelegateForColumn(0, new QStyledItemDelegate(table)); // rank
    split->setSizes({420, 400});
    auto* vertical = new QSplitter(Qt::Vertical, stragglers);
    vertical->addWidget(split);
    vertical->addWidget(new RankHeatMapView(heat_map_, vertical));
    layout->addWidget(vertical, 1);
    return stragglers;
}

void BreakdownTab::setResults(const std::vector<RunResult>& results) {
    breakdown_->setResults(results);
}

void BreakdownTab::setRuns(const StoredSession& session) {
    // The rank times are shared, not copied, and the hosts are parsed from the header only for the run shown:
    // a 1000-run session's took tens of milliseconds of the window's event loop (bench/window_stall_bench).
    std::vector<RunTimes> runs;
    runs.reserve(session.runs.size());
    for (const StoredRun& run : session.runs)
        runs.push_back({run.run.id, run.run.name, run.run.ranks, run.rank_times, run.run.header_json});
    runs_.swap(runs);
}

void BreakdownTab::showStragglers(std::int64_t run_id) {
    // Without a chosen run: the session's first run with per-rank times, the one with the most ranks.
    const RunTimes* shown = nullptr;
    for (const RunTimes& run : runs_) {
        if (run_id != 0 ? run.id == run_id : !run.times->empty() && (!shown || run.ranks > shown->ranks))
            shown = &run;
    }
    rank_times_->setRankTimes(shown ? *shown->times : std::vector<RankTimesRecord>{});
    heat_map_->setRankTimes(shown ? *shown->times : std::vector<RankTimesRecord>{},
                            shown ? hostsOfRanks(shown->header_json) : std::vector<std::string>{});
    if (!shown || shown->times->empty()) {
        heading_->setText(tr("Per-rank step times: none recorded for this run"));
        return;
    }
    QString heading =
        tr("Per-rank step times of %1 (steady-state means)").arg(QString::fromStdString(shown->name));
    const std::string slow = describeSlowRanks(heat_map_->finding());
    if (!slow.empty()) heading += QLatin1Char('\n') + QString::fromStdString(slow).trimmed();
    heading_->setText(heading);
}

void BreakdownTab::clear() {
    runs_.clear();
    breakdown_->setResults({});
    rank_times_->setRankTimes({});
    heat_map_->setRankTimes({}, {});
}

} // namespace scalebench
