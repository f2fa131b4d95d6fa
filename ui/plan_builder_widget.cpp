// Builds a plan: workloads from the catalog, GPU counts, precision, batch, stopping rule, communication,
// environment; previews its TOML and the job script of each run for a chosen cluster; opens, saves, launches.
#include "plan_builder_widget.h"

#include "analysis.h"
#include "job_preview.h"
#include "plan_writer.h"
#include "workload_catalog.h"
#include "workload_catalog_model.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTreeView>
#include <QVBoxLayout>
#include <stdexcept>

namespace scalebench {
namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

QString ranksText(const std::vector<int>& ranks) {
    QStringList words;
    for (int n : ranks)
        words << QString::number(n);
    return words.join(QStringLiteral(", "));
}

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

QString groupTitle(const RunGroup& g) {
    return QObject::tr("%1 on %2\nGPUs %3").arg(qs(g.workload), qs(g.dataset), ranksText(g.ranks));
}

template <typename Widget> Widget* named(Widget* widget, const char* name) {
    widget->setObjectName(QString::fromLatin1(name));
    return widget;
}

QPlainTextEdit* codeView(const QString& name, QWidget* parent) {
    auto* view = new QPlainTextEdit(parent);
    view->setObjectName(name);
    view->setReadOnly(true);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return view;
}

} // namespace

PlanBuilderWidget::PlanBuilderWidget(QWidget* parent)
    : QWidget(parent), catalog_(new WorkloadCatalogModel(this)) {
    qRegisterMetaType<RunPlan>();
    plan_.name = "new-plan";
    clusters_ = {localMachine()};
    buildLayout();
    addWorkload(workloadCatalog().front().name);
}

void PlanBuilderWidget::buildLayout() {
    auto* top = new QHBoxLayout;
    name_ = new QLineEdit(qs(plan_.name), this);
    name_->setObjectName(QStringLiteral("planName"));
    description_ = new QLineEdit(this);
    description_->setObjectName(QStringLiteral("planDescription"));
    description_->setPlaceholderText(tr("what this plan measures"));
    repeats_ = new QSpinBox(this);
    repeats_->setObjectName(QStringLiteral("repeats"));
    repeats_->setRange(1, 100);
    repeats_->setToolTip(tr("Every run is repeated: figures are the mean and two standard deviations"));
    top->addWidget(new QLabel(tr("Plan name"), this));
    top->addWidget(name_, 2);
    top->addWidget(new QLabel(tr("Description"), this));
    top->addWidget(description_, 3);
    top->addWidget(new QLabel(tr("Repeats"), this));
    top->addWidget(repeats_);

    // Left: the catalog and the plan's run groups.
    auto* left = new QWidget(this);
    auto* left_layout = new QVBoxLayout(left);
    left_layout->setContentsMargins(0, 0, 0, 0);
    catalog_view_ = new QTreeView(left);
    catalog_view_->setObjectName(QStringLiteral("workloadTree"));
    catalog_view_->setModel(catalog_);
    catalog_view_->expandAll();
    catalog_view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    catalog_view_->header()->setStretchLastSection(true);
    catalog_view_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    auto* add = new QPushButton(tr("Add to plan"), left);
    add->setObjectName(QStringLiteral("addWorkload"));
    groups_ = new QListWidget(left);
    groups_->setObjectName(QStringLiteral("runGroups"));
    groups_->setWordWrap(true);
    auto* remove = new QPushButton(tr("Remove run group"), left);
    remove->setObjectName(QStringLiteral("removeGroup"));
    left_layout->addWidget(new QLabel(tr("Workloads"), left));
    left_layout->addWidget(catalog_view_, 3);
    left_layout->addWidget(add);
    left_layout->addWidget(new QLabel(tr("Run groups in this plan"), left));
    left_layout->addWidget(groups_, 2);
    left_layout->addWidget(remove);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(buildGroupForm());
    split->addWidget(buildPreviews());
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 1);
    split->setSizes({270, 420, 410});
    split->setChildrenCollapsible(false);

    error_label_ = new QLabel(this);
    error_label_->setObjectName(QStringLiteral("planError"));
    error_label_->setWordWrap(true);
    error_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_label_->setStyleSheet(QStringLiteral("color: #b00020;"));
    auto* open = new QPushButton(tr("Open plan..."), this);
    open->setObjectName(QStringLiteral("openPlan"));
    auto* save = new QPushButton(tr("Save plan..."), this);
    save->setObjectName(QStringLiteral("savePlan"));
    launch_ = new QPushButton(tr("Launch"), this);
    launch_->setObjectName(QStringLiteral("launch"));
    launch_->setDefault(true);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(error_label_, 1);
    bottom->addWidget(open);
    bottom->addWidget(save);
    bottom->addWidget(launch_);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    layout->addLayout(bottom);

    connectPlanControls(add, remove, open, save);
}

