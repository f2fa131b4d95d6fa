// scalebench-engine: synchronous data-parallel training under mpirun, writing the metric stream (rank 0).
#include "collective_sweep.h"
#include "engine_options.h"
#include "gradient_buckets.h"
#include "image_data.h"
#include "metric_writer.h"
#include "mpi_check.h"
#include "open_communicator.h"
#include "resnet.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <malloc.h>
#include <optional>
#include <thread>
#include <torch/torch.h>
#include <torch/version.h>
#include <unistd.h>

using namespace scalebench;
using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;
double seconds(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

struct World {
    int rank = 0;
    int ranks = 1;
    int local_ranks = 1; // ranks on this node
    int local_rank = 0;  // this rank's index among them
    std::string host;
};

World joinWorld() {
    World w;
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &w.rank));
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &w.ranks));
    MPI_Comm node;
    MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w.rank, MPI_INFO_NULL, &node));
    MPI_CHECK(MPI_Comm_size(node, &w.local_ranks));
    MPI_CHECK(MPI_Comm_rank(node, &w.local_rank));
    MPI_CHECK(MPI_Comm_free(&node));
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    w.host = host;
    return w;
}

// Every rank's host and process id, for the header (the console uses them to find stragglers and failed
// ranks).
json gatherRanks(const World& w) {
    constexpr int kHostBytes = 64;
    struct Entry {
        char host[kHostBytes];
        long pid;
    } mine{}, none{};
    std::snprintf(mine.host, kHostBytes, "%s", w.host.c_str());
    mine.pid = static_cast<long>(getpid());
    std::vector<Entry> all(static_cast<std::size_t>(w.ranks), none);
    MPI_CHECK(
        MPI_Gather(&mine, sizeof(Entry), MPI_BYTE, all.data(), sizeof(Entry), MPI_BYTE, 0, MPI_COMM_WORLD));
    json out = json::array();
    for (int r = 0; r < w.ranks; ++r)
        out.push_back({{"rank", r}, {"host", all[r].host}, {"pid", all[r].pid}});
    return out;
}

std::string mpiLibraryVersion() {
    char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int length = 0;
    MPI_Get_library_version(text, &length);
    std::string version(text, static_cast<std::size_t>(length));
    return version.substr(0, version.find_first_of(",\n"));
}

// Linear warm-up from lr to lr x ranks (MLBench task 1: linear scaling rule, Goyal et al.).
double learningRate(const EngineOptions& o, int ranks, int64_t step, int64_t warmup_steps) {
    const double target = o.lr * ranks;
    if (warmup_steps <= 0 || step >= warmup_steps) return target;
    return o.lr + (target - o.lr) * static_cast<double>(step) / static_cast<double>(warmup_steps);
}

struct Evaluation {
    double accuracy = 0;
    double loss = 0;
};

// Accuracy and loss over every rank's share of the held-out samples.
Evaluation evaluate(ResNet20& model, const LabelledImages& held_out) {
    constexpr int64_t kEvalBatch = 500;
    torch::NoGradGuard no_grad;
    model->eval();
    double sums[3] = {0, 0, 0}; // correct, loss x samples, samples
    for (int64_t start = 0; start < held_out.size(); start += kEvalBatch) {
        const int64_t n = std::min(kEvalBatch, held_out.size() - start);
        auto images = held_out.images.narrow(0, start, n).contiguous(torch::MemoryFormat::ChannelsLast);
        auto logits = model->forward(images); // (n, 10)
        auto labels = held_out.labels.narrow(0, start, n);
        sums[0] += logits.argmax(1).eq(labels).sum().item<double>();
        sums[1] += torch::cross_entropy_loss(logits, labels).item<double>() * static_cast<double>(n);
        sums[2] += static_cast<double>(n);
    }
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    model->train();
    return {sums[0] / sums[2], sums[1] / sums[2]};
}

// The header fields every workload writes; the workload adds its own.
json headerRecord(const EngineOptions& o, const World& w, const json& ranks) {
    return {{"type", "header"},
            {"version", 1},
            {"workload", o.workload},
            {"dataset", o.workload == "allreduce-sweep" ? "none" : o.dataset},
            {"ranks", w.ranks},
            {"hosts", ranks},
            {"versions",
             {{"engine", SCALEBENCH_VERSION}, {"libtorch", TORCH_VERSION}, {"mpi", mpiLibraryVersion()}}},
            {"unix_time",
             std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count()}};
}

