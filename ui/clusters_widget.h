// The clusters: a list ("local" and the store's), a form over the chosen cluster's settings, add, save,
// remove, and "Test connection" with the host-key decision (trust an unknown key; refuse a changed one).
#pragma once

#include "cluster_settings.h"
#include "connection_check.h"

#include <QWidget>
#include <map>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace scalebench {

class ClusterListModel;
class SessionStore;

class ClustersWidget : public QWidget {
    Q_OBJECT

  public:
    explicit ClustersWidget(SessionStore& store, QWidget* parent = nullptr);

    void reload(); // the store's clusters again, keeping the selection by name
    void selectCluster(const QString& name);
    // The form's settings (what Save stores and Test connection tries).
    ClusterSettings formSettings() const;
    void setFormSettings(const ClusterSettings& cluster);
    bool saveForm();        // false, with the reason shown, when the form cannot be stored
    bool removeSelected();  // false for "local" or nothing selected
    void testConnection();  // of the form's settings, on a worker thread
    void trustOfferedKey(); // after a report of an unknown key: add it, test again
    ConnectionCheck& connectionCheck() { return check_; }
    const std::optional<ConnectionReport>& lastReport() const { return report_; }
    QString connectionText() const; // what the result panel shows
    ClusterListModel* model() const { return model_; }

  signals:
    void clustersChanged(); // one was saved or removed: plan builders and launch menus list them again

  private:
    QWidget* buildForm();
    void showSelected();
    void showReport(const ConnectionReport& report);
    void setFormEditable(bool editable);
    void setStatus(const QString& html);
    // The form's field of each [[cluster]] key (jobcomp_log has none), and its label.
    std::map<std::string, QWidget*> fields() const;
    QString fieldLabel(const std::string& key) const;
    // Each field at fault gets its problems as tool tip and a red frame, the first the focus; others are
    // cleared.
    void markFields(const std::vector<ClusterProblem>& problems);

    SessionStore& store_;
    ClusterListModel* model_;
    ConnectionCheck check_;
    std::optional<ConnectionReport> report_;
    ClusterSettings form_base_; // fields the form does not show come from here

    QTableView* view_;
    QPushButton* remove_;
    QPushButton* save_;
    QPushButton* test_;
    QPushButton* trust_;
    QLabel* status_;
    QWidget* form_;
    QLineEdit* name_;
    QLineEdit* host_;
    QLineEdit* user_;
    QSpinBox* port_;
    QLineEdit* identity_files_;
    QLineEdit* known_hosts_;
    QCheckBox* trust_on_first_use_;
    QLineEdit* remote_root_;
    QLineEdit* torch_python_;
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
};

} // namespace scalebench
