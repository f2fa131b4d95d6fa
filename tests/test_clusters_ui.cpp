// The clusters view offscreen over a real session store: the list with "local" first, the form, add, save,
// remove, and a connection test of this machine.
#include "cluster_list_model.h"
#include "clusters_widget.h"
#include "session_store.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QImage>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <catch2/catch.hpp>

using namespace scalebench;
using Catch::Matchers::Contains;

namespace {
template <typename T> T* child(QWidget& parent, const char* name) {
    T* widget = parent.findChild<T*>(QString::fromLatin1(name));
    INFO("no child " << name);
    REQUIRE(widget);
    return widget;
}

ClusterSettings cluster(const std::string& name, const std::string& host) {
    ClusterSettings c;
    c.name = name;
    c.host = host;
    c.user = "me";
    c.port = 2222;
    c.partition = "gpu";
    c.gpus_per_node = 4;
    return c;
}
} // namespace

TEST_CASE("ClusterListModel puts this machine first, not removable, and the stored clusters after it",
          "[ui][clusters]") {
    ClusterListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    REQUIRE(model.rowCount() == 1);
    CHECK(model.data(model.index(0, ClusterListModel::Name)).toString() == "local");
    CHECK(model.data(model.index(0, ClusterListModel::Host)).toString() == "this machine");
    CHECK_FALSE(model.isRemovable(0));

    ClusterSettings impostor = cluster("local", "elsewhere"); // "local" cannot be stored over this machine
    model.setClusters({cluster("alpha", "a.example.org"), impostor, cluster("beta", "b.example.org")});
    REQUIRE(model.rowCount() == 3);
    CHECK(model.rowOf("beta") == 2);
    CHECK(model.rowOf("gamma") == -1);
    CHECK(model.isRemovable(1));
    CHECK_FALSE(model.isRemovable(3));
    CHECK(model.data(model.index(1, ClusterListModel::Host)).toString() == "me@a.example.org:2222");
    CHECK(model.data(model.index(1, ClusterListModel::Scheduler)).toString() == "Slurm, gpu");
    CHECK(model.data(model.index(1, ClusterListModel::GpusPerNode)).toInt() == 4);
    CHECK(model.headerData(ClusterListModel::GpusPerNode, Qt::Horizontal).toString() == "GPUs");
    model.setClusters({});
    CHECK(model.rowCount() == 1);
}

TEST_CASE("clusters are added, edited, renamed and removed through the form, and kept in the store",
          "[ui][clusters]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    SessionStore store(dir.filePath("s.sqlite").toStdString());
    store.saveCluster(cluster("alpha", "a.example.org"));
    ClustersWidget widget(store);
    QSignalSpy changed(&widget, &ClustersWidget::clustersChanged);
    auto* table = child<QTableView>(widget, "clusterTable");
    REQUIRE(table->model()->rowCount() == 2);
    // "local" is selected first: nothing to edit or remove.
    CHECK(child<QLineEdit>(widget, "clusterName")->text() == "local");
    CHECK_FALSE(child<QPushButton>(widget, "removeCluster")->isEnabled());
    CHECK_FALSE(child<QPushButton>(widget, "saveCluster")->isEnabled());
    CHECK_FALSE(widget.removeSelected());

    widget.selectCluster("alpha");
    CHECK(child<QLineEdit>(widget, "host")->text() == "a.example.org");
    CHECK(child<QSpinBox>(widget, "port")->value() == 2222);
    child<QLineEdit>(widget, "partition")->setText("h100");
    child<QSpinBox>(widget, "clusterGpusPerNode")->setValue(8);
    child<QComboBox>(widget, "launcher")->setCurrentText("mpirun");
    REQUIRE(widget.saveForm());
    CHECK(store.cluster("alpha")->partition == "h100");
    CHECK(store.cluster("alpha")->gpus_per_node == 8);
    CHECK(store.cluster("alpha")->launcher == ClusterSettings::Launcher::Mpirun);
    CHECK(store.cluster("alpha")->user == "me"); // fields left alone are kept

    child<QPushButton>(widget, "addCluster")->click();
    CHECK(child<QLineEdit>(widget, "clusterName")->text() == "new-cluster");
    child<QLineEdit>(widget, "host")->clear();
    CHECK_FALSE(widget.saveForm()); // no host
    CHECK_THAT(widget.connectionText().toStdString(), Contains("host name"));
    child<QLineEdit>(widget, "clusterName")->setText("local");
    child<QLineEdit>(widget, "host")->setText("b.example.org");
    CHECK_FALSE(widget.saveForm()); // "local" is this machine
    child<QLineEdit>(widget, "clusterName")->setText("beta");
    child<QLineEdit>(widget, "identityFiles")->setText("~/.ssh/a, ~/.ssh/b");
    REQUIRE(widget.saveForm());
    CHECK(table->model()->rowCount() == 3);
    CHECK(store.cluster("beta")->identity_files == std::vector<std::string>{"~/.ssh/a", "~/.ssh/b"});

    child<QLineEdit>(widget, "clusterName")->setText("gamma"); // a rename replaces it
    REQUIRE(widget.saveForm());
    CHECK(store.clusterNames() == std::vector<std::string>{"alpha", "gamma"});

    widget.selectCluster("gamma");
    CHECK(child<QPushButton>(widget, "removeCluster")->isEnabled());
    REQUIRE(widget.removeSelected());
    CHECK(store.clusterNames() == std::vector<std::string>{"alpha"});
    CHECK(table->model()->rowCount() == 2);
    CHECK(changed.count() == 4);
    CHECK_FALSE(store.removeCluster("gamma"));
}

