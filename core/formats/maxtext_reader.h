// Reads MaxText's console output (its "completed step:" lines) as the step records of the metric stream.
#pragma once

#include "output_reader.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace scalebench {

// One MaxText training run's stdout (what MaxText's Llama-2 70B recipe, seed 003, greps): a HeaderRecord
// before the first step, one StepRecord per step line, a SummaryRecord at the end with the recipe's figures
// from the last step.
//
// The step line, as MaxText prints it (AI-Hypercomputer/maxtext MaxText/metric_logger.py, MetricLogger.
// log_metrics, commit ee553898; the recipe's line 7 (seed 003), ghcr.io/nvidia/jax:maxtext-2024-12-09):
//   completed step: 49, seconds: 7.908, TFLOP/s/device: 460.480, Tokens/s/device: 1035.970,
//   total_weights: 524288, loss: 0.000
// Versions read: that one (2024 on; with mtp_num_layers > 0 it appends main_model_loss and mtp_loss, which
// are ignored), and the older train.py/max_utils.py write_metrics lines without Tokens/s/device and
// total_weights ("completed step: N, seconds: X, TFLOP/s/device: Y, loss: L"; the first 2023 versions print
// "TFLOP/s:" for the same per-device figure). Every figure is printed with "{:.3f}", so a figure with fewer
// decimals was cut: the line is broken, naming the field.
//
// Mapping: step = N; step_s = seconds; loss = loss; tokens_per_s = Tokens/s/device x devices (0 where the
// version prints none); model_flops_per_s = TFLOP/s/device x 1e12 x devices; samples_per_s = tokens_per_s /
// max_target_length where a "Config param max_target_length:" line was read, else 0; elapsed_s = the running
// sum of seconds (the time of the steps, without compilation or start-up); data_s, forward_s, backward_s,
// allreduce_s, optimizer_s, comm_hidden_s = 0 (MaxText does not break a step down); mfu = TFLOP/s/device /
// OutputContext::peak_tflops where one is given (MaxText prints no peak), else empty. devices =
// OutputContext::ranks (one rank per device).
//
// Every JAX process prints the line, so a multi-host run's output (srun --label's "3: ", mpirun's
// "[1,0]<stdout>:", a logging prefix) holds each step once per host: the first line of each step is read and
// a step number not above the last one read is skipped as another host's copy.
class MaxTextReader : public OutputReader {
  public:
    explicit MaxTextReader(OutputContext context);

  protected:
    void readLine(std::string_view line, std::vector<MetricRecord>& out) override;
    void readEnd(std::vector<MetricRecord>& out) override;

  private:
    void readConfig(std::string_view line);
    // Fills `record` from the text after "completed step:"; returns why it could not, or "" where it could.
    std::string readStep(std::string_view fields, StepRecord& record, double& tflops_per_device,
                         double& tokens_per_s_per_device);
    HeaderRecord header() const;
    SummaryRecord summary() const;

    std::string figure(std::string_view name, std::string_view text, double& value);
    // The launcher's device count, else the one MaxText printed (Num_devices); 0 where neither is known.
    int devices() const;

    OutputContext context_;
    // Each step-line field's decimals on the complete lines read so far: what tells a cut last line.
    std::map<std::string, int, std::less<>> field_decimals_;
    // Settings MaxText printed before its first step ("Config param ...", "number parameters: ...").
    std::optional<double> per_device_batch_size_;
    std::optional<std::int64_t> max_target_length_;
    std::optional<double> parameters_billion_;
    std::optional<std::int64_t> printed_devices_; // "Num_devices: 64, shape ..."
    bool header_written_ = false;
    std::optional<std::int64_t> last_step_;
    double elapsed_s_ = 0;
    std::vector<double> step_seconds_; // each read step's seconds, in order
    std::vector<double> step_tokens_per_s_;
    StepRecord last_;
    double last_tflops_per_device_ = 0;
    double last_tokens_per_s_per_device_ = 0;
};

} // namespace scalebench
