// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpinputrequiredrounds.h"

#include "mcp/mcpclientsession.h"
#include "mcp/mcprevision.h"
#include "project/durationtext.h"
#include "project/printabletext.h"

#include <QPointer>

#include <utility>

using nlohmann::json;

McpInputRequiredRounds::McpInputRequiredRounds(Channel channel, QObject *parent)
    : QObject(parent)
    , m_channel(std::move(channel))
{}

McpInputRequiredRounds::~McpInputRequiredRounds() = default; // callbacks are not called from a destructor

void McpInputRequiredRounds::start(qint64 call, Request request, ReplyHandler done, int timeoutMs)
{
    Call &entry = m_calls[call];
    entry.request = std::move(request);
    entry.done = std::move(done);
    entry.timeoutMs = timeoutMs;
    sendRound(call);
}

QString McpInputRequiredRounds::describe(const QString &method, const json &params)
{
    const json message = params.is_object() ? params.value("message", json()) : json();
    if (method != QLatin1String("elicitation/create") || !message.is_string())
        return method;
    return QStringLiteral("%1 (\"%2\")")
        .arg(method, elidedText(printableText(QString::fromStdString(message.get<std::string>())), 200));
}

QString McpInputRequiredRounds::noPersonWhy(const QString &method, const json &params)
{
    return QStringLiteral("it asks for %1, and nobody can answer it here").arg(describe(method, params));
}

QString McpInputRequiredRounds::timedOut(const Call &entry, int rounds)
{
    return QStringLiteral("%1 timed out: the server took %2 s in all over %3 rounds (the time a question waited "
                          "for its answer not counted)")
        .arg(entry.request.subject, decimalSeconds(entry.serverMs))
        .arg(rounds);
}

qint64 McpInputRequiredRounds::callOf(const json &id)
{
    if (!id.is_string())
        return 0;
    const std::string &text = id.get_ref<const std::string &>();
    const std::size_t prefix = std::char_traits<char>::length(IdPrefix);
    if (text.compare(0, prefix, IdPrefix) != 0)
        return 0;
    const std::size_t colon = text.find(':', prefix);
    if (colon == std::string::npos || colon == prefix || colon - prefix > 18)
        return 0;
    qint64 call = 0;
    for (std::size_t i = prefix; i < colon; ++i) {
        if (text[i] < '0' || text[i] > '9')
            return 0;
        call = call * 10 + (text[i] - '0');
    }
    return call;
}

void McpInputRequiredRounds::sendRound(qint64 call)
{
    const auto found = m_calls.find(call);
    if (found == m_calls.end())
        return;
    Call &entry = found->second;
    json params = entry.request.params.is_object() ? entry.request.params : json::object();
    if (entry.rounds > 0) {
        // The retry (basic/patterns/mrtr): the answers, and requestState exactly as given.
        params["inputResponses"] = std::exchange(entry.responses, json::object());
        if (!entry.requestState.is_null())
            params["requestState"] = entry.requestState;
    }
    int timeoutMs = entry.timeoutMs;
    if (entry.rounds > 0 && timeoutMs > 0) {
        const qint64 left = timeoutMs - entry.serverMs;
        if (left <= 0) {
            finish(call, McpReply{{}, {}, timedOut(entry, entry.rounds)});
            return;
        }
        timeoutMs = int(left);
    }
    entry.sentAt = m_channel.now();
    const QPointer<McpInputRequiredRounds> self(this);
    const qint64 id = m_channel.request(
        entry.request.method, std::move(params),
        [self, call](const McpReply &reply) {
            if (self)
                self->onRound(call, reply);
        },
        timeoutMs);
    if (!self)
        return;
    if (const auto still = m_calls.find(call); still != m_calls.end() && m_channel.inFlight(id))
        still->second.inFlight = id;
}

