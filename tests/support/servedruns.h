// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A served project's runs as the built toolstudio shows them (the MCP server's suites,
// tst_mcpserver*): the list, one run's export, and waiting for a step's status.
#pragma once

#include "clirunner.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QString>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

/// The project's runs as `toolstudio runs --json` prints them (one per line, newest first).
inline nlohmann::json runs(const QString &dir)
{
    const CommandResult result = toolstudio({QStringLiteral("runs"), dir, QStringLiteral("--json")});
    nlohmann::json all = nlohmann::json::array();
    for (const QByteArray &line : result.out.split('\n'))
        if (!line.trimmed().isEmpty())
            all.push_back(nlohmann::json::parse(line.toStdString(), nullptr, false));
    return all;
}

/// The run's export (`toolstudio trace export DIR RUN --format json`), null when it fails.
inline nlohmann::json exportedRun(const QString &dir, const QString &run)
{
    const CommandResult result = toolstudio({QStringLiteral("trace"), QStringLiteral("export"), dir, run,
                                             QStringLiteral("--format"), QStringLiteral("json")});
    return result.exitCode == 0 ? nlohmann::json::parse(result.out.toStdString(), nullptr, false) : nlohmann::json();
}

/// Waits up to 30 s until the newest run's step `index` has `status`; that run's export.
inline nlohmann::json waitForStep(const QString &dir, const char *status, std::size_t index = 0)
{
    QElapsedTimer clock;
    clock.start();
    nlohmann::json exported;
    while (clock.elapsed() < 30000) {
        const nlohmann::json all = runs(dir);
        if (all.is_array() && !all.empty()) {
            exported = exportedRun(dir, QString::fromStdString(all[0].value("id", std::string())));
            if (exported.is_object() && exported["steps"].size() > index
                && exported["steps"][index]["status"] == status)
                break;
        }
        QTest::qWait(100);
    }
    return exported;
}
