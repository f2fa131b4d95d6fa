// The clusters view's form over one cluster's settings: how ssh reaches the head node, and what its Slurm
// jobs ask for; each field at fault in a save is marked and named.
#pragma once

#include "cluster_settings.h"

#include <QString>
#include <QWidget>
#include <map>
#include <string>
#include <vector>

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
    void setEnabledFields(bool editable);

    ClusterSettings base_;                   // fields the form does not show come from here
    std::map<std::string, QWidget*> fields_; // the field of each [[cluster]] key the form shows
};

} // namespace scalebench
