// The plan builder offscreen: the catalog tree, fields that become the TOML preview and the job scripts,
// inline errors, save and reopen, launch.
#include "default_rank_counts.h"
#include "gpu_counts_section.h"
#include "plan_builder_widget.h"
#include "plan_writer.h"
#include "run_plan.h"
#include "widget_testing.h"
#include "workload_catalog_model.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <catch2/catch.hpp>

using namespace scalebench;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

std::string str(const QString& text) {
    return text.toStdString();
}

// What a drawn builder has at least: well under what it measures at 1100 x 700 (about 680 colours, 50 to 60 %
// of pixels off the background colour); a blank one has 1 colour and 0 %.
constexpr int kLeastColours = 200;
constexpr double kLeastForeground = 0.25;

// Renders at 1100 x 700 and checks the rendering has content: the catalog, the run groups, the form (the
// first of the tabs it shares with the previews) and the buttons are all there, whole and apart. Saved where
// SCALEBENCH_SCREENSHOTS names a folder.
void screenshot(QWidget& widget, const QString& name) {
    widget.resize(1100, 700);
    widget.show();
    QCoreApplication::processEvents();
    const QImage image = widget.grab().toImage();
    REQUIRE(!image.isNull());
    INFO(image.width() << " x " << image.height());
    CHECK(image.size() == QSize(1100, 700));
    CHECK(distinctColours(image) >= kLeastColours);
    CHECK(foregroundFraction(image) >= kLeastForeground);
    checkLaidOut(widget, {"planName", "workloadTree", "addWorkload", "runGroups", "removeGroup", "runGroup",
                          "planError", "openPlan", "savePlan", "launch"});
    checkLaidOut(widget,
                 {"dataset", "gpuCounts", "precision", "batchPerGpu", "steps", "backend", "environment"});
    const QString folder = qEnvironmentVariable("SCALEBENCH_SCREENSHOTS");
    if (!folder.isEmpty()) CHECK(image.save(QDir(folder).filePath(name)));
}

void setEnvironment(QTableWidget* table, const std::map<std::string, std::string>& env) {
    table->setRowCount(0);
    for (const auto& [name, value] : env) {
        const int row = table->rowCount();
        table->insertRow(row);
        table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(name)));
        table->setItem(row, 1, new QTableWidgetItem(QString::fromStdString(value)));
    }
}

ClusterSettings slurmCluster() {
    ClusterSettings c;
    c.name = "gpu-cluster";
    c.host = "head.example.org";
    c.partition = "gpu";
    c.tasks_per_node = 8;
    c.gpus_per_node = 8;
    c.remote_root = "/home/me/scalebench";
    return c;
}

} // namespace

TEST_CASE("WorkloadCatalogModel lists the catalog's workloads under their groups", "[ui][plan]") {
    WorkloadCatalogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    REQUIRE(model.rowCount() >= 2);
    const QModelIndex resnet = model.indexOf(QStringLiteral("resnet20"));
    REQUIRE(resnet.isValid());
    CHECK(resnet.parent().data().toString() == "MLBench tasks");
    CHECK(resnet.siblingAtColumn(1).data().toString().startsWith("fp32"));
    const QModelIndex sweep = model.indexOf(QStringLiteral("allreduce-sweep"));
    REQUIRE(sweep.isValid());
    CHECK(sweep.parent().data().toString() == "Collectives");
    CHECK_FALSE(model.indexOf(QStringLiteral("nonesuch")).isValid());
    // Groups without workloads are not shown; groups cannot be chosen as workloads.
    for (int row = 0; row < model.rowCount(); ++row) {
        CHECK(model.rowCount(model.index(row, 0)) > 0);
        CHECK_FALSE(model.itemFromIndex(model.index(row, 0))->isSelectable());
    }
}

