// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/commands.h"
#include "cli/helpcommand.h"
#include "llm/outgoingnetwork.h"
#include "mcp/mcpserverpool.h"
#include "ui/mainwindow.h"
#include "ui/settings.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QStatusBar>
#include <QTranslator>

namespace {

void setIdentity()
{
    QCoreApplication::setApplicationName(QStringLiteral("Tool Studio"));
    QCoreApplication::setOrganizationName(QStringLiteral("toolstudio"));
    QCoreApplication::setApplicationVersion(QStringLiteral(TOOLSTUDIO_VERSION));
}

// German UI when the locale (or the language setting: "de", "en") asks for it; Qt's
// own strings (dialog buttons) too.
void installTranslators(QCoreApplication &app, const QString &language = QString())
{
    const QLocale locale = language.isEmpty() ? QLocale() : QLocale(language);
    if (locale.language() != QLocale::German)
        return;
    QLocale::setDefault(locale); // numbers and sizes as the language the window speaks
    auto *studio = new QTranslator(&app);
    if (studio->load(QStringLiteral(":/i18n/toolstudio_de.qm")))
        QCoreApplication::installTranslator(studio);
    // Qt's own (qt6-translations-l10n) and QScintilla's (the editor's context menu).
    for (const QString &catalogue : {QStringLiteral("qtbase"), QStringLiteral("qscintilla")}) {
        auto *qt = new QTranslator(&app);
        if (qt->load(locale, catalogue, QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(qt);
    }
}

void setUpParser(QCommandLineParser &parser)
{
    parser.setApplicationDescription(
        QCoreApplication::translate("main",
                                    "Build and debug LLM agent tools and the scripts that call them.\n"
                                    "Every command and its options: toolstudio help"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("project"),
                                 QCoreApplication::translate("main", "Project folder to open."),
                                 QStringLiteral("[PROJECT]"));
}

bool isHelpOption(const QByteArray &arg)
{
    return arg == "-h" || arg == "--help" || arg == "-?" || arg == "--help-all";
}

// --help and --version print and exit; they must work without a display.
bool asksForInfoOnly(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (isHelpOption(arg) || arg == "-v" || arg == "--version")
            return true;
    }
    return false;
}

bool asksForHelp(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i)
        if (isHelpOption(QByteArray(argv[i])))
            return true;
    return false;
}

bool hasDisplay()
{
    return qEnvironmentVariableIsSet("DISPLAY") || qEnvironmentVariableIsSet("WAYLAND_DISPLAY")
        || qEnvironmentVariableIsSet("QT_QPA_PLATFORM");
}

/// The system proxy and extra CA certificates for the studio's own requests; a CA file
/// that cannot be used is said on stderr and returned for the window's status bar.
QString setUpNetwork()
{
    QString error;
    if (OutgoingNetwork::install(&error))
        return {};
    const QString said = QCoreApplication::translate("main", "Extra CA certificates not loaded: %1").arg(error);
    qWarning("toolstudio: %s", qPrintable(said));
    return said;
}

} // namespace

int main(int argc, char *argv[])
{
    // Headless: `toolstudio run|runs|replay|resume|answer …` needs no display.
    if (argc > 1 && isHeadlessCommand(argv[1])) {
        QCoreApplication app(argc, argv);
        setIdentity();
        installTranslators(app);
        setUpNetwork();
        const int code = *runHeadlessCommand(QString::fromLocal8Bit(argv[1]), QCoreApplication::arguments().mid(2));
        McpServerPool::closeAll();
        return code;
    }
    if (asksForInfoOnly(argc, argv) || !hasDisplay()) {
        QCoreApplication app(argc, argv);
        setIdentity();
        installTranslators(app);
        if (asksForHelp(argc, argv)) // every command too, not only the window's options
            return helpCommand({});
        QCommandLineParser parser;
        setUpParser(parser);
        parser.process(app); // exits on --help/--version and on unknown options
        qCritical("%s",
                  qPrintable(QCoreApplication::translate(
                      "main",
                      "toolstudio: no display (DISPLAY and WAYLAND_DISPLAY are unset).\n"
                      "To run a script without a window: toolstudio run PROJECT [SCRIPT]")));
        return 2;
    }

    QApplication app(argc, argv);
    setIdentity();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/toolstudio.svg")));
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.toolstudio.ToolStudio"));
    installTranslators(app, Settings::instance()->language());

    QCommandLineParser parser;
    setUpParser(parser);
    parser.process(app);

    const QString networkProblem = setUpNetwork();
    MainWindow window;
    window.show();
    if (!networkProblem.isEmpty())
        window.statusBar()->showMessage(networkProblem);
    const QStringList positional = parser.positionalArguments();
    if (!positional.isEmpty())
        window.openProject(QDir::current().absoluteFilePath(positional.first()));
    return QApplication::exec();
}