// The plan's name, description and repeats; the catalog and run groups; Open, Save and Launch.
void PlanBuilderWidget::connectPlanControls(QPushButton* add, QPushButton* remove, QPushButton* open,
                                            QPushButton* save) {
    connect(name_, &QLineEdit::textEdited, this, [this](const QString& t) {
        plan_.name = t.toStdString();
        refresh();
    });
    connect(description_, &QLineEdit::textEdited, this, [this](const QString& t) {
        plan_.description = t.toStdString();
        refresh();
    });
    connect(repeats_, &QSpinBox::valueChanged, this, [this](int n) {
        if (loading_) return;
        plan_.repeats = n;
        refresh();
    });
    const auto addSelected = [this] {
        const QString w = catalog_view_->currentIndex()
                              .siblingAtColumn(0)
                              .data(WorkloadCatalogModel::WorkloadRole)
                              .toString();
        if (!w.isEmpty()) addWorkload(w.toStdString());
    };
    connect(add, &QPushButton::clicked, this, addSelected);
    connect(catalog_view_, &QTreeView::doubleClicked, this, addSelected);
    connect(groups_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (!loading_) selectGroup(row);
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (current_ < 0) return;
        plan_.groups.erase(plan_.groups.begin() + current_);
        current_ = std::min(current_, static_cast<int>(plan_.groups.size()) - 1);
        refresh();
        selectGroup(current_);
    });
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open plan"), {}, tr("Plans (*.toml)"));
        if (!path.isEmpty()) openPlan(path);
    });
    connect(save, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save plan"), qs(plan_.name) + ".toml",
                                                          tr("Plans (*.toml)"));
        if (!path.isEmpty()) savePlan(path);
    });
    connect(launch_, &QPushButton::clicked, this, [this] {
        if (error_.isEmpty()) emit launchRequested(valid_plan_, selectedCluster());
    });
}

QWidget* PlanBuilderWidget::buildGroupForm() {
    auto* box = new QGroupBox(tr("Run group"), this);
    box->setObjectName(QStringLiteral("runGroup"));
    form_ = box;
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    workload_ = named(new QLabel(box), "workload");
    dataset_ = named(new QComboBox(box), "dataset");
    form->addRow(tr("Workload"), workload_);
    form->addRow(tr("Dataset"), dataset_);

    addGpuCountRows(box, form);
    addTrainingRows(box, form);
    addCommunicationRows(box, form);
    addEnvironmentRows(box, form);
    connectGroupForm();
    return box;
}

