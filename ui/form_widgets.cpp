// Small pieces the console's forms share: a widget named where it is made, and the read-only code view the
// plan builder's TOML and job script previews use.
#include "form_widgets.h"

#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <string>

namespace scalebench {

int leastAccepted(const char* accepts) {
    return std::stoi(accepts);
}

QPlainTextEdit* makeCodeView(const QString& name, QWidget* parent) {
    auto* view = new QPlainTextEdit(parent);
    view->setObjectName(name);
    view->setReadOnly(true);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return view;
}

namespace {

// A scroll area that asks for its widget's whole size: where there is room (a splitter dividing a wide
// window) the form shows unscrolled; only a narrower window makes it scroll.
class WholeFormScrollArea : public QScrollArea {
  public:
    QSize sizeHint() const override {
        const QWidget* form = widget();
        if (!form) return QScrollArea::sizeHint();
        const int bar = verticalScrollBar()->sizeHint().width();
        return form->sizeHint().expandedTo(form->minimumSizeHint()) + QSize(bar, 0);
    }
};

} // namespace

QWidget* scrollable(QWidget* widget) {
    auto* area = new WholeFormScrollArea;
    area->setFrameShape(QFrame::NoFrame);
    area->setWidgetResizable(true);
    area->setWidget(widget);
    return area;
}

} // namespace scalebench
