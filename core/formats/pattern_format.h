// A user-defined output format: line patterns with named groups and their units, read from a TOML definition,
// so that any trainer's log (Megatron-LM, NeMo, torchtitan, ...) is read without code, as ReFrame's
// performance patterns and JUBE's analysers read theirs.
#pragma once

#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace scalebench {

// What a named group of a pattern gives (docs/metric-stream.md, "Pattern formats"). The group's name is the
// field's: (?<step>...) or (?P<step>...).
enum class PatternField {
    Step,       // the step (iteration) number: a whole number, 0 to 2^63-1; every step and eval line has one
    Steps,      // the steps the run will train ("iteration 10/ 1000"): the header's steps
    Loss,       // the training loss
    StepTime,   // time per step, [units] step_time: s (default), ms, us, min, h
    Throughput, // samples per second, [units] throughput: samples/s (default, the run's) or samples/s/device
    Batch,      // the global batch (samples per step): samples/s = batch / step time where no throughput
    TokensPerS, // tokens per second, [units] tokens_per_s: tokens/s (default) or tokens/s/device
    Tflops,     // achieved model TFLOP/s, [units] tflops: TFLOP/s (default) or TFLOP/s/device
    Mfu,        // model FLOPs utilisation, [units] mfu: % (default) or fraction
    Elapsed,    // time since the run started, [units] elapsed: as step_time
    Eval,       // an evaluation's value of the line's eval_metric
    EvalLoss,   // an evaluation's loss
    Workload,   // the workload's name (text): the header's, instead of the format's name
};

// The group names, in PatternField's order.
const std::vector<std::string>& patternFieldNames();
const std::string& patternFieldName(PatternField field);

// What a line that matches a pattern gives.
enum class PatternLineKind {
    Step,   // a StepRecord: has (?<step>) and no eval group
    Eval,   // an EvalRecord: has (?<step>) and (?<eval>) or (?<eval_loss>)
    Header, // only what the header says: (?<workload>) or (?<steps>), no (?<step>)
};

// One [[line]] of a definition.
struct PatternLine {
    std::string pattern;    // as written, with named groups
    std::string ecmascript; // what std::regex compiles: each named group a plain group
    std::regex regex;
    std::vector<std::pair<PatternField, int>> groups; // each named group's field and its group number
    PatternLineKind kind = PatternLineKind::Step;
    // A line that holds this text but does not match the pattern is counted broken (a cut line, or a trainer
    // version that prints another layout); empty: lines that do not match are skipped.
    std::string marker;
    std::string eval_metric; // what (?<eval>) measures: "perplexity", "accuracy", ...; "loss" without one
    int definition_line = 0; // where the [[line]] starts in the definition
    std::optional<int> group(PatternField field) const;
};

// [units]: what each figure is in, as factors to the metric stream's units.
struct PatternUnits {
    double step_time_s = 1;             // seconds per printed unit of step_time
    double elapsed_s = 1;               // seconds per printed unit of elapsed
    bool throughput_per_device = false; // samples/s/device: times the launcher's ranks
    bool tokens_per_device = false;     // tokens/s/device
    bool tflops_per_device = false;     // TFLOP/s/device
    double mfu_fraction = 0.01;         // the printed mfu times this is a fraction (%: 0.01)
};

struct PatternFormat {
    std::string name; // the header's tool, and its workload where no (?<workload>) group says another
    std::string description;
    std::string source;             // the file (or shipped name) it was read from, for messages
    std::vector<PatternLine> lines; // tried in order; a line's first matching pattern reads it
    PatternUnits units;
    std::string thousands_separator; // "," where a trainer prints 8,123 (torchtitan); removed from figures
};

// Reads a definition from TOML text; `source` names it in errors ("megatron-lm.toml"). A plan names a
// definition either by a shipped name (shippedFormatNames(), embedded in the binary) or by a file path;
// either way its text comes here. Anything wrong (TOML syntax, an unknown key, field or unit, a pattern
// std::regex refuses or that names no field, a back-reference, a missing name or [[line]]) throws a PlanError
// naming the source, its line, the key and what is wrong. Patterns match in time linear in the line
// (libstdc++'s Thompson NFA, no backtracking).
//
//   name = "megatron-lm"
//   [[line]]
//   pattern = 'iteration\s+(?<step>\d+)/\s*(?<steps>\d+) \|[^|]*\| elapsed time per iteration \(ms\):
//   (?<step_time>[\d.]+) \|' [units] step_time = "ms"
PatternFormat readPatternFormat(std::string_view toml_text, const std::string& source);

// A pattern with (?<name>...) and (?P<name>...) groups as std::regex's ECMAScript (which has no named
// groups): each named group a plain group, numbered as it was; (?:...), (?=...), (?!...), escapes and
// character classes kept as they are. `names` gets each named group's name and number in order.
// std::invalid_argument, saying where and what, for what ECMAScript cannot do (lookbehind, inline flags,
// (?P=name)) or an unfinished group or class.
std::string ecmascriptPattern(std::string_view pattern, std::vector<std::pair<std::string, int>>& names);

} // namespace scalebench