TEST_CASE("the builder's fields become a TOML preview that reads back to the plan they describe",
          "[ui][plan]") {
    PlanBuilderWidget builder;
    typeInto(child<QLineEdit>(builder, "planName"), "scaling");
    typeInto(child<QLineEdit>(builder, "planDescription"), "weak scaling");
    child<QSpinBox>(builder, "repeats")->setValue(3);
    child<QSpinBox>(builder, "maxGpus")->setValue(16);
    child<QPushButton>(builder, "powersOfTwo")->click();
    CHECK(child<QLineEdit>(builder, "gpuCounts")->text() == "1, 2, 4, 8, 16");
    child<QSpinBox>(builder, "gpusPerNode")->setValue(4);
    child<QComboBox>(builder, "dataset")->setCurrentText("synthetic-cifar");
    child<QComboBox>(builder, "precision")->setCurrentText("bf16");
    child<QSpinBox>(builder, "batchPerGpu")->setValue(64);
    child<QSpinBox>(builder, "steps")->setValue(500);
    child<QDoubleSpinBox>(builder, "targetAccuracy")->setValue(90);
    child<QComboBox>(builder, "backend")->setCurrentText("nccl");
    child<QDoubleSpinBox>(builder, "bucketMb")->setValue(50);
    child<QCheckBox>(builder, "overlap")->setChecked(false);
    setEnvironment(child<QTableWidget>(builder, "environment"), {{"NCCL_DEBUG", "INFO"}});

    INFO(str(builder.tomlText()));
    CHECK(builder.errorText().isEmpty());
    CHECK(child<QPushButton>(builder, "launch")->isEnabled());
    // Only resnet20's precisions are offered.
    CHECK(child<QComboBox>(builder, "precision")->count() == 3);

    const RunPlan plan = parsePlanText(builder.tomlText().toStdString(), "preview.toml");
    CHECK(plan.name == "scaling");
    CHECK(plan.description == "weak scaling");
    CHECK(plan.repeats == 3);
    REQUIRE(plan.groups.size() == 1);
    const RunGroup& g = plan.groups[0];
    CHECK(g.workload == "resnet20");
    CHECK(g.dataset == "synthetic-cifar");
    CHECK(g.ranks == std::vector<int>{1, 2, 4, 8, 16});
    CHECK(g.gpus_per_node == 4);
    CHECK(g.precision == "bf16");
    CHECK(g.batch_per_rank == 64);
    CHECK(g.steps == 500);
    CHECK(g.target == Approx(90)); // in %, as shown
    CHECK(g.backend == "nccl");
    CHECK(g.bucket_mb == 50);
    CHECK_FALSE(g.overlap);
    CHECK(g.env == std::map<std::string, std::string>{{"NCCL_DEBUG", "INFO"}});
    CHECK(expandPlan(plan).size() == 15);
    CHECK(builder.plan().groups.at(0) == g);
}

TEST_CASE("the job-script preview shows the sbatch script for a Slurm cluster and mpirun for this machine",
          "[ui][plan]") {
    PlanBuilderWidget builder;
    builder.setClusters({slurmCluster()});
    child<QLineEdit>(builder, "gpuCounts")->setText("2, 16");
    child<QSpinBox>(builder, "gpusPerNode")->setValue(4);
    child<QComboBox>(builder, "backend")->setCurrentText("nccl");
    setEnvironment(child<QTableWidget>(builder, "environment"), {{"NCCL_DEBUG", "INFO"}});
    auto* cluster = child<QComboBox>(builder, "previewCluster");
    auto* run = child<QComboBox>(builder, "previewRun");
    REQUIRE(cluster->count() == 2);
    CHECK(cluster->itemText(0) == "local");
    REQUIRE(run->count() == 2);

    cluster->setCurrentText("gpu-cluster");
    run->setCurrentIndex(1);
    const std::string sbatch = str(builder.jobScriptText());
    INFO(sbatch);
    CHECK_THAT(sbatch, Contains("#!/bin/bash") && Contains("#SBATCH --nodes=4\n") &&
                           Contains("#SBATCH --ntasks=16\n") && Contains("#SBATCH --ntasks-per-node=4\n") &&
                           Contains("#SBATCH --partition=gpu\n") && Contains("export NCCL_DEBUG=INFO\n") &&
                           Contains("srun --mpi=pmix /home/me/scalebench/engine/") &&
                           Contains("--backend nccl") && Contains("4 node(s) x 4"));
    CHECK(builder.selectedCluster() == "gpu-cluster");

    cluster->setCurrentText("local");
    run->setCurrentIndex(0);
    const std::string local = str(builder.jobScriptText());
    INFO(local);
    CHECK_THAT(local, StartsWith("# run 1") && Contains("\nmpirun -np 2 ") &&
                          Contains(" -x NCCL_DEBUG=INFO ") &&
                          Contains("scalebench-engine --workload resnet20"));
}

