// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/modelconfig.h"

#include "project/jsonqt.h"
#include "project/manifestreader.h"
#include "project/printabletext.h"
#include "python/secrets.h"

#include <QRegularExpression>

#include <map>

using namespace ManifestReader;

namespace {

constexpr auto OpenAIBaseUrl = "https://api.openai.com/v1";
constexpr auto AnthropicBaseUrl = "https://api.anthropic.com";

/// Members of a request the studio writes itself; `params` may not set them.
constexpr const char *StudioMembers[] = {"model", "messages", "system", "tools", "stream"};

/// Refuses `key` in `entry` when the provider does not use it.
void refuseKey(const json &entry, const char *key, const QString &where, const QString &why)
{
    if (const json *value = member(entry, key))
        fail(at(where) + QStringLiteral("'%1' %2").arg(QLatin1String(key), why), value, true);
}

int tokenCount(const json &usage, const char *key, const QString &where)
{
    return int(qMin<qint64>(integerValue(usage, key, where, 0, 0), std::numeric_limits<int>::max()));
}

/// One `tool_calls` entry of a mock turn: {"id"?, "name", "arguments": object or JSON text}.
json parseMockToolCall(const json &call, const QString &where, int turn, int index)
{
    if (!call.is_object())
        fail(at(where) + QStringLiteral("must be an object, not %1").arg(typeName(call)), &call);
    checkKeys(call, {"id", "name", "arguments"}, where);
    const QString name = stringValue(call, "name", where, true);
    const QString id = stringValue(call, "id", where, false, QStringLiteral("call_%1_%2").arg(turn + 1).arg(index + 1));
    // A string is sent as the model would have written it, invalid JSON included, so a
    // test can script a model that gets its arguments wrong.
    std::string arguments = "{}";
    if (const json *value = member(call, "arguments")) {
        if (value->is_string())
            arguments = value->get<std::string>();
        else if (value->is_object())
            arguments = value->dump();
        else
            fail(at(where)
                     + QStringLiteral("'arguments' must be an object (or its JSON text), not %1").arg(typeName(*value)),
                 value);
    }
    return json{{"id", id.toStdString()},
                {"type", "function"},
                {"function", {{"name", name.toStdString()}, {"arguments", arguments}}}};
}

ModelTurn parseTurnAt(const json &entry, const QString &where, int index)
{
    if (!entry.is_object())
        fail(at(where) + QStringLiteral("must be an object, not %1").arg(typeName(entry)), &entry);
    ModelTurn turn;
    turn.delayMs = secondsToMs(numberValue(entry, "delay_seconds", where, 0, 0));
    if (member(entry, "error")) {
        checkKeys(entry, {"error", "retryable", "delay_seconds"}, where);
        turn.isError = true;
        turn.error = stringValue(entry, "error", where, true);
        turn.retryable = boolValue(entry, "retryable", where, true);
        return turn;
    }
    checkKeys(entry, {"content", "tool_calls", "usage", "stop_reason", "delay_seconds"}, where);
    json message = {{"role", "assistant"}, {"content", nullptr}};
    if (member(entry, "content"))
        message["content"] = stringValue(entry, "content", where, true).toStdString();
    if (const json *calls = member(entry, "tool_calls")) {
        if (!calls->is_array())
            fail(at(where) + QStringLiteral("'tool_calls' must be an array, not %1").arg(typeName(*calls)), calls);
        json list = json::array();
        std::map<std::string, std::size_t> ids; // the results go back by id: one call each
        for (std::size_t i = 0; i < calls->size(); ++i) {
            const QString callWhere = where + QStringLiteral(": tool_calls[%1]").arg(i);
            json call = parseMockToolCall((*calls)[i], callWhere, index, int(i));
            const std::string &id = call["id"].get_ref<const std::string &>();
            if (const auto [earlier, added] = ids.emplace(id, i); !added)
                fail(at(callWhere)
                         + QStringLiteral("'id' \"%1\" is the id of tool_calls[%2] too; give each call its own id, or "
                                          "leave 'id' out and one is made")
                               .arg(elidedText(QString::fromStdString(id), 64))
                               .arg(earlier->second),
                     &(*calls)[i]);
            list.push_back(std::move(call));
        }
        if (!list.empty())
            message["tool_calls"] = std::move(list);
    }
    if (message["content"].is_null() && !message.contains("tool_calls"))
        fail(at(where) + QStringLiteral("give 'content' (a final answer), 'tool_calls' or 'error'"), &entry);
    turn.message = std::move(message);
    if (const json *usage = member(entry, "usage")) {
        const QString usageWhere = where + QStringLiteral(": usage");
        if (!usage->is_object())
            fail(at(usageWhere) + QStringLiteral("must be an object, not %1").arg(typeName(*usage)), usage);
        checkKeys(*usage, {"input_tokens", "output_tokens"}, usageWhere);
        turn.inputTokens = tokenCount(*usage, "input_tokens", usageWhere);
        turn.outputTokens = tokenCount(*usage, "output_tokens", usageWhere);
    }
    turn.stopReason
        = stringValue(entry, "stop_reason", where, false,
                      turn.message.contains("tool_calls") ? QStringLiteral("tool_calls") : QStringLiteral("stop"));
    return turn;
}

void parseRemote(ModelConfig &model, const json &entry, const QString &where, const RetryPolicy &retryDefaults)
{
    const QString kind = ModelConfig::providerName(model.provider);
    refuseKey(entry, "turns", where, QStringLiteral("is for mock models; this one is %1").arg(kind));
    model.model = stringValue(entry, "model", where, true);
    if (model.model.isEmpty())
        fail(at(where) + QStringLiteral("'model' is empty; name the provider's model (e.g. \"qwen2.5:7b\")"),
             member(entry, "model"));
    model.baseUrl = stringValue(
        entry, "base_url", where, false,
        QLatin1String(model.provider == ModelConfig::Provider::Anthropic ? AnthropicBaseUrl : OpenAIBaseUrl));
    if (!model.baseUrl.startsWith(QLatin1String("http://")) && !model.baseUrl.startsWith(QLatin1String("https://")))
        fail(at(where) + QStringLiteral("'base_url' must start with http:// or https://"), member(entry, "base_url"));
    while (model.baseUrl.endsWith(u'/'))
        model.baseUrl.chop(1);
    model.apiKeySecret = stringValue(entry, "api_key_secret", where, false);
    if (member(entry, "api_key_secret") && !Secrets::isValidName(model.apiKeySecret))
        fail(at(where)
                 + QStringLiteral("'api_key_secret' must name a secret (letters, digits and '_', not starting with a "
                                  "digit), not \"%1\"")
                       .arg(model.apiKeySecret.left(80)),
             member(entry, "api_key_secret"));
    if (const json *params = member(entry, "params")) {
        if (!params->is_object())
            fail(at(where) + QStringLiteral("'params' must be an object, not %1").arg(typeName(*params)), params);
        for (const char *key : StudioMembers)
            if (const json *value = member(*params, key))
                fail(at(where)
                         + QStringLiteral("params: '%1' is set by the studio, not in params").arg(QLatin1String(key)),
                     value, true);
        model.params = *params;
    }
    model.timeoutMs = secondsToMs(numberValue(entry, "timeout_seconds", where, 120, 0.001));
    model.stream = boolValue(entry, "stream", where, true);
    model.streamIdleMs = secondsToMs(
        numberValue(entry, "stream_idle_timeout_seconds", where, ModelConfig::DefaultStreamIdleMs / 1000.0, 0.001));
    model.retry = retryDefaults;
    if (const json *retry = member(entry, "retry")) {
        const QString retryWhere = where + QStringLiteral(" retry");
        if (member(objectMember(entry, "retry", where), "attempt_timeout_seconds"))
            fail(at(retryWhere)
                     + QStringLiteral("'attempt_timeout_seconds' is the model's 'timeout_seconds'; set that instead"),
                 member(*retry, "attempt_timeout_seconds"), true);
        model.retry = retryPolicy(*retry, retryDefaults, retryWhere);
    }
    model.retry.attemptTimeoutMs = model.timeoutMs;
}

ModelConfig parseModel(const json &entry, int index, const RetryPolicy &retryDefaults)
{
    QString where = QStringLiteral("models[%1]").arg(index);
    if (!entry.is_object())
        fail(at(where) + QStringLiteral("must be an object, not %1").arg(typeName(entry)), &entry);
    checkKeys(entry,
              {"name", "provider", "base_url", "model", "api_key_secret", "params", "retry", "timeout_seconds",
               "stream", "stream_idle_timeout_seconds", "turns"},
              where);
    ModelConfig model;
    model.name = stringValue(entry, "name", where, true);
    if (!ModelConfig::isValidName(model.name))
        fail(at(where)
                 + QStringLiteral("invalid name \"%1\" (1 to 64 letters, digits or '_', not starting with a digit: "
                                  "scripts write models.NAME)")
                       .arg(model.name.left(80)),
             member(entry, "name"));
    where = QStringLiteral("model '%1'").arg(model.name);
    const QString providerText = stringValue(entry, "provider", where, true);
    const auto provider = ModelConfig::parseProvider(providerText);
    if (!provider)
        fail(at(where)
                 + QStringLiteral(
                       "'provider' must be \"openai-chat\", \"anthropic\", \"manual\" or \"mock\", not \"%1\"")
                       .arg(providerText.left(40)),
             member(entry, "provider"));
    model.provider = *provider;
    if (model.isRemote()) {
        parseRemote(model, entry, where, retryDefaults);
        return model;
    }
    const QString kind = ModelConfig::providerName(model.provider);
    for (const char *key : {"base_url", "model", "api_key_secret", "params", "retry", "timeout_seconds", "stream",
                            "stream_idle_timeout_seconds"})
        refuseKey(entry, key, where,
                  QStringLiteral("is for openai-chat and anthropic models; this one is %1").arg(kind));
    // A person may take any time, and a mock answers at once: neither has a timeout.
    model.retry = retryDefaults;
    model.retry.attemptTimeoutMs = 0;
    model.retry.totalTimeoutMs = 0;
    model.timeoutMs = 0;
    if (model.provider == ModelConfig::Provider::Manual) {
        refuseKey(entry, "turns", where, QStringLiteral("is for mock models; this one is manual"));
        return model;
    }
    const json *turns = member(entry, "turns");
    if (!turns)
        fail(at(where) + QStringLiteral("'turns' is missing (the scripted answers of a mock model)"), &entry);
    if (!turns->is_array() || turns->empty())
        fail(at(where) + QStringLiteral("'turns' must be a non-empty array, not %1").arg(typeName(*turns)), turns);
    for (std::size_t i = 0; i < turns->size(); ++i)
        model.turns.push_back(parseTurnAt((*turns)[i], where + QStringLiteral(": turns[%1]").arg(i), int(i)));
    return model;
}

} // namespace

