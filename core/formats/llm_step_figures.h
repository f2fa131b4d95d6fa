// A language model's step as MaxText's recipe reads it: tokens/s, per device, model TFLOP/s, MFU and days to
// train, from one step time (the readers of LLM trainers' logs and the analysis share it).
#pragma once

namespace scalebench {

// What MaxText's Llama-2 70B recipe (seed 003) computes from one step time, digit for digit:
//   tokens/s = seq_len x global batch / step time;  days to train = tokens / (tokens/s) / 86400;
//   MFU = global batch x model FLOPs per sample / step time / GPUs / peak FLOP/s.
struct LlmStepFigures {
    double tokens_per_s = 0;
    double tokens_per_s_per_device = 0;
    double tflops_per_device = 0; // achieved model TFLOP/s of one device
    double mfu = 0;               // a fraction; 0 without a peak
    double days_to_train = 0;     // for the tokens asked
};
LlmStepFigures llmStepFigures(double step_s, int seq_len, int global_batch, int devices,
                              double model_flops_per_sample, double peak_flops_per_device,
                              double tokens_to_train = 1e12);
// Days to train `tokens` at a throughput in tokens/s; 0 without a throughput.
double daysToTrain(double tokens_per_s, double tokens = 1e12);

} // namespace scalebench
