// Builds a plan: workloads from the catalog (or commands of their own) into run groups, each edited in a form
// of sections; previews its TOML and its job scripts; opens, saves, launches.
#include "plan_builder_widget.h"

#include "command_section.h"
#include "communication_section.h"
#include "default_rank_counts.h"
#include "environment_section.h"
#include "form_widgets.h"
#include "gpu_counts_section.h"
#include "job_script_preview.h"
#include "plan_writer.h"
#include "training_section.h"
#include "workload_catalog.h"
#include "workload_catalog_model.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QThread>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

namespace scalebench {
namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

QString groupTitle(const RunGroup& g) {
    if (g.isCommand())
        return QObject::tr("command %1 (%2)\nGPUs %3")
            .arg(qs(g.workload), qs(g.command.format), GpuCountsSection::ranksText(g.ranks));
    return QObject::tr("%1 on %2\nGPUs %3")
        .arg(qs(g.workload), qs(g.dataset), GpuCountsSection::ranksText(g.ranks));
}

// The sections' form labels in one column width, as if they were one form.
void alignLabels(QWidget* form) {
    std::vector<QWidget*> labels;
    int width = 0;
    for (auto* layout : form->findChildren<QFormLayout*>())
        for (int row = 0; row < layout->rowCount(); ++row)
            if (QLayoutItem* item = layout->itemAt(row, QFormLayout::LabelRole); item && item->widget()) {
                labels.push_back(item->widget());
                width = std::max(width, item->widget()->sizeHint().width());
            }
    for (auto* label : labels)
        label->setMinimumWidth(width);
}

// The plan's name, description and repeats.
struct PlanFields {
    QLineEdit* name;
    QLineEdit* description;
    QSpinBox* repeats;
    QHBoxLayout* row; // each after its label
};

PlanFields makePlanFields(const QString& name, QWidget* parent) {
    auto* top = new QHBoxLayout;
    auto* name_edit = new QLineEdit(name, parent);
    name_edit->setObjectName(QStringLiteral("planName"));
    auto* description = new QLineEdit(parent);
    description->setObjectName(QStringLiteral("planDescription"));
    description->setPlaceholderText(PlanBuilderWidget::tr("what this plan measures"));
    auto* repeats = new QSpinBox(parent);
    repeats->setObjectName(QStringLiteral("repeats"));
    repeats->setRange(1, 100);
    repeats->setToolTip(
        PlanBuilderWidget::tr("Every run is repeated: figures are the mean and two standard deviations"));
    top->addWidget(new QLabel(PlanBuilderWidget::tr("Plan name"), parent));
    top->addWidget(name_edit, 2);
    top->addWidget(new QLabel(PlanBuilderWidget::tr("Description"), parent));
    top->addWidget(description, 3);
    top->addWidget(new QLabel(PlanBuilderWidget::tr("Repeats"), parent));
    top->addWidget(repeats);
    return {name_edit, description, repeats, top};
}

// The left pane: the catalog's workloads and the plan's run groups, with the buttons that add and remove
// them.
struct RunGroupsPane {
    QWidget* pane;
    QTreeView* catalog;
    QPushButton* add;
    QPushButton* add_command;
    QListWidget* groups;
    QPushButton* remove;
};

RunGroupsPane makeRunGroupsPane(QAbstractItemModel* catalog_model, QWidget* parent) {
    auto* left = new QWidget(parent);
    auto* left_layout = new QVBoxLayout(left);
    left_layout->setContentsMargins(0, 0, 0, 0);
    auto* catalog = new QTreeView(left);
    catalog->setObjectName(QStringLiteral("workloadTree"));
    catalog->setModel(catalog_model);
    catalog->expandAll();
    catalog->setEditTriggers(QAbstractItemView::NoEditTriggers);
    catalog->header()->setStretchLastSection(true);
    catalog->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    auto* add = new QPushButton(PlanBuilderWidget::tr("Add to plan"), left);
    add->setObjectName(QStringLiteral("addWorkload"));
    auto* add_command = named(new QPushButton(PlanBuilderWidget::tr("Add a command..."), left), "addCommand");
    add_command->setToolTip(
        PlanBuilderWidget::tr("A run of a program of your own (nccl-tests, OSU, an MLPerf "
                              "container), its output read in its format"));
    auto* groups = new QListWidget(left);
    groups->setObjectName(QStringLiteral("runGroups"));
    groups->setWordWrap(true);
    auto* remove = new QPushButton(PlanBuilderWidget::tr("Remove run group"), left);
    remove->setObjectName(QStringLiteral("removeGroup"));
    left_layout->addWidget(new QLabel(PlanBuilderWidget::tr("Workloads"), left));
    left_layout->addWidget(catalog, 3);
    left_layout->addWidget(add);
    left_layout->addWidget(new QLabel(PlanBuilderWidget::tr("Run groups in this plan"), left));
    left_layout->addWidget(groups, 2);
    left_layout->addWidget(add_command);
    left_layout->addWidget(remove);
    return {left, catalog, add, add_command, groups, remove};
}

// The error line and the plan's actions: Open, Save, where Launch runs the plan, and Launch (named by
// nameLaunch).
struct PlanActions {
    QLabel* error;
    QPushButton* open;
    QPushButton* save;
    QComboBox* launch_target;
    QPushButton* launch;
};

PlanActions makePlanActions(QWidget* parent) {
    auto* error = new QLabel(parent);
    error->setObjectName(QStringLiteral("planError"));
    error->setWordWrap(true);
    error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error->setStyleSheet(QStringLiteral("color: #b00020;"));
    auto* open = new QPushButton(PlanBuilderWidget::tr("Open plan..."), parent);
    open->setObjectName(QStringLiteral("openPlan"));
    auto* save = new QPushButton(PlanBuilderWidget::tr("Save plan..."), parent);
    save->setObjectName(QStringLiteral("savePlan"));
    // Where Launch runs the plan is chosen here, beside the button that names it; the Job scripts preview's
    // cluster only chooses which script is shown.
    auto* launch_target = new QComboBox(parent);
    launch_target->setObjectName(QStringLiteral("launchTarget"));
    launch_target->setToolTip(
        PlanBuilderWidget::tr("Where Launch runs the plan: this machine (mpirun) or a cluster (Slurm). "
                              "The Job scripts preview's cluster does not change it."));
    launch_target->addItem(PlanBuilderWidget::tr("this machine"), QString::fromLatin1(kLocalClusterName));
    auto* launch = new QPushButton(parent);
    launch->setObjectName(QStringLiteral("launch"));
    launch->setDefault(true);
    return {error, open, save, launch_target, launch};
}

// The error line, then the actions at the right.
QHBoxLayout* actionsRow(const PlanActions& actions) {
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(actions.error, 1);
    bottom->addWidget(actions.open);
    bottom->addWidget(actions.save);
    bottom->addWidget(actions.launch_target);
    bottom->addWidget(actions.launch);
    return bottom;
}

} // namespace

