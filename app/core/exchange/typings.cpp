// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "exchange/typings.h"

#include "project/jsonqt.h"
#include "project/project.h"

#include <QCoreApplication>
#include <QDir>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>

namespace Typings {

bool isPythonKeyword(const QString &name)
{
    static const QSet<QString> keywords{
        QStringLiteral("False"),   QStringLiteral("None"),     QStringLiteral("True"),     QStringLiteral("and"),
        QStringLiteral("as"),      QStringLiteral("assert"),   QStringLiteral("async"),    QStringLiteral("await"),
        QStringLiteral("break"),   QStringLiteral("class"),    QStringLiteral("continue"), QStringLiteral("def"),
        QStringLiteral("del"),     QStringLiteral("elif"),     QStringLiteral("else"),     QStringLiteral("except"),
        QStringLiteral("finally"), QStringLiteral("for"),      QStringLiteral("from"),     QStringLiteral("global"),
        QStringLiteral("if"),      QStringLiteral("import"),   QStringLiteral("in"),       QStringLiteral("is"),
        QStringLiteral("lambda"),  QStringLiteral("nonlocal"), QStringLiteral("not"),      QStringLiteral("or"),
        QStringLiteral("pass"),    QStringLiteral("raise"),    QStringLiteral("return"),   QStringLiteral("try"),
        QStringLiteral("while"),   QStringLiteral("with"),     QStringLiteral("yield")};
    return keywords.contains(name);
}

bool isPythonIdentifier(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    return re.match(name).hasMatch() && !isPythonKeyword(name);
}

namespace {

using json = nlohmann::json;

/// `get_weather` → `GetWeather`, `zip-code` → `ZipCode`.
QString pascal(const QString &text)
{
    QString out;
    bool upper = true;
    for (const QChar c : text) {
        if (!c.isLetterOrNumber() || c.unicode() > 127) {
            upper = true;
            continue;
        }
        out += upper ? c.toUpper() : c;
        upper = false;
    }
    if (out.isEmpty() || out.at(0).isDigit())
        out.prepend(QLatin1Char('T'));
    return out;
}

/// Properties of an object schema: `order` first (the parameter order of the
/// tool), then the rest as the schema holds them.
QStringList propertyNames(const json &schema, const QStringList &order = {})
{
    QStringList names;
    const auto props = schema.find("properties");
    if (props == schema.end() || !props->is_object())
        return names;
    for (const QString &name : order)
        if (props->contains(name.toStdString()))
            names << name;
    for (auto it = props->begin(); it != props->end(); ++it)
        if (!names.contains(JsonQt::fromStd(it.key())))
            names << JsonQt::fromStd(it.key());
    return names;
}

QSet<QString> requiredOf(const json &schema)
{
    QSet<QString> required;
    const auto it = schema.find("required");
    if (it != schema.end() && it->is_array())
        for (const json &name : *it)
            if (name.is_string())
                required.insert(JsonQt::fromStd(name.get<std::string>()));
    return required;
}

QString descriptionOf(const json &schema)
{
    return schema.is_object() && schema.contains("description") && schema["description"].is_string()
        ? JsonQt::fromStd(schema["description"].get<std::string>()).trimmed()
        : QString();
}

QString joinUnion(const QStringList &parts, const QString &any)
{
    QStringList unique;
    for (const QString &part : parts) {
        if (part == any)
            return any;
        if (!unique.contains(part))
            unique << part;
    }
    return unique.isEmpty() ? any : unique.join(QStringLiteral(" | "));
}

/// What both languages share: walking a schema, naming nested object types.
class Generator
{
public:
    virtual ~Generator() = default;

    /// The type of `schema`; a nested object becomes a declaration named `name`.
    QString type(const json &schema, const QString &name)
    {
        if (!schema.is_object() || schema.empty())
            return any();
        if (schema.contains("const"))
            return literals(json::array({schema["const"]}));
        if (schema.contains("enum") && schema["enum"].is_array())
            return literals(schema["enum"]);
        for (const char *key : {"anyOf", "oneOf"})
            if (schema.contains(key) && schema[key].is_array()) {
                QStringList parts;
                int i = 0;
                for (const json &branch : schema[key])
                    parts << type(branch, i++ == 0 ? name : name + QString::number(i));
                return joinUnion(parts, any());
            }
        const auto typeIt = schema.find("type");
        if (typeIt != schema.end() && typeIt->is_array()) {
            QStringList parts;
            for (const json &t : *typeIt) {
                json single = schema;
                single["type"] = t;
                parts << type(single, name);
            }
            return joinUnion(parts, any());
        }
        const std::string t = typeIt != schema.end() && typeIt->is_string() ? typeIt->get<std::string>()
            : schema.contains("properties")                                 ? "object"
                                                                            : "";
        if (t == "string" || t == "integer" || t == "number" || t == "boolean" || t == "null")
            return scalar(t);
        if (t == "array") {
            const json items = schema.value("items", json::object());
            return array(type(items.is_object() ? items : json::object(), name + QStringLiteral("Item")));
        }
        if (t == "object") {
            if (!propertyNames(schema).isEmpty())
                return declareObject(schema, uniqueName(name));
            const auto extra = schema.find("additionalProperties");
            return map(extra != schema.end() && extra->is_object() ? type(*extra, name + QStringLiteral("Value"))
                                                                   : any());
        }
        return any();
    }

