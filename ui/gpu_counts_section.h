// The run group form's GPU counts: one run per count (typed, or the powers of two up to a maximum) and the
// GPUs per node.
#pragma once

#include "run_plan.h"

#include <QString>
#include <QWidget>
#include <vector>

class QLineEdit;
class QSpinBox;

namespace scalebench {

class GpuCountsSection : public QWidget {
    Q_OBJECT

  public:
    explicit GpuCountsSection(QWidget* parent = nullptr);

    void readGroup(const RunGroup& group); // the group's values into the fields; emits nothing
    // The fields into the group; the GPU counts only when they read as counts, else the problem is returned
    // ("" when there is none) and the group keeps its counts.
    QString writeGroup(RunGroup& group) const;

    // "1, 2, 4": counts as the field shows them.
    static QString ranksText(const std::vector<int>& ranks);

  signals:
    void changed(); // a field was edited

  private:
    QLineEdit* ranks_;
    QSpinBox* max_gpus_;
    QSpinBox* gpus_per_node_;
};

} // namespace scalebench