// GPU counts (one run per count, or the powers of two up to a maximum) and GPUs per node.
void PlanBuilderWidget::addGpuCountRows(QWidget* box, QFormLayout* form) {
    ranks_ = named(new QLineEdit(box), "gpuCounts");
    ranks_->setToolTip(tr("One run per GPU count (one rank per GPU), e.g. 1, 2, 4, 8"));
    max_gpus_ = named(new QSpinBox(box), "maxGpus");
    max_gpus_->setRange(1, 65536);
    max_gpus_->setValue(8);
    max_gpus_->setPrefix(tr("up to "));
    auto* powers = named(new QPushButton(tr("1, 2, 4, ..."), box), "powersOfTwo");
    powers->setToolTip(tr("Fill in the powers of two up to the maximum"));
    auto* ranks_row = new QHBoxLayout;
    ranks_row->addWidget(ranks_, 1);
    ranks_row->addWidget(max_gpus_);
    ranks_row->addWidget(powers);
    form->addRow(tr("GPU counts"), ranks_row);

    gpus_per_node_ = named(new QSpinBox(box), "gpusPerNode");
    gpus_per_node_->setRange(0, 1024);
    gpus_per_node_->setSpecialValueText(tr("the cluster's"));
    gpus_per_node_->setToolTip(tr("Ranks per node: 8 GPUs at 4 per node run on 2 nodes x 4"));
    form->addRow(tr("GPUs per node"), gpus_per_node_);

    connect(powers, &QPushButton::clicked, this, [this] {
        QStringList counts;
        for (int n = 1; n <= max_gpus_->value(); n *= 2)
            counts << QString::number(n);
        ranks_->setText(counts.join(QStringLiteral(", ")));
    });
}

// Precision, model preset, sequence length, batch per GPU, and when to stop (steps or a target).
void PlanBuilderWidget::addTrainingRows(QWidget* box, QFormLayout* form) {
    precision_ = named(new QComboBox(box), "precision");
    form->addRow(tr("Precision"), precision_);
    preset_ = named(new QComboBox(box), "preset");
    preset_->setToolTip(tr("Model size (Llama 7B, BERT large, ...), for workloads with presets"));
    form->addRow(tr("Preset"), preset_);
    seq_len_ = named(new QSpinBox(box), "seqLen");
    seq_len_->setRange(0, 1 << 20);
    seq_len_->setSpecialValueText(tr("the workload's"));
    seq_len_->setToolTip(tr("Tokens per sequence, for workloads with sequences"));
    form->addRow(tr("Sequence length"), seq_len_);
    batch_ = named(new QSpinBox(box), "batchPerGpu");
    batch_->setRange(1, 1 << 20);
    form->addRow(tr("Batch per GPU"), batch_);
    steps_ = named(new QSpinBox(box), "steps");
    steps_->setRange(1, 100000000);
    target_ = named(new QDoubleSpinBox(box), "targetAccuracy");
    target_->setRange(0, 100);
    target_->setDecimals(2);
    target_->setSuffix(QStringLiteral(" %"));
    target_->setSpecialValueText(tr("off"));
    target_->setToolTip(
        tr("Time to target: stop when the evaluation reaches this value of the workload's metric"));
    target_label_ = named(new QLabel(tr("or at accuracy"), box), "targetLabel");
    auto* stop_row = new QHBoxLayout;
    stop_row->addWidget(steps_, 1);
    stop_row->addWidget(target_label_);
    stop_row->addWidget(target_, 1);
    form->addRow(tr("Steps (at most)"), stop_row);
}

// The backend, gradient buckets and overlap; the collectives, types and in-place choice of a sweep.
void PlanBuilderWidget::addCommunicationRows(QWidget* box, QFormLayout* form) {
    backend_ = named(new QComboBox(box), "backend");
    for (const auto& b : kBackends)
        backend_->addItem(qs(b));
    backend_->setToolTip(tr("nccl needs GPUs on every node"));
    bucket_ = named(new QDoubleSpinBox(box), "bucketMb");
    bucket_->setRange(0.001, 4096);
    bucket_->setDecimals(2);
    bucket_->setSuffix(QStringLiteral(" MB"));
    overlap_ = named(new QCheckBox(tr("overlap with backward"), box), "overlap");
    auto* comm_row = new QHBoxLayout;
    comm_row->addWidget(backend_);
    comm_row->addWidget(new QLabel(tr("buckets"), box));
    comm_row->addWidget(bucket_, 1);
    comm_row->addWidget(overlap_);
    form->addRow(tr("Backend"), comm_row);

    sweep_box_ = new QWidget(box);
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
    form->addRow(sweep_box_);
}

