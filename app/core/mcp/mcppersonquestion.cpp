// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcppersonquestion.h"

#include "mcp/samplingmedia.h"
#include "mcp/samplingtools.h"

#include "project/manifestreader.h"
#include "project/printabletext.h"
#include "project/schemavalidator.h"

#include <QHostAddress>
#include <QStringList>
#include <QUrl>

using nlohmann::json;

namespace {

int depthOf(const json &value, int limit)
{
    if (limit < 0 || !value.is_structured())
        return 0;
    int deepest = 0;
    for (const json &member : value) {
        deepest = std::max(deepest, depthOf(member, limit - 1));
        if (deepest > limit)
            break;
    }
    return deepest + 1;
}

QString stringOf(const json &object, const char *key)
{
    const auto found = object.find(key);
    return found != object.end() && found->is_string() ? QString::fromStdString(found->get<std::string>()) : QString();
}

/// One content block (or an array of them, 2025-11-25) as text: text as it is, an image
/// or audio block by its number below the transcript ("[image 1: image/png]") or why it
/// is not shown, others named.
QString contentText(const json &content, SamplingMedia &media)
{
    if (content.is_array()) {
        QStringList parts;
        for (const json &block : content) {
            parts << contentText(block, media);
            if (parts.size() > 100)
                break;
        }
        return parts.join(u'\n');
    }
    if (!content.is_object())
        return QStringLiteral("[?]");
    const QString type = stringOf(content, "type");
    if (type == QLatin1String("text"))
        return clippedText(stringOf(content, "text"), McpPersonQuestion::MaxMessageChars);
    if (const QString line = SamplingTools::transcriptLine(content); !line.isEmpty())
        return line;
    if (const SamplingMedia::Block *block = media.find(content)) {
        const QString mime = block->mimeType.isEmpty() ? QStringLiteral("no mimeType") : block->mimeType;
        if (block->shown > 0)
            return QStringLiteral("[%1 %2: %3]").arg(type).arg(block->shown).arg(mime);
        return QStringLiteral("[%1 %2: not shown: %3]").arg(type, mime, block->notKept);
    }
    if (SamplingMedia::isMedia(content)) // one of those only counted (SamplingMedia::notChecked)
        return QStringLiteral("[%1: not shown]").arg(type);
    return QStringLiteral("[%1]").arg(elidedText(type.isEmpty() ? QStringLiteral("?") : type, 40));
}

/// A URL-mode elicitation (2025-11-25): the page the server asks a person to open. The
/// URL is checked here so that what a person is asked to open is what opens: http or
/// https, a host, no user name or password before it (`https://bank.example@evil.test/`
/// reads as the bank's), printable, bounded. The host is shown as it resolves: an
/// internationalised name in its ASCII (punycode) form, so a look-alike shows.
std::optional<json> urlElicitation(json question, const json &params, QString *error)
{
    const auto url = params.find("url");
    if (url == params.end() || !url->is_string() || url->get_ref<const std::string &>().empty()) {
        *error = QStringLiteral("a URL-mode elicitation/create needs \"url\", the page to open");
        return std::nullopt;
    }
    const std::string &text = url->get_ref<const std::string &>();
    if (text.size() > McpPersonQuestion::MaxUrlBytes) {
        *error = QStringLiteral("the url is %1 bytes; Tool Studio opens URLs of at most %2")
                     .arg(text.size())
                     .arg(McpPersonQuestion::MaxUrlBytes);
        return std::nullopt;
    }
    const QString written = QString::fromStdString(text);
    if (printableText(written) != written || written.contains(u' ')) {
        *error = QStringLiteral("the url has spaces or characters that are not printable; send it percent-encoded");
        return std::nullopt;
    }
    const QUrl page(written, QUrl::StrictMode);
    const QString scheme = page.scheme().toLower();
    if (!page.isValid() || (scheme != QLatin1String("https") && scheme != QLatin1String("http"))) {
        *error = QStringLiteral("the url is not an http or https URL (\"%1\"); Tool Studio opens web pages only")
                     .arg(elidedText(written, 80));
        return std::nullopt;
    }
    if (page.host().isEmpty()) {
        *error = QStringLiteral("the url has no host");
        return std::nullopt;
    }
    // The host as it resolves: a name in its ASCII form (toAce), an IP address as QUrl
    // normalised it (0x7f.1 is 127.0.0.1), an IPv6 one in brackets. A zone id
    // ([fe80::1%25eth0]) names a network interface of this machine: refused.
    QString host = QString::fromLatin1(QUrl::toAce(page.host()));
    if (host.isEmpty() && QHostAddress(page.host()).protocol() == QAbstractSocket::IPv4Protocol)
        host = page.host();
    else if (host.isEmpty() && QHostAddress(page.host()).protocol() == QAbstractSocket::IPv6Protocol
             && !page.host().contains(u'%'))
        host = u'[' + page.host() + u']';
    if (host.isEmpty()) {
        *error = QStringLiteral("the url's host \"%1\" is not a name or an address a browser opens")
                     .arg(elidedText(printableText(page.host()), 80));
        return std::nullopt;
    }
    if (!page.userInfo().isEmpty()) {
        *error = QStringLiteral("the url has a user name or password before its host (\"%1@\"); a person would "
                                "take the part before the @ for the site")
                     .arg(elidedText(page.userInfo(QUrl::FullyEncoded), 40));
        return std::nullopt;
    }
    const auto id = params.find("elicitationId");
    if (id == params.end() || !id->is_string() || id->get_ref<const std::string &>().empty()
        || id->get_ref<const std::string &>().size() > 256) {
        *error = QStringLiteral("a URL-mode elicitation/create needs \"elicitationId\", a string of 1 to 256 bytes");
        return std::nullopt;
    }
    question["kind"] = "elicitation";
    question["mode"] = "url";
    question["message"] = clippedText(stringOf(params, "message"), McpPersonQuestion::MaxMessageChars).toStdString();
    question["url"] = page.toString(QUrl::FullyEncoded).toStdString();
    question["host"] = host.toStdString();
    question["elicitation_id"] = *id;
    return question;
}

std::optional<json> elicitation(json question, const json &params, QString *error)
{
    const QString mode = params.contains("mode") ? stringOf(params, "mode") : QStringLiteral("form");
    if (mode == QLatin1String("url"))
        return urlElicitation(std::move(question), params, error);
    if (mode != QLatin1String("form")) {
        *error = QStringLiteral("Tool Studio offers form and URL elicitation, not \"%1\"").arg(elidedText(mode, 40));
        return std::nullopt;
    }
    const auto schema = params.find("requestedSchema");
    if (schema == params.end() || !schema->is_object() || schema->value("type", json()) != "object") {
        *error = QStringLiteral("elicitation/create needs a requestedSchema of \"type\": \"object\"");
        return std::nullopt;
    }
    const std::size_t bytes = schema->dump(-1, ' ', false, json::error_handler_t::replace).size();
    if (bytes > McpPersonQuestion::MaxSchemaBytes) {
        *error = QStringLiteral("the requestedSchema is %1 bytes; Tool Studio shows forms of at most %2")
                     .arg(bytes)
                     .arg(McpPersonQuestion::MaxSchemaBytes);
        return std::nullopt;
    }
    if (depthOf(*schema, McpPersonQuestion::MaxSchemaDepth) > McpPersonQuestion::MaxSchemaDepth) {
        *error = QStringLiteral("the requestedSchema is nested deeper than %1 levels; a form is flat")
                     .arg(McpPersonQuestion::MaxSchemaDepth);
        return std::nullopt;
    }
    QString why;
    if (!SchemaValidator::compile(*schema, &why)) {
        *error = QStringLiteral("the requestedSchema cannot be shown as a form: %1").arg(elidedText(why, 300));
        return std::nullopt;
    }
    question["kind"] = "elicitation";
    question["message"] = clippedText(stringOf(params, "message"), McpPersonQuestion::MaxMessageChars).toStdString();
    question["schema"] = *schema;
    return question;
}

/// A message's content as a model is given it (modelParts).
struct ModelContent
{
    json parts = json::array(); ///< neutral parts, adjacent text in one
    std::size_t textBytes = 0;
    /// Bytes of text the content may have (what is left of MaxModelRequestBytes).
    std::size_t maxTextBytes = McpPersonQuestion::MaxModelRequestBytes;
    bool tooLong = false; ///< more text than maxTextBytes: the rest is not built
    bool media = false;   ///< some part is an image or audio: the content is the parts, else their text
    nlohmann::json toolCalls = nlohmann::json::array();    ///< its tool_use blocks as neutral tool calls
    nlohmann::json toolMessages = nlohmann::json::array(); ///< its tool_result blocks as neutral tool messages
};

/// What of a request a model is not given: the blocks counted, the media's reasons noted.
struct Omissions
{
    int count = 0;
    QStringList mediaNotes; ///< the first MaxMediaNotes
    std::size_t moreMedia = 0;
    static constexpr qsizetype MaxMediaNotes = 5;
};

void addText(ModelContent &content, const QString &text)
{
    const std::string utf8 = text.toStdString();
    if (content.textBytes + utf8.size() > content.maxTextBytes) {
        content.tooLong = true;
        return;
    }
    content.textBytes += utf8.size();
    if (!content.parts.empty() && content.parts.back()["type"] == "text")
        content.parts.back()["text"].get_ref<std::string &>().append("\n").append(utf8);
    else
        content.parts.push_back({{"type", "text"}, {"text", utf8}});
}

/// One message's content as the parts a model is given: text blocks as they are, an
/// image or audio block SamplingMedia passes as its part (its modelPart records where), any other
/// block (a tool's use or result, an image not sent) a note that it was not sent. Stops
/// at the block whose text is past out.maxTextBytes (measured before it is copied).
void modelParts(const json &content, std::size_t message, SamplingMedia &media, ModelContent &out, Omissions &omitted,
                bool blocks = true)
{
    if (content.is_array() && blocks) {
        for (const json &block : content) {
            modelParts(block, message, media, out, omitted, false);
            if (out.tooLong)
                return;
        }
        return;
    }
    const QString type = content.is_object() ? stringOf(content, "type") : QString();
    if (type == QLatin1String("text")) {
        const auto text = content.find("text");
        if (text != content.end() && text->is_string()
            && out.textBytes + text->get_ref<const std::string &>().size() > out.maxTextBytes) {
            out.tooLong = true;
            return;
        }
        addText(out, stringOf(content, "text"));
        return;
    }
    if (type == QLatin1String("tool_use") || type == QLatin1String("tool_result")) { // checked (SamplingTools::check)
        // Measured before it is built: a server's megabytes are not copied to be refused.
        if (const std::size_t left = out.maxTextBytes - out.textBytes; SamplingTools::bytesOf(content, left) > left) {
            out.tooLong = true;
            return;
        }
        json neutral = type == QLatin1String("tool_use") ? SamplingTools::toolCall(content)
                                                         : SamplingTools::toolMessage(content, omitted.count);
        const std::size_t bytes = neutral.dump(-1, ' ', false, json::error_handler_t::replace).size();
        if (out.textBytes + bytes > out.maxTextBytes) {
            out.tooLong = true;
            return;
        }
        out.textBytes += bytes;
        (type == QLatin1String("tool_use") ? out.toolCalls : out.toolMessages).push_back(std::move(neutral));
        return;
    }
    if (SamplingMedia::Block *block = media.find(content); block && !block->part.is_null()) {
        block->modelPart = json::array({message, out.parts.size()});
        out.parts.push_back(std::move(block->part)); // given once
        out.media = true;
        return;
    } else if (!block && SamplingMedia::isMedia(content)) {
        ++omitted.moreMedia; // one of those SamplingMedia only counted
    } else if (block) {
        if (omitted.mediaNotes.size() < Omissions::MaxMediaNotes)
            omitted.mediaNotes << QStringLiteral("messages[%1] %2 %3: %4; not sent")
                                      .arg(message)
                                      .arg(type,
                                           block->mimeType.isEmpty() ? QStringLiteral("(no mimeType)")
                                                                     : block->mimeType,
                                           block->notSent);
        else
            ++omitted.moreMedia;
    }
    ++omitted.count;
    addText(out,
            QStringLiteral("[%1 not sent]").arg(elidedText(type.isEmpty() ? QStringLiteral("content") : type, 40)));
}

/// A value of the server's for a note: its JSON, printable, at most 40 characters.
QString shown(const json &value)
{
    return elidedText(printableText(QString::fromStdString(value.dump(-1, ' ', false, json::error_handler_t::replace))),
                      40);
}

/// Why `entry` is no stop sequence (text of 1 to MaxStopSequenceBytes bytes), "" when it is one.
QString stopSequenceProblem(const json &entry)
{
    if (!entry.is_string())
        return QStringLiteral("is %1, not text").arg(ManifestReader::typeName(entry));
    const std::size_t bytes = entry.get_ref<const std::string &>().size();
    if (bytes == 0)
        return QStringLiteral("is empty");
    if (bytes > McpPersonQuestion::MaxStopSequenceBytes)
        return QStringLiteral("is %1 bytes, more than %2").arg(bytes).arg(McpPersonQuestion::MaxStopSequenceBytes);
    return {};
}

/// The server's temperature and stopSequences into `request` as far as a model is given
/// them; what is not, said in `notes`. The provider's range is checked when a model is
/// asked (SamplingModelCall::configFor).
void addSampling(const json &params, json &request, QStringList &notes)
{
    if (const auto temperature = params.find("temperature"); temperature != params.end()) {
        if (temperature->is_number())
            request["temperature"] = temperature->get<double>();
        else if (!temperature->is_null())
            notes << QStringLiteral("temperature %1 is not a number; not sent").arg(shown(*temperature));
    }
    const auto stops = params.find("stopSequences");
    if (stops == params.end() || stops->is_null())
        return;
    if (!stops->is_array()) {
        notes
            << QStringLiteral("stopSequences is %1, not an array; none is sent").arg(ManifestReader::typeName(*stops));
        return;
    }
    json kept = json::array();
    std::size_t bad = 0;
    std::size_t extra = 0;
    QString firstBad;
    for (std::size_t i = 0; i < stops->size(); ++i) {
        const json &entry = (*stops)[i];
        if (const QString problem = stopSequenceProblem(entry); !problem.isEmpty()) {
            if (bad++ == 0)
                firstBad = QStringLiteral("stopSequences[%1] %2").arg(i).arg(problem);
        } else if (kept.size() < McpPersonQuestion::MaxStopSequences) {
            kept.push_back(entry);
        } else {
            ++extra;
        }
    }
    if (bad > 0)
        notes << firstBad
                + (bad > 1 ? QStringLiteral(" (and %1 more entries not text of 1 to %2 bytes)")
                                 .arg(bad - 1)
                                 .arg(McpPersonQuestion::MaxStopSequenceBytes)
                           : QString())
                + QStringLiteral("; not sent");
    if (extra > 0)
        notes << QStringLiteral("stopSequences has %1 usable entries; a model is given the first %2, not the other %3")
                     .arg(kept.size() + extra)
                     .arg(McpPersonQuestion::MaxStopSequences)
                     .arg(extra);
    if (!kept.empty())
        request["stop_sequences"] = std::move(kept);
}

/// The server's modelPreferences into `request`: "hints" (the names, in order) and
/// "priorities" (shown, not acted on); what is not taken, said in `notes`.
void addPreferences(const json &params, json &request, QStringList &notes)
{
    const auto preferences = params.find("modelPreferences");
    if (preferences == params.end() || preferences->is_null())
        return;
    if (!preferences->is_object()) {
        notes << QStringLiteral("modelPreferences is %1, not an object; not used")
                     .arg(ManifestReader::typeName(*preferences));
        return;
    }
    if (const auto hints = preferences->find("hints"); hints != preferences->end() && !hints->is_null()) {
        if (!hints->is_array()) {
            notes << QStringLiteral("modelPreferences.hints is %1, not an array; no model is chosen by them")
                         .arg(ManifestReader::typeName(*hints));
        } else {
            json names = json::array();
            std::size_t skipped = 0;
            for (const json &hint : *hints) {
                const auto name = hint.is_object() ? hint.find("name") : hint.end();
                const bool fits = name != hint.end() && name->is_string()
                    && !name->get_ref<const std::string &>().empty()
                    && name->get_ref<const std::string &>().size() <= McpPersonQuestion::MaxHintBytes;
                if (fits && names.size() < McpPersonQuestion::MaxModelHints)
                    names.push_back(printableText(QString::fromStdString(name->get<std::string>())).toStdString());
                else
                    ++skipped;
            }
            if (skipped > 0)
                notes << QStringLiteral("modelPreferences.hints: %1 of %2 hints not used (a hint is {\"name\": text "
                                        "of 1 to %3 bytes}; at most %4 are used)")
                             .arg(skipped)
                             .arg(hints->size())
                             .arg(McpPersonQuestion::MaxHintBytes)
                             .arg(McpPersonQuestion::MaxModelHints);
            if (!names.empty())
                request["hints"] = std::move(names);
        }
    }
    json priorities = json::object();
    for (const char *key : {"costPriority", "speedPriority", "intelligencePriority"}) {
        const auto value = preferences->find(key);
        if (value == preferences->end() || value->is_null())
            continue;
        if (value->is_number() && value->get<double>() >= 0 && value->get<double>() <= 1)
            priorities[key] = value->get<double>();
        else
            notes << QStringLiteral("modelPreferences.%1 %2 is not a number from 0 to 1; not shown")
                         .arg(QLatin1String(key), shown(*value));
    }
    if (!priorities.empty())
        request["priorities"] = std::move(priorities);
}

/// The request a model is asked when one writes the reply (McpPersonQuestion::question);
/// `media` gets where each image or audio part is in it.
json modelRequest(const json &messages, const json &params, SamplingMedia &media)
{
    if (messages.size() > McpPersonQuestion::MaxModelMessages)
        return {{"error",
                 QStringLiteral("the request has %1 messages; a model is given at most %2")
                     .arg(messages.size())
                     .arg(McpPersonQuestion::MaxModelMessages)
                     .toStdString()}};
    json neutral = json::array();
    Omissions omitted;
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < messages.size(); ++i) {
        const json &message = messages[i];
        const QString role = message.is_object() ? stringOf(message, "role") : QString();
        if (role != QLatin1String("user") && role != QLatin1String("assistant"))
            return {{"error",
                     QStringLiteral("messages[%1] has the role \"%2\"; a model is given user and assistant "
                                    "messages only")
                         .arg(i)
                         .arg(elidedText(role, 20))
                         .toStdString()}};
        ModelContent content;
        content.maxTextBytes = McpPersonQuestion::MaxModelRequestBytes - bytes;
        const auto blocks = message.find("content");
        static const json none;
        // By reference: the media are found by the blocks' addresses.
        modelParts(blocks != message.end() ? *blocks : none, i, media, content, omitted);
        bytes += content.textBytes;
        if (content.tooLong) {
            bytes = McpPersonQuestion::MaxModelRequestBytes + 1;
            break;
        }
        if (!content.toolMessages.empty()) { // a message of tool results holds nothing else
            for (json &result : content.toolMessages)
                neutral.push_back(std::move(result));
            continue;
        }
        json text = content.media   ? std::move(content.parts)
            : content.parts.empty() ? (content.toolCalls.empty() ? json(std::string()) : json())
                                    : std::move(content.parts[0]["text"]);
        neutral.push_back({{"role", role.toStdString()}, {"content", std::move(text)}});
        if (!content.toolCalls.empty())
            neutral.back()["tool_calls"] = std::move(content.toolCalls);
    }
    const QString system = stringOf(params, "systemPrompt");
    bytes += std::size_t(system.toUtf8().size());
    if (bytes > McpPersonQuestion::MaxModelRequestBytes) {
        media.clearModelParts(); // no request: the person's media keep their data
        return {{"error",
                 QStringLiteral("the request's text is more than the %1 bytes a model is given")
                     .arg(McpPersonQuestion::MaxModelRequestBytes)
                     .toStdString()}};
    }
    json request = {{"messages", std::move(neutral)}, {"omitted", omitted.count}};
    if (!system.isEmpty())
        request["system"] = system.toStdString();
    if (json tools = SamplingTools::tools(params); !tools.empty())
        request["tools"] = std::move(tools);
    if (const QString choice = SamplingTools::toolChoice(params); !choice.isEmpty())
        request["tool_choice"] = choice.toStdString();
    QStringList notes = omitted.mediaNotes;
    if (omitted.moreMedia > 0)
        notes << QStringLiteral("%1 more images or audio clips not sent").arg(omitted.moreMedia);
    addSampling(params, request, notes);
    addPreferences(params, request, notes);
    if (const auto context = params.find("includeContext"); context != params.end() && *context != "none") {
        // The studio is no host of other conversations or servers' context: it has none to give.
        if (*context == "thisServer" || *context == "allServers")
            notes << QStringLiteral("includeContext %1 asked; the studio includes none").arg(shown(*context));
        else if (!context->is_null())
            notes << QStringLiteral("includeContext %1 is not \"none\", \"thisServer\" or \"allServers\"; the "
                                    "studio includes none")
                         .arg(shown(*context));
    }
    if (!notes.isEmpty()) {
        json lines = json::array();
        for (const QString &note : notes)
            lines.push_back(note.toStdString());
        request["notes"] = std::move(lines);
    }
    return request;
}