// MLBench task 0: the collective sweep, one collective record per message size and case.
int sweep(const EngineOptions& o, const World& w) {
    // A sweep computes nothing with LibTorch: one intra-op thread, so that no OpenMP worker spins beside the
    // ranks (on 2 cores, OMP's idle spinning doubled small-message latency and cost 6% at 1 MB).
    torch::set_num_threads(1);
    const json ranks = gatherRanks(w);
    const auto comm = openCommunicator(o, MPI_COMM_WORLD, w.local_rank);
    std::vector<std::string> skipped;
    const auto cases = sweepCases(o, *comm, skipped);
    std::optional<MetricWriter> metrics; // only rank 0 talks
    if (w.rank == 0) {
        metrics.emplace(o.metrics_path);
        json header = headerRecord(o, w, ranks);
        header["hyperparameters"] = {
            {"sizes",
             "logspace(0, sweep_max_log10, sweep_points) elements; all-gather, reduce-scatter and "
             "all-to-all: elements / ranks per rank, the record giving the whole buffer (nccl-tests)"},
            {"sweep_points", o.sweep_points},
            {"sweep_max_log10", o.sweep_max_log10},
            {"repetitions", o.repetitions},
            {"warmup_iterations", o.warmup_iterations},
            {"collectives", o.collectives},
            {"dtypes", o.dtypes},
            {"ops", o.ops},
            {"placement", o.placement},
            {"timing", o.timing}};
        header["backend"] = comm->backend();
        header["allreduce"] = comm->description();
        if (!skipped.empty()) header["skipped"] = skipped;
        metrics->write(header);
    }
    const auto start = Clock::now();
    if (!runCollectiveSweep(o, cases, *comm, MPI_COMM_WORLD, metrics ? &*metrics : nullptr))
        throw std::runtime_error(comm->backend() +
                                 ": a collective gave a wrong result for at least one message "
                                 "size (see the records whose correct is false)");
    if (metrics)
        metrics->write({{"type", "summary"},
                        {"steps", 0},
                        {"wall_s", seconds(start, Clock::now())},
                        {"samples_per_s", 0},
                        {"final_loss", 0},
                        {"final_accuracy", nullptr}});
    return 0;
}

