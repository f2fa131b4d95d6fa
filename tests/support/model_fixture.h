// Forward-pass fixtures computed with PyTorch in Python (tests/fixtures/*.py): a model's weights, inputs and
// the outputs PyTorch computed from them, so a test can load the same weights into the engine's LibTorch
// model and compare its outputs.
#pragma once

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <torch/torch.h>

namespace scalebench {

struct ModelFixture {
    nlohmann::json config;                        // the model's shape, as the generator wrote it
    double tolerance = 0;                         // largest absolute difference the generator states
    std::map<std::string, torch::Tensor> state;   // parameters and buffers by their LibTorch names
    std::map<std::string, torch::Tensor> inputs;  // by the generator's names
    std::map<std::string, torch::Tensor> outputs; // by the generator's names
};

// Hexadecimal digits, two a byte, to bytes.
inline std::vector<uint8_t> decodeHex(const std::string& text) {
    auto digit = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        throw std::runtime_error("fixture: a character outside hexadecimal");
    };
    if (text.size() % 2) throw std::runtime_error("fixture: an odd number of hexadecimal digits");
    std::vector<uint8_t> out(text.size() / 2);
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<uint8_t>(digit(text[2 * i]) * 16 + digit(text[2 * i + 1]));
    return out;
}

// Reads tests/data/fixtures/NAME.json: {"config", "tolerance", "state", "inputs", "outputs"}, each tensor
// {"dtype": "float32"|"int64", "shape": [...], "hex": little-endian row-major values}.
inline ModelFixture loadModelFixture(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("fixture " + path.string() + " cannot be read");
    const auto j = nlohmann::json::parse(in);
    auto tensors = [&](const char* section) {
        std::map<std::string, torch::Tensor> out;
        for (const auto& [name, t] : j.at(section).items()) {
            const auto shape = t.at("shape").get<std::vector<int64_t>>();
            auto bytes = decodeHex(t.at("hex").get<std::string>());
            const auto type = t.at("dtype") == "int64" ? torch::kInt64 : torch::kFloat32;
            auto values = torch::empty(shape, type);
            if (static_cast<std::size_t>(values.nbytes()) != bytes.size())
                throw std::runtime_error("fixture tensor '" + name + "': " + std::to_string(bytes.size()) +
                                         " bytes for shape of " + std::to_string(values.nbytes()));
            std::memcpy(values.data_ptr(), bytes.data(), bytes.size()); // little-endian host
            out[name] = values;
        }
        return out;
    };
    return {j.value("config", nlohmann::json::object()), j.at("tolerance").get<double>(), tensors("state"),
            tensors("inputs"), tensors("outputs")};
}

// Copies the fixture's state into every parameter and buffer of module; throws naming any tensor that is
// missing on either side or has another shape (so a renamed layer cannot pass unnoticed).
inline void loadFixtureState(torch::nn::Module& module, const ModelFixture& fixture) {
    torch::NoGradGuard no_grad;
    std::map<std::string, torch::Tensor> mine;
    for (const auto& p : module.named_parameters())
        mine[p.key()] = p.value();
    for (const auto& b : module.named_buffers())
        mine[b.key()] = b.value();
    for (const auto& [name, tensor] : mine) {
        const auto it = fixture.state.find(name);
        if (it == fixture.state.end()) throw std::runtime_error("fixture has no tensor '" + name + "'");
        if (it->second.sizes() != tensor.sizes())
            throw std::runtime_error("fixture tensor '" + name + "' has another shape");
        tensor.copy_(it->second);
    }
    for (const auto& [name, tensor] : fixture.state)
        if (!mine.count(name))
            throw std::runtime_error("the model has no tensor '" + name + "' of the fixture");
}

// Largest absolute difference, for messages.
inline double maxAbsDifference(const torch::Tensor& a, const torch::Tensor& b) {
    return (a.to(torch::kFloat64) - b.to(torch::kFloat64)).abs().max().item<double>();
}

// Checks output against the fixture's output called name, to within the fixture's tolerance; a failure names
// the output and its largest difference.
inline void checkFixtureOutput(const torch::Tensor& output, const ModelFixture& fixture,
                               const std::string& name) {
    const double difference = maxAbsDifference(output, fixture.outputs.at(name));
    INFO(name << ": largest difference " << difference);
    CHECK(difference <= fixture.tolerance);
}

} // namespace scalebench
