// Specification of cluster files: [[cluster]] tables in TOML, mistakes named by line and key, kept as JSON.
#include "cluster_settings.h"
#include "run_plan.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <toml++/toml.h>

using namespace scalebench;

TEST_CASE("a cluster file gives every setting of how jobs are shaped and where they go", "[core][cluster]") {
    const auto clusters = parseClusterText(R"(
[[cluster]]
name = "prod"
host = "head.example.org"
user = "alice"
port = 2222
identity_files = ["~/.ssh/id_ed25519"]
partition = "gpu"
tasks_per_node = 8
gpus_per_node = 8
setup = ["module load cuda/12.4"]
launcher = "mpirun"
data_root = "/scratch/datasets"
container_image = "nvcr.io#nvidia/pytorch:24.04-py3"
[cluster.nccl_env]
NCCL_IB_HCA = "mlx5"
)",
                                           "clusters.toml");
    REQUIRE(clusters.size() == 1);
    const ClusterSettings& c = clusters[0];
    CHECK(c.port == 2222);
    CHECK(c.gpus_per_node == 8);
    CHECK(c.launcher == ClusterSettings::Launcher::Mpirun);
    CHECK(c.nccl_env.at("NCCL_IB_HCA") == "mlx5");
    CHECK(c.exclusive); // the default: benchmarks want whole nodes
    CHECK(c.data_root == "/scratch/datasets");
    CHECK(clusterFromJson(clusterToJson(c)).data_root == "/scratch/datasets");

    const ClusterSettings back = clusterFromJson(clusterToJson(c));
    CHECK(clusterToJson(back) == clusterToJson(c));
}

TEST_CASE("a mistake in a cluster file is named by file, line and key", "[core][cluster]") {
    const std::string head = "[[cluster]]\nname = \"c\"\nhost = \"h\"\n";
    CHECK_THROWS_WITH(parseClusterText(head + "partiton = \"gpu\"\n", "c.toml"),
                      Catch::Contains("c.toml:4:") && Catch::Contains("did you mean 'partition'?"));
    CHECK_THROWS_WITH(parseClusterText(head + "launcher = \"ssh\"\n", "c.toml"),
                      Catch::Contains("'launcher' must be \"srun-pmix\" or \"mpirun\""));
    CHECK_THROWS_WITH(parseClusterText("[[cluster]]\nname = \"c\"\n", "c.toml"),
                      Catch::Contains("missing key 'host'"));
    CHECK_THROWS_WITH(parseClusterText(head + "exclusive = \"yes\"\n", "c.toml"),
                      Catch::Contains("must be true or false"));
}

namespace {
// A [[cluster]] table whose fourth line is `line`.
std::string clusterWith(const std::string& line) {
    return "[[cluster]]\nname = \"c\"\nhost = \"h\"\n" + line + "\n";
}
} // namespace

