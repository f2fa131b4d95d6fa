// The clusters: a list ("local" and the store's), a form over the chosen cluster's settings, add, save,
// remove, and "Test connection" with the host-key decision (trust an unknown key; refuse a changed one).
#pragma once

#include "cluster_settings.h"
#include "connection_check.h"

#include <QWidget>
#include <optional>
#include <vector>

class QLabel;
class QPushButton;
class QTableView;

namespace scalebench {

class ClusterForm;
class ClusterListModel;
class StoredSessionLoader;
struct StoredClusterChange;

class ClustersWidget : public QWidget {
    Q_OBJECT

  public:
    // The store is read and written through `store`'s worker thread; its cluster lists replace this one's.
    explicit ClustersWidget(StoredSessionLoader& store, QWidget* parent = nullptr);

    void reload(); // asks for the store's clusters again: they replace the list when they come
    void selectCluster(const QString& name); // one in the list (the store's come later than construction)
    // What Add does: the form emptied for a new cluster ("new-cluster"), its name field focused.
    void startNewCluster();
    // The form's settings (what Save stores and Test connection tries).
    ClusterSettings formSettings() const;
    void setFormSettings(const ClusterSettings& cluster);
    // false, with the reason shown, when the form cannot be stored; else the store worker saves it and the
    // answer shows it saved (or why not), the list refreshed, and emits clustersChanged.
    bool saveForm();
    bool removeSelected();  // false for "local" or nothing selected; else as saveForm
    void testConnection();  // of the form's settings, on a worker thread
    void trustOfferedKey(); // after a report of an unknown key: add it, test again
    ConnectionCheck& connectionCheck() { return check_; }
    const std::optional<ConnectionReport>& lastReport() const { return report_; }
    QString connectionText() const; // what the result panel shows
    ClusterListModel* model() const { return model_; }

  signals:
    // One was saved or removed: the clusters stored after it, for plan builders and launch menus.
    void clustersChanged(const std::vector<ClusterSettings>& clusters);

  private:
    // The store's clusters into the list in one call; the cluster the form shows stays chosen, the form as
    // is.
    void showClusters(const std::vector<ClusterSettings>& clusters);
    void showSaved(const StoredClusterChange& change);
    void showRemoved(const StoredClusterChange& change);
    void showSelected();
    void showReport(const ConnectionReport& report);
    void setStatus(const QString& html);

    StoredSessionLoader& store_;
    ClusterListModel* model_;
    bool listing_ = false; // the list is being replaced: its selection changes are not the user's
    ConnectionCheck check_;
    std::optional<ConnectionReport> report_;

    QTableView* view_;
    ClusterForm* form_;
    QPushButton* remove_;
    QPushButton* save_;
    QPushButton* test_;
    QPushButton* trust_;
    QLabel* status_;
};

} // namespace scalebench