    QString uniqueName(const QString &base)
    {
        QString name = base;
        for (int i = 2; m_names.contains(name); ++i)
            name = base + QString::number(i);
        m_names.insert(name);
        return name;
    }

    QStringList declarations;

protected:
    virtual QString any() const = 0;
    virtual QString scalar(const std::string &type) const = 0;
    virtual QString literal(const json &value) const = 0; ///< empty when not expressible
    virtual QString array(const QString &item) const = 0;
    virtual QString map(const QString &value) const = 0;
    /// Appends the declaration of `schema` called `name` to `declarations`; returns `name`.
    virtual QString declareObject(const json &schema, const QString &name) = 0;

    QString literals(const json &values)
    {
        QStringList parts;
        for (const json &value : values) {
            const QString text = literal(value);
            if (text.isEmpty())
                return any();
            parts << text;
        }
        return parts.isEmpty() ? any() : wrapLiterals(parts);
    }
    virtual QString wrapLiterals(const QStringList &parts) const = 0;

private:
    QSet<QString> m_names;
};

// --- Python ------------------------------------------------------------------------

QString pythonDocstring(const QString &text, const QString &indent)
{
    QString escaped = text;
    escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
        .replace(QStringLiteral("\"\"\""), QStringLiteral("\\\"\\\"\\\""));
    const QStringList lines = escaped.split(QLatin1Char('\n'));
    if (lines.size() == 1)
        return indent + QStringLiteral("\"\"\"") + lines.first() + QStringLiteral("\"\"\"\n");
    QString out = indent + QStringLiteral("\"\"\"") + lines.first() + QLatin1Char('\n');
    for (int i = 1; i < lines.size(); ++i)
        out += (lines[i].isEmpty() ? QString() : indent + lines[i]) + QLatin1Char('\n');
    return out + indent + QStringLiteral("\"\"\"\n");
}

class PythonGenerator : public Generator
{
protected:
    QString any() const override { return QStringLiteral("Any"); }
    QString scalar(const std::string &type) const override
    {
        if (type == "string")
            return QStringLiteral("str");
        if (type == "integer")
            return QStringLiteral("int");
        if (type == "number")
            return QStringLiteral("float");
        if (type == "boolean")
            return QStringLiteral("bool");
        return QStringLiteral("None");
    }
    QString literal(const json &value) const override
    {
        if (value.is_string() || value.is_number())
            return JsonQt::fromStd(value.dump(-1, ' ', false, json::error_handler_t::replace));
        if (value.is_boolean())
            return value.get<bool>() ? QStringLiteral("True") : QStringLiteral("False");
        if (value.is_null())
            return QStringLiteral("None");
        return {};
    }
    QString wrapLiterals(const QStringList &parts) const override
    {
        return QStringLiteral("Literal[%1]").arg(parts.join(QStringLiteral(", ")));
    }
    QString array(const QString &item) const override { return QStringLiteral("list[%1]").arg(item); }
    QString map(const QString &value) const override { return QStringLiteral("dict[str, %1]").arg(value); }
    QString declareObject(const json &schema, const QString &name) override
    {
        const QSet<QString> required = requiredOf(schema);
        QStringList fields;
        bool identifiers = true;
        for (const QString &property : propertyNames(schema)) {
            QString t = type(schema["properties"][property.toStdString()], name + pascal(property));
            if (!required.contains(property))
                t = QStringLiteral("NotRequired[%1]").arg(t);
            identifiers = identifiers && isPythonIdentifier(property);
            fields << property << t;
        }
        QString text;
        if (identifiers) {
            text = QStringLiteral("class %1(TypedDict):\n").arg(name);
            const QString description = descriptionOf(schema);
            if (!description.isEmpty())
                text += pythonDocstring(description, QStringLiteral("    "));
            for (int i = 0; i < fields.size(); i += 2)
                text += QStringLiteral("    %1: %2\n").arg(fields[i], fields[i + 1]);
        } else {
            QStringList entries;
            for (int i = 0; i < fields.size(); i += 2)
                entries << QStringLiteral("%1: %2").arg(JsonQt::fromStd(json(fields[i].toStdString()).dump()),
                                                        fields[i + 1]);
            text = QStringLiteral("%1 = TypedDict(\"%1\", {%2})\n").arg(name, entries.join(QStringLiteral(", ")));
        }
        declarations << text;
        return name;
    }
};

// --- TypeScript --------------------------------------------------------------------

QString tsPropertyName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z_$][A-Za-z0-9_$]*$"));
    return re.match(name).hasMatch() ? name : JsonQt::fromStd(json(name.toStdString()).dump());
}

