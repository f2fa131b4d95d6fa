// The clusters view's form over one cluster's settings: how ssh reaches the head node, and what its Slurm
// jobs ask for; each field at fault in a save is marked and named.
#include "cluster_form.h"

#include "form_widgets.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>

namespace scalebench {
namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

// "a, b,, c" -> a, b, c
QStringList splitList(const QString& text) {
    QStringList out;
    for (const QString& word : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!word.trimmed().isEmpty()) out << word.trimmed();
    return out;
}

// The text's lines that are not blank, trimmed.
std::vector<std::string> lines(const QString& text) {
    std::vector<std::string> out;
    for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (!line.trimmed().isEmpty()) out.push_back(line.trimmed().toStdString());
    return out;
}

} // namespace

ClusterForm::ClusterForm(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(buildHeadNodeBox(), 1);
    layout->addWidget(buildJobBox(), 1);
}

// How ssh reaches the head node, and where runs go there.
QWidget* ClusterForm::buildHeadNodeBox() {
    auto* head = named(new QGroupBox(tr("Head node (SSH)"), this), "headNodeSettings");
    auto* h = new QFormLayout(head);
    name_ = named(new QLineEdit(head), "clusterName");
    host_ = named(new QLineEdit(head), "host");
    host_->setPlaceholderText(tr("name, address or ssh config Host"));
    user_ = named(new QLineEdit(head), "user");
    user_->setPlaceholderText(tr("ssh config's, else yours"));
    port_ = named(new QSpinBox(head), "port");
    port_->setRange(0, 65535);
    port_->setSpecialValueText(tr("ssh config's, else 22"));
    identity_files_ = named(new QLineEdit(head), "identityFiles");
    identity_files_->setPlaceholderText(tr("key files, comma-separated; agent first"));
    known_hosts_ = named(new QLineEdit(head), "knownHosts");
    known_hosts_->setPlaceholderText(QStringLiteral("~/.ssh/known_hosts"));
    trust_on_first_use_ =
        named(new QCheckBox(tr("trust a new host key in --batch"), head), "trustOnFirstUse");
    trust_on_first_use_->setToolTip(
        tr("--batch accepts the head node's key when known_hosts has none for it (trust "
           "on first use); unchecked, it refuses an unknown key. A changed key is "
           "always refused."));
    remote_root_ = named(new QLineEdit(head), "remoteRoot");
    torch_python_ = named(new QLineEdit(head), "torchPython");
    data_root_ = named(new QLineEdit(head), "dataRoot");
    data_root_->setPlaceholderText(tr("one folder per data set, e.g. %1/cifar10").arg(SCALEBENCH_DATA_ROOT));
    h->addRow(tr("Name"), name_);
    h->addRow(tr("Host"), host_);
    h->addRow(tr("User"), user_);
    h->addRow(tr("Port"), port_);
    h->addRow(tr("Key files"), identity_files_);
    h->addRow(tr("known_hosts"), known_hosts_);
    h->addRow(tr("First use"), trust_on_first_use_);
    h->addRow(tr("Remote folder"), remote_root_);
    h->addRow(tr("Torch Python"), torch_python_);
    h->addRow(tr("Data sets"), data_root_);
    return head;
}