TEST_CASE("invalid values are shown inline, never as an empty preview, and block the launch", "[ui][plan]") {
    PlanBuilderWidget builder;
    builder.resize(1100, 700);
    builder.show();
    QCoreApplication::processEvents();
    auto* launch = child<QPushButton>(builder, "launch");
    QSignalSpy launched(&builder, &PlanBuilderWidget::launchRequested);
    REQUIRE(launch->isEnabled());
    SECTION("a GPU count that is not a number") {
        typeInto(child<QLineEdit>(builder, "gpuCounts"), "1, two");
        CHECK_THAT(str(builder.errorText()), Contains("GPU counts: 'two'"));
        CHECK_THAT(str(builder.jobScriptText()), Contains("No job scripts") && Contains("'two'"));
        CHECK_THAT(str(builder.tomlText()), Contains("[[run]]"));
    }
    SECTION("an environment variable a shell would not take") {
        setEnvironment(child<QTableWidget>(builder, "environment"), {{"1X", "a"}});
        CHECK_THAT(str(builder.errorText()), Contains("'1X' in 'env' is not an environment variable name"));
    }
    SECTION("a plan without a name") {
        typeInto(child<QLineEdit>(builder, "planName"), "");
        CHECK_FALSE(builder.errorText().isEmpty());
    }
    SECTION("a sweep with no collective") {
        builder.addWorkload("allreduce-sweep");
        for (const char* c : {"collective-allreduce", "collective-allgather"})
            child<QCheckBox>(builder, c)->setChecked(false);
        CHECK_THAT(str(builder.errorText()), Contains("'collectives' is empty"));
    }
    SECTION("a plan without runs") {
        QTest::mouseClick(child<QPushButton>(builder, "removeGroup"), Qt::LeftButton);
        CHECK_THAT(str(builder.errorText()), Contains("no runs"));
    }
    // Shown inline, and Launch is off: clicking it launches nothing.
    CHECK(child<QLabel>(builder, "planError")->isVisible());
    CHECK_FALSE(launch->isEnabled());
    QTest::mouseClick(launch, Qt::LeftButton);
    QTest::keyClick(launch, Qt::Key_Space);
    CHECK(launched.count() == 0);

    // Fixed, it launches again.
    builder.setPlan(parsePlanFile(SCALEBENCH_SOURCE_DIR "/resources/plans/quickstart.toml"));
    CHECK(builder.errorText().isEmpty());
    REQUIRE(launch->isEnabled());
    QTest::mouseClick(launch, Qt::LeftButton);
    REQUIRE(launched.count() == 1);
    CHECK(launched.at(0).at(0).value<RunPlan>().name == "quickstart");
}

TEST_CASE("a collective sweep offers collectives, element types and in place, and training fields are off",
          "[ui][plan]") {
    PlanBuilderWidget builder;
    builder.addWorkload("allreduce-sweep");
    CHECK(child<QCheckBox>(builder, "collective-allreduce")->isChecked());
    CHECK(child<QCheckBox>(builder, "collective-alltoall")->isEnabled());
    CHECK_FALSE(child<QDoubleSpinBox>(builder, "targetAccuracy")->isEnabled());
    child<QCheckBox>(builder, "collective-allgather")->setChecked(true);
    child<QCheckBox>(builder, "dtype-bfloat16")->setChecked(true);
    child<QComboBox>(builder, "inPlace")->setCurrentText("both");
    INFO(str(builder.tomlText()));
    const RunPlan plan = parsePlanText(builder.tomlText().toStdString(), "p.toml");
    REQUIRE(plan.groups.size() == 2); // resnet20 from the start, then the sweep
    CHECK(plan.groups[1].collectives == std::vector<std::string>{"allreduce", "allgather"});
    CHECK(plan.groups[1].dtypes == std::vector<std::string>{"float32", "bfloat16"});
    CHECK(plan.groups[1].in_place == "both");
    CHECK(plan.groups[0].collectives == std::vector<std::string>{"allreduce"}); // untouched
}

