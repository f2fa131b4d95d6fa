// The run group form's command: for a run of a program of its own (nccl-tests, OSU, an MLPerf container), its
// command line, how its output reads, the file it writes, and the container it runs in on Slurm.
#pragma once

#include "run_plan.h"

#include <QString>
#include <QWidget>

class QComboBox;
class QLineEdit;

namespace scalebench {

class CommandSection : public QWidget {
    Q_OBJECT

  public:
    explicit CommandSection(QWidget* parent = nullptr);

    void readGroup(const RunGroup& group); // the group's command into the fields; emits nothing
    // The fields into the group's command (and its workload, the program's name); returns what cannot become
    // a plan value (a command line only a shell reads), "" when all can.
    QString writeGroup(RunGroup& group) const;

  signals:
    void changed();

  private:
    QLineEdit* command_;
    QComboBox* format_;
    QLineEdit* output_;
    QLineEdit* image_;
    QLineEdit* mounts_;
};

} // namespace scalebench
