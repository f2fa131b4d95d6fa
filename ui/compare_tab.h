// The Compare tab: two stored sessions chosen in combo boxes (A is the reference) and their figures and
// settings side by side; asks for a comparison and shows the one the loader hands over.
#pragma once

#include "stored_rows.h"

#include <QWidget>
#include <cstdint>
#include <vector>

class QComboBox;

namespace scalebench {

class ComparisonView;
struct StoredComparison;

class CompareTab : public QWidget {
    Q_OBJECT

  public:
    explicit CompareTab(QWidget* parent = nullptr);

    // The sessions the combos offer, newest first. With none chosen yet and two or more listed, asks for the
    // newest (B) against the one before it (A); otherwise keeps the choice.
    void setSessions(const std::vector<SessionRow>& sessions);
    // Chooses the two sessions and asks for their comparison; false when one is not listed.
    bool compare(std::int64_t a, std::int64_t b);
    // The loaded comparison, if it is of the two sessions chosen.
    void showComparison(const StoredComparison& comparison);
    ComparisonView* view() const { return view_; }
    // The sessions chosen as A and B; 0 where none is.
    std::int64_t chosenA() const;
    std::int64_t chosenB() const;

  signals:
    void comparisonRequested(qint64 a, qint64 b);

  private:
    QComboBox* a_;
    QComboBox* b_;
    ComparisonView* view_;
};

} // namespace scalebench
