// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "helpmenu.h"

#include "documentationwindow.h"
#include "project/projecttemplates.h"
#include "settings.h"
#include "shortcutsdialog.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QKeySequence>
#include <QMenu>
#include <QMessageBox>
#include <QTextBrowser>
#include <QVBoxLayout>

HelpMenu::HelpMenu(QWidget *window, std::function<void(const QString &, const QString &)> newProject)
    : QObject(window)
    , m_window(window)
    , m_newProject(std::move(newProject))
{
    m_gettingStarted = new QAction(tr("&Getting Started"), this);
    m_gettingStarted->setObjectName(QStringLiteral("gettingStartedAction"));
    m_gettingStarted->setShortcut(QKeySequence::HelpContents);
    m_gettingStarted->setStatusTip(tr("The first ten minutes: make a project, run it, read the trace"));
    connect(m_gettingStarted, &QAction::triggered, this, &HelpMenu::showGettingStarted);

    m_documentation = new QAction(tr("&Documentation"), this);
    m_documentation->setObjectName(QStringLiteral("documentationAction"));
    m_documentation->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F1));
    m_documentation->setStatusTip(tr("The user guide: tools, scripts, the trace, durable runs, MCP, models, serving"));
    connect(m_documentation, &QAction::triggered, this, &HelpMenu::showDocumentation);

    m_shortcuts = new QAction(tr("&Keyboard Shortcuts"), this);
    m_shortcuts->setObjectName(QStringLiteral("shortcutsAction"));
    m_shortcuts->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    m_shortcuts->setStatusTip(tr("Every command that has a shortcut, and its menu"));
    connect(m_shortcuts, &QAction::triggered, this, &HelpMenu::showShortcuts);

    m_examples = new QMenu(tr("&Examples"), window);
    m_examples->setObjectName(QStringLiteral("examplesMenu"));
    for (const ProjectTemplate &example : ProjectTemplates::all()) {
        if (example.name == QLatin1String("empty"))
            continue;
        QAction *action = m_examples->addAction(example.title);
        action->setData(example.name);
        action->setStatusTip(example.description);
        connect(action, &QAction::triggered, this, [this, name = example.name] {
            const QString last = Settings::instance()->lastProjectParent();
            m_newProject(freeFolder(last.isEmpty() ? QDir::homePath() : last, name), name);
        });
    }

    m_about = new QAction(tr("&About Tool Studio"), this);
    m_about->setMenuRole(QAction::AboutRole);
    connect(m_about, &QAction::triggered, this, [this] {
        QMessageBox::about(m_window, tr("About Tool Studio"),
                           tr("<h3>Tool Studio %1</h3><p>Build and debug the tools that LLM agents call, "
                              "and the agent scripts that call them.</p><p>License: GPL-3.0-or-later.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

void HelpMenu::addTo(QMenu *menu)
{
    menu->addAction(m_gettingStarted);
    menu->addAction(m_documentation);
    menu->addAction(m_shortcuts);
    menu->addMenu(m_examples);
    menu->addSeparator();
    menu->addAction(m_about);
}

QString HelpMenu::freeFolder(const QString &parent, const QString &name)
{
    const QDir dir(parent);
    QString candidate = dir.filePath(name);
    for (int n = 2; QFileInfo::exists(candidate); ++n)
        candidate = dir.filePath(QStringLiteral("%1-%2").arg(name).arg(n));
    return candidate;
}

QDialog *HelpMenu::showGettingStarted()
{
    auto *dialog = new QDialog(m_window);
    dialog->setObjectName(QStringLiteral("gettingStartedDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Getting Started"));
    auto *text = new QTextBrowser(dialog);
    text->setObjectName(QStringLiteral("gettingStartedText"));
    text->setOpenExternalLinks(true);
    text->setHtml(
        tr("<h2>Your first ten minutes</h2>"
           "<ol>"
           "<li><b>Make a project.</b> File ▸ New Project… (Ctrl+Shift+N): choose a new folder and a template. "
           "<i>Exchange rate</i> is the smallest that calls a tool; Help ▸ Examples makes a copy of any "
           "example.</li>"
           "<li><b>Run it.</b> Press Run (F5). The script runs in a sandbox; each tool call it makes appears as a "
           "step in the Trace on the right, and what it prints in the Console below the editor.</li>"
           "<li><b>Read a step.</b> Click a row of the trace: the Step tab on the left shows its arguments, "
           "result or error and every attempt. Ctrl+E jumps to the next step that failed.</li>"
           "<li><b>Answer by hand.</b> A manual tool (try the <i>Render report</i> example) waits for a person: "
           "the Pending Calls tab shows a form; fill it and press Send Result.</li>"
           "<li><b>Step through.</b> Step Mode (F10) holds every call before it runs: Continue (F7), answer "
           "instead, or fail it.</li>"
           "<li><b>Add your own.</b> File ▸ New Tool… adds a tool file from a template, File ▸ New Script… an "
           "agent script; both open in the editor.</li>"
           "</ol>"
           "<p>A project you did not make here opens restricted: nothing of it runs until you choose Trust "
           "Project in the bar above the editor.</p>"
           "<p>Every shortcut: Help ▸ Keyboard Shortcuts. From a terminal: <tt>toolstudio help</tt>.</p>")
        + tr("<p>The whole guide, page by page: Help ▸ Documentation (Shift+F1).</p>"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(text, 1);
    layout->addWidget(buttons);
    dialog->resize(620, 560);
    dialog->open();
    return dialog;
}

QDialog *HelpMenu::showShortcuts()
{
    auto *dialog = new ShortcutsDialog(m_window, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
    return dialog;
}

DocumentationWindow *HelpMenu::showDocumentation()
{
    if (!m_documentationWindow)
        m_documentationWindow = new DocumentationWindow(m_window);
    m_documentationWindow->show();
    m_documentationWindow->raise();
    m_documentationWindow->activateWindow();
    return m_documentationWindow;
}