TEST_CASE("a saved plan reopens to the same plan, and a broken one is refused with its error", "[ui][plan]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    PlanBuilderWidget builder;
    builder.addWorkload("allreduce-sweep");
    child<QLineEdit>(builder, "gpuCounts")->setText("2, 4");
    child<QComboBox>(builder, "backend")->setCurrentText("gloo");
    const QString path = dir.filePath("saved.toml");
    REQUIRE(builder.savePlan(path));

    PlanBuilderWidget reopened;
    REQUIRE(reopened.openPlan(path));
    CHECK(reopened.tomlText() == builder.tomlText());
    REQUIRE(reopened.plan().groups.size() == 2);
    CHECK(reopened.plan().groups == builder.plan().groups);
    CHECK(parsePlanFile(path.toStdString()).groups == builder.plan().groups); // what --batch reads

    QFile broken(dir.filePath("broken.toml"));
    REQUIRE(broken.open(QIODevice::WriteOnly));
    broken.write("name = \"b\"\n[[run]]\nworkload = \"allreduce-sweep\"\nranks = 2\nprecision = \"bf16\"\n");
    broken.close();
    CHECK_FALSE(reopened.openPlan(broken.fileName()));
    CHECK_THAT(str(reopened.errorText()),
               Contains("broken.toml:5:") && Contains("supports precision fp32 only"));
    CHECK(reopened.plan().groups == builder.plan().groups); // the plan shown is kept

    child<QLineEdit>(builder, "gpuCounts")->setText("x");
    CHECK_FALSE(builder.savePlan(dir.filePath("never.toml")));
    CHECK_FALSE(QFile::exists(dir.filePath("never.toml")));
}

TEST_CASE("Launch hands over the plan read from the preview and the launch target chosen beside it",
          "[ui][plan]") {
    PlanBuilderWidget builder;
    builder.setClusters({slurmCluster()});
    QSignalSpy spy(&builder, &PlanBuilderWidget::launchRequested);
    REQUIRE(builder.setLaunchTarget("gpu-cluster"));
    child<QPushButton>(builder, "launch")->click();
    REQUIRE(spy.count() == 1);
    const auto plan = spy.at(0).at(0).value<RunPlan>();
    CHECK(plan.name == "new-plan");
    CHECK(plan.source_text == builder.tomlText().toStdString());
    CHECK(spy.at(0).at(1).toString() == "gpu-cluster");
}

TEST_CASE("the plan builder renders at 1100 x 700", "[ui][plan]") {
    PlanBuilderWidget builder;
    builder.setClusters({slurmCluster()});
    setEnvironment(child<QTableWidget>(builder, "environment"),
                   {{"NCCL_DEBUG", "INFO"}, {"OMP_NUM_THREADS", "4"}});
    screenshot(builder, QStringLiteral("plan-builder.png"));
    builder.addWorkload("allreduce-sweep");
    child<QLineEdit>(builder, "gpuCounts")->setText("2, x");
    // The screenshot shows the error it is named for: the word refused, and no launch of the last valid plan.
    CHECK(builder.errorText() == "GPU counts: 'x' is not a positive whole number");
    CHECK(child<QLabel>(builder, "planError")->text() == builder.errorText());
    CHECK_FALSE(child<QPushButton>(builder, "launch")->isEnabled());
    screenshot(builder, QStringLiteral("plan-builder-sweep-error.png"));
}

