// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/jsonerror.h"

#include <QRegularExpression>

TextPosition textPositionAt(const QByteArray &text, std::size_t byteOffset)
{
    TextPosition position;
    const std::size_t end = std::min<std::size_t>(byteOffset, std::size_t(text.size()));
    for (std::size_t i = 0; i < end; ++i) {
        const auto c = static_cast<unsigned char>(text[qsizetype(i)]);
        if (c == '\n') {
            ++position.line;
            position.column = 1;
        } else if ((c & 0xC0) != 0x80) { // count characters, not UTF-8 continuation bytes
            ++position.column;
        }
    }
    return position;
}

QString jsonParseErrorReason(const nlohmann::json::exception &error)
{
    static const QRegularExpression prefix(QStringLiteral(
        "^\\[json\\.exception\\.[a-z_]+\\.\\d+\\]\\s*(parse error( at line \\d+, column \\d+| at byte \\d+)?:\\s*)?"));
    return QString::fromUtf8(error.what()).remove(prefix);
}

QString describeJsonParseError(const QString &fileName, const QByteArray &text,
                               const nlohmann::json::parse_error &error)
{
    // nlohmann's byte index points one past the offending byte (1-based).
    const std::size_t offset = error.byte > 0 ? error.byte - 1 : 0;
    const TextPosition position = textPositionAt(text, offset);
    QString reason = jsonParseErrorReason(error);
    if (text.trimmed().isEmpty())
        reason = QStringLiteral("the file is empty; expected a JSON object");
    return QStringLiteral("%1:%2:%3: %4").arg(fileName).arg(position.line).arg(position.column).arg(reason);
}

QString describeJsonProblem(const QByteArray &text, const JsonInput::Problem &problem)
{
    const QString reason = QString::fromStdString(problem.reason);
    if (problem.byte == std::string_view::npos)
        return reason;
    const TextPosition at = textPositionAt(text, problem.byte);
    return QStringLiteral("line %1, column %2: %3").arg(at.line).arg(at.column).arg(reason);
}
