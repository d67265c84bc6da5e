// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/textdiff.h"

#include <QStringList>

#include <dtl/dtl.hpp>

#include <algorithm>
#include <string>

namespace {

std::vector<std::string> linesOf(const QString &text)
{
    std::vector<std::string> lines;
    if (text.isEmpty())
        return lines;
    QStringList parts = text.split(QLatin1Char('\n'));
    if (text.endsWith(QLatin1Char('\n')))
        parts.removeLast();
    lines.reserve(std::size_t(parts.size()));
    for (const QString &part : std::as_const(parts))
        lines.push_back(part.toStdString());
    return lines;
}

/// GNU diff's range: "start,count", "start" for one line, "start-1,0" for none.
QString range(long long start, long long count)
{
    if (count == 0)
        return QStringLiteral("%1,0").arg(std::max(0LL, start - 1));
    if (count == 1)
        return QString::number(start);
    return QStringLiteral("%1,%2").arg(start).arg(count);
}

} // namespace

std::vector<DiffLine> TextDiff::unified(const QString &before, const QString &after)
{
    std::vector<DiffLine> out;
    if (before == after)
        return out;
    dtl::Diff<std::string> diff(linesOf(before), linesOf(after));
    diff.onHuge(); // bounds the memory of the edit graph for long texts
    diff.compose();
    diff.composeUnifiedHunks();
    const auto add = [&out](DiffLine::Kind kind, const std::string &text) {
        out.push_back({kind, QString::fromStdString(text)});
    };
    for (const auto &hunk : diff.getUniHunks()) {
        add(DiffLine::Kind::Hunk,
            QStringLiteral("@@ -%1 +%2 @@").arg(range(hunk.a, hunk.b), range(hunk.c, hunk.d)).toStdString());
        for (const auto &element : hunk.common[0])
            add(DiffLine::Kind::Context, element.first);
        for (const auto &element : hunk.change)
            add(element.second.type == dtl::SES_ADD          ? DiffLine::Kind::Added
                    : element.second.type == dtl::SES_DELETE ? DiffLine::Kind::Removed
                                                             : DiffLine::Kind::Context,
                element.first);
        for (const auto &element : hunk.common[1])
            add(DiffLine::Kind::Context, element.first);
    }
    return out;
}

QString TextDiff::toText(const std::vector<DiffLine> &lines)
{
    QString text;
    for (const DiffLine &line : lines) {
        switch (line.kind) {
        case DiffLine::Kind::Hunk:
            break;
        case DiffLine::Kind::Context:
            text += QLatin1Char(' ');
            break;
        case DiffLine::Kind::Removed:
            text += QLatin1Char('-');
            break;
        case DiffLine::Kind::Added:
            text += QLatin1Char('+');
            break;
        }
        text += line.text + QLatin1Char('\n');
    }
    return text;
}

int TextDiff::count(const std::vector<DiffLine> &lines, DiffLine::Kind kind)
{
    return int(std::count_if(lines.begin(), lines.end(), [kind](const DiffLine &line) { return line.kind == kind; }));
}
