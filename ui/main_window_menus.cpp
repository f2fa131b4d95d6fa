// The main window's menus, File and Session, and the files File writes: the current tab as PNG, SVG or CSV,
// the window as PNG, the shown session as an HTML report.
#include "breakdown_model.h"
#include "chart_export.h"
#include "collectives_model.h"
#include "collectives_view.h"
#include "compare_tab.h"
#include "comparison_model.h"
#include "comparison_view.h"
#include "export_file_name.h"
#include "main_window.h"
#include "model_csv.h"
#include "run_progress_model.h"
#include "run_table_model.h"
#include "runs_tab.h"
#include "scaling_model.h"
#include "session_browser.h"
#include "session_report.h"
#include "settings_diff_model.h"
#include "table_export.h"

#include <QAction>
#include <QDate>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>

namespace scalebench {

namespace {

// A save dialog that suggests `name` in the folder the last export went to (the home folder at first), and
// remembers the folder chosen.
QString askSavePath(QWidget* parent, const QString& title, const QString& name, const QString& filters,
                    QString* filter = nullptr) {
    QSettings settings;
    const QString folder = settings.value(QStringLiteral("export/folder"), QDir::homePath()).toString();
    const QString path =
        QFileDialog::getSaveFileName(parent, title, QDir(folder).filePath(name), filters, filter);
    if (!path.isEmpty()) settings.setValue(QStringLiteral("export/folder"), QFileInfo(path).absolutePath());
    return path;
}

} // namespace

void MainWindow::buildActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open_plan = file->addAction(tr("&Open and launch plan..."), this, &MainWindow::openPlanFile);
    open_plan->setShortcut(QKeySequence::Open);
    QAction* refresh = file->addAction(tr("&Reload sessions"), this, &MainWindow::reload);
    refresh->setShortcut(QKeySequence::Refresh);
    QAction* screenshot = file->addAction(tr("Save window as &PNG..."), this, [this] {
        const QString path = askSavePath(this, tr("Save window"),
                                         suggestedExportName(QStringLiteral("png"), QStringLiteral("window")),
                                         tr("PNG (*.png)"));
        if (!path.isEmpty() && !saveScreenshot(path)) status_text_->setText(tr("cannot write %1").arg(path));
    });
    screenshot->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    QAction* export_view = file->addAction(tr("&Export this tab (PNG, SVG or CSV)..."), this, [this] {
        // A table tab suggests its CSV, a chart tab its picture.
        const QString tab = tabs_->currentWidget()->property("tabName").toString();
        const bool table = tab == QLatin1String("compareTab") || tab == QLatin1String("runsTab");
        QString filter = table ? tr("CSV table (*.csv)") : tr("PNG image (*.png)");
        const QString path = askSavePath(
            this, tr("Export"), suggestedExportName(table ? QStringLiteral("csv") : QStringLiteral("png")),
            tr("PNG image (*.png);;SVG drawing (*.svg);;CSV table (*.csv)"), &filter);
        if (!path.isEmpty()) exportCurrentTab(path);
    });
    export_view->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    QAction* import_logs = file->addAction(tr("&Import logs..."), this, &MainWindow::askImportLogs);
    import_logs->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    file->addAction(tr("Export &report..."), this, [this] {
        const QString path = askSavePath(
            this, tr("Export report"), suggestedExportName(QStringLiteral("html"), QStringLiteral("report")),
            tr("HTML page (*.html)"));
        if (!path.isEmpty()) exportReport(path);
    });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* session = menuBar()->addMenu(tr("&Session"));
    QAction* find = session->addAction(tr("&Find session"), this, [this] { browser_->focusSearch(); });
    find->setShortcut(QKeySequence::Find);
    QAction* cancel =
        session->addAction(tr("&Cancel running session..."), this, [this] { cancelRunningSession(); });
    cancel->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    session->addAction(tr("&Delete session..."), this, [this] { askDeleteSession(); })
        ->setObjectName(QStringLiteral("deleteSession"));
}

QAbstractItemModel* MainWindow::currentTable() const {
    const QString tab = tabs_->currentWidget()->property("tabName").toString();
    if (tab == QLatin1String("runsTab")) return runs_tab_->resultsModel();
    if (tab == QLatin1String("liveTab")) return shown_runs_;
    if (tab == QLatin1String("scalingTab")) return scalingModel();
    if (tab == QLatin1String("breakdownTab")) return breakdownModel();
    if (tab == QLatin1String("collectivesTab")) return collectives_view_->model();
    if (tab == QLatin1String("compareTab")) return comparisonView()->figuresModel();
    return nullptr;
}

