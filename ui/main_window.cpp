// The console's main window: sessions on the left, the chosen session's scaling chart and runs on the right.
#include "main_window.h"

#include "run_table_model.h"
#include "scaling_chart_view.h"
#include "scaling_model.h"
#include "session_list_model.h"
#include "session_results.h"
#include "session_store.h"

#include <QHeaderView>
#include <QImage>
#include <QItemSelectionModel>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <exception>

namespace scalebench {

namespace {

QTableView* makeTable(QAbstractItemModel* model, const QString& name, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setObjectName(name);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setHighlightSections(false);
    return view;
}

} // namespace

MainWindow::MainWindow(SessionStore& store, QWidget* parent)
    : QMainWindow(parent), store_(store), sessions_(new SessionListModel(this)),
      scaling_(new ScalingModel(this)), runs_(new RunTableModel(this)) {
    setWindowTitle(QStringLiteral("scalebench"));

    auto* split = new QSplitter(Qt::Horizontal, this);
    session_view_ = makeTable(sessions_, QStringLiteral("sessionTable"), split);
    auto* right = new QSplitter(Qt::Vertical, split);
    chart_view_ = new ScalingChartView(scaling_, right);
    chart_view_->setObjectName(QStringLiteral("scalingChart"));
    chart_view_->setMinimumHeight(280);
    run_view_ = makeTable(runs_, QStringLiteral("runTable"), right);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({440, 760});
    setCentralWidget(split);

    connect(session_view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showSession(current.isValid() ? current.row() : -1); });
    // Fit the columns to new data; the last one stretches.
    connect(sessions_, &QAbstractItemModel::modelReset, session_view_, &QTableView::resizeColumnsToContents);
    connect(runs_, &QAbstractItemModel::modelReset, run_view_, &QTableView::resizeColumnsToContents);

    resize(1200, 760);
    reload();
}

void MainWindow::reload() {
    const QString file = QString::fromStdString(store_.file().string());
    try {
        sessions_->setSessions(store_.sessions());
    } catch (const std::exception& error) {
        sessions_->setSessions({});
        statusBar()->showMessage(tr("cannot read %1: %2").arg(file, QString::fromLocal8Bit(error.what())));
        showSession(-1);
        return;
    }
    const int count = sessions_->rowCount();
    statusBar()->showMessage(count == 1 ? tr("1 session in %1").arg(file)
                                        : tr("%1 sessions in %2").arg(count).arg(file));
    if (count == 0) {
        showSession(-1);
        return;
    }
    // The store lists sessions by id, so the newest is the last row.
    const QModelIndex newest = sessions_->index(count - 1, 0);
    session_view_->selectionModel()->setCurrentIndex(newest, QItemSelectionModel::ClearAndSelect |
                                                                 QItemSelectionModel::Rows);
    session_view_->scrollTo(newest);
}

void MainWindow::showSession(int row) {
    if (row < 0) {
        runs_->setResults({});
        scaling_->setPoints({});
        return;
    }
    try {
        auto results = loadSessionResults(store_, sessions_->sessionId(row));
        scaling_->setPoints(sessionScaling(results));
        runs_->setResults(std::move(results));
    } catch (const std::exception& error) {
        runs_->setResults({});
        scaling_->setPoints({});
        statusBar()->showMessage(tr("cannot read session: %1").arg(QString::fromLocal8Bit(error.what())));
    }
}

bool MainWindow::saveScreenshot(const QString& path) {
    const QImage image = grab().toImage();
    return !image.isNull() && image.save(path, "PNG");
}

} // namespace scalebench