QString tsDoc(const QStringList &lines, const QString &indent)
{
    QStringList kept;
    for (const QString &line : lines)
        kept << QString(line).replace(QStringLiteral("*/"), QStringLiteral("*\\/"));
    if (kept.isEmpty())
        return {};
    if (kept.size() == 1 && !kept.first().contains(QLatin1Char('\n')))
        return indent + QStringLiteral("/** ") + kept.first() + QStringLiteral(" */\n");
    QString out = indent + QStringLiteral("/**\n");
    for (const QString &entry : std::as_const(kept))
        for (const QString &line : entry.split(QLatin1Char('\n')))
            out += indent + (line.isEmpty() ? QStringLiteral(" *") : QStringLiteral(" * ") + line) + QLatin1Char('\n');
    return out + indent + QStringLiteral(" */\n");
}

class TypeScriptGenerator : public Generator
{
protected:
    QString any() const override { return QStringLiteral("unknown"); }
    QString scalar(const std::string &type) const override
    {
        if (type == "string")
            return QStringLiteral("string");
        if (type == "integer" || type == "number")
            return QStringLiteral("number");
        if (type == "boolean")
            return QStringLiteral("boolean");
        return QStringLiteral("null");
    }
    QString literal(const json &value) const override
    {
        if (value.is_string() || value.is_number() || value.is_boolean() || value.is_null())
            return JsonQt::fromStd(value.dump(-1, ' ', false, json::error_handler_t::replace));
        return {};
    }
    QString wrapLiterals(const QStringList &parts) const override { return parts.join(QStringLiteral(" | ")); }
    QString array(const QString &item) const override
    {
        return item.contains(QLatin1Char(' ')) ? QStringLiteral("(%1)[]").arg(item) : item + QStringLiteral("[]");
    }
    QString map(const QString &value) const override { return QStringLiteral("{ [key: string]: %1 }").arg(value); }

public:
    QString declareObject(const json &schema, const QString &name) override
    {
        return declareInterface(schema, name, {}, name);
    }
    /// `prefix` names the nested object types (`CreateOrder` + `Address`).
    QString declareInterface(const json &schema, const QString &name, const QStringList &order, const QString &prefix)
    {
        const QSet<QString> required = requiredOf(schema);
        QString body;
        for (const QString &property : propertyNames(schema, order)) {
            const json &propertySchema = schema["properties"][property.toStdString()];
            const QString description = descriptionOf(propertySchema);
            if (!description.isEmpty())
                body += tsDoc({description}, QStringLiteral("  "));
            body += QStringLiteral("  %1%2: %3;\n")
                        .arg(tsPropertyName(property), required.contains(property) ? QString() : QStringLiteral("?"),
                             type(propertySchema, prefix + pascal(property)));
        }
        const QString description = descriptionOf(schema);
        declarations << (description.isEmpty() ? QString() : tsDoc({description}, QString()))
                + QStringLiteral("export interface %1 {\n%2}\n").arg(name, body);
        return name;
    }
};

QString header(const QString &comment, const QString &projectName)
{
    return QStringLiteral("%1 Generated by Tool Studio for the project \"%2\": the tools a script can call.\n"
                          "%1 Do not edit; regenerate with: toolstudio tools typings PROJECT\n")
        .arg(comment, projectName);
}

