// Every workload the engine trains, by the name the plan and the console use (docs/workloads.md).
#include "bert_pretraining.h"
#include "image_classification.h"
#include "imagenet_classification.h"
#include "language_model.h"
#include "llama_pretraining.h"
#include "logistic_regression.h"
#include "translation.h"
#include "workload.h"

#include <functional>
#include <stdexcept>
#include <utility>

namespace scalebench {
namespace {

using Factory = std::function<std::unique_ptr<Workload>(const EngineOptions&, const World&)>;

template <typename W> Factory make() {
    return [](const EngineOptions& o, const World& w) { return std::make_unique<W>(o, w); };
}

// One line a workload; the collective sweep is not one (main.cpp runs it).
const std::vector<std::pair<std::string, Factory>>& registry() {
    static const std::vector<std::pair<std::string, Factory>> workloads = {
        {"resnet20", make<ImageClassification>()},
        {"resnet56", make<ImageClassification>()},
        {"logistic-regression", make<LogisticRegression>()},
        {"lstm-lm", make<LanguageModel>()},
        {"gnmt", make<Translation>()},
        {"transformer", make<Translation>()},
        {"resnet50", make<ImageNetClassification>()},
        {"bert", make<BertPretraining>()},
        {"llama", make<LlamaPretraining>()},
    };
    return workloads;
}

} // namespace

std::vector<std::string> workloadNames() {
    std::vector<std::string> names;
    for (const auto& [name, factory] : registry())
        names.push_back(name);
    return names;
}

std::unique_ptr<Workload> makeWorkload(const EngineOptions& options, const World& world) {
    for (const auto& [name, factory] : registry())
        if (name == options.workload) return factory(options, world);
    std::string known;
    for (const auto& name : workloadNames())
        known += (known.empty() ? "" : ", ") + name;
    throw std::invalid_argument("--workload: unknown workload '" + options.workload + "' (known: " + known +
                                ", allreduce-sweep)");
}

} // namespace scalebench
