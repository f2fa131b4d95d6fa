// Small pieces the console's forms share: a widget named where it is made, and the read-only code view the
// plan builder's TOML and job script previews use.
#pragma once

#include <QString>

class QPlainTextEdit;
class QWidget;

namespace scalebench {

// The widget, given the object name tests and the window find it by.
template <typename Widget> Widget* named(Widget* widget, const char* name) {
    widget->setObjectName(QString::fromLatin1(name));
    return widget;
}

// The least value of a plan key, from its row of the engine option table (engine_cli::accepts::steps is
// "1"; "0..1" gives 0): a form's field starts where the plan reader does.
int leastAccepted(const char* accepts);

// Read-only, fixed-width, not wrapped: for TOML and shell text.
QPlainTextEdit* makeCodeView(const QString& name, QWidget* parent);
// The widget in a frameless scroll area that resizes it: a form taller or wider than the window at 1280x800
// (or at scale 2) scrolls instead of forcing the window wider than the screen.
QWidget* scrollable(QWidget* widget);

} // namespace scalebench
