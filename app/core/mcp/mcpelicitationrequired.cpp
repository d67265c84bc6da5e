// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpelicitationrequired.h"

#include "mcp/mcpclientsession.h"
#include "mcp/mcppersonquestion.h"
#include "project/printabletext.h"

#include <QLoggingCategory>
#include <QPointer>
#include <QTimer>

#include <algorithm>
#include <memory>

using nlohmann::json;

namespace {

Q_LOGGING_CATEGORY(lcMcp, "toolstudio.mcp", QtInfoMsg)

constexpr qsizetype QuotedChars = 2000;

} // namespace

McpElicitationRequired::McpElicitationRequired(Channel channel, QObject *parent)
    : QObject(parent)
    , m_channel(std::move(channel))
{}

McpElicitationRequired::~McpElicitationRequired() = default; // callbacks are not called from a destructor

qint64 McpElicitationRequired::callTool(json params, ReplyHandler done, int timeoutMs)
{
    // The call is known by its first request's id, which the reply needs: set once sent.
    const auto first = std::make_shared<qint64>(0);
    const QPointer<McpElicitationRequired> self(this);
    // Kept for a retry after -32042: one copy of the call's arguments, moved from here on.
    json sent = params;
    const qint64 id = m_channel.request(
        QStringLiteral("tools/call"), std::move(params),
        [self, first, sent = std::move(sent), done = std::move(done), timeoutMs](const McpReply &reply) {
            if (!self || *first == 0 || !reply.failure.isEmpty() || reply.error.code != Code) {
                done(reply);
                return;
            }
            self->begin(*first, sent, done, timeoutMs, reply);
        },
        timeoutMs);
    *first = id;
    return id;
}

qint64 McpElicitationRequired::callOf(const json &id) const
{
    const auto found = m_asks.find(id.dump());
    return found == m_asks.end() ? 0 : found->second;
}

void McpElicitationRequired::begin(qint64 call, json params, ReplyHandler done, int timeoutMs, const McpReply &reply)
{
    Call &entry = m_calls[call];
    entry.params = std::move(params);
    entry.done = std::move(done);
    entry.timeoutMs = timeoutMs;
    onRequired(call, reply);
}

void McpElicitationRequired::onRequired(qint64 call, const McpReply &reply)
{
    Call &entry = m_calls.at(call);
    if (++entry.rounds > MaxRounds)
        return fail(
            call, tr("it still asks for pages to be opened after %1 rounds; Tool Studio stopped there").arg(MaxRounds));
    const json &data = reply.error.data;
    const json list = data.is_object() ? data.value("elicitations", json()) : json();
    if (!list.is_array() || list.empty())
        return fail(call, tr("its error lists no page to open (\"data.elicitations\" is not a non-empty array)"));
    if (list.size() > MaxElicitations)
        return fail(call,
                    tr("its error lists %1 pages to open; Tool Studio asks a person at most %2 per call")
                        .arg(list.size())
                        .arg(MaxElicitations));
    if (!m_channel.canAsk())
        return fail(call,
                    tr("Tool Studio asks a person to open a page only while a tool of this server is called "
                       "through it"));
    // Every page is checked before the first is asked: a person is not asked to open
    // one page of a list the call fails on anyway.
    std::vector<Page> pages;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const json &item = list[i];
        const QString which = tr("elicitation %1 of %2").arg(i + 1).arg(list.size());
        if (!item.is_object() || item.value("mode", json()) != "url")
            return fail(
                call,
                tr("%1 is not a URL-mode one (\"mode\": \"url\"); this error lists only pages to open").arg(which));
        QString why;
        const auto question = McpPersonQuestion::question(
            QString(), McpServerRequest{nullptr, QStringLiteral("elicitation/create"), item}, &why);
        if (!question)
            return fail(call, QStringLiteral("%1: %2").arg(which, why));
        pages.push_back({item["elicitationId"].get<std::string>(), json(),
                         QString::fromStdString(question->value("host", std::string()))});
    }
    for (Page &page : pages) {
        page.ask = IdPrefix + std::to_string(call) + ":" + std::to_string(m_nextAsk++);
        if (const QString refused = m_channel.open(page.ask); !refused.isEmpty()) {
            for (const Page &opened : pages) {
                if (opened.ask.is_null() || opened.ask == page.ask)
                    break;
                m_asks.erase(opened.ask.dump());
                m_channel.close(opened.ask);
            }
            return fail(call, refused);
        }
        m_asks[page.ask.dump()] = call;
    }
    entry.pages = pages;
    // One after another, in the order listed: the call's handler asks the first and
    // queues the others (McpHandler).
    const QPointer<McpElicitationRequired> alive(this);
    for (std::size_t i = 0; i < pages.size(); ++i) {
        if (!m_asks.count(pages[i].ask.dump()))
            continue; // the call ended meanwhile, or the page was withdrawn
        m_channel.ask(pages[i].ask, list[i]);
        if (!alive)
            return;
    }
}

