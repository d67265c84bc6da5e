// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The project the MCP server's suites serve (tst_mcpserver and its siblings, tst_mcpsdk2).
#pragma once

#include "testfiles.h"

#include <QFile>
#include <QString>
#include <QTest>

#include <nlohmann/json.hpp>

#include <string>

#include <cstdio>

/// Writes `dir`/toolstudio.json with four tools, listed in this order: `add` (mock, an
/// object output schema: structuredContent), `approve` (manual: waits for a person),
/// `fail` (mock, a tool error "out of stock") and `huge` (mock, a reply of 1.5 MiB, over
/// the 1 MiB cap).
inline void writeServedProject(const QString &dir)
{
    using nlohmann::json;
    const std::string huge(1536 * 1024, 'x');
    const json project
        = {{"name", "served"},
           {"retry", {{"max_attempts", 1}}},
           {"tools",
            {{{"name", "add"},
              {"description", "Adds two integers"},
              {"input_schema",
               {{"type", "object"},
                {"properties", {{"a", {{"type", "integer"}}}, {"b", {{"type", "integer"}}}}},
                {"required", {"a", "b"}}}},
              {"output_schema",
               {{"type", "object"}, {"properties", {{"sum", {{"type", "integer"}}}}}, {"required", {"sum"}}}},
              {"handler", {{"kind", "mock"}, {"sequence", {{{"result", {{"sum", 5}}}}}}}}},
             {{"name", "approve"},
              {"description", "A person approves an item"},
              {"input_schema", {{"type", "object"}, {"properties", {{"item", {{"type", "string"}}}}}}},
              {"handler", {{"kind", "manual"}}}},
             {{"name", "fail"},
              {"description", "Fails"},
              {"input_schema", {{"type", "object"}}},
              {"handler", {{"kind", "mock"}, {"sequence", {{{"error", "out of stock"}}}}}}},
             {{"name", "huge"},
              {"description", "Returns too much"},
              {"input_schema", {{"type", "object"}}},
              {"handler", {{"kind", "mock"}, {"sequence", {{{"result", huge}}}}}}}}}};
    QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"), QByteArray::fromStdString(project.dump(1))));
}

/// The served project's manifest (writeServedProject) as JSON, to be changed and written back.
inline nlohmann::json servedManifest(const QString &dir)
{
    QFile file(dir + QStringLiteral("/toolstudio.json"));
    if (!file.open(QIODevice::ReadOnly))
        return nullptr;
    return nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
}

/// Writes `manifest` as an editor saves: a new file renamed over toolstudio.json.
inline bool replaceManifest(const QString &dir, const QByteArray &text)
{
    const QString temporary = dir + QStringLiteral("/.toolstudio.json.new");
    return writeFile(temporary, text)
        && ::rename(QFile::encodeName(temporary).constData(),
                    QFile::encodeName(dir + QStringLiteral("/toolstudio.json")).constData())
        == 0;
}

/// An `echo` tool (mock, result "hi") added to the served project's manifest.
inline nlohmann::json withEchoTool(nlohmann::json manifest)
{
    manifest["tools"].push_back({{"name", "echo"},
                                 {"description", "Says hi"},
                                 {"input_schema", {{"type", "object"}}},
                                 {"handler", {{"kind", "mock"}, {"sequence", {{{"result", "hi"}}}}}}});
    return manifest;
}
