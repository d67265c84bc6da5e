// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// libFuzzer target: an MCP config to import (Tools ▸ Import MCP Config…, `toolstudio mcp
// import`: Claude Desktop, Cursor, Claude Code, VS Code with comments, toolstudio.json)
// through McpConfigImport::read and apply. Checks that nothing crashes, that a refusal
// says why, that every server read has a name the studio accepts and an entry the
// manifest loader reads, that every note is printable and bounded, that the manifest
// apply() writes reads back, and that no imported server names a secret the project
// had before (ANTHROPIC_API_KEY and TOKEN here) nor changes one.

#include "jsoninput.h"
#include "mcp/mcpconfigimport.h"
#include "mcp/mcpserverlaunch.h"
#include "project/manifestreader.h"
#include "project/mcpserverconfig.h"
#include "python/secrets.h"

#include "fuzzcheck.h"

#include <QStringList>

namespace {

void checkPrintable(const QString &line)
{
    FuzzCheck::check(line.size() < 2000);
    for (const QChar c : line)
        FuzzCheck::check(c.unicode() >= 0x20 && c.unicode() != 0x7f);
}

bool loads(const nlohmann::ordered_json &servers)
{
    try {
        McpServerConfig::parseAll(nlohmann::json::parse(servers.dump()));
        return true;
    } catch (const ManifestReader::ManifestError &) {
        return false;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    QString error;
    const auto config = McpConfigImport::read(FuzzCheck::bytes(data, size), &error);
    if (!config) {
        FuzzCheck::check(!error.isEmpty());
        return 0;
    }
    for (const QString &line : config->skipped)
        checkPrintable(line);
    QStringList fileValues; // the secrets' values the file itself gave
    for (const McpConfigImport::Server &server : config->servers) {
        fileValues += server.secrets.values();
        FuzzCheck::check(McpServerConfig::isValidName(server.name));
        FuzzCheck::check(server.notes.size() <= 30);
        for (const QString &note : server.notes)
            checkPrintable(note);
    }

    Secrets secrets = Secrets::load(FuzzCheck::scratchDir());
    FuzzCheck::check(secrets.set(QStringLiteral("ANTHROPIC_API_KEY"), QStringLiteral("mine")));
    FuzzCheck::check(secrets.set(QStringLiteral("TOKEN"), QStringLiteral("mine too")));
    nlohmann::ordered_json manifest = nlohmann::ordered_json::parse(
        R"({"name": "p", "mcp_servers": {"own": {"command": "x", "env": {"K": "${secret:TOKEN}"}}}})");
    McpConfigImport::Outcome outcome;
    if (!McpConfigImport::apply(manifest, secrets, *config, true, &outcome, &error)) {
        FuzzCheck::check(!error.isEmpty());
        return 0;
    }
    FuzzCheck::check(secrets.value(QStringLiteral("ANTHROPIC_API_KEY")) == QStringLiteral("mine"));
    FuzzCheck::check(secrets.value(QStringLiteral("TOKEN")) == QStringLiteral("mine too"));
    const std::string text = manifest.dump(2);
    JsonInput::Problem problem;
    FuzzCheck::check(!JsonInput::read<nlohmann::ordered_json>(text, &problem).is_discarded());
    FuzzCheck::check(loads(manifest["mcp_servers"]));
    for (const QString &name : outcome.added + outcome.replaced) {
        const nlohmann::ordered_json &entry = manifest["mcp_servers"][name.toStdString()];
        for (const char *key : {"env", "headers"}) {
            if (!entry.contains(key))
                continue;
            for (const auto &[variable, value] : entry[key].items()) {
                const QString expanded = QString::fromStdString(value.get<std::string>());
                for (auto it = McpServerLaunch::secretReference().globalMatch(expanded); it.hasNext();) {
                    // The project's own secret only with a value the file gave itself.
                    const QString secret = it.next().captured(1);
                    if (secret == QLatin1String("ANTHROPIC_API_KEY") || secret == QLatin1String("TOKEN"))
                        FuzzCheck::check(fileValues.contains(secrets.value(secret)));
                }
            }
        }
    }
    return 0;
}
