// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcpparamheaders.h"

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

/// The pages of one `tools/list` (McpClientSession::listTools asks for them one after
/// the other): take() reads each page's result and says whether the list is done, which
/// cursor to ask for next, or why the list failed. Every reply is untrusted input:
/// the pages stop at MaxPages pages and MaxToolBytes bytes of tools. An entry that is
/// not an object with a string `name` is left out and counted (droppedEntries); a tool
/// whose name came before (on any page) is left out and named (duplicateNames). When
/// `checkParameterHeaders` (a 2026 session over Streamable HTTP, whose transport mirrors
/// `x-mcp-header` parameters), a tool whose annotations break the spec's rules
/// (McpParamHeaders::annotationsOf) is left out and named (rejectedTools), and the
/// annotations of the others are kept (parameters). Pure logic: no session, no event loop.
class McpToolListPages
{
public:
    /// Pages followed at most (a server that hands out cursors forever).
    static constexpr int MaxPages = 100;
    /// Bytes of tools (as compact JSON) all pages may add up to: a list of a few hundred
    /// tools with their schemas is well under 1 MiB.
    static constexpr std::size_t MaxToolBytes = 16u << 20;
    /// Names kept in duplicateNames() and rejectedTools() at most.
    static constexpr qsizetype MaxNamed = 20;

    /// What take() makes of a page: the list is Done, or its Next page is asked for with
    /// `cursor`, or it Failed (`failure` says why, in the words of McpReply::failure).
    struct Step
    {
        enum class Kind { Done, Next, Failed };
        Kind kind = Kind::Failed;
        nlohmann::json cursor; ///< Next: the page's `nextCursor` (a string)
        QString failure;       ///< Failed: why
    };

    explicit McpToolListPages(bool checkParameterHeaders = false)
        : m_checkParameterHeaders(checkParameterHeaders)
    {}

    /// Reads the result of page page() (1 for the first) and counts it as taken. Fails
    /// when the result has no `tools` array, when the pages add up to more than
    /// MaxToolBytes (before any of its entries is read), when its `nextCursor` is
    /// neither absent, null nor a string, or when a string `nextCursor` would be page
    /// MaxPages + 1 (the entries of those last two are taken first).
    Step take(const nlohmann::json &result);
    /// The page the next take() reads, from 1.
    int page() const { return m_page; }
    /// The tools taken so far, each as the server sent it, in the order listed.
    const std::vector<nlohmann::json> &tools() const { return m_tools; }
    /// x-mcp-header annotations of the tools taken (only when checkParameterHeaders), by name.
    McpParamHeaders::ToolParameters takeParameters() { return std::move(m_parameters); }
    bool checksParameterHeaders() const { return m_checkParameterHeaders; }
    /// Entries that were not tools (not an object with a string name).
    qint64 droppedEntries() const { return m_droppedEntries; }
    /// Names listed more than once (as the server sent them, at most MaxNamed): only the
    /// first tool of each name is kept.
    const QStringList &duplicateNames() const { return m_duplicateNames; }
    /// Tools left out for their x-mcp-header parameters: "NAME: why" (NAME printable and
    /// elided), at most MaxNamed.
    const QStringList &rejectedTools() const { return m_rejectedTools; }

private:
    /// A listed tool's x-mcp-header parameters into m_parameters (when it has any);
    /// false, named in rejectedTools(), when they break the spec's rules.
    bool takeToolParameters(const nlohmann::json &tool);

    bool m_checkParameterHeaders = false;
    int m_page = 1;
    std::vector<nlohmann::json> m_tools;
    std::set<std::string> m_names;
    std::size_t m_bytes = 0;
    McpParamHeaders::ToolParameters m_parameters;
    qint64 m_droppedEntries = 0;
    QStringList m_duplicateNames;
    QStringList m_rejectedTools;
};
