// Corpus BLEU on token ids or words, from summed n-gram statistics (sacrebleu's compute_bleu), and the words
// MLBench scores: BPE merged, Moses escapes undone, lowercased, sacrebleu's international tokenisation.
#include "bleu.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace scalebench {
namespace {

using NGram = std::vector<int64_t>;

std::map<NGram, int64_t> nGramCounts(const std::vector<int64_t>& tokens, std::size_t n) {
    std::map<NGram, int64_t> counts;
    for (std::size_t i = 0; i + n <= tokens.size(); ++i)
        ++counts[NGram(tokens.begin() + static_cast<std::ptrdiff_t>(i),
                       tokens.begin() + static_cast<std::ptrdiff_t>(i + n))];
    return counts;
}

// ---- the words MLBench scores

// UTF-8 to code points; a byte that starts no valid sequence stands for itself (U+0080-U+00FF, as Latin-1).
std::u32string decode(const std::string& text) {
    std::u32string out;
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        bool valid = n > 0 && i + n <= text.size();
        for (std::size_t k = 1; valid && k < n; ++k)
            valid = (static_cast<unsigned char>(text[i + k]) >> 6) == 2;
        if (!valid) {
            out.push_back(c);
            ++i;
            continue;
        }
        char32_t cp = n == 1 ? c : c & (0x7F >> n);
        for (std::size_t k = 1; k < n; ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
        out.push_back(cp);
        i += n;
    }
    return out;
}

std::string encode(const std::u32string& text) {
    std::string out;
    for (const char32_t cp : text) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }
    return out;
}

bool in(char32_t c, char32_t first, char32_t last) {
    return c >= first && c <= last;
}

// Unicode category N (Nd, Nl, No) over the blocks bleuWords names.
bool isNumber(char32_t c) {
    return in(c, '0', '9') || c == 0xB2 || c == 0xB3 || c == 0xB9 || in(c, 0xBC, 0xBE) ||
           in(c, 0x660, 0x669) || in(c, 0x6F0, 0x6F9) || in(c, 0x966, 0x96F) || c == 0x2070 ||
           in(c, 0x2074, 0x2079) || in(c, 0x2080, 0x2089) || in(c, 0x2150, 0x2189) || in(c, 0x2460, 0x249B) ||
           in(c, 0x24EA, 0x24FF) || in(c, 0x2776, 0x2793) || c == 0x3007 || in(c, 0x3021, 0x3029) ||
           in(c, 0x3038, 0x303A) || in(c, 0xFF10, 0xFF19) || in(c, 0x1F100, 0x1F10C);
}

// Unicode category P (Pc, Pd, Ps, Pe, Pi, Pf, Po).
bool isPunctuation(char32_t c) {
    if (c < 0x80)
        return c != '$' && c != '+' && c != '<' && c != '=' && c != '>' && c != '^' && c != '`' && c != '|' &&
               c != '~' && (in(c, '!', '/') || in(c, ':', '@') || in(c, '[', '_') || in(c, '{', '}'));
    switch (c) {
    case 0xA1:
    case 0xA7:
    case 0xAB:
    case 0xB6:
    case 0xB7:
    case 0xBB:
    case 0xBF: // ¡ § « ¶ · » ¿
    case 0x37E:
    case 0x387:
    case 0x5BE:
    case 0x5C0:
    case 0x5C3:
    case 0x5C6:
    case 0x5F3:
    case 0x5F4:
    case 0x60C:
    case 0x60D:
    case 0x61B:
    case 0x61F:
    case 0x6D4:
    case 0x964:
    case 0x965:
    case 0x2045:
    case 0x2046:
    case 0x207D:
    case 0x207E:
    case 0x208D:
    case 0x208E:
    case 0x2308:
    case 0x2309:
    case 0x230A:
    case 0x230B:
    case 0x2329:
    case 0x232A:
    case 0x27C5:
    case 0x27C6:
    case 0x29FC:
    case 0x29FD:
    case 0x3030:
    case 0x303D:
    case 0xFF3F:
    case 0xFF5B:
    case 0xFF5D:
        return true;
    default:
        break;
    }
    return in(c, 0x66A, 0x66D) || in(c, 0x2010, 0x2027) || in(c, 0x2030, 0x2043) || in(c, 0x2047, 0x2051) ||
           in(c, 0x2053, 0x205E) || in(c, 0x2768, 0x2775) || in(c, 0x27E6, 0x27EF) || in(c, 0x2983, 0x2998) ||
           in(c, 0x29D8, 0x29DB) || in(c, 0x2E00, 0x2E4F) || in(c, 0x2E52, 0x2E5D) || in(c, 0x3001, 0x3003) ||
           in(c, 0x3008, 0x3011) || in(c, 0x3014, 0x301F) ||
           (in(c, 0xFF01, 0xFF0F) && c != 0xFF04 && c != 0xFF0B) || in(c, 0xFF1A, 0xFF1B) ||
           in(c, 0xFF1F, 0xFF20) || in(c, 0xFF3B, 0xFF3D) || in(c, 0xFF5F, 0xFF65);
}

