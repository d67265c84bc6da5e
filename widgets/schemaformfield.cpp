// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "schemaformfield.h"

namespace schemaform {

QString text(const json &value)
{
    return QString::fromStdString(value.is_string() ? value.get<std::string>() : value.dump());
}

QStringList types(const json &schema)
{
    QStringList out;
    if (!schema.is_object() || !schema.contains("type"))
        return out;
    const json &type = schema["type"];
    if (type.is_string())
        out.append(QString::fromStdString(type.get<std::string>()));
    else if (type.is_array())
        for (const json &t : type)
            if (t.is_string())
                out.append(QString::fromStdString(t.get<std::string>()));
    return out;
}

json defaultOf(const json &schema, bool *has)
{
    *has = schema.is_object() && schema.contains("default");
    return *has ? schema["default"] : json();
}

Field *createField(const json &schema, const Callback &changed, QWidget *parent, const QStringList &order)
{
    if (!schema.is_object())
        return createRawField(json::object(), changed, parent);
    for (const char *key : {"anyOf", "oneOf"}) {
        if (schema.contains(key) && schema[key].is_array() && !schema[key].empty())
            return createUnionField(schema, schema[key], changed, parent);
    }
    if (schema.contains("enum") && schema["enum"].is_array() && !schema["enum"].empty())
        return createEnumField(schema, changed, parent);
    if (schema.contains("const"))
        return createEnumField(schema, changed, parent);
    const QStringList t = types(schema);
    if (t.size() > 1) {
        json branches = json::array();
        for (const QString &type : t) {
            json branch = schema;
            branch["type"] = type.toStdString();
            branch.erase("default");
            branches.push_back(branch);
        }
        return createUnionField(schema, branches, changed, parent);
    }
    const QString type = t.value(0);
    if (type == QLatin1String("string"))
        return createStringField(schema, changed, parent);
    if (type == QLatin1String("integer") || type == QLatin1String("number"))
        return createNumberField(schema, type == QLatin1String("integer"), changed, parent);
    if (type == QLatin1String("boolean"))
        return createBooleanField(schema, changed, parent);
    if (type == QLatin1String("null"))
        return createNullField(schema, changed, parent);
    if (type == QLatin1String("array"))
        return createArrayField(schema, changed, parent);
    if ((type == QLatin1String("object") || (type.isEmpty() && schema.contains("properties")))
        && schema.contains("properties") && schema["properties"].is_object())
        return createObjectField(schema, changed, parent, order,
                                 parent && parent->objectName() != QLatin1String("formPage"));
    return createRawField(schema, changed, parent);
}

} // namespace schemaform
