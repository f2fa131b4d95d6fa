// Builds a plan: workloads from the catalog (or commands of their own: nccl-tests, OSU, a container) into run
// groups, each edited in a form of sections (GPU counts, training, communication or the command,
// environment); previews its TOML and its job scripts; opens, saves, launches.
#pragma once

#include "cluster_settings.h"
#include "run_plan.h"

#include <QWidget>
#include <filesystem>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTreeView;

Q_DECLARE_METATYPE(scalebench::RunPlan)

namespace scalebench {

class CommandSection;
class CommunicationSection;
class EnvironmentSection;
class GpuCountsSection;
class JobScriptPreview;
class TrainingSection;
class WorkloadCatalogModel;

class PlanBuilderWidget : public QWidget {
    Q_OBJECT

  public:
    explicit PlanBuilderWidget(QWidget* parent = nullptr);

    // The clusters the job-script preview and the launch offer; "local" (this machine) is always first.
    // A new workload's run group asks for the powers of two up to what the launch target runs at once
    // (defaultRankCounts: this machine's cores, a cluster's GPUs on a node); groups still at those defaults
    // follow the launch target when it changes.
    void setClusters(const std::vector<ClusterSettings>& clusters);
    // What the job script preview shows for this machine (the engine the runner would launch, the sessions'
    // folder) and which store's folder runs go in (run_folder.h).
    void setLaunchSettings(const std::string& engine, const std::filesystem::path& out_dir,
                           const std::string& store_id);
    void setPlan(const RunPlan& plan);
    // Adds a run group for a catalog workload with its reference values, and selects it.
    void addWorkload(const std::string& workload);
    // Adds a run group of a command (an OSU all-reduce at 1 and 2 ranks, to be edited), and selects it.
    void addCommand();

    // The plan as the builder holds it, and the TOML it writes; the plan read back from that TOML when valid.
    const RunPlan& plan() const { return plan_; }
    QString tomlText() const;
    QString jobScriptText() const;
    QString errorText() const;       // what the error line shows: "" when the plan is valid
    QString selectedCluster() const; // the Job scripts preview's: which script is shown, nothing more
    // Where Launch runs the plan ("local" or a cluster's name), chosen beside the button, which names it
    // ("Launch on this machine", "Launch on prod"); setLaunchTarget is false for a cluster not offered.
    QString launchTarget() const;
    QString launchTargetName() const; // "this machine" or the cluster's name
    bool setLaunchTarget(const QString& cluster);

    // What the Open/Save buttons do after asking for a file: false (and the error shown) when it fails.
    bool openPlan(const QString& path);
    bool savePlan(const QString& path);

  signals:
    void launchRequested(const scalebench::RunPlan& plan, const QString& cluster);

  private:
    void buildLayout();
    void connectPlanControls(QPushButton* add, QPushButton* add_command, QPushButton* remove,
                             QPushButton* open, QPushButton* save);
    QWidget* buildGroupForm();
    QWidget* buildPreviews(); // the run group's form, then the plan's TOML and its job scripts, as tabs
    void selectGroup(int index);
    void groupToForm(); // plan_.groups[current_] -> the sections' fields
    void formToGroup(); // the sections' fields -> plan_.groups[current_], then refresh
    void refresh();     // TOML, validation, run list and job script
    void setError(const QString& text);
    void nameLaunch();                         // the Launch button's text: where it launches
    std::vector<int> targetRankCounts() const; // defaultRankCounts of the launch target
    void followLaunchTarget(); // names the launch, and gives the groups still at defaults the target's

    RunPlan plan_;
    std::vector<bool> default_ranks_; // per group of plan_: its GPU counts are the defaults it was given
    std::vector<ClusterSettings> clusters_;
    RunPlan valid_plan_; // read back from the TOML; meaningful when error_ is empty
    int current_ = -1;   // the group the form edits
    bool loading_ = false;
    QString error_;
    QString form_error_; // a field that cannot become a plan value (the GPU counts)

    WorkloadCatalogModel* catalog_;
    QTreeView* catalog_view_;
    QListWidget* groups_;
    QLineEdit* name_;
    QLineEdit* description_;
    QSpinBox* repeats_;
    QWidget* form_;
    GpuCountsSection* gpu_counts_;
    TrainingSection* training_;
    CommunicationSection* communication_;
    CommandSection* command_;
    EnvironmentSection* environment_;
    QPlainTextEdit* toml_;
    JobScriptPreview* job_scripts_;
    QLabel* error_label_;
    QComboBox* launch_target_;
    QPushButton* launch_;
};

} // namespace scalebench
