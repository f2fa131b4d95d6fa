// MaxText's recipe arithmetic (llm_step_figures.h).
#include "llm_step_figures.h"

namespace scalebench {

double daysToTrain(double tokens_per_s, double tokens) {
    return tokens_per_s > 0 ? tokens / tokens_per_s / 86400 : 0;
}

LlmStepFigures llmStepFigures(double step_s, int seq_len, int global_batch, int devices,
                              double model_flops_per_sample, double peak_flops_per_device,
                              double tokens_to_train) {
    LlmStepFigures f;
    if (step_s <= 0 || devices <= 0) return f;
    f.tokens_per_s = static_cast<double>(seq_len) * global_batch / step_s;
    f.tokens_per_s_per_device = f.tokens_per_s / devices;
    const double flops_per_device = global_batch * model_flops_per_sample / step_s / devices;
    f.tflops_per_device = flops_per_device / 1e12;
    if (peak_flops_per_device > 0) f.mfu = flops_per_device / peak_flops_per_device;
    f.days_to_train = daysToTrain(f.tokens_per_s, tokens_to_train);
    return f;
}

} // namespace scalebench
