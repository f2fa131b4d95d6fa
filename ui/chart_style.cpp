// The look shared by the console's charts: margins, title font, legend place and a colour-blind-safe palette.
#include "chart_style.h"

#include <QChart>
#include <QLegend>
#include <algorithm>
#include <array>
#include <cmath>

namespace scalebench {

QChart* createStyledChart() {
    auto* chart = new QChart;
    chart->setMargins(QMargins(6, 6, 6, 6));
    QFont title_font = chart->titleFont();
    title_font.setPointSizeF(title_font.pointSizeF() * 1.25);
    title_font.setBold(true);
    chart->setTitleFont(title_font);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

QColor paletteColour(int index) {
    static constexpr std::array<QRgb, 10> kTableau10 = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd,
                                                        0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf};
    return QColor::fromRgb(kTableau10[static_cast<std::size_t>(index) % kTableau10.size()]);
}

double niceIntegerStep(double span, int ticks) {
    const double raw = std::max(1.0, span / ticks);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double factor : {1.0, 2.0, 5.0})
        if (factor * power >= raw) return factor * power;
    return 10 * power;
}

} // namespace scalebench