int train(const EngineOptions& o, const World& w) {
    // ---------------------------------------------------------------- setup
    const int threads =
        o.threads > 0 ? o.threads
                      : std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / w.local_ranks);
    torch::set_num_threads(threads);
    // glibc hands freed blocks above its (dynamic) mmap threshold back to the kernel, and every step then
    // page-faults its activations (8 MB each at batch 128) back in: ~3,000 minor faults per step. Keep them
    // in the heap: 10% less CPU per ResNet-20 step here (bench/results/2026-11-22-peers.md).
    if (mallopt(M_MMAP_THRESHOLD, 32 << 20) != 1 || mallopt(M_TRIM_THRESHOLD, 1 << 30) != 1)
        throw std::runtime_error("mallopt refused the mmap and trim thresholds");
    torch::manual_seed(
        static_cast<uint64_t>(o.seed)); // same initial weights everywhere; rank 0's are broadcast too

    LabelledImages train_data, held_out;
    int64_t in_channels = 3;
    if (o.dataset == "fashion-mnist") {
        train_data = loadFashionMnistShard(o.data_dir, "train", w.rank, w.ranks);
        held_out = loadFashionMnistShard(o.data_dir, "t10k", w.rank, w.ranks);
        held_out = {
            held_out.images.narrow(0, 0, std::min<int64_t>(held_out.size(), o.eval_samples / w.ranks + 1)),
            held_out.labels.narrow(0, 0, std::min<int64_t>(held_out.size(), o.eval_samples / w.ranks + 1))};
        in_channels = 1;
    } else {
        train_data = syntheticCifar(8 * o.batch_per_rank, o.seed + w.rank);
        held_out = syntheticCifar(std::max(1, o.eval_samples / w.ranks), o.seed + 1000 + w.rank);
    }
    BatchSampler batches(train_data, o.batch_per_rank, static_cast<uint64_t>(o.seed) * 7919 + w.rank);

    ResNet20 model(in_channels, 10);
    useChannelsLast(*model);
    const auto comm = openCommunicator(o, MPI_COMM_WORLD, w.local_rank);
    GradientBuckets gradients(model->parameters(), *comm, o.bucket_mb, o.overlap);
    gradients.broadcastParameters();
    torch::optim::SGD optimizer(
        model->parameters(), torch::optim::SGDOptions(o.lr).momentum(0.9).nesterov(true).weight_decay(1e-4));

    const int64_t global_batch = static_cast<int64_t>(o.batch_per_rank) * w.ranks;
    const int64_t warmup_steps =
        o.warmup_steps >= 0
            ? o.warmup_steps
            : static_cast<int64_t>(std::log2(w.ranks) * static_cast<double>(batches.batchesPerEpoch()));
    const json ranks = gatherRanks(w);

    std::optional<MetricWriter> metrics; // only rank 0 talks
    if (w.rank == 0) {
        metrics.emplace(o.metrics_path);
        json header = headerRecord(o, w, ranks);
        header["threads_per_rank"] = threads;
        header["parameters"] = gradients.elements();
        header["hyperparameters"] = {{"steps", o.steps},
                                     {"batch_per_rank", o.batch_per_rank},
                                     {"global_batch", global_batch},
                                     {"base_lr", o.lr},
                                     {"peak_lr", o.lr * w.ranks},
                                     {"warmup_steps", warmup_steps},
                                     {"optimizer", "SGD nesterov momentum 0.9 weight_decay 1e-4"},
                                     {"seed", o.seed}};
        header["allreduce"] =
            "fp32 gradients averaged in " + std::to_string(gradients.bucketCount()) + " buckets of up to " +
            json(o.bucket_mb).dump() + " MiB (reverse registration order), " +
            (o.overlap ? "each started as soon as backward has filled it; " : "all after backward; ") +
            comm->description();
        header["backend"] = comm->backend();
        header["bucket_mb"] = o.bucket_mb;
        header["overlap"] = o.overlap;
        header["bucket_elements"] = gradients.bucketElements();
        header["memory_format"] = "channels_last";
        metrics->write(header);
    }

    // ---------------------------------------------------------------- training
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    const auto run_start = Clock::now();
    double train_seconds = 0, loss = 0;
    std::optional<Evaluation> last_eval;
    std::optional<double> time_to_accuracy_s; // MLBench: wall time until the eval metric reaches the target
    int64_t steps_done = 0;
    for (int64_t step = 1; step <= o.steps && !time_to_accuracy_s; ++step) {
        steps_done = step;
        const auto t0 = Clock::now();
        auto [batch_images, labels] = batches.next(); // images: (B, C, H, W), labels: (B)
        auto images = batch_images.contiguous(torch::MemoryFormat::ChannelsLast);
        const auto t1 = Clock::now();
        auto logits = model->forward(images); // (B, 10)
        auto local_loss = torch::cross_entropy_loss(logits, labels);
        gradients.beginStep(local_loss.item<double>());
        const auto t2 = Clock::now();
        optimizer.zero_grad();
        local_loss.backward(); // full buckets are averaged meanwhile
        const auto t3 = Clock::now();
        const auto communication = gradients.finishStep(t3);
        loss = communication.mean_loss;
        const auto t4 = Clock::now();
        for (auto& group : optimizer.param_groups())
            static_cast<torch::optim::SGDOptions&>(group.options())
                .lr(learningRate(o, w.ranks, step, warmup_steps));
        optimizer.step();
        const auto t5 = Clock::now();

        const double step_s = seconds(t0, t5); // seconds: data + forward + backward + all-reduce + optimizer
        train_seconds += step_s;
        if (!std::isfinite(loss))
            throw std::runtime_error("loss is " + std::to_string(loss) + " at step " + std::to_string(step));
        if (metrics)
            metrics->write({{"type", "step"},
                            {"step", step},
                            {"epoch", batches.epoch()},
                            {"loss", loss},
                            {"lr", learningRate(o, w.ranks, step, warmup_steps)},
                            {"samples_per_s", static_cast<double>(global_batch) / step_s},
                            {"step_s", step_s},
                            {"data_s", seconds(t0, t1)},
                            {"forward_s", seconds(t1, t2)},
                            {"backward_s", seconds(t2, t3)},
                            {"allreduce_s", seconds(t3, t4)},
                            {"optimizer_s", seconds(t4, t5)},
                            {"comm_hidden_s", communication.hidden_s},
                            {"elapsed_s", seconds(run_start, t5)}});
        // Every rank's step time and own compute time, gathered to rank 0 (stragglers).
        const double mine[2] = {step_s, step_s - seconds(t3, t4)};
        std::vector<double> all(metrics ? 2 * static_cast<std::size_t>(w.ranks) : 0);
        MPI_CHECK(MPI_Gather(mine, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, 0, MPI_COMM_WORLD));
        if (metrics) {
            json step_times = json::array(), compute_times = json::array();
            for (int r = 0; r < w.ranks; ++r) {
                step_times.push_back(all[2 * r]);
                compute_times.push_back(all[2 * r + 1]);
            }
            metrics->write({{"type", "rank_times"},
                            {"step", step},
                            {"step_s", step_times},
                            {"compute_s", compute_times}});
        }

        if ((o.eval_every > 0 && step % o.eval_every == 0) || step == o.steps) {
            last_eval = evaluate(model, held_out);
            if (metrics)
                metrics->write({{"type", "eval"},
                                {"step", step},
                                {"accuracy", last_eval->accuracy},
                                {"loss", last_eval->loss},
                                {"elapsed_s", seconds(run_start, Clock::now())}});
            // Every rank sees the same global accuracy, so every rank stops at the same step.
            if (o.target_accuracy > 0 && last_eval->accuracy >= o.target_accuracy)
                time_to_accuracy_s = seconds(run_start, Clock::now());
        }
    }

    // ---------------------------------------------------------------- diagnostics
    if (metrics && !o.dump_parameters.empty()) { // float32, registration order, logical (NCHW) layout
        std::ofstream dump(o.dump_parameters, std::ios::binary);
        for (const auto& p : model->parameters()) {
            const auto values = p.detach().contiguous();
            dump.write(reinterpret_cast<const char*>(values.data_ptr<float>()),
                       static_cast<std::streamsize>(values.numel() * sizeof(float)));
        }
        if (!dump) throw std::runtime_error("--dump-parameters: cannot write " + o.dump_parameters);
    }

    // ---------------------------------------------------------------- summary
    if (metrics)
        metrics->write(
            {{"type", "summary"},
             {"steps", steps_done},
             {"wall_s", seconds(run_start, Clock::now())},
             {"train_s", train_seconds},
             {"samples_per_s", static_cast<double>(global_batch * steps_done) / train_seconds},
             {"target_accuracy", o.target_accuracy > 0 ? json(o.target_accuracy) : json(nullptr)},
             {"time_to_accuracy_s", time_to_accuracy_s ? json(*time_to_accuracy_s) : json(nullptr)},
             {"final_loss", loss},
             {"final_accuracy", last_eval ? json(last_eval->accuracy) : json(nullptr)}});
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    EngineOptions options;
    try {
        options = parseEngineOptions(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const std::exception& e) {
        std::cerr << "scalebench-engine: " << e.what() << "\n" << engineUsage();
        return 2;
    }
    if (options.show_help) {
        std::cout << engineUsage();
        return 0;
    }
    if (options.show_version) {
        std::cout << "scalebench-engine " << SCALEBENCH_VERSION << " (LibTorch " << TORCH_VERSION << ")\n";
        return 0;
    }

    // The gradient buckets' communication thread calls MPI while the main thread may too. A sweep calls MPI
    // from the main thread only, and asks for no more: Open MPI's MPI_THREAD_MULTIPLE locks every call, which
    // costs small messages most of their latency.
    const bool sweeping = options.workload == "allreduce-sweep";
    int threading = 0;
    MPI_Init_thread(&argc, &argv, sweeping ? MPI_THREAD_FUNNELED : MPI_THREAD_MULTIPLE, &threading);
    World world;
    try {
        world = joinWorld();
        if (!sweeping && threading < MPI_THREAD_SERIALIZED && options.backend == "mpi")
            throw std::runtime_error(
                "this MPI library gives no thread support beyond MPI_THREAD_FUNNELED, which "
                "the communication thread of --backend mpi needs");
        if (options.workload == "allreduce-sweep")
            sweep(options, world);
        else
            train(options, world);
    } catch (const std::exception& e) {
        std::cerr << "scalebench-engine: rank " << world.rank << " on " << world.host << ": " << e.what()
                  << std::endl;
        if (world.rank == 0 && !options.metrics_path.empty()) {
            try {
                MetricWriter(options.metrics_path)
                    .write({{"type", "error"}, {"rank", 0}, {"message", e.what()}});
            } catch (...) {
            }
        }
        MPI_Abort(MPI_COMM_WORLD, 1);
        return 1;
    }
    MPI_Finalize();
    return 0;
}
