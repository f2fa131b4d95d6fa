// The comparison of two sessions offscreen: ComparisonModel's change coloured by which way each figure
// improves, beyond the noise only, and the settings and what ran (versions, job script, plan) listed only
// where they differ. Each model runs under QAbstractItemModelTester.
#include "analysis_view_samples.h"
#include "comparison_model.h"
#include "comparison_view.h"
#include "session_comparison.h"
#include "settings_diff_model.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QFont>
#include <QLabel>
#include <QTableView>
#include <catch2/catch.hpp>

using namespace scalebench;

TEST_CASE("ComparisonModel colours the change by which way each figure improves, beyond the noise only",
          "[ui][views]") {
    ComparisonModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    // Four repeats a side (two sessions' worth): enough for change or noise to call a change.
    const auto repeated = [](double speed) {
        auto runs = sampleTrainingSession(speed);
        const auto again = sampleTrainingSession(speed);
        runs.insert(runs.end(), again.begin(), again.end());
        return runs;
    };
    const auto rows = compareFigures(repeated(1.0), repeated(1.1)); // B 10% faster
    model.setComparison(rows, "last week", "tonight");
    REQUIRE(model.rowCount() == static_cast<int>(rows.size()));
    CHECK(model.headerData(ComparisonModel::A, Qt::Horizontal).toString() == "A");
    CHECK(model.headerData(ComparisonModel::A, Qt::Horizontal, Qt::ToolTipRole).toString() == "A: last week");
    auto find = [&](int ranks, const std::string& figure) {
        for (int row = 0; row < model.rowCount(); ++row)
            if (rows[static_cast<std::size_t>(row)].ranks == ranks &&
                rows[static_cast<std::size_t>(row)].figure == figure)
                return row;
        FAIL("no row " << figure);
        return -1;
    };
    const int throughput = find(4, "samples/s"), step = find(4, "step time"),
              hidden = find(1, "hidden communication");
    CHECK(model.index(throughput, ComparisonModel::Change).data().toString() == "+10.0% better");
    CHECK(model.index(throughput, ComparisonModel::Change).data(Qt::UserRole).toDouble() == Approx(10));
    auto background = [&](int row) {
        return model.index(row, ComparisonModel::Change).data(Qt::BackgroundRole).value<QBrush>().color();
    };
    CHECK(background(throughput).green() > background(throughput).red()); // more samples/s: better
    CHECK(background(step).green() > background(step).red());             // shorter steps: better too
    CHECK(model.index(step, ComparisonModel::Change).data().toString().startsWith("-9.")); // 1/1.1 - 1
    const int loss = find(4, "final loss");
    CHECK(model.index(loss, ComparisonModel::Change).data().toString() == "0.0% within noise");
    CHECK_FALSE(model.index(loss, ComparisonModel::Change).data(Qt::BackgroundRole).isValid());

    // Two repeats a side cannot tell, however large the change: no colour.
    model.setComparison(compareFigures(sampleTrainingSession(1.0), sampleTrainingSession(1.5)), "a", "b");
    CHECK(model.index(throughput, ComparisonModel::Change).data().toString() == "+50.0% cannot tell");
    CHECK_FALSE(model.index(throughput, ComparisonModel::Change).data(Qt::BackgroundRole).isValid());

    // The other way round, B is slower: worse, red.
    model.setComparison(compareFigures(repeated(1.1), repeated(1.0)), "a", "b");
    CHECK(background(throughput).red() > background(throughput).green());
    CHECK(background(step).red() > background(step).green());
    CHECK(model.index(hidden, ComparisonModel::Change).data().toString() == "A is 0: percent undefined");
    CHECK_FALSE(model.index(hidden, ComparisonModel::Change).data(Qt::BackgroundRole).isValid());
}

TEST_CASE("SettingsDiffModel and ComparisonView list only the settings that differ", "[ui][views]") {
    SettingsDiffModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    ComparisonView view;
    QAbstractItemModelTester figures_tester(view.figuresModel(), kFatal);
    QAbstractItemModelTester settings_tester(view.settingsModel(), kFatal);
    const auto a = sampleComparedSession("last week", 1.0, "2.10.0", 200);
    auto b = sampleComparedSession("tonight", 1.1, "2.11.0", 400);
    b.cluster_json = R"({"name":"prod","host":"login2","partition":"gpu","account":"ml"})";
    view.setSessions(a, b);
    showOffscreen(view);

    SettingsDiffModel* settings = view.settingsModel();
    REQUIRE(settings->rowCount() == 3);
    auto cell = [&](int row, int column) { return settings->index(row, column).data().toString(); };
    CHECK(cell(0, SettingsDiffModel::Key) == "cluster.account");
    CHECK(cell(0, SettingsDiffModel::A) == "(not set)");
    CHECK(settings->index(0, SettingsDiffModel::A).data(Qt::FontRole).value<QFont>().italic());
    CHECK(cell(0, SettingsDiffModel::B) == "ml");
    CHECK(cell(1, SettingsDiffModel::Key) == "cluster.host");
    CHECK(cell(2, SettingsDiffModel::Key) == "plan.run[0].steps");
    CHECK(cell(2, SettingsDiffModel::B) == "400");
    CHECK(settings->headerData(SettingsDiffModel::B, Qt::Horizontal).toString() == "B: tonight");

    // What ran: the versions, and of the job script and the plan only their differing lines.
    QAbstractItemModelTester capsules_tester(view.capsulesModel(), kFatal);
    SettingsDiffModel* capsules = view.capsulesModel();
    REQUIRE(capsules->rowCount() == 3);
    auto capsule = [&](int row, int column) { return capsules->index(row, column).data().toString(); };
    CHECK(capsule(0, SettingsDiffModel::Key) == "job script");
    CHECK(capsule(0, SettingsDiffModel::A) == "line 3: srun scalebench-engine --steps 200");
    CHECK(capsule(0, SettingsDiffModel::B) == "line 3: srun scalebench-engine --steps 400");
    CHECK(capsule(1, SettingsDiffModel::Key) == "versions.libtorch");
    CHECK(capsule(1, SettingsDiffModel::B) == "2.11.0");
    CHECK(capsule(2, SettingsDiffModel::Key) == "plan");
    CHECK(capsule(2, SettingsDiffModel::A) == "line 5: steps = 200");
    CHECK(view.capsulesTable()->model() == capsules);

    CHECK(view.figuresModel()->rowCount() > 40);
    CHECK(view.figuresTable()->model() == view.figuresModel());
    CHECK(view.heading()->text().contains("last week"));
    CHECK(view.heading()->text().contains(" better, "));

    model.setDifferences(compareSettings(a, a), "a", "a");
    CHECK(model.rowCount() == 0);
}
