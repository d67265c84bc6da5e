// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/tool.h"

#include <QCoreApplication>
#include <QRegularExpression>

QString handlerKindName(HandlerKind kind)
{
    switch (kind) {
    case HandlerKind::Mock:
        return QStringLiteral("mock");
    case HandlerKind::Manual:
        return QStringLiteral("manual");
    case HandlerKind::Command:
        return QStringLiteral("command");
    case HandlerKind::Python:
        return QStringLiteral("python");
    case HandlerKind::Mcp:
        return QStringLiteral("mcp");
    }
    return QString();
}

bool Tool::isValidName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("\\A[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}\\z"));
    return pattern.match(name).hasMatch();
}

QString Tool::nameRule()
{
    return QCoreApplication::translate("Tool",
                                       "1 to 128 letters, digits, '_', '-' or '.', starting with a letter, "
                                       "digit or '_'");
}

QString Tool::suggestName(const QString &name)
{
    QString out;
    for (const QChar c : name) {
        const bool ascii = c.unicode() < 128;
        out += ascii
                && (c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('-') || c == QLatin1Char('.'))
            ? c
            : QLatin1Char('_');
    }
    if (out.isEmpty() || out.startsWith(QLatin1Char('-')) || out.startsWith(QLatin1Char('.')))
        out.prepend(QLatin1Char('_'));
    return out.left(128);
}
