// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "textclip.h"

#include <algorithm>

ClippedText clipUtf8(const QByteArray &utf8, qsizetype maxBytes)
{
    if (utf8.size() <= maxBytes)
        return {utf8, 0};
    qsizetype cut = std::max<qsizetype>(maxBytes, 0);
    // Back over continuation bytes to the lead byte of the character the cap splits.
    while (cut > 0 && (static_cast<unsigned char>(utf8.at(cut)) & 0xC0) == 0x80)
        --cut;
    return {utf8.left(cut), utf8.size() - cut};
}

QString droppedNote(qsizetype dropped)
{
    return QStringLiteral("… (%1 bytes dropped)").arg(dropped);
}
