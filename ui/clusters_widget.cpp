// The clusters: a list ("local" and the store's), a form over the chosen cluster's settings, add, save,
// remove, and "Test connection" with the host-key decision (trust an unknown key; refuse a changed one).
#include "clusters_widget.h"

#include "cluster_list_model.h"
#include "session_store.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>
#include <map>

namespace scalebench {
namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}
QString html(const std::string& text) {
    return qs(text).toHtmlEscaped();
}

QStringList splitList(const QString& text) {
    QStringList out;
    for (const QString& word : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!word.trimmed().isEmpty()) out << word.trimmed();
    return out;
}

std::vector<std::string> lines(const QString& text) {
    std::vector<std::string> out;
    for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (!line.trimmed().isEmpty()) out.push_back(line.trimmed().toStdString());
    return out;
}

} // namespace

ClustersWidget::ClustersWidget(SessionStore& store, QWidget* parent)
    : QWidget(parent), store_(store), model_(new ClusterListModel(this)) {
    view_ = new QTableView(this);
    view_->setObjectName(QStringLiteral("clusterTable"));
    view_->setModel(model_);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->verticalHeader()->hide();
    view_->setWordWrap(false);
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view_->horizontalHeader()->setSectionResizeMode(ClusterListModel::Host, QHeaderView::Stretch);
    auto* add = new QPushButton(tr("Add"), this);
    add->setObjectName(QStringLiteral("addCluster"));
    remove_ = new QPushButton(tr("Remove"), this);
    remove_->setObjectName(QStringLiteral("removeCluster"));
    auto* list_buttons = new QHBoxLayout;
    list_buttons->addWidget(add);
    list_buttons->addWidget(remove_);
    list_buttons->addStretch();
    auto* left = new QVBoxLayout;
    left->addWidget(view_, 1);
    left->addLayout(list_buttons);

    save_ = new QPushButton(tr("Save"), this);
    save_->setObjectName(QStringLiteral("saveCluster"));
    test_ = new QPushButton(tr("Test connection"), this);
    test_->setObjectName(QStringLiteral("testConnection"));
    trust_ = new QPushButton(tr("Trust this key"), this);
    trust_->setObjectName(QStringLiteral("trustKey"));
    trust_->hide();
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("connectionStatus"));
    status_->setWordWrap(true);
    status_->setTextFormat(Qt::RichText);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    status_->setMinimumHeight(status_->fontMetrics().height() * 5);
    auto* actions = new QHBoxLayout;
    actions->addWidget(save_);
    actions->addWidget(test_);
    actions->addWidget(trust_);
    actions->addStretch();

    auto* right = new QVBoxLayout;
    right->addWidget(buildForm(), 1);
    right->addLayout(actions);
    right->addWidget(status_);

    auto* layout = new QHBoxLayout(this);
    layout->addLayout(left, 4);
    layout->addLayout(right, 7);

    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { showSelected(); });
    connect(add, &QPushButton::clicked, this, [this] {
        // No current row either: clicking the cluster that was chosen shows it again.
        view_->selectionModel()->clear();
        ClusterSettings fresh;
        fresh.name = "new-cluster";
        setFormSettings(fresh);
        name_->setFocus();
        name_->selectAll();
    });
    connect(remove_, &QPushButton::clicked, this, [this] { removeSelected(); });
    connect(save_, &QPushButton::clicked, this, [this] { saveForm(); });
    connect(test_, &QPushButton::clicked, this, [this] { testConnection(); });
    connect(trust_, &QPushButton::clicked, this, [this] { trustOfferedKey(); });
    connect(&check_, &ConnectionCheck::finished, this, [this](const ConnectionReport& r) { showReport(r); });
    reload();
}

QWidget* ClustersWidget::buildForm() {
    form_ = new QWidget(this);
    const auto named = [](auto* widget, const char* name) {
        widget->setObjectName(QString::fromLatin1(name));
        return widget;
    };
    auto* head = new QGroupBox(tr("Head node (SSH)"), form_);
    head->setObjectName(QStringLiteral("headNodeSettings"));
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
        named(new QCheckBox(tr("accept an unknown host key in batch mode"), head), "trustOnFirstUse");
    remote_root_ = named(new QLineEdit(head), "remoteRoot");
    torch_python_ = named(new QLineEdit(head), "torchPython");
    h->addRow(tr("Name"), name_);
    h->addRow(tr("Host"), host_);
    h->addRow(tr("User"), user_);
    h->addRow(tr("Port"), port_);
    h->addRow(tr("Key files"), identity_files_);
    h->addRow(tr("known_hosts"), known_hosts_);
    h->addRow(tr("First use"), trust_on_first_use_);
    h->addRow(tr("Remote folder"), remote_root_);
    h->addRow(tr("Torch Python"), torch_python_);

    auto* jobs = new QGroupBox(tr("Jobs (Slurm)"), form_);
    jobs->setObjectName(QStringLiteral("jobSettings"));
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
    gres_syntax_ = named(new QCheckBox(tr("--gres=gpu:N (older Slurm)"), jobs), "gresSyntax");
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

    auto* layout = new QHBoxLayout(form_);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(head, 1);
    layout->addWidget(jobs, 1);
    return form_;
}

