// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QString>

/// Which interpreter runs a script: by its extension (.py → python3, .sh → bash,
/// .js → node), or the one set in the preferences for its language.
class Interpreters
{
public:
    /// The default interpreter for a script by its extension: an absolute path, or
    /// empty when none is installed (or the extension is unknown).
    static QString defaultFor(const QString &scriptPath);
    /// "python" for .py, "node" for .js/.cjs, else empty: the languages whose
    /// interpreter the preferences can choose.
    static QString languageOf(const QString &scriptPath);

    /// Uses `path` for `language` ("python" or "node"); empty goes back to the default.
    void setOverride(const QString &language, const QString &path);

    /// The interpreter for `script` (absolute path): the one set for its language, or
    /// the default. Empty with `error` set when the set one is not an executable file,
    /// none is installed, or the language is unknown.
    QString resolve(const QString &script, QString *error) const;

private:
    QHash<QString, QString> m_overrides; ///< "python"/"node" → path (Preferences)
};