// Unicode category S (Sm, Sc, Sk, So).
bool isSymbol(char32_t c) {
    if (c < 0x80)
        return c == '$' || c == '+' || c == '<' || c == '=' || c == '>' || c == '^' || c == '`' || c == '|' ||
               c == '~';
    if (in(c, 0xA2, 0xA6) || c == 0xA8 || c == 0xA9 || c == 0xAC || in(c, 0xAE, 0xB1) || c == 0xB4 ||
        c == 0xB8 || c == 0xD7 || c == 0xF7)
        return true;
    if (in(c, 0x2100, 0x214F)) { // letterlike symbols: the letters among them are not
        constexpr char32_t letters[] = {0x2102, 0x2107, 0x2115, 0x2124, 0x2126, 0x2128, 0x214E};
        return std::find(std::begin(letters), std::end(letters), c) == std::end(letters) &&
               !in(c, 0x210A, 0x2113) && !in(c, 0x2119, 0x211D) && !in(c, 0x212A, 0x212D) &&
               !in(c, 0x212F, 0x2139) && !in(c, 0x213C, 0x213F) && !in(c, 0x2145, 0x2149);
    }
    if (isNumber(c) || isPunctuation(c)) return false;
    return c == 0x2044 || c == 0x2052 || in(c, 0x207A, 0x207C) || in(c, 0x208A, 0x208C) ||
           in(c, 0x20A0, 0x20C0) || in(c, 0x2190, 0x2BFF) || c == 0x2E50 || c == 0x2E51 || c == 0x3004 ||
           c == 0x3012 || c == 0x3013 || c == 0x3020 || c == 0x3036 || c == 0x3037 || c == 0x303E ||
           c == 0x303F || c == 0xFF04 || c == 0xFF0B || in(c, 0xFF1C, 0xFF1E) || c == 0xFF3E || c == 0xFF40 ||
           c == 0xFF5C || c == 0xFF5E || in(c, 0xFFE0, 0xFFEE) || in(c, 0x1F000, 0x1FAFF);
}

// Python's str.lower over the scripts a WMT language pair uses.
char32_t lower(char32_t c) {
    if (in(c, 'A', 'Z') || (in(c, 0xC0, 0xDE) && c != 0xD7)) return c + 0x20;
    if (in(c, 0x100, 0x137) || in(c, 0x14A, 0x177)) return c | 1;               // Latin Extended-A pairs
    if (in(c, 0x139, 0x148) || in(c, 0x179, 0x17E)) return (c & 1) ? c + 1 : c; // odd capitals there
    if (c == 0x178) return 0xFF;                                                // Ÿ
    if (c == 0x1E9E) return 0xDF;                                               // ẞ
    if (in(c, 0x391, 0x3A9) && c != 0x3A2) return c + 0x20;                     // Greek
    if (in(c, 0x410, 0x42F)) return c + 0x20;                                   // Cyrillic
    if (in(c, 0x400, 0x40F)) return c + 0x50;
    return c;
}

// sacrebleu's TokenizerV14International: (\P{N})(\p{P}) -> "\1 \2 ", then (\p{P})(\P{N}) -> " \1 \2", then
// (\p{S}) -> " \1 ", each a left-to-right pass of non-overlapping matches, as re.sub makes them.
std::u32string internationalTokenisation(const std::u32string& line) {
    std::u32string first, second, third;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (i + 1 < line.size() && !isNumber(line[i]) && isPunctuation(line[i + 1])) {
            first += {line[i], U' ', line[i + 1], U' '};
            ++i;
        } else {
            first += line[i];
        }
    }
    for (std::size_t i = 0; i < first.size(); ++i) {
        if (i + 1 < first.size() && isPunctuation(first[i]) && !isNumber(first[i + 1])) {
            second += {U' ', first[i], U' ', first[i + 1]};
            ++i;
        } else {
            second += first[i];
        }
    }
    for (const char32_t c : second) {
        if (isSymbol(c))
            third += {U' ', c, U' '};
        else
            third += c;
    }
    return third;
}

void replaceAll(std::string& text, const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

// The Moses detokenizer's spacing, as far as it decides BLEU's words: sacrebleu's tokenisation splits
// punctuation off again, except where a number touches it at the start or the end of the line ("in 2014 ."
// detokenised is "in 2014.", whose last word is "2014."). Closing marks join the word before them, opening
// marks and currency signs the word after them; straight double quotes alternate.
std::string mosesSpacing(const std::vector<std::string>& tokens) {
    static const std::vector<std::string> joins_before = {
        ".", ",", "?", "!", ":", ";", "%", ")", "]", "}", "...", "\xe2\x80\x9c"}; // “ closes in German
    static const std::vector<std::string> joins_after = {
        "(", "[", "{", "$", "\xe2\x80\x9e", "\xc2\xbf", "\xc2\xa1", "\xe2\x82\xac", "\xc2\xa3"}; // „ ¿ ¡ € £
    const auto has = [](const std::vector<std::string>& set, const std::string& t) {
        return std::find(set.begin(), set.end(), t) != set.end();
    };
    std::string out;
    bool glue_next = true, quote_open = false;
    for (const auto& t : tokens) {
        bool before = has(joins_before, t), after = has(joins_after, t);
        if (t == "\"") {
            after = !quote_open;
            before = quote_open;
            quote_open = !quote_open;
        }
        if (!glue_next && !before) out += ' ';
        out += t;
        glue_next = after;
    }
    return out;
}

} // namespace

