// StoredSessionLoader: stored sessions read on its worker thread, handed over whole on the caller's thread;
// superseded answers dropped; a missing session answered with an error value; clusters saved and removed.
#include "session_store.h"
#include "stored_session_loader.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <catch2/catch.hpp>

using namespace scalebench;

namespace {

// A session of `runs` finished runs of 1, 2, 4, ... ranks with `steps` steps and one evaluation each.
std::int64_t storeSession(SessionStore& store, const std::string& name, int runs, int steps = 20) {
    const auto session = store.createSession(name, "[plan]", "local");
    for (int i = 0; i < runs; ++i) {
        const int ranks = 1 << i;
        const auto run = store.createRun(session, {"resnet18-n" + std::to_string(ranks), "resnet18",
                                                   "synthetic", ranks, 0, "torchrun ..."});
        store.startRun(run, "1");
        std::vector<MetricRecord> records;
        for (int step = 1; step <= steps; ++step)
            records.push_back(StepRecord{step, 2.0 / step, 1000.0 * ranks, 0.25, 0.02, 0.08, 0.1, 0.04, 0.01,
                                         step * 0.25, 0.0, 0.0, 0.0, std::nullopt});
        records.push_back(EvalRecord{steps, "accuracy", 0.85, 0.4, steps * 0.25});
        store.appendRecords(run, records);
        store.finishRun(run, {RunStatus::Ok, "", 0, ""});
    }
    store.finishSession(session, SessionStatus::Ok);
    return session;
}

// A new, empty store in a folder of its own.
struct NewStore {
    QTemporaryDir dir;
    SessionStore store{dir.filePath("sessions.sqlite").toStdString()};
    NewStore() { REQUIRE(dir.isValid()); }
};

} // namespace

