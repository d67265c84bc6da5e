// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "llm/toolgeneration.h"

#include "llm/modelmessage.h"
#include "project/printabletext.h"

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <optional>
#include <vector>

namespace {

struct Block
{
    QString info; ///< the info string's first word, lower case ("python", "" when none)
    QStringList lines;
    bool closed = false;
};

struct Fence
{
    QChar marker;
    qsizetype length = 0;
    QString info;
};

/// An opening fence (CommonMark 4.5): up to 3 spaces, 3+ backticks or tildes, an info
/// string (no backtick in it after backticks).
std::optional<Fence> openingFence(const QString &line)
{
    static const QRegularExpression pattern(QStringLiteral("\\A {0,3}(`{3,}|~{3,})[ \\t]*([^\\s`]*)[^`]*\\z"));
    static const QRegularExpression tildes(QStringLiteral("\\A {0,3}(~{3,})[ \\t]*(\\S*).*\\z"));
    QRegularExpressionMatch match = pattern.match(line);
    if (!match.hasMatch())
        match = tildes.match(line);
    if (!match.hasMatch())
        return std::nullopt;
    return Fence{match.captured(1).front(), match.capturedLength(1), match.captured(2).toLower()};
}

/// A closing fence of `fence`: up to 3 spaces, the same character at least as often,
/// nothing but white space after.
bool closes(const QString &line, const Fence &fence)
{
    qsizetype leading = 0;
    while (leading < line.size() && line.at(leading) == QLatin1Char(' '))
        ++leading;
    if (leading > 3)
        return false;
    const QString rest = line.mid(leading).trimmed();
    return rest.size() >= fence.length
        && std::all_of(rest.begin(), rest.end(), [&](QChar c) { return c == fence.marker; });
}

std::vector<Block> fencedBlocks(const QStringList &lines, bool *anyFence)
{
    std::vector<Block> blocks;
    std::optional<Fence> open;
    for (const QString &line : lines) {
        if (open) {
            if (closes(line, *open)) {
                blocks.back().closed = true;
                open.reset();
            } else {
                blocks.back().lines.append(line);
            }
        } else if ((open = openingFence(line))) {
            blocks.push_back(Block{open->info, {}, false});
        }
    }
    *anyFence = !blocks.empty();
    return blocks;
}

bool isPython(const QString &info)
{
    return info == QLatin1String("python") || info == QLatin1String("py") || info == QLatin1String("python3");
}

/// The reply's start for an error message: printable, cut to 200 characters.
QString startOf(const QString &reply)
{
    const QByteArray utf8 = reply.trimmed().toUtf8();
    return ModelMessage::quoteText(std::string_view(utf8.constData(), std::size_t(utf8.size())));
}

/// The longest run of backticks in `text`.
qsizetype longestBacktickRun(const QString &text)
{
    qsizetype longest = 0;
    qsizetype run = 0;
    for (const QChar c : text) {
        run = c == QLatin1Char('`') ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    return longest;
}

} // namespace

QString ToolGeneration::systemPrompt()
{
    return QStringLiteral(
        "You write tool files for Tool Studio: Python files in the Open WebUI style, whose tools a language model "
        "calls.\n"
        "Answer with exactly one complete Python file in one ```python fenced code block, and nothing after it.\n"
        "The file:\n"
        "- starts with a module docstring of `key: value` lines: title, description, and requirements (the pip "
        "packages, comma-separated) when it imports anything outside the standard library;\n"
        "- defines `class Tools:`; each public method is a tool, methods whose name starts with `_` are helpers;\n"
        "- gives every parameter of a tool a type hint (str, int, float, bool, list[T], dict[str, T], Optional[T], "
        "Literal[...], an Enum or a pydantic model) and a default when it is optional;\n"
        "- gives every tool a docstring: what it does and when to use it, for the model that calls it, then one "
        "`:param name: description` line per parameter;\n"
        "- returns JSON values (str, int, float, bool, list, dict) and raises an exception with a clear message "
        "when it fails;\n"
        "- keeps settings in `class Valves(BaseModel)` inside Tools, set in `__init__` as `self.valves = "
        "self.Valves()`, and reads API keys from environment variables, never from the code;\n"
        "- does no work when it is imported: no network, no files, no output at the top level.\n"
        "When you are given the current file, change it as asked and answer with the whole new file, keeping "
        "what the request does not change.");
}

QString ToolGeneration::userPrompt(const QString &description, const QString &fileName, const QString &currentText)
{
    if (currentText.isEmpty())
        return QStringLiteral("Write the tool file %1.\n\n%2").arg(fileName, description.trimmed());
    const QString fence(std::max<qsizetype>(3, longestBacktickRun(currentText) + 1), QLatin1Char('`'));
    QString text = currentText;
    if (!text.endsWith(QLatin1Char('\n')))
        text += QLatin1Char('\n');
    return QStringLiteral("This is the tool file %1 now:\n\n%2python\n%3%2\n\nChange it: %4")
        .arg(fileName, fence, text, description.trimmed());
}

nlohmann::json ToolGeneration::messages(const QString &description, const QString &fileName, const QString &currentText)
{
    return nlohmann::json::array(
        {{{"role", "system"}, {"content", systemPrompt().toStdString()}},
         {{"role", "user"}, {"content", userPrompt(description, fileName, currentText).toStdString()}}});
}

ToolGeneration::Extraction ToolGeneration::extractCode(const QString &reply, const QString &stopReason)
{
    Extraction result;
    QString text = reply;
    text.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
    if (text.trimmed().isEmpty()) {
        result.error = tr("The model's reply is empty: there is no code in it.");
        return result;
    }
    const bool cutOff = stopReason == QLatin1String("length");
    const QStringList lines = text.split(QLatin1Char('\n'));
    bool anyFence = false;
    const std::vector<Block> blocks = fencedBlocks(lines, &anyFence);
    const Block *chosen = nullptr;
    for (const Block &block : blocks)
        if (!chosen && isPython(block.info))
            chosen = &block;
    for (const Block &block : blocks)
        if (!chosen && block.info.isEmpty())
            chosen = &block;
    QStringList code;
    if (chosen) {
        if (!chosen->closed && cutOff) {
            result.error = tr("The model stopped at its token limit before the file was complete (its code block "
                              "never closes). Raise max_tokens in the model's params, or ask for a smaller tool.");
            return result;
        }
        code = chosen->lines;
    } else if (anyFence) {
        QStringList languages;
        for (const Block &block : blocks)
            if (!languages.contains(block.info))
                languages.append(block.info);
        result.error = tr("The model's reply has code only in other languages (%1), no Python. It starts: %2")
                           .arg(languages.join(QStringLiteral(", ")), startOf(reply));
        return result;
    } else {
        if (cutOff) {
            result.error = tr("The model stopped at its token limit before the file was complete. Raise "
                              "max_tokens in the model's params, or ask for a smaller tool.");
            return result;
        }
        code = lines;
    }
    while (!code.isEmpty() && code.front().trimmed().isEmpty())
        code.removeFirst();
    while (!code.isEmpty() && code.back().trimmed().isEmpty())
        code.removeLast();
    static const QRegularExpression classTools(QStringLiteral("^class[ \\t]+Tools\\b"),
                                               QRegularExpression::MultilineOption);
    const QString joined = code.join(QLatin1Char('\n'));
    if (joined.isEmpty() || !classTools.match(joined).hasMatch()) {
        result.error
            = tr("The model's reply has no Python file with a class Tools in it. It starts: %1").arg(startOf(reply));
        return result;
    }
    if (joined.contains(QChar(0))) {
        result.error = tr("The model's code holds a NUL character, which no Python file may hold; it was not "
                          "taken.");
        return result;
    }
    if (const qsizetype bytes = joined.toUtf8().size() + 1; bytes > CodeCapBytes) {
        result.error = tr("The model's code is %1 bytes, more than the %2 bytes a generated tool file may have; it "
                          "was not taken.")
                           .arg(bytes)
                           .arg(CodeCapBytes);
        return result;
    }
    result.code = joined + QLatin1Char('\n');
    return result;
}

bool ToolGeneration::hasHiddenCharacters(const QString &code)
{
    return printableLines(code) != code;
}
