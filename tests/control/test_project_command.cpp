// Specification of `scalebench project SESSION`: the performance model's table for each training series of a
// stored session, and a clear error for what it cannot project.
#include "cluster_settings.h"
#include "console_options.h"
#include "project_command.h"
#include "projection_fixture.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace scalebench;

TEST_CASE("project SESSION prints each series' inputs and its projection at the rank counts asked for",
          "[control][project]") {
    TemporaryFolder folder;
    const auto db = folder.path / "sessions.db";
    {
        SessionStore store(db);
        storeProjectionFixture(store);
    }
    ConsoleOptions options =
        parseConsoleOptions({"project", "projection-fixture", "--db", db.string(), "--to", "2,4,64",
                             "--price", "2.5", "--samples-to-train", "60000"});
    CHECK(options.mode == ConsoleOptions::Mode::Project);
    CHECK(options.project_ranks == std::vector<int>{2, 4, 64});
    std::ostringstream out, err;
    CHECK(projectSession(options, out, err) == 0);
    CHECK(err.str().empty());
    const std::string text = out.str();
    CHECK_THAT(text, Catch::Contains("session 1 (projection-fixture), this machine: one node"));
    CHECK_THAT(text,
               Catch::Contains("resnet20 fashion-mnist (backend mpi)\n  measured at 1 (2 repeats), 2 (2 "
                               "repeats) ranks; sweep: 16 float32 all-reduce sizes at 2 ranks; 4 buckets"));
    CHECK_THAT(text, Catch::Contains("cost/train") && Catch::Contains("to train"));
    CHECK_THAT(text, Catch::Contains("measured ") && Catch::Contains("prediction "));
    CHECK_THAT(text, Catch::Contains("more ranks on a node than its 2 CPUs"));

    SECTION("a fixed global batch") {
        options.global_batch = 1024;
        std::ostringstream fixed;
        CHECK(projectSession(options, fixed, err) == 0);
        CHECK_THAT(fixed.str(), Catch::Contains("fixed global batch (1024 samples)"));
    }
    SECTION("a layout of one rank per node: from 2 ranks on, the all-reduce crosses nodes the sweep never "
            "crossed") {
        options.ranks_per_node = 1;
        std::ostringstream across;
        CHECK(projectSession(options, across, err) == 0);
        CHECK_THAT(across.str(), Catch::Contains("the sweep never crossed a node"));
        CHECK_THAT(text, !Catch::Contains("the sweep never crossed a node"));
    }
    SECTION("an unknown session, a store that is not there") {
        options.report_session = "nightly";
        std::ostringstream none;
        CHECK(projectSession(options, out, none) == 2);
        CHECK_THAT(none.str(), Catch::Contains("no session 'nightly'"));
        options.db = folder.path / "elsewhere.db";
        std::ostringstream missing;
        CHECK(projectSession(options, out, missing) == 2);
        CHECK_THAT(missing.str(), Catch::Contains("no session store"));
    }
}

TEST_CASE("project's options refuse what cannot be a rank count, a batch or a price", "[control][project]") {
    CHECK_THROWS_WITH(parseConsoleOptions({"project", "1", "--to", "8,x"}),
                      Catch::Contains("'x' is not a rank count"));
    CHECK_THROWS_WITH(parseConsoleOptions({"project", "1", "--to", "0"}), Catch::Contains("at least 1"));
    CHECK_THROWS_WITH(parseConsoleOptions({"project", "1", "--price", "-1"}), Catch::Contains("(0 or more)"));
    CHECK_THROWS_WITH(parseConsoleOptions({"project", "1", "--global-batch", "many"}),
                      Catch::Contains("not a number of samples"));
    CHECK(parseConsoleOptions({"project", "1"}).project_ranks == std::vector<int>{8, 64, 512, 2048});
}

TEST_CASE("project FILE.toml predicts from stated inputs, a published step time and link figures",
          "[control][project]") {
    const std::string file =
        std::string(SCALEBENCH_SOURCE_DIR) + "/bench/seeds/003-maxtext-llama2-70b-bf16.toml";
    const ConsoleOptions options = parseConsoleOptions({"project", file, "--to", "64,2048"});
    CHECK(options.project_inputs == file);
    CHECK(options.report_session.empty());
    std::ostringstream out, err;
    CHECK(projectSession(options, out, err) == 0);
    CHECK(err.str().empty());
    CHECK_THAT(out.str(), Catch::Contains("(stated inputs, " + file + ")") &&
                              Catch::Contains("measured at 64 ranks: step 6.999 s") &&
                              Catch::Contains("inter-node link: alpha 5 us, busbw 400 GB/s") &&
                              Catch::Contains("all-reduce from the stated inter-node link"));

    SECTION("a file that is not there, or wrong, is named") {
        std::ostringstream none, why;
        CHECK(projectSession(parseConsoleOptions({"project", "absent.toml"}), none, why) == 2);
        CHECK_THAT(why.str(), Catch::Contains("absent.toml"));
    }
}

TEST_CASE("project takes the price of the session's cluster, which --price and --currency override",
          "[control][project][cost]") {
    TemporaryFolder folder;
    const auto db = folder.path / "sessions.db";
    {
        SessionStore store(db);
        ClusterSettings cluster;
        cluster.name = "priced";
        cluster.host = "head.example.org";
        cluster.tasks_per_node = 64;
        cluster.price_per_gpu_hour = 4;
        cluster.currency = "EUR";
        storeProjectionFixture(store, clusterToJson(cluster));
    }
    const auto projected = [&](std::vector<std::string> extra) {
        std::vector<std::string> arguments = {"project", "projection-fixture", "--db", db.string(), "--to",
                                              "2,4",     "--samples-to-train", "60000"};
        arguments.insert(arguments.end(), extra.begin(), extra.end());
        std::ostringstream out, err;
        CHECK(projectSession(parseConsoleOptions(arguments), out, err) == 0);
        CHECK(err.str().empty());
        return out.str();
    };
    // 2 ranks at 4 EUR per GPU-hour: 8.00 EUR an hour.
    const std::string stored = projected({});
    CHECK_THAT(stored, Catch::Contains("cost/h EUR") && Catch::Contains("cost/train EUR") &&
                           Catch::Contains(" 8.00 "));
    const std::string overridden = projected({"--price", "1.5", "--currency", "CHF"});
    CHECK_THAT(overridden, Catch::Contains("cost/h CHF") && Catch::Contains(" 3.00 "));
    CHECK_THAT(projected({"--price", "0"}), !Catch::Contains("cost/h"));
    CHECK_THROWS_WITH(parseConsoleOptions({"project", "1", "--currency", "eur"}),
                      Catch::Contains("three upper-case letters"));
}