QString MainWindow::suggestedExportName(const QString& suffix, const QString& what) const {
    QString tab = tabs_->currentWidget()->property("tabName").toString();
    tab.chop(tab.endsWith(QLatin1String("Tab")) ? 3 : 0);
    const QString name = what.isEmpty() ? tab : what;
    QString source =
        shown_session_ ? QStringLiteral("session-%1").arg(shown_session_) : QStringLiteral("scalebench");
    if (what.isEmpty() && tab == QLatin1String("compare") && compare_tab_->chosenA() &&
        compare_tab_->chosenB())
        source = QStringLiteral("session-%1-vs-%2").arg(compare_tab_->chosenA()).arg(compare_tab_->chosenB());
    return exportFileName(source, name, QDate::currentDate(), suffix);
}

bool MainWindow::exportCurrentTab(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    const QString tab = tabs_->currentWidget()->property("tabName").toString();
    const bool compare = tab == QLatin1String("compareTab");
    // "12 quickstart": which session a line of a CSV comes from.
    const auto sessionLabel = [this](std::int64_t id, const QString& known_name = {}) {
        const SessionRow* row = browser_->session(id);
        const QString name = row ? QString::fromStdString(row->name) : known_name;
        return name.isEmpty() ? QString::number(id) : QStringLiteral("%1 %2").arg(id).arg(name);
    };
    QString error;
    bool ok = false;
    if (suffix == QLatin1String("csv")) {
        QAbstractItemModel* table = currentTable();
        std::vector<CsvConstant> leading;
        if (compare) {
            leading = {{QStringLiteral("session_a"),
                        sessionLabel(compare_tab_->chosenA(), comparisonView()->figuresModel()->nameA())},
                       {QStringLiteral("session_b"),
                        sessionLabel(compare_tab_->chosenB(), comparisonView()->figuresModel()->nameB())}};
        } else if (shown_session_) {
            leading = {{QStringLiteral("session"), sessionLabel(shown_session_)}};
        }
        const auto addSeries = [&](const auto* model) { // the one series the tab shows
            leading.push_back({QStringLiteral("workload"), model->workload()});
            leading.push_back({QStringLiteral("dataset"), model->dataset()});
            leading.push_back({QStringLiteral("series"), model->seriesLabel()});
        };
        if (tab == QLatin1String("scalingTab")) addSeries(scalingModel());
        if (tab == QLatin1String("breakdownTab")) addSeries(breakdownModel());
        ok = table && saveModelCsv(*table, path, &error, leading);
        if (!table) error = tr("this tab has no table");
        // Compare's settings that differ: a second file beside the figures.
        const QFileInfo info(path);
        const QString settings_path =
            info.dir().filePath(info.completeBaseName() + QStringLiteral("-settings.csv"));
        if (ok && compare)
            ok = saveModelCsv(*comparisonView()->settingsModel(), settings_path, &error, leading);
        if (ok && compare) {
            status_text_->setText(tr("exported %1 and %2").arg(path, settings_path));
            return true;
        }
    } else if (compare || tab == QLatin1String("runsTab")) { // the tables whole, not the part in view
        QString heading;
        std::vector<ExportedTable> tables;
        if (compare) {
            heading = comparisonView()->heading()->text();
            tables = comparisonView()->exportedTables();
        } else {
            heading = tr("<b>Session %1</b>: runs").arg(sessionLabel(shown_session_).toHtmlEscaped());
            for (const QTableView* view : runs_tab_->findChildren<QTableView*>())
                tables.push_back(shownTable(*view));
        }
        ok = suffix == QLatin1String("svg") ? saveTablesSvg(heading, tables, path, &error)
                                            : saveTablesPng(heading, tables, path, &error);
    } else if (suffix == QLatin1String("svg")) {
        ok = saveWidgetSvg(*tabs_->currentWidget(), path, {}, &error);
    } else {
        ok = saveWidgetPng(*tabs_->currentWidget(), path, {}, &error);
    }
    status_text_->setText(ok ? tr("exported %1").arg(path) : tr("cannot export %1: %2").arg(path, error));
    return ok;
}

bool MainWindow::exportReport(const QString& path) {
    // A session chosen but not loaded yet has no results to write.
    const SessionRow* row = results_session_ == shown_session_ ? browser_->session(shown_session_) : nullptr;
    QString error = tr("no stored session is shown");
    const bool ok = row && writeSessionReport(*row, shown_results_, path, &error, std::nullopt,
                                              shown_capsules_, shown_projection_);
    status_text_->setText(ok ? tr("report written to %1").arg(path)
                             : tr("cannot write %1: %2").arg(path, error));
    return ok;
}

bool MainWindow::saveScreenshot(const QString& path) {
    const QImage image = grab().toImage();
    return !image.isNull() && image.save(path, "PNG");
}

} // namespace scalebench