TEST_CASE(
    "the builder offers a workload's presets and sequence length, and its target in the workload's metric",
    "[ui][plan]") {
    PlanBuilderWidget builder;
    builder.addWorkload("llama");
    auto* preset = child<QComboBox>(builder, "preset");
    CHECK(preset->isEnabled());
    CHECK(preset->count() == 6);
    CHECK(preset->currentText() == "small");
    preset->setCurrentText("7b");
    child<QSpinBox>(builder, "seqLen")->setValue(2048);
    CHECK(child<QLabel>(builder, "targetLabel")->text() == "or at eval loss");
    child<QDoubleSpinBox>(builder, "targetAccuracy")->setValue(3.5);
    const RunGroup& g = builder.plan().groups.back();
    CHECK(g.preset == "7b");
    CHECK(g.seq_len == 2048);
    CHECK(g.target == Approx(3.5));
    const RunPlan back = parsePlanText(builder.tomlText().toStdString(), "preview.toml");
    CHECK(back.groups.back() == g);

    builder.addWorkload("resnet20"); // no presets, no sequences, accuracy in percent
    CHECK_FALSE(child<QComboBox>(builder, "preset")->isEnabled());
    CHECK_FALSE(child<QSpinBox>(builder, "seqLen")->isEnabled());
    CHECK(child<QLabel>(builder, "targetLabel")->text() == "or at accuracy");
    child<QDoubleSpinBox>(builder, "targetAccuracy")->setValue(90);
    CHECK(builder.plan().groups.back().target == Approx(90));
}

// The keys a seed sets are in the builder too: the data set's folder, a global batch, epochs.
TEST_CASE("the builder sets a data set's folder, a global batch and epochs, which the preview carries",
          "[ui][plan]") {
    PlanBuilderWidget builder;
    child<QComboBox>(builder, "dataset")->setCurrentText("cifar10");
    typeInto(child<QLineEdit>(builder, "dataDir"), "cifar-10-batches-bin");
    child<QSpinBox>(builder, "globalBatch")->setValue(256);
    child<QDoubleSpinBox>(builder, "epochs")->setValue(164);
    INFO(str(builder.tomlText()));
    CHECK(builder.errorText().isEmpty());
    const RunGroup g = parsePlanText(builder.tomlText().toStdString(), "preview.toml").groups.at(0);
    CHECK(g.dataset == "cifar10");
    CHECK(g.data_dir == "cifar-10-batches-bin");
    CHECK(g.global_batch == 256);
    CHECK(g.epochs == 164);
    CHECK(g.target == 80); // the seed's for ResNet-20 on CIFAR-10, the data set's when it was chosen
    CHECK(child<QDoubleSpinBox>(builder, "targetAccuracy")->value() == 80);
    CHECK_THAT(str(builder.tomlText()), Contains("epochs = 164") && !Contains("steps ="));
}

TEST_CASE("the training fields start where the engine option table's rows do", "[ui][plan]") {
    PlanBuilderWidget builder;
    CHECK(child<QSpinBox>(builder, "steps")->minimum() == std::stoi(engine_cli::accepts::steps));
    CHECK(child<QSpinBox>(builder, "batchPerGpu")->minimum() ==
          std::stoi(engine_cli::accepts::batch_per_rank));
    CHECK(child<QSpinBox>(builder, "globalBatch")->minimum() == std::stoi(engine_cli::accepts::global_batch));
    CHECK(child<QSpinBox>(builder, "seqLen")->minimum() == std::stoi(engine_cli::accepts::seq_len));
    CHECK(child<QDoubleSpinBox>(builder, "epochs")->minimum() == std::stod(engine_cli::accepts::epochs));
}