// What the Slurm jobs ask for, and how they start their ranks.
QWidget* ClusterForm::buildJobBox() {
    auto* jobs = named(new QGroupBox(tr("Jobs (Slurm)"), this), "jobSettings");
    auto* j = new QFormLayout(jobs);
    partition_ = named(new QLineEdit(jobs), "partition");
    account_ = named(new QLineEdit(jobs), "account");
    constraint_ = named(new QLineEdit(jobs), "constraint");
    time_limit_ = named(new QLineEdit(jobs), "timeLimit");
    time_limit_->setPlaceholderText(QStringLiteral("HH:MM:SS"));
    tasks_per_node_ = named(new QSpinBox(jobs), "tasksPerNode");
    tasks_per_node_->setRange(1, 4096);
    gpus_per_node_ = named(new QSpinBox(jobs), "clusterGpusPerNode");
    gpus_per_node_->setRange(0, 1024);
    gpus_per_node_->setSpecialValueText(tr("none requested"));
    gres_syntax_ = named(new QCheckBox(tr("ask with --gres=gpu:N"), jobs), "gresSyntax");
    gres_syntax_->setToolTip(
        tr("Older Slurm: GPUs asked for with --gres=gpu:N instead of --gpus-per-node=N"));
    exclusive_ = named(new QCheckBox(tr("whole nodes"), jobs), "exclusive");
    launcher_ = named(new QComboBox(jobs), "launcher");
    launcher_->addItems({QStringLiteral("srun-pmix"), QStringLiteral("mpirun")});
    container_image_ = named(new QLineEdit(jobs), "containerImage");
    poll_seconds_ = named(new QSpinBox(jobs), "pollSeconds");
    poll_seconds_->setRange(1, 3600);
    poll_seconds_->setSuffix(QStringLiteral(" s"));
    setup_ = named(new QPlainTextEdit(jobs), "setupLines");
    setup_->setPlaceholderText(QStringLiteral("module load cuda/12.4"));
    setup_->setMaximumHeight(setup_->fontMetrics().height() * 5 + 12);
    setup_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    nccl_env_ = named(new QPlainTextEdit(jobs), "ncclEnv");
    nccl_env_->setPlaceholderText(QStringLiteral("NCCL_IB_HCA=mlx5"));
    nccl_env_->setMaximumHeight(nccl_env_->fontMetrics().height() * 5 + 12);
    nccl_env_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    price_per_gpu_hour_ = named(new QDoubleSpinBox(jobs), "pricePerGpuHour");
    price_per_gpu_hour_->setRange(0, 1e6);
    price_per_gpu_hour_->setDecimals(4);
    price_per_gpu_hour_->setSpecialValueText(tr("no price"));
    currency_ = named(new QLineEdit(jobs), "currency");
    currency_->setPlaceholderText(QStringLiteral("USD"));
    j->addRow(tr("Partition"), partition_);
    j->addRow(tr("Account"), account_);
    j->addRow(tr("Constraint"), constraint_);
    j->addRow(tr("Time limit"), time_limit_);
    j->addRow(tr("Tasks per node"), tasks_per_node_);
    j->addRow(tr("GPUs per node"), gpus_per_node_);
    j->addRow(QString(), gres_syntax_);
    j->addRow(tr("Exclusive"), exclusive_);
    j->addRow(tr("Launcher"), launcher_);
    j->addRow(tr("Container"), container_image_);
    j->addRow(tr("Poll every"), poll_seconds_);
    j->addRow(tr("Setup lines"), setup_);
    j->addRow(tr("NCCL variables"), nccl_env_);
    // What a run costs, and the cost to train on the Projection page (on CPU runs a GPU is a rank).
    j->addRow(tr("Price per GPU-hour"), price_per_gpu_hour_);
    j->addRow(tr("Currency"), currency_);
    return jobs;
}

void ClusterForm::setSettings(const ClusterSettings& c) {
    base_ = c;
    name_->setText(qs(c.name));
    host_->setText(qs(c.host));
    user_->setText(qs(c.user));
    port_->setValue(c.port);
    QStringList files;
    for (const auto& f : c.identity_files)
        files << qs(f);
    identity_files_->setText(files.join(QStringLiteral(", ")));
    known_hosts_->setText(qs(c.known_hosts));
    trust_on_first_use_->setChecked(c.trust_on_first_use);
    remote_root_->setText(qs(c.remote_root));
    torch_python_->setText(qs(c.torch_python));
    data_root_->setText(qs(c.data_root));
    partition_->setText(qs(c.partition));
    account_->setText(qs(c.account));
    constraint_->setText(qs(c.constraint));
    time_limit_->setText(qs(c.time_limit));
    tasks_per_node_->setValue(c.tasks_per_node);
    gpus_per_node_->setValue(c.gpus_per_node);
    gres_syntax_->setChecked(c.gres_syntax);
    exclusive_->setChecked(c.exclusive);
    launcher_->setCurrentIndex(c.launcher == ClusterSettings::Launcher::Mpirun ? 1 : 0);
    container_image_->setText(qs(c.container_image));
    poll_seconds_->setValue(c.poll_seconds);
    price_per_gpu_hour_->setValue(c.price_per_gpu_hour);
    currency_->setText(qs(c.currency));
    QStringList setup;
    for (const auto& line : c.setup_lines)
        setup << qs(line);
    setup_->setPlainText(setup.join(QLatin1Char('\n')));
    QStringList env;
    for (const auto& [key, value] : c.nccl_env)
        env << qs(key + "=" + value);
    nccl_env_->setPlainText(env.join(QLatin1Char('\n')));
    setEnabledFields(!isLocalMachine(c));
    markFields({});
}

