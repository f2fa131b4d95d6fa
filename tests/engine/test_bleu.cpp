// Corpus BLEU against published and independently computed values (tests/fixtures/bleu_reference.py), and
// MLBench's words against sacremoses + sacrebleu.
#include "bleu.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <sstream>
#include <string>

using namespace scalebench;

namespace {

// Words to ids, one id a distinct word across every call (BLEU only compares ids).
std::vector<int64_t> ids(const std::string& sentence) {
    static std::map<std::string, int64_t> vocabulary;
    std::vector<int64_t> out;
    std::istringstream words(sentence);
    for (std::string w; words >> w;)
        out.push_back(vocabulary.emplace(w, static_cast<int64_t>(vocabulary.size())).first->second);
    return out;
}

const char* kHyp1 =
    "It is a guide to action which ensures that the military always obeys the commands of the party";
const char* kRef1a =
    "It is a guide to action that ensures that the military will forever heed Party commands";
const char* kRef1b = "It is the guiding principle which guarantees the military forces always being under "
                     "the command of the Party";
const char* kRef1c = "It is the practical guide for the army always to heed the directions of the party";
const char* kHyp2 = "he read the book because he was interested in world history";
const char* kRef2a = "he was interested in world history because he read the book";

} // namespace

TEST_CASE("corpus BLEU equals NLTK's published corpus_bleu and sentence_bleu examples", "[engine]") {
    BleuCounts first;
    first.add(ids(kHyp1), {ids(kRef1a), ids(kRef1b), ids(kRef1c)});
    CHECK(corpusBleu(first) == Approx(50.45666840058485).epsilon(1e-9)); // sentence_bleu, 0.5045666840058485
    BleuCounts second;
    second.add(ids(kHyp2), ids(kRef2a));
    BleuCounts corpus = first;
    corpus += second;
    CHECK(corpusBleu(corpus) == Approx(59.20778868801042).epsilon(1e-9)); // corpus_bleu, 0.5920778868801042
    CHECK(corpusBleu(corpus, BleuSmoothing::none) == Approx(59.20778868801042).epsilon(1e-9));
}

TEST_CASE("corpus BLEU applies the brevity penalty to the whole corpus's lengths", "[engine]") {
    BleuCounts counts;
    counts.add(ids("the cat sat on the mat"), ids("the cat sat on the red mat today"));
    counts.add(ids("a dog ran in the park"), ids("the dog ran in the big park"));
    CHECK(counts.values[8] == 12);
    CHECK(counts.values[9] == 15);
    CHECK(corpusBleu(counts) == Approx(52.11542151372899).epsilon(1e-9));
}

TEST_CASE("corpus BLEU without a matching 4-gram is 0 for multi-bleu and smoothed like sacrebleu",
          "[engine]") {
    BleuCounts counts;
    counts.add(ids("the cat the mat sat on"), ids("the cat sat on the mat"));
    CHECK(corpusBleu(counts, BleuSmoothing::none) == 0);
    CHECK(corpusBleu(counts, BleuSmoothing::exponential) == Approx(28.117066259517454).epsilon(1e-9));
}

TEST_CASE("corpus BLEU of a perfect translation is 100 and of an empty one is 0", "[engine]") {
    BleuCounts perfect;
    perfect.add(ids("a b c d e"), ids("a b c d e"));
    CHECK(corpusBleu(perfect) == Approx(100.0));
    BleuCounts empty;
    empty.add({}, ids("a b c d e"));
    CHECK(corpusBleu(empty) == 0);
    // Sums of counts (as ranks add them) give the score of the joined corpus.
    BleuCounts joined = perfect;
    joined += empty;
    CHECK(joined.values[9] == 10);
    CHECK(corpusBleu(joined) == Approx(100.0 * std::exp(1.0 - 10.0 / 5.0)));
}

