// The formats a run's output is read in, and the reader of each.
#include "output_formats.h"

#include "maxtext_reader.h"
#include "metric_stream_parser.h"
#include "mllog_reader.h"
#include "nccl_tests_json_reader.h"
#include "nccl_tests_table_reader.h"
#include "osu_output.h"
#include "pattern_format.h"
#include "pattern_reader.h"
#include "shipped_formats.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace scalebench {

bool formatReadsFileOnly(const std::string& format) {
    return format == "nccl-tests-json";
}

std::string userFormatsFolder() {
    if (const char* folder = std::getenv("SCALEBENCH_FORMATS"); folder && *folder) return folder;
    if (const char* config = std::getenv("XDG_CONFIG_HOME"); config && *config)
        return (std::filesystem::path(config) / "scalebench" / "formats").string();
    const char* home = std::getenv("HOME");
    return (std::filesystem::path(home && *home ? home : ".") / ".config" / "scalebench" / "formats")
        .string();
}

namespace {
bool isBuiltIn(const std::string& format) {
    return format.empty() ||
           std::find(kOutputFormats.begin(), kOutputFormats.end(), format) != kOutputFormats.end();
}

std::string fileText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) throw std::runtime_error("cannot read the format definition " + path.string());
    return text.str();
}

// A name a definition in the user's folder may have: letters, digits, '.', '_' and '-' (as a run's name
// keeps of a program), not starting with '.', no path.
bool isDefinitionName(const std::string& format) {
    return !format.empty() && format.front() != '.' &&
           std::all_of(format.begin(), format.end(),
                       [](unsigned char c) { return std::isalnum(c) || c == '.' || c == '_' || c == '-'; });
}

std::vector<std::string> userFormatNames() {
    std::set<std::string> names;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(userFormatsFolder(), error))
        if (entry.path().extension() == ".toml" && isDefinitionName(entry.path().stem().string()))
            names.insert(entry.path().stem().string());
    return {names.begin(), names.end()};
}
} // namespace

std::optional<FormatDefinition> patternFormatDefinition(const std::string& format) {
    if (isBuiltIn(format)) return std::nullopt;
    if (std::optional<std::string> shipped = shippedFormatText(format))
        return FormatDefinition{*shipped, "resources/formats/" + format + ".toml"};
    if (isDefinitionName(format)) {
        const std::filesystem::path path = std::filesystem::path(userFormatsFolder()) / (format + ".toml");
        if (std::filesystem::exists(path)) return FormatDefinition{fileText(path), path.string()};
        return std::nullopt;
    }
    if (format.size() > 5 && format.ends_with(".toml") && std::filesystem::exists(format))
        return FormatDefinition{fileText(format), format};
    return std::nullopt;
}

std::vector<std::string> availableFormats() {
    std::vector<std::string> formats = kOutputFormats;
    for (const auto& names : {shippedFormatNames(), userFormatNames()})
        for (const std::string& name : names)
            if (std::find(formats.begin(), formats.end(), name) == formats.end()) formats.push_back(name);
    return formats;
}

void checkOutputFormat(const std::string& format) {
    if (isBuiltIn(format)) return;
    const std::optional<FormatDefinition> definition = patternFormatDefinition(format);
    if (!definition) {
        std::string known;
        for (const std::string& name : availableFormats())
            known += (known.empty() ? "" : ", ") + name;
        throw std::invalid_argument("no output format '" + format + "' (formats: " + known +
                                    "; or a definition file ending in .toml, or NAME.toml in " +
                                    userFormatsFolder() + ")");
    }
    readPatternFormat(definition->text, definition->source);
}

std::unique_ptr<OutputReader> makeOutputReader(const std::string& format, const OutputContext& context) {
    if (format.empty() || format == "metric-stream") return std::make_unique<MetricStreamParser>();
    if (format == "osu") return std::make_unique<OsuLatencyReader>(context);
    if (format == "nccl-tests") return std::make_unique<NcclTestsTableReader>(context);
    if (format == "nccl-tests-json") return std::make_unique<NcclTestsJsonReader>(context);
    if (format == "mllog") return std::make_unique<MllogReader>(context);
    if (format == "maxtext") return std::make_unique<MaxTextReader>(context);
    if (const std::optional<FormatDefinition> definition = patternFormatDefinition(format))
        return makePatternReader(readPatternFormat(definition->text, definition->source), context);
    throw std::invalid_argument("no reader for output format '" + format + "'");
}

} // namespace scalebench
