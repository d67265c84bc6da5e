// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpfeaturescommand.h"

#include "headlessrun.h"
#include "mcp/mcpserverfeatures.h"
#include "mcpfeaturessession.h"
#include "project/printabletext.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <memory>

using nlohmann::json;

namespace {

/// The server's text on stdout, printable (it must not drive the terminal), escaped and
/// written in pieces: a text of many control characters grows sixfold when escaped, and
/// a whole 60 MiB one made at once took gigabytes.
void writePrintable(const QString &text)
{
    constexpr qsizetype Piece = 64 * 1024;
    for (qsizetype at = 0; at < text.size();) {
        qsizetype length = std::min(Piece, text.size() - at);
        if (at + length < text.size() && text.at(at + length - 1).isHighSurrogate())
            --length; // a pair stays whole
        writeOut(stdout, printableLines(text.mid(at, length)).toUtf8());
        at += length;
    }
    if (!text.endsWith(u'\n'))
        writeOut(stdout, QByteArrayLiteral("\n"));
}

QString tr(const char *text)
{
    return QCoreApplication::translate("mcpfeaturescommand", text);
}

QString dataSize(qint64 bytes)
{
    return QLocale::c().formattedDataSize(bytes, 1);
}

/// No person to ask here: a 2026-era server's input_required (an elicitation, a sampling
/// request) for a read or a prompt fails at once, naming what it asked and where it can
/// be answered.
McpInputRequiredRounds::Asker headlessAsker()
{
    McpInputRequiredRounds::Asker asker;
    asker.refusal = [](const QString &method, const json &params) {
        return tr("it asks for %1, which nobody can answer in a command: do it in Tool Studio's Resources and "
                  "Prompts window (MCP Servers dock, Browse…), which asks you")
            .arg(McpInputRequiredRounds::describe(method, params));
    };
    return asker;
}

/// The notes a listing carries (entries left out, a list cut short), for stderr.
template<typename Entry>
void printListingNotes(const QString &prefix, const QString &what, const McpListing<Entry> &listing)
{
    if (listing.dropped > 0)
        printLine(stderr,
                  prefix
                      + tr("%1 entries of its %2 are not what the spec says (a name or uri missing, a uri with control "
                           "characters or too long, …): left out")
                            .arg(listing.dropped)
                            .arg(what));
    if (listing.truncated)
        printLine(stderr, prefix + tr("%1 cut short: %2").arg(what, listing.truncatedWhy));
}

json resourceJson(const McpResource &resource)
{
    json entry = {{"uri", resource.uri.toStdString()}, {"name", resource.name.toStdString()}};
    for (const auto &[key, value] : {std::pair{"title", resource.title}, std::pair{"description", resource.description},
                                     std::pair{"mimeType", resource.mimeType}})
        if (!value.isEmpty())
            entry[key] = value.toStdString();
    if (resource.size >= 0)
        entry["size"] = resource.size;
    return entry;
}

json templateJson(const McpResourceTemplate &resource)
{
    json entry = {{"uriTemplate", resource.uriTemplate.toStdString()}, {"name", resource.name.toStdString()}};
    for (const auto &[key, value] : {std::pair{"title", resource.title}, std::pair{"description", resource.description},
                                     std::pair{"mimeType", resource.mimeType}})
        if (!value.isEmpty())
            entry[key] = value.toStdString();
    return entry;
}

/// "  URI  NAME  MIME  SIZE", printable.
QString entryLine(const QString &uri, const QString &name, const QString &mimeType, qint64 size = -1)
{
    QString line = QStringLiteral("  %1  %2").arg(elidedText(uri, 300), elidedText(name, 100));
    if (!mimeType.isEmpty())
        line += QStringLiteral("  ") + elidedText(mimeType, 100);
    if (size >= 0)
        line += QStringLiteral("  ") + dataSize(size);
    return line;
}

int readResource(McpClientSession &session, const QString &uri, bool asJson)
{
    const QString prefix = QStringLiteral("toolstudio mcp resources: ");
    bool done = false;
    std::vector<McpResourceContents> contents;
    McpReply reply;
    McpServerFeatures::readResource(
        &session, uri,
        [&](const std::vector<McpResourceContents> &read, const McpReply &answer) {
            contents = read;
            reply = answer;
            done = true;
        },
        McpClientSession::DefaultTimeoutMs, headlessAsker());
    waitFor(done);
    if (!reply.ok()) {
        printLine(stderr, prefix + tr("resources/read of %1 failed: %2").arg(elidedText(uri, 300), reply.errorText()));
        return ExitRunFailed;
    }
    if (asJson) {
        writeOut(stdout, printableJson(reply.result) + '\n');
        return ExitCompleted;
    }
    int status = ExitCompleted;
    for (const McpResourceContents &part : contents) {
        if (!part.problem.isEmpty())
            status = ExitRunFailed; // said on stdout in its place, and by the exit status
        if (contents.size() > 1 || part.isBlob || !part.problem.isEmpty())
            printLine(
                stdout,
                QStringLiteral("── %1%2 ──")
                    .arg(elidedText(part.uri, 300),
                         part.mimeType.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(elidedText(part.mimeType))));
        if (!part.problem.isEmpty())
            printLine(stdout, tr("(not shown: %1)").arg(part.problem));
        else if (part.isBlob)
            printLine(stdout, tr("(a blob of %1: --json prints its base64)").arg(dataSize(part.blob.size())));
        else
            writePrintable(part.text);
    }
    return status;
}

/// One content block of a prompt message, in a line.
QString blockLine(const json &block)
{
    const auto string = [&block](const char *key) {
        const auto it = block.find(key);
        return it != block.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
    };
    const QString type = string("type");
    if (type == QLatin1String("text"))
        return printableLines(string("text"));
    if (type == QLatin1String("image") || type == QLatin1String("audio"))
        return tr("[%1 %2, %3 of base64]")
            .arg(type, elidedText(string("mimeType"), 100), dataSize(string("data").size()));
    if (type == QLatin1String("resource_link"))
        return tr("[link to %1]").arg(elidedText(string("uri"), 300));
    if (type == QLatin1String("resource")) {
        const auto resource = block.find("resource");
        if (resource != block.end() && resource->is_object()) {
            const auto text = resource->find("text");
            const auto uri = resource->find("uri");
            const QString where = uri != resource->end() && uri->is_string()
                ? elidedText(QString::fromStdString(uri->get<std::string>()), 300)
                : QString();
            if (text != resource->end() && text->is_string())
                return tr("[embedded %1]\n%2")
                    .arg(where, printableLines(QString::fromStdString(text->get<std::string>())));
            return tr("[embedded %1, a blob: --json prints it]").arg(where);
        }
    }
    return tr("[content of type \"%1\", not shown here: --json prints it]").arg(elidedText(type, 40));
}

} // namespace