void ClustersWidget::reload() {
    const QString selected = qs(form_base_.name);
    std::vector<ClusterSettings> stored;
    for (const auto& name : store_.clusterNames())
        if (auto c = store_.cluster(name)) stored.push_back(*c);
    model_->setClusters(stored);
    selectCluster(model_->rowOf(selected) >= 0 ? selected : QString::fromLatin1(kLocalClusterName));
}

void ClustersWidget::selectCluster(const QString& name) {
    const int row = model_->rowOf(name);
    if (row < 0) return;
    view_->setCurrentIndex(model_->index(row, 0));
    view_->selectRow(row);
    showSelected();
}

void ClustersWidget::showSelected() {
    const int row = view_->currentIndex().row();
    if (row < 0) return;
    setFormSettings(model_->cluster(row));
}

void ClustersWidget::setFormSettings(const ClusterSettings& c) {
    form_base_ = c;
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
    QStringList setup;
    for (const auto& line : c.setup_lines)
        setup << qs(line);
    setup_->setPlainText(setup.join(QLatin1Char('\n')));
    QStringList env;
    for (const auto& [key, value] : c.nccl_env)
        env << qs(key + "=" + value);
    nccl_env_->setPlainText(env.join(QLatin1Char('\n')));

    const bool local = isLocalMachine(c);
    setFormEditable(!local);
    remove_->setEnabled(!local && model_->rowOf(qs(c.name)) > 0);
    markFields({});
    report_.reset();
    trust_->hide();
    setStatus(local ? tr("This machine: runs start with <tt>mpirun</tt> here. It needs no settings.")
                    : QString());
}

void ClustersWidget::setFormEditable(bool editable) {
    for (auto* box : form_->findChildren<QGroupBox*>())
        box->setEnabled(editable);
    save_->setEnabled(editable);
}

ClusterSettings ClustersWidget::formSettings() const {
    if (isLocalMachine(form_base_)) return form_base_;
    ClusterSettings c = form_base_;
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
    c.setup_lines = lines(setup_->toPlainText());
    c.nccl_env.clear();
    for (const std::string& line : lines(nccl_env_->toPlainText())) {
        const auto equals = line.find('=');
        c.nccl_env[line.substr(0, equals)] = equals == std::string::npos ? "" : line.substr(equals + 1);
    }
    return c;
}

bool ClustersWidget::saveForm() {
    const ClusterSettings c = formSettings();
    markFields({});
    QString problem;
    if (isLocalMachine(form_base_))
        problem = tr("'local' is this machine: it has no settings to save.");
    else if (c.name == kLocalClusterName)
        problem = tr("Give the cluster a name other than 'local'.");
    if (!problem.isEmpty()) {
        setStatus(QStringLiteral("<span style='color:#b00020'>%1</span>").arg(problem.toHtmlEscaped()));
        return false;
    }
    // What ssh or Slurm would refuse is not kept: each field at fault is marked and named.
    const auto problems = clusterProblems(c);
    if (!problems.empty()) {
        markFields(problems);
        QString text = QStringLiteral("<span style='color:#b00020'><b>%1</b></span>").arg(tr("Not saved."));
        for (const auto& p : problems)
            text += QStringLiteral("<br>%1: %2").arg(fieldLabel(p.key).toHtmlEscaped(), html(p.problem));
        setStatus(text);
        return false;
    }
    // A renamed cluster replaces the one it was.
    if (!form_base_.name.empty() && form_base_.name != c.name && model_->rowOf(qs(form_base_.name)) > 0)
        store_.removeCluster(form_base_.name);
    store_.saveCluster(c);
    form_base_ = c;
    reload();
    setStatus(tr("Saved '%1'.").arg(qs(c.name).toHtmlEscaped()));
    emit clustersChanged();
    return true;
}

bool ClustersWidget::removeSelected() {
    const int row = view_->currentIndex().row();
    if (!model_->isRemovable(row)) return false;
    const std::string name = model_->cluster(row).name;
    store_.removeCluster(name);
    form_base_ = localMachine();
    reload();
    emit clustersChanged();
    return true;
}

