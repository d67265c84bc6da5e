// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpserverfeatures.h"

#include "project/printabletext.h"

#include <QCoreApplication>
#include <QPointer>
#include <QTimer>
#include <QUrl>

#include <memory>
#include <set>

using nlohmann::json;

namespace McpServerFeatures {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("McpServerFeatures", text);
}

McpReply failure(const QString &why)
{
    return McpReply{{}, {}, why};
}

/// A string member, cut to `maxChars` (with "…"); "" when absent or not a string.
QString stringMember(const json &object, const char *key, qsizetype maxChars)
{
    const auto it = object.find(key);
    if (it == object.end() || !it->is_string())
        return {};
    const std::string &bytes = it->get_ref<const std::string &>();
    // Cut the bytes first: a 60 MiB description is not turned into a QString whole.
    const QString text = QString::fromUtf8(bytes.data(), qsizetype(std::min<std::size_t>(bytes.size(), maxChars * 4)));
    return text.size() > maxChars ? text.left(maxChars) + QStringLiteral("…") : text;
}

bool hasControlCharacters(const QString &text)
{
    for (const QChar c : text)
        if (c.unicode() < 0x20 || (c.unicode() >= 0x7f && c.unicode() < 0xa0))
            return true;
    return false;
}

/// A uri the studio keeps: a non-empty string of at most MaxUriChars without control
/// characters (RFC 3986 allows none; a list entry that has them is left out).
std::optional<QString> uriMember(const json &object, const char *key)
{
    const auto it = object.find(key);
    if (it == object.end() || !it->is_string() || it->get_ref<const std::string &>().empty()
        || it->get_ref<const std::string &>().size() > std::size_t(MaxUriChars) * 4)
        return std::nullopt;
    const QString uri = QString::fromStdString(it->get<std::string>());
    if (uri.size() > MaxUriChars || hasControlCharacters(uri))
        return std::nullopt;
    return uri;
}

/// Calls `done` on the next turn of the event loop (never from inside the caller).
template<typename Done, typename... Args>
void later(McpClientSession *session, Done done, Args... args)
{
    QObject *context = session ? static_cast<QObject *>(session) : QCoreApplication::instance();
    QTimer::singleShot(0, context, [done = std::move(done), args...] { done(args...); });
}

/// Why `session` is not asked `capability`, or "".
QString refusal(McpClientSession *session, const char *capability)
{
    // Readiness first: a session not initialized yet has no capabilities to tell.
    if (!session || session->state() != McpClientSession::State::Ready)
        return tr("the server is not connected");
    return missingCapability(*session, capability);
}

template<typename Entry>
struct Pager
{
    QString method;
    const char *key = nullptr;
    std::optional<Entry> (*parse)(const json &) = nullptr;
    ListDone<Entry> done;
    McpListing<Entry> listing;
    std::set<std::string> cursors;
    std::size_t bytes = 0;
};

template<typename Entry>
void listPage(QPointer<McpClientSession> session, std::shared_ptr<Pager<Entry>> pager, const json &cursor, int page)
{
    json params = json::object();
    if (!cursor.is_null())
        params["cursor"] = cursor;
    session->request(pager->method, std::move(params), [session, pager, page](const McpReply &reply) {
        if (!reply.ok()) {
            pager->done({}, reply);
            return;
        }
        const json &result = reply.result;
        const auto list = result.is_object() ? result.find(pager->key) : result.end();
        if (list == result.end() || !list->is_array()) {
            pager->done(
                {},
                failure(
                    tr("the server's %1 result has no \"%2\" array").arg(pager->method, QLatin1String(pager->key))));
            return;
        }
        McpListing<Entry> &listing = pager->listing;
        for (const json &entry : *list) {
            if (listing.entries.size() >= MaxListEntries) {
                listing.truncated = true;
                listing.truncatedWhy
                    = tr("the server lists more than %1 entries; the studio keeps the first %1").arg(MaxListEntries);
                break;
            }
            std::optional<Entry> parsed = pager->parse(entry);
            if (!parsed) {
                ++listing.dropped;
                continue;
            }
            pager->bytes += entry.dump(-1, ' ', false, json::error_handler_t::replace).size();
            if (pager->bytes > MaxListBytes) {
                listing.truncated = true;
                listing.truncatedWhy = tr("the server's entries add up to more than %1 MiB; the studio keeps "
                                          "those before")
                                           .arg(MaxListBytes >> 20);
                break;
            }
            listing.entries.push_back(std::move(*parsed));
        }
        const auto next = result.find("nextCursor");
        if (listing.truncated || next == result.end() || next->is_null()) {
            pager->done(listing, reply);
            return;
        }
        if (!next->is_string()) {
            pager->done({}, failure(tr("the server's %1 nextCursor is not a string").arg(pager->method)));
            return;
        }
        const std::string &text = next->get_ref<const std::string &>();
        if (text.size() > std::size_t(MaxCursorBytes)) {
            pager->done({},
                        failure(tr("the server's %1 nextCursor is longer than %2 KiB")
                                    .arg(pager->method)
                                    .arg(MaxCursorBytes / 1024)));
            return;
        }
        // A cursor that comes again would list the same pages for ever.
        if (!pager->cursors.insert(text).second) {
            pager->done({},
                        failure(tr("the server's %1 gave the same nextCursor twice (at page %2): the list "
                                   "would not end")
                                    .arg(pager->method)
                                    .arg(page)));
            return;
        }
        if (page >= MaxListPages) {
            listing.truncated = true;
            listing.truncatedWhy
                = tr("the server's list goes on past %1 pages; the studio keeps those").arg(MaxListPages);
            pager->done(listing, reply);
            return;
        }
        if (!session) // a callback before deleted the session
            return;
        listPage(session, pager, *next, page + 1);
    });
}

