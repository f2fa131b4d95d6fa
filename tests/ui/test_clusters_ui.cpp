// The clusters view offscreen over a real session store, read and written through the store worker: the list
// with "local" first, the form, add, save, remove (driven by typing and clicking, as a user does), its
// rendering, and a connection test of this machine.
#include "cluster_form.h"
#include "cluster_list_model.h"
#include "clusters_widget.h"
#include "session_store.h"
#include "stored_session_loader.h"
#include "widget_testing.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDoubleSpinBox>
#include <QImage>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <catch2/catch.hpp>

using namespace scalebench;
using Catch::Matchers::Contains;

namespace {

// At the size screenshots use, laid out.
void showOffscreen(QWidget& widget) {
    widget.resize(1100, 700);
    widget.show();
    QCoreApplication::processEvents();
}

// The store worker's answers come later, on this thread: the list it was asked for at construction, and each
// save or removal (clustersChanged).
void waitForList(StoredSessionLoader& loader) {
    QSignalSpy listed(&loader, &StoredSessionLoader::clustersListed);
    REQUIRE(listed.wait(10000));
}

// The Clusters tab over a new store that keeps `clusters`, once the store worker has listed them.
struct ClustersTab {
    QTemporaryDir dir;
    SessionStore store{dir.filePath("s.sqlite").toStdString()};
    bool kept; // the clusters are in the store before the tab asks for them
    StoredSessionLoader loader{store.file()};
    ClustersWidget widget{loader};

    explicit ClustersTab(const std::vector<ClusterSettings>& clusters) : kept(keep(store, clusters)) {
        REQUIRE(dir.isValid());
        waitForList(loader);
    }
    static bool keep(SessionStore& store, const std::vector<ClusterSettings>& clusters) {
        for (const auto& c : clusters)
            store.saveCluster(c);
        return true;
    }
};

void waitForChanges(QSignalSpy& changed, int count) {
    while (changed.count() < count)
        REQUIRE(changed.wait(10000));
    REQUIRE(changed.count() == count);
}

int rowNamed(QTableView& table, const QString& name) {
    for (int row = 0; row < table.model()->rowCount(); ++row)
        if (table.model()->index(row, 0).data().toString() == name) return row;
    return -1;
}

// What a drawn view has at least: well under what it measures at 1100 x 700 (about 680 colours, 50 to 60 %
// of pixels off the background colour); a blank one has 1 colour and 0 %.
constexpr int kLeastColours = 200;
constexpr double kLeastForeground = 0.25;

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
    ClustersTab tab({cluster("alpha", "a.example.org")});
    SessionStore& store = tab.store;
    ClustersWidget& widget = tab.widget;
    showOffscreen(widget);
    QSignalSpy changed(&widget, &ClustersWidget::clustersChanged);
    auto* table = child<QTableView>(widget, "clusterTable");
    auto* name = child<QLineEdit>(widget, "clusterName");
    auto* host = child<QLineEdit>(widget, "host");
    auto* save = child<QPushButton>(widget, "saveCluster");
    auto* remove = child<QPushButton>(widget, "removeCluster");
    REQUIRE(table->model()->rowCount() == 2);
    // "local" is selected first: nothing to edit or remove, and clicking Save or Remove changes nothing.
    CHECK(name->text() == "local");
    CHECK_FALSE(name->isEnabled());
    CHECK_FALSE(remove->isEnabled());
    CHECK_FALSE(save->isEnabled());
    click(remove);
    click(save);
    CHECK(store.clusterNames() == std::vector<std::string>{"alpha"});
    CHECK(changed.count() == 0);

    // Chosen in the list, edited, saved.
    clickRow(*table, 1);
    CHECK(name->text() == "alpha");
    CHECK(host->text() == "a.example.org");
    CHECK(child<QSpinBox>(widget, "port")->value() == 2222);
    typeInto(child<QLineEdit>(widget, "partition"), "h100");
    typeInto(child<QSpinBox>(widget, "clusterGpusPerNode"), "8");
    QTest::keyClick(child<QComboBox>(widget, "launcher"), Qt::Key_Down);
    CHECK(child<QComboBox>(widget, "launcher")->currentText() == "mpirun");
    click(save);
    waitForChanges(changed, 1);
    CHECK_THAT(widget.connectionText().toStdString(), Contains("Saved 'alpha'"));
    REQUIRE(store.cluster("alpha"));
    CHECK(store.cluster("alpha")->partition == "h100");
    CHECK(store.cluster("alpha")->gpus_per_node == 8);
    CHECK(store.cluster("alpha")->launcher == ClusterSettings::Launcher::Mpirun);
    CHECK(store.cluster("alpha")->user == "me"); // fields left alone are kept

