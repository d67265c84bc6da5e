// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

/// The studio's one rule for clipping text (issue 17 §4; docs/trace.md "Clipped
/// text"), here in the lowest library so every layer — the tool worker's log quote
/// included — uses it (project/printabletext.h adds streams, characters, previews): every cap — output caps, a command's stderr, previews, summaries, journal
/// fields, elided names — cuts on a character boundary (never half a UTF-8 sequence,
/// never half a UTF-16 surrogate pair) and says how many bytes it dropped.
struct ClippedText
{
    QByteArray kept;       ///< the longest prefix within the cap that ends on a character boundary
    qsizetype dropped = 0; ///< bytes of the text not in `kept`
};
/// `utf8` cut to at most `maxBytes` bytes, back to the start of a character when the
/// cap falls inside one (a continuation byte 10xxxxxx is never the first dropped one).
ClippedText clipUtf8(const QByteArray &utf8, qsizetype maxBytes);
/// "… (N bytes dropped)": what follows a clipped text.
QString droppedNote(qsizetype dropped);