TEST_CASE("a command's run group is edited in its own section and its container job script is previewed",
          "[ui][plan]") {
    PlanBuilderWidget builder;
    builder.setClusters({slurmCluster()});
    child<QPushButton>(builder, "addCommand")->click();
    REQUIRE(builder.plan().groups.size() == 2);
    CHECK(builder.plan().groups[1].isCommand());
    CHECK_FALSE(child<QWidget>(builder, "backend")->isVisibleTo(&builder)); // the engine's settings are away
    CHECK(child<QWidget>(builder, "command")->isVisibleTo(&builder));

    auto* command = child<QLineEdit>(builder, "command");
    command->setText("/nccl-tests/build/all_reduce_perf -b 8 -e 8G -f 2 -g 1");
    emit command->textEdited(command->text());
    child<QComboBox>(builder, "outputFormat")->setCurrentText("nccl-tests");
    auto* image = child<QLineEdit>(builder, "containerImage");
    image->setText("nvcr.io#nvidia/pytorch:24.04-py3");
    emit image->textEdited(image->text());
    auto* mounts = child<QLineEdit>(builder, "containerMounts");
    mounts->setText("/scratch/nccl-tests:/nccl-tests:ro");
    emit mounts->textEdited(mounts->text());
    child<QLineEdit>(builder, "gpuCounts")->setText("8, 16");
    REQUIRE(str(builder.errorText()).empty());
    CHECK_THAT(str(builder.tomlText()),
               Contains("command = [\"/nccl-tests/build/all_reduce_perf\", \"-b\", \"8\"") &&
                   Contains("format = \"nccl-tests\"") &&
                   Contains("container_image = \"nvcr.io#nvidia/pytorch:24.04-py3\""));

    child<QComboBox>(builder, "previewCluster")->setCurrentText("gpu-cluster");
    auto* run = child<QComboBox>(builder, "previewRun");
    run->setCurrentIndex(run->findText("all_reduce_perf-n16-r1", Qt::MatchContains));
    const std::string sbatch = str(builder.jobScriptText());
    INFO(sbatch);
    CHECK_THAT(sbatch, Contains("#SBATCH --nodes=2\n") &&
                           Contains("srun --mpi=pmix '--container-image=nvcr.io#nvidia/pytorch:24.04-py3' "
                                    "--container-mounts=") &&
                           Contains(",/scratch/nccl-tests:/nccl-tests:ro --container-workdir=\"$PWD\" "
                                    "/nccl-tests/build/all_reduce_perf -b 8 -e 8G -f 2 -g 1 > output.log\n"));

    // A command line only a shell reads is named in the error line, and blocks the launch.
    command->setText("all_reduce_perf | tee log");
    emit command->textEdited(command->text());
    CHECK_THAT(str(builder.errorText()), Contains("Command:") && Contains("'|'"));
    CHECK_FALSE(child<QPushButton>(builder, "launch")->isEnabled());
}

TEST_CASE("a new run group asks for the powers of two up to what the launch target runs at once, and a group "
          "left at those defaults follows the target",
          "[ui][plan]") {
    // On this machine: up to its cores (1, 2 on a 2-core laptop, where it was 1, 2, 4, 8 everywhere).
    const std::vector<int> here = powersOfTwoUpTo(QThread::idealThreadCount());
    PlanBuilderWidget builder;
    auto* counts = child<QLineEdit>(builder, "gpuCounts");
    CHECK(str(counts->text()) == str(GpuCountsSection::ranksText(here)));
    REQUIRE(builder.plan().groups.size() == 1);
    CHECK(builder.plan().groups.front().ranks == here);
    CHECK(parsePlanText(builder.tomlText().toStdString(), "preview.toml").groups.front().ranks == here);

    // Launched on a cluster of 4 GPUs a node: the default group follows, and a group added there starts so.
    ClusterSettings four = slurmCluster();
    four.name = "four-gpus";
    four.gpus_per_node = 4;
    builder.setClusters({four});
    REQUIRE(builder.setLaunchTarget(QStringLiteral("four-gpus")));
    CHECK(builder.plan().groups.front().ranks == std::vector<int>{1, 2, 4});
    CHECK(str(counts->text()) == "1, 2, 4");
    builder.addWorkload("allreduce-sweep");
    REQUIRE(builder.plan().groups.size() == 2);
    CHECK(builder.plan().groups.back().ranks == std::vector<int>{1, 2, 4});

    // Counts typed by hand are the user's: back on this machine only the untouched group changes.
    typeInto(counts, "1, 3");
    CHECK(builder.plan().groups.back().ranks == std::vector<int>{1, 3});
    REQUIRE(builder.setLaunchTarget(QStringLiteral("local")));
    CHECK(builder.plan().groups.front().ranks == here);
    CHECK(builder.plan().groups.back().ranks == std::vector<int>{1, 3});

    // An opened plan's counts are its own, whatever the target.
    const RunPlan opened =
        parsePlanText("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1, 2, 4, 8]\n", "p.toml");
    builder.setPlan(opened);
    REQUIRE(builder.setLaunchTarget(QStringLiteral("four-gpus")));
    CHECK(builder.plan().groups.front().ranks == std::vector<int>{1, 2, 4, 8});
}
