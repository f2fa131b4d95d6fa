// The dense peak TFLOP/s of each known GPU by the name CUDA gives it, and the header's record of the peak a
// run's MFU uses: the stated --peak-tflops first, the table's figure otherwise, nothing for an unknown GPU.
#include "gpu_peak.h"

#include <catch2/catch.hpp>

using namespace scalebench;

TEST_CASE("each known GPU has its datasheet's dense 16-bit tensor-core peak", "[engine]") {
    struct Row {
        const char* name;
        double tflops;
    };
    const Row rows[] = {
        {"NVIDIA H100 80GB HBM3", 989}, // H100 SXM, seed 003's 989
        {"NVIDIA H100 PCIe", 756},      {"NVIDIA H100 NVL", 835},       {"NVIDIA H200", 989},
        {"NVIDIA H200 NVL", 835},       {"NVIDIA GH200 480GB", 989},    {"NVIDIA A100-SXM4-80GB", 312},
        {"NVIDIA A100-SXM4-40GB", 312}, {"NVIDIA A100-PCIE-40GB", 312}, {"NVIDIA A100 80GB PCIe", 312},
        {"NVIDIA B200", 2250},          {"NVIDIA L40S", 362},
    };
    for (const Row& row : rows) {
        INFO(row.name);
        CHECK(peakTflops(row.name, "bf16") == row.tflops);
        CHECK(peakTflops(row.name, "fp16") == row.tflops);
    }
}

TEST_CASE("fp32 is measured against the TF32 tensor-core peak, half the 16-bit one", "[engine]") {
    CHECK(peakTflops("NVIDIA H100 80GB HBM3", "fp32") == 494.5);
    CHECK(peakTflops("NVIDIA A100-SXM4-80GB", "fp32") == 156);
    CHECK(peakTflops("NVIDIA B200", "fp32") == 1100);
    CHECK(peakTflops("NVIDIA L40S", "fp32") == 183);
}

TEST_CASE("an unknown GPU or precision has no table peak", "[engine]") {
    CHECK_FALSE(peakTflops("NVIDIA GeForce RTX 4090", "bf16"));
    CHECK_FALSE(peakTflops("NVIDIA H100", "bf16"));           // not a prefix match: the H100s differ
    CHECK_FALSE(peakTflops("NVIDIA H200 something", "bf16")); // nor for the H200
    CHECK_FALSE(peakTflops("nvidia h100 80gb hbm3", "bf16")); // CUDA's spelling exactly
    CHECK_FALSE(peakTflops("NVIDIA H100 80GB HBM3", "fp8"));  // not an engine precision
    CHECK_FALSE(peakTflops("", "bf16"));
}

TEST_CASE("the stated --peak-tflops wins over the table and the header records where the peak came from",
          "[engine]") {
    const auto stated = choosePeak(900, "NVIDIA H100 80GB HBM3", "bf16");
    REQUIRE(stated);
    CHECK(toJson(*stated) == nlohmann::json{{"peak_tflops", 900.0}, {"peak_source", "--peak-tflops"}});
    CHECK(toJson(PeakChoice{0, "none on a CPU"}) ==
          nlohmann::json{{"peak_tflops", nullptr}, {"peak_source", "none on a CPU"}});

    const auto table = choosePeak(0, "NVIDIA H100 80GB HBM3", "bf16");
    REQUIRE(table);
    CHECK(toJson(*table) ==
          nlohmann::json{{"peak_tflops", 989.0}, {"peak_source", "table: NVIDIA H100 80GB HBM3 bf16 dense"}});
    const auto fp32 = choosePeak(0, "NVIDIA A100-SXM4-80GB", "fp32");
    REQUIRE(fp32);
    CHECK(fp32->tflops == 156);
    CHECK(fp32->source == "table: NVIDIA A100-SXM4-80GB fp32 (TF32) dense");

    CHECK_FALSE(choosePeak(0, "NVIDIA GeForce RTX 4090", "bf16")); // no MFU
    CHECK_FALSE(choosePeak(0, "", "fp32"));                        // a CPU run
    CHECK(choosePeak(1.5, "", "fp32")->source == "--peak-tflops");
}
