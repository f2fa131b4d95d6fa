// The Projection page's per-bucket check offscreen, on the recorded session of tests/data/projection
// (ResNet-20 at 1 and 2 ranks and the MPI all-reduce sweep): each bucket's measured all-reduce against the
// sweep's time for its size, the reading above the table, and why there is no table where the runs timed no
// bucket.
#include "bucket_check_model.h"
#include "bucket_check_view.h"
#include "projection_fixture.h"
#include "scaling_tab.h"
#include "session_projection.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QTableView>
#include <catch2/catch.hpp>

using namespace scalebench;

namespace {

std::vector<SeriesModelInputs> fixtureInputs() {
    TemporaryFolder folder;
    SessionStore store(folder.path / "sessions.db");
    return sessionModelInputs(store, *store.session(storeProjectionFixture(store)));
}

QString shown(const BucketCheckModel& model, int row, int column) {
    return model.data(model.index(row, column)).toString();
}

} // namespace

TEST_CASE("the bucket table shows each bucket's measured all-reduce against the sweep's time",
          "[ui][model]") {
    const std::vector<SeriesModelInputs> inputs = fixtureInputs();
    REQUIRE(inputs.size() == 1);
    BucketCheckModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setChecks(checkBuckets(inputs[0]));
    REQUIRE(model.rowCount() == 4);
    REQUIRE(model.columnCount() == BucketCheckModel::ColumnCount);

    // The recorded session's fixed numbers (tests/core/test_session_projection.cpp): bucket 0, 1.917 ms
    // measured at 2 ranks against the sweep's 0.054 ms for its 298536 bytes.
    CHECK(shown(model, 0, BucketCheckModel::Ranks) == "2");
    CHECK(shown(model, 0, BucketCheckModel::Bucket) == "0");
    CHECK(shown(model, 0, BucketCheckModel::Size) == "298.5 KB");
    CHECK(shown(model, 0, BucketCheckModel::MeasuredMs) == "1.917");
    CHECK(shown(model, 0, BucketCheckModel::PredictedMs) == "0.054");
    CHECK(shown(model, 0, BucketCheckModel::Basis) == "interpolated");
    CHECK(shown(model, 0, BucketCheckModel::Ratio) == "35.48x");
    for (int row = 1; row < 4; ++row)
        CHECK(shown(model, row, BucketCheckModel::Bucket) == QString::number(row));
    CHECK(shown(model, 3, BucketCheckModel::Size) == "226.0 KB");

    // The raw numbers under Qt::UserRole: bytes, ms and the ratio as numbers.
    const auto raw = [&](int column) { return model.data(model.index(0, column), Qt::UserRole); };
    CHECK(raw(BucketCheckModel::Size).toLongLong() == 298536);
    CHECK(raw(BucketCheckModel::MeasuredMs).toDouble() == Approx(1.917).epsilon(1e-3));
    CHECK(raw(BucketCheckModel::PredictedMs).toDouble() == Approx(0.054).epsilon(1e-2));
    CHECK(raw(BucketCheckModel::Basis).toDouble() == 0);
    CHECK(raw(BucketCheckModel::Ratio).toDouble() == Approx(raw(BucketCheckModel::MeasuredMs).toDouble() /
                                                            raw(BucketCheckModel::PredictedMs).toDouble()));

    // Every column explains itself.
    for (int column = 0; column < model.columnCount(); ++column) {
        CHECK_FALSE(model.headerData(column, Qt::Horizontal).toString().isEmpty());
        CHECK_FALSE(model.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
    }
    CHECK(model.headerData(BucketCheckModel::Ratio, Qt::Horizontal).toString() == "Measured / predicted");
    CHECK(model.data(model.index(0, BucketCheckModel::Size), Qt::ToolTipRole).toString() == "298536 bytes");
}

TEST_CASE("a modelled prediction shows its band", "[ui][model]") {
    CHECK(BucketCheckModel::basisText({1e-3, 0, false}) == "interpolated");
    CHECK(BucketCheckModel::basisText({1e-3, 0.24, true}) == "modelled ±24 %");
    CHECK(BucketCheckModel::basisText({1e-3, 0.24, true, true}) ==
          "modelled ±24 %, across nodes from the intra-node fit");
    CHECK(BucketCheckModel::sizeText(512) == "512 B");
    CHECK(BucketCheckModel::sizeText(4.19e6) == "4.19 MB");
    BucketCheckModel model;
    model.setChecks({{8, 3, 100000000, 0.2, {0.1, 0.3, true}}});
    CHECK(shown(model, 0, BucketCheckModel::Basis) == "modelled ±30 %");
    CHECK(model.data(model.index(0, BucketCheckModel::Basis), Qt::UserRole).toDouble() == Approx(0.3));
    CHECK(shown(model, 0, BucketCheckModel::Ratio) == "2.00x");
}

TEST_CASE("the Projection page reads the buckets' check of the shown series, or says why there is none",
          "[ui][model]") {
    std::vector<SeriesModelInputs> inputs = fixtureInputs();
    REQUIRE(inputs.size() == 1);
    ScalingTab tab;
    tab.setResults({}); // no measured series: the label alone matters
    tab.seriesChoice()->addItem(QString::fromStdString(inputs[0].label));
    tab.setProjectionInputs(inputs);
    BucketCheckView* view = tab.bucketChecks();
    CHECK(view->model()->rowCount() == 4);
    CHECK_FALSE(view->table()->isHidden());
    CHECK(view->reading()->text() ==
          "Buckets' all-reduce takes 15x-35x the sweep's time (median 19x): slower "
          "than the sweep, the training's communication does not run at the "
          "fabric's speed");
    CHECK(view->reading()->text().contains("does not run at the fabric's speed"));

    inputs[0].bucket_durations.clear(); // runs that wrote no buckets records
    tab.setProjectionInputs(inputs);
    CHECK(view->model()->rowCount() == 0);
    CHECK(view->table()->isHidden());
    CHECK(view->reading()->text() == "Per bucket: the runs wrote no bucket timings");

    tab.setProjectionInputs({}, "disk I/O error");
    CHECK(view->table()->isHidden());
    CHECK(view->reading()->text().contains("disk I/O error"));
}