std::optional<json> sampling(json question, const json &params, const QString &protocolVersion, QString *error)
{
    const auto messages = params.find("messages");
    if (messages == params.end() || !messages->is_array() || messages->empty()) {
        *error = QStringLiteral("sampling/createMessage needs \"messages\", a non-empty array");
        return std::nullopt;
    }
    // Counted before anything is built: each block costs a check, a name, a part (a
    // tool_result's own blocks too).
    const std::size_t blocks = SamplingTools::contentBlocks(*messages, McpPersonQuestion::MaxContentBlocks);
    if (blocks > McpPersonQuestion::MaxContentBlocks) {
        *error = QStringLiteral("the request's messages hold %1 content blocks; Tool Studio takes at most %2")
                     .arg(blocks)
                     .arg(McpPersonQuestion::MaxContentBlocks);
        return std::nullopt;
    }
    if (const QString problem = SamplingTools::check(params, protocolVersion); !problem.isEmpty()) {
        *error = problem;
        return std::nullopt;
    }
    SamplingMedia media(*messages);
    static const json none;
    // A transcript a person reads, bounded however many megabytes the server sent.
    QString transcript;
    std::size_t shown = 0;
    for (const json &message : *messages) {
        if (transcript.size() >= McpPersonQuestion::MaxMessageChars)
            break;
        const QString role = message.is_object() ? stringOf(message, "role") : QString();
        if (!transcript.isEmpty())
            transcript += u'\n';
        transcript += QStringLiteral("%1: %2").arg(
            elidedText(role.isEmpty() ? QStringLiteral("?") : role, 20),
            contentText(message.is_object() && message.contains("content") ? message["content"] : none, media));
        ++shown;
    }
    transcript = clippedText(transcript, McpPersonQuestion::MaxMessageChars);
    if (shown < messages->size())
        transcript += QStringLiteral("\n… (%1 more messages not shown)").arg(messages->size() - shown);
    if (media.notChecked() > 0)
        transcript += QStringLiteral("\n… (%1 more images and audio clips not shown: past the %2 kept and %3 named)")
                          .arg(media.notChecked())
                          .arg(SamplingMedia::MaxBlocks)
                          .arg(SamplingMedia::MaxNamedNotKept);
    question["kind"] = "sampling";
    question["message"] = transcript.toStdString();
    if (const QString system = stringOf(params, "systemPrompt"); !system.isEmpty())
        question["system_prompt"] = clippedText(system, 4000).toStdString();
    if (const auto tokens = params.find("maxTokens"); tokens != params.end() && tokens->is_number_integer())
        question["max_tokens"] = *tokens;
    if (json tools = SamplingTools::tools(params); !tools.empty())
        question["tools"] = std::move(tools);
    if (const QString choice = SamplingTools::toolChoice(params); !choice.isEmpty())
        question["tool_choice"] = choice.toStdString();
    question["model_request"] = modelRequest(*messages, params, media);
    // The images and audio a person sees below the transcript: those in the model's
    // request by where they are there (the journal keeps their data once).
    if (json shown = media.shown(); !shown.empty())
        question["media"] = std::move(shown);
    return question;
}

} // namespace