PlanBuilderWidget::PlanBuilderWidget(QWidget* parent)
    : QWidget(parent), catalog_(new WorkloadCatalogModel(this)) {
    qRegisterMetaType<RunPlan>();
    plan_.name = "new-plan";
    buildLayout();
    addWorkload(workloadCatalog().front().name);
}

void PlanBuilderWidget::buildLayout() {
    const PlanFields fields = makePlanFields(qs(plan_.name), this);
    name_ = fields.name;
    description_ = fields.description;
    repeats_ = fields.repeats;

    // Left: the catalog and the plan's run groups.
    const RunGroupsPane left = makeRunGroupsPane(catalog_, this);
    catalog_view_ = left.catalog;
    groups_ = left.groups;

    // The chosen run group's form and the previews share one place, as tabs: beside the catalog they fit a
    // 1280x800 window with the sessions list open (three panes side by side needed 1085 pixels).
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left.pane);
    split->addWidget(buildPreviews());
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setSizes({270, 830});
    split->setChildrenCollapsible(false);

    const PlanActions actions = makePlanActions(this);
    error_label_ = actions.error;
    launch_target_ = actions.launch_target;
    launch_ = actions.launch;
    nameLaunch();
    QHBoxLayout* bottom = actionsRow(actions);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(fields.row);
    layout->addWidget(split, 1);
    layout->addLayout(bottom);

    connectPlanControls(left.add, left.add_command, left.remove, actions.open, actions.save);
}