QString ModelConfig::providerName(Provider provider)
{
    switch (provider) {
    case Provider::OpenAIChat:
        return QStringLiteral("openai-chat");
    case Provider::Anthropic:
        return QStringLiteral("anthropic");
    case Provider::Manual:
        return QStringLiteral("manual");
    case Provider::Mock:
        return QStringLiteral("mock");
    }
    return {};
}

std::optional<ModelConfig::Provider> ModelConfig::parseProvider(const QString &name)
{
    for (Provider provider : {Provider::OpenAIChat, Provider::Anthropic, Provider::Manual, Provider::Mock})
        if (providerName(provider) == name)
            return provider;
    return std::nullopt;
}

bool ModelConfig::isValidName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]{0,63}$"));
    return pattern.match(name).hasMatch();
}

QString ModelConfig::endpointUrl() const
{
    switch (provider) {
    case Provider::OpenAIChat:
        return baseUrl + QStringLiteral("/chat/completions");
    case Provider::Anthropic:
        return baseUrl + QStringLiteral("/v1/messages");
    default:
        return {};
    }
}

std::vector<ModelConfig> ModelConfig::parseAll(const json &models, const RetryPolicy &retryDefaults)
{
    if (!models.is_array())
        fail(QStringLiteral("'models' must be an array, not %1").arg(typeName(models)), &models);
    std::vector<ModelConfig> list;
    for (std::size_t i = 0; i < models.size(); ++i) {
        ModelConfig model = parseModel(models[i], int(i), retryDefaults);
        for (const ModelConfig &other : list)
            if (other.name == model.name)
                fail(QStringLiteral("model '%1': declared twice (model names must be unique)").arg(model.name),
                     member(models[i], "name"));
        list.push_back(std::move(model));
    }
    return list;
}

ModelTurn ModelConfig::parseTurn(const nlohmann::json &entry, const QString &where, int index)
{
    return parseTurnAt(entry, where, index);
}
