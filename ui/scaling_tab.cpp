// The Scaling tab: throughput with its two-sigma band beside speedup with error bars and efficiency (and the
// time-to-target speedup where runs reached a target), for one series of the shown session's results at a
// time; on the Projection page, the performance model's prediction for that series and its buckets' check.
#include "scaling_tab.h"

#include "bucket_check_view.h"
#include "cost_chart_view.h"
#include "decimal_delegate.h"
#include "figure_cautions.h"
#include "performance_model.h"
#include "projection_chart_view.h"
#include "record_table.h"
#include "scaling_chart_view.h"
#include "scaling_model.h"
#include "speedup_chart_view.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>

namespace scalebench {

namespace {

// The series choice after its label.
QHBoxLayout* seriesChoiceRow(QComboBox* series, QWidget* parent) {
    series->setObjectName(QStringLiteral("seriesChoice"));
    series->setToolTip(
        ScalingTab::tr("Runs alike in every plan setting but their rank count form one series; "
                       "the label names the settings in which the session's series differ"));
    series->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(ScalingTab::tr("Series:"), parent));
    row->addWidget(series, 1);
    return row;
}

// The Measured page: the throughput and speedup charts over the table of the figures behind them.
QWidget* makeMeasuredPage(ScalingModel* model, QWidget* pages) {
    auto* split = new QSplitter(Qt::Vertical, pages);
    auto* charts = new QSplitter(Qt::Horizontal, split);
    auto* throughput = new ScalingChartView(model, charts);
    throughput->setObjectName(QStringLiteral("scalingChart"));
    auto* speedup = new SpeedupChartView(model, charts);
    speedup->setObjectName(QStringLiteral("speedupChart"));
    // The figures behind the charts, time to target among them: mean and two sigma over repeats.
    auto* table = makeRecordTable(model, QStringLiteral("scalingTable"), split);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->setItemDelegate(new DecimalDelegate(2, table));
    for (int column : {ScalingModel::Ranks, ScalingModel::TargetReached})
        table->setItemDelegateForColumn(column, new QStyledItemDelegate(table));
    for (int column : {ScalingModel::IdealSamplesPerS, ScalingModel::IdealSpeedup})
        table->setColumnHidden(column, true);
    // Time to target (MLBench's basic metric) beside the throughput's speedup, before the detail columns.
    int position = ScalingModel::Efficiency;
    for (int column :
         {ScalingModel::TargetReached, ScalingModel::TimeToTarget, ScalingModel::TimeToTargetTwoSigma,
          ScalingModel::TimeToTargetSpeedup, ScalingModel::TimeToTargetSpeedupTwoSigma})
        table->horizontalHeader()->moveSection(table->horizontalHeader()->visualIndex(column), ++position);
    split->setSizes({460, 220});
    return split;
}

// "Project to: N ranks", N from 8 to 4096 (64 at first).
QHBoxLayout* projectToRow(QComboBox* project_to, QWidget* page) {
    project_to->setObjectName(QStringLiteral("projectTo"));
    project_to->setToolTip(ScalingTab::tr("The largest rank count the model predicts; it predicts at every "
                                          "power of two and every measured rank count up to it"));
    for (int n = 8; n <= 4096; n *= 2)
        project_to->addItem(QString::number(n), n);
    project_to->setCurrentText(QStringLiteral("64"));
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(ScalingTab::tr("Project to:"), page));
    row->addWidget(project_to);
    row->addWidget(new QLabel(ScalingTab::tr("ranks"), page));
    row->addStretch(1);
    return row;
}

// The Projection page's views, one above the other: the projection and cost charts side by side, the
// projection's table, and the buckets' check.
struct ProjectionViews {
    QSplitter* split;
    ProjectionChartView* chart;
    CostChartView* cost;
    QPlainTextEdit* table;
    BucketCheckView* buckets;
};

ProjectionViews makeProjectionViews(QWidget* page) {
    auto* split = new QSplitter(Qt::Vertical, page);
    auto* charts = new QSplitter(Qt::Horizontal, split);
    auto* chart = new ProjectionChartView(charts);
    chart->setObjectName(QStringLiteral("projectionChart"));
    auto* cost = new CostChartView(charts);
    cost->setObjectName(QStringLiteral("costChart"));
    // formatProjection's table with its notes: why a rank count is extrapolated, CPU contention.
    auto* table = new QPlainTextEdit(split);
    table->setObjectName(QStringLiteral("projectionTable"));
    table->setReadOnly(true);
    table->setLineWrapMode(QPlainTextEdit::NoWrap);
    table->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // Each bucket's measured all-reduce against the sweep's time for its size: at the fabric's speed?
    auto* buckets = new BucketCheckView(split);
    buckets->setObjectName(QStringLiteral("bucketChecks"));
    split->setSizes({380, 300, 220}); // room for the table's notes below its rows
    return {split, chart, cost, table, buckets};
}

} // namespace