// The plan's name, description and repeats; the catalog and run groups; Open, Save and Launch.
void PlanBuilderWidget::connectPlanControls(QPushButton* add, QPushButton* add_command, QPushButton* remove,
                                            QPushButton* open, QPushButton* save) {
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
    connect(add_command, &QPushButton::clicked, this, &PlanBuilderWidget::addCommand);
    connect(catalog_view_, &QTreeView::doubleClicked, this, addSelected);
    connect(groups_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (!loading_) selectGroup(row);
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (current_ < 0) return;
        plan_.groups.erase(plan_.groups.begin() + current_);
        default_ranks_.erase(default_ranks_.begin() + current_);
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
    connect(launch_target_, &QComboBox::currentIndexChanged, this, &PlanBuilderWidget::followLaunchTarget);
    connect(launch_, &QPushButton::clicked, this, [this] {
        if (error_.isEmpty()) emit launchRequested(valid_plan_, launchTarget());
    });
}

QWidget* PlanBuilderWidget::buildGroupForm() {
    auto* box = named(new QGroupBox(this), "runGroup"); // its tab says "Run group"
    form_ = box;
    gpu_counts_ = new GpuCountsSection(box);
    training_ = new TrainingSection(box);
    communication_ = new CommunicationSection(box);
    environment_ = new EnvironmentSection(box);
    command_ = new CommandSection(box);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(command_);
    layout->addWidget(training_);
    layout->addWidget(gpu_counts_);
    layout->addWidget(communication_);
    layout->addWidget(environment_, 1);
    alignLabels(box);

    connect(gpu_counts_, &GpuCountsSection::changed, this, &PlanBuilderWidget::formToGroup);
    connect(training_, &TrainingSection::changed, this, &PlanBuilderWidget::formToGroup);
    connect(communication_, &CommunicationSection::changed, this, &PlanBuilderWidget::formToGroup);
    connect(environment_, &EnvironmentSection::changed, this, &PlanBuilderWidget::formToGroup);
    connect(command_, &CommandSection::changed, this, &PlanBuilderWidget::formToGroup);
    return box;
}

QWidget* PlanBuilderWidget::buildPreviews() {
    auto* tabs = named(new QTabWidget(this), "previews");
    tabs->addTab(buildGroupForm(), tr("Run group"));
    toml_ = makeCodeView(QStringLiteral("tomlPreview"), tabs);
    tabs->addTab(toml_, tr("Plan (TOML)"));
    job_scripts_ = new JobScriptPreview(tabs);
    tabs->addTab(job_scripts_, tr("Job scripts"));
    return tabs;
}

void PlanBuilderWidget::setClusters(const std::vector<ClusterSettings>& clusters) {
    clusters_ = clusters;
    job_scripts_->setClusters(clusters);
    // The launch target stays chosen by name; a cluster removed leaves this machine.
    const QString chosen = launchTarget();
    {
        const QSignalBlocker block(launch_target_);
        while (launch_target_->count() > 1)
            launch_target_->removeItem(1);
        for (const ClusterSettings& cluster : clusters)
            if (cluster.name != kLocalClusterName)
                launch_target_->addItem(qs(cluster.name), qs(cluster.name));
        launch_target_->setCurrentIndex(std::max(0, launch_target_->findData(chosen)));
    }
    followLaunchTarget(); // the target may be gone, or its GPUs per node changed
}

QString PlanBuilderWidget::launchTarget() const {
    return launch_target_->currentData().toString();
}

bool PlanBuilderWidget::setLaunchTarget(const QString& cluster) {
    const int index = launch_target_->findData(cluster);
    if (index >= 0) launch_target_->setCurrentIndex(index);
    return index >= 0;
}

QString PlanBuilderWidget::launchTargetName() const {
    return launch_target_->currentIndex() <= 0 ? tr("this machine") : launchTarget();
}

void PlanBuilderWidget::nameLaunch() {
    launch_->setText(tr("Launch on %1").arg(launchTargetName()));
}

std::vector<int> PlanBuilderWidget::targetRankCounts() const {
    ClusterSettings target = localMachine();
    for (const ClusterSettings& cluster : clusters_)
        if (cluster.name != kLocalClusterName && qs(cluster.name) == launchTarget()) target = cluster;
    return defaultRankCounts(target, QThread::idealThreadCount());
}

void PlanBuilderWidget::followLaunchTarget() {
    nameLaunch();
    const std::vector<int> ranks = targetRankCounts();
    bool changed = false;
    for (std::size_t i = 0; i < plan_.groups.size(); ++i)
        if (default_ranks_[i] && plan_.groups[i].ranks != ranks) {
            plan_.groups[i].ranks = ranks;
            changed = true;
        }
    if (!changed) return;
    refresh();
    if (current_ >= 0) groupToForm();
}

void PlanBuilderWidget::setPlan(const RunPlan& plan) {
    plan_ = plan;
    default_ranks_.assign(plan_.groups.size(), false); // a plan's counts are its own
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
    RunGroup g = groupDefaults(*info, info->datasets.front()); // as a plan that leaves every key out
    g.ranks = targetRankCounts();
    plan_.groups.push_back(g);
    default_ranks_.push_back(true);
    current_ = static_cast<int>(plan_.groups.size()) - 1;
    refresh();
    selectGroup(current_);
}

void PlanBuilderWidget::addCommand() {
    RunGroup g;
    g.command.argv = {"osu_allreduce", "-f"};
    g.command.format = "osu";
    g.workload = "osu_allreduce";
    g.dataset.clear();
    g.ranks = {1, 2};
    plan_.groups.push_back(g);
    default_ranks_.push_back(false);
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
    form_error_.clear();
    // A command's group has no training or communication settings of the engine's: the command says them.
    command_->setVisible(g.isCommand());
    training_->setVisible(!g.isCommand());
    communication_->setVisible(!g.isCommand());
    if (g.isCommand())
        command_->readGroup(g);
    else {
        training_->readGroup(g);
        communication_->readGroup(g);
    }
    gpu_counts_->readGroup(g);
    environment_->readGroup(g);
}

void PlanBuilderWidget::formToGroup() {
    if (loading_ || current_ < 0) return;
    RunGroup& g = plan_.groups.at(static_cast<std::size_t>(current_));
    const std::vector<int> ranks = g.ranks;
    form_error_ = gpu_counts_->writeGroup(g);
    if (g.ranks != ranks || !form_error_.isEmpty())
        default_ranks_.at(static_cast<std::size_t>(current_)) = false;
    if (g.isCommand()) {
        if (const QString problem = command_->writeGroup(g); form_error_.isEmpty()) form_error_ = problem;
    } else {
        training_->writeGroup(g);
        communication_->writeGroup(g);
    }
    environment_->writeGroup(g);
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
    if (plan_.groups.empty())
        error_ = tr("The plan has no runs: add a workload from the catalog, or a command.");
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
    loading_ = false;
    job_scripts_->setPlan(valid_plan_, error_);
}

void PlanBuilderWidget::setLaunchSettings(const std::string& engine, const std::filesystem::path& out_dir,
                                          const std::string& store_id) {
    job_scripts_->setLaunchSettings(engine, out_dir, store_id);
}

void PlanBuilderWidget::setError(const QString& text) {
    error_label_->setText(text);
    launch_->setEnabled(text.isEmpty());
}

QString PlanBuilderWidget::tomlText() const {
    return toml_->toPlainText();
}
QString PlanBuilderWidget::jobScriptText() const {
    return job_scripts_->text();
}
QString PlanBuilderWidget::errorText() const {
    return error_label_->text();
}
QString PlanBuilderWidget::selectedCluster() const {
    return job_scripts_->selectedCluster();
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
