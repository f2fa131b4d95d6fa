// The plan builder's job script preview: for a chosen cluster and run of the plan, the command or batch
// script the session would submit, with the engine, sessions' folder and store the window launches with.
#pragma once

#include "cluster_settings.h"
#include "console_options.h"
#include "run_plan.h"

#include <QString>
#include <QWidget>
#include <filesystem>
#include <string>
#include <vector>

class QComboBox;
class QPlainTextEdit;

namespace scalebench {

class JobScriptPreview : public QWidget {
    Q_OBJECT

  public:
    explicit JobScriptPreview(QWidget* parent = nullptr);

    // The clusters offered; "local" (this machine) is always first. The chosen one stays chosen by name.
    void setClusters(const std::vector<ClusterSettings>& clusters);
    // The engine the runner would launch, the sessions' folder, and the store whose folder runs go in.
    void setLaunchSettings(const std::string& engine, const std::filesystem::path& out_dir,
                           const std::string& store_id);
    // The plan as read back from its TOML, and its error ("" when valid): the runs offered are its runs,
    // the chosen one stays chosen by name.
    void setPlan(const RunPlan& plan, const QString& error);

    QString text() const;
    QString selectedCluster() const;

  private:
    void refresh();

    RunPlan plan_;
    QString error_;
    std::vector<ClusterSettings> clusters_;
    std::string engine_ = defaultEnginePath();
    std::filesystem::path out_dir_ = "scalebench-out";
    std::string store_id_;

    QComboBox* cluster_;
    QComboBox* run_;
    QPlainTextEdit* job_script_;
};

} // namespace scalebench