// The runs' environment variables, edited in a table.
void PlanBuilderWidget::addEnvironmentRows(QWidget* box, QFormLayout* form) {
    env_ = named(new QTableWidget(0, 2, box), "environment");
    env_->setHorizontalHeaderLabels({tr("Variable"), tr("Value")});
    env_->horizontalHeader()->setStretchLastSection(true);
    env_->setColumnWidth(0, 150);
    env_->verticalHeader()->hide();
    env_->setMinimumHeight(90);
    auto* add_env = named(new QPushButton(tr("Add variable"), box), "addVariable");
    auto* remove_env = named(new QPushButton(tr("Remove"), box), "removeVariable");
    auto* env_buttons = new QHBoxLayout;
    env_buttons->addWidget(add_env);
    env_buttons->addWidget(remove_env);
    env_buttons->addStretch();
    auto* env_column = new QVBoxLayout;
    env_column->addWidget(env_, 1);
    env_column->addLayout(env_buttons);
    form->addRow(tr("Environment"), env_column);

    connect(add_env, &QPushButton::clicked, this, [this] {
        const int row = env_->rowCount();
        env_->insertRow(row);
        env_->setCurrentCell(row, 0);
        env_->editItem(env_->item(row, 0));
    });
    connect(remove_env, &QPushButton::clicked, this, [this] {
        if (env_->currentRow() < 0) return;
        env_->removeRow(env_->currentRow());
        formToGroup();
    });
}

void PlanBuilderWidget::connectGroupForm() {
    const auto changed = [this] { formToGroup(); };
    connect(dataset_, &QComboBox::currentIndexChanged, this, changed);
    connect(ranks_, &QLineEdit::textChanged, this, changed);
    connect(gpus_per_node_, &QSpinBox::valueChanged, this, changed);
    connect(precision_, &QComboBox::currentIndexChanged, this, changed);
    connect(batch_, &QSpinBox::valueChanged, this, changed);
    connect(steps_, &QSpinBox::valueChanged, this, changed);
    connect(target_, &QDoubleSpinBox::valueChanged, this, changed);
    connect(preset_, &QComboBox::currentIndexChanged, this, changed);
    connect(seq_len_, &QSpinBox::valueChanged, this, changed);
    connect(backend_, &QComboBox::currentIndexChanged, this, changed);
    connect(bucket_, &QDoubleSpinBox::valueChanged, this, changed);
    connect(overlap_, &QCheckBox::toggled, this, changed);
    for (auto* check : collectives_)
        connect(check, &QCheckBox::toggled, this, changed);
    for (auto* check : dtypes_)
        connect(check, &QCheckBox::toggled, this, changed);
    connect(in_place_, &QComboBox::currentIndexChanged, this, changed);
    connect(env_, &QTableWidget::itemChanged, this, changed);
}

QWidget* PlanBuilderWidget::buildPreviews() {
    auto* tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("previews"));
    toml_ = codeView(QStringLiteral("tomlPreview"), tabs);
    tabs->addTab(toml_, tr("Plan (TOML)"));

    auto* jobs = new QWidget(tabs);
    auto* layout = new QVBoxLayout(jobs);
    auto* row = new QHBoxLayout;
    cluster_ = new QComboBox(jobs);
    cluster_->setObjectName(QStringLiteral("previewCluster"));
    run_ = new QComboBox(jobs);
    run_->setObjectName(QStringLiteral("previewRun"));
    run_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    run_->setMinimumContentsLength(16);
    row->addWidget(new QLabel(tr("Cluster"), jobs));
    row->addWidget(cluster_);
    row->addWidget(new QLabel(tr("Run"), jobs));
    row->addWidget(run_, 1);
    job_script_ = codeView(QStringLiteral("jobScriptPreview"), jobs);
    layout->addLayout(row);
    layout->addWidget(job_script_, 1);
    tabs->addTab(jobs, tr("Job scripts"));

    for (const auto& c : clusters_)
        cluster_->addItem(qs(c.name));
    connect(cluster_, &QComboBox::currentIndexChanged, this, [this] { refreshJobScript(); });
    connect(run_, &QComboBox::currentIndexChanged, this, [this] { refreshJobScript(); });
    return tabs;
}

