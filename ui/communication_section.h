// The run group form's communication rows: the backend, gradient buckets and overlap; for a collective sweep,
// the collectives, element types and in-place choice it measures.
#pragma once

#include "run_plan.h"

#include <QWidget>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;

namespace scalebench {

class CommunicationSection : public QWidget {
    Q_OBJECT

  public:
    explicit CommunicationSection(QWidget* parent = nullptr);

    // The group's values into the fields; a sweep's rows can be changed only for a sweep, the buckets and
    // overlap only for training. Emits nothing.
    void readGroup(const RunGroup& group);
    void writeGroup(RunGroup& group) const; // a sweep's choices only for a sweep workload

  signals:
    void changed(); // a field was edited

  private:
    QWidget* buildSweepRows();

    QComboBox* backend_;
    QComboBox* device_;
    QDoubleSpinBox* bucket_;
    QCheckBox* overlap_;
    QWidget* sweep_box_;
    std::vector<QCheckBox*> collectives_; // in kCollectiveNames' order
    std::vector<QCheckBox*> dtypes_;      // in kDtypes' order
    QComboBox* in_place_;
};

} // namespace scalebench
