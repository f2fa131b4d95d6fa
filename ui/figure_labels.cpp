// How the views name a figure that has more than one reading (figure_labels.h).
#include "figure_labels.h"

#include <QCoreApplication>

namespace scalebench {

QString throughputHeader(StepTimeConvention convention) {
    return convention == StepTimeConvention::LastStep
               ? QCoreApplication::translate("FigureLabels", "samples/s (last step)")
               : QCoreApplication::translate("FigureLabels", "samples/s (median)");
}

QString throughputHeaderTip(StepTimeConvention convention) {
    return QCoreApplication::translate("FigureLabels",
                                       "Samples per second: the %1 (the steps after the warm-up, a tenth of "
                                       "the run, at least 1 and at most 20), the figure `scalebench run` "
                                       "prints. While a run goes on: over its steps so far.")
        .arg(QString::fromStdString(describeConvention(convention)));
}

namespace {
QString text(std::string_view word) {
    return QString::fromUtf8(word.data(), static_cast<qsizetype>(word.size()));
}
} // namespace

QString figureLabel(Figure figure) {
    return text(figureStyle(figure).label);
}
QString figureTitle(Figure figure) {
    return QString::fromStdString(figureHeader(figure));
}

QString storedStatusText(RunStatus status) {
    return text(storedWord(status));
}
QString storedStatusText(SessionStatus status) {
    return text(storedWord(status));
}
QString shownStatusText(RunStatus status) {
    return text(shownWord(status));
}

} // namespace scalebench