std::optional<json> McpPersonQuestion::question(const QString &server, const McpServerRequest &request, QString *error)
{
    json question
        = {{"server", server.toStdString()}, {"method", request.method.toStdString()}, {"request_id", request.id}};
    static const json noParams = json::object();
    // By reference: a sampling request's params may be tens of megabytes.
    const json &params = request.params.is_object() ? request.params : noParams;
    if (request.method == QLatin1String("elicitation/create"))
        return elicitation(std::move(question), params, error);
    if (request.method == QLatin1String("sampling/createMessage"))
        return sampling(std::move(question), params, request.protocolVersion, error);
    *error = QStringLiteral("Tool Studio does not ask a person for %1").arg(elidedText(request.method, 64));
    return std::nullopt;
}

json McpPersonQuestion::resultFor(const json &question, const ManualAnswer &answer)
{
    if (question.value("kind", json()) == "sampling" && answer.result.contains("content")) // tool_use blocks
        return {{"role", "assistant"},
                {"content", answer.result["content"]},
                {"model", answer.result.value("model", std::string("person"))},
                {"stopReason", answer.result.value("stopReason", std::string("toolUse"))}};
    if (question.value("kind", json()) == "sampling")
        return {{"role", "assistant"},
                {"content", {{"type", "text"}, {"text", answer.result.value("text", std::string())}}},
                {"model", answer.result.value("model", std::string("person"))},
                {"stopReason", answer.result.value("stopReason", std::string("endTurn"))}};
    return answer.result;
}
