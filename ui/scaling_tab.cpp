// The Scaling tab: throughput with its two-sigma band beside speedup with error bars and efficiency (and the
// time-to-target speedup where runs reached a target), for one series of the shown session's results at a
// time.
#include "scaling_tab.h"

#include "decimal_delegate.h"
#include "record_table.h"
#include "scaling_chart_view.h"
#include "scaling_model.h"
#include "speedup_chart_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace scalebench {

ScalingTab::ScalingTab(QWidget* parent)
    : QWidget(parent), model_(new ScalingModel(this)), series_(new QComboBox(this)) {
    series_->setObjectName(QStringLiteral("seriesChoice"));
    series_->setToolTip(tr("Runs alike in every plan setting but their rank count form one series; the label "
                           "names the settings in which the session's series differ"));
    series_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* choice_row = new QHBoxLayout;
    choice_row->addWidget(new QLabel(tr("Series:"), this));
    choice_row->addWidget(series_, 1);

    auto* split = new QSplitter(Qt::Vertical, this);
    auto* charts = new QSplitter(Qt::Horizontal, split);
    auto* throughput = new ScalingChartView(model_, charts);
    throughput->setObjectName(QStringLiteral("scalingChart"));
    auto* speedup = new SpeedupChartView(model_, charts);
    speedup->setObjectName(QStringLiteral("speedupChart"));
    // The figures behind the charts, time to target among them: mean and two sigma over repeats.
    auto* table = makeRecordTable(model_, QStringLiteral("scalingTable"), split);
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

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(choice_row);
    layout->addWidget(split, 1);
    connect(series_, &QComboBox::currentIndexChanged, this, &ScalingTab::showSeries);
}

void ScalingTab::setResults(const std::vector<RunResult>& results) {
    const QString chosen = series_->currentText();
    points_ = sessionScaling(results);
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

void ScalingTab::showSeries() {
    model_->setPoints(points_, series_->currentText().toStdString());
}

} // namespace scalebench
