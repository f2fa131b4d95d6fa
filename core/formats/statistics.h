// The statistics the readers and the analysis share: mean and two sigma over repeats, MLPerf's olympic mean,
// the median, and which steps a run's step time is read from.
#pragma once

#include <string>
#include <vector>

namespace scalebench {

// Mean and two sample standard deviations (the MLPerf write-ups), and MLPerf's olympic mean.
struct Statistics {
    int count = 0;
    double mean = 0;
    double stddev = 0; // sample standard deviation (n - 1); 0 for one value
    double two_sigma() const { return 2 * stddev; }
};
Statistics describe(const std::vector<double>& values);
double olympicMean(std::vector<double> values); // drops the best and the worst when there are at least 3
double median(std::vector<double> values);

// Which steps a run's throughput is read from: the median over the steady-state steps (scalebench's), or the
// last step alone, as MaxText's Llama-2 70B recipe (seed 003) does: "we are using the last training step
// timing".
enum class StepTimeConvention { SteadyStateMedian, LastStep };
// "median over steady-state steps" / "last step (MaxText)": what a table says beside its figures.
std::string describeConvention(StepTimeConvention convention);

} // namespace scalebench
