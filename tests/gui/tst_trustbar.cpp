// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The restricted-mode bar (docs/sandbox.md "Trust before code runs"): opening an
// untrusted project shows what would run, imports no tool file and disables Run and
// Try it; Trust Project records the grant and loads the tools; Stay Restricted keeps
// the project browse-only.
#include "project/projecttrust.h"
#include "python/toolworker.h"
#include "testfiles.h"
#include "ui/mainwindow.h"
#include "ui/runcommands.h"
#include "windowfixture.h"

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QtTest>

namespace {

const QByteArray Manifest
    = "{\"name\": \"restricted\", \"scripts\": [{\"path\": \"scripts/main.py\"}],\n"
      " \"tools\": [{\"name\": \"lookup\", \"handler\": {\"kind\": \"command\", \"command\": [\"python3\", \"lookup.py\"]}}]}";

const QByteArray ToolFile = "MARK = 'top-level code ran'\n"
                            "class Tools:\n"
                            "    def ping(self) -> str:\n"
                            "        \"\"\"Says what ran.\"\"\"\n"
                            "        return MARK\n";

} // namespace

class TstTrustBar
    : public QObject
    , protected WindowFixture
{
    Q_OBJECT

private:
    QString m_project;

    QWidget *bar() const { return m_window->findChild<QWidget *>(QStringLiteral("trustBar")); }
    QPushButton *button(const char *name) const { return m_window->findChild<QPushButton *>(QLatin1String(name)); }

private Q_SLOTS:
    void initTestCase() { initWindowTestCase(Names::Suite); }

    void init()
    {
        initWindow();
        m_project = m_scratch->path() + QStringLiteral("/restricted");
        QVERIFY(writeFile(m_project + QStringLiteral("/toolstudio.json"), Manifest));
        QVERIFY(writeFile(m_project + QStringLiteral("/scripts/main.py"), "print('hi')\n"));
        QVERIFY(writeFile(m_project + QStringLiteral("/tools/mark.py"), ToolFile));
        QFile::remove(ProjectTrust::storePath());
    }

    void cleanup()
    {
        closeWindow();
        QFile::remove(ProjectTrust::storePath());
    }

    void untrustedProjectShowsTheBarAndRunsNothing()
    {
        QVERIFY(m_window->openProject(m_project)); // not openTrusted: that is the point
        QVERIFY(bar());
        QVERIFY(bar()->isVisible());
        auto *text = m_window->findChild<QLabel *>(QStringLiteral("trustBarText"));
        QVERIFY(text);
        QVERIFY2(text->text().contains(QStringLiteral("Python tool file: tools/mark.py")), qPrintable(text->text()));
        QCOMPARE(text->toolTip(),
                 QStringLiteral("Python interpreter: %1\nPython tool file: tools/mark.py\n"
                                "command tool 'lookup': [\"python3\",\"lookup.py\"]")
                     .arg(ToolWorker::pythonFor(m_project)));
        QVERIFY(!m_window->project()->trusted);
        QVERIFY(!m_window->project()->tool(QStringLiteral("ping")));
        QVERIFY(!m_window->runCommands()->runAction()->isEnabled());
        QVERIFY2(m_window->runCommands()->runAction()->toolTip().contains(QStringLiteral("not trusted")),
                 qPrintable(m_window->runCommands()->runAction()->toolTip()));
        QVERIFY(!m_window->runCommands()->run());
    }

    void trustProjectLoadsTheTools()
    {
        QVERIFY(m_window->openProject(m_project));
        QVERIFY(button("trustProjectButton"));
        button("trustProjectButton")->click();
        QVERIFY(waitForPythonTools(*m_window));
        QVERIFY(!bar()->isVisible());
        QVERIFY(m_window->project()->trusted);
        QVERIFY2(m_window->project()->tool(QStringLiteral("ping")),
                 qPrintable(m_window->project()->problems().join(QLatin1Char('\n'))));
        QVERIFY(m_window->runCommands()->runAction()->isEnabled());
        QCOMPARE(ProjectTrust::check(m_project).state, ProjectTrust::State::Trusted);

        // Opened again: trusted, no bar.
        QVERIFY(m_window->openProject(m_project));
        QVERIFY(!bar()->isVisible());

        // A new tool file changes what would run: restricted again, the bar says what changed.
        QVERIFY(writeFile(m_project + QStringLiteral("/tools/added.py"), ToolFile));
        QVERIFY(m_window->reloadProject());
        QVERIFY(bar()->isVisible());
        QVERIFY(!m_window->project()->trusted);
        QVERIFY(!m_window->runCommands()->runAction()->isEnabled());
        auto *text = m_window->findChild<QLabel *>(QStringLiteral("trustBarText"));
        QVERIFY2(
            text->text().contains(QStringLiteral("changed since you trusted it: + Python tool file: tools/added.py")),
            qPrintable(text->text()));
    }

    void stayRestrictedKeepsItBrowseOnly()
    {
        QVERIFY(m_window->openProject(m_project));
        button("stayRestrictedButton")->click();
        QVERIFY(!bar()->isVisible());
        QVERIFY(!m_window->project()->trusted);
        QVERIFY(!m_window->runCommands()->runAction()->isEnabled());
        QCOMPARE(ProjectTrust::check(m_project).state, ProjectTrust::State::NotTrusted);
        // The choice holds while toolstudio.json reloads, until the project is opened again.
        QVERIFY(m_window->reloadProject());
        QVERIFY(!bar()->isVisible());
        QVERIFY(m_window->openProject(m_project));
        QVERIFY(bar()->isVisible());
    }
};

QTEST_MAIN(TstTrustBar)
#include "tst_trustbar.moc"