bool writeText(const QString &path, const QString &text, QString *error)
{
    QSaveFile file(path);
    const QByteArray data = text.toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        *error = QCoreApplication::translate("Typings", "%1: cannot write: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace

QString python(const std::vector<Tool> &tools, const QString &projectName)
{
    PythonGenerator gen;
    gen.uniqueName(QStringLiteral("ToolError"));
    QString methods;
    for (const Tool &tool : tools) {
        if (!isPythonIdentifier(tool.name) || tool.name == QLatin1String("call")) {
            // `get-tiny-image`, `class`, `call` (tools.call is the generic call): no method.
            methods
                += QStringLiteral("    # %1: not a method name here; call it as tools[\"%1\"](...)\n").arg(tool.name);
            continue;
        }
        const QString base = pascal(tool.name);
        const QSet<QString> required = requiredOf(tool.inputSchema);
        QStringList params{QStringLiteral("self")};
        QStringList keywordOnly;
        QStringList docs;
        bool optionalSeen = false;
        bool extra = false;
        for (const QString &property : propertyNames(tool.inputSchema, tool.parameterOrder)) {
            const json &schema = tool.inputSchema["properties"][property.toStdString()];
            if (!isPythonIdentifier(property)) {
                extra = true;
                continue;
            }
            const QString t = gen.type(schema, base + pascal(property));
            const QString description = descriptionOf(schema);
            if (!description.isEmpty())
                docs << QStringLiteral(":param %1: %2")
                            .arg(property, QString(description).replace(QLatin1Char('\n'), QLatin1Char(' ')));
            if (required.contains(property)) {
                (optionalSeen ? keywordOnly : params) << QStringLiteral("%1: %2").arg(property, t);
            } else {
                optionalSeen = true;
                params << QStringLiteral("%1: %2 = ...").arg(property, t);
            }
        }
        if (!keywordOnly.isEmpty())
            params << QStringLiteral("*") << keywordOnly;
        if (extra)
            params << QStringLiteral("**kwargs: Any");
        const QString result
            = tool.outputSchema ? gen.type(*tool.outputSchema, base + QStringLiteral("Result")) : QStringLiteral("Any");
        methods += QStringLiteral("    def %1(%2) -> %3:\n").arg(tool.name, params.join(QStringLiteral(", ")), result);
        QString doc = tool.description.trimmed();
        if (!docs.isEmpty())
            doc += (doc.isEmpty() ? QString() : QStringLiteral("\n\n")) + docs.join(QLatin1Char('\n'));
        if (!doc.isEmpty())
            methods += pythonDocstring(doc, QStringLiteral("        "));
        methods += QStringLiteral("        ...\n");
    }
    QString text = header(QStringLiteral("#"), projectName);
    text += QStringLiteral(
        "# A call blocks and returns the result; inside a running event loop it returns an awaitable.\n"
        "from typing import Any, Callable, Literal, NotRequired, TypedDict\n\n"
        "__all__ = [\"tools\", \"ToolError\"]\n\n\n"
        "class ToolError(Exception):\n"
        "    code: str\n    message: str\n    retryable: bool\n    attempts: int\n"
        "    details: dict[str, Any]\n"
        "    def __init__(self, message: str, code: str = ..., retryable: bool = ..., attempts: int = ...,"
        " details: dict[str, Any] | None = ...) -> None: ...\n");
    for (const QString &declaration : std::as_const(gen.declarations))
        text += QStringLiteral("\n\n") + declaration;
    text += QStringLiteral("\n\nclass _Tools:\n") + methods
        + QStringLiteral(
                "    def __getitem__(self, name: str) -> Callable[..., Any]: ...\n"
                "    def call(self, name: str, args: dict[str, Any] | list[Any] | None = None, /) -> Any: ...\n"
                "\n\ntools: _Tools\n");
    return text;
}

QString typescript(const std::vector<Tool> &tools, const QString &projectName)
{
    TypeScriptGenerator gen;
    gen.uniqueName(QStringLiteral("ToolError"));
    gen.uniqueName(QStringLiteral("Tools"));
    QString methods;
    for (const Tool &tool : tools) {
        if (tool.name == QLatin1String("call")) { // tools.call is the generic call
            methods += QStringLiteral("  // call: call it as tools.call(\"call\", {...})\n");
            continue;
        }
        const QString base = pascal(tool.name);
        const QStringList names = propertyNames(tool.inputSchema, tool.parameterOrder);
        const QSet<QString> required = requiredOf(tool.inputSchema);
        const auto resultType = [&] {
            return tool.outputSchema ? gen.type(*tool.outputSchema, base + QStringLiteral("Result"))
                                     : QStringLiteral("unknown");
        };
        QStringList doc;
        if (!tool.description.trimmed().isEmpty())
            doc << tool.description.trimmed();
        const QString key = tsPropertyName(tool.name);
        if (names.isEmpty()) {
            methods
                += tsDoc(doc, QStringLiteral("  ")) + QStringLiteral("  %1(): Promise<%2>;\n").arg(key, resultType());
            continue;
        }
        const QString args = gen.declareInterface(tool.inputSchema, gen.uniqueName(base + QStringLiteral("Args")),
                                                  tool.parameterOrder, base);
        const QString result = resultType();
        // Positional form: a required parameter may not follow an optional one, so
        // optional ones before the last required one take `T | undefined`.
        int lastRequired = -1;
        for (int i = 0; i < names.size(); ++i)
            if (required.contains(names[i]))
                lastRequired = i;
        QStringList params;
        bool positional = true;
        for (int i = 0; i < names.size(); ++i) {
            static const QRegularExpression identifier(QStringLiteral("^[A-Za-z_$][A-Za-z0-9_$]*$"));
            if (!identifier.match(names[i]).hasMatch()) {
                positional = false;
                break;
            }
            const json &schema = tool.inputSchema["properties"][names[i].toStdString()];
            const QString t = QStringLiteral("%1[\"%2\"]").arg(args, names[i]);
            const QString description = descriptionOf(schema);
            if (!description.isEmpty())
                doc << QStringLiteral("@param %1 %2").arg(names[i], description);
            if (required.contains(names[i]))
                params << QStringLiteral("%1: %2").arg(names[i], t);
            else if (i < lastRequired)
                params << QStringLiteral("%1: %2 | undefined").arg(names[i], t);
            else
                params << QStringLiteral("%1?: %2").arg(names[i], t);
        }
        const QString docText = tsDoc(doc, QStringLiteral("  "));
        methods += docText + QStringLiteral("  %1(args: %2): Promise<%3>;\n").arg(key, args, result);
        if (positional)
            methods += docText
                + QStringLiteral("  %1(%2): Promise<%3>;\n").arg(key, params.join(QStringLiteral(", ")), result);
    }
    QString text = header(QStringLiteral("//"), projectName);
    text += QStringLiteral(
        "// Every call returns a Promise; one plain object as the only argument is the keyword arguments.\n\n"
        "export declare class ToolError extends Error {\n"
        "  constructor(message: string, code?: string, retryable?: boolean, attempts?: number, details?: object);\n"
        "  readonly code: string;\n  readonly retryable: boolean;\n  readonly attempts: number;\n"
        "  readonly details: { [key: string]: unknown };\n}\n");
    for (const QString &declaration : std::as_const(gen.declarations))
        text += QLatin1Char('\n') + declaration;
    text += QStringLiteral("\nexport interface Tools {\n") + methods
        + QStringLiteral(
                "  /** Calls any tool by name (e.g. \"get-tiny-image\"); an object is the keyword arguments. */\n"
                "  call(name: string, args?: { [key: string]: unknown } | unknown[]): Promise<unknown>;\n"
                "  [name: string]: (...args: any[]) => Promise<unknown>;\n}\n\n"
                "export declare const tools: Tools;\n"
                "export declare function callTool(tool: string, ...args: unknown[]): Promise<unknown>;\n");
    return text;
}

std::vector<Tool> toolsOf(const Project &project, const QStringList &names)
{
    std::vector<Tool> tools;
    for (const Tool &tool : project.tools) {
        if (!names.isEmpty() && !names.contains(tool.name))
            continue;
        Tool copy = tool;
        if (const PythonToolFile *file = project.pythonFileOf(tool.name); file && !copy.outputSchema) {
            const auto it = file->resultSchemas.find(tool.name);
            if (it != file->resultSchemas.end())
                copy.outputSchema = it->second;
        }
        tools.push_back(std::move(copy));
    }
    return tools;
}

bool write(const Project &project, const QString &outDir, QStringList *written, QString *error)
{
    if (!QDir().mkpath(outDir)) {
        *error = QCoreApplication::translate("Typings", "%1: cannot create the folder").arg(outDir);
        return false;
    }
    const QString pyi = QDir(outDir).filePath(QStringLiteral("toolstudio.pyi"));
    const QString dts = QDir(outDir).filePath(QStringLiteral("toolstudio.d.ts"));
    const std::vector<Tool> tools = toolsOf(project);
    if (!writeText(pyi, python(tools, project.name), error) || !writeText(dts, typescript(tools, project.name), error))
        return false;
    *written << pyi << dts;
    return true;
}

} // namespace Typings
