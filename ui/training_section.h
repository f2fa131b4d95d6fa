// The run group form's training rows: the workload, its dataset and the dataset's folder, precision, model
// preset, sequence length, batch per GPU or a global batch, and when to stop (steps or epochs, or a target in
// the workload's own metric).
#pragma once

#include "run_plan.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
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
    QLineEdit* data_dir_; // empty: the cluster's data_root/<dataset>
    QComboBox* precision_;
    QComboBox* preset_;
    QSpinBox* seq_len_;
    QSpinBox* batch_;
    QSpinBox* global_batch_; // 0: batch per GPU x GPUs
    QSpinBox* steps_;
    QDoubleSpinBox* epochs_; // 0: steps
    QLabel* target_label_;
    QDoubleSpinBox* target_;
};

} // namespace scalebench
