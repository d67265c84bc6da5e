// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Issue 20 item 9: the German window speaks German, strings built at run time included
// (tst_translations checks the sources; this checks what the window really shows).
// With the studio's German translation loaded, an example is run and every text the
// window holds — actions, menus, buttons, labels, tabs, dock titles, placeholders, tool
// tips, the status bar and what its lists and tables show — is split into words. A word
// that occurs in the English sources of toolstudio_de.ts but in none of its German
// translations, and not in the project's own files (tool names, descriptions, the
// script's output), is English that escaped tr().
#include "journal/journalhousekeeping.h"
#include "testfiles.h"
#include "ui/cleanuprunsdialog.h"
#include "ui/newfiledialog.h"
#include "ui/newprojectdialog.h"
#include "ui/runcommands.h"
#include "ui/secretsdialog.h"
#include "ui/serveprojectdialog.h"
#include "ui/settings.h"
#include "ui/settingsdialog.h"
#include "ui/shortcutsdialog.h"
#include "windowfixture.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QApplication>
#include <QDirIterator>
#include <QGroupBox>
#include <QHeaderView>
#include <QLibraryInfo>
#include <QMainWindow>
#include <QMenu>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTabBar>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QTranslator>
#include <QXmlStreamReader>

namespace {

const QRegularExpression &wordPattern()
{
    // Words of three letters or more; ALLCAPS (USD, JSON) and identifiers are not prose.
    static const QRegularExpression word(QStringLiteral(R"((?<![\w./$-])[A-Za-z][a-z]{2,}(?![\w/-]))"));
    return word;
}

QSet<QString> wordsOf(const QString &text)
{
    QSet<QString> words;
    auto it = wordPattern().globalMatch(text);
    while (it.hasNext())
        words.insert(it.next().captured(0));
    return words;
}

/// The words of the .ts file's English sources that none of its German translations has.
QSet<QString> englishOnlyWords(const QString &tsPath)
{
    QFile file(tsPath);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QSet<QString> english;
    QSet<QString> german;
    QXmlStreamReader xml(&file);
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == QLatin1String("source")) {
            english.unite(wordsOf(xml.readElementText()));
        } else if (xml.name() == QLatin1String("translation") || xml.name() == QLatin1String("numerusform")) {
            german.unite(wordsOf(xml.readElementText(QXmlStreamReader::IncludeChildElements)));
        }
    }
    return english.subtract(german);
}

/// Every word in the files of project `dir` (its names, descriptions, scripts): data,
/// not the window's language.
QSet<QString> projectWords(const QString &dir)
{
    QSet<QString> words;
    QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        if (!it.fileInfo().absoluteFilePath().contains(QLatin1String("/.toolstudio/"))
            && file.open(QIODevice::ReadOnly))
            words.unite(wordsOf(QString::fromUtf8(file.readAll())));
    }
    return words;
}

QString plain(const QString &text)
{
    QString out = Qt::mightBeRichText(text) ? QTextDocumentFragment::fromHtml(text).toPlainText() : text;
    return out.remove(QLatin1Char('&'));
}

} // namespace

