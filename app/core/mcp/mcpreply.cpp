// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpreply.h"

#include "project/printabletext.h"

QString McpReply::errorText() const
{
    if (!failure.isEmpty())
        return failure;
    if (error.code != 0)
        return QStringLiteral("%1: %2")
            .arg(error.code)
            .arg(elidedText(QString::fromStdString(error.message), QuotedServerChars));
    return {};
}
