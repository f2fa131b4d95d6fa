// The stored sessions as a searchable list (the window's Sessions dock): shows the list it is given and says
// which session the user chose.
#pragma once

#include "stored_rows.h"

#include <QWidget>
#include <cstdint>
#include <vector>

class QLineEdit;
class QTableView;

namespace scalebench {

class SessionFilterModel;
class SessionListModel;

class SessionBrowser : public QWidget {
    Q_OBJECT

  public:
    explicit SessionBrowser(QWidget* parent = nullptr);

    // Replaces the list in one reset (oldest first, as the store lists them).
    void setSessions(std::vector<SessionRow> sessions);
    // Makes the session the current row; false when it is not listed or the search hides it.
    bool selectSession(std::int64_t session_id);
    // The listed session with this id; nullptr when it is not listed.
    const SessionRow* session(std::int64_t session_id) const;
    void focusSearch();

  signals:
    // The current row changed: its session, or 0 when no row is current (the search hides every row).
    void sessionChosen(qint64 session_id);

  private:
    SessionListModel* model_;
    SessionFilterModel* filter_;
    QLineEdit* search_;
    QTableView* view_;
};

} // namespace scalebench
