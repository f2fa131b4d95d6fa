// The per-bucket check of the Projection page: the reading, then the table.
#include "bucket_check_view.h"

#include "bucket_check_model.h"
#include "record_table.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace scalebench {

BucketCheckView::BucketCheckView(QWidget* parent)
    : QWidget(parent), model_(new BucketCheckModel(this)), reading_(new QLabel(this)), table_(nullptr) {
    reading_->setObjectName(QStringLiteral("bucketReading"));
    reading_->setWordWrap(true);
    reading_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    reading_->setToolTip(
        tr("Each bucket's all-reduce as the training timed it against the session's sweep at "
           "the same size and rank count: a median ratio within %1-%2 is the fabric's speed")
            .arg(kFabricSpeedLow)
            .arg(kFabricSpeedHigh));
    table_ = makeRecordTable(model_, QStringLiteral("bucketTable"), this);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(false); // the ratio beside its row's other figures
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(reading_);
    layout->addWidget(table_, 1);
}

void BucketCheckView::showSeries(const SeriesModelInputs& series) {
    std::vector<BucketCheck> checks = checkBuckets(series);
    if (checks.empty()) return showReason(QString::fromStdString(whyNoBucketChecks(series)));
    QString reading = QString::fromStdString(describeBucketReading(readBucketChecks(checks)));
    if (!reading.isEmpty()) reading[0] = reading[0].toUpper(); // a sentence of its own
    reading_->setText(reading);
    model_->setChecks(std::move(checks));
    table_->show();
}

void BucketCheckView::showReason(const QString& reason) {
    reading_->setText(tr("Per bucket: %1").arg(reason));
    model_->setChecks({});
    table_->hide();
}

} // namespace scalebench
