// The run group form's GPU counts: one run per count (typed, or the powers of two up to a maximum) and the
// GPUs per node.
#include "gpu_counts_section.h"

#include "default_rank_counts.h"
#include "form_widgets.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSpinBox>

namespace scalebench {
namespace {

// "1, 2, 4" or "1 2 4" -> {1, 2, 4}; a word that is not a positive integer is named in `error`.
std::vector<int> parseRanks(const QString& text, QString& error) {
    std::vector<int> ranks;
    for (const QString& word :
         text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int n = word.toInt(&ok);
        if (!ok || n < 1) {
            error = QObject::tr("GPU counts: '%1' is not a positive whole number").arg(word);
            return {};
        }
        ranks.push_back(n);
    }
    if (ranks.empty()) error = QObject::tr("GPU counts: give at least one, e.g. 1, 2, 4, 8");
    return ranks;
}

} // namespace

GpuCountsSection::GpuCountsSection(QWidget* parent) : QWidget(parent) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    ranks_ = named(new QLineEdit(this), "gpuCounts");
    ranks_->setToolTip(tr("One run per GPU count (one rank per GPU), e.g. 1, 2, 4, 8"));
    max_gpus_ = named(new QSpinBox(this), "maxGpus");
    max_gpus_->setRange(1, 65536);
    max_gpus_->setValue(8);
    max_gpus_->setPrefix(tr("up to "));
    auto* powers = named(new QPushButton(tr("1, 2, 4, ..."), this), "powersOfTwo");
    powers->setToolTip(tr("Fill in the powers of two up to the maximum"));
    auto* ranks_row = new QHBoxLayout;
    ranks_row->addWidget(ranks_, 1);
    ranks_row->addWidget(max_gpus_);
    ranks_row->addWidget(powers);
    form->addRow(tr("GPU counts"), ranks_row);

    gpus_per_node_ = named(new QSpinBox(this), "gpusPerNode");
    gpus_per_node_->setRange(0, 1024);
    gpus_per_node_->setSpecialValueText(tr("the cluster's"));
    gpus_per_node_->setToolTip(tr("Ranks per node: 8 GPUs at 4 per node run on 2 nodes x 4"));
    form->addRow(tr("GPUs per node"), gpus_per_node_);

    connect(powers, &QPushButton::clicked, this,
            [this] { ranks_->setText(ranksText(powersOfTwoUpTo(max_gpus_->value()))); });
    connect(ranks_, &QLineEdit::textChanged, this, &GpuCountsSection::changed);
    connect(gpus_per_node_, &QSpinBox::valueChanged, this, &GpuCountsSection::changed);
}

void GpuCountsSection::readGroup(const RunGroup& group) {
    const QSignalBlocker quiet(this);
    ranks_->setText(ranksText(group.ranks));
    gpus_per_node_->setValue(group.gpus_per_node);
}

QString GpuCountsSection::writeGroup(RunGroup& group) const {
    QString error;
    const std::vector<int> ranks = parseRanks(ranks_->text(), error);
    if (error.isEmpty()) group.ranks = ranks;
    group.gpus_per_node = gpus_per_node_->value();
    return error;
}

QString GpuCountsSection::ranksText(const std::vector<int>& ranks) {
    QStringList words;
    for (int n : ranks)
        words << QString::number(n);
    return words.join(QStringLiteral(", "));
}

} // namespace scalebench