void ClusterForm::setEnabledFields(bool editable) {
    for (auto* box : findChildren<QGroupBox*>())
        box->setEnabled(editable);
}

ClusterSettings ClusterForm::settings() const {
    if (isLocalMachine(base_)) return base_;
    ClusterSettings c = base_;
    c.name = name_->text().trimmed().toStdString();
    c.host = host_->text().trimmed().toStdString();
    c.user = user_->text().trimmed().toStdString();
    c.port = port_->value();
    c.identity_files.clear();
    for (const QString& f : splitList(identity_files_->text()))
        c.identity_files.push_back(f.toStdString());
    c.known_hosts = known_hosts_->text().trimmed().toStdString();
    c.trust_on_first_use = trust_on_first_use_->isChecked();
    c.remote_root = remote_root_->text().trimmed().toStdString();
    c.torch_python = torch_python_->text().trimmed().toStdString();
    c.data_root = data_root_->text().trimmed().toStdString();
    c.partition = partition_->text().trimmed().toStdString();
    c.account = account_->text().trimmed().toStdString();
    c.constraint = constraint_->text().trimmed().toStdString();
    c.time_limit = time_limit_->text().trimmed().toStdString();
    c.tasks_per_node = tasks_per_node_->value();
    c.gpus_per_node = gpus_per_node_->value();
    c.gres_syntax = gres_syntax_->isChecked();
    c.exclusive = exclusive_->isChecked();
    c.launcher = launcher_->currentIndex() == 1 ? ClusterSettings::Launcher::Mpirun
                                                : ClusterSettings::Launcher::SrunPmix;
    c.container_image = container_image_->text().trimmed().toStdString();
    c.poll_seconds = poll_seconds_->value();
    c.price_per_gpu_hour = price_per_gpu_hour_->value();
    c.currency = currency_->text().trimmed().toStdString();
    c.setup_lines = lines(setup_->toPlainText());
    c.nccl_env.clear();
    for (const std::string& line : lines(nccl_env_->toPlainText())) {
        const auto equals = line.find('=');
        c.nccl_env[line.substr(0, equals)] = equals == std::string::npos ? "" : line.substr(equals + 1);
    }
    return c;
}

void ClusterForm::editName() {
    name_->setFocus();
    name_->selectAll();
}

std::map<std::string, QWidget*> ClusterForm::fields() const {
    return {{"name", name_},
            {"host", host_},
            {"user", user_},
            {"port", port_},
            {"identity_files", identity_files_},
            {"known_hosts", known_hosts_},
            {"remote_root", remote_root_},
            {"torch_python", torch_python_},
            {"data_root", data_root_},
            {"partition", partition_},
            {"account", account_},
            {"constraint", constraint_},
            {"time_limit", time_limit_},
            {"tasks_per_node", tasks_per_node_},
            {"gpus_per_node", gpus_per_node_},
            {"container_image", container_image_},
            {"poll_seconds", poll_seconds_},
            {"setup", setup_},
            {"nccl_env", nccl_env_},
            {"price_per_gpu_hour", price_per_gpu_hour_},
            {"currency", currency_}};
}

QString ClusterForm::fieldLabel(const std::string& key) const {
    const auto all = fields();
    if (const auto it = all.find(key); it != all.end())
        for (auto* layout : findChildren<QFormLayout*>())
            if (auto* label = qobject_cast<QLabel*>(layout->labelForField(it->second))) return label->text();
    return qs(key) + tr(" (not in this form)"); // jobcomp_log: from a cluster file
}

void ClusterForm::markFields(const std::vector<ClusterProblem>& problems) {
    const auto all = fields();
    for (const auto& [key, widget] : all) {
        widget->setToolTip(QString());
        widget->setStyleSheet(QString());
    }
    QWidget* first = nullptr;
    for (const auto& p : problems) {
        const auto it = all.find(p.key);
        if (it == all.end()) continue;
        QWidget* widget = it->second;
        const QString shown = widget->toolTip();
        widget->setToolTip(shown.isEmpty() ? qs(p.problem) : shown + QLatin1Char('\n') + qs(p.problem));
        widget->setStyleSheet(QStringLiteral("border: 2px solid #b00020;"));
        if (!first) first = widget;
    }
    if (first) first->setFocus();
}

} // namespace scalebench
