// The stored sessions as a searchable list (the window's Sessions dock): shows the list it is given and says
// which session the user chose.
#include "session_browser.h"

#include "record_table.h"
#include "session_filter_model.h"
#include "session_list_model.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

namespace scalebench {

SessionBrowser::SessionBrowser(QWidget* parent)
    : QWidget(parent), model_(new SessionListModel(this)), filter_(new SessionFilterModel(this)) {
    filter_->setSourceModel(model_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    search_ = new QLineEdit(this);
    search_->setObjectName(QStringLiteral("sessionSearch"));
    search_->setPlaceholderText(tr("Search sessions (name, cluster, status, date)"));
    search_->setClearButtonEnabled(true);
    view_ = makeRecordTable(filter_, QStringLiteral("sessionTable"), this);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    // Every column in view at the dock's width: the name takes what the others leave, elided in the middle
    // (the whole name in its tooltip).
    view_->horizontalHeader()->setStretchLastSection(false);
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view_->horizontalHeader()->setSectionResizeMode(SessionListModel::Name, QHeaderView::Stretch);
    view_->setTextElideMode(Qt::ElideMiddle);
    layout->addWidget(search_);
    layout->addWidget(view_);
    setMinimumWidth(360);

    connect(search_, &QLineEdit::textChanged, filter_, &SessionFilterModel::setSearchText);
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                emit sessionChosen(current.isValid() ? model_->sessionId(filter_->mapToSource(current).row())
                                                     : 0);
            });
    connect(model_, &QAbstractItemModel::modelReset, view_, &QTableView::resizeColumnsToContents);
}

void SessionBrowser::setSessions(std::vector<SessionRow> sessions) {
    model_->setSessions(std::move(sessions));
}

bool SessionBrowser::selectSession(std::int64_t session_id) {
    for (int row = 0; row < model_->rowCount(); ++row) {
        if (model_->sessionId(row) != session_id) continue;
        const QModelIndex index = filter_->mapFromSource(model_->index(row, 0));
        if (!index.isValid()) return false; // filtered out by the search
        view_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                            QItemSelectionModel::Rows);
        view_->scrollTo(index);
        return true;
    }
    return false;
}

const SessionRow* SessionBrowser::session(std::int64_t session_id) const {
    return model_->session(session_id);
}

void SessionBrowser::focusSearch() {
    search_->setFocus();
    search_->selectAll();
}

} // namespace scalebench
