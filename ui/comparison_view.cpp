// Two sessions compared: the figures table (change coloured better or worse) above the settings that differ.
#include "comparison_view.h"

#include "comparison_model.h"
#include "settings_diff_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

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
      heading_(new QLabel), settings_heading_(new QLabel),
      figures_view_(newTable(figures_, QStringLiteral("comparisonFigures"))),
      settings_view_(newTable(settings_, QStringLiteral("comparisonSettings"))) {
    figures_view_->horizontalHeader()->setSectionResizeMode(ComparisonModel::Figure, QHeaderView::Stretch);
    // Values can be long (a header's whole text): A and B share the width and elide, so both stay in view.
    settings_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    settings_view_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    settings_view_->setTextElideMode(Qt::ElideMiddle);
    heading_->setObjectName(QStringLiteral("comparisonHeading"));
    heading_->setText(tr("Choose two sessions to compare."));
    heading_->setWordWrap(true);
    settings_heading_->setText(tr("Settings that differ (plan, cluster, run headers)"));

    auto* settings_box = new QWidget;
    auto* settings_layout = new QVBoxLayout(settings_box);
    settings_layout->setContentsMargins(0, 0, 0, 0);
    settings_layout->addWidget(settings_heading_);
    settings_layout->addWidget(settings_view_, 1);
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(figures_view_);
    splitter->addWidget(settings_box);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(heading_);
    layout->addWidget(splitter, 1);
}

void ComparisonView::setSessions(const ComparedSession& a, const ComparedSession& b) {
    const QString name_a = QString::fromStdString(a.name), name_b = QString::fromStdString(b.name);
    const auto figures = compareFigures(a.results, b.results);
    int better = 0, worse = 0;
    for (const FigureComparison& f : figures) {
        const int v = ComparisonModel::verdict(f);
        better += v > 0;
        worse += v < 0;
    }
    figures_->setComparison(figures, name_a, name_b);
    const auto differences = compareSettings(a, b);
    settings_->setDifferences(differences, name_a, name_b);
    heading_->setText(tr("<b>A: %1</b> against <b>B: %2</b>: %3 figures, %4 better in B, %5 worse; "
                         "change = (B - A) / A.")
                          .arg(name_a.toHtmlEscaped(), name_b.toHtmlEscaped())
                          .arg(figures.size())
                          .arg(better)
                          .arg(worse));
    settings_heading_->setText(
        differences.empty()
            ? tr("Settings: no differences (plan, cluster, run headers)")
            : tr("Settings that differ (plan, cluster, run headers): %1").arg(differences.size()));
}

} // namespace scalebench
