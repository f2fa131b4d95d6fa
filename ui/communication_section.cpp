// The run group form's communication rows: the backend and device, gradient buckets and overlap; for a
// collective sweep, the collectives, element types and in-place choice it measures.
#include "communication_section.h"

#include "form_widgets.h"
#include "workload_catalog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <algorithm>

namespace scalebench {
namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

} // namespace

CommunicationSection::CommunicationSection(QWidget* parent) : QWidget(parent) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    backend_ = named(new QComboBox(this), "backend");
    for (const auto& b : kBackends)
        backend_->addItem(qs(b));
    backend_->setToolTip(tr("nccl needs GPUs on every node"));
    device_ = named(new QComboBox(this), "device");
    for (const auto& d : kDevices)
        device_->addItem(qs(d));
    device_->setToolTip(
        tr("auto: each rank on the GPU of its node-local rank where the node has GPUs, else on "
           "the CPU; cuda: stop where a rank has no GPU"));
    bucket_ = named(new QDoubleSpinBox(this), "bucketMb");
    bucket_->setRange(0.001, 4096);
    bucket_->setDecimals(2);
    bucket_->setSuffix(QStringLiteral(" MB"));
    overlap_ = named(new QCheckBox(tr("overlap with backward"), this), "overlap");
    auto* comm_row = new QHBoxLayout;
    comm_row->addWidget(backend_);
    comm_row->addWidget(new QLabel(tr("buckets"), this));
    comm_row->addWidget(bucket_, 1);
    comm_row->addWidget(overlap_);
    form->addRow(tr("Backend"), comm_row);
    form->addRow(tr("Device"), device_);
    form->addRow(buildSweepRows());

    connect(backend_, &QComboBox::currentIndexChanged, this, &CommunicationSection::changed);
    connect(device_, &QComboBox::currentIndexChanged, this, &CommunicationSection::changed);
    connect(bucket_, &QDoubleSpinBox::valueChanged, this, &CommunicationSection::changed);
    connect(overlap_, &QCheckBox::toggled, this, &CommunicationSection::changed);
    for (auto* check : collectives_)
        connect(check, &QCheckBox::toggled, this, &CommunicationSection::changed);
    for (auto* check : dtypes_)
        connect(check, &QCheckBox::toggled, this, &CommunicationSection::changed);
    connect(in_place_, &QComboBox::currentIndexChanged, this, &CommunicationSection::changed);
}

// A sweep's collectives, element types and in-place choice, in a form of their own.
QWidget* CommunicationSection::buildSweepRows() {
    sweep_box_ = new QWidget(this);
    auto* sweep = new QFormLayout(sweep_box_);
    sweep->setContentsMargins(0, 0, 0, 0);
    auto* collectives_row = new QHBoxLayout;
    for (const auto& c : kCollectiveNames) {
        auto* check = named(new QCheckBox(qs(c), sweep_box_), ("collective-" + c).c_str());
        collectives_.push_back(check);
        collectives_row->addWidget(check);
    }
    collectives_row->addStretch();
    auto* dtypes_row = new QHBoxLayout;
    for (const auto& d : kDtypes) {
        auto* check = named(new QCheckBox(qs(d), sweep_box_), ("dtype-" + d).c_str());
        dtypes_.push_back(check);
        dtypes_row->addWidget(check);
    }
    in_place_ = named(new QComboBox(sweep_box_), "inPlace");
    for (const auto& choice : kInPlaceChoices)
        in_place_->addItem(qs(choice));
    dtypes_row->addWidget(new QLabel(tr("in place"), sweep_box_));
    dtypes_row->addWidget(in_place_);
    dtypes_row->addStretch();
    sweep->addRow(tr("Collectives"), collectives_row);
    sweep->addRow(tr("Types"), dtypes_row);
    return sweep_box_;
}

void CommunicationSection::readGroup(const RunGroup& g) {
    const QSignalBlocker quiet(this);
    const WorkloadInfo* info = findWorkload(g.workload);
    const bool sweep = info && isCollectiveSweep(*info);
    backend_->setCurrentText(qs(g.backend));
    device_->setCurrentText(qs(g.device));
    bucket_->setValue(g.bucket_mb);
    overlap_->setChecked(g.overlap);
    for (std::size_t i = 0; i < collectives_.size(); ++i)
        collectives_[i]->setChecked(contains(g.collectives, kCollectiveNames[i]));
    for (std::size_t i = 0; i < dtypes_.size(); ++i)
        dtypes_[i]->setChecked(contains(g.dtypes, kDtypes[i]));
    in_place_->setCurrentText(qs(g.in_place));
    sweep_box_->setEnabled(sweep);
    bucket_->setEnabled(!sweep);
    overlap_->setEnabled(!sweep);
}

void CommunicationSection::writeGroup(RunGroup& g) const {
    g.backend = backend_->currentText().toStdString();
    g.device = device_->currentText().toStdString();
    g.bucket_mb = bucket_->value();
    g.overlap = overlap_->isChecked();
    const WorkloadInfo* info = findWorkload(g.workload);
    if (!info || !isCollectiveSweep(*info)) return;
    g.collectives.clear();
    for (std::size_t i = 0; i < collectives_.size(); ++i)
        if (collectives_[i]->isChecked()) g.collectives.push_back(kCollectiveNames[i]);
    g.dtypes.clear();
    for (std::size_t i = 0; i < dtypes_.size(); ++i)
        if (dtypes_[i]->isChecked()) g.dtypes.push_back(kDtypes[i]);
    g.in_place = in_place_->currentText().toStdString();
}

} // namespace scalebench
