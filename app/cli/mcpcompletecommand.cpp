// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpcompletecommand.h"

#include "headlessrun.h"
#include "mcp/mcpserverfeatures.h"
#include "mcpfeaturessession.h"
#include "project/printabletext.h"

#include <QCoreApplication>

#include <optional>

using nlohmann::json;

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("mcpcompletecommand", text);
}

/// "a, b, c": what the server has, printable, the first 20 and "…"; "none" when empty.
QString nameList(const QStringList &names)
{
    constexpr int Shown = 20;
    if (names.isEmpty())
        return tr("none");
    QStringList shown;
    for (const QString &name : names.mid(0, Shown))
        shown << elidedText(name, 200);
    if (names.size() > Shown)
        shown << QStringLiteral("…");
    return shown.join(QStringLiteral(", "));
}

/// A listing the wanted entry may be missing from: cut short, or with entries left out.
template<typename Entry>
bool partial(const McpListing<Entry> &listing)
{
    return listing.truncated || listing.dropped > 0;
}

/// The reference to complete, checked against the server's lists: the prompt and its
/// argument, or the template (by its URI template, or by its name when no URI template
/// is that) and its variable. nullopt after printing why, with `*exitCode` set. A list
/// that fails, or is partial, cannot tell: said, and the server is asked all the same.
std::optional<McpCompletionRef> checkedRef(McpClientSession &session, const QString &prefix,
                                           const McpCompletionRef &ref, const QString &argument, int *exitCode)
{
    const QString unchecked = tr("asking without checking that \"%1\" has \"%2\"")
                                  .arg(elidedText(ref.nameOrUri, 200), elidedText(argument, 100));
    bool done = false;
    McpReply reply;
    if (ref.kind == McpCompletionRef::Kind::Prompt) {
        McpListing<McpPrompt> prompts;
        McpServerFeatures::listPrompts(&session, [&](const McpListing<McpPrompt> &list, const McpReply &answer) {
            prompts = list;
            reply = answer;
            done = true;
        });
        waitFor(done);
        if (!reply.ok()) {
            printLine(stderr, prefix + tr("prompts/list failed (%1): %2").arg(reply.errorText(), unchecked));
            return ref;
        }
        QStringList names;
        for (const McpPrompt &prompt : prompts.entries) {
            if (prompt.name != ref.nameOrUri) {
                names << prompt.name;
                continue;
            }
            QStringList arguments;
            for (const McpPromptArgument &known : prompt.arguments)
                arguments << known.name;
            if (arguments.contains(argument))
                return ref;
            printLine(stderr,
                      prefix
                          + tr("the prompt \"%1\" has no argument \"%2\" (it has: %3)")
                                .arg(elidedText(ref.nameOrUri, 200), elidedText(argument, 100), nameList(arguments)));
            *exitCode = ExitBadInput;
            return std::nullopt;
        }
        if (partial(prompts)) {
            printLine(stderr,
                      prefix + tr("prompts/list is not whole (entries left out or cut short): %1").arg(unchecked));
            return ref;
        }
        printLine(stderr,
                  prefix
                      + tr("the server has no prompt \"%1\" (it has: %2)")
                            .arg(elidedText(ref.nameOrUri, 200), nameList(names)));
        *exitCode = ExitBadInput;
        return std::nullopt;
    }
    McpListing<McpResourceTemplate> templates;
    McpServerFeatures::listResourceTemplates(&session,
                                             [&](const McpListing<McpResourceTemplate> &list, const McpReply &answer) {
                                                 templates = list;
                                                 reply = answer;
                                                 done = true;
                                             });
    waitFor(done);
    if (!reply.ok()) {
        printLine(stderr, prefix + tr("resources/templates/list failed (%1): %2").arg(reply.errorText(), unchecked));
        return ref;
    }
    const McpResourceTemplate *found = nullptr;
    QStringList uriTemplates;
    for (const McpResourceTemplate &entry : templates.entries) {
        uriTemplates << entry.uriTemplate;
        if (entry.uriTemplate == ref.nameOrUri)
            found = &entry;
    }
    if (!found) {
        // Its name will do when it is one template's, and no template's URI.
        const McpResourceTemplate *named = nullptr;
        int namedCount = 0;
        for (const McpResourceTemplate &entry : templates.entries)
            if (entry.name == ref.nameOrUri && ++namedCount == 1)
                named = &entry;
        found = namedCount == 1 ? named : nullptr;
    }
    if (!found) {
        if (partial(templates)) {
            printLine(
                stderr,
                prefix
                    + tr("resources/templates/list is not whole (entries left out or cut short): %1").arg(unchecked));
            return ref;
        }
        printLine(stderr,
                  prefix
                      + tr("the server has no resource template \"%1\" (it has: %2)")
                            .arg(elidedText(ref.nameOrUri, 200), nameList(uriTemplates)));
        *exitCode = ExitBadInput;
        return std::nullopt;
    }
    QString beyondLevel1;
    const QStringList variables = McpServerFeatures::uriTemplateVariables(found->uriTemplate, &beyondLevel1);
    // A template beyond level 1 ({?q}, {+path}) is not read here: the server is asked.
    if (beyondLevel1.isEmpty() && !variables.contains(argument)) {
        printLine(stderr,
                  prefix
                      + tr("the resource template \"%1\" has no variable \"%2\" (it has: %3)")
                            .arg(elidedText(found->uriTemplate, 200), elidedText(argument, 100), nameList(variables)));
        *exitCode = ExitBadInput;
        return std::nullopt;
    }
    return McpCompletionRef{McpCompletionRef::Kind::ResourceTemplate, found->uriTemplate};
}

} // namespace

