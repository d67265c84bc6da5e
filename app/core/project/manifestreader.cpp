// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/manifestreader.h"

#include "project/jsonqt.h"

#include "jsontypename.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

namespace ManifestReader {

void fail(const QString &message, const nlohmann::json *node, bool atKey)
{
    throw ManifestError{message, node, atKey};
}

QString typeName(const json &value)
{
    return QString::fromStdString(jsonTypeName(value.type()));
}

QString at(const QString &where)
{
    return where.isEmpty() ? QString() : where + QStringLiteral(": ");
}

namespace {

/// `key` lower-cased without '_' and '-': "mcpServers" and "mcp_servers" are the same.
std::string folded(std::string_view key)
{
    std::string out;
    for (const char c : key)
        if (c != '_' && c != '-')
            out += char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return out;
}

/// The edit distance of `a` and `b` (insertions, deletions, substitutions), keys being short.
std::size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

/// The allowed key an unknown `key` was likely meant as — the same but for case, '_' and
/// '-' (Claude Desktop's "mcpServers"), or one or two letters off ("comand") —, or "".
QString meantKey(const std::string &key, std::initializer_list<const char *> allowed)
{
    if (key.size() > 64)
        return {};
    const std::string unknown = folded(key);
    const char *best = nullptr;
    std::size_t bestDistance = 3;
    for (const char *candidate : allowed) {
        const std::size_t distance = editDistance(unknown, folded(candidate));
        if (distance < bestDistance && (distance == 0 || unknown.size() >= 4)) {
            best = candidate;
            bestDistance = distance;
        }
    }
    return best ? QString::fromLatin1(best) : QString();
}

} // namespace

void checkKeys(const json &object, std::initializer_list<const char *> allowed, const QString &where)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        bool known = false;
        for (const char *key : allowed)
            known = known || it.key() == key;
        if (known)
            continue;
        QString message = at(where) + QStringLiteral("unknown key '%1'").arg(JsonQt::fromStd(it.key()));
        if (const QString meant = meantKey(it.key(), allowed); !meant.isEmpty())
            message += QStringLiteral(" (did you mean '%1'?)").arg(meant);
        fail(message, &it.value(), true);
    }
}

const json *member(const json &object, const char *key)
{
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

QString stringValue(const json &object, const char *key, const QString &where, bool required, const QString &fallback)
{
    const json *value = member(object, key);
    if (!value) {
        if (required)
            fail(at(where) + QStringLiteral("'%1' is missing").arg(QLatin1String(key)), &object);
        return fallback;
    }
    if (!value->is_string())
        fail(at(where) + QStringLiteral("'%1' must be a string, not %2").arg(QLatin1String(key), typeName(*value)),
             value);
    return JsonQt::fromStd(value->get<std::string>());
}

bool boolValue(const json &object, const char *key, const QString &where, bool fallback)
{
    const json *value = member(object, key);
    if (!value)
        return fallback;
    if (!value->is_boolean())
        fail(at(where) + QStringLiteral("'%1' must be true or false, not %2").arg(QLatin1String(key), typeName(*value)),
             value);
    return value->get<bool>();
}

double numberValue(const json &object, const char *key, const QString &where, double fallback, double min, double max)
{
    const json *value = member(object, key);
    if (!value)
        return fallback;
    if (!value->is_number())
        fail(at(where) + QStringLiteral("'%1' must be a number, not %2").arg(QLatin1String(key), typeName(*value)),
             value);
    const double number = value->get<double>();
    if (!std::isfinite(number) || number < min || number > max) {
        if (max == std::numeric_limits<double>::max())
            fail(at(where) + QStringLiteral("'%1' must be at least %2").arg(QLatin1String(key)).arg(min), value);
        fail(at(where) + QStringLiteral("'%1' must be between %2 and %3").arg(QLatin1String(key)).arg(min).arg(max),
             value);
    }
    return number;
}

qint64 integerValue(const json &object, const char *key, const QString &where, qint64 fallback, qint64 min)
{
    const json *value = member(object, key);
    if (!value)
        return fallback;
    if (!value->is_number_integer())
        fail(at(where)
                 + QStringLiteral("'%1' must be a whole number, not %2").arg(QLatin1String(key), typeName(*value)),
             value);
    const qint64 number
        = value->is_number_unsigned() && value->get<std::uint64_t>() > std::uint64_t(std::numeric_limits<qint64>::max())
        ? std::numeric_limits<qint64>::max()
        : value->get<qint64>();
    if (number < min)
        fail(at(where) + QStringLiteral("'%1' must be at least %2").arg(QLatin1String(key)).arg(min), value);
    return number;
}

int secondsToMs(double seconds)
{
    const double ms = std::round(seconds * 1000.0);
    return ms >= double(std::numeric_limits<int>::max()) ? std::numeric_limits<int>::max() : int(ms);
}

QStringList stringList(const json &object, const char *key, const QString &where)
{
    QStringList list;
    const json *value = member(object, key);
    if (!value)
        return list;
    if (!value->is_array())
        fail(at(where)
                 + QStringLiteral("'%1' must be an array of strings, not %2").arg(QLatin1String(key), typeName(*value)),
             value);
    for (const json &element : *value) {
        if (!element.is_string())
            fail(at(where)
                     + QStringLiteral("'%1' must contain only strings, found %2")
                           .arg(QLatin1String(key), typeName(element)),
                 &element);
        list << JsonQt::fromStd(element.get<std::string>());
    }
    return list;
}

const json &objectMember(const json &object, const char *key, const QString &where)
{
    const json &value = object.at(key);
    if (!value.is_object())
        fail(at(where) + QStringLiteral("'%1' must be an object, not %2").arg(QLatin1String(key), typeName(value)),
             &value);
    return value;
}

RetryPolicy retryPolicy(const json &object, RetryPolicy policy, const QString &where, RetryKeys *keys)
{
    checkKeys(object,
              {"max_attempts", "initial_backoff_seconds", "factor", "max_backoff_seconds", "jitter",
               "attempt_timeout_seconds", "total_timeout_seconds"},
              where);
    policy.maxAttempts = int(qMin<qint64>(integerValue(object, "max_attempts", where, policy.maxAttempts, 1), 1000000));
    policy.initialBackoffMs
        = secondsToMs(numberValue(object, "initial_backoff_seconds", where, policy.initialBackoffMs / 1000.0, 0));
    policy.factor = numberValue(object, "factor", where, policy.factor, 1);
    policy.maxBackoffMs
        = secondsToMs(numberValue(object, "max_backoff_seconds", where, policy.maxBackoffMs / 1000.0, 0));
    policy.jitter = numberValue(object, "jitter", where, policy.jitter, 0, 1);
    policy.attemptTimeoutMs
        = secondsToMs(numberValue(object, "attempt_timeout_seconds", where, policy.attemptTimeoutMs / 1000.0, 0));
    policy.totalTimeoutMs
        = secondsToMs(numberValue(object, "total_timeout_seconds", where, policy.totalTimeoutMs / 1000.0, 0));
    if (keys) {
        keys->attemptTimeout = object.contains("attempt_timeout_seconds");
        keys->totalTimeout = object.contains("total_timeout_seconds");
    }
    return policy;
}

} // namespace ManifestReader
