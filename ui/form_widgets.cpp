// Small pieces the console's forms share: a widget named where it is made, and the read-only code view the
// plan builder's TOML and job script previews use.
#include "form_widgets.h"

#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QScrollArea>

namespace scalebench {

QPlainTextEdit* makeCodeView(const QString& name, QWidget* parent) {
    auto* view = new QPlainTextEdit(parent);
    view->setObjectName(name);
    view->setReadOnly(true);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return view;
}

QWidget* scrollable(QWidget* widget) {
    auto* area = new QScrollArea;
    area->setFrameShape(QFrame::NoFrame);
    area->setWidgetResizable(true);
    area->setWidget(widget);
    return area;
}

} // namespace scalebench
