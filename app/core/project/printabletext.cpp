// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "printabletext.h"

#include <algorithm>

namespace {

bool isEscaped(char32_t c)
{
    return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x061c || c == 0x200b || c == 0x200e || c == 0x200f
        || (c >= 0x2028 && c <= 0x202e) || (c >= 0x2060 && c <= 0x2064) || (c >= 0x2066 && c <= 0x2069) || c == 0xfeff;
}

void appendEscape(QString &out, char32_t c)
{
    switch (c) {
    case '\n':
        out += QLatin1String("\\n");
        return;
    case '\r':
        out += QLatin1String("\\r");
        return;
    case '\t':
        out += QLatin1String("\\t");
        return;
    default:
        out += QStringLiteral("\\u%1").arg(uint(c), 4, 16, QLatin1Char('0'));
    }
}

/// A Unicode tag character (U+E0000–U+E007F) starts at `at`: its surrogate pair.
bool isTagAt(const QString &text, qsizetype at)
{
    return at + 1 < text.size() && text.at(at).unicode() == 0xdb40 && text.at(at + 1).unicode() >= 0xdc00
        && text.at(at + 1).unicode() <= 0xdc7f;
}

/// The length (UTF-16 units) of an emoji flag's tag sequence starting at `at` right after
/// U+1F3F4 WAVING BLACK FLAG (England 🏴 is U+1F3F4, the tags "gbeng", U+E007F): 2 to 7
/// lowercase letters or digits as tags, then the cancel tag; 0 when there is none.
qsizetype flagTagsAt(const QString &text, qsizetype at)
{
    if (at < 2 || text.at(at - 2).unicode() != 0xd83c || text.at(at - 1).unicode() != 0xdff4)
        return 0;
    for (qsizetype length = 0; length <= 7 && isTagAt(text, at + 2 * length); ++length) {
        const char16_t low = text.at(at + 2 * length + 1).unicode();
        if (low == 0xdc7f)
            return length >= 2 ? 2 * (length + 1) : 0;
        const char16_t tag = low - 0xdc00;
        if (!((tag >= 'a' && tag <= 'z') || (tag >= '0' && tag <= '9')))
            return 0;
    }
    return 0;
}

QString escaped(const QString &text, bool keepLines)
{
    // Fast path: nothing to escape (the common case for every name and message). A tag
    // character (U+E0000–U+E007F, a surrogate pair led by U+DB40) is invisible: text in
    // tags reads as nothing, so a tool's description could carry an instruction a person
    // never sees (attack38 F3); escaped but in an emoji flag's tag sequence.
    bool clean = true;
    for (const QChar ch : text) {
        const char16_t c = ch.unicode();
        if ((isEscaped(c) && !(keepLines && (c == '\n' || c == '\t'))) || c == 0xdb40) {
            clean = false;
            break;
        }
    }
    if (clean)
        return text;
    QString out;
    out.reserve(text.size() + 16);
    for (qsizetype at = 0; at < text.size(); ++at) {
        const char16_t c = text.at(at).unicode();
        if (isTagAt(text, at)) {
            if (const qsizetype flag = flagTagsAt(text, at)) {
                out += QStringView(text).mid(at, flag);
                at += flag - 1;
                continue;
            }
            appendEscape(out, c);
            appendEscape(out, text.at(at + 1).unicode());
            ++at;
        } else if (isEscaped(c) && !(keepLines && (c == '\n' || c == '\t'))) {
            appendEscape(out, c);
        } else {
            out += text.at(at);
        }
    }
    return out;
}

/// Length of the UTF-8 sequence a lead byte starts (1 for ASCII and stray bytes).
int sequenceLength(unsigned char lead)
{
    if (lead >= 0xc2 && lead <= 0xdf)
        return 2;
    if (lead >= 0xe0 && lead <= 0xef)
        return 3;
    if (lead >= 0xf0 && lead <= 0xf4)
        return 4;
    return 1;
}

} // namespace

