// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "commands.h"

#include "answercommand.h"
#include "chatcommand.h"
#include "helpcommand.h"
#include "initcommand.h"
#include "mcpcommand.h"
#include "replaycommand.h"
#include "runcommand.h"
#include "runscommand.h"
#include "servecommand.h"
#include "toolscommand.h"
#include "tracecommand.h"
#include "trustcommand.h"

#include <QByteArray>

#include <array>
#include <utility>

namespace {

using Command = int (*)(const QStringList &);

constexpr std::array<std::pair<const char *, Command>, 13> Commands{{
    {"init", initCommand},
    {"run", runCommand},
    {"runs", runsCommand},
    {"replay", replayCommand},
    {"resume", resumeCommand},
    {"answer", answerCommand},
    {"chat", chatCommand},
    {"serve", serveCommand},
    {"mcp", mcpCommand},
    {"tools", toolsCommand},
    {"trace", traceCommand},
    {"trust", trustCommand},
    {"help", helpCommand},
}};

} // namespace

bool isHeadlessCommand(const char *name)
{
    for (const auto &[command, function] : Commands)
        if (qstrcmp(name, command) == 0)
            return true;
    return false;
}

QStringList headlessCommandNames()
{
    QStringList names;
    for (const auto &[command, function] : Commands)
        names.append(QString::fromLatin1(command));
    return names;
}

std::optional<int> runHeadlessCommand(const QString &name, const QStringList &arguments)
{
    for (const auto &[command, function] : Commands)
        if (name == QLatin1String(command))
            return function(arguments);
    return std::nullopt;
}
