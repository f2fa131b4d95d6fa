// The environment a run's result depends on, without what every launch sets afresh.
#include "launch_environment.h"

#include <array>
#include <string_view>

namespace scalebench {

std::map<std::string, std::string> launchEnvironment(const char* const* entries) {
    constexpr std::array kept_prefixes = {std::string_view("NCCL_"), std::string_view("UCX_"),
                                          std::string_view("OMPI_MCA_")};
    constexpr std::array kept_names = {std::string_view("CUDA_VISIBLE_DEVICES"),
                                       std::string_view("OMP_NUM_THREADS")};
    constexpr std::array per_launch = {std::string_view("OMPI_MCA_orte_"), std::string_view("OMPI_MCA_ess"),
                                       std::string_view("OMPI_MCA_pmix"),
                                       std::string_view("OMPI_MCA_initial_wdir"),
                                       std::string_view("OMPI_MCA_shmem_")};
    std::map<std::string, std::string> out;
    for (; entries && *entries; ++entries) {
        const std::string_view entry(*entries);
        const auto equals = entry.find('=');
        if (equals == std::string_view::npos) continue;
        const std::string_view name = entry.substr(0, equals);
        bool kept = false;
        for (const auto prefix : kept_prefixes)
            kept = kept || name.starts_with(prefix);
        for (const auto exact : kept_names)
            kept = kept || name == exact;
        for (const auto prefix : per_launch)
            kept = kept && !name.starts_with(prefix);
        if (kept) out.emplace(std::string(name), std::string(entry.substr(equals + 1)));
    }
    return out;
}

} // namespace scalebench