QString printableText(const QString &text)
{
    return escaped(text, false);
}

QString printableLines(const QString &text)
{
    return escaped(text, true);
}

ClippedText clipUtf8Stream(const QByteArray &utf8, qsizetype maxBytes)
{
    ClippedText clipped = clipUtf8(utf8, maxBytes);
    if (utf8.size() < maxBytes)
        return clipped; // not at the cap: the rest of a character may still come
    const QByteArray &kept = clipped.kept;
    qsizetype lead = kept.size();
    while (lead > 0 && kept.size() - lead < 4 && (static_cast<unsigned char>(kept.at(lead - 1)) & 0xC0) == 0x80)
        --lead;
    if (lead == 0)
        return clipped;
    const auto first = static_cast<unsigned char>(kept.at(lead - 1));
    const qsizetype need = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1;
    const qsizetype have = kept.size() - (lead - 1);
    if (have < need) { // the cap is reached: its missing bytes will never be kept
        clipped.kept.chop(have);
        clipped.dropped += have;
    }
    return clipped;
}

ClippedText clipChars(const QString &text, qsizetype maxChars)
{
    if (text.size() <= maxChars)
        return {text.toUtf8(), 0};
    qsizetype cut = std::max<qsizetype>(maxChars, 0);
    if (cut > 0 && text.at(cut - 1).isHighSurrogate())
        --cut; // never half a surrogate pair
    return {text.left(cut).toUtf8(), QStringView(text).mid(cut).toUtf8().size()};
}

QString clippedText(const QString &text, qsizetype maxChars)
{
    if (text.size() <= maxChars)
        return text;
    const ClippedText clipped = clipChars(text, maxChars);
    return QString::fromUtf8(clipped.kept) + droppedNote(clipped.dropped);
}

QString elidedText(const QString &text, qsizetype maxChars)
{
    return printableText(clippedText(text, maxChars)); // the note has nothing to escape
}

QString shellQuoted(const QString &text)
{
    const QString word = printableText(text);
    bool bare = !word.isEmpty();
    for (const QChar ch : word) {
        const char16_t c = ch.unicode();
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
              || QStringView(u"_@%+=:,./-").contains(ch))) {
            bare = false;
            break;
        }
    }
    if (bare)
        return word;
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QLatin1String("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QByteArray PrintableStream::filter(const QByteArray &chunk)
{
    const QByteArray bytes = m_pending + chunk;
    m_pending.clear();
    QByteArray out;
    out.reserve(bytes.size());
    const auto *data = reinterpret_cast<const unsigned char *>(bytes.constData());
    const qsizetype size = bytes.size();
    for (qsizetype i = 0; i < size;) {
        const unsigned char lead = data[i];
        const int length = sequenceLength(lead);
        if (i + length > size) {
            // A sequence the next chunk may complete: held back (at most 3 bytes).
            m_pending = bytes.mid(i);
            break;
        }
        char32_t c = lead;
        bool valid = true;
        if (length > 1) {
            c = lead & (0x7f >> length);
            for (int k = 1; k < length; ++k) {
                if ((data[i + k] & 0xc0) != 0x80) {
                    valid = false;
                    break;
                }
                c = (c << 6) | (data[i + k] & 0x3f);
            }
        }
        if (!valid) { // a stray lead byte: passed as it is, the next byte starts over
            out += char(lead);
            ++i;
            continue;
        }
        if (isEscaped(c) && c != '\n' && c != '\t') {
            QString escape;
            appendEscape(escape, c);
            out += escape.toLatin1();
        } else {
            out.append(bytes.constData() + i, length);
        }
        i += length;
    }
    return out;
}

QByteArray PrintableStream::flush()
{
    QByteArray rest;
    rest.swap(m_pending);
    return rest;
}

QByteArray printableJson(const nlohmann::json &value)
{
    return printableLines(QString::fromStdString(value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)))
        .toUtf8();
}
