// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "scripttabs.h"

#include "presenterview.h"
#include "scripteditor.h"
#include "settings.h"

#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QInputDialog>
#include <QMessageBox>
#include <QPointer>

ScriptTabs::ScriptTabs(QFileSystemWatcher *watcher, Reporter report, QWidget *parent)
    : QTabWidget(parent)
    , m_watcher(watcher)
    , m_report(std::move(report))
{
    setObjectName(QStringLiteral("editorTabs"));
    setTabsClosable(true);
    setMovable(true);
    setDocumentMode(true);
    connect(Settings::instance(), &Settings::changed, this, [this](const QString &key) {
        if (key == QLatin1String("editorFont") || key == QLatin1String("tabWidth")
            || key == QLatin1String("zoomPercent"))
            for (ScriptEditor *e : editors())
                applyEditorSettings(e);
    });
}

ScriptEditor *ScriptTabs::current() const
{
    return qobject_cast<ScriptEditor *>(currentWidget());
}

ScriptEditor *ScriptTabs::editorFor(const QString &path) const
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (ScriptEditor *e : editors())
        if (e->filePath() == absolute)
            return e;
    return nullptr;
}

QList<ScriptEditor *> ScriptTabs::editors() const
{
    QList<ScriptEditor *> list;
    for (int i = 0; i < count(); ++i)
        if (auto *e = qobject_cast<ScriptEditor *>(widget(i)))
            list.append(e);
    return list;
}

bool ScriptTabs::openFile(const QString &path, QString *error)
{
    if (ScriptEditor *existing = editorFor(path)) {
        setCurrentWidget(existing);
        return true;
    }
    auto *e = new ScriptEditor(this);
    e->setObjectName(QStringLiteral("scriptEditor"));
    if (!e->loadFile(path, error)) {
        delete e;
        return false;
    }
    applyEditorSettings(e);
    const int index = addTab(e, QFileInfo(path).fileName());
    setTabToolTip(index, QDir::toNativeSeparators(e->filePath()));
    connect(e, &QsciScintilla::modificationChanged, this, [this, e](bool modified) {
        const int i = indexOf(e);
        if (i >= 0)
            setTabText(i, QFileInfo(e->filePath()).fileName() + (modified ? QStringLiteral(" *") : QString()));
        if (e == current())
            Q_EMIT currentModifiedChanged(modified);
    });
    m_watcher->addPath(e->filePath());
    setCurrentIndex(index);
    return true;
}

bool ScriptTabs::closeTab(int index)
{
    auto *e = qobject_cast<ScriptEditor *>(widget(index));
    if (!e)
        return false;
    if (!maybeSave(e))
        return false;
    m_watcher->removePath(e->filePath());
    removeTab(index);
    e->deleteLater();
    return true;
}

void ScriptTabs::closeAll()
{
    while (count() > 0) {
        QWidget *w = widget(0);
        removeTab(0);
        w->deleteLater();
    }
}

bool ScriptTabs::maybeSaveAll()
{
    for (ScriptEditor *e : editors())
        if (!maybeSave(e))
            return false;
    return true;
}

bool ScriptTabs::maybeSave(ScriptEditor *e)
{
    if (!e->isModified())
        return true;
    setCurrentWidget(e);
    const auto choice
        = QMessageBox::warning(window(), tr("Unsaved Changes"),
                               tr("%1 has unsaved changes. Save them?").arg(QFileInfo(e->filePath()).fileName()),
                               QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (choice == QMessageBox::Save) {
        QString error;
        if (!e->save(&error)) {
            m_report(tr("Cannot Save Script"), error);
            return false;
        }
        return true;
    }
    if (choice == QMessageBox::Discard) {
        e->setModified(false);
        return true;
    }
    return false;
}

bool ScriptTabs::saveModified()
{
    for (ScriptEditor *e : editors()) {
        QString error;
        if (e->isModified() && !e->save(&error)) {
            m_report(tr("Cannot Save Script"), error);
            return false;
        }
    }
    return true;
}

void ScriptTabs::setToolCompletions(const QStringList &entries)
{
    for (ScriptEditor *e : editors())
        e->setToolCompletions(entries);
}

void ScriptTabs::applyEditorSettings(ScriptEditor *editor)
{
    const Settings *settings = Settings::instance();
    // With View ▸ Zoom, as the rest of the window.
    editor->setEditorFont(PresenterView::zoomed(settings->editorFont(), settings->zoomPercent()));
    editor->setTabSize(settings->tabWidth());
}

void ScriptTabs::goToLine()
{
    ScriptEditor *e = current();
    if (!e)
        return;
    int line = 0, index = 0;
    e->getCursorPosition(&line, &index);
    bool ok = false;
    const int target = QInputDialog::getInt(window(), tr("Go to Line"), tr("Line (1–%1):").arg(e->lines()), line + 1, 1,
                                            qMax(1, e->lines()), 1, &ok);
    if (!ok)
        return;
    e->setCursorPosition(target - 1, 0);
    e->ensureLineVisible(target - 1);
    e->setFocus();
}

void ScriptTabs::reloadChanged(const QString &path)
{
    ScriptEditor *e = editorFor(path);
    if (!e || !e->changedOnDisk())
        return;
    if (!e->isModified()) {
        int line = 0, index = 0;
        e->getCursorPosition(&line, &index);
        QString error;
        if (e->loadFile(path, &error)) {
            e->setCursorPosition(line, index);
            Q_EMIT notice(tr("%1 changed on disk and was reloaded").arg(QFileInfo(path).fileName()), 5000);
        }
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Question, tr("File Changed on Disk"),
                                tr("%1 was changed outside Tool Studio, and you have unsaved changes. "
                                   "Reload it and lose your changes?")
                                    .arg(QFileInfo(path).fileName()),
                                QMessageBox::Yes | QMessageBox::No, window());
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextFormat(Qt::PlainText); // a file name is data, never markup
    box->setDefaultButton(QMessageBox::No);
    QPointer<ScriptEditor> guard(e);
    connect(box, &QMessageBox::finished, this, [guard, path](int result) {
        if (guard && result == QMessageBox::Yes)
            guard->loadFile(path);
    });
    box->open();
}
