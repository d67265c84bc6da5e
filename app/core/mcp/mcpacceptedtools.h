// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

/// How one tool a server lists now differs from what a person accepted (docs/mcp.md
/// "Tools that change"): new (nothing of that name was accepted on the server) or
/// changed in some of the parts a model or script relies on.
struct McpToolChange
{
    QString server;
    QString tool;            ///< the server's own name of the tool
    bool isNew = false;      ///< no definition of that name was accepted
    QStringList parts;       ///< of "title", "description", "inputSchema", "outputSchema", "annotations"
    nlohmann::json accepted; ///< the accepted definition (McpAcceptedTools::reliedOn); null when new
    nlohmann::json now;      ///< the listed definition, reduced the same way
    /// The definition nests deeper than the record keeps (McpAcceptedTools::
    /// MaxDefinitionDepth): it cannot be accepted, so it is never called.
    bool tooDeep = false;

    /// "new" or the parts joined: "description, inputSchema".
    QString summary() const;
    /// Lines of the two pretty-printed definitions together past which they are not
    /// compared line by line (a server's 280 000-value enum took 43 s and 323 MB to diff,
    /// on the GUI thread when a call asks about it — attack34 F1).
    static constexpr qsizetype MaxDiffLines = 20000;
    /// A unified diff of the pretty-printed definitions, "--- accepted" / "+++ now"
    /// headers first; a new tool's whole definition as added lines. Past MaxDiffLines, a
    /// line saying how long they are and which parts changed instead.
    QString diff() const;
    /// Why a call of it does not reach the server: what changed (a description's old
    /// and new text cut to DescriptionChars each) and how to accept it, naming
    /// `projectDir` in the command.
    QString refusal(const QString &projectDir) const;

    static constexpr qsizetype DescriptionChars = 300;
};

/// The record of what a person accepted of each MCP tool of a project:
/// `.toolstudio/mcp-accepted.json` in the project folder, per server per tool the
/// definition as accepted (the parts a model or script relies on, reliedOn()) and its
/// SHA-256 over canonical JSON (fingerprint()). A server that has no entry yet has its
/// tools accepted the first time they are listed (observe()); after that a tool whose
/// definition differs, or that is new on the server, is a change a person accepts
/// (accept()) before it is called again. A tool removed keeps its entry: the same
/// definition listed again later is not a change.
///
/// The file is read bounded (MaxFileBytes, JsonInput's depth and value bounds,
/// MaxServers, MaxToolsPerServer) and each entry's fingerprint is checked against its
/// definition: a file that fails any of it is not used (error() says why), nothing
/// counts as accepted and observe() records nothing; save() then keeps it aside as
/// `mcp-accepted.json.bad` (or `.bad-N`) and writes a new one.
class McpAcceptedTools
{
public:
    static constexpr auto RelativePath = ".toolstudio/mcp-accepted.json";
    static constexpr qint64 MaxFileBytes = 16 * 1024 * 1024;
    static constexpr std::size_t MaxServers = 1024;
    static constexpr std::size_t MaxToolsPerServer = 4096;
    /// Levels of arrays and objects a definition may nest: the record nests it 5 levels
    /// down and is read with JsonInput's 128 (a deeper one made the whole record
    /// unreadable, every server's tools refused: attack31 F5).
    static constexpr int MaxDefinitionDepth = 123;
    /// Unusable records kept aside (`.bad`, `.bad-1` …); with that many, save() asks
    /// for them to be removed rather than keeping more.
    static constexpr int MaxKeptAside = 8;
    /// Bytes of compact JSON one server's accepted definitions may take in the record:
    /// its share, so that one server cannot fill the record for all (attack32 F4).
    static constexpr qint64 MaxServerBytes = 2 * 1024 * 1024;

    /// `listed` (one entry of tools/list) reduced to what a model or script relies on:
    /// name, title, description, inputSchema, outputSchema, annotations — those present.
    static nlohmann::json reliedOn(const nlohmann::json &listed);
    /// `value` as canonical JSON text (keys sorted, no spaces; invalid UTF-8 replaced):
    /// what two definitions are compared by — not nlohmann's ==, which calls -1 and
    /// 18446744073709551615, or 1 and 1.0, equal (attack38 F6).
    static std::string canonical(const nlohmann::json &value);
    /// Hex SHA-256 of canonical(reliedOn(listed)).
    static QString fingerprint(const nlohmann::json &listed);
    /// The parts of reliedOn() whose canonical() text differs between two definitions,
    /// in the order above.
    static QStringList changedParts(const nlohmann::json &accepted, const nlohmann::json &now);
    /// Levels of arrays and objects in `value` (a scalar: 0).
    static int depthOf(const nlohmann::json &value);

    static QString path(const QString &projectDir);
    /// `.toolstudio` or the record itself when it is a symbolic link (neither is followed), else "".
    static QString symlinkOnPath(const QString &projectDir);

    /// Reads the record of `projectDir` (none yet: empty, no error). False when the file
    /// cannot be used; error() says why.
    bool load(const QString &projectDir);
    /// Why the file read last cannot be used; empty when it can (or there is none).
    QString error() const { return m_error; }
    /// True when `server` has an entry (its tools were accepted once).
    bool knows(const QString &server) const;

    /// For a server that just listed `tools`: when it has no entry and the record is
    /// usable, every tool is accepted and true returned (save() is the caller's).
    bool observe(const QString &server, const std::vector<nlohmann::json> &tools);
    /// How `listed` differs from what was accepted on `server`; nullopt when it does
    /// not. While error() is set, every tool is a change (new).
    std::optional<McpToolChange> change(const QString &server, const nlohmann::json &listed) const;
    /// change() of each of `tools`, in their order.
    std::vector<McpToolChange> changes(const QString &server, const std::vector<nlohmann::json> &tools) const;
    /// Records `listed` as accepted on `server` (the server gets an entry); false, and
    /// nothing recorded, when its definition nests deeper than MaxDefinitionDepth or
    /// the server's accepted definitions would be over MaxServerBytes (`why` says so).
    bool accept(const QString &server, const nlohmann::json &listed, QString *why = nullptr);
    /// Gives `server` an entry without tools (its tools are then all new), for the
    /// servers of a record that replaces an unusable one.
    void addServer(const QString &server);
    /// Forgets every accepted tool and gives each of `servers` an empty entry, keeping
    /// error(): a record that replaces an unusable one (save() keeps that one aside).
    void startOver(const QStringList &servers);

    /// Writes the record of `projectDir` atomically, mode 0600. An unusable file read
    /// by load() is kept aside first; `note` says where. False with `error` set when
    /// it cannot be written, or when load() could not read back what it would write
    /// (readRecord() refuses it): nothing is written then.
    bool save(const QString &projectDir, QString *error, QString *note = nullptr);

private:
    struct Entry
    {
        nlohmann::json definition;
        QString sha256;
        QString acceptedAt;
        qint64 bytes = 0; ///< the definition as compact JSON
    };
    using Servers = std::map<QString, std::map<QString, Entry>>;
    /// The servers of a record's text; "" or why it cannot be used (the bounds and
    /// checks of load(), which save() applies to what it would write).
    static QString readRecord(const QByteArray &bytes, Servers *into);

    Servers m_servers;
    QString m_error;
};
