// The clusters: a list ("local" and the store's), a form over the chosen cluster's settings, add, save,
// remove, and "Test connection" with the host-key decision (trust an unknown key; refuse a changed one).
#include "clusters_widget.h"

#include "cluster_form.h"
#include "cluster_list_model.h"
#include "stored_session_loader.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace scalebench {
namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}
QString html(const std::string& text) {
    return qs(text).toHtmlEscaped();
}
QString red(const QString& text) {
    return QStringLiteral("<span style='color:#b00020'>%1</span>").arg(text.toHtmlEscaped());
}

} // namespace

ClustersWidget::ClustersWidget(StoredSessionLoader& store, QWidget* parent)
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

    form_ = new ClusterForm(this);
    auto* right = new QVBoxLayout;
    right->addWidget(form_, 1);
    right->addLayout(actions);
    right->addWidget(status_);

    auto* layout = new QHBoxLayout(this);
    layout->addLayout(left, 4);
    layout->addLayout(right, 7);

    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { showSelected(); });
    connect(add, &QPushButton::clicked, this, &ClustersWidget::startNewCluster);
    connect(remove_, &QPushButton::clicked, this, [this] { removeSelected(); });
    connect(save_, &QPushButton::clicked, this, [this] { saveForm(); });
    connect(test_, &QPushButton::clicked, this, [this] { testConnection(); });
    connect(trust_, &QPushButton::clicked, this, [this] { trustOfferedKey(); });
    connect(&check_, &ConnectionCheck::finished, this, [this](const ConnectionReport& r) { showReport(r); });
    connect(&store_, &StoredSessionLoader::clustersListed, this, [this](const StoredClusterList& list) {
        if (list.error.isEmpty())
            showClusters(list.clusters);
        else
            setStatus(red(tr("Cannot read the stored clusters: %1").arg(list.error)));
    });
    connect(&store_, &StoredSessionLoader::clusterSaved, this, &ClustersWidget::showSaved);
    connect(&store_, &StoredSessionLoader::clusterRemoved, this, &ClustersWidget::showRemoved);
    selectCluster(QString::fromLatin1(kLocalClusterName)); // the list has this machine until the store's come
    reload();
}

void ClustersWidget::reload() {
    store_.listClusters();
}

void ClustersWidget::startNewCluster() {
    // No current row either: clicking the cluster that was chosen shows it again.
    view_->selectionModel()->clear();
    ClusterSettings fresh;
    fresh.name = "new-cluster";
    setFormSettings(fresh);
    form_->editName();
}

void ClustersWidget::showClusters(const std::vector<ClusterSettings>& clusters) {
    listing_ = true;
    model_->setClusters(clusters);
    const int row = model_->rowOf(qs(form_->shown().name));
    if (row >= 0) {
        view_->setCurrentIndex(model_->index(row, 0));
        view_->selectRow(row);
    } else {
        view_->selectionModel()->clear(); // a new cluster, not saved yet
    }
    listing_ = false;
    remove_->setEnabled(!isLocalMachine(form_->shown()) && row > 0);
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
    if (listing_ || row < 0) return;
    setFormSettings(model_->cluster(row));
}

void ClustersWidget::setFormSettings(const ClusterSettings& c) {
    form_->setSettings(c);
    const bool local = isLocalMachine(c);
    save_->setEnabled(!local);
    remove_->setEnabled(!local && model_->rowOf(qs(c.name)) > 0);
    report_.reset();
    trust_->hide();
    setStatus(local ? tr("This machine: runs start with <tt>mpirun</tt> here. It needs no settings.")
                    : QString());
}

ClusterSettings ClustersWidget::formSettings() const {
    return form_->settings();
}

bool ClustersWidget::saveForm() {
    const ClusterSettings c = formSettings();
    form_->markFields({});
    QString problem;
    if (isLocalMachine(form_->shown()))
        problem = tr("'local' is this machine: it has no settings to save.");
    else if (c.name == kLocalClusterName)
        problem = tr("Give the cluster a name other than 'local'.");
    if (!problem.isEmpty()) {
        setStatus(red(problem));
        return false;
    }
    // What ssh or Slurm would refuse is not kept: each field at fault is marked and named.
    const auto problems = clusterProblems(c);
    if (!problems.empty()) {
        form_->markFields(problems);
        QString text = QStringLiteral("<span style='color:#b00020'><b>%1</b></span>").arg(tr("Not saved."));
        for (const auto& p : problems)
            text +=
                QStringLiteral("<br>%1: %2").arg(form_->fieldLabel(p.key).toHtmlEscaped(), html(p.problem));
        setStatus(text);
        return false;
    }
    // A renamed cluster replaces the one it was.
    const std::string& was = form_->shown().name;
    const bool renamed = !was.empty() && was != c.name && model_->rowOf(qs(was)) > 0;
    setStatus(tr("Saving '%1'...").arg(html(c.name)));
    store_.saveCluster(c, renamed ? was : std::string());
    return true;
}

// The form shows the cluster as saved, chosen in the fresh list.
void ClustersWidget::showSaved(const StoredClusterChange& change) {
    if (!change.error.isEmpty()) {
        setStatus(red(tr("Not saved: %1").arg(change.error)));
        return;
    }
    setFormSettings(change.cluster);
    showClusters(change.clusters);
    setStatus(tr("Saved '%1'.").arg(html(change.cluster.name)));
    emit clustersChanged(change.clusters);
}

bool ClustersWidget::removeSelected() {
    const int row = view_->currentIndex().row();
    if (!model_->isRemovable(row)) return false;
    store_.removeCluster(model_->cluster(row).name);
    return true;
}

// The form shows this machine, chosen in the fresh list.
void ClustersWidget::showRemoved(const StoredClusterChange& change) {
    if (!change.error.isEmpty()) {
        setStatus(red(tr("Not removed: %1").arg(change.error)));
        reload(); // the list may be out of date
        return;
    }
    setFormSettings(localMachine());
    showClusters(change.clusters);
    emit clustersChanged(change.clusters);
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

QString ClustersWidget::connectionText() const {
    return status_->text();
}

} // namespace scalebench
