// The run group form's training rows: the workload and its dataset, precision, model preset, sequence length,
// batch per GPU, and when to stop (a number of steps, or a target in the workload's own metric).
#pragma once

#include "run_plan.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QSpinBox;

namespace scalebench {

class TrainingSection : public QWidget {
    Q_OBJECT

  public:
    explicit TrainingSection(QWidget* parent = nullptr);

    // The group's values into the fields, with the choices its workload offers; what does not apply to the
    // workload (a sweep has no batch or target) is shown but cannot be changed. Emits nothing.
    void readGroup(const RunGroup& group);
    void writeGroup(RunGroup& group) const;

  signals:
    void changed(); // a field was edited

  private:
    void addStopRow(QFormLayout* form);

    QLabel* workload_;
    QComboBox* dataset_;
    QComboBox* precision_;
    QComboBox* preset_;
    QSpinBox* seq_len_;
    QSpinBox* batch_;
    QSpinBox* steps_;
    QLabel* target_label_;
    QDoubleSpinBox* target_;
};

} // namespace scalebench
