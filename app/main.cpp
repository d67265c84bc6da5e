// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/runcommand.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace {

void setIdentity()
{
    QCoreApplication::setApplicationName(QStringLiteral("Tool Studio"));
    QCoreApplication::setOrganizationName(QStringLiteral("toolstudio"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1.0"));
}

// German UI when the locale asks for it; Qt's own strings (dialog buttons) too.
void installTranslators(QCoreApplication &app)
{
    const QLocale locale;
    if (locale.language() != QLocale::German)
        return;
    auto *studio = new QTranslator(&app);
    if (studio->load(QStringLiteral(":/i18n/toolstudio_de.qm")))
        QCoreApplication::installTranslator(studio);
    auto *qt = new QTranslator(&app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
}

} // namespace

int main(int argc, char *argv[])
{
    // Headless: `toolstudio run PROJECT [SCRIPT] [--answers FILE] [--json]` needs no display.
    if (argc > 1 && qstrcmp(argv[1], "run") == 0) {
        QCoreApplication app(argc, argv);
        setIdentity();
        installTranslators(app);
        return runCommand(QCoreApplication::arguments().mid(2));
    }

    QApplication app(argc, argv);
    setIdentity();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/toolstudio.svg")));
    installTranslators(app);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "Build and debug LLM agent tools and the scripts that call them.\n"
                                            "Headless: toolstudio run PROJECT [SCRIPT] [--answers FILE] [--json]"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("project"),
                                 QCoreApplication::translate("main", "Project folder to open."),
                                 QStringLiteral("[PROJECT]"));
    parser.process(app);

    MainWindow window;
    window.show();
    const QStringList positional = parser.positionalArguments();
    if (!positional.isEmpty())
        window.openProject(QDir::current().absoluteFilePath(positional.first()));
    return QApplication::exec();
}
