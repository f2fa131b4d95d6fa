// The Compare tab: two stored sessions chosen in combo boxes (A is the reference) and their figures and
// settings side by side; asks for a comparison and shows the one the loader hands over.
#include "compare_tab.h"

#include "comparison_view.h"
#include "stored_session_loader.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace scalebench {

namespace {

QVariant idData(std::int64_t id) {
    return QVariant::fromValue<qint64>(id);
}

} // namespace

CompareTab::CompareTab(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    a_ = new QComboBox(this);
    a_->setObjectName(QStringLiteral("compareA"));
    b_ = new QComboBox(this);
    b_->setObjectName(QStringLiteral("compareB"));
    for (QComboBox* choice : {a_, b_})
        choice->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    bar->addWidget(new QLabel(tr("A (reference):"), this));
    bar->addWidget(a_);
    bar->addSpacing(16);
    bar->addWidget(new QLabel(tr("B:"), this));
    bar->addWidget(b_);
    bar->addStretch(1);
    layout->addLayout(bar);
    view_ = new ComparisonView(this);
    layout->addWidget(view_, 1);
    for (QComboBox* choice : {a_, b_})
        connect(choice, &QComboBox::activated, this,
                [this] { compare(a_->currentData().toLongLong(), b_->currentData().toLongLong()); });
}

void CompareTab::setSessions(const std::vector<SessionRow>& sessions) {
    const qint64 a = a_->currentData().toLongLong(), b = b_->currentData().toLongLong();
    for (QComboBox* choice : {a_, b_}) {
        choice->clear();
        for (auto session = sessions.rbegin(); session != sessions.rend(); ++session)
            choice->addItem(QStringLiteral("%1: %2  (%3)")
                                .arg(session->id)
                                .arg(QString::fromStdString(session->name),
                                     QString::fromStdString(session->started_at)
                                         .replace(QLatin1Char('T'), QLatin1Char(' '))
                                         .remove(QLatin1Char('Z'))),
                            idData(session->id));
    }
    const std::size_t count = sessions.size();
    if (count >= 2 && (a == 0 || b == 0)) {
        compare(sessions[count - 2].id, sessions[count - 1].id);
    } else if (a != 0 && b != 0) {
        a_->setCurrentIndex(a_->findData(idData(a)));
        b_->setCurrentIndex(b_->findData(idData(b)));
    }
}

bool CompareTab::compare(std::int64_t a, std::int64_t b) {
    const int index_a = a_->findData(idData(a)), index_b = b_->findData(idData(b));
    if (index_a < 0 || index_b < 0) return false;
    a_->setCurrentIndex(index_a);
    b_->setCurrentIndex(index_b);
    emit comparisonRequested(a, b);
    return true;
}

std::int64_t CompareTab::chosenA() const {
    return a_->currentData().toLongLong();
}

std::int64_t CompareTab::chosenB() const {
    return b_->currentData().toLongLong();
}

void CompareTab::showComparison(const StoredComparison& comparison) {
    if (comparison.a != a_->currentData().toLongLong() || comparison.b != b_->currentData().toLongLong())
        return; // chosen again since
    view_->setSessions(comparison.session_a, comparison.session_b);
}

} // namespace scalebench