TEST_CASE(
    "every cluster setting is checked when it is read: a bad value is refused at its file, line and key",
    "[core][cluster]") {
    // What Slurm, ssh and a job script accept is read as it is.
    const std::vector<std::string> good = {
        "user = \"\"",
        "user = \"alice.b-2\"",
        "port = 0",
        "port = 65535",
        "identity_files = [\"~/.ssh/id ed25519\"]",
        "known_hosts = \"/home/me/.ssh/known hosts\"",
        "remote_root = \"/scratch/me/scalebench\"",
        "torch_python = \"/opt/torch env/bin/python3\"",
        "data_root = \"/scratch/data sets\"",
        "partition = \"gpu\"",
        "partition = \"gpu,gpu-long\"",
        "partition = \"a100_80g.x-1\"",
        "account = \"proj_42.a-b\"",
        "constraint = \"a100&(ib|eth)\"",
        "constraint = \"[rack1*2&rack2*4]\"",
        "constraint = \"intel,!gpu:2\"",
        "time_limit = \"\"",
        "time_limit = \"30\"",
        "time_limit = \"30:15\"",
        "time_limit = \"02:30:00\"",
        "time_limit = \"4-12\"",
        "time_limit = \"4-12:15\"",
        "time_limit = \"4-12:15:30\"",
        "time_limit = \"UNLIMITED\"",
        "time_limit = \"infinite\"",
        "container_image = \"nvcr.io#nvidia/pytorch:24.04-py3\"",
        "setup = [\"module load cuda/12.4\", \"export A='b c' && source ~/env.sh\"]",
        "jobcomp_log = \"/var/log/slurm/jobcomp.log\"",
        "tasks_per_node = 8",
        "poll_seconds = 1",
        "nccl_env = { NCCL_IB_HCA = \"mlx5_0:1,mlx5_1:1\", NCCL_DEBUG = \"\" }",
    };
    for (const auto& line : good) {
        INFO(line);
        // Read as written: the setting holds the line's value (toml++'s own reading of it, as JSON), which
        // the store's JSON of the cluster keeps under the same key.
        std::ostringstream written;
        written << toml::json_formatter{toml::parse(line)};
        const auto expected = nlohmann::json::parse(written.str());
        const auto read =
            nlohmann::json::parse(clusterToJson(parseClusterText(clusterWith(line), "c.toml").at(0)));
        for (const auto& [key, value] : expected.items()) {
            INFO(key);
            REQUIRE(read.contains(key));
            CHECK(read.at(key) == value);
        }
    }

    struct Bad {
        std::string line;
        std::string key;
        std::string shown; // the value as the message quotes it
    };
    const std::vector<Bad> bad = {
        // The issue's two: a line break in a #SBATCH value, a command substitution sbatch alone caught.
        {"partition = \"gpu\\nrm -rf ~\"", "partition", "'gpu\\nrm -rf ~'"},
        {"time_limit = \"$(reboot)\"", "time_limit", "'$(reboot)'"},
        {"user = \"a b\"", "user", "'a b'"},
        {"user = \"-oProxyCommand=x\"", "user", "'-oProxyCommand=x'"},
        {"port = 65536", "port", "65536"},
        {"port = -1", "port", "-1"},
        {"identity_files = [\"~/.ssh/a\", \"~/.ssh/b\\n\"]", "identity_files", "'~/.ssh/b\\n'"},
        {"known_hosts = \"kh\\r\"", "known_hosts", "'kh\\r'"},
        {"remote_root = \"\"", "remote_root", "''"},
        {"remote_root = \"a\\nb\"", "remote_root", "'a\\nb'"},
        {"torch_python = \"py\\u0000thon\"", "torch_python", "'py\\x00thon'"},
        {"data_root = \"\"", "data_root", "''"},
        {"data_root = \"datasets\"", "data_root", "'datasets'"},
        {"data_root = \"a\\nb\"", "data_root", "'a\\nb'"},
        {"partition = \"gpu long\"", "partition", "'gpu long'"},
        {"partition = \"gpu,\"", "partition", "'gpu,'"},
        {"partition = \"$(id)\"", "partition", "'$(id)'"},
        {"account = \"proj,other\"", "account", "'proj,other'"},
        {"account = \"a;b\"", "account", "'a;b'"},
        {"constraint = \"a100 && ib\"", "constraint", "'a100 && ib'"},
        {"constraint = \"$(id)\"", "constraint", "'$(id)'"},
        {"time_limit = \"1:2:3:4\"", "time_limit", "'1:2:3:4'"},
        {"time_limit = \"1-\"", "time_limit", "'1-'"},
        {"time_limit = \"-5\"", "time_limit", "'-5'"},
        {"time_limit = \"1h\"", "time_limit", "'1h'"},
        {"time_limit = \"01:00:00\\n\"", "time_limit", "'01:00:00\\n'"},
        {"container_image = \"img name\"", "container_image", "'img name'"},
        {"setup = [\"module load cuda\", \"a\\nb\"]", "setup", "'a\\nb'"},
        {"jobcomp_log = \"/x\\ny\"", "jobcomp_log", "'/x\\ny'"},
        {"nccl_env = { \"NCCL IB\" = \"x\" }", "nccl_env", "'NCCL IB'"},
        {"nccl_env = { \"1NCCL\" = \"x\" }", "nccl_env", "'1NCCL'"},
        {"nccl_env = { NCCL_DEBUG = \"INFO\\nexport X=1\" }", "nccl_env", "'INFO\\nexport X=1'"},
        {"tasks_per_node = 0", "tasks_per_node", "at least 1"},
        {"gpus_per_node = -1", "gpus_per_node", "at least 0"},
        {"poll_seconds = 0", "poll_seconds", "at least 1"},
    };
    for (const auto& b : bad) {
        INFO(b.line);
        try {
            parseClusterText(clusterWith(b.line), "c.toml");
            FAIL_CHECK("accepted");
        } catch (const PlanError& e) {
            CHECK(e.file() == "c.toml");
            CHECK(e.line() == 4);
            CHECK(e.key() == b.key);
            CHECK_THAT(e.what(), Catch::Contains("'" + b.key + "'") && Catch::Contains(b.shown));
        }
    }

    // The name and the host, on their own lines.
    const std::vector<Bad> head = {
        {"name = \"my cluster\"\nhost = \"h\"", "name", "'my cluster'"},
        {"name = \"\"\nhost = \"h\"", "name", "''"},
        {"name = \"a/b\"\nhost = \"h\"", "name", "'a/b'"},
        {"host = \"h\"\nname = \"prod\\n\"", "name", "'prod\\n'"},
        {"name = \"c\"\nhost = \"\"", "host", "''"},
        {"name = \"c\"\nhost = \"head node\"", "host", "'head node'"},
        {"name = \"c\"\nhost = \"-oProxyCommand=sh\"", "host", "'-oProxyCommand=sh'"},
    };
    for (const auto& b : head) {
        INFO(b.line);
        try {
            parseClusterText("# clusters\n[[cluster]]\n" + b.line + "\n", "c.toml");
            FAIL_CHECK("accepted");
        } catch (const PlanError& e) {
            const int line = b.line.find(b.key + " =") == 0 ? 3 : 4;
            CHECK(e.line() == line);
            CHECK(e.key() == b.key);
            CHECK_THAT(e.what(), Catch::Contains("'" + b.key + "'") && Catch::Contains(b.shown));
        }
    }
}

