// The run group form's environment: the variables every run of the group starts with, edited in a table.
#pragma once

#include "run_plan.h"

#include <QWidget>

class QTableWidget;

namespace scalebench {

class EnvironmentSection : public QWidget {
    Q_OBJECT

  public:
    explicit EnvironmentSection(QWidget* parent = nullptr);

    void readGroup(const RunGroup& group); // the group's variables into the table; emits nothing
    // The table into the group's variables; a row without a name (being filled in) is left out.
    void writeGroup(RunGroup& group) const;

  signals:
    void changed(); // a variable was edited or removed

  private:
    QTableWidget* env_;
};

} // namespace scalebench