    // Add, then back to the cluster that was chosen: the form shows it again.
    click(child<QPushButton>(widget, "addCluster"));
    CHECK(name->text() == "new-cluster");
    CHECK_FALSE(remove->isEnabled());
    clickRow(*table, 1);
    CHECK(name->text() == "alpha");
    CHECK(child<QLineEdit>(widget, "partition")->text() == "h100");

    click(child<QPushButton>(widget, "addCluster"));
    CHECK(name->text() == "new-cluster");
    typeInto(host, "");
    click(save); // no host
    CHECK_THAT(widget.connectionText().toStdString(), Contains("host name"));
    typeInto(name, "local");
    typeInto(host, "b.example.org");
    click(save); // "local" is this machine
    CHECK_THAT(widget.connectionText().toStdString(), Contains("other than 'local'"));
    CHECK(store.clusterNames() == std::vector<std::string>{"alpha"});
    typeInto(name, "beta");
    typeInto(child<QLineEdit>(widget, "identityFiles"), "~/.ssh/a, ~/.ssh/b");
    click(save);
    waitForChanges(changed, 2);
    CHECK(table->model()->rowCount() == 3);
    CHECK(table->currentIndex().row() ==
          rowNamed(*table, "beta")); // the list refreshed, the saved one chosen
    CHECK(remove->isEnabled());
    REQUIRE(store.cluster("beta"));
    CHECK(store.cluster("beta")->host == "b.example.org");
    CHECK(store.cluster("beta")->identity_files == std::vector<std::string>{"~/.ssh/a", "~/.ssh/b"});

    typeInto(name, "gamma"); // a rename replaces it
    click(save);
    waitForChanges(changed, 3);
    CHECK(store.clusterNames() == std::vector<std::string>{"alpha", "gamma"});

    clickRow(*table, rowNamed(*table, "gamma"));
    CHECK(name->text() == "gamma");
    CHECK(remove->isEnabled());
    click(remove);
    waitForChanges(changed, 4);
    CHECK(store.clusterNames() == std::vector<std::string>{"alpha"});
    CHECK(table->model()->rowCount() == 2);
    CHECK(name->text() == "local");
    CHECK(changed.count() == 4);
    CHECK_FALSE(store.removeCluster("gamma"));
}

TEST_CASE("testing this machine's connection reports mpirun on a worker thread", "[ui][clusters]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    SessionStore store(dir.filePath("s.sqlite").toStdString());
    StoredSessionLoader loader(store.file());
    ClustersWidget widget(loader);
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
    ClusterSettings c = cluster("jean-zay", "jean-zay.idris.fr");
    c.setup_lines = {"module load cuda/12.4", "module load openmpi"};
    c.nccl_env = {{"NCCL_IB_HCA", "mlx5"}};
    ClustersTab tab({c});
    ClustersWidget& widget = tab.widget;
    widget.selectCluster("jean-zay");
    showOffscreen(widget);
    const QImage image = widget.grab().toImage();
    REQUIRE(image.size() == QSize(1100, 700));
    // Drawn, not blank: a list, two forms of fields and their text cover a good part of the view.
    CHECK(distinctColours(image) >= kLeastColours);
    CHECK(foregroundFraction(image) >= kLeastForeground);
    checkLaidOut(widget, {"clusterTable", "addCluster", "removeCluster", "headNodeSettings", "jobSettings",
                          "saveCluster", "testConnection", "connectionStatus"});
    checkLaidOut(widget,
                 {"clusterName", "host", "identityFiles", "partition", "launcher", "setupLines", "ncclEnv"});
    CHECK(child<QPlainTextEdit>(widget, "setupLines")->toPlainText() ==
          "module load cuda/12.4\nmodule load openmpi");
    const QString folder = qEnvironmentVariable("SCALEBENCH_SCREENSHOTS");
    if (!folder.isEmpty()) CHECK(image.save(QDir(folder).filePath("clusters.png")));
}

