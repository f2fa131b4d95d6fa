// File > Import: which logs of runs that already happened to read into a new session, and in which format.
#pragma once

#include "import_command.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLineEdit;
class QListWidget;
class QDoubleSpinBox;
class QSpinBox;

namespace scalebench {

class ImportDialog : public QDialog {
    Q_OBJECT

  public:
    explicit ImportDialog(QWidget* parent = nullptr);

    // The files to read (what "Add files..." picks); OK needs at least one.
    void setFiles(const QStringList& files);
    ImportRequest request() const;

  private:
    void addFiles();
    void updateAcceptance();

    QListWidget* files_;
    QComboBox* format_;
    QSpinBox* ranks_;
    QDoubleSpinBox* peak_;
    QLineEdit* session_;
    QDialogButtonBox* buttons_;
};

} // namespace scalebench