namespace {

std::vector<std::string> tokens(const std::string& line) {
    std::vector<std::string> out;
    std::istringstream words(line);
    for (std::string w; words >> w;)
        out.push_back(w);
    return out;
}

std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words)
        out += (out.empty() ? "" : " ") + w;
    return out;
}

} // namespace

// MLBench scores detokenised, lowercased text with sacrebleu's "intl" tokenisation
// (mlbench_core's BLEUScore), not BPE pieces. Expected words: sacremoses' MosesDetokenizer("de") on the line
// with "@@ " removed, lowercased, then sacrebleu 2.4.3's TokenizerV14International.
TEST_CASE("BLEU's words are MLBench's: BPE merged, Moses spacing undone, lowercased, intl-tokenised",
          "[engine]") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"Die Stadt hat 2014 rund 3,5 Milli@@ onen Ein@@ wohner .",
         "die stadt hat 2014 rund 3,5 millionen einwohner ."},
        {"&quot; Das ist gut &quot; , sagte er ( 2015 ) .", "\" das ist gut \" , sagte er ( 2015 ) ."},
        {"Er ist ein daten @-@ getriebener Mensch , der 50 % mehr ver@@ dient .",
         "er ist ein daten - getriebener mensch , der 50 % mehr verdient ."},
        {"\xc3\x84RGER \xc3\xbc"
         "ber \xe2\x80\x9e Politik \xe2\x80\x9c - \xc3\x9c"
         "BER alles ! Preis : 30 \xe2\x82\xac oder $ 40",
         "\xc3\xa4rger \xc3\xbc"
         "ber \xe2\x80\x9e politik \xe2\x80\x9c - \xc3\xbc"
         "ber alles ! preis : 30 \xe2\x82\xac oder $ 40"},
        // A number glued to the line's last or first punctuation stays one word (mteval-v14's quirk).
        {"(1990) war es 2:3 ... bei 10 + 2 = 12 .", "(1990 ) war es 2:3 . . . bei 10 + 2 = 12."},
        {"Das ist&apos;s : Stra\xc3\x9f"
         "e , \xc3\x96l , na\xc3\xafve \xc5\x92uvre",
         "das ist ' s : stra\xc3\x9f"
         "e , \xc3\xb6l , na\xc3\xafve \xc5\x93uvre"},
    };
    for (const auto& [line, words] : cases) {
        INFO(line);
        CHECK(joined(bleuWords(tokens(line))) == words);
    }
}

TEST_CASE("corpus BLEU on MLBench's words equals sacrebleu's corpus_bleu(tokenize='intl', lowercase=True)",
          "[engine]") {
    // The same three pairs through sacremoses + sacrebleu 2.4.3: score 69.69087198138524, counts
    // [29, 23, 18, 14], totals [32, 29, 26, 23], sys_len 32, ref_len 34.
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"Die Stadt hat 2014 rund 3,5 Milli@@ onen Ein@@ wohner .",
         "Die Stadt hatte 2014 etwa 3,5 Millionen Einwohner ."},
        {"&quot; Das ist gut &quot; , sagte er ( 2015 ) .",
         "&quot; Das ist sehr gut &quot; , sagte er ( 2015 ) ."},
        {"Er ist ein Mensch , der 50 % mehr verdient .",
         "ER ist ein Mensch , der 50 % mehr ver@@ dient als 2014 ."},
    };
    BleuCounts words, pieces;
    for (const auto& [hypothesis, reference] : pairs) {
        words.add(bleuWords(tokens(hypothesis)), bleuWords(tokens(reference)));
        pieces.add(tokens(hypothesis), tokens(reference));
    }
    CHECK(words.values == decltype(words.values){29, 23, 18, 14, 32, 29, 26, 23, 32, 34});
    CHECK(corpusBleu(words) == Approx(69.69087198138524).epsilon(1e-12));
    // BLEU over the pieces as the files hold them (what the engine scored before) is another number.
    CHECK(std::abs(corpusBleu(pieces) - 69.69087198138524) > 5);
}
