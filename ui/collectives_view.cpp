// Collective sweeps at a glance: the bandwidth chart with a busbw/algbw switch above the table of every size.
#include "collectives_view.h"

#include "collectives_model.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace scalebench {

CollectivesView::CollectivesView(QWidget* parent)
    : QWidget(parent), model_(new CollectivesModel(this)), chart_(new CollectivesChartView(model_)),
      table_(new QTableView), bandwidth_(new QComboBox) {
    bandwidth_->setObjectName(QStringLiteral("bandwidthChoice"));
    bandwidth_->addItem(tr("bus bandwidth (busbw)"), static_cast<int>(CollectivesChartView::Bandwidth::Bus));
    bandwidth_->addItem(tr("algorithm bandwidth (algbw)"),
                        static_cast<int>(CollectivesChartView::Bandwidth::Algorithm));
    connect(bandwidth_, &QComboBox::currentIndexChanged, this, [this] {
        chart_->setBandwidth(static_cast<CollectivesChartView::Bandwidth>(bandwidth_->currentData().toInt()));
    });

    table_->setObjectName(QStringLiteral("collectiveTable"));
    table_->setModel(model_);
    table_->setAlternatingRowColors(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    chart_->setObjectName(QStringLiteral("collectivesChart"));

    auto* controls = new QHBoxLayout;
    auto* label = new QLabel(tr("Chart:"));
    label->setBuddy(bandwidth_);
    controls->addWidget(label);
    controls->addWidget(bandwidth_);
    controls->addStretch(1);
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(chart_);
    splitter->addWidget(table_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(splitter, 1);
}

void CollectivesView::setRecords(std::vector<CollectiveRecord> records) {
    model_->setRecords(std::move(records));
}

void CollectivesView::setResults(const std::vector<RunResult>& results) {
    model_->setResults(results);
}

} // namespace scalebench
