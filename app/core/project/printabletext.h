// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "textclip.h"

#include <QByteArray>
#include <QString>

#include <nlohmann/json.hpp>

/// Text that came from a script or a tool (tool names, call ids, error messages,
/// arguments, the script's own output), made safe to print on a terminal or show in a
/// label (issue 16, class 6): a script must not be able to move the cursor, set the
/// terminal title, clear the screen, reorder what follows, or start a line that looks
/// like the studio's own ("run … completed").
///
/// Escaped, as in a JSON string: `\n`, `\r`, `\t`, and `\uXXXX` (four lowercase hex
/// digits) for every other C0 control (U+0000–U+001F), DEL (U+007F), every C1 control
/// (U+0080–U+009F), the Unicode bidirectional controls (U+061C, U+200E, U+200F,
/// U+202A–U+202E, U+2066–U+2069), the line and paragraph separators (U+2028,
/// U+2029) and the invisible characters that only hide or join (U+200B zero width
/// space, U+2060–U+2064 word joiner and invisible operators, U+FEFF: "prod" and
/// "prod\u200b" looked the same, attack36 F4), and the tag characters U+E0000–U+E007F
/// (as their surrogate pair, `\udb40\udcXX`: text in tags reads as nothing, attack38 F3)
/// but in an emoji flag's tag sequence (U+1F3F4, 2–7 letter or digit tags, the cancel
/// tag). The joiners that scripts and emoji need (U+200C, U+200D) are kept. Everything else, backslashes and quotes included, is kept as it is, so
/// ordinary text reads unchanged (a literal `\u001b` typed by the script looks like an
/// escaped ESC: harmless, only ambiguous).
QString printableText(const QString &text);
/// The same for a multi-line text (a tool's error message, a run's error): `\n` and
/// `\t` are kept, everything else printableText() escapes is escaped.
QString printableLines(const QString &text);

/// `value` as indented JSON (2 spaces) for a terminal: the characters printableLines()
/// escapes — C1 controls, DEL, the bidirectional controls, …, which JSON leaves as they
/// are and can only be inside its strings — written as `\uXXXX`, so it is the same JSON
/// and does nothing to the terminal (a server's `--json` answer, attack37); invalid UTF-8
/// replaced.
QByteArray printableJson(const nlohmann::json &value);

/// clipUtf8() for a stream that stops at `maxBytes` (an output cap): when `utf8` reaches
/// the cap, a character begun before it whose remaining bytes would come after it is
/// dropped too (counted in `dropped`), even when it ends this chunk.
ClippedText clipUtf8Stream(const QByteArray &utf8, qsizetype maxBytes);
/// At most `maxChars` UTF-16 units of `text`, never half a surrogate pair; `dropped`
/// counts the UTF-8 bytes of the rest.
ClippedText clipChars(const QString &text, qsizetype maxChars);
/// `text` itself when it has at most `maxChars` characters, else clipChars() of it
/// followed by droppedNote(): for previews and summaries.
QString clippedText(const QString &text, qsizetype maxChars);

/// Text from a script quoted in a message (a tool name, a call id): printableText()
/// of at most `maxChars` characters; a longer text is cut there (clipChars) and
/// followed by droppedNote() (issue 16: a 100 KB name is not echoed into every error).
/// 128 = the longest tool name MCP allows, so a valid name is never cut.
QString elidedText(const QString &text, qsizetype maxChars = 128);

/// POSIX shell quoting for a word of a command the studio prints for a person to
/// paste: the text in single quotes, each `'` written as `'\''`; a word of only
/// [A-Za-z0-9_@%+=:,./-] is left bare. Control characters are escaped first
/// (printableText), so the printed command is one line and does nothing but quote.
QString shellQuoted(const QString &text);

/// A stream filter for a script's output bytes on their way to a terminal (UTF-8):
/// the same escapes as printableLines(), applied to bytes, keeping a multi-byte
/// sequence that a chunk boundary splits until the next chunk completes it.
class PrintableStream
{
public:
    /// The printable form of `chunk` (any bytes); invalid UTF-8 passes as it is.
    QByteArray filter(const QByteArray &chunk);
    /// The bytes held back at the end of the stream (an unfinished sequence), as they are.
    QByteArray flush();

private:
    QByteArray m_pending;
};
