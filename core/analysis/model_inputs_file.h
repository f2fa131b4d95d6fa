// The performance model's inputs stated in a TOML file rather than read from a stored session: a measured
// step time, link figures and overlap from a publication or a data sheet (the seeds' tables,
// bench/seeds/*.toml), for `scalebench project FILE.toml` (docs/performance-model.md, "Stated inputs").
#pragma once

#include "performance_model.h"

#include <filesystem>
#include <string>

namespace scalebench {

struct StatedModel {
    std::string name;   // what the figures describe
    std::string source; // where they come from
    ModelInputs inputs; // stated links, hidden fraction and measured points; no sweep
};

// Problems are PlanErrors naming the file, line and key. A measured point gives its step time; its exposed
// communication, where not stated, is (1 - h) x the stated links' all-reduce of every bucket at its rank
// count, and its compute the rest of the step.
StatedModel parseStatedModelText(const std::string& text, const std::string& file_name);
StatedModel parseStatedModelFile(const std::filesystem::path& path);

} // namespace scalebench
