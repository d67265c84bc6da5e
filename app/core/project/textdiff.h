// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <vector>

/// One line of a unified diff.
struct DiffLine
{
    enum class Kind {
        Hunk,    ///< "@@ -a,b +c,d @@"
        Context, ///< a line both texts have
        Removed, ///< a line only the text before has
        Added,   ///< a line only the text after has
    };
    Kind kind = Kind::Context;
    QString text; ///< the line without its marker and without '\n'
};

/// A line diff of two texts in unified form, for a person to review a change before it
/// is written (Generate Tool with AI, docs/models.md). The edit script and the hunks come
/// from dtl (Debian's libdtl-dev: Wu, Manber, Myers and Miller's O(NP) algorithm): 3
/// lines of context, the last line of a text joining a final hunk that ends 4 lines
/// before it. Hunk headers are GNU diff's (`@@ -0,0 +1,2 @@` for an empty side, a count
/// of 1 left out). A text's final '\n' ends its last line; it is not a line.
class TextDiff
{
public:
    /// The diff of `before` → `after`: hunk headers and their lines; empty when the
    /// texts are equal.
    static std::vector<DiffLine> unified(const QString &before, const QString &after);
    /// `lines` as diff text: the header as it is, then " ", "-" or "+" and the line.
    static QString toText(const std::vector<DiffLine> &lines);
    /// How many lines `lines` adds and removes.
    static int count(const std::vector<DiffLine> &lines, DiffLine::Kind kind);
};
