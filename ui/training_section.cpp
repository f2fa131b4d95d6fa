// The run group form's training rows: the workload and its dataset, precision, model preset, sequence length,
// batch per GPU, and when to stop (a number of steps, or a target in the workload's own metric).
#include "training_section.h"

#include "analysis.h"
#include "form_widgets.h"
#include "workload_catalog.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

namespace scalebench {
namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

// The choices, and `current` among them even when the workload does not list it.
void setChoices(QComboBox* box, const std::vector<std::string>& choices, const std::string& current,
                bool keep_current) {
    box->clear();
    for (const auto& choice : choices)
        box->addItem(qs(choice));
    if (keep_current && box->findText(qs(current)) < 0) box->addItem(qs(current));
    box->setCurrentText(qs(current));
}

} // namespace

TrainingSection::TrainingSection(QWidget* parent) : QWidget(parent) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    workload_ = named(new QLabel(this), "workload");
    dataset_ = named(new QComboBox(this), "dataset");
    form->addRow(tr("Workload"), workload_);
    form->addRow(tr("Dataset"), dataset_);
    precision_ = named(new QComboBox(this), "precision");
    form->addRow(tr("Precision"), precision_);
    preset_ = named(new QComboBox(this), "preset");
    preset_->setToolTip(tr("Model size (Llama 7B, BERT large, ...), for workloads with presets"));
    form->addRow(tr("Preset"), preset_);
    seq_len_ = named(new QSpinBox(this), "seqLen");
    seq_len_->setRange(0, 1 << 20);
    seq_len_->setSpecialValueText(tr("the workload's"));
    seq_len_->setToolTip(tr("Tokens per sequence, for workloads with sequences"));
    form->addRow(tr("Sequence length"), seq_len_);
    batch_ = named(new QSpinBox(this), "batchPerGpu");
    batch_->setRange(1, 1 << 20);
    form->addRow(tr("Batch per GPU"), batch_);
    addStopRow(form);

    connect(dataset_, &QComboBox::currentIndexChanged, this, &TrainingSection::changed);
    connect(precision_, &QComboBox::currentIndexChanged, this, &TrainingSection::changed);
    connect(preset_, &QComboBox::currentIndexChanged, this, &TrainingSection::changed);
    connect(seq_len_, &QSpinBox::valueChanged, this, &TrainingSection::changed);
    connect(batch_, &QSpinBox::valueChanged, this, &TrainingSection::changed);
    connect(steps_, &QSpinBox::valueChanged, this, &TrainingSection::changed);
    connect(target_, &QDoubleSpinBox::valueChanged, this, &TrainingSection::changed);
}

// Steps (at most), or stop earlier at a target.
void TrainingSection::addStopRow(QFormLayout* form) {
    steps_ = named(new QSpinBox(this), "steps");
    steps_->setRange(1, 100000000);
    target_ = named(new QDoubleSpinBox(this), "targetAccuracy");
    target_->setRange(0, 100);
    target_->setDecimals(2);
    target_->setSuffix(QStringLiteral(" %"));
    target_->setSpecialValueText(tr("off"));
    target_->setToolTip(
        tr("Time to target: stop when the evaluation reaches this value of the workload's metric"));
    target_label_ = named(new QLabel(tr("or at accuracy"), this), "targetLabel");
    auto* stop_row = new QHBoxLayout;
    stop_row->addWidget(steps_, 1);
    stop_row->addWidget(target_label_);
    stop_row->addWidget(target_, 1);
    form->addRow(tr("Steps (at most)"), stop_row);
}

void TrainingSection::readGroup(const RunGroup& g) {
    const QSignalBlocker quiet(this);
    const WorkloadInfo* info = findWorkload(g.workload);
    const bool sweep = info && isCollectiveSweep(*info);
    workload_->setText(info ? qs(info->name + " (" + info->group + ")") : qs(g.workload));
    workload_->setToolTip(info ? qs(info->description + "\n" + info->source) : QString());
    setChoices(dataset_, info ? info->datasets : std::vector<std::string>{}, g.dataset, true);
    setChoices(precision_, info ? info->precisions : std::vector<std::string>{}, g.precision, true);
    setChoices(preset_, info ? info->presets : std::vector<std::string>{}, g.preset, false);
    seq_len_->setValue(g.seq_len);
    batch_->setValue(g.batch_per_rank);
    steps_->setValue(g.steps);
    // The target in the workload's own metric: accuracy in %, BLEU, perplexity or loss as they are.
    const std::string metric = info ? info->eval_metric : "accuracy";
    const auto style = evalMetricStyle(metric);
    target_label_->setText(tr("or at %1").arg(qs(style.label)));
    target_->setSuffix(metric == "accuracy" ? QStringLiteral(" %") : QString());
    target_->setRange(0, metric == "accuracy" ? 100 : 1e9);
    target_->setValue(g.target); // in the unit shown, as the plan writes it
    target_->setEnabled(!sweep);
    preset_->setEnabled(info && !info->presets.empty());
    seq_len_->setEnabled(info && info->seq_len > 0);
    batch_->setEnabled(!sweep);
    steps_->setEnabled(!sweep);
}

void TrainingSection::writeGroup(RunGroup& g) const {
    g.dataset = dataset_->currentText().toStdString();
    g.precision = precision_->currentText().toStdString();
    g.batch_per_rank = batch_->value();
    g.steps = steps_->value();
    g.target = target_->value();
    g.preset = preset_->currentText().toStdString();
    g.seq_len = seq_len_->value();
}

} // namespace scalebench