int mcpResourcesCommand(const QString &projectDir, const QString &server, const QString &readUri, bool asJson,
                        bool trust)
{
    const QString prefix = QStringLiteral("toolstudio mcp resources: ");
    int exitCode = ExitBadInput;
    std::unique_ptr<McpClientSession> session
        = openMcpFeaturesServer(QStringLiteral("resources"), projectDir, server, trust, &exitCode);
    if (!session)
        return exitCode;
    if (const QString missing = McpServerFeatures::missingCapability(*session, "resources"); !missing.isEmpty()) {
        printLine(stderr, prefix + tr("MCP server '%1': %2").arg(server, missing));
        session->close();
        return ExitRunFailed;
    }
    if (!readUri.isNull()) {
        const int status = readResource(*session, readUri, asJson);
        session->close();
        return status;
    }
    bool listed = false;
    bool templatesListed = false;
    McpListing<McpResource> resources;
    McpListing<McpResourceTemplate> templates;
    McpReply resourcesReply;
    McpReply templatesReply;
    McpServerFeatures::listResources(session.get(), [&](const McpListing<McpResource> &list, const McpReply &reply) {
        resources = list;
        resourcesReply = reply;
        listed = true;
    });
    McpServerFeatures::listResourceTemplates(session.get(),
                                             [&](const McpListing<McpResourceTemplate> &list, const McpReply &reply) {
                                                 templates = list;
                                                 templatesReply = reply;
                                                 templatesListed = true;
                                             });
    waitFor(listed);
    waitFor(templatesListed);
    session->close();
    if (!resourcesReply.ok()) {
        printLine(stderr, prefix + tr("resources/list failed: %1").arg(resourcesReply.errorText()));
        return ExitRunFailed;
    }
    // A server may offer no templates (and answer "Method not found"): said, not fatal.
    if (!templatesReply.ok())
        printLine(stderr, prefix + tr("resources/templates/list failed: %1").arg(templatesReply.errorText()));
    printListingNotes(prefix, QStringLiteral("resources/list"), resources);
    printListingNotes(prefix, QStringLiteral("resources/templates/list"), templates);
    if (asJson) {
        json all = {{"resources", json::array()}, {"resourceTemplates", json::array()}};
        for (const McpResource &resource : resources.entries)
            all["resources"].push_back(resourceJson(resource));
        for (const McpResourceTemplate &resource : templates.entries)
            all["resourceTemplates"].push_back(templateJson(resource));
        writeOut(stdout, printableJson(all) + '\n');
        return ExitCompleted;
    }
    printLine(stdout, tr("resources (%1):").arg(resources.entries.size()));
    for (const McpResource &resource : resources.entries)
        printLine(stdout, entryLine(resource.uri, resource.name, resource.mimeType, resource.size));
    printLine(stdout, tr("templates (%1):").arg(templates.entries.size()));
    for (const McpResourceTemplate &resource : templates.entries)
        printLine(stdout, entryLine(resource.uriTemplate, resource.name, resource.mimeType));
    return ExitCompleted;
}