void PlanBuilderWidget::setClusters(const std::vector<ClusterSettings>& clusters) {
    const QString selected = cluster_->currentText();
    clusters_ = {localMachine()};
    for (const auto& c : clusters)
        if (c.name != kLocalClusterName) clusters_.push_back(c);
    const QSignalBlocker block(cluster_);
    cluster_->clear();
    for (const auto& c : clusters_)
        cluster_->addItem(qs(c.name));
    cluster_->setCurrentIndex(std::max(0, cluster_->findText(selected)));
    refreshJobScript();
}

void PlanBuilderWidget::setPlan(const RunPlan& plan) {
    plan_ = plan;
    loading_ = true;
    name_->setText(qs(plan_.name));
    description_->setText(qs(plan_.description));
    repeats_->setValue(plan_.repeats);
    loading_ = false;
    current_ = plan_.groups.empty() ? -1 : 0;
    form_error_.clear();
    refresh();
    selectGroup(current_);
}

void PlanBuilderWidget::addWorkload(const std::string& workload) {
    const WorkloadInfo* info = findWorkload(workload);
    if (!info) return;
    RunGroup g;
    g.workload = info->name;
    g.dataset = info->datasets.front();
    g.batch_per_rank = info->batch_per_rank;
    g.lr = info->base_lr;
    if (!info->presets.empty()) g.preset = info->presets.front();
    g.ranks = {1, 2, 4, 8};
    plan_.groups.push_back(g);
    current_ = static_cast<int>(plan_.groups.size()) - 1;
    refresh();
    selectGroup(current_);
}

void PlanBuilderWidget::selectGroup(int index) {
    if (!form_error_.isEmpty() && index != current_) {
        form_error_.clear(); // the group left keeps its last valid GPU counts
        current_ = index;
        refresh();
    }
    current_ = index;
    loading_ = true;
    groups_->setCurrentRow(index);
    loading_ = false;
    form_->setEnabled(index >= 0);
    if (index >= 0) groupToForm();
}

void PlanBuilderWidget::groupToForm() {
    const RunGroup& g = plan_.groups.at(static_cast<std::size_t>(current_));
    const WorkloadInfo* info = findWorkload(g.workload);
    const bool sweep = info && isCollectiveSweep(*info);
    loading_ = true;
    workload_->setText(info ? qs(info->name + " (" + info->group + ")") : qs(g.workload));
    workload_->setToolTip(info ? qs(info->description + "\n" + info->source) : QString());
    dataset_->clear();
    if (info)
        for (const auto& d : info->datasets)
            dataset_->addItem(qs(d));
    if (dataset_->findText(qs(g.dataset)) < 0) dataset_->addItem(qs(g.dataset));
    dataset_->setCurrentText(qs(g.dataset));
    form_error_.clear();
    ranks_->setText(ranksText(g.ranks));
    gpus_per_node_->setValue(g.gpus_per_node);
    precision_->clear();
    if (info)
        for (const auto& p : info->precisions)
            precision_->addItem(qs(p));
    if (precision_->findText(qs(g.precision)) < 0) precision_->addItem(qs(g.precision));
    precision_->setCurrentText(qs(g.precision));
    preset_->clear();
    if (info)
        for (const auto& p : info->presets)
            preset_->addItem(qs(p));
    preset_->setCurrentText(qs(g.preset));
    seq_len_->setValue(g.seq_len);
    batch_->setValue(g.batch_per_rank);
    steps_->setValue(g.steps);
    // The target in the workload's own metric: accuracy in %, BLEU, perplexity or loss as they are.
    const std::string metric = info ? info->eval_metric : "accuracy";
    const auto style = evalMetricStyle(metric);
    target_label_->setText(tr("or at %1").arg(qs(style.label)));
    target_->setSuffix(metric == "accuracy" ? QStringLiteral(" %") : QString());
    target_->setRange(0, metric == "accuracy" ? 100 : 1e9);
    target_->setValue(metric == "accuracy" && g.target <= 0 ? g.target_accuracy * 100
                                                            : g.target * style.scale);
    backend_->setCurrentText(qs(g.backend));
    bucket_->setValue(g.bucket_mb);
    overlap_->setChecked(g.overlap);
    for (std::size_t i = 0; i < collectives_.size(); ++i)
        collectives_[i]->setChecked(std::find(g.collectives.begin(), g.collectives.end(),
                                              kCollectiveNames[i]) != g.collectives.end());
    for (std::size_t i = 0; i < dtypes_.size(); ++i)
        dtypes_[i]->setChecked(std::find(g.dtypes.begin(), g.dtypes.end(), kDtypes[i]) != g.dtypes.end());
    in_place_->setCurrentText(qs(g.in_place));
    env_->setRowCount(0);
    for (const auto& [name, value] : g.env) {
        const int row = env_->rowCount();
        env_->insertRow(row);
        env_->setItem(row, 0, new QTableWidgetItem(qs(name)));
        env_->setItem(row, 1, new QTableWidgetItem(qs(value)));
    }
    // What does not apply to this kind of workload is shown but cannot be changed.
    sweep_box_->setEnabled(sweep);
    target_->setEnabled(!sweep);
    preset_->setEnabled(info && !info->presets.empty());
    seq_len_->setEnabled(info && info->seq_len > 0);
    batch_->setEnabled(!sweep);
    steps_->setEnabled(!sweep);
    bucket_->setEnabled(!sweep);
    overlap_->setEnabled(!sweep);
    loading_ = false;
}