int mcpCompleteCommand(const QString &projectDir, const QString &server, const McpCompletionRef &ref,
                       const QString &argument, const QString &prefix, const QString &argsText, bool asJson, bool trust)
{
    const QString command
        = ref.kind == McpCompletionRef::Kind::Prompt ? QStringLiteral("prompts") : QStringLiteral("resources");
    const QString said = QStringLiteral("toolstudio mcp %1: ").arg(command);
    QMap<QString, QString> context;
    if (!argsText.isNull() && !readStringArguments(command, argsText, &context))
        return ExitBadInput;
    int exitCode = ExitBadInput;
    std::unique_ptr<McpClientSession> session = openMcpFeaturesServer(command, projectDir, server, trust, &exitCode);
    if (!session)
        return exitCode;
    for (const char *capability : {command == QLatin1String("prompts") ? "prompts" : "resources", "completions"})
        if (const QString missing = McpServerFeatures::missingCapability(*session, capability); !missing.isEmpty()) {
            printLine(stderr, said + tr("MCP server '%1': %2").arg(server, missing));
            session->close();
            return ExitRunFailed;
        }
    const std::optional<McpCompletionRef> checked = checkedRef(*session, said, ref, argument, &exitCode);
    if (!checked) {
        session->close();
        return exitCode;
    }
    bool done = false;
    McpCompletionResult result;
    McpReply reply;
    McpCompletion::complete(
        session.get(), *checked, argument, prefix, context,
        [&](const McpCompletionResult &values, const McpReply &answer) {
            result = values;
            reply = answer;
            done = true;
        },
        McpClientSession::DefaultTimeoutMs);
    waitFor(done);
    const QString methodMissing = McpCompletion::methodMissing(session.get());
    session->close();
    if (!methodMissing.isEmpty()) {
        printLine(stderr, said + tr("MCP server '%1': %2; it offers no completions").arg(server, methodMissing));
        return ExitRunFailed;
    }
    if (!reply.ok()) {
        printLine(stderr, said + tr("completion/complete failed: %1").arg(reply.errorText()));
        return ExitRunFailed;
    }
    if (asJson) {
        writeOut(stdout, printableJson(reply.result) + '\n');
        return ExitCompleted;
    }
    // McpCompletion kept only printable values; printed through printableText all the same.
    for (const QString &value : result.values)
        printLine(stdout, printableText(value));
    if (result.dropped > 0)
        printLine(stderr,
                  said
                      + tr("%1 values of the server left out (not text, empty, repeated, longer than %2 characters "
                           "or with control characters)")
                            .arg(result.dropped)
                            .arg(McpCompletion::MaxValueChars));
    const qint64 more = result.total - result.values.size() - result.dropped;
    if (result.total >= 0 && more > 0)
        printLine(stderr,
                  said
                      + tr("%1 more (the server has %2 in all): give more of the value to narrow them")
                            .arg(more)
                            .arg(result.total));
    else if (result.hasMore)
        printLine(stderr, said + tr("the server has more values than these: give more of the value to narrow them"));
    else if (result.values.isEmpty())
        printLine(stderr, said + tr("the server offers no values for that"));
    return ExitCompleted;
}