TEST_CASE("the stored session loader hands a whole session over on the caller's thread", "[ui][loader]") {
    NewStore fresh;
    SessionStore& store = fresh.store;
    const auto session = storeSession(store, "three runs", 3);

    StoredSessionLoader loader(store.file());
    QThread* delivered_on = nullptr;
    QObject::connect(&loader, &StoredSessionLoader::sessionLoaded, &loader,
                     [&] { delivered_on = QThread::currentThread(); });
    QSignalSpy loaded(&loader, &StoredSessionLoader::sessionLoaded);
    loader.loadSession(session);
    CHECK(loaded.isEmpty()); // never answered inside the call
    REQUIRE(loaded.wait(10'000));
    CHECK(delivered_on == QCoreApplication::instance()->thread());
    const auto answer = loaded.takeFirst().at(0).value<StoredSession>();
    CHECK(answer.error.isEmpty());
    CHECK(answer.session_id == session);
    REQUIRE(answer.runs.size() == 3);
    for (const StoredRun& run : answer.runs) { // every step and the evaluation, summarised on the worker
        CHECK(run.trace->step.size() == 20);
        CHECK(run.trace->eval_step.size() == 1);
        CHECK(run.trace->blocks[RunTrace::Loss].completeBlocks() == 0); // 20 steps: no whole 256-step block
        REQUIRE(run.trace->steady_samples_per_s);
        CHECK(*run.trace->steady_samples_per_s == Approx(1000.0 * run.run.ranks));
    }
    CHECK(answer.results.size() == 3);

    QSignalSpy listed(&loader, &StoredSessionLoader::sessionsListed);
    loader.listSessions();
    REQUIRE(listed.wait(10'000));
    const auto list = listed.takeFirst().at(0).value<StoredSessionList>();
    REQUIRE(list.sessions.size() == 1);
    CHECK(list.sessions[0].name == "three runs");
}

TEST_CASE("the stored session loader drops the answer to a superseded request", "[ui][loader]") {
    NewStore fresh;
    SessionStore& store = fresh.store;
    const auto big = storeSession(store, "big", 4, 2000);
    const auto small = storeSession(store, "small", 1);

    StoredSessionLoader loader(store.file());
    QSignalSpy loaded(&loader, &StoredSessionLoader::sessionLoaded);
    loader.loadSession(big);
    loader.loadSession(small); // the user chose again before the first answer came
    REQUIRE(loaded.wait(10'000));
    CHECK_FALSE(loaded.wait(500)); // and nothing after it
    REQUIRE(loaded.size() == 1);
    CHECK(loaded.takeFirst().at(0).value<StoredSession>().session_id == small);

    // Even when the first was already being read: only the newest request of a kind is answered.
    QSignalSpy compared(&loader, &StoredSessionLoader::sessionsCompared);
    loader.compareSessions(big, small);
    QThread::msleep(5);
    loader.compareSessions(small, big);
    REQUIRE(compared.wait(10'000));
    CHECK_FALSE(compared.wait(500));
    REQUIRE(compared.size() == 1);
    const auto comparison = compared.takeFirst().at(0).value<StoredComparison>();
    CHECK(comparison.error.isEmpty());
    CHECK(comparison.a == small);
    CHECK(comparison.session_a.name == "small");
    CHECK(comparison.session_b.name == "big");
}

TEST_CASE("the stored session loader answers a missing session with an error value", "[ui][loader]") {
    NewStore fresh;
    SessionStore& store = fresh.store;
    const auto session = storeSession(store, "one", 1);

    StoredSessionLoader loader(store.file());
    QSignalSpy loaded(&loader, &StoredSessionLoader::sessionLoaded);
    loader.loadSession(session + 41);
    REQUIRE(loaded.wait(10'000));
    const auto answer = loaded.takeFirst().at(0).value<StoredSession>();
    CHECK(answer.session_id == session + 41);
    CHECK(answer.error.contains(QString::number(session + 41)));
    CHECK(answer.runs.empty());
    CHECK(answer.results.empty());

    QSignalSpy compared(&loader, &StoredSessionLoader::sessionsCompared);
    loader.compareSessions(session, session + 41);
    REQUIRE(compared.wait(10'000));
    CHECK_FALSE(compared.takeFirst().at(0).value<StoredComparison>().error.isEmpty());

    // A store that cannot be opened: every answer carries why.
    StoredSessionLoader broken(fresh.dir.filePath("no/such/folder/sessions.sqlite").toStdString());
    QSignalSpy listed(&broken, &StoredSessionLoader::sessionsListed);
    broken.listSessions();
    REQUIRE(listed.wait(10'000));
    const auto list = listed.takeFirst().at(0).value<StoredSessionList>();
    CHECK(list.sessions.empty());
    CHECK_FALSE(list.error.isEmpty());
}

TEST_CASE("the stored session loader saves, renames and removes clusters on its worker thread, each answered "
          "with the clusters stored after it, and no write is superseded",
          "[ui][loader]") {
    NewStore fresh;
    SessionStore& store = fresh.store;
    ClusterSettings alpha;
    alpha.name = "alpha";
    alpha.host = "a.example.org";

    StoredSessionLoader loader(store.file());
    QSignalSpy saved(&loader, &StoredSessionLoader::clusterSaved);
    QSignalSpy removed(&loader, &StoredSessionLoader::clusterRemoved);
    ClusterSettings beta = alpha;
    beta.name = "beta";
    loader.saveCluster(alpha);
    loader.saveCluster(beta); // a second write does not drop the first
    while (saved.count() < 2)
        REQUIRE(saved.wait(10'000));
    const auto first = saved.at(0).at(0).value<StoredClusterChange>();
    CHECK(first.error.isEmpty());
    CHECK(first.cluster.name == "alpha");
    REQUIRE(first.clusters.size() == 1);
    const auto second = saved.at(1).at(0).value<StoredClusterChange>();
    REQUIRE(second.clusters.size() == 2);
    CHECK(second.clusters[1].host == "a.example.org");

    ClusterSettings gamma = beta;
    gamma.name = "gamma";
    loader.saveCluster(gamma, "beta"); // renamed: beta is replaced
    REQUIRE(saved.wait(10'000));
    const auto renamed = saved.at(2).at(0).value<StoredClusterChange>();
    CHECK(renamed.replaced == "beta");
    CHECK(store.clusterNames() == std::vector<std::string>{"alpha", "gamma"});
    REQUIRE(renamed.clusters.size() == 2);
    CHECK(renamed.clusters[1].name == "gamma");

    loader.removeCluster("alpha");
    REQUIRE(removed.wait(10'000));
    const auto gone = removed.takeFirst().at(0).value<StoredClusterChange>();
    CHECK(gone.error.isEmpty());
    CHECK(gone.cluster.name == "alpha");
    REQUIRE(gone.clusters.size() == 1);
    CHECK(gone.clusters[0].name == "gamma");
    loader.removeCluster("alpha"); // no longer there: said so
    REQUIRE(removed.wait(10'000));
    CHECK(removed.takeFirst().at(0).value<StoredClusterChange>().error.contains("alpha"));
    CHECK(store.clusterNames() == std::vector<std::string>{"gamma"});
}
