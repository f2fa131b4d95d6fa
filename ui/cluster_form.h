// The clusters view's form over one cluster's settings: how ssh reaches the head node, and what its Slurm
// jobs ask for; each field at fault in a save is marked and named.
#pragma once

#include "cluster_settings.h"

#include <QString>
#include <QWidget>
#include <map>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace scalebench {

class ClusterForm : public QWidget {
    Q_OBJECT

  public:
    explicit ClusterForm(QWidget* parent = nullptr);

    // The cluster's settings into the fields, marks cleared; this machine's are shown but cannot be edited.
    void setSettings(const ClusterSettings& cluster);
    const ClusterSettings& shown() const { return base_; } // what setSettings was last given
    // The fields over shown() (keys the form has no field for are kept); this machine's as they are.
    ClusterSettings settings() const;
    void editName(); // the name field focused, its text selected

    // Each field at fault gets its problems as tool tip and a red frame, the first the focus; others are
    // cleared.
    void markFields(const std::vector<ClusterProblem>& problems);
    // The label of a [[cluster]] key's field (jobcomp_log has none: the key, said so).
    QString fieldLabel(const std::string& key) const;

  private:
    QWidget* buildHeadNodeBox();
    QWidget* buildJobBox();
    void setEnabledFields(bool editable);
    std::map<std::string, QWidget*> fields() const; // the field of each [[cluster]] key

    ClusterSettings base_; // fields the form does not show come from here

    QLineEdit* name_;
    QLineEdit* host_;
    QLineEdit* user_;
    QSpinBox* port_;
    QLineEdit* identity_files_;
    QLineEdit* known_hosts_;
    QCheckBox* trust_on_first_use_;
    QLineEdit* remote_root_;
    QLineEdit* torch_python_;
    QLineEdit* data_root_; // the cluster's data_root
    QLineEdit* partition_;
    QLineEdit* account_;
    QLineEdit* constraint_;
    QLineEdit* time_limit_;
    QSpinBox* tasks_per_node_;
    QSpinBox* gpus_per_node_;
    QCheckBox* gres_syntax_;
    QCheckBox* exclusive_;
    QComboBox* launcher_;
    QLineEdit* container_image_;
    QSpinBox* poll_seconds_;
    QPlainTextEdit* setup_;
    QPlainTextEdit* nccl_env_;
    QDoubleSpinBox* price_per_gpu_hour_; // 0: no price
    QLineEdit* currency_;
};

} // namespace scalebench
