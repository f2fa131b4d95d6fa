// The run group form's command: its command line, output format and file, and container.
#include "command_section.h"

#include "form_widgets.h"
#include "output_formats.h"
#include "shell_words.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSignalBlocker>
#include <filesystem>

namespace scalebench {

CommandSection::CommandSection(QWidget* parent) : QWidget(parent) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    command_ = named(new QLineEdit(this), "command");
    command_->setPlaceholderText(tr("all_reduce_perf -b 8 -e 8G -f 2 -g 1"));
    command_->setToolTip(tr("What every rank runs, split as a shell splits a simple command; pipes, "
                            "redirections and $variables need sh -c '...'"));
    format_ = named(new QComboBox(this), "outputFormat");
    format_->setEditable(true); // a definition file by its path, besides the formats listed
    for (const auto& format : availableFormats())
        format_->addItem(QString::fromStdString(format));
    format_->setToolTip(tr("How the console reads what the command writes (docs/metric-stream.md)"));
    output_ = named(new QLineEdit(this), "outputFile");
    output_->setPlaceholderText(tr("its standard output"));
    output_->setToolTip(tr("The file the command writes, relative to its run's folder (nccl-tests -J FILE)"));
    image_ = named(new QLineEdit(this), "containerImage");
    image_->setPlaceholderText(tr("image, on Slurm through pyxis"));
    mounts_ = named(new QLineEdit(this), "containerMounts");
    mounts_->setPlaceholderText(tr("SOURCE:TARGET[:FLAGS], comma-separated"));
    form->addRow(tr("Command"), command_);
    form->addRow(tr("Format"), format_);
    form->addRow(tr("Output"), output_);
    form->addRow(tr("Container"), image_);
    form->addRow(tr("Mounts"), mounts_);
    for (QLineEdit* edit : {command_, output_, image_, mounts_})
        connect(edit, &QLineEdit::textEdited, this, &CommandSection::changed);
    connect(format_, &QComboBox::currentIndexChanged, this, &CommandSection::changed);
}

void CommandSection::readGroup(const RunGroup& g) {
    const QSignalBlocker quiet(this);
    const QSignalBlocker quiet_format(format_);
    command_->setText(QString::fromStdString(shellJoin(g.command.argv)));
    format_->setCurrentText(QString::fromStdString(g.command.format));
    output_->setText(QString::fromStdString(g.command.output));
    image_->setText(QString::fromStdString(g.command.container_image));
    QStringList mounts;
    for (const auto& mount : g.command.container_mounts)
        mounts << QString::fromStdString(mount);
    mounts_->setText(mounts.join(QLatin1Char(',')));
}

QString CommandSection::writeGroup(RunGroup& g) const {
    CommandRun& c = g.command;
    c.format = format_->currentText().toStdString();
    c.output = output_->text().trimmed().toStdString();
    c.container_image = image_->text().trimmed().toStdString();
    c.container_mounts.clear();
    for (const QString& mount : mounts_->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        c.container_mounts.push_back(mount.trimmed().toStdString());
    try {
        std::vector<std::string> argv = splitCommandLine(command_->text().toStdString());
        if (argv.empty()) return tr("Command: name the program every rank runs");
        c.argv = std::move(argv);
    } catch (const std::invalid_argument& e) {
        return tr("Command: %1").arg(QString::fromStdString(e.what()));
    }
    g.workload = c.name.empty() ? std::filesystem::path(c.argv.front()).filename().string() : c.name;
    return {};
}

} // namespace scalebench
