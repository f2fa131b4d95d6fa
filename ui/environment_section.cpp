// The run group form's environment: the variables every run of the group starts with, edited in a table.
#include "environment_section.h"

#include "form_widgets.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>

namespace scalebench {

EnvironmentSection::EnvironmentSection(QWidget* parent) : QWidget(parent) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    env_ = named(new QTableWidget(0, 2, this), "environment");
    env_->setHorizontalHeaderLabels({tr("Variable"), tr("Value")});
    env_->horizontalHeader()->setStretchLastSection(true);
    env_->setColumnWidth(0, 150);
    env_->verticalHeader()->hide();
    env_->setMinimumHeight(90);
    auto* add_env = named(new QPushButton(tr("Add variable"), this), "addVariable");
    auto* remove_env = named(new QPushButton(tr("Remove"), this), "removeVariable");
    auto* env_buttons = new QHBoxLayout;
    env_buttons->addWidget(add_env);
    env_buttons->addWidget(remove_env);
    env_buttons->addStretch();
    auto* env_column = new QVBoxLayout;
    env_column->addWidget(env_, 1);
    env_column->addLayout(env_buttons);
    form->addRow(tr("Environment"), env_column);

    connect(add_env, &QPushButton::clicked, this, [this] {
        const int row = env_->rowCount();
        env_->insertRow(row);
        env_->setCurrentCell(row, 0);
        env_->editItem(env_->item(row, 0));
    });
    connect(remove_env, &QPushButton::clicked, this, [this] {
        if (env_->currentRow() < 0) return;
        env_->removeRow(env_->currentRow());
        emit changed();
    });
    connect(env_, &QTableWidget::itemChanged, this, &EnvironmentSection::changed);
}

void EnvironmentSection::readGroup(const RunGroup& g) {
    const QSignalBlocker quiet(this);
    env_->setRowCount(0);
    for (const auto& [name, value] : g.env) {
        const int row = env_->rowCount();
        env_->insertRow(row);
        env_->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(name)));
        env_->setItem(row, 1, new QTableWidgetItem(QString::fromStdString(value)));
    }
}

void EnvironmentSection::writeGroup(RunGroup& g) const {
    g.env.clear();
    for (int row = 0; row < env_->rowCount(); ++row) {
        const QTableWidgetItem* name = env_->item(row, 0);
        const QTableWidgetItem* value = env_->item(row, 1);
        if (!name || name->text().trimmed().isEmpty()) continue; // a row being filled in
        g.env[name->text().trimmed().toStdString()] = value ? value->text().toStdString() : std::string();
    }
}

} // namespace scalebench