void PlanBuilderWidget::formToGroup() {
    if (loading_ || current_ < 0) return;
    RunGroup& g = plan_.groups.at(static_cast<std::size_t>(current_));
    form_error_.clear();
    const std::vector<int> ranks = parseRanks(ranks_->text(), form_error_);
    if (form_error_.isEmpty()) g.ranks = ranks;
    g.dataset = dataset_->currentText().toStdString();
    g.gpus_per_node = gpus_per_node_->value();
    g.precision = precision_->currentText().toStdString();
    g.batch_per_rank = batch_->value();
    g.steps = steps_->value();
    const WorkloadInfo* workload = findWorkload(g.workload);
    if (!workload || workload->eval_metric == "accuracy") {
        g.target_accuracy = target_->value() / 100;
        g.target = 0;
    } else {
        g.target = target_->value();
        g.target_accuracy = 0;
    }
    g.preset = preset_->currentText().toStdString();
    g.seq_len = seq_len_->value();
    g.backend = backend_->currentText().toStdString();
    g.bucket_mb = bucket_->value();
    g.overlap = overlap_->isChecked();
    const WorkloadInfo* info = findWorkload(g.workload);
    if (info && isCollectiveSweep(*info)) {
        g.collectives.clear();
        for (std::size_t i = 0; i < collectives_.size(); ++i)
            if (collectives_[i]->isChecked()) g.collectives.push_back(kCollectiveNames[i]);
        g.dtypes.clear();
        for (std::size_t i = 0; i < dtypes_.size(); ++i)
            if (dtypes_[i]->isChecked()) g.dtypes.push_back(kDtypes[i]);
        g.in_place = in_place_->currentText().toStdString();
    }
    g.env.clear();
    for (int row = 0; row < env_->rowCount(); ++row) {
        const QTableWidgetItem* name = env_->item(row, 0);
        const QTableWidgetItem* value = env_->item(row, 1);
        if (!name || name->text().trimmed().isEmpty()) continue; // a row being filled in
        g.env[name->text().trimmed().toStdString()] = value ? value->text().toStdString() : std::string();
    }
    refresh();
}