template<typename Entry>
void listAll(McpClientSession *session, const char *capability, const QString &method, const char *key,
             std::optional<Entry> (*parse)(const json &), ListDone<Entry> done)
{
    if (const QString why = refusal(session, capability); !why.isEmpty()) {
        later(session, std::move(done), McpListing<Entry>{}, failure(why));
        return;
    }
    auto pager = std::make_shared<Pager<Entry>>();
    pager->method = method;
    pager->key = key;
    pager->parse = parse;
    pager->done = std::move(done);
    listPage<Entry>(QPointer<McpClientSession>(session), pager, json(), 1);
}

} // namespace

QString missingCapability(const McpClientSession &session, const char *capability)
{
    const json &capabilities = session.serverCapabilities();
    const auto found = capabilities.find(capability);
    if (found != capabilities.end() && found->is_object())
        return {};
    return tr("the server declares no \"%1\" capability in its initialize result: it offers none, so the studio "
              "does not ask")
        .arg(QLatin1String(capability));
}

bool canSubscribe(const McpClientSession &session)
{
    const json &capabilities = session.serverCapabilities();
    const auto resources = capabilities.find("resources");
    if (resources == capabilities.end() || !resources->is_object())
        return false;
    const auto flag = resources->find("subscribe");
    return flag != resources->end() && flag->is_boolean() && flag->get<bool>();
}

/// A resource or a template: `uriKey`'s URI into `uriField`, then the fields both have;
/// nullopt without a URI or a name.
template<class Entry>
std::optional<Entry> parseListed(const json &entry, const char *uriKey, QString Entry::*uriField)
{
    if (!entry.is_object())
        return std::nullopt;
    const std::optional<QString> uri = uriMember(entry, uriKey);
    const QString name = stringMember(entry, "name", MaxNameChars);
    if (!uri || name.isEmpty())
        return std::nullopt;
    Entry listed;
    listed.*uriField = *uri;
    listed.name = name;
    listed.title = stringMember(entry, "title", MaxNameChars);
    listed.description = stringMember(entry, "description", MaxDescriptionChars);
    listed.mimeType = stringMember(entry, "mimeType", MaxNameChars);
    return listed;
}

std::optional<McpResource> parseResource(const json &entry)
{
    std::optional<McpResource> resource = parseListed(entry, "uri", &McpResource::uri);
    if (const auto size = entry.find("size");
        resource && size != entry.end() && size->is_number_integer() && size->get<std::int64_t>() >= 0)
        resource->size = size->get<std::int64_t>();
    return resource;
}

std::optional<McpResourceTemplate> parseResourceTemplate(const json &entry)
{
    return parseListed(entry, "uriTemplate", &McpResourceTemplate::uriTemplate);
}

std::optional<McpPrompt> parsePrompt(const json &entry)
{
    if (!entry.is_object())
        return std::nullopt;
    McpPrompt prompt;
    // The name goes back to the server in prompts/get: it is kept whole or not at all.
    const auto name = entry.find("name");
    if (name == entry.end() || !name->is_string() || name->get_ref<const std::string &>().empty()
        || name->get_ref<const std::string &>().size() > std::size_t(MaxNameChars))
        return std::nullopt;
    prompt.name = QString::fromStdString(name->get<std::string>());
    prompt.title = stringMember(entry, "title", MaxNameChars);
    prompt.description = stringMember(entry, "description", MaxDescriptionChars);
    if (const auto arguments = entry.find("arguments"); arguments != entry.end()) {
        if (!arguments->is_array())
            return std::nullopt;
        std::set<QString> names;
        for (const json &argument : *arguments) {
            McpPromptArgument parsed;
            parsed.name = argument.is_object() ? stringMember(argument, "name", MaxNameChars) : QString();
            // An argument without a name, or one named twice, makes the form ambiguous:
            // the prompt is left out (counted) rather than half shown.
            if (parsed.name.isEmpty() || !names.insert(parsed.name).second
                || prompt.arguments.size() >= MaxPromptArguments)
                return std::nullopt;
            parsed.description = stringMember(argument, "description", MaxDescriptionChars);
            const auto required = argument.find("required");
            parsed.required = required != argument.end() && required->is_boolean() && required->get<bool>();
            prompt.arguments.push_back(std::move(parsed));
        }
    }
    return prompt;
}

