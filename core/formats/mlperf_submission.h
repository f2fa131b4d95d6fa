// Where an MLPerf result file sits in a results repository, and what the submission says beside it: the
// layout MLPerf's result summarizer reads (mlperf-logging 4.1.68, result_summarizer.py):
//   <submitter>/results/<system>/<benchmark>/result_N.txt        (Training)
//   <submitter>/results/<system>/{strong,weak}/<benchmark>/...    (HPC)
//   <submitter>/results/<system>/<benchmark>/scaling.json         {"scaling_factor": F}, where it exists
//   <submitter>/systems/<system>.json                             number_of_nodes, accelerators_per_node, ...
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace scalebench {

struct MlperfSubmission {
    std::string submitter;     // the folder above results/: "NVIDIA"
    std::string system;        // its folder under results/, the systems/ file's stem: "eos_n8_ngc24.04_mxnet"
    std::string scale;         // MLPerf HPC's "strong" or "weak"; "" for Training
    std::string benchmark;     // the result's folder: "resnet"
    double scaling_factor = 1; // the benchmark folder's scaling.json, 1 without one (as the summarizer)
    bool has_scaling_json = false;
    // From systems/<system>.json; none where the file or its keys are missing (`system_problem` says why).
    std::optional<int> accelerators; // number_of_nodes x accelerators_per_node: the summarizer's count
    std::string system_name{};       // "Eos_n8"
    std::string accelerator{};       // "NVIDIA H100-SXM5-80GB"
    std::string division{};          // "closed"
    std::string system_problem{};
};

// The submission of a result file at that place in a results tree; none where the file is not laid out so.
// A scaling.json that does not read throws std::runtime_error naming the file (the summarizer stops on it).
std::optional<MlperfSubmission> mlperfSubmissionOf(const std::filesystem::path& result_file);

// The submission as the importer keeps it in a run's header ("mlperf_submission").
std::string mlperfSubmissionJson(const MlperfSubmission& submission);

} // namespace scalebench
