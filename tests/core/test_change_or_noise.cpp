// Change or noise: a difference between two sets of repeats is called only where its bootstrap interval lies
// beyond the threshold; too few repeats cannot tell, and repeats of one setting never raise an alarm.
#include "change_or_noise.h"

#include <catch2/catch.hpp>
#include <random>

using namespace scalebench;

namespace {
// `n` repeats of a figure around `mean` with a relative spread `cv` (a shared machine's noise).
std::vector<double> repeats(std::mt19937& draw, int n, double mean, double cv) {
    std::normal_distribution<double> noise(mean, mean * cv);
    std::vector<double> out;
    for (int i = 0; i < n; ++i)
        out.push_back(noise(draw));
    return out;
}
} // namespace

TEST_CASE("a throughput 10 % lower over 5 repeats a side is a change, with its interval", "[core][change]") {
    const std::vector<double> before = {1002, 987, 1011, 995, 1006};
    const std::vector<double> after = {902, 897, 911, 890, 905};
    const ChangeVerdict v = changeOrNoise(before, after, 0.05);
    CHECK(v.kind == ChangeKind::Lower);
    CHECK(v.relative == Approx((902.0 - 1002.0) / 1002.0)); // the medians'

    CHECK(v.high < -0.05);
    CHECK(v.low < v.relative);
    CHECK(v.high > v.relative);
    CHECK_THAT(describeChange(v),
               Catch::StartsWith("-10.0 % [") && Catch::EndsWith("(95 % bootstrap, 5 vs 5 repeats): lower"));
    CHECK(changeOrNoise(after, before, 0.05).kind == ChangeKind::Higher);
}

TEST_CASE("two repeats a side cannot tell, however large the difference", "[core][change]") {
    const ChangeVerdict v = changeOrNoise({1000, 1004}, {500, 502}, 0.05);
    CHECK(v.kind == ChangeKind::CannotTell);
    CHECK(describeChange(v) == "cannot tell: 2 vs 2 repeats (at least 3 a side)");
    CHECK(changeOrNoise({1, 2, 3}, {}, 0.05).kind == ChangeKind::CannotTell);
}

TEST_CASE("a difference inside the threshold is noise, even where its interval excludes zero",
          "[core][change]") {
    const ChangeVerdict v =
        changeOrNoise({1000, 1001, 999, 1000, 1000}, {1020, 1021, 1019, 1020, 1020}, 0.05);
    CHECK(v.kind == ChangeKind::Noise);
    CHECK(v.low > 0); // a real 2 % change, below the 5 % worth calling
    CHECK_THAT(describeChange(v), Catch::EndsWith("noise (within 5 %)"));
}

TEST_CASE("one repeat several times slower (another job took the cores) moves the median, not the verdict",
          "[core][change]") {
    const ChangeVerdict v = changeOrNoise({1002, 987, 1011, 995, 1006}, {998, 1004, 250, 1009, 992}, 0.05);
    CHECK(v.kind == ChangeKind::Noise);
    CHECK(v.relative == Approx((998.0 - 1002.0) / 1002.0));
}

TEST_CASE("the same interval from the same repeats, every time", "[core][change]") {
    const std::vector<double> a = {10, 11, 9, 10.5, 9.5}, b = {12, 12.5, 11.5, 12.2, 11.8};
    const ChangeVerdict first = changeOrNoise(a, b, 0.05), second = changeOrNoise(a, b, 0.05);
    CHECK(first.low == second.low);
    CHECK(first.high == second.high);
}

TEST_CASE("no false alarm in 1000 comparisons of 5 repeats a side of one setting with 3 % noise at a 5 % "
          "threshold",
          "[core][change]") {
    std::mt19937 draw(7);
    int alarms = 0, found = 0;
    for (int i = 0; i < 1000; ++i) {
        alarms += changeOrNoise(repeats(draw, 5, 1000, 0.03), repeats(draw, 5, 1000, 0.03), 0.05).kind !=
                  ChangeKind::Noise;
        found += changeOrNoise(repeats(draw, 5, 1000, 0.03), repeats(draw, 5, 850, 0.03), 0.05).kind ==
                 ChangeKind::Lower;
    }
    CHECK(alarms == 0);
    CHECK(found >= 950); // and a 15 % drop in the same noise is found nearly every time
}