void PlanBuilderWidget::refresh() {
    const std::string text = writePlanToml(plan_);
    toml_->setPlainText(qs(text));
    error_.clear();
    try {
        valid_plan_ = parsePlanText(text, plan_.name.empty() ? "plan.toml" : plan_.name + ".toml");
    } catch (const PlanError& e) {
        error_ = qs(e.what());
    }
    if (plan_.groups.empty()) error_ = tr("The plan has no runs: add a workload from the catalog.");
    if (!form_error_.isEmpty()) error_ = form_error_;
    setError(error_);

    loading_ = true;
    for (std::size_t i = 0; i < plan_.groups.size(); ++i) {
        if (static_cast<int>(i) >= groups_->count()) groups_->addItem(QString());
        groups_->item(static_cast<int>(i))->setText(groupTitle(plan_.groups[i]));
    }
    while (groups_->count() > static_cast<int>(plan_.groups.size()))
        delete groups_->takeItem(groups_->count() - 1);
    groups_->setCurrentRow(current_);

    const QString run = run_->currentText();
    run_->clear();
    if (error_.isEmpty())
        for (const auto& spec : expandPlan(valid_plan_))
            run_->addItem(qs(spec.name));
    run_->setCurrentIndex(std::max(0, run_->findText(run)));
    loading_ = false;
    refreshJobScript();
}

void PlanBuilderWidget::setLaunchSettings(const std::string& engine, const std::filesystem::path& out_dir,
                                          const std::string& store_id) {
    engine_ = engine;
    out_dir_ = out_dir;
    store_id_ = store_id;
    refreshJobScript();
}

void PlanBuilderWidget::refreshJobScript() {
    if (!error_.isEmpty()) {
        job_script_->setPlainText(tr("# No job scripts while the plan has an error:\n# %1").arg(error_));
        return;
    }
    const auto runs = expandPlan(valid_plan_);
    const int index = run_->currentIndex();
    if (index < 0 || index >= static_cast<int>(runs.size())) {
        job_script_->setPlainText(tr("# The plan has no runs."));
        return;
    }
    const RunSpec& run = runs[static_cast<std::size_t>(index)];
    const ClusterSettings& cluster =
        clusters_.at(static_cast<std::size_t>(std::max(0, cluster_->currentIndex())));
    QString text = tr("# run %1 of %2: %3 rank(s)").arg(index + 1).arg(runs.size()).arg(run.ranks);
    if (run.nodes > 0) text += tr(", %1 node(s) x %2").arg(run.nodes).arg(run.ranks_per_node);
    text += tr("; the session folder is numbered at launch\n");
    try {
        const std::string command = submittedCommand(run, previewSite(cluster, engine_, out_dir_, store_id_));
        text += qs(command);
        if (!command.ends_with('\n')) text += '\n';
    } catch (const std::exception& e) {
        text += tr("# This run cannot become a job on %1: %2").arg(qs(cluster.name), qs(e.what()));
    }
    job_script_->setPlainText(text);
}

void PlanBuilderWidget::setError(const QString& text) {
    error_label_->setText(text);
    launch_->setEnabled(text.isEmpty());
}

QString PlanBuilderWidget::tomlText() const {
    return toml_->toPlainText();
}
QString PlanBuilderWidget::jobScriptText() const {
    return job_script_->toPlainText();
}
QString PlanBuilderWidget::errorText() const {
    return error_label_->text();
}
QString PlanBuilderWidget::selectedCluster() const {
    return cluster_->currentText();
}

bool PlanBuilderWidget::openPlan(const QString& path) {
    try {
        setPlan(parsePlanFile(path.toStdString()));
        return true;
    } catch (const PlanError& e) {
        setError(tr("Cannot open %1: %2").arg(path, qs(e.what())));
        return false;
    }
}

bool PlanBuilderWidget::savePlan(const QString& path) {
    if (!error_.isEmpty()) {
        setError(tr("Not saved: %1").arg(error_));
        return false;
    }
    QSaveFile file(path);
    const QByteArray bytes = tomlText().toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        setError(tr("Cannot save %1: %2").arg(path, file.errorString()));
        return false;
    }
    return true;
}

} // namespace scalebench