TEST_CASE("testing this machine's connection reports mpirun on a worker thread", "[ui][clusters]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    SessionStore store(dir.filePath("s.sqlite").toStdString());
    ClustersWidget widget(store);
    QSignalSpy done(&widget.connectionCheck(), &ConnectionCheck::finished);
    child<QPushButton>(widget, "testConnection")->click();
    CHECK_FALSE(child<QPushButton>(widget, "testConnection")->isEnabled()); // while it runs
    REQUIRE(done.wait(20000));
    REQUIRE(widget.lastReport().has_value());
    const ConnectionReport& r = *widget.lastReport();
    INFO(r.error);
    CHECK(r.local);
    CHECK(r.ok());
    CHECK_THAT(r.launcher, Contains("Open MPI") || Contains("mpirun"));
    CHECK_THAT(widget.connectionText().toStdString(), Contains("Ready."));
    CHECK(child<QPushButton>(widget, "testConnection")->isEnabled());
}

TEST_CASE("an unreachable cluster is reported with the reason", "[ui][clusters]") {
    ClusterSettings c = cluster("nowhere", "127.0.0.1");
    c.port = 1; // nothing listens there
    ConnectionCheck check;
    QSignalSpy done(&check, &ConnectionCheck::finished);
    check.check(c);
    REQUIRE(done.wait(20000));
    const auto r = done.at(0).at(0).value<ConnectionReport>();
    CHECK_FALSE(r.reachable);
    CHECK_FALSE(r.ok());
    CHECK_THAT(r.error, Contains("127.0.0.1:1") && Contains("cannot connect"));
}

TEST_CASE("a newer check supersedes an older one: only its report arrives", "[ui][clusters]") {
    ClusterSettings unreachable = cluster("nowhere", "127.0.0.1");
    unreachable.port = 1;
    ConnectionCheck check;
    QSignalSpy done(&check, &ConnectionCheck::finished);
    check.check(unreachable);
    check.check(localMachine());
    REQUIRE(done.wait(20000));
    while (check.running())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    REQUIRE(done.count() == 1);
    CHECK(done.at(0).at(0).value<ConnectionReport>().local);
}

TEST_CASE("the clusters view renders at 1100 x 700", "[ui][clusters]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    SessionStore store(dir.filePath("s.sqlite").toStdString());
    ClusterSettings c = cluster("jean-zay", "jean-zay.idris.fr");
    c.setup_lines = {"module load cuda/12.4", "module load openmpi"};
    c.nccl_env = {{"NCCL_IB_HCA", "mlx5"}};
    store.saveCluster(c);
    ClustersWidget widget(store);
    widget.selectCluster("jean-zay");
    widget.resize(1100, 700);
    widget.show();
    const QImage image = widget.grab().toImage();
    REQUIRE(image.size() == QSize(1100, 700));
    const QString folder = qEnvironmentVariable("SCALEBENCH_SCREENSHOTS");
    if (!folder.isEmpty()) CHECK(image.save(QDir(folder).filePath("clusters.png")));
}
