// The plan builder's job script preview: for a chosen cluster and run of the plan, the command or batch
// script the session would submit, with the engine, sessions' folder and store the window launches with.
#include "job_script_preview.h"

#include "form_widgets.h"
#include "job_preview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>

namespace scalebench {
namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

} // namespace

JobScriptPreview::JobScriptPreview(QWidget* parent) : QWidget(parent), clusters_{localMachine()} {
    auto* layout = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    cluster_ = named(new QComboBox(this), "previewCluster");
    run_ = named(new QComboBox(this), "previewRun");
    run_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    run_->setMinimumContentsLength(16);
    row->addWidget(new QLabel(tr("Cluster"), this));
    row->addWidget(cluster_);
    row->addWidget(new QLabel(tr("Run"), this));
    row->addWidget(run_, 1);
    job_script_ = makeCodeView(QStringLiteral("jobScriptPreview"), this);
    layout->addLayout(row);
    layout->addWidget(job_script_, 1);

    for (const auto& c : clusters_)
        cluster_->addItem(qs(c.name));
    connect(cluster_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(run_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
}

void JobScriptPreview::setClusters(const std::vector<ClusterSettings>& clusters) {
    const QString selected = cluster_->currentText();
    clusters_ = {localMachine()};
    for (const auto& c : clusters)
        if (c.name != kLocalClusterName) clusters_.push_back(c);
    const QSignalBlocker block(cluster_);
    cluster_->clear();
    for (const auto& c : clusters_)
        cluster_->addItem(qs(c.name));
    cluster_->setCurrentIndex(std::max(0, cluster_->findText(selected)));
    refresh();
}

void JobScriptPreview::setLaunchSettings(const std::string& engine, const std::filesystem::path& out_dir,
                                         const std::string& store_id) {
    engine_ = engine;
    out_dir_ = out_dir;
    store_id_ = store_id;
    refresh();
}

void JobScriptPreview::setPlan(const RunPlan& plan, const QString& error) {
    plan_ = plan;
    error_ = error;
    const QString run = run_->currentText();
    {
        const QSignalBlocker block(run_);
        run_->clear();
        if (error_.isEmpty())
            for (const auto& spec : expandPlan(plan_))
                run_->addItem(qs(spec.name));
        run_->setCurrentIndex(std::max(0, run_->findText(run)));
    }
    refresh();
}

void JobScriptPreview::refresh() {
    if (!error_.isEmpty()) {
        job_script_->setPlainText(tr("# No job scripts while the plan has an error:\n# %1").arg(error_));
        return;
    }
    const auto runs = expandPlan(plan_);
    const int index = run_->currentIndex();
    if (index < 0 || index >= static_cast<int>(runs.size())) {
        job_script_->setPlainText(tr("# The plan has no runs."));
        return;
    }
    const RunSpec& run = runs[static_cast<std::size_t>(index)];
    const ClusterSettings& cluster =
        clusters_.at(static_cast<std::size_t>(std::max(0, cluster_->currentIndex())));
    QString text = tr("# run %1 of %2: %3 rank(s)").arg(index + 1).arg(runs.size()).arg(run.ranks);
    if (run.nodes > 0) text += tr(", %1 node(s) x %2").arg(run.nodes).arg(run.ranks_per_node);
    text += tr("; the session folder is numbered at launch\n");
    try {
        const std::string command = submittedCommand(run, previewSite(cluster, engine_, out_dir_, store_id_));
        text += qs(command);
        if (!command.ends_with('\n')) text += '\n';
    } catch (const std::exception& e) {
        text += tr("# This run cannot become a job on %1: %2").arg(qs(cluster.name), qs(e.what()));
    }
    job_script_->setPlainText(text);
}

QString JobScriptPreview::text() const {
    return job_script_->toPlainText();
}

QString JobScriptPreview::selectedCluster() const {
    return cluster_->currentText();
}

} // namespace scalebench