TEST_CASE("the form refuses to save a setting Slurm or ssh would refuse, and says which field and why",
          "[ui][clusters]") {
    ClustersTab tab({cluster("alpha", "a.example.org")});
    SessionStore& store = tab.store;
    ClustersWidget& widget = tab.widget;
    showOffscreen(widget);
    QSignalSpy changed(&widget, &ClustersWidget::clustersChanged);
    clickRow(*child<QTableView>(widget, "clusterTable"), 1);
    auto* save = child<QPushButton>(widget, "saveCluster");
    auto* time_limit = child<QLineEdit>(widget, "timeLimit");
    auto* partition = child<QLineEdit>(widget, "partition");

    // The time limit: sbatch alone caught it, after the session had started.
    typeInto(time_limit, "$(reboot)");
    click(save);
    CHECK(store.cluster("alpha")->time_limit == "01:00:00");
    CHECK(changed.count() == 0);
    CHECK_THAT(widget.connectionText().toStdString(),
               Contains("Time limit") && Contains("'$(reboot)'") && Contains("days-hours:minutes:seconds"));
    // The field itself says so, and has the focus.
    CHECK_THAT(time_limit->toolTip().toStdString(), Contains("'$(reboot)'"));
    CHECK(time_limit->hasFocus());
    CHECK_FALSE(time_limit->styleSheet().isEmpty());

    typeInto(time_limit, "2-00:00:00");
    typeInto(partition, "gpu long");
    click(save);
    CHECK(store.cluster("alpha")->partition == "gpu");
    CHECK_THAT(widget.connectionText().toStdString(), Contains("Partition") && Contains("'gpu long'"));
    CHECK(time_limit->toolTip().isEmpty()); // no longer wrong
    CHECK(time_limit->styleSheet().isEmpty());
    CHECK_THAT(partition->toolTip().toStdString(), Contains("'gpu long'"));

    auto* setup = child<QPlainTextEdit>(widget, "setupLines");
    setup->setFocus();
    QTest::keyClicks(setup, "module load cuda");
    typeInto(partition, "gpu,gpu-long");
    typeInto(child<QLineEdit>(widget, "host"), "-oProxyCommand=sh");
    click(save);
    CHECK(store.cluster("alpha")->host == "a.example.org");
    CHECK_THAT(widget.connectionText().toStdString(), Contains("Host") && Contains("'-oProxyCommand=sh'"));

    typeInto(child<QLineEdit>(widget, "host"), "a2.example.org");
    click(save);
    waitForChanges(changed, 1);
    REQUIRE(store.cluster("alpha"));
    CHECK(store.cluster("alpha")->host == "a2.example.org");
    CHECK(store.cluster("alpha")->partition == "gpu,gpu-long");
    CHECK(store.cluster("alpha")->time_limit == "2-00:00:00");
    CHECK(store.cluster("alpha")->setup_lines == std::vector<std::string>{"module load cuda"});
    CHECK(changed.count() == 1);
    CHECK_THAT(widget.connectionText().toStdString(), Contains("Saved 'alpha'"));
    CHECK(partition->toolTip().isEmpty());
}

TEST_CASE("a cluster's price per GPU-hour and currency are set in the form, and a bad currency is refused",
          "[ui][clusters][cost]") {
    ClustersTab tab({cluster("alpha", "a.example.org")});
    SessionStore& store = tab.store;
    ClustersWidget& widget = tab.widget;
    showOffscreen(widget);
    QSignalSpy changed(&widget, &ClustersWidget::clustersChanged);
    clickRow(*child<QTableView>(widget, "clusterTable"), 1);
    auto* price = child<QDoubleSpinBox>(widget, "pricePerGpuHour");
    auto* currency = child<QLineEdit>(widget, "currency");
    CHECK(price->value() == 0); // none yet: no costs
    CHECK(price->text() == "no price");
    CHECK(currency->text() == "USD");

    typeInto(price, "2.75");
    typeInto(currency, "eur");
    click(child<QPushButton>(widget, "saveCluster"));
    CHECK(changed.count() == 0);
    CHECK_THAT(widget.connectionText().toStdString(), Contains("Currency") && Contains("'eur'"));
    CHECK_THAT(currency->toolTip().toStdString(), Contains("three upper-case letters"));

    typeInto(currency, "EUR");
    click(child<QPushButton>(widget, "saveCluster"));
    waitForChanges(changed, 1);
    REQUIRE(store.cluster("alpha"));
    CHECK(store.cluster("alpha")->price_per_gpu_hour == Approx(2.75));
    CHECK(store.cluster("alpha")->currency == "EUR");
}

TEST_CASE(
    "the cluster form has a field for each key of the table it shows, filled and read back as the cluster's "
    "settings, and names each field as it is labelled",
    "[ui][clusters]") {
    ClusterForm form;
    ClusterSettings c;
    c.name = "prod";
    c.host = "login.example.org";
    c.port = 2222;
    c.identity_files = {"~/.ssh/a", "~/.ssh/b"};
    c.trust_on_first_use = true;
    c.time_limit = "02:00:00";
    c.tasks_per_node = 8;
    c.gres_syntax = true;
    c.launcher = ClusterSettings::Launcher::Mpirun;
    c.setup_lines = {"module load cuda/12.4", "module load openmpi"};
    c.nccl_env = {{"NCCL_IB_HCA", "mlx5"}, {"NCCL_DEBUG", "INFO"}};
    c.price_per_gpu_hour = 2.5;
    c.currency = "EUR";
    c.jobcomp_log = "/var/log/slurm/jobcomp.log"; // no field: kept as it was
    form.setSettings(c);
    CHECK(clusterToJson(form.settings()) == clusterToJson(c)); // every setting through its field and back
    CHECK(form.fieldLabel("time_limit") == "Time limit");
    CHECK(form.fieldLabel("gres_syntax") == "ask with --gres=gpu:N"); // a switch on a row of its own
    CHECK(form.fieldLabel("jobcomp_log") == "jobcomp_log (not in this form)");
}