ScalingTab::ScalingTab(QWidget* parent)
    : QWidget(parent), model_(new ScalingModel(this)), series_(new QComboBox(this)),
      pages_(new QTabWidget(this)), project_to_(new QComboBox(this)), projection_chart_(nullptr),
      projection_table_(nullptr), bucket_checks_(nullptr) {
    QHBoxLayout* choice_row = seriesChoiceRow(series_, this);

    // Measured: the runs' figures; Projection: the model's prediction for the same series.
    pages_->setObjectName(QStringLiteral("scalingPages"));
    pages_->setDocumentMode(true);
    QWidget* measured = makeMeasuredPage(model_, pages_);
    pages_->addTab(measured, tr("Measured"));

    auto* projection = new QWidget(pages_);
    QHBoxLayout* projection_row = projectToRow(project_to_, projection);
    const ProjectionViews views = makeProjectionViews(projection);
    projection_chart_ = views.chart;
    cost_chart_ = views.cost;
    projection_table_ = views.table;
    bucket_checks_ = views.buckets;
    auto* projection_layout = new QVBoxLayout(projection);
    projection_layout->setContentsMargins(0, 4, 0, 0);
    projection_layout->addLayout(projection_row);
    projection_layout->addWidget(buildCostControls(projection));
    projection_layout->addWidget(views.split, 1);
    pages_->addTab(projection, tr("Projection"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(choice_row);
    layout->addWidget(pages_, 1);
    connect(series_, &QComboBox::currentIndexChanged, this, &ScalingTab::showSeries);
    connect(project_to_, &QComboBox::currentIndexChanged, this, &ScalingTab::showProjection);
    showProjection();
}

// Samples to train, the price of a GPU-hour and a deadline: the cost chart's inputs, and the cheapest N in
// words.
QWidget* ScalingTab::buildCostControls(QWidget* page) {
    auto* row = new QWidget(page);
    samples_to_train_ = new QDoubleSpinBox(row);
    samples_to_train_->setObjectName(QStringLiteral("samplesToTrain"));
    samples_to_train_->setRange(0, 1e15);
    samples_to_train_->setDecimals(0);
    samples_to_train_->setSingleStep(1e6);
    samples_to_train_->setSpecialValueText(tr("none"));
    samples_to_train_->setToolTip(tr(
        "Samples a training takes (epochs x the data set's samples): the time and cost to train at each N"));
    price_ = new QDoubleSpinBox(row);
    price_->setObjectName(QStringLiteral("projectionPrice"));
    price_->setRange(0, 1e6);
    price_->setDecimals(4);
    price_->setSpecialValueText(tr("no price"));
    price_->setToolTip(tr("The price of one GPU-hour (on CPU runs, one rank-hour): the session's cluster's "
                          "price_per_gpu_hour until changed here"));
    currency_ = new QLabel(QStringLiteral("USD"), row);
    deadline_ = new QDoubleSpinBox(row);
    deadline_->setObjectName(QStringLiteral("deadlineHours"));
    deadline_->setRange(0, 1e6);
    deadline_->setDecimals(2);
    deadline_->setSuffix(tr(" h"));
    deadline_->setSpecialValueText(tr("none"));
    deadline_->setToolTip(tr("The time the training must finish in: the cheapest N that meets it is marked"));
    cheapest_ = new QLabel(row);
    cheapest_->setObjectName(QStringLiteral("cheapestForDeadline"));
    cheapest_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Samples to train:"), row));
    layout->addWidget(samples_to_train_);
    layout->addWidget(new QLabel(tr("Price per GPU-hour:"), row));
    layout->addWidget(price_);
    layout->addWidget(currency_);
    layout->addWidget(new QLabel(tr("Deadline:"), row));
    layout->addWidget(deadline_);
    layout->addWidget(cheapest_, 1);
    for (QDoubleSpinBox* box : {samples_to_train_, price_, deadline_})
        connect(box, &QDoubleSpinBox::valueChanged, this, &ScalingTab::showProjection);
    return row;
}

void ScalingTab::setResults(const std::vector<RunResult>& results) {
    const QString chosen = series_->currentText();
    points_ = sessionScaling(results);
    attachCautions(points_, results); // the table marks a point's figures with its runs' reasons
    QStringList labels;
    for (const ScalingPoint& p : points_)
        if (const QString label = QString::fromStdString(p.label); !labels.contains(label)) labels << label;
    {
        const QSignalBlocker quiet(series_);
        series_->clear();
        series_->addItems(labels);
        series_->setCurrentIndex(std::max<qsizetype>(0, labels.indexOf(chosen)));
    }
    series_->setEnabled(labels.size() > 1);
    showSeries();
}

void ScalingTab::setProjectionInputs(const std::vector<SeriesModelInputs>& inputs, const QString& error) {
    projection_inputs_ = inputs;
    projection_error_ = error;
    {
        // The price of the session's cluster (every series ran there); none on this machine.
        const QSignalBlocker quiet(price_);
        price_->setValue(inputs.empty() ? 0 : inputs.front().inputs.price_per_gpu_hour);
        currency_->setText(QString::fromStdString(inputs.empty() ? "USD" : inputs.front().inputs.currency));
    }
    showProjection();
}

void ScalingTab::showProjectionPage() {
    pages_->setCurrentIndex(1);
}

void ScalingTab::showSeries() {
    model_->setPoints(points_, series_->currentText().toStdString());
    showProjection();
}

void ScalingTab::showProjection() {
    const QString label = series_->currentText();
    auto shown = [&](const QString& reason) {
        projection_chart_->showReason(reason);
        projection_table_->setPlainText(reason);
        bucket_checks_->showReason(reason);
        cost_chart_->showReason(reason);
        cheapest_->clear();
    };
    if (!projection_error_.isEmpty())
        return shown(tr("cannot read the model's inputs: %1").arg(projection_error_));
    const auto series =
        std::find_if(projection_inputs_.begin(), projection_inputs_.end(),
                     [&](const SeriesModelInputs& s) { return QString::fromStdString(s.label) == label; });
    if (series == projection_inputs_.end()) {
        // An MLPerf result is scored by its time to train: no step times, nothing for the model to scale.
        const bool mlperf = std::any_of(points_.begin(), points_.end(), [&](const ScalingPoint& p) {
            return QString::fromStdString(p.label) == label && p.mlperf && p.throughput.mean <= 0;
        });
        if (mlperf)
            return shown(tr("'%1' is an MLPerf result: its runs give times to train, not the step times and "
                            "all-reduce sweep the model projects from")
                             .arg(label));
        return shown(projection_inputs_.empty() ? tr("no training series with successful runs to project")
                                                : tr("no model inputs for the series '%1'").arg(label));
    }
    bucket_checks_->showSeries(*series); // measured rank counts only: the chosen N does not change it
    ModelInputs inputs = series->inputs;
    inputs.samples_to_train = samples_to_train_->value();
    inputs.price_per_gpu_hour = price_->value();
    // Every power of two from N0 and every measured rank count, up to the chosen N.
    const int last = project_to_->currentData().toInt();
    std::vector<int> ranks;
    int n0 = last;
    for (const MeasuredPoint& m : inputs.measured) {
        n0 = std::min(n0, m.ranks);
        if (m.ranks <= last) ranks.push_back(m.ranks);
    }
    for (int n = 1; n <= last; n *= 2)
        if (n >= n0) ranks.push_back(n);
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    try {
        const std::vector<Projection> rows = project(inputs, ranks);
        projection_chart_->showProjection(label, inputs, rows);
        projection_table_->setPlainText(QString::fromStdString(formatProjection(inputs, rows)));
        showCost(label, inputs, rows);
    } catch (const std::exception& error) { // no sweep, no buckets: project() says what is missing
        shown(tr("%1: %2").arg(label, QString::fromLocal8Bit(error.what())));
    }
}

// Cost against time to train at every projected N, and the cheapest N that meets the deadline.
void ScalingTab::showCost(const QString& label, const ModelInputs& inputs,
                          const std::vector<Projection>& rows) {
    const QString currency = QString::fromStdString(inputs.currency);
    if (inputs.samples_to_train <= 0) {
        cost_chart_->showReason(tr("give the samples to train"));
        cheapest_->clear();
        return;
    }
    if (inputs.price_per_gpu_hour <= 0) {
        cost_chart_->showReason(tr("no price per GPU-hour: give one here or in the cluster's settings"));
        cheapest_->clear();
        return;
    }
    const double deadline_s = deadline_->value() * 3600;
    const std::optional<Projection> pick =
        deadline_s > 0 ? cheapestForDeadline(rows, deadline_s) : std::nullopt;
    cost_chart_->showCosts(label, currency, rows, pick, deadline_s);
    const QString deadline = QString::number(deadline_->value(), 'g', 4);
    if (pick)
        cheapest_->setText(tr("cheapest for %1 h: %2 ranks, %3 %4")
                               .arg(deadline)
                               .arg(pick->ranks)
                               .arg(pick->cost_to_train, 0, 'f', 2)
                               .arg(currency));
    else if (deadline_s > 0)
        cheapest_->setText(tr("no N up to %1 trains within %2 h").arg(rows.back().ranks).arg(deadline));
    else
        cheapest_->setText(tr("give a deadline: the cheapest N that meets it is marked"));
}

} // namespace scalebench