class TstGermanWindow
    : public QObject
    , protected WindowFixture
{
    Q_OBJECT

    QSet<QString> m_englishOnly;

    /// Every text `root` (the window, or a dialog) shows, each with where it is
    /// ("QPushButton resumeRun").
    static QList<std::pair<QString, QString>> textsOf(QWidget *root)
    {
        QList<std::pair<QString, QString>> texts;
        const auto add = [&texts](const QObject *where, const QString &text) {
            if (!text.trimmed().isEmpty())
                texts.append({QStringLiteral("%1 %2").arg(QString::fromLatin1(where->metaObject()->className()),
                                                          where->objectName()),
                              plain(text)});
        };
        QList<QWidget *> widgets = root->findChildren<QWidget *>();
        widgets.prepend(root);
        add(root, root->windowTitle());
        for (const QWidget *widget : std::as_const(widgets)) {
            add(widget, widget->toolTip());
            for (const QAction *action : widget->actions()) {
                add(action, action->text());
                add(action, action->toolTip());
            }
            if (const auto *button = qobject_cast<const QAbstractButton *>(widget))
                add(widget, button->text());
            else if (const auto *label = qobject_cast<const QLabel *>(widget))
                add(widget, label->text());
            else if (const auto *menu = qobject_cast<const QMenu *>(widget))
                add(widget, menu->title());
            else if (const auto *dock = qobject_cast<const QDockWidget *>(widget))
                add(widget, dock->windowTitle());
            else if (const auto *group = qobject_cast<const QGroupBox *>(widget))
                add(widget, group->title());
            else if (const auto *line = qobject_cast<const QLineEdit *>(widget))
                add(widget, line->placeholderText());
            else if (const auto *tabs = qobject_cast<const QTabBar *>(widget))
                for (int i = 0; i < tabs->count(); ++i) {
                    add(widget, tabs->tabText(i));
                    add(widget, tabs->tabToolTip(i));
                }
            else if (const auto *view = qobject_cast<const QAbstractItemView *>(widget); view && view->model()) {
                const QAbstractItemModel *model = view->model();
                for (int column = 0; column < model->columnCount(); ++column) {
                    add(widget, model->headerData(column, Qt::Horizontal).toString());
                    for (int row = 0; row < std::min(model->rowCount(), 50); ++row) {
                        add(widget, model->index(row, column).data().toString());
                        add(widget, model->index(row, column).data(Qt::ToolTipRole).toString());
                    }
                }
            }
        }
        if (auto *window = qobject_cast<QMainWindow *>(root))
            add(window->statusBar(), window->statusBar()->currentMessage());
        return texts;
    }

    /// "WHERE: TEXT (WORD)" for each text of `root` (the window when null) with a word of
    /// the English sources only.
    QStringList englishIn(const QSet<QString> &dataWords, QWidget *root = nullptr) const
    {
        QStringList found;
        for (const auto &[where, text] : textsOf(root ? root : m_window.get()))
            for (const QString &word : wordsOf(text))
                if (m_englishOnly.contains(word) && !dataWords.contains(word)) {
                    found.append(QStringLiteral("%1: \"%2\" (%3)").arg(where, text.left(120), word));
                    break;
                }
        found.removeDuplicates();
        return found;
    }

private Q_SLOTS:
    void initTestCase()
    {
        initWindowTestCase();
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        auto *studio = new QTranslator(qApp);
        QVERIFY2(studio->load(qEnvironmentVariable("TOOLSTUDIO_DE_QM")),
                 "TOOLSTUDIO_DE_QM must name the built toolstudio_de.qm (CTest sets it)");
        QCoreApplication::installTranslator(studio);
        // As main.cpp does: Qt's own strings (the tab bar's "Close Tab") are in German
        // only with Debian's qt6-translations-l10n, which toolstudio.sh installs.
        auto *qt = new QTranslator(qApp);
        QVERIFY2(qt->load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                          QLibraryInfo::path(QLibraryInfo::TranslationsPath)),
                 "qtbase_de.qm is missing: install qt6-translations-l10n");
        QCoreApplication::installTranslator(qt);
        m_englishOnly = englishOnlyWords(sourceTreeDir() + QStringLiteral("/translations/toolstudio_de.ts"));
        // Words the sources use that German shares are in a translation too; a handful of
        // English-only words is what makes the check able to fail.
        QVERIFY2(m_englishOnly.size() > 500, qPrintable(QString::number(m_englishOnly.size())));
        QVERIFY(m_englishOnly.contains(QStringLiteral("the")));
        QVERIFY(!m_englishOnly.contains(QStringLiteral("Python")));
    }
    void init() { initWindow(); }
    void cleanup() { closeWindow(); }

    /// The check finds English: a label set without tr() is reported.
    void theCheckFindsEnglish()
    {
        auto *label = new QLabel(QStringLiteral("Waiting for the person"), m_window.get());
        label->setObjectName(QStringLiteral("plantedLabel"));
        const QStringList found = englishIn({}).filter(QStringLiteral("plantedLabel"));
        QCOMPARE(found.size(), 1);
        QVERIFY2(found.first().startsWith(QStringLiteral("QLabel plantedLabel: \"Waiting for the person\" (")),
                 qPrintable(found.first()));
        delete label;
    }

    /// A finished run and a run waiting for a person: nothing English in the window.
    void theWindowSpeaksGerman_data()
    {
        QTest::addColumn<QString>("example");
        QTest::addColumn<bool>("waits");
        QTest::newRow("exchange-rate") << QStringLiteral("exchange-rate") << false;
        QTest::newRow("render-report") << QStringLiteral("render-report") << true;
    }

    void theWindowSpeaksGerman()
    {
        QFETCH(QString, example);
        QFETCH(bool, waits);
        const QString dir = copyExample(example, m_scratch->path());
        QVERIFY(!dir.isEmpty());
        QVERIFY(openTrusted(*m_window, dir));
        const QSet<QString> data = projectWords(dir);
        QStringList found = englishIn(data);
        QVERIFY2(found.isEmpty(), qPrintable(QStringLiteral("before the run:\n") + found.join(QLatin1Char('\n'))));

        QVERIFY(m_window->runCommands()->run());
        if (waits)
            QTRY_COMPARE_WITH_TIMEOUT(pendingCalls().size(), 1, RunTimeoutMs);
        else
            QTRY_VERIFY_WITH_TIMEOUT(!m_window->runController()->isActive(), RunTimeoutMs);
        traceView()->setCurrentIndex(traceView()->model()->index(0, 0));
        QCoreApplication::processEvents();
        QSet<QString> afterRun = data;
        afterRun.unite(projectWords(dir)); // the journal is the run's data
        found = englishIn(afterRun);
        QVERIFY2(found.isEmpty(), qPrintable(QStringLiteral("after the run:\n") + found.join(QLatin1Char('\n'))));
    }

    /// The dialogs of the File, Edit, Tools and Runs menus, as they open.
    void theDialogsSpeakGerman()
    {
        const QString dir = copyExample(QStringLiteral("exchange-rate"), m_scratch->path());
        QVERIFY(openTrusted(*m_window, dir));
        QVERIFY(m_window->runCommands()->run());
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->runController()->isActive(), RunTimeoutMs);
        const QSet<QString> data = projectWords(dir);
        JournalHousekeeping house;
        QString error;
        QVERIFY2(house.open(m_window->project()->journalPath(), &error), qPrintable(error));
        const auto noEdit = [](const QString &, const ProjectWriter::Edit &) { return false; };
        std::vector<std::unique_ptr<QWidget>> dialogs;
        dialogs.push_back(std::make_unique<SettingsDialog>(Settings::instance(), m_window.get()));
        dialogs.push_back(std::make_unique<NewProjectDialog>());
        dialogs.push_back(
            std::make_unique<NewFileDialog>(NewFileDialog::Kind::Tool, m_window->project(), noEdit, m_window.get()));
        dialogs.push_back(
            std::make_unique<NewFileDialog>(NewFileDialog::Kind::Script, m_window->project(), noEdit, m_window.get()));
        dialogs.push_back(std::make_unique<SecretsDialog>(dir, m_window.get()));
        dialogs.push_back(std::make_unique<ServeProjectDialog>(m_window.get()));
        dialogs.push_back(std::make_unique<ShortcutsDialog>(m_window.get(), m_window.get()));
        dialogs.push_back(std::make_unique<CleanUpRunsDialog>(house, 4096, m_window.get()));
        QStringList found;
        for (const auto &dialog : dialogs) {
            dialog->show();
            found += englishIn(data, dialog.get());
        }
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TstGermanWindow)
#include "tst_germanwindow.moc"
