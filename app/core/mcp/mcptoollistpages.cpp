// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcptoollistpages.h"

#include "project/printabletext.h"

using nlohmann::json;

McpToolListPages::Step McpToolListPages::take(const json &result)
{
    const int page = m_page++;
    const auto failed = [](const QString &why) { return Step{Step::Kind::Failed, {}, why}; };
    const auto list = result.is_object() ? result.find("tools") : result.end();
    if (list == result.end() || !list->is_array())
        return failed(QStringLiteral("the server's tools/list result has no \"tools\" array"));
    // Each page is bounded by the transport; what the pages add up to is bounded here.
    m_bytes += list->dump(-1, ' ', false, json::error_handler_t::replace).size();
    if (m_bytes > MaxToolBytes)
        return failed(QStringLiteral("the server's tools/list pages add up to more than %1 MiB (at page %2); "
                                     "the studio stopped there")
                          .arg(MaxToolBytes >> 20)
                          .arg(page));
    // An entry that is not an object with a string name is no tool: consumers read
    // members of each (`mcp list --json` aborted on a number in the list).
    for (const json &tool : *list) {
        const auto name = tool.is_object() ? tool.find("name") : tool.end();
        if (!tool.is_object() || name == tool.end() || !name->is_string()) {
            ++m_droppedEntries;
            continue;
        }
        // A name listed again (on any page) would be a second tool of the same name:
        // the first is kept, the others named (duplicateNames).
        if (!m_names.insert(name->get<std::string>()).second) {
            const QString again = QString::fromStdString(name->get<std::string>());
            if (!m_duplicateNames.contains(again) && m_duplicateNames.size() < MaxNamed)
                m_duplicateNames << again;
            continue;
        }
        if (m_checkParameterHeaders && !takeToolParameters(tool))
            continue;
        m_tools.push_back(tool);
    }
    const auto next = result.find("nextCursor");
    if (next == result.end() || next->is_null())
        return Step{Step::Kind::Done, {}, {}};
    if (!next->is_string())
        return failed(QStringLiteral("the server's tools/list nextCursor is not a string"));
    if (page >= MaxPages)
        return failed(QStringLiteral("the server's tools/list goes on past %1 pages").arg(MaxPages));
    return Step{Step::Kind::Next, *next, {}};
}

bool McpToolListPages::takeToolParameters(const json &tool)
{
    QString why;
    const auto annotations = McpParamHeaders::annotationsOf(tool.value("inputSchema", json()), &why);
    const std::string name = tool["name"].get<std::string>();
    if (!annotations) {
        if (m_rejectedTools.size() < MaxNamed)
            m_rejectedTools << QStringLiteral("%1: %2").arg(printableText(elidedText(QString::fromStdString(name))),
                                                            why);
        return false;
    }
    if (!annotations->empty())
        m_parameters[name] = *annotations;
    return true;
}
