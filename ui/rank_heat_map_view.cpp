// The straggler heat map: ranks (grouped by node) down, steps across, each cell coloured by the rank's
// compute time relative to the step's median; slow ranks named in bold red in the row header.
#include "rank_heat_map_view.h"

#include "rank_heat_map_model.h"

#include <QHeaderView>

namespace scalebench {

namespace {
constexpr int kCellWidth = 6; // pixels a step: hundreds of steps fit across
constexpr int kCellHeight = 14;
} // namespace

RankHeatMapView::RankHeatMapView(RankHeatMapModel* model, QWidget* parent)
    : QTableView(parent), model_(model) {
    setObjectName(QStringLiteral("rankHeatMap"));
    setModel(model);
    setShowGrid(false);
    setSelectionMode(QAbstractItemView::NoSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setToolTip(tr("Compute time relative to the step's median across ranks: red slower, blue faster"));
    horizontalHeader()->setMinimumSectionSize(1);
    horizontalHeader()->setDefaultSectionSize(kCellWidth);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    horizontalHeader()->hide(); // step numbers do not fit over 6-pixel columns; each cell's tool tip says it
    verticalHeader()->setMinimumSectionSize(1);
    verticalHeader()->setDefaultSectionSize(kCellHeight);
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
}

} // namespace scalebench
