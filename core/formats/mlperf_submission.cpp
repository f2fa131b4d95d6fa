// Where an MLPerf result file sits in a results repository, and what the submission says beside it.
#include "mlperf_submission.h"

#include <charconv>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace scalebench {
namespace {

using nlohmann::json;

std::optional<json> jsonFile(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    json j = json::parse(text.str(), nullptr, false);
    if (j.is_discarded()) return json(); // read, but not JSON: null
    return j;
}

// A systems/ field the summarizer multiplies: a string of digits ("8") or a number.
std::optional<int> countIn(const json& system, const char* key) {
    const auto it = system.find(key);
    if (it == system.end()) return std::nullopt;
    if (it->is_number_integer()) return it->get<int>();
    if (!it->is_string()) return std::nullopt;
    const std::string& text = it->get_ref<const std::string&>();
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
    return value;
}

std::string textIn(const json& system, const char* key) {
    const auto it = system.find(key);
    return it != system.end() && it->is_string() ? it->get<std::string>() : "";
}

void readSystem(const std::filesystem::path& file, MlperfSubmission& s) {
    const std::optional<json> system = jsonFile(file);
    if (!system) {
        s.system_problem = "no system description " + file.string();
        return;
    }
    if (!system->is_object()) {
        s.system_problem = file.string() + " is not a JSON object";
        return;
    }
    s.system_name = textIn(*system, "system_name");
    s.accelerator = textIn(*system, "accelerator_model_name");
    s.division = textIn(*system, "division");
    const std::optional<int> nodes = countIn(*system, "number_of_nodes");
    const std::optional<int> per_node = countIn(*system, "accelerators_per_node");
    if (!nodes || !per_node)
        s.system_problem = file.string() + " gives no whole number_of_nodes and accelerators_per_node";
    else
        s.accelerators = *nodes * *per_node;
}

} // namespace

std::optional<MlperfSubmission> mlperfSubmissionOf(const std::filesystem::path& result_file) {
    const std::filesystem::path file = std::filesystem::absolute(result_file).lexically_normal();
    MlperfSubmission s;
    std::filesystem::path folder = file.parent_path();
    s.benchmark = folder.filename().string();
    std::filesystem::path above = folder.parent_path();
    if (above.filename() == "strong" || above.filename() == "weak") {
        s.scale = above.filename().string();
        above = above.parent_path();
    }
    s.system = above.filename().string();
    const std::filesystem::path results = above.parent_path();
    if (results.filename() != "results" || s.system.empty() || s.benchmark.empty()) return std::nullopt;
    const std::filesystem::path submitter = results.parent_path();
    s.submitter = submitter.filename().string();
    if (s.submitter.empty()) return std::nullopt;

    if (const std::optional<json> scaling = jsonFile(folder / "scaling.json")) {
        const auto factor = scaling->is_object() ? scaling->find("scaling_factor") : scaling->end();
        if (!scaling->is_object() || factor == scaling->end() || !factor->is_number() ||
            factor->get<double>() <= 0)
            throw std::runtime_error((folder / "scaling.json").string() +
                                     " holds no positive number 'scaling_factor'");
        s.scaling_factor = factor->get<double>();
        s.has_scaling_json = true;
    }
    readSystem(submitter / "systems" / (s.system + ".json"), s);
    return s;
}

std::string mlperfSubmissionJson(const MlperfSubmission& s) {
    json j = {{"submitter", s.submitter},
              {"system", s.system},
              {"benchmark_folder", s.benchmark},
              {"scaling_factor", s.scaling_factor},
              {"scaling_json", s.has_scaling_json}};
    if (!s.scale.empty()) j["scale"] = s.scale;
    if (s.accelerators) j["accelerators"] = *s.accelerators;
    if (!s.system_name.empty()) j["system_name"] = s.system_name;
    if (!s.accelerator.empty()) j["accelerator"] = s.accelerator;
    if (!s.division.empty()) j["division"] = s.division;
    if (!s.system_problem.empty()) j["system_problem"] = s.system_problem;
    return j.dump();
}

} // namespace scalebench
