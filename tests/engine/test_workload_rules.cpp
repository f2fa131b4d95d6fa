// MLBench tasks 2 and 3's rules in this process at one rank, on the CPU: logistic regression's held-out
// accuracy and its learning-rate decay on a plateau of the held-out loss (judged once an epoch), the language
// model's weight drop and its switch to averaged SGD (AWD-LSTM's non-monotonic trigger), each kept in
// checkpoints.
#include "one_rank_mpi.h"
#include "training_outcome.h"
#include "workload.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>
#include <torch/torch.h>

using namespace scalebench;

namespace {

// synthetic-epsilon at one rank: 32 batches of 8 a rank, so an epoch is 32 steps.
EngineOptions logisticRegression() {
    EngineOptions o;
    o.workload = "logistic-regression";
    o.dataset = "synthetic-epsilon";
    o.batch_per_rank = 8;
    o.eval_samples = 200;
    o.lr = 4;
    return o;
}
constexpr int kLogisticEpochSteps = 32;

// synthetic-text, tiny model: 20 x bptt rows a column, so an epoch is about 20 steps of ~bptt tokens.
EngineOptions languageModel(const std::string& preset = "tiny") {
    EngineOptions o;
    o.workload = "lstm-lm";
    o.dataset = "synthetic-text";
    o.preset = preset;
    o.batch_per_rank = 4;
    o.seq_len = 10;
    o.eval_samples = 20;
    o.lr = 10;
    o.warmup_steps = 0;
    return o;
}

std::unique_ptr<Workload> workload(const EngineOptions& options) {
    oneRankWorld(); // the data shards ask MPI
    torch::manual_seed(1);
    return makeWorkload(options, World());
}

void takeSteps(Workload& w, int steps) {
    for (int i = 0; i < steps; ++i)
        w.nextBatch();
}

// Batches until the workload's epoch changes (the language model counts its own passes).
void finishEpoch(Workload& w) {
    const int64_t epoch = w.epoch();
    while (w.epoch() == epoch)
        w.nextBatch();
}

// from's workload state, as a checkpoint carries it, loaded into to.
void copyState(const Workload& from, Workload& to) {
    torch::serialize::OutputArchive out;
    from.saveState(out);
    std::stringstream bytes;
    out.save_to(bytes);
    torch::serialize::InputArchive in;
    in.load_from(bytes);
    to.loadState(in);
}

} // namespace

TEST_CASE("task 2: logistic regression's evaluation is held-out accuracy, with the held-out loss beside it",
          "[engine][rules]") {
    const auto w = workload(logisticRegression());
    CHECK(w->evalMetric().name == "accuracy");
    CHECK(w->evalMetric().higher_is_better);
    const Evaluation untrained = w->evaluate();
    CHECK(untrained.value >= 0);
    CHECK(untrained.value <= 1);
    CHECK(untrained.loss == Approx(std::log(2.0)).margin(0.02)); // near-zero logits: the loss of guessing
    CHECK(untrained.value * 200 == Approx(std::round(untrained.value * 200)).margin(1e-9)); // correct / 200

    auto optimizer = w->makeOptimizer();
    for (int step = 0; step < kLogisticEpochSteps; ++step) { // one epoch of plain SGD at lr 4
        optimizer->zero_grad();
        w->forwardLoss(w->nextBatch()).backward();
        optimizer->step();
    }
    const Evaluation trained = w->evaluate();
    CHECK_OUTCOME_ABOVE("held-out accuracy after one epoch", trained.value, 0.7);
    CHECK_OUTCOME_BELOW("held-out loss after one epoch", trained.loss, 0.6);
}

TEST_CASE(
    "task 2: the learning rate falls x0.75 after 2 epochs without a lower held-out loss, judged once an "
    "epoch, and a checkpoint keeps the count",
    "[engine][rules]") {
    const auto w = workload(logisticRegression());
    const double peak = 4; // lr x 1 rank, no warm-up
    auto evaluatedAfter = [](Workload& on, int steps, double loss) {
        takeSteps(on, steps);
        on.afterEvaluation({0.5, loss});
    };
    evaluatedAfter(*w, 10, 0.9);                       // within the first epoch: not judged
    evaluatedAfter(*w, kLogisticEpochSteps - 10, 0.5); // epoch 1: the best so far
    evaluatedAfter(*w, 5, 0.9);                        // epoch 1 again: not judged
    CHECK(w->learningRate(38) == Approx(peak));
    evaluatedAfter(*w, kLogisticEpochSteps - 5, 0.6); // epoch 2: no lower loss (1)
    CHECK(w->learningRate(65) == Approx(peak));
    evaluatedAfter(*w, kLogisticEpochSteps, 0.55); // epoch 3: no lower loss (2): x0.75
    CHECK(w->learningRate(97) == Approx(peak * 0.75));

    evaluatedAfter(*w, kLogisticEpochSteps, 0.56); // epoch 4: (1) after the decay
    const auto resumed = workload(logisticRegression());
    copyState(*w, *resumed);
    CHECK(resumed->learningRate(129) == Approx(peak * 0.75));
    evaluatedAfter(*resumed, kLogisticEpochSteps, 0.57); // epoch 5: (2): x0.75 again
    CHECK(resumed->learningRate(161) == Approx(peak * 0.75 * 0.75));
    evaluatedAfter(*resumed, kLogisticEpochSteps, 0.4); // epoch 6: a lower loss, the rate stays
    CHECK(resumed->learningRate(193) == Approx(peak * 0.75 * 0.75));
}

