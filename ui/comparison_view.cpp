// Two sessions compared: the figures table (change coloured better or worse) above the settings that differ
// and what differs in what their runs ran (their capsules).
#include "comparison_view.h"

#include "comparison_model.h"
#include "one_line_delegate.h"
#include "settings_diff_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

namespace scalebench {

namespace {

QTableView* newTable(QAbstractItemModel* model, const QString& name) {
    auto* table = new QTableView;
    table->setObjectName(name);
    table->setModel(model);
    table->setAlternatingRowColors(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setWordWrap(false);
    table->verticalHeader()->setVisible(false);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return table;
}

} // namespace

ComparisonView::ComparisonView(QWidget* parent)
    : QWidget(parent), figures_(new ComparisonModel(this)), settings_(new SettingsDiffModel(this)),
      capsules_(new SettingsDiffModel(this)), heading_(new QLabel), settings_heading_(new QLabel),
      capsules_heading_(new QLabel), figures_view_(newTable(figures_, QStringLiteral("comparisonFigures"))),
      settings_view_(newTable(settings_, QStringLiteral("comparisonSettings"))),
      capsules_view_(newTable(capsules_, QStringLiteral("comparisonCapsules"))) {
    figures_view_->horizontalHeader()->setSectionResizeMode(ComparisonModel::Figure, QHeaderView::Stretch);
    for (int column = ComparisonModel::kShownColumns; column < ComparisonModel::ColumnCount; ++column)
        figures_view_->setColumnHidden(column, true);            // for the CSV
    figures_view_->setColumnHidden(ComparisonModel::Unit, true); // A and B show theirs
    // A series' settings can run to hundreds of characters ("backend=mpi batch-per-rank=64 ..."): a fixed
    // width, elided in the middle, the whole string in the tooltip, so the figures stay in view at 1280x800.
    figures_view_->setTextElideMode(Qt::ElideMiddle);
    figures_view_->horizontalHeader()->setSectionResizeMode(ComparisonModel::Series,
                                                            QHeaderView::Interactive);
    figures_view_->setColumnWidth(ComparisonModel::Series, 150);
    figures_view_->setItemDelegateForColumn(ComparisonModel::Series, new OneLineDelegate(figures_view_));
    // A figure's name is never cut ("peak busbw mpi allreduce float32 sum"): it wraps, and its row grows.
    figures_view_->setWordWrap(true);
    figures_view_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Values can be long (a header's whole text): A and B share the width and elide, so both stay in view.
    for (QTableView* table : {settings_view_, capsules_view_}) {
        table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
        table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
        table->setTextElideMode(Qt::ElideMiddle);
    }
    // A job script's differing lines are one line each: rows grow to hold them.
    capsules_view_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    heading_->setObjectName(QStringLiteral("comparisonHeading"));
    heading_->setText(tr("Choose two sessions to compare."));
    heading_->setWordWrap(true);
    settings_heading_->setText(tr("Settings that differ (plan, cluster, run headers)"));

    capsules_heading_->setText(tr("What ran differently (the runs' capsules)"));
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(figures_view_);
    for (const auto& [title, table] :
         {std::pair{settings_heading_, settings_view_}, {capsules_heading_, capsules_view_}}) {
        auto* box = new QWidget;
        auto* box_layout = new QVBoxLayout(box);
        box_layout->setContentsMargins(0, 0, 0, 0);
        box_layout->addWidget(title);
        box_layout->addWidget(table, 1);
        splitter->addWidget(box);
    }
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setStretchFactor(2, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(heading_);
    layout->addWidget(splitter, 1);
}

void ComparisonView::setSessions(const ComparedSession& a, const ComparedSession& b) {
    const QString name_a = QString::fromStdString(a.name), name_b = QString::fromStdString(b.name);
    const auto figures = compareFigures(a.results, b.results);
    figures_->setComparison(figures, name_a, name_b);
    figures_view_->setColumnHidden(ComparisonModel::Series,
                                   std::all_of(figures.begin(), figures.end(),
                                               [](const FigureComparison& f) { return f.settings.empty(); }));
    const auto differences = compareSettings(a, b);
    settings_->setDifferences(differences, name_a, name_b);
    heading_->setText(
        tr("<b>A: %1</b> against <b>B: %2</b>: %3 figures, B against A: %4; change = (B - A) / A, "
           "better or worse only beyond the noise of the repeats (%5 a side at least).")
            .arg(name_a.toHtmlEscaped(), name_b.toHtmlEscaped())
            .arg(figures.size())
            .arg(QString::fromStdString(describeCounts(countJudgements(figures))))
            .arg(kLeastRepeatsForChange));
    settings_heading_->setText(
        differences.empty()
            ? tr("Settings: no differences (plan, cluster, run headers)")
            : tr("Settings that differ (plan, cluster, run headers): %1").arg(differences.size()));
    const auto capsules = compareCapsules(a.capsules, b.capsules);
    capsules_->setDifferences(capsules, name_a, name_b);
    capsules_heading_->setText(
        capsules.empty()
            ? tr("What ran: no differences (job scripts, engine sources, versions, nodes, environment)")
            : tr("What ran differently (the runs' capsules: job scripts, engine sources, versions, nodes, "
                 "environment): %1")
                  .arg(capsules.size()));
}

std::vector<ExportedTable> ComparisonView::exportedTables() const {
    return {shownTable(*figures_view_), shownTable(*settings_view_, settings_heading_->text()),
            shownTable(*capsules_view_, capsules_heading_->text())};
}

} // namespace scalebench