std::vector<McpResourceContents> parseContents(const json &result, QString *error)
{
    std::vector<McpResourceContents> all;
    const auto contents = result.is_object() ? result.find("contents") : result.end();
    if (contents == result.end() || !contents->is_array()) {
        *error = tr("the server's resources/read result has no \"contents\" array");
        return {};
    }
    for (const json &entry : *contents) {
        if (!entry.is_object())
            continue;
        if (all.size() >= MaxContents)
            break;
        McpResourceContents part;
        part.uri = stringMember(entry, "uri", MaxUriChars);
        part.mimeType = stringMember(entry, "mimeType", MaxNameChars);
        const auto text = entry.find("text");
        const auto blob = entry.find("blob");
        if (text != entry.end() && text->is_string()) {
            part.text = QString::fromStdString(text->get<std::string>());
        } else if (blob != entry.end() && blob->is_string()) {
            part.isBlob = true;
            const std::string &base64 = blob->get_ref<const std::string &>();
            auto decoded
                = QByteArray::fromBase64Encoding(QByteArray::fromRawData(base64.data(), qsizetype(base64.size())),
                                                 QByteArray::AbortOnBase64DecodingErrors);
            if (decoded)
                part.blob = std::move(*decoded);
            else
                part.problem = tr("its blob is not valid base64 (%1 characters)").arg(base64.size());
        } else {
            part.problem = tr("it has neither a \"text\" nor a \"blob\" string");
        }
        all.push_back(std::move(part));
    }
    if (all.empty())
        *error = tr("the server's resources/read result has no contents (no object in \"contents\")");
    return all;
}

McpPromptResult parsePromptResult(const json &result, QString *error)
{
    McpPromptResult prompt;
    const auto messages = result.is_object() ? result.find("messages") : result.end();
    if (messages == result.end() || !messages->is_array()) {
        *error = tr("the server's prompts/get result has no \"messages\" array");
        return prompt;
    }
    prompt.description = stringMember(result, "description", MaxDescriptionChars);
    for (const json &message : *messages) {
        const auto content = message.is_object() ? message.find("content") : message.end();
        if (content == message.end() || !content->is_object() || prompt.messages.size() >= MaxMessages) {
            ++prompt.dropped;
            continue;
        }
        const QString role = stringMember(message, "role", 40);
        prompt.messages.push_back({role.isEmpty() ? tr("(no role)") : printableText(role), *content});
    }
    return prompt;
}

void listResources(McpClientSession *session, ListDone<McpResource> done)
{
    listAll<McpResource>(session, "resources", QStringLiteral("resources/list"), "resources", &parseResource,
                         std::move(done));
}

void listResourceTemplates(McpClientSession *session, ListDone<McpResourceTemplate> done)
{
    listAll<McpResourceTemplate>(session, "resources", QStringLiteral("resources/templates/list"), "resourceTemplates",
                                 &parseResourceTemplate, std::move(done));
}

void listPrompts(McpClientSession *session, ListDone<McpPrompt> done)
{
    listAll<McpPrompt>(session, "prompts", QStringLiteral("prompts/list"), "prompts", &parsePrompt, std::move(done));
}

QString requestSubject(const QString &method, const QString &what)
{
    return tr("%1 of \"%2\"").arg(method, elidedText(printableText(what), 200));
}

void readResource(McpClientSession *session, const QString &uri,
                  std::function<void(const std::vector<McpResourceContents> &, const McpReply &)> done, int timeoutMs,
                  McpInputRequiredRounds::Asker asker)
{
    if (const QString why = refusal(session, "resources"); !why.isEmpty()) {
        later(session, std::move(done), std::vector<McpResourceContents>{}, failure(why));
        return;
    }
    const QString method = QStringLiteral("resources/read");
    session->requestWithInput(
        method, {{"uri", uri.toStdString()}}, requestSubject(method, uri), std::move(asker),
        [done = std::move(done)](const McpReply &reply) {
            if (!reply.ok()) {
                done({}, reply);
                return;
            }
            QString error;
            const std::vector<McpResourceContents> contents = parseContents(reply.result, &error);
            done(contents, error.isEmpty() ? reply : failure(error));
        },
        timeoutMs);
}