TEST_CASE("the issue's two bad settings are refused with what is accepted", "[core][cluster]") {
    CHECK_THROWS_WITH(parseClusterText(clusterWith("partition = \"gpu\\nbatch\""), "c.toml"),
                      Catch::StartsWith("c.toml:4: ") && Catch::Contains("'partition' is 'gpu\\nbatch'") &&
                          Catch::Contains("letters, digits"));
    CHECK_THROWS_WITH(parseClusterText(clusterWith("time_limit = \"$(reboot)\""), "c.toml"),
                      Catch::StartsWith("c.toml:4: ") && Catch::Contains("'time_limit' is '$(reboot)'") &&
                          Catch::Contains("days-hours:minutes:seconds"));
}

TEST_CASE("a stored cluster with bad settings still loads, and its problems are listed for whoever uses it",
          "[core][cluster]") {
    ClusterSettings c;
    c.name = "old";
    c.host = "head.example.org";
    CHECK(clusterProblems(c).empty());                  // the defaults are good
    CHECK(clusterProblems(localMachine()).size() == 1); // this machine has no host: it is never stored
    c.partition = "gpu\nbatch";
    c.time_limit = "$(reboot)";
    c.port = 70000;
    c.setup_lines = {"module load a", "b\r"};
    c.nccl_env = {{"nccl_debug", "INFO"}};
    ClusterSettings loaded;
    REQUIRE_NOTHROW(loaded = clusterFromJson(clusterToJson(c))); // as an older store kept it
    CHECK(loaded.partition == "gpu\nbatch");
    const auto problems = clusterProblems(loaded);
    std::vector<std::string> keys;
    for (const auto& p : problems)
        keys.push_back(p.key);
    CHECK(keys == std::vector<std::string>{"port", "partition", "time_limit", "setup", "nccl_env"});
    CHECK(problems[3].item == 1);
    CHECK(problems[4].variable == "nccl_debug");
    CHECK_THAT(problems[0].problem, Catch::Contains("'port' is 70000") && Catch::Contains("65535"));
    CHECK(quotedSetting(std::string("a\tb\x01\n", 5)) == "'a\\tb\\x01\\n'");
}

