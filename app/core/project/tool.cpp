// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/tool.h"

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
    }
    return QString();
}

bool Tool::isValidName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("\\A[A-Za-z][A-Za-z0-9_]{0,63}\\z"));
    return pattern.match(name).hasMatch();
}