void getPrompt(McpClientSession *session, const QString &name, const QMap<QString, QString> &arguments,
               std::function<void(const McpPromptResult &, const McpReply &)> done, McpInputRequiredRounds::Asker asker)
{
    if (const QString why = refusal(session, "prompts"); !why.isEmpty()) {
        later(session, std::move(done), McpPromptResult{}, failure(why));
        return;
    }
    json params = {{"name", name.toStdString()}};
    if (!arguments.isEmpty()) {
        json values = json::object();
        for (auto it = arguments.begin(); it != arguments.end(); ++it)
            values[it.key().toStdString()] = it.value().toStdString();
        params["arguments"] = std::move(values);
    }
    const QString method = QStringLiteral("prompts/get");
    session->requestWithInput(method, std::move(params), requestSubject(method, name), std::move(asker),
                              [done = std::move(done)](const McpReply &reply) {
                                  if (!reply.ok()) {
                                      done({}, reply);
                                      return;
                                  }
                                  QString error;
                                  const McpPromptResult result = parsePromptResult(reply.result, &error);
                                  done(result, error.isEmpty() ? reply : failure(error));
                              });
}

void subscribe(McpClientSession *session, const QString &uri, bool subscribe,
               std::function<void(const McpReply &)> done)
{
    QString why = refusal(session, "resources");
    if (why.isEmpty() && !canSubscribe(*session))
        why = tr("the server's \"resources\" capability does not offer subscribe: the studio does not ask");
    if (!why.isEmpty()) {
        later(session, std::move(done), failure(why));
        return;
    }
    if (session->stateless()) {
        // 2026-07-28: no resources/subscribe; the URIs go in a subscriptions/listen's filter.
        QStringList uris = session->resourceSubscriptions();
        uris.removeAll(uri);
        if (subscribe)
            uris << uri;
        session->setResourceSubscriptions(uris, [done = std::move(done)](const QString &why) {
            done(why.isEmpty() ? McpReply{json::object(), {}, {}} : failure(why));
        });
        return;
    }
    session->request(subscribe ? QStringLiteral("resources/subscribe") : QStringLiteral("resources/unsubscribe"),
                     {{"uri", uri.toStdString()}}, std::move(done));
}

QStringList uriTemplateVariables(const QString &uriTemplate, QString *error)
{
    QStringList names;
    qsizetype at = 0;
    while (true) {
        const qsizetype open = uriTemplate.indexOf(u'{', at);
        const qsizetype stray = uriTemplate.indexOf(u'}', at);
        if (stray >= 0 && (open < 0 || stray < open)) {
            if (error)
                *error = tr("the URI template has a '}' without '{' at character %1").arg(stray + 1);
            return {};
        }
        if (open < 0)
            break;
        const qsizetype close = uriTemplate.indexOf(u'}', open);
        if (close < 0) {
            if (error)
                *error = tr("the URI template has a '{' without '}' at character %1").arg(open + 1);
            return {};
        }
        const QString name = uriTemplate.mid(open + 1, close - open - 1);
        // Level 1 (RFC 6570 §1.2): a bare variable name of ALPHA / DIGIT / "_" / pct-encoded / ".".
        bool plain = !name.isEmpty();
        for (const QChar c : name)
            plain = plain
                && ((c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') || c == u'_'
                    || c == u'.' || c == u'%');
        if (!plain) {
            if (error)
                *error = tr("the URI template's expression {%1} is beyond RFC 6570 level 1 (only {name} is filled "
                            "in here): type the URI instead")
                             .arg(elidedText(name, 40));
            return {};
        }
        if (!names.contains(name))
            names << name;
        at = close + 1;
    }
    return names;
}

QString expandUriTemplate(const QString &uriTemplate, const QMap<QString, QString> &values, QString *error)
{
    QString why;
    uriTemplateVariables(uriTemplate, &why);
    if (!why.isEmpty()) {
        *error = why;
        return {};
    }
    QString uri;
    qsizetype at = 0;
    while (true) {
        const qsizetype open = uriTemplate.indexOf(u'{', at);
        if (open < 0) {
            uri += uriTemplate.mid(at);
            break;
        }
        const qsizetype close = uriTemplate.indexOf(u'}', open);
        uri += uriTemplate.mid(at, open - at);
        const QString name = uriTemplate.mid(open + 1, close - open - 1);
        uri += QString::fromLatin1(QUrl::toPercentEncoding(values.value(name)));
        at = close + 1;
    }
    return uri;
}

} // namespace McpServerFeatures
