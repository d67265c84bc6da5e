// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpsubscriptions.h"

#include "mcp/mcprevision.h"

#include <algorithm>

using nlohmann::json;

namespace {

JsonRpcMessage invalidParams(const json &id, const std::string &message)
{
    JsonRpcError error;
    error.code = JsonRpcError::InvalidParams;
    error.message = message;
    return JsonRpcMessage::errorFor(id, error);
}

/// The filter's problem, or "" (the SubscriptionFilter of the 2026-07-28 schema; fields
/// not in it are left alone).
std::string filterProblem(const json &params)
{
    if (!params.is_object() || !params.contains("notifications"))
        return "subscriptions/listen needs params.notifications, the filter of what to hear (e.g. "
               "{\"toolsListChanged\": true})";
    const json &filter = params["notifications"];
    if (!filter.is_object())
        return "subscriptions/listen's params.notifications must be an object (e.g. {\"toolsListChanged\": true})";
    for (const char *flag : {"toolsListChanged", "promptsListChanged", "resourcesListChanged"})
        if (filter.contains(flag) && !filter[flag].is_boolean())
            return std::string("subscriptions/listen's notifications.") + flag + " must be true or false";
    if (filter.contains("resourceSubscriptions")) {
        const json &uris = filter["resourceSubscriptions"];
        if (!uris.is_array() || !std::all_of(uris.begin(), uris.end(), [](const json &uri) { return uri.is_string(); }))
            return "subscriptions/listen's notifications.resourceSubscriptions must be an array of URIs (strings)";
    }
    return {};
}

json withSubscription(json params, const json &requestId)
{
    params["_meta"][McpRevision::SubscriptionIdKey] = requestId;
    return params;
}

} // namespace

void McpSubscriptions::open(const JsonRpcMessage &request, Send send, Reply reply, quint64 exchange)
{
    const std::string problem = filterProblem(request.params);
    if (!problem.empty()) {
        reply(invalidParams(request.id, problem));
        return;
    }
    if (m_open.size() >= MaxOpen) {
        JsonRpcError error;
        error.code = JsonRpcError::InvalidRequest;
        error.message = std::to_string(MaxOpen)
            + " subscriptions are open in this session, the most it keeps; cancel one (one subscription can "
              "ask for every notification)";
        reply(JsonRpcMessage::errorFor(request.id, error));
        return;
    }
    Subscription subscription;
    subscription.requestId = request.id;
    subscription.tools = request.params["notifications"].value("toolsListChanged", false);
    subscription.send = std::move(send);
    subscription.reply = std::move(reply);
    subscription.exchange = exchange;
    // What is served of the filter: tool list changes (prompts and resources are not
    // served by this server, so left out, as the spec says).
    json acknowledged = json::object();
    if (subscription.tools)
        acknowledged["toolsListChanged"] = true;
    const Send first = subscription.send;
    m_open.push_back(std::move(subscription));
    first(JsonRpcMessage::notification("notifications/subscriptions/acknowledged",
                                       withSubscription({{"notifications", acknowledged}}, request.id)));
}

void McpSubscriptions::toolsChanged()
{
    // A send may end a subscription (an HTTP stream that is gone): copy first.
    std::vector<std::pair<json, Send>> targets;
    for (const Subscription &subscription : m_open)
        if (subscription.tools)
            targets.emplace_back(subscription.requestId, subscription.send);
    for (const auto &[requestId, send] : targets)
        send(JsonRpcMessage::notification("notifications/tools/list_changed",
                                          withSubscription(json::object(), requestId)));
}

bool McpSubscriptions::cancel(const json &requestId, quint64 exchange)
{
    const auto found = std::find_if(m_open.begin(), m_open.end(), [&](const Subscription &subscription) {
        return subscription.requestId == requestId && (exchange == 0 || subscription.exchange == exchange);
    });
    if (found == m_open.end())
        return false;
    const Reply reply = std::move(found->reply);
    m_open.erase(found);
    reply(std::nullopt); // a cancelled request gets no response
    return true;
}

void McpSubscriptions::closeAll(const json &serverInfo)
{
    std::vector<Subscription> open;
    open.swap(m_open);
    for (Subscription &subscription : open)
        subscription.reply(JsonRpcMessage::resultFor(
            subscription.requestId,
            {{"resultType", McpRevision::Complete},
             {"_meta",
              {{McpRevision::SubscriptionIdKey, subscription.requestId}, {McpRevision::ServerInfoKey, serverInfo}}}}));
}

bool McpSubscriptions::contains(const json &requestId) const
{
    return std::any_of(m_open.begin(), m_open.end(),
                       [&requestId](const Subscription &subscription) { return subscription.requestId == requestId; });
}
