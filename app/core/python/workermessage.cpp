// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "python/workermessage.h"

#include "jsontypename.h"

#include <initializer_list>
#include <utility>

namespace WorkerMessage {

namespace {

using json = nlohmann::json;
using Check = bool (*)(const json &);

QString typeName(const json &value)
{
    return QString::fromStdString(jsonTypeName(value.type()));
}

bool isString(const json &value)
{
    return value.is_string();
}
bool isBoolean(const json &value)
{
    return value.is_boolean();
}
bool isObject(const json &value)
{
    return value.is_object();
}
bool isArray(const json &value)
{
    return value.is_array();
}
bool isStringArray(const json &value)
{
    if (!value.is_array())
        return false;
    for (const json &item : value)
        if (!item.is_string())
            return false;
    return true;
}

const char *expected(Check check)
{
    if (check == isString)
        return "a string";
    if (check == isBoolean)
        return "true or false";
    if (check == isObject)
        return "an object";
    if (check == isStringArray)
        return "an array of strings";
    return "an array";
}

/// The first member of `object` among `members` whose value fails its check, said as
/// "'where' is a number (expected a string)"; empty when all that are present pass (the
/// worker writes null for a member it has no value for, e.g. a file's "error").
QString wrongMember(const json &object, const QString &where,
                    std::initializer_list<std::pair<const char *, Check>> members)
{
    for (const auto &[key, check] : members) {
        const auto it = object.find(key);
        if (it != object.end() && !it->is_null() && !check(*it))
            return QStringLiteral("%1'%2' is %3 (expected %4)")
                .arg(where, QString::fromLatin1(key), typeName(*it), QString::fromLatin1(expected(check)));
    }
    return {};
}

} // namespace

QString problem(const json &message)
{
    if (!message.is_object())
        return QStringLiteral("the line is %1, not an object").arg(typeName(message));
    const auto type = message.find("type");
    if (type == message.end() || !type->is_string())
        return QStringLiteral("'type' is missing or not a string");
    if (QString wrong = wrongMember(message, {}, {{"id", isString}, {"output", isString}, {"error", isObject}});
        !wrong.isEmpty())
        return wrong;
    if (const auto error = message.find("error"); error != message.end()) {
        if (QString wrong = wrongMember(
                *error, QStringLiteral("error."),
                {{"message", isString}, {"code", isString}, {"retryable", isBoolean}, {"traceback", isString}});
            !wrong.isEmpty())
            return wrong;
    }
    if (const auto files = message.find("files"); files != message.end())
        return describedProblem(*files);
    return {};
}

QString describedProblem(const json &files)
{
    if (!files.is_array())
        return QStringLiteral("'files' is %1 (expected an array)").arg(typeName(files));
    for (std::size_t i = 0; i < files.size(); ++i) {
        const json &file = files[i];
        const QString where = QStringLiteral("files[%1].").arg(i);
        if (!file.is_object())
            return QStringLiteral("files[%1] is %2 (expected an object)").arg(i).arg(typeName(file));
        if (QString wrong = wrongMember(file, where,
                                        {{"file", isString},
                                         {"error", isString},
                                         {"missing_module", isString},
                                         {"frontmatter", isObject},
                                         {"tools", isArray}});
            !wrong.isEmpty())
            return wrong;
        const auto tools = file.find("tools");
        if (tools == file.end())
            continue;
        for (std::size_t t = 0; t < tools->size(); ++t) {
            const json &tool = (*tools)[t];
            const QString toolWhere = QStringLiteral("%1tools[%2]").arg(where).arg(t);
            if (!tool.is_object())
                return QStringLiteral("%1 is %2 (expected an object)").arg(toolWhere, typeName(tool));
            if (QString wrong = wrongMember(tool, toolWhere + QLatin1Char('.'),
                                            {{"name", isString},
                                             {"error", isString},
                                             {"description", isString},
                                             {"input_schema", isObject},
                                             {"parameter_order", isStringArray},
                                             {"warnings", isArray}});
                !wrong.isEmpty())
                return wrong;
        }
    }
    return {};
}

} // namespace WorkerMessage
