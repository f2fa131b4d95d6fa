// Checkpoints of a data-parallel training run: what is shared written by rank 0, what differs by every rank.
#include "checkpoint.h"

#include "mpi_check.h"

#include <ATen/CPUGeneratorImpl.h>
#include <mutex>
#include <regex>
#include <stdexcept>
#include <torch/torch.h>

namespace scalebench {
namespace {

namespace fs = std::filesystem;
using torch::serialize::InputArchive;
using torch::serialize::OutputArchive;

// The layout described in checkpoint.h. Format 2: Llama's query, key and value projections are one matrix
// (wqkv) and its gate and up projections another (w13); format 1 (engines up to 7d9476d) had Meta's wq, wk,
// wv, w1 and w3. Every other workload's checkpoint reads the same in both, so format 1 is read too, and a
// Llama checkpoint of format 1 is refused naming its format.
constexpr std::int64_t kFormat = 2, kOldestReadableFormat = 1;

// Writes the archive under a temporary name and renames it into place (a reader never sees half a file).
void writeAtomically(OutputArchive& archive, const fs::path& path) {
    const fs::path temporary = path.string() + ".tmp";
    try {
        archive.save_to(temporary.string());
    } catch (const c10::Error& e) {
        throw std::runtime_error("checkpoint " + temporary.string() +
                                 ": cannot write: " + e.what_without_backtrace());
    }
    std::error_code error;
    fs::rename(temporary, path, error);
    if (error)
        throw std::runtime_error("checkpoint " + path.string() +
                                 ": cannot rename into place: " + error.message());
}

InputArchive readArchive(const fs::path& path) {
    if (!fs::exists(path)) throw std::runtime_error("checkpoint " + path.string() + ": missing");
    InputArchive archive;
    try {
        archive.load_from(path.string());
    } catch (const c10::Error& e) {
        throw std::runtime_error("checkpoint " + path.string() +
                                 ": corrupt or unreadable: " + e.what_without_backtrace());
    }
    return archive;
}

c10::IValue readValue(InputArchive& archive, const fs::path& path, const std::string& key) {
    c10::IValue value;
    if (!archive.try_read(key, value))
        throw std::runtime_error("checkpoint " + path.string() + ": no '" + key + "'");
    return value;
}

std::string joinedNames(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names)
        out += n + "\n";
    return out;
}

// Named tensors as name_0, name_1, ... with their names joined in "<prefix>_names".
template <typename Items>
void writeTensors(OutputArchive& archive, const std::string& prefix, const Items& items) {
    std::vector<std::string> names;
    for (const auto& item : items) {
        archive.write(prefix + "_" + std::to_string(names.size()), item.value().detach().contiguous());
        names.push_back(item.key());
    }
    archive.write(prefix + "_names", c10::IValue(joinedNames(names)));
}

// `older`: why names that differ may come from an older format ("" for the current one).
template <typename Items>
void readTensors(InputArchive& archive, const fs::path& path, const std::string& prefix, Items items,
                 const std::string& older = "") {
    std::vector<std::string> names;
    for (const auto& item : items)
        names.push_back(item.key());
    if (readValue(archive, path, prefix + "_names").toStringRef() != joinedNames(names))
        throw std::runtime_error("checkpoint " + path.string() + ": its " + prefix +
                                 " are not this model's (another workload or model size" + older + ")");
    torch::NoGradGuard no_grad;
    for (std::size_t i = 0; i < names.size(); ++i) {
        torch::Tensor saved;
        archive.read(prefix + "_" + std::to_string(i), saved);
        items[names[i]].copy_(saved);
    }
}

} // namespace

fs::path checkpointPath(const std::string& dir, std::int64_t step) {
    return fs::path(dir) / ("checkpoint-" + std::to_string(step) + ".pt");
}

fs::path rankCheckpointPath(const std::string& dir, std::int64_t step, int rank) {
    return fs::path(dir) / ("checkpoint-" + std::to_string(step) + ".rank" + std::to_string(rank) + ".pt");
}

