// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "scriptbox.h"

#include "project/project.h"

#include <QDir>
#include <QFileInfo>

ScriptBox::ScriptBox(QWidget *parent)
    : QComboBox(parent)
{
    setObjectName(QStringLiteral("scriptCombo"));
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(this, &QComboBox::currentIndexChanged, this, &ScriptBox::updateToolTip);
    updateToolTip();
}

void ScriptBox::updateToolTip()
{
    const QString path = currentData(Qt::ToolTipRole).toString();
    setToolTip(path.isEmpty() ? tr("The agent script to edit and run")
                              : tr("%1: the agent script to edit and run").arg(path));
}

void ScriptBox::setProject(const Project *project)
{
    const QString chosenName = currentData(NameRole).toString();
    const QString chosenPath = currentPath();
    const bool hadChoice = currentIndex() >= 0;
    const QSignalBlocker blocker(this); // a refill is not the user choosing a script
    clear();
    updateToolTip();
    if (!project)
        return;
    const QDir dir(project->dir);
    for (const ScriptEntry &script : project->scripts) {
        addItem(script.name);
        const int index = count() - 1;
        setItemData(index, QDir::cleanPath(dir.absoluteFilePath(script.path)), PathRole);
        setItemData(index, script.name, NameRole);
        setItemData(index, script.path, Qt::ToolTipRole);
    }
    const QString defaultPath = project->defaultScriptPath();
    int index = -1;
    if (hadChoice) // the same entry, else one with the same file
        index = chosenName.isEmpty() ? -1 : findData(chosenName, NameRole);
    if (index < 0 && hadChoice)
        index = findData(chosenPath, PathRole);
    if (index < 0 && !project->defaultScript.isEmpty())
        index = findData(project->defaultScript, NameRole);
    if (index < 0 && !defaultPath.isEmpty()) {
        const QString path = QDir::cleanPath(QFileInfo(defaultPath).absoluteFilePath());
        index = findData(path, PathRole);
        if (index < 0) { // a default script that is no entry of "scripts"
            addItem(dir.relativeFilePath(path));
            index = count() - 1;
            setItemData(index, path, PathRole);
            setItemData(index, dir.relativeFilePath(path), Qt::ToolTipRole);
        }
    }
    setCurrentIndex(index);
    updateToolTip();
}

bool ScriptBox::selectPath(const QString &path)
{
    if (currentPath() == QDir::cleanPath(path))
        return true; // two entries may share a file: keep the chosen one
    const int index = findData(QDir::cleanPath(path), PathRole);
    if (index >= 0)
        setCurrentIndex(index);
    return index >= 0;
}