void McpElicitationRequired::onReply(qint64 call, const McpReply &reply)
{
    const auto found = m_calls.find(call);
    if (found == m_calls.end())
        return;
    found->second.request = 0;
    if (reply.failure.isEmpty() && reply.error.code == Code)
        onRequired(call, reply);
    else
        finish(call, reply);
}

bool McpElicitationRequired::answer(const json &id, const McpReply &answer)
{
    const auto ask = m_asks.find(id.dump());
    if (ask == m_asks.end())
        return false;
    const qint64 call = ask->second;
    m_asks.erase(ask);
    m_channel.close(id);
    const auto found = m_calls.find(call);
    if (found == m_calls.end())
        return true;
    Call &entry = found->second;
    const auto page
        = std::find_if(entry.pages.begin(), entry.pages.end(), [&id](const Page &p) { return p.ask == id; });
    if (page == entry.pages.end() || page->state != PageState::Asked)
        return true;
    const json action = answer.ok() && answer.result.is_object() ? answer.result.value("action", json()) : json();
    if (!answer.ok())
        entry.failure = tr("the page on %1 was not opened: %2")
                            .arg(page->host, printableText(elidedText(answer.errorText(), QuotedChars)));
    else if (action == "accept")
        page->state = PageState::Accepted;
    else if (action == "decline")
        entry.failure = tr("the person declined to open the page on %1").arg(page->host);
    else if (action == "cancel")
        entry.failure = tr("the person cancelled, the page on %1 was not opened").arg(page->host);
    else
        entry.failure = tr("the answer for the page on %1 is not accept, decline or cancel").arg(page->host);
    settleLater(call);
    return true;
}

void McpElicitationRequired::complete(const json &params)
{
    const auto id = params.is_object() ? params.find("elicitationId") : params.end();
    if (!params.is_object() || id == params.end() || !id->is_string()) {
        qCDebug(lcMcp, "notifications/elicitation/complete without a string \"elicitationId\": ignored");
        return;
    }
    const std::string &elicitation = id->get_ref<const std::string &>();
    std::vector<json> withdrawn;
    std::vector<qint64> touched;
    for (auto &[call, entry] : m_calls)
        for (Page &page : entry.pages) {
            if (page.elicitationId != elicitation || page.state == PageState::Completed)
                continue;
            if (page.state == PageState::Asked && m_asks.erase(page.ask.dump()) > 0 && m_channel.close(page.ask))
                withdrawn.push_back(page.ask);
            page.state = PageState::Completed;
            if (touched.empty() || touched.back() != call)
                touched.push_back(call);
        }
    if (touched.empty()) {
        qCDebug(lcMcp, "notifications/elicitation/complete for \"%s\", which no call waits for: ignored",
                qUtf8Printable(elidedText(printableText(QString::fromStdString(elicitation)), 64)));
        return;
    }
    const QPointer<McpElicitationRequired> alive(this);
    for (const json &ask : withdrawn) {
        m_channel.withdraw(ask); // the page is done: nobody needs to open it
        if (!alive)
            return;
    }
    for (qint64 call : touched)
        settleLater(call);
}

