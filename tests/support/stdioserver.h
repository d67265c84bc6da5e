// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// `toolstudio serve --mcp-stdio` driven line by line (the suites of the studio's MCP server).
#pragma once

#include "clirunner.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

/// `toolstudio serve --mcp-stdio DIR --trust`: lines in, lines out.
struct StdioServer
{
    QProcess process;
    QByteArray out;

    bool start(const QString &dir, const QStringList &options = {})
    {
        isolateConfigDir();
        process.setProgram(toolstudioBinary());
        process.setArguments(
            QStringList({QStringLiteral("serve"), QStringLiteral("--mcp-stdio"), dir, QStringLiteral("--trust")})
            + options);
        process.start();
        return process.waitForStarted(30000);
    }
    void send(const QByteArray &line) { process.write(line + '\n'); }
    /// Waits up to 30 s until stderr has had `text` (after the last wait that found it).
    bool said(const QByteArray &text)
    {
        QElapsedTimer clock;
        clock.start();
        while (!err.contains(text) && clock.elapsed() < 30000 && process.state() == QProcess::Running) {
            process.waitForReadyRead(100);
            err += process.readAllStandardError();
        }
        const qsizetype at = err.indexOf(text);
        if (at < 0)
            return false;
        err.remove(0, at + text.size());
        return true;
    }
    QByteArray err; ///< stderr not yet matched by said()
    /// The next line of stdout as JSON (discarded: null after 30 s).
    nlohmann::json next()
    {
        QElapsedTimer clock;
        clock.start();
        while (!out.contains('\n') && clock.elapsed() < 30000 && process.state() == QProcess::Running) {
            process.waitForReadyRead(100);
            out += process.readAllStandardOutput();
        }
        out += process.readAllStandardOutput();
        const qsizetype cut = out.indexOf('\n');
        if (cut < 0)
            return nullptr;
        const QByteArray line = out.left(cut);
        out.remove(0, cut + 1);
        return nlohmann::json::parse(line.toStdString(), nullptr, false);
    }
    nlohmann::json request(const nlohmann::json &message)
    {
        send(QByteArray::fromStdString(message.dump()));
        return next();
    }
    nlohmann::json initialize(const char *version = "2025-06-18", const std::string &clientName = "tst_mcpserver")
    {
        const nlohmann::json reply = request({{"jsonrpc", "2.0"},
                                              {"id", 0},
                                              {"method", "initialize"},
                                              {"params",
                                               {{"protocolVersion", version},
                                                {"capabilities", nlohmann::json::object()},
                                                {"clientInfo", {{"name", clientName}, {"version", "1"}}}}}});
        send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
        return reply;
    }
    /// Closes stdin and waits for the end; the exit code.
    int close()
    {
        process.closeWriteChannel();
        if (!process.waitForFinished(30000))
            process.kill();
        out += process.readAllStandardOutput();
        return process.exitCode();
    }
    ~StdioServer()
    {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(10000);
        }
    }
};
