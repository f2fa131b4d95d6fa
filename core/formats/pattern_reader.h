// Reads any trainer's log with a user-defined format (core/formats/pattern_format.h): each line matched
// against the definition's patterns, the named groups as the figures of step, evaluation and header records.
#pragma once

#include "output_reader.h"
#include "pattern_format.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace scalebench {

// One run's log read with a definition: a HeaderRecord before the first step or evaluation, a StepRecord per
// step line, an EvalRecord per evaluation line, a SummaryRecord at the end (medians over the steps after the
// first, as MaxTextReader's).
//
// Each line (CRLF or LF; ANSI colour sequences removed, as torchtitan prints them) is tried against the
// definition's patterns in order, searched anywhere in the line (so a rank or logging prefix such as srun's
// "3: " or mpirun's "[1,0]<stdout>:" does not matter); the first that matches reads it. A line that matches
// but has a figure that is not a finite number (or a step that is not a whole number, a step time that is not
// positive) is counted broken, naming the field. A line that holds a pattern's `marker` but matches no
// pattern is counted broken too (a cut line); other lines are skipped. A line longer than
// kMaxMatchedLineBytes is not matched (std::regex backtracks recursively).
//
// Mapping (units from the definition's [units]; "/device" figures times OutputContext::ranks):
//   step = step; loss = loss; step_s = step_time in seconds; samples_per_s = throughput, else batch / step_s;
//   tokens_per_s = tokens_per_s; model_flops_per_s = tflops x 1e12; mfu = mfu as a fraction (none without);
//   elapsed_s = elapsed where the pattern has it, else the running sum of step_s x the steps since the
//   previous step line read (the first line: one step); data_s ... optimizer_s, comm_hidden_s = 0.
//   Evaluation: step, metric = the line's eval_metric, value = eval (eval_loss where none), loss = eval_loss,
//   elapsed_s = the steps' elapsed time so far.
//   Header: workload = the (?<workload>) group, else the format's name; ranks = OutputContext::ranks; steps =
//   the (?<steps>) group, else 0; JSON "tool" and "format" = the format's name.
//
// Every rank may print the line: a step (or evaluation) number not above the last one read is skipped as
// another rank's copy.
class PatternReader : public OutputReader {
  public:
    static constexpr std::size_t kMaxMatchedLineBytes = 2048;

    PatternReader(PatternFormat format, OutputContext context);

  protected:
    void readLine(std::string_view line, std::vector<MetricRecord>& out) override;
    void readEnd(std::vector<MetricRecord>& out) override;

  private:
    // The figures a matched line gives, read from its groups; returns why they could not be, or "".
    std::string readStep(const PatternLine& pattern, const std::smatch& match, StepRecord& record);
    std::string readEval(const PatternLine& pattern, const std::smatch& match, EvalRecord& record);
    void readHeaderFields(const PatternLine& pattern, const std::smatch& match);
    void writeHeader(std::vector<MetricRecord>& out);
    SummaryRecord summary() const;

    PatternFormat format_;
    OutputContext context_;
    std::string workload_;
    std::int64_t steps_ = 0;
    bool header_written_ = false;
    std::optional<std::int64_t> last_step_;
    std::optional<std::int64_t> last_eval_step_;
    double elapsed_s_ = 0;
    StepRecord last_;
    std::optional<EvalRecord> last_eval_;
    // Each read step's figures, in order, where the line gave them.
    std::vector<double> step_seconds_;
    std::vector<double> samples_per_s_;
    std::vector<double> tokens_per_s_;
    std::vector<double> model_flops_per_s_;
};

// The reader of a run's output with `format`; what the integration calls for a plan's or an import's format
// that is a definition (a shipped name or a file).
std::unique_ptr<OutputReader> makePatternReader(const PatternFormat& format, OutputContext context);

} // namespace scalebench
