// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Seed 003's API on `toolstudio serve` as the programmatic suites drive it
// (tst_programmatic, tst_programmaticsessions, tst_programmaticrestart): their
// initTestCase, a project with no tools of its own, POSTs with curl, and a session's
// continuations.
#pragma once

#include "clirunner.h"
#include "serverprocess.h"
#include "testfiles.h"

#include <QByteArray>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <string>

/// A project with no tools of its own: a served session's tools are the request's.
inline void writeEmptyProject(const QString &dir)
{
    QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"), "{\"name\": \"served\", \"tools\": []}\n"));
}

/// A suite's initTestCase(), all of it: standard paths in test mode, the built binary
/// (CTest sets TOOLSTUDIO_BINARY) and curl checked (without curl the suite is skipped:
/// its rows drive the server with the real curl) and, given `dir` and `server`, the empty
/// project in `dir` served by `server` for the rows that share it.
inline void initProgrammaticTestCase(const QTemporaryDir *dir = nullptr, Server *server = nullptr)
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(!toolstudioBinary().isEmpty(), "TOOLSTUDIO_BINARY is not set (run through ctest)");
    if (QStandardPaths::findExecutable(QStringLiteral("curl")).isEmpty())
        QSKIP("curl is not installed (apt-get install curl): these tests drive the server with the real curl");
    if (!dir || !server)
        return;
    writeEmptyProject(dir->path());
    QVERIFY2(server->start(dir->path()), server->err.constData());
}

/// A POST with curl, the body from stdin.
inline HttpReply post(const Server &server, const char *path, const nlohmann::json &body)
{
    return curl({QStringLiteral("-X"), QStringLiteral("POST"), QStringLiteral("-H"),
                 QStringLiteral("Content-Type: application/json"), QStringLiteral("--data-binary"),
                 QStringLiteral("@-"), server.url(path)},
                QByteArray::fromStdString(body.dump()));
}

/// One tool `step(n)` the client answers; the program calls it twice in a row.
inline nlohmann::json twoStepRequest(const std::string &extraCode = {})
{
    return {{"code", "a = step(n=1)\nb = step(n=2)\n" + extraCode + "print(a, b)\n"},
            {"tools", {{{"name", "step"}, {"parameters", {{"type", "object"}}}}}}};
}

/// The continuation of `reply`'s session: its id and token, and `results` for its calls.
inline nlohmann::json continuation(const HttpReply &reply, const nlohmann::json &results)
{
    return {{"session_id", reply.body.value("session_id", "")},
            {"continuation_token", reply.body.value("continuation_token", "")},
            {"tool_results", results}};
}

/// Continues `reply` with `result` for call `callId`; the session must complete.
inline void continueToTheEnd(const Server &server, const HttpReply &reply, const char *callId, int result,
                             const QString &stdoutText, int callsMade)
{
    HttpReply done
        = post(server, "/v1/exec/programmatic", continuation(reply, {{{"call_id", callId}, {"result", result}}}));
    QCOMPARE(text(done.body.value("status", "")), QStringLiteral("completed"));
    QCOMPARE(text(done.body.value("stdout", "")), stdoutText);
    QCOMPARE(done.body.value("tool_calls_made", -1), callsMade);
}
