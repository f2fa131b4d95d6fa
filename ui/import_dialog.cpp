// File > Import: which logs of runs that already happened to read into a new session, and in which format.
#include "import_dialog.h"

#include "output_formats.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace scalebench {

ImportDialog::ImportDialog(QWidget* parent)
    : QDialog(parent), files_(new QListWidget(this)), format_(new QComboBox(this)),
      ranks_(new QSpinBox(this)), peak_(new QDoubleSpinBox(this)),
      session_(new QLineEdit(QStringLiteral("imported"), this)),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
    setWindowTitle(tr("Import logs"));
    files_->setObjectName(QStringLiteral("importFiles"));
    format_->setObjectName(QStringLiteral("importFormat"));
    ranks_->setObjectName(QStringLiteral("importRanks"));
    session_->setObjectName(QStringLiteral("importSession"));
    format_->addItem(tr("each file's own, told from its content"), QString()); // ImportRequest: ""
    for (const std::string& format : availableFormats())
        format_->addItem(QString::fromStdString(format), QString::fromStdString(format));
    format_->setToolTip(tr("How the files read: nccl-tests' tables or JSON, OSU's tables, MLPerf's :::MLLOG "
                           "lines, MaxText's step lines, the engine's metric stream"));
    ranks_->setRange(1, 1 << 20);
    ranks_->setToolTip(tr("Processes of each run, where its log does not say (an MLLOG or nccl-tests log "
                          "does)"));

    peak_->setObjectName(QStringLiteral("importPeak"));
    peak_->setRange(0, 1e6);
    peak_->setDecimals(1);
    peak_->setSpecialValueText(tr("unknown (no MFU)"));
    peak_->setToolTip(
        tr("Dense peak TFLOP/s of one device at the run's precision (H100 bf16: 989), for the MFU "
           "of a trainer that prints its TFLOP/s (MaxText)"));

    auto* add = new QPushButton(tr("Add files..."), this);
    add->setObjectName(QStringLiteral("addImportFiles"));
    connect(add, &QPushButton::clicked, this, &ImportDialog::addFiles);
    auto* form = new QFormLayout;
    form->addRow(tr("Format:"), format_);
    form->addRow(tr("Ranks:"), ranks_);
    form->addRow(tr("Peak TFLOP/s per device:"), peak_);
    form->addRow(tr("Session:"), session_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(files_, 1);
    layout->addWidget(add);
    layout->addLayout(form);
    layout->addWidget(buttons_);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(session_, &QLineEdit::textChanged, this, &ImportDialog::updateAcceptance);
    updateAcceptance();
}

void ImportDialog::setFiles(const QStringList& files) {
    files_->clear();
    files_->addItems(files);
    updateAcceptance();
}

ImportRequest ImportDialog::request() const {
    ImportRequest request;
    for (int i = 0; i < files_->count(); ++i)
        request.files.emplace_back(files_->item(i)->text().toStdString());
    request.format = format_->currentData().toString().toStdString();
    request.session_name = session_->text().trimmed().toStdString();
    request.ranks = ranks_->value();
    request.peak_tflops = peak_->value();
    return request;
}

void ImportDialog::addFiles() {
    const QStringList picked = QFileDialog::getOpenFileNames(this, tr("Logs to import"));
    for (const QString& file : picked)
        if (files_->findItems(file, Qt::MatchExactly).isEmpty()) files_->addItem(file);
    updateAcceptance();
}

void ImportDialog::updateAcceptance() {
    buttons_->button(QDialogButtonBox::Ok)
        ->setEnabled(files_->count() > 0 && !session_->text().trimmed().isEmpty());
}

} // namespace scalebench