TEST_CASE("a cluster's price per GPU-hour and its currency are read, kept and checked",
          "[core][cluster][cost]") {
    const auto priced =
        parseClusterText(clusterWith("price_per_gpu_hour = 2.75\ncurrency = \"EUR\""), "c.toml");
    REQUIRE(priced.size() == 1);
    CHECK(priced[0].price_per_gpu_hour == 2.75);
    CHECK(priced[0].currency == "EUR");
    const ClusterSettings back = clusterFromJson(clusterToJson(priced[0]));
    CHECK(back.price_per_gpu_hour == 2.75);
    CHECK(back.currency == "EUR");
    // A whole number is a price too; none given: no price, in US dollars.
    CHECK(parseClusterText(clusterWith("price_per_gpu_hour = 3"), "c.toml")[0].price_per_gpu_hour == 3);
    const ClusterSettings plain = parseClusterText(clusterWith(""), "c.toml")[0];
    CHECK(plain.price_per_gpu_hour == 0);
    CHECK(plain.currency == "USD");

    // JSON a store kept before clusters had a price loads with none.
    const ClusterSettings old = clusterFromJson(R"({"name": "old", "host": "h", "tasks_per_node": 4})");
    CHECK(old.price_per_gpu_hour == 0);
    CHECK(old.currency == "USD");
    CHECK(clusterProblems(old).empty());

    CHECK_THROWS_WITH(parseClusterText(clusterWith("price_per_gpu_hour = -1.5"), "c.toml"),
                      Catch::StartsWith("c.toml:4: ") && Catch::Contains("'price_per_gpu_hour' is -1.5") &&
                          Catch::Contains("0 (none) or more"));
    CHECK_THROWS_WITH(parseClusterText(clusterWith("price_per_gpu_hour = \"2\""), "c.toml"),
                      Catch::Contains("'price_per_gpu_hour' must be a finite number"));
    CHECK_THROWS_WITH(parseClusterText(clusterWith("price_per_gpu_hour = inf"), "c.toml"),
                      Catch::Contains("'price_per_gpu_hour' must be a finite number"));
    for (const std::string bad : {"usd", "US", "EURO", "$", "", "U$D"})
        CHECK_THROWS_WITH(parseClusterText(clusterWith("currency = \"" + bad + "\""), "c.toml"),
                          Catch::StartsWith("c.toml:4: ") &&
                              Catch::Contains("'currency' is " + quotedSetting(bad)) &&
                              Catch::Contains("three upper-case letters"));

    ClusterSettings c = priced[0];
    c.price_per_gpu_hour = std::nan("");
    c.currency = "eur";
    const auto problems = clusterProblems(c);
    REQUIRE(problems.size() == 2);
    CHECK(problems[0].key == "price_per_gpu_hour");
    CHECK(problems[1].key == "currency");
    c.price_per_gpu_hour = -0.01;
    CHECK(clusterProblems(c)[0].key == "price_per_gpu_hour");
}

TEST_CASE("each cluster key's rule is its row's: defaults pass, an integer below its least is named",
          "[core][cluster]") {
    ClusterSettings defaults;
    defaults.name = "c";
    defaults.host = "head";
    CHECK(clusterProblems(defaults).empty());
    int at_least_rows = 0;
    // Sets the member of a copy to one below its row's least where the row's rule is atLeast.
    const auto checkBelow = [&](const std::string& key, auto member, int least, std::string_view rule) {
        ClusterSettings c = defaults;
        auto& value = c.*member;
        if constexpr (std::is_same_v<std::decay_t<decltype(value)>, int>) {
            if (rule != "atLeast") return;
            ++at_least_rows;
            value = least - 1;
            const auto problems = clusterProblems(c);
            INFO(key);
            REQUIRE(problems.size() == 1);
            CHECK(problems[0].key == key);
            CHECK(problems[0].problem == "'" + key + "' must be at least " + std::to_string(least) +
                                             ", not " + std::to_string(least - 1));
        }
    };
#define SCALEBENCH_CLUSTER_BELOW(key, member, kind, least, rule, ...)                                        \
    checkBelow(#key, &ClusterSettings::member, least, #rule);
    SCALEBENCH_CLUSTER_KEYS(SCALEBENCH_CLUSTER_BELOW)
#undef SCALEBENCH_CLUSTER_BELOW
    CHECK(at_least_rows == 3); // tasks_per_node, gpus_per_node, poll_seconds
}