void McpElicitationRequired::settleLater(qint64 call)
{
    // Never inside an answer or a notification: the pool and the handler are still busy with it.
    QTimer::singleShot(0, this, [this, call] { settle(call); });
}

void McpElicitationRequired::settle(qint64 call)
{
    const auto found = m_calls.find(call);
    if (found == m_calls.end() || found->second.request != 0)
        return;
    Call &entry = found->second;
    if (!entry.failure.isEmpty())
        return fail(call, entry.failure);
    const auto stateIs = [](PageState state) { return [state](const Page &page) { return page.state == state; }; };
    if (std::any_of(entry.pages.begin(), entry.pages.end(), stateIs(PageState::Asked)))
        return;
    if (std::all_of(entry.pages.begin(), entry.pages.end(), stateIs(PageState::Completed)))
        return retry(call);
    if (entry.wait)
        return;
    entry.wait = new QTimer(this);
    entry.wait->setSingleShot(true);
    connect(entry.wait, &QTimer::timeout, this, [this, call] { retry(call); });
    entry.wait->start(m_completionWaitMs);
}

void McpElicitationRequired::retry(qint64 call)
{
    const auto found = m_calls.find(call);
    if (found == m_calls.end() || found->second.request != 0)
        return;
    Call &entry = found->second;
    if (entry.wait) {
        entry.wait->stop();
        entry.wait->deleteLater(); // it may be the timer this runs in
        entry.wait = nullptr;
    }
    entry.pages.clear();
    const QPointer<McpElicitationRequired> self(this);
    const qint64 id = m_channel.request(
        QStringLiteral("tools/call"), entry.params,
        [self, call](const McpReply &reply) {
            if (self)
                self->onReply(call, reply);
        },
        entry.timeoutMs);
    if (const auto still = m_calls.find(call); still != m_calls.end() && id != 0)
        still->second.request = id;
}

bool McpElicitationRequired::cancel(qint64 call, const QString &reason)
{
    const auto found = m_calls.find(call);
    if (found == m_calls.end())
        return false;
    if (const qint64 request = found->second.request; request != 0)
        m_channel.cancel(request, reason); // its reply ends the call
    else
        finish(call, McpReply{{}, {}, reason});
    return true;
}

std::vector<McpElicitationRequired::ReplyHandler> McpElicitationRequired::takeAll()
{
    std::vector<ReplyHandler> dones;
    for (auto &[call, entry] : m_calls) {
        if (entry.wait)
            entry.wait->deleteLater();
        if (entry.done)
            dones.push_back(std::move(entry.done));
    }
    m_calls.clear();
    m_asks.clear(); // the session forgot them too
    return dones;
}

void McpElicitationRequired::fail(qint64 call, const QString &why)
{
    finish(call, McpReply{{}, JsonRpcError{Code, why.toStdString(), nullptr}, {}});
}

void McpElicitationRequired::finish(qint64 call, const McpReply &reply)
{
    const auto found = m_calls.find(call);
    if (found == m_calls.end())
        return;
    Call entry = std::move(found->second);
    m_calls.erase(found);
    if (entry.wait)
        entry.wait->deleteLater();
    const QPointer<McpElicitationRequired> alive(this);
    for (const Page &page : entry.pages) {
        if (page.state != PageState::Asked || m_asks.erase(page.ask.dump()) == 0 || !m_channel.close(page.ask))
            continue;
        m_channel.withdraw(page.ask); // no longer asked: the call ended
        if (!alive)
            return;
    }
    if (entry.done)
        entry.done(reply);
}