std::vector<std::string> bleuWords(const std::vector<std::string>& tokens) {
    // subword-nmt's BPE: "new@@ s" -> "news" (a trailing "@@" on the last piece is dropped).
    std::string joined;
    for (const auto& t : tokens)
        joined += (joined.empty() ? "" : " ") + t;
    joined += ' ';
    replaceAll(joined, "@@ ", "");
    // The Moses tokenizer's escapes and aggressive hyphen splits ("-a": "data @-@ driven").
    replaceAll(joined, " @-@ ", "-");
    replaceAll(joined, " @,@ ", ",");
    replaceAll(joined, " @.@ ", ".");
    for (const auto& [escaped, plain] : std::vector<std::pair<std::string, std::string>>{{"&quot;", "\""},
                                                                                         {"&apos;", "'"},
                                                                                         {"&lt;", "<"},
                                                                                         {"&gt;", ">"},
                                                                                         {"&#91;", "["},
                                                                                         {"&#93;", "]"},
                                                                                         {"&#124;", "|"},
                                                                                         {"&amp;", "&"}})
        replaceAll(joined, escaped, plain);
    std::vector<std::string> words;
    std::istringstream split(joined);
    for (std::string w; split >> w;)
        words.push_back(w);
    std::u32string line = decode(mosesSpacing(words));
    for (auto& c : line)
        c = lower(c);
    words.clear();
    std::istringstream tokenised(encode(internationalTokenisation(line)));
    for (std::string w; tokenised >> w;)
        words.push_back(w);
    return words;
}

void BleuCounts::add(const std::vector<int64_t>& hypothesis,
                     const std::vector<std::vector<int64_t>>& references) {
    if (references.empty()) throw std::invalid_argument("BLEU: a hypothesis without a reference");
    for (std::size_t n = 1; n <= kOrder; ++n) {
        // Each hypothesis n-gram counts at most as often as it occurs in any one reference (clipping).
        std::map<NGram, int64_t> most;
        for (const auto& reference : references)
            for (const auto& [gram, count] : nGramCounts(reference, n))
                most[gram] = std::max(most[gram], count);
        for (const auto& [gram, count] : nGramCounts(hypothesis, n)) {
            const auto it = most.find(gram);
            values[n - 1] += static_cast<double>(std::min(count, it == most.end() ? 0 : it->second));
            values[kOrder + n - 1] += static_cast<double>(count);
        }
    }
    // The reference length closest to the hypothesis's; the shorter one on a tie (sacrebleu, NLTK).
    const auto hyp = static_cast<int64_t>(hypothesis.size());
    int64_t closest = static_cast<int64_t>(references.front().size());
    for (const auto& reference : references) {
        const auto len = static_cast<int64_t>(reference.size());
        if (std::abs(len - hyp) < std::abs(closest - hyp) ||
            (std::abs(len - hyp) == std::abs(closest - hyp) && len < closest))
            closest = len;
    }
    values[2 * kOrder] += static_cast<double>(hyp);
    values[2 * kOrder + 1] += static_cast<double>(closest);
}

void BleuCounts::add(const std::vector<std::string>& hypothesis, const std::vector<std::string>& reference) {
    std::unordered_map<std::string, int64_t> ids; // BLEU only compares words: any ids, the same for both
    const auto toIds = [&ids](const std::vector<std::string>& words) {
        std::vector<int64_t> out;
        for (const auto& w : words)
            out.push_back(ids.emplace(w, static_cast<int64_t>(ids.size())).first->second);
        return out;
    };
    const auto h = toIds(hypothesis);
    add(h, toIds(reference));
}

BleuCounts& BleuCounts::operator+=(const BleuCounts& other) {
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] += other.values[i];
    return *this;
}

double corpusBleu(const BleuCounts& counts, BleuSmoothing smoothing) {
    const auto& v = counts.values;
    const double hypothesis_length = v[2 * BleuCounts::kOrder],
                 reference_length = v[2 * BleuCounts::kOrder + 1];
    if (hypothesis_length <= 0) return 0;
    double log_precisions = 0, smooth = 1;
    for (int n = 0; n < BleuCounts::kOrder; ++n) {
        const double matches = v[n], total = v[BleuCounts::kOrder + n];
        if (total <= 0) return 0; // every hypothesis is shorter than n (sacrebleu: 0 without effective order)
        if (matches > 0) {
            log_precisions += std::log(matches / total);
        } else if (smoothing == BleuSmoothing::exponential) {
            smooth *= 2;
            log_precisions += std::log(1 / (smooth * total));
        } else {
            return 0;
        }
    }
    const double brevity =
        hypothesis_length < reference_length ? std::exp(1 - reference_length / hypothesis_length) : 1.0;
    return 100 * brevity * std::exp(log_precisions / BleuCounts::kOrder);
}

} // namespace scalebench
