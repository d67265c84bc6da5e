// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// libFuzzer target: tool definition files from elsewhere (Import Tools…, `toolstudio
// tools import`: Anthropic, OpenAI Chat/Responses, an MCP tools/list result, BFCL function
// documents — JSON lines and plain lists, seeds bfcl-*.json) through
// ToolImport::parseDefinitions, as manual tools and as mocks (auto-detected and --format
// bfcl). Checks that nothing
// crashes, that a refusal says why, and that every accepted definition has a name
// (importFile then refuses one the studio cannot use, with the reason).

#include "exchange/toolimport.h"

#include "fuzzcheck.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray text = FuzzCheck::bytes(data, size);
    for (const auto &[as, format] :
         {std::pair{ToolImport::As::Manual, QString()}, std::pair{ToolImport::As::Mock, QString()},
          std::pair{ToolImport::As::Mock, QStringLiteral("bfcl")}}) {
        QString error;
        const auto parsed = ToolImport::parseDefinitions(text, as, &error, format);
        if (!parsed) {
            FuzzCheck::check(!error.isEmpty());
            continue;
        }
        for (const nlohmann::ordered_json &tool : parsed->tools) {
            FuzzCheck::check(tool.is_object() && tool.contains("name") && tool.at("name").is_string());
            // importFile writes the entry into the manifest: it must survive a dump and a
            // re-read (a 100 000-deep default crashed `tools import` here).
            const std::string text = tool.dump();
            FuzzCheck::check(nlohmann::ordered_json::parse(text) == tool);
        }
    }
    return 0;
}
