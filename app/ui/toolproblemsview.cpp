// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "toolproblemsview.h"

#include "project/project.h"
#include "python/pythonenv.h"
#include "requirementsinstalldialog.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace {

constexpr int FileRole = Qt::UserRole;       ///< the tool file, e.g. "tools/a.py"
constexpr int ModuleRole = Qt::UserRole + 1; ///< the missing module
constexpr int RequirementsRole = Qt::UserRole + 2;

} // namespace

ToolProblemsView::ToolProblemsView(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *titleRow = new QHBoxLayout;
    m_title = new QLabel(this);
    m_install = new QPushButton(tr("Install Requirements…"), this);
    m_install->setObjectName(QStringLiteral("installRequirements"));
    m_install->setToolTip(tr("Create the project's virtual environment (.toolstudio/venv) and pip-install the "
                             "file's requirements into it; the tool worker then runs in it"));
    titleRow->addWidget(m_title, 1);
    titleRow->addWidget(m_install);
    layout->addLayout(titleRow);
    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("toolProblems"));
    m_list->setWordWrap(true);
    m_list->setMaximumHeight(120);
    m_title->setBuddy(m_list);
    layout->addWidget(m_list);
    connect(m_list, &QListWidget::currentRowChanged, this, &ToolProblemsView::updateButton);
    connect(m_install, &QPushButton::clicked, this, &ToolProblemsView::installClicked);
    setVisible(false);
}

void ToolProblemsView::setProject(const Project *project)
{
    m_list->clear();
    m_projectDir = project ? project->dir : QString();
    const QStringList lines = project ? project->problems() : QStringList();
    const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    for (const QString &line : lines) {
        auto *item = new QListWidgetItem(warning, line, m_list);
        item->setToolTip(line);
        for (const PythonToolFile &file : project->pythonFiles) {
            if (file.error.isEmpty() || !line.startsWith(file.path + QStringLiteral(": ")))
                continue;
            item->setToolTip(file.path + QStringLiteral(": ") + file.error);
            item->setData(FileRole, file.path);
            item->setData(ModuleRole, file.missingModule);
            item->setData(RequirementsRole, PythonEnv::requirementsOf(file));
        }
    }
    m_title->setText(tr("&Load problems (%1)").arg(lines.size()));
    setVisible(!lines.isEmpty());
    if (!lines.isEmpty())
        m_list->setCurrentRow(0);
    updateButton();
}

void ToolProblemsView::updateButton()
{
    const QListWidgetItem *item = m_list->currentItem();
    const bool installable = item && !item->data(ModuleRole).toString().isEmpty()
        && !item->data(RequirementsRole).toStringList().isEmpty();
    m_install->setVisible(installable);
}

void ToolProblemsView::installClicked()
{
    const QListWidgetItem *item = m_list->currentItem();
    if (!item)
        return;
    const QString file = item->data(FileRole).toString();
    const QStringList requirements = item->data(RequirementsRole).toStringList();
    const auto answer = QMessageBox::question(
        this, tr("Install Requirements"),
        tr("%1 needs the module '%2'. Create the project's virtual environment (.toolstudio/venv) and run "
           "pip install for:\n\n%3\n\npip downloads from the package index, or installs the local paths given.")
            .arg(file, item->data(ModuleRole).toString(), requirements.join(QLatin1Char('\n'))));
    if (answer != QMessageBox::Yes)
        return;
    RequirementsInstallDialog dialog(m_projectDir, requirements, this);
    dialog.start();
    if (dialog.exec() == QDialog::Accepted)
        Q_EMIT requirementsInstalled();
}
