// What the Runs tab shows while the store holds no session: the four ways to a first result.
#include "first_start_panel.h"

#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace scalebench {

FirstStartPanel::FirstStartPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("firstStart"));
    auto* heading = new QLabel(tr("<b>No sessions yet.</b> Start with one of these:"), this);
    heading->setObjectName(QStringLiteral("firstStartHeading"));
    auto* actions = new QGridLayout;
    actions->setColumnStretch(1, 1);
    actions->setHorizontalSpacing(16);
    auto action = [&](const char* name, const QString& text, const QString& what) {
        auto* button = new QPushButton(text, this);
        button->setObjectName(QString::fromLatin1(name));
        auto* label = new QLabel(what, this);
        label->setWordWrap(true);
        label->setBuddy(button);
        const int row = actions->rowCount();
        actions->addWidget(button, row, 0);
        actions->addWidget(label, row, 1);
        return button;
    };
    quickstart_ = action("firstStartQuickstart", tr("Run the quickstart on this machine"),
                         tr("The plan scalebench ships for a first result (quickstart.toml) starts on this "
                            "machine at once; its runs appear in this tab as they go."));
    open_plan_ = action("firstStartOpenPlan", tr("Open and launch a plan..."),
                        tr("A plan file (TOML), such as the examples scalebench ships; you are asked once "
                           "where it launches."));
    auto* add_cluster = action("firstStartAddCluster", tr("Add a cluster..."),
                               tr("A Slurm cluster reached over SSH, in the Clusters tab; plans then launch "
                                  "there from the Plan tab."));
    auto* import_logs = action("firstStartImportLogs", tr("Import logs..."),
                               tr("Logs of runs that already happened, read into a session by their "
                                  "format's reader."));
    quickstart_->setDefault(true);

    auto* layout = new QVBoxLayout(this);
    layout->addStretch(1);
    layout->addWidget(heading);
    layout->addLayout(actions);
    layout->addStretch(2);
    layout->setContentsMargins(48, 24, 48, 24);

    connect(quickstart_, &QPushButton::clicked, this, &FirstStartPanel::quickstartRequested);
    connect(open_plan_, &QPushButton::clicked, this, &FirstStartPanel::openPlanRequested);
    connect(add_cluster, &QPushButton::clicked, this, &FirstStartPanel::addClusterRequested);
    connect(import_logs, &QPushButton::clicked, this, &FirstStartPanel::importLogsRequested);
}

void FirstStartPanel::setLaunchEnabled(bool enabled) {
    quickstart_->setEnabled(enabled);
    open_plan_->setEnabled(enabled);
}

} // namespace scalebench
