// The main window's File > Import logs: the dialog, then the logs read into a new session of the window's
// store on the loader's thread, which is then listed and shown; and Session > Delete session.
#include "import_dialog.h"
#include "main_window.h"
#include "session_browser.h"
#include "stored_session_loader.h"

#include <QLabel>
#include <QMessageBox>

namespace scalebench {

void MainWindow::askImportLogs() {
    ImportDialog dialog(this);
    if (dialog.exec() == QDialog::Accepted) importLogs(dialog.request());
}

void MainWindow::importLogs(const ImportRequest& request) {
    status_text_->setText(tr("importing %1 file(s) as %2...")
                              .arg(request.files.size())
                              .arg(request.format.empty() ? tr("each file's own format")
                                                          : QString::fromStdString(request.format)));
    loader_->importLogs(request);
}

void MainWindow::showImport(const StoredImport& import) {
    if (!import.error.isEmpty()) {
        status_text_->setText(tr("cannot import: %1").arg(import.error));
        emit logsImported(0);
        return;
    }
    const ImportOutcome& outcome = import.outcome;
    QStringList errors, known;
    for (const ImportedFile& f : outcome.files) {
        if (!f.error.empty()) errors << QString::fromStdString(f.run_name + ": " + f.error);
        if (!f.already.empty())
            known << QString::fromStdString(f.file.filename().string() + ": " + f.already);
    }
    status_text_->setText(
        tr("imported %1 of %2 file(s) as %3 into session %4%5")
            .arg(outcome.files.size() - static_cast<std::size_t>(errors.size() + known.size()))
            .arg(outcome.files.size())
            .arg(import.format.empty() ? tr("each file's own format") : QString::fromStdString(import.format))
            .arg(outcome.session_id)
            .arg(known.isEmpty() ? QString() : tr("; %1 already in the store").arg(known.size())));

    listSessions(outcome.session_id);
    if (!errors.isEmpty() || !known.isEmpty()) { // shown without blocking: the import is done
        QStringList text;
        if (!errors.isEmpty())
            text << tr("These files gave no record (their runs are stored as failed):\n%1")
                        .arg(errors.join(QLatin1Char('\n')));
        if (!known.isEmpty())
            text << tr("These files are in the store already (not imported again):\n%1")
                        .arg(known.join(QLatin1Char('\n')));
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Import"), text.join(QStringLiteral("\n\n")),
                                    QMessageBox::Ok, this);
        box->setObjectName(QStringLiteral("importErrors"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    emit logsImported(outcome.session_id);
}

void MainWindow::askDeleteSession() {
    const SessionRow* row = shown_session_ ? browser_->session(shown_session_) : nullptr;
    if (!row) {
        status_text_->setText(tr("no session chosen to delete"));
        return;
    }
    const auto answer = QMessageBox::question(
        this, tr("Delete session"),
        tr("Delete session %1 '%2' (%3 run(s)) and every record of it from the store? Its runs' folders "
           "stay.")
            .arg(row->id)
            .arg(QString::fromStdString(row->name))
            .arg(row->run_count));
    if (answer == QMessageBox::Yes) deleteSession(row->id);
}

void MainWindow::deleteSession(std::int64_t session_id) {
    status_text_->setText(tr("deleting session %1...").arg(session_id));
    loader_->deleteSession(session_id);
}

void MainWindow::showDeletion(const StoredDeletion& deletion) {
    if (deletion.error.isEmpty()) {
        status_text_->setText(tr("deleted session %1 '%2' (%3 run(s))")
                                  .arg(deletion.session_id)
                                  .arg(QString::fromStdString(deletion.name))
                                  .arg(deletion.runs));
        listSessions(0); // the newest is shown
    } else {
        status_text_->setText(tr("cannot delete: %1").arg(deletion.error));
    }
    emit sessionDeleted(deletion.session_id, deletion.error);
}

} // namespace scalebench