void McpInputRequiredRounds::onRound(qint64 call, const McpReply &reply)
{
    const auto found = m_calls.find(call);
    if (found == m_calls.end())
        return;
    Call &entry = found->second;
    entry.inFlight = 0;
    entry.serverMs += m_channel.now() - entry.sentAt;
    if (!reply.ok() && entry.rounds > 0 && entry.timeoutMs > 0 && entry.serverMs >= entry.timeoutMs) {
        finish(call, McpReply{{}, {}, timedOut(entry, entry.rounds + 1)}); // the last round's own timeout said less
        return;
    }
    if (!reply.ok() || McpRevision::resultType(reply.result) != McpRevision::InputRequired) {
        finish(call, reply);
        return;
    }
    const auto refuse = [&](const QString &why) {
        finish(
            call,
            McpReply{{}, {}, QStringLiteral("the server's input_required for %1: %2").arg(entry.request.subject, why)});
    };
    if (++entry.rounds > MaxRounds)
        return refuse(QStringLiteral("it asked for input more than %1 times in one call; the studio stopped there")
                          .arg(MaxRounds));
    const json &result = reply.result;
    const json requests = result.value("inputRequests", json());
    const json state = result.value("requestState", json());
    if (!requests.is_null() && !requests.is_object())
        return refuse(QStringLiteral("inputRequests is not an object"));
    if (!state.is_null() && !state.is_string())
        return refuse(QStringLiteral("requestState is not a string"));
    if ((requests.is_null() || requests.empty()) && state.is_null())
        return refuse(QStringLiteral("it has neither inputRequests nor requestState"));
    if (state.is_string() && state.get_ref<const std::string &>().size() > MaxRequestStateBytes)
        return refuse(QStringLiteral("its requestState is %1 bytes, over the limit of %2")
                          .arg(state.get_ref<const std::string &>().size())
                          .arg(MaxRequestStateBytes));
    if (requests.is_object() && requests.size() > MaxRequests)
        return refuse(QStringLiteral("it asks %1 things at once, more than the %2 the studio takes")
                          .arg(requests.size())
                          .arg(MaxRequests));
    const Asker &asker = entry.request.asker;
    struct Ask
    {
        json id;
        QString method;
        json params;
    };
    std::vector<Ask> asks;
    json responses = json::object();
    if (requests.is_object())
        for (const auto &[key, request] : requests.items()) {
            const QString shownKey = elidedText(printableText(QString::fromStdString(key)), 64);
            if (key.size() > McpClientSession::MaxServerRequestIdBytes)
                return refuse(QStringLiteral("an inputRequests key of %1 bytes").arg(key.size()));
            const json method = request.is_object() ? request.value("method", json()) : json();
            if (!method.is_string())
                return refuse(QStringLiteral("inputRequests \"%1\" has no method").arg(shownKey));
            const json params = request.value("params", json::object());
            const std::string &name = method.get_ref<const std::string &>();
            if (name == "roots/list") {
                responses[key] = {{"roots", m_channel.roots()}};
                continue;
            }
            if (name != "elicitation/create" && name != "sampling/createMessage")
                return refuse(QStringLiteral("inputRequests \"%1\" asks for %2; the studio answers "
                                             "elicitation/create, sampling/createMessage and roots/list")
                                  .arg(shownKey, elidedText(printableText(QString::fromStdString(name)), 64)));
            const QString asked = QString::fromStdString(name);
            const json askedParams = params.is_object() ? params : json::object();
            QString nobody = asker.refusal ? asker.refusal(asked, askedParams) : QString();
            if (nobody.isEmpty() && !asker.ask)
                nobody = noPersonWhy(asked, askedParams);
            if (!nobody.isEmpty())
                return refuse(nobody);
            asks.push_back({json(IdPrefix + std::to_string(call) + ":" + key), asked, askedParams});
        }
    if (m_channel.openRequests() + asks.size() > McpClientSession::MaxOpenServerRequests)
        return refuse(QStringLiteral("too many open requests from this server (at most %1 wait for an answer at once)")
                          .arg(McpClientSession::MaxOpenServerRequests));
    entry.requestState = state;
    entry.responses = std::move(responses);
    entry.open.clear();
    const std::string prefix = IdPrefix + std::to_string(call) + ":";
    for (const Ask &ask : asks) {
        entry.open.insert(ask.id.get<std::string>().substr(prefix.size()));
        m_channel.open(ask.id);
    }
    if (asks.empty()) {
        sendRound(call);
        return;
    }
    const QPointer<McpInputRequiredRounds> alive(this);
    for (const Ask &ask : asks) {
        if (!m_channel.isOpen(ask.id))
            continue; // the call ended meanwhile
        const auto still = m_calls.find(call);
        if (still == m_calls.end())
            return;
        const auto handOn = still->second.request.asker.ask; // a copy: answering may end the call
        handOn(ask.id, ask.method, ask.params);
        if (!alive)
            return;
    }
}

bool McpInputRequiredRounds::answer(const json &id, const McpReply &answer)
{
    const qint64 call = callOf(id);
    const auto found = m_calls.find(call);
    if (!m_channel.close(id) || found == m_calls.end())
        return false;
    const std::string key
        = id.get<std::string>().substr(std::string(IdPrefix).size() + std::to_string(call).size() + 1);
    Call &entry = found->second;
    if (entry.open.erase(key) == 0)
        return false;
    if (!answer.ok()) {
        finish(call,
               McpReply{{},
                        {},
                        QStringLiteral("the input \"%1\" the server asked for was not given: %2")
                            .arg(elidedText(printableText(QString::fromStdString(key)), 64), answer.errorText())});
        return true;
    }
    entry.responses[key] = answer.result;
    if (entry.open.empty())
        sendRound(call);
    return true;
}

bool McpInputRequiredRounds::cancel(qint64 call, const QString &reason)
{
    const auto found = m_calls.find(call);
    if (found == m_calls.end())
        return false;
    const qint64 round = found->second.inFlight;
    if (round != 0 && m_channel.inFlight(round))
        m_channel.cancel(round, reason); // its reply ends the call
    else
        finish(call, McpReply{{}, {}, reason});
    return true;
}

std::vector<McpInputRequiredRounds::ReplyHandler> McpInputRequiredRounds::takeAll()
{
    std::map<qint64, Call> calls;
    calls.swap(m_calls);
    std::vector<ReplyHandler> done;
    for (auto &[call, entry] : calls)
        if (entry.done)
            done.push_back(std::move(entry.done));
    return done;
}

void McpInputRequiredRounds::finish(qint64 call, const McpReply &reply)
{
    const auto found = m_calls.find(call);
    if (found == m_calls.end())
        return;
    Call entry = std::move(found->second);
    m_calls.erase(found);
    const QPointer<McpInputRequiredRounds> alive(this);
    for (const std::string &key : entry.open) {
        const json id = IdPrefix + std::to_string(call) + ":" + key;
        if (m_channel.close(id) && entry.request.asker.withdraw) {
            entry.request.asker.withdraw(id); // the question is withdrawn
            if (!alive)
                return;
        }
    }
    if (entry.done)
        entry.done(reply);
}
