// The straggler heat map: ranks (grouped by node) down, steps across, each cell coloured by the rank's
// compute time relative to the step's median; slow ranks named in bold red in the row header.
#pragma once

#include <QTableView>

namespace scalebench {

class RankHeatMapModel;

class RankHeatMapView : public QTableView {
    Q_OBJECT

  public:
    // The model is not owned and must outlive the view.
    explicit RankHeatMapView(RankHeatMapModel* model, QWidget* parent = nullptr);

    RankHeatMapModel* heatMapModel() const { return model_; }

  private:
    RankHeatMapModel* model_;
};

} // namespace scalebench