int mcpPromptsCommand(const QString &projectDir, const QString &server, const QString &promptName,
                      const QString &argsText, bool asJson, bool trust)
{
    const QString prefix = QStringLiteral("toolstudio mcp prompts: ");
    QMap<QString, QString> arguments;
    if (!argsText.isNull() && !readStringArguments(QStringLiteral("prompts"), argsText, &arguments))
        return ExitBadInput;
    int exitCode = ExitBadInput;
    std::unique_ptr<McpClientSession> session
        = openMcpFeaturesServer(QStringLiteral("prompts"), projectDir, server, trust, &exitCode);
    if (!session)
        return exitCode;
    if (const QString missing = McpServerFeatures::missingCapability(*session, "prompts"); !missing.isEmpty()) {
        printLine(stderr, prefix + tr("MCP server '%1': %2").arg(server, missing));
        session->close();
        return ExitRunFailed;
    }
    bool done = false;
    if (!promptName.isNull()) {
        McpPromptResult prompt;
        McpReply reply;
        McpServerFeatures::getPrompt(
            session.get(), promptName, arguments,
            [&](const McpPromptResult &got, const McpReply &answer) {
                prompt = got;
                reply = answer;
                done = true;
            },
            headlessAsker());
        waitFor(done);
        session->close();
        if (!reply.ok()) {
            printLine(stderr,
                      prefix + tr("prompts/get of %1 failed: %2").arg(elidedText(promptName, 100), reply.errorText()));
            return ExitRunFailed;
        }
        if (asJson) {
            writeOut(stdout, printableJson(reply.result) + '\n');
            return ExitCompleted;
        }
        if (prompt.dropped > 0)
            printLine(stderr,
                      prefix + tr("%1 messages are not messages (no content object): left out").arg(prompt.dropped));
        if (!prompt.description.isEmpty())
            printLine(stdout, tr("description: %1").arg(printableText(prompt.description)));
        for (const McpPromptMessage &message : prompt.messages)
            printLine(stdout, QStringLiteral("%1: %2").arg(message.role, blockLine(message.content)));
        return ExitCompleted;
    }
    McpListing<McpPrompt> prompts;
    McpReply reply;
    McpServerFeatures::listPrompts(session.get(), [&](const McpListing<McpPrompt> &list, const McpReply &answer) {
        prompts = list;
        reply = answer;
        done = true;
    });
    waitFor(done);
    session->close();
    if (!reply.ok()) {
        printLine(stderr, prefix + tr("prompts/list failed: %1").arg(reply.errorText()));
        return ExitRunFailed;
    }
    printListingNotes(prefix, QStringLiteral("prompts/list"), prompts);
    if (asJson) {
        json all = json::array();
        for (const McpPrompt &prompt : prompts.entries) {
            json entry = {{"name", prompt.name.toStdString()}, {"arguments", json::array()}};
            if (!prompt.title.isEmpty())
                entry["title"] = prompt.title.toStdString();
            if (!prompt.description.isEmpty())
                entry["description"] = prompt.description.toStdString();
            for (const McpPromptArgument &argument : prompt.arguments) {
                json arg = {{"name", argument.name.toStdString()}, {"required", argument.required}};
                if (!argument.description.isEmpty())
                    arg["description"] = argument.description.toStdString();
                entry["arguments"].push_back(std::move(arg));
            }
            all.push_back(std::move(entry));
        }
        writeOut(stdout, printableJson(all) + '\n');
        return ExitCompleted;
    }
    for (const McpPrompt &prompt : prompts.entries) {
        QString line = elidedText(prompt.name, 100);
        if (!prompt.title.isEmpty())
            line += QStringLiteral("  ") + elidedText(prompt.title, 100);
        if (const QString description = prompt.description.section(u'\n', 0, 0).trimmed(); !description.isEmpty())
            line += QStringLiteral("  ") + elidedText(description, 100);
        printLine(stdout, line);
        for (const McpPromptArgument &argument : prompt.arguments) {
            QString arg = QStringLiteral("  ") + elidedText(argument.name, 100);
            if (argument.required)
                arg += tr(" (required)");
            if (!argument.description.isEmpty())
                arg += QStringLiteral("  ") + elidedText(argument.description.section(u'\n', 0, 0), 100);
            printLine(stdout, arg);
        }
    }
    return ExitCompleted;
}