fs::path saveCheckpoint(const std::string& dir, std::int64_t step, const TrainingState& state,
                        const World& world) {
    std::error_code error;
    fs::create_directories(dir, error);
    if (error) throw std::runtime_error("--checkpoint-dir " + dir + ": cannot create: " + error.message());

    OutputArchive mine; // what differs by rank
    mine.write("format", c10::IValue(kFormat));
    writeTensors(mine, "buffers", state.model.named_buffers());
    OutputArchive workload;
    state.workload.saveState(workload);
    mine.write("workload", workload);
    {
        auto generator = at::detail::getDefaultCPUGenerator();
        std::lock_guard<std::mutex> lock(generator.mutex());
        mine.write("rng", generator.get_state());
    }
    writeAtomically(mine, rankCheckpointPath(dir, step, world.rank));
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD)); // every rank's file is in place

    const fs::path path = checkpointPath(dir, step);
    if (world.rank == 0) {
        OutputArchive shared;
        shared.write("format", c10::IValue(kFormat));
        shared.write("step", c10::IValue(step));
        shared.write("ranks", c10::IValue(static_cast<std::int64_t>(world.ranks)));
        shared.write("precision", c10::IValue(state.precision));
        writeTensors(shared, "parameters", state.model.named_parameters());
        OutputArchive optimizer;
        state.optimizer.save(optimizer);
        shared.write("optimizer", optimizer);
        if (state.scaler) {
            const auto s = state.scaler->state();
            shared.write("loss_scale", c10::IValue(s.scale));
            shared.write("loss_scale_clean_steps", c10::IValue(s.clean_steps));
            shared.write("skipped_steps", c10::IValue(s.skipped_steps));
        }
        writeAtomically(shared, path);
    }
    return path;
}

std::int64_t loadNewestCheckpoint(const std::string& dir, const TrainingState& state, const World& world) {
    std::int64_t step = -1; // rank 0 chooses, so that every rank loads the same step
    if (world.rank == 0 && fs::is_directory(dir)) {
        const std::regex name(R"(checkpoint-(\d+)\.pt)");
        for (const auto& entry : fs::directory_iterator(dir)) {
            std::smatch match;
            const std::string file = entry.path().filename().string();
            if (std::regex_match(file, match, name))
                step = std::max<std::int64_t>(step, std::stoll(match[1]));
        }
    }
    MPI_CHECK(MPI_Bcast(&step, 1, MPI_INT64_T, 0, MPI_COMM_WORLD));
    if (step < 0) throw std::runtime_error("--resume: no checkpoint (checkpoint-STEP.pt) in " + dir);

    const fs::path path = checkpointPath(dir, step);
    InputArchive shared = readArchive(path);
    const std::int64_t format = readValue(shared, path, "format").toInt();
    if (format < kOldestReadableFormat || format > kFormat)
        throw std::runtime_error("checkpoint " + path.string() + ": an unknown format (" +
                                 std::to_string(format) + "; this engine reads formats " +
                                 std::to_string(kOldestReadableFormat) + " to " + std::to_string(kFormat) +
                                 ")");
    const std::string older =
        format == kFormat
            ? ""
            : ", or format " + std::to_string(format) +
                  ": a Llama checkpoint of an engine up to 7d9476d, with Meta's separate wq, wk, "
                  "wv, w1, w3, which this engine's fused wqkv and w13 cannot resume";
    const std::int64_t ranks = readValue(shared, path, "ranks").toInt();
    if (ranks != world.ranks)
        throw std::runtime_error("checkpoint " + path.string() + ": written by " + std::to_string(ranks) +
                                 " ranks, resumed by " + std::to_string(world.ranks) +
                                 " (the data positions are per rank)");
    if (readValue(shared, path, "step").toInt() != step)
        throw std::runtime_error("checkpoint " + path.string() + ": its step differs from its name");
    try {
        readTensors(shared, path, "parameters", state.model.named_parameters(), older);
        InputArchive optimizer;
        shared.read("optimizer", optimizer);
        state.optimizer.load(optimizer);
        if (state.scaler) {
            c10::IValue scale;
            if (shared.try_read("loss_scale", scale)) // absent when the checkpoint was not fp16: start afresh
                state.scaler->restore({scale.to<double>(),
                                       readValue(shared, path, "loss_scale_clean_steps").toInt(),
                                       readValue(shared, path, "skipped_steps").toInt()});
        }

        const fs::path rank_path = rankCheckpointPath(dir, step, world.rank);
        InputArchive mine = readArchive(rank_path);
        readTensors(mine, rank_path, "buffers", state.model.named_buffers());
        InputArchive workload;
        mine.read("workload", workload);
        state.workload.loadState(workload);
        torch::Tensor rng;
        mine.read("rng", rng);
        auto generator = at::detail::getDefaultCPUGenerator();
        std::lock_guard<std::mutex> lock(generator.mutex());
        generator.set_state(rng);
    } catch (const c10::Error& e) {
        throw std::runtime_error("checkpoint " + path.string() + " (step " + std::to_string(step) +
                                 "): corrupt: " + e.what_without_backtrace());
    }
    return step;
}

} // namespace scalebench
