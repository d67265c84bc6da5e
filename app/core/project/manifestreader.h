// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/tool.h"

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <limits>

/// The typed reads of toolstudio.json's members (docs/project-format.md), shared by
/// Project::load and the parsers of its sections (e.g. McpServerConfig). Each read
/// throws ManifestError naming where the value is ("tool 'x': 'retry' must be an
/// object, not a string") and pointing at it, so the error gets a line and column.
namespace ManifestReader {
using json = nlohmann::json;

/// A semantic error in the manifest; caught in Project::load, which turns `node` (the
/// offending value in the parsed manifest, or the object missing a key) into a line
/// and column (JsonPositions).
struct ManifestError
{
    QString message;
    const json *node = nullptr;
    bool atKey = false; ///< point at node's key rather than its value (unknown keys)
};

[[noreturn]] void fail(const QString &message, const json *node = nullptr, bool atKey = false);
/// "a string", "an object", … for messages.
QString typeName(const json &value);
/// "tool 'x': " or "limits: " — the prefix naming where an error is.
QString at(const QString &where);
/// Unknown keys are refused so that a typo ("retyr") does not silently change nothing.
void checkKeys(const json &object, std::initializer_list<const char *> allowed, const QString &where);
const json *member(const json &object, const char *key);
QString stringValue(const json &object, const char *key, const QString &where, bool required,
                    const QString &fallback = {});
bool boolValue(const json &object, const char *key, const QString &where, bool fallback);
double numberValue(const json &object, const char *key, const QString &where, double fallback, double min,
                   double max = std::numeric_limits<double>::max());
qint64 integerValue(const json &object, const char *key, const QString &where, qint64 fallback, qint64 min);
/// Seconds (a JSON number) to whole milliseconds, bounded to what a QTimer takes.
int secondsToMs(double seconds);
QStringList stringList(const json &object, const char *key, const QString &where);
/// `object[key]`, which must be there and be an object.
const json &objectMember(const json &object, const char *key, const QString &where);

/// Which keys of a "retry" object were given (manual tools and models take a timeout
/// only where their own retry or settings set it).
struct RetryKeys
{
    bool attemptTimeout = false;
    bool totalTimeout = false;
};
/// A "retry" object (docs/project-format.md "retry") read over `policy`, key by key.
RetryPolicy retryPolicy(const json &object, RetryPolicy policy, const QString &where, RetryKeys *keys = nullptr);
} // namespace ManifestReader
