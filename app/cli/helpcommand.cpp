// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "helpcommand.h"

#include "commands.h"
#include "headlessrun.h"

#include <QCoreApplication>

int helpCommand(const QStringList &arguments)
{
    QStringList commands = headlessCommandNames();
    commands.removeAll(QStringLiteral("help"));
    if (arguments.size() > 1) {
        printLine(stderr,
                  QStringLiteral("toolstudio help: expected at most one COMMAND\nusage: toolstudio help "
                                 "[COMMAND]"));
        return ExitBadInput;
    }
    if (arguments.size() == 1) {
        const QString name = arguments.first();
        if (name == QLatin1String("help")) {
            printLine(stdout,
                      QStringLiteral("usage: toolstudio help [COMMAND]\n\nHow to start the window and every "
                                     "command with its options; with COMMAND, that command's."));
            return ExitCompleted;
        }
        if (!commands.contains(name)) {
            printLine(stderr,
                      QStringLiteral("toolstudio help: no command called '%1' (commands: %2)")
                          .arg(name, commands.join(QStringLiteral(", "))));
            return ExitBadInput;
        }
        return *runHeadlessCommand(name, {QStringLiteral("--help")});
    }
    printLine(stdout,
              QStringLiteral("Tool Studio %1: build and debug the tools LLM agents call and the scripts that call "
                             "them.\n\n"
                             "usage: toolstudio [PROJECT]                 open the window (on PROJECT)\n"
                             "       toolstudio COMMAND [options] ARGS    headless, no display needed\n"
                             "       toolstudio help [COMMAND]            this text, or one command's\n"
                             "       toolstudio --version\n\n"
                             "Commands: %2\n"
                             "Start with: toolstudio init DIR --template exchange-rate, then toolstudio run DIR")
                  .arg(QCoreApplication::applicationVersion(), commands.join(QStringLiteral(", "))));
    for (const QString &name : commands) {
        printLine(stdout, QStringLiteral("\n── toolstudio %1 ──").arg(name));
        runHeadlessCommand(name, {QStringLiteral("--help")});
    }
    return ExitCompleted;
}