void ClustersWidget::testConnection() {
    const ClusterSettings c = formSettings();
    trust_->hide();
    test_->setEnabled(false);
    setStatus(tr("Testing the connection to %1...").arg(html(c.host.empty() ? c.name : c.host)));
    check_.check(c);
}

void ClustersWidget::trustOfferedKey() {
    if (!report_ || report_->host_key.state != HostKeyState::Unknown) return;
    trust_->hide();
    test_->setEnabled(false);
    setStatus(tr("Adding %1 to known_hosts and testing again...").arg(html(report_->host_key.fingerprint)));
    check_.trustAndCheck(formSettings(), report_->host_key.fingerprint);
}

void ClustersWidget::showReport(const ConnectionReport& r) {
    report_ = r;
    test_->setEnabled(true);
    const HostKeyFinding& key = r.host_key;
    const QString red = QStringLiteral("<span style='color:#b00020'><b>%1</b></span> ");
    const QString green = QStringLiteral("<span style='color:#1b7f3b'><b>%1</b></span> ");
    QString text;
    if (r.local) {
        text = r.ok()
                   ? green.arg(tr("Ready.")) +
                         tr("This machine (%1) runs jobs with %2.").arg(html(r.remote_host), html(r.launcher))
                   : red.arg(tr("Not ready.")) + html(r.error);
    } else if (!r.reachable) {
        text = red.arg(tr("Unreachable.")) + html(r.error);
    } else if (key.state == HostKeyState::Unknown) {
        text =
            tr("<b>Unknown host key.</b> %1 is not in %2. It offers the %3 key<br><tt>%4</tt><br>"
               "Compare this fingerprint with the one the cluster's administrators publish. "
               "<b>Trust this key?</b> It will be added to %2.")
                .arg(html(key.host), html(key.known_hosts_file), html(key.key_type), html(key.fingerprint));
        trust_->show();
    } else if (key.state == HostKeyState::Changed) {
        QString recorded;
        for (const auto& k : key.recorded)
            recorded += QStringLiteral("<br><tt>%1</tt>").arg(html(k));
        text = red.arg(tr("Refused: the host key has CHANGED.")) +
               tr("%1 now offers<br><tt>%2 %3</tt><br>but known_hosts records%4<br>"
                  "This can be a man-in-the-middle attack: someone may be pretending to be the head node. "
                  "If the administrators confirm the host was reinstalled, remove the old line "
                  "(<tt>ssh-keygen -R '%1' -f %5</tt>) and test again.")
                   .arg(html(key.host), html(key.key_type), html(key.fingerprint), recorded,
                        html(key.known_hosts_file));
    } else if (r.ok()) {
        text = green.arg(tr("Connected.")) +
               tr("Logged in as %1 (host %2); host key <tt>%3</tt> is known; %4.")
                   .arg(html(r.where), html(r.remote_host), html(key.fingerprint), html(r.launcher));
    } else {
        text = red.arg(r.logged_in ? tr("Connected, but not ready.") : tr("Login failed.")) + html(r.error) +
               tr("<br>Host key <tt>%1</tt> is known.").arg(html(key.fingerprint));
    }
    setStatus(text);
}

void ClustersWidget::setStatus(const QString& text) {
    status_->setText(text);
}

std::map<std::string, QWidget*> ClustersWidget::fields() const {
    return {{"name", name_},
            {"host", host_},
            {"user", user_},
            {"port", port_},
            {"identity_files", identity_files_},
            {"known_hosts", known_hosts_},
            {"remote_root", remote_root_},
            {"torch_python", torch_python_},
            {"partition", partition_},
            {"account", account_},
            {"constraint", constraint_},
            {"time_limit", time_limit_},
            {"tasks_per_node", tasks_per_node_},
            {"gpus_per_node", gpus_per_node_},
            {"container_image", container_image_},
            {"poll_seconds", poll_seconds_},
            {"setup", setup_},
            {"nccl_env", nccl_env_}};
}

QString ClustersWidget::fieldLabel(const std::string& key) const {
    const auto all = fields();
    if (const auto it = all.find(key); it != all.end())
        for (auto* layout : form_->findChildren<QFormLayout*>())
            if (auto* label = qobject_cast<QLabel*>(layout->labelForField(it->second))) return label->text();
    return qs(key) + tr(" (not in this form)"); // jobcomp_log: from a cluster file
}

void ClustersWidget::markFields(const std::vector<ClusterProblem>& problems) {
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

QString ClustersWidget::connectionText() const {
    return status_->text();
}

} // namespace scalebench
