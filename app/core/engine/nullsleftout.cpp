// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/nullsleftout.h"

#include <QStringList>

#include <algorithm>

namespace {

/// The property a failure's pointer names when it is a top-level one ("/n" → "n",
/// RFC 6901 escapes undone); nullopt for "" and for deeper pointers.
std::optional<std::string> topLevelName(const QString &pointer)
{
    if (!pointer.startsWith(QLatin1Char('/')) || pointer.indexOf(QLatin1Char('/'), 1) >= 0)
        return std::nullopt;
    QString name = pointer.mid(1);
    name.replace(QStringLiteral("~1"), QStringLiteral("/")).replace(QStringLiteral("~0"), QStringLiteral("~"));
    return name.toStdString();
}

bool listed(const nlohmann::json &schema, const char *key, const std::string &name)
{
    const auto it = schema.find(key);
    if (it == schema.end())
        return false;
    if (it->is_object())
        return it->contains(name);
    return it->is_array() && std::find(it->begin(), it->end(), name) != it->end();
}

} // namespace

std::optional<SchemaValidator::Failure>
validateLeavingOutNulls(const SchemaValidator &validator, const nlohmann::json &args, std::vector<std::string> *leftOut)
{
    auto failure = validator.validate(args);
    const nlohmann::json &schema = validator.schema();
    if (!failure || !args.is_object() || !schema.is_object())
        return failure;
    std::optional<nlohmann::json> rest; // a copy only once a null is left out
    while (failure) {
        const nlohmann::json &current = rest ? *rest : args;
        const auto name = topLevelName(failure->pointer);
        // The first failure is this property's own null: its schema refuses null.
        if (!name || !current.contains(*name) || !current.at(*name).is_null() || !listed(schema, "properties", *name)
            || listed(schema, "required", *name))
            break;
        if (!rest)
            rest = args;
        rest->erase(*name);
        leftOut->push_back(*name);
        failure = validator.validate(*rest);
    }
    return failure;
}

nlohmann::json nullsLeftOutDetail(const std::vector<std::string> &leftOut)
{
    QStringList names;
    for (const std::string &name : leftOut)
        names << QStringLiteral("'%1'").arg(QString::fromStdString(name));
    const QString text
        = QStringLiteral("null for %1 left out: not required and its schema does not take null (a strict-mode "
                         "model's way of leaving it out), so the tool's default applies")
              .arg(names.join(QStringLiteral(", ")));
    return {{"properties", leftOut}, {"text", text.toStdString()}};
}
