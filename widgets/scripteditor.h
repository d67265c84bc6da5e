// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "qsciincludes.h"

/// The shared editor setup for scripts, tools and manifests: a lexer chosen by file
/// extension (Python, Bash, JavaScript, JSON), a line-number margin, a monospace
/// font, brace matching and folding, colours that follow the palette.
class ScriptEditor : public QsciScintilla
{
    Q_OBJECT
public:
    explicit ScriptEditor(QWidget *parent = nullptr);
    ~ScriptEditor() override;

    /// "Python", "Bash", "JavaScript", "JSON" by extension; empty for anything else.
    static QString languageForFile(const QString &path);

    /// Loads `path` (UTF-8) and picks the lexer by its extension. On failure returns
    /// false with `error` set ("Cannot open …: reason") and leaves the editor as it was.
    bool loadFile(const QString &path, QString *error = nullptr);
    /// Writes the text back to filePath() atomically; clears the modified flag.
    bool save(QString *error = nullptr);
    /// Empties the editor and forgets the file.
    void closeFile();

    QString filePath() const { return m_filePath; }
    /// The language of the current lexer ("Python", …), or empty for plain text.
    QString language() const { return m_language; }
    /// Picks the lexer for `language` (see languageForFile); plain text for anything else.
    void setLanguage(const QString &language);

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyColours();
    void updateMarginWidth();

    QString m_filePath;
    QString m_language;
    QFont m_font;
};