TEST_CASE("task 3: the AWD-LSTM drops its hidden-to-hidden weights at 0.5 (AWD-LSTM's wdrop, MLBench's "
          "reference)",
          "[engine][rules]") {
    CHECK(workload(languageModel("awd"))->hyperparameters()["weight_drop"] == 0.5);
    CHECK(workload(languageModel("small"))->hyperparameters()["weight_drop"] == 0.5);
}

TEST_CASE("task 3: the language model switches to averaged SGD when the perplexity has not improved for 5 "
          "epochs (AWD-LSTM's non-monotonic trigger), and a checkpoint keeps the history",
          "[engine][rules]") {
    const auto w = workload(languageModel());
    auto averaged = [](Workload& on) { return on.evaluate().evidence.value("asgd", false); };
    auto judged = [](Workload& on, double loss) {
        finishEpoch(on);
        on.afterEvaluation({std::exp(loss), loss});
    };
    judged(*w, 3.0); // the best
    for (int i = 0; i < 3; ++i)
        judged(*w, 3.5);
    CHECK_FALSE(averaged(*w));

    const auto resumed = workload(languageModel());
    copyState(*w, *resumed);
    judged(*resumed, 3.5); // the 5th and 6th: the rule needs more than 5 before the one it judges
    judged(*resumed, 3.5);
    resumed->afterEvaluation({std::exp(2.0), 2.0}); // within the same epoch: not judged
    CHECK_FALSE(averaged(*resumed));
    judged(*resumed, 3.5); // the 7th, worse than the best before the last 5: switched
    CHECK(averaged(*resumed));
    CHECK(resumed->hyperparameters()["nonmono"] == 5);
}

TEST_CASE("task 3: after the switch, the weights after each step are averaged, evaluations use the mean and "
          "leave the trained weights in place, and a checkpoint keeps the averages",
          "[engine][rules]") {
    const auto w = workload(languageModel());
    for (int i = 0; i < 7; ++i) { // the best, then 6 worse: switched at the 7th
        finishEpoch(*w);
        w->afterEvaluation({0, i == 0 ? 3.0 : 3.5});
    }
    auto optimizer = w->makeOptimizer();
    const auto parameters = w->module().parameters();
    std::vector<torch::Tensor> sums;
    for (const auto& p : parameters)
        sums.push_back(torch::zeros_like(p));
    for (int step = 0; step < 3; ++step) {
        optimizer->zero_grad();
        w->forwardLoss(w->nextBatch()).backward();
        optimizer->step();
        w->afterOptimizerStep();
        for (std::size_t i = 0; i < parameters.size(); ++i)
            sums[i] += parameters[i].detach();
    }
    std::vector<torch::Tensor> trained;
    for (const auto& p : parameters)
        trained.push_back(p.detach().clone());
    const Evaluation averaged = w->evaluate();
    CHECK(averaged.evidence.value("averaged_weights", false));
    for (std::size_t i = 0; i < parameters.size(); ++i)
        CHECK(torch::equal(parameters[i], trained[i]));

    // The same model, not switched, with the mean of the 3 steps' weights: the same evaluation.
    const auto reference = workload(languageModel());
    {
        torch::NoGradGuard no_grad;
        const auto mine = reference->module().parameters();
        for (std::size_t i = 0; i < mine.size(); ++i)
            mine[i].copy_(sums[i] / 3);
    }
    const Evaluation mean = reference->evaluate();
    CHECK_FALSE(mean.evidence.value("averaged_weights", false));
    CHECK(averaged.loss == Approx(mean.loss).epsilon(1e-5));

    // Resumed from a checkpoint (the module's weights as the loop restores them): the same evaluation.
    const auto resumed = workload(languageModel());
    {
        torch::NoGradGuard no_grad;
        const auto mine = resumed->module().parameters();
        for (std::size_t i = 0; i < mine.size(); ++i)
            mine[i].copy_(trained[i]);
    }
    copyState(*w, *resumed);
    CHECK(resumed->evaluate().loss == Approx(averaged.loss).epsilon(1e-9));
}
