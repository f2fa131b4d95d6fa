// The figures' table read (figure_registry.h).
#include "figure_registry.h"

#include <fmt/format.h>

namespace scalebench {

const std::vector<FigureStyle>& figureStyles() {
    static const std::vector<FigureStyle> styles = {
#define SCALEBENCH_FIGURE_STYLE(id, label, unit, better, decimals, reference, terse, terse_decimals, csv)    \
    {Figure::id, label, unit, Better::better, decimals, reference, terse, terse_decimals, csv},
        SCALEBENCH_FIGURES(SCALEBENCH_FIGURE_STYLE)
#undef SCALEBENCH_FIGURE_STYLE
    };
    return styles;
}

const FigureStyle& figureStyle(Figure figure) {
    return figureStyles().at(static_cast<std::size_t>(figure));
}

std::string figureHeader(Figure figure) {
    const FigureStyle& s = figureStyle(figure);
    if (s.unit.empty() || s.unit == s.label) return std::string(s.label);
    return std::string(s.label) + " (" + std::string(s.unit) + ")";
}

std::string terse(Figure figure) {
    return std::string(figureStyle(figure).terse);
}

std::string terseValue(Figure figure, double value) {
    return fmt::format("{:.{}f}", value, figureStyle(figure).terse_decimals);
}

std::string csvColumn(Figure figure) {
    return std::string(figureStyle(figure).csv);
}

std::vector<FigureStyle> referenceFigures() {
    std::vector<FigureStyle> out;
    for (const FigureStyle& s : figureStyles())
        if (!s.reference.empty()) out.push_back(s);
    return out;
}

} // namespace scalebench
