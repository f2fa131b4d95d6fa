// The run group form's training rows: the workload, its dataset and the dataset's folder, precision, model
// preset, sequence length, batch per GPU or a global batch, and when to stop (steps or epochs, or a target in
// the workload's own metric).
#include "training_section.h"

#include "analysis.h"
#include "form_widgets.h"
#include "workload_catalog.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
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
    data_dir_ = named(new QLineEdit(this), "dataDir");
    data_dir_->setPlaceholderText(tr("folder: data_root/<dataset>"));
    data_dir_->setToolTip(
        tr("The data set's folder where the run runs; relative: under the cluster's data_root "
           "(this machine: /usr/share/datasets)"));
    auto* dataset_row = new QHBoxLayout;
    dataset_row->addWidget(dataset_, 1);
    dataset_row->addWidget(data_dir_, 1);
    form->addRow(tr("Dataset"), dataset_row);
    precision_ = named(new QComboBox(this), "precision");
    form->addRow(tr("Precision"), precision_);
    preset_ = named(new QComboBox(this), "preset");
    preset_->setToolTip(tr("Model size (Llama 7B, BERT large, ...), for workloads with presets"));
    form->addRow(tr("Preset"), preset_);
    seq_len_ = named(new QSpinBox(this), "seqLen");
    seq_len_->setRange(leastAccepted(engine_cli::accepts::seq_len), 1 << 20);
    seq_len_->setSpecialValueText(tr("the workload's"));
    seq_len_->setToolTip(tr("Tokens per sequence, for workloads with sequences"));
    form->addRow(tr("Sequence length"), seq_len_);
    batch_ = named(new QSpinBox(this), "batchPerGpu");
    batch_->setRange(leastAccepted(engine_cli::accepts::batch_per_rank), 1 << 20);
    global_batch_ = named(new QSpinBox(this), "globalBatch");
    global_batch_->setRange(leastAccepted(engine_cli::accepts::global_batch), 1 << 30);
    global_batch_->setPrefix(tr("global "));
    global_batch_->setSpecialValueText(tr("global: per GPU x GPUs"));
    global_batch_->setToolTip(
        tr("Samples a step over all GPUs, the same at every GPU count: each GPU runs micro-"
           "batches of at most the batch per GPU, accumulating their gradients"));
    auto* batch_row = new QHBoxLayout;
    batch_row->addWidget(batch_, 1);
    batch_row->addWidget(global_batch_, 1);
    form->addRow(tr("Batch per GPU"), batch_row);
    addStopRow(form);

    connect(dataset_, &QComboBox::currentIndexChanged, this, &TrainingSection::changed);
    connect(precision_, &QComboBox::currentIndexChanged, this, &TrainingSection::changed);
    connect(preset_, &QComboBox::currentIndexChanged, this, &TrainingSection::changed);
    connect(seq_len_, &QSpinBox::valueChanged, this, &TrainingSection::changed);
    connect(batch_, &QSpinBox::valueChanged, this, &TrainingSection::changed);
    connect(steps_, &QSpinBox::valueChanged, this, &TrainingSection::changed);
    connect(epochs_, &QDoubleSpinBox::valueChanged, this, &TrainingSection::changed);
    connect(global_batch_, &QSpinBox::valueChanged, this, &TrainingSection::changed);
    connect(data_dir_, &QLineEdit::textChanged, this, &TrainingSection::changed);
    connect(target_, &QDoubleSpinBox::valueChanged, this, &TrainingSection::changed);
}

// Steps (at most), or stop earlier at a target.
void TrainingSection::addStopRow(QFormLayout* form) {
    steps_ = named(new QSpinBox(this), "steps");
    steps_->setRange(leastAccepted(engine_cli::accepts::steps), 100000000);
    epochs_ = named(new QDoubleSpinBox(this), "epochs");
    epochs_->setRange(leastAccepted(engine_cli::accepts::epochs), 1e6);
    epochs_->setDecimals(2);
    epochs_->setPrefix(tr("or "));
    epochs_->setSuffix(tr(" epochs"));
    epochs_->setSpecialValueText(tr("(steps)"));
    epochs_->setToolTip(tr("Passes over the training set instead of steps (the engine counts them)"));
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
    stop_row->addWidget(epochs_, 1);
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
    global_batch_->setValue(g.global_batch);
    data_dir_->setText(qs(g.data_dir));
    steps_->setValue(g.steps);
    epochs_->setValue(g.epochs);
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
    global_batch_->setEnabled(!sweep);
    data_dir_->setEnabled(!sweep);
    steps_->setEnabled(!sweep && g.epochs <= 0);
    epochs_->setEnabled(!sweep);
}

void TrainingSection::writeGroup(RunGroup& g) const {
    const std::string dataset = dataset_->currentText().toStdString();
    // A target left at the seed's for the old data set follows the data set: the seed's for the new one.
    if (const WorkloadInfo* info = findWorkload(g.workload);
        info && dataset != g.dataset && target_->value() == defaultTarget(*info, g.dataset)) {
        g.target = defaultTarget(*info, dataset);
        const QSignalBlocker quiet(target_); // the field shows it, and keeps it through later edits
        target_->setValue(g.target);
    } else {
        g.target = target_->value();
    }
    g.dataset = dataset;
    g.precision = precision_->currentText().toStdString();
    if (batch_->value() != g.batch_per_rank)
        g.batch_per_rank_by_ranks.clear(); // one batch for every count now
    g.batch_per_rank = batch_->value();
    g.global_batch = global_batch_->value();
    g.data_dir = data_dir_->text().trimmed().toStdString();
    g.steps = steps_->value();
    g.epochs = epochs_->value();
    g.preset = preset_->currentText().toStdString();
    g.seq_len = seq_len_->value();
}

} // namespace scalebench
