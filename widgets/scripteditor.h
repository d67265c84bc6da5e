// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "qsciincludes.h"

#include <QHash>
#include <QList>

class QsciAPIs;

/// One frame of a Python traceback that names a file.
struct TracebackFrame
{
    QString file; ///< as printed (the run's copy of the script)
    int line = 0; ///< 1-based
};

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

    /// Editor font and tab width (Settings); applied to the lexer too.
    void setEditorFont(const QFont &font);
    /// The font the text is drawn in (QsciScintilla's styles; QWidget::font() is not it).
    QFont editorFont() const { return m_font; }
    void setTabSize(int width);

    /// Autocompletion entries for the project's tools (QsciAPIs): `tools.NAME(params)`
    /// and `NAME(params)`, e.g. "tools.get_exchange_rate(base, quote)".
    void setToolCompletions(const QStringList &entries);
    QStringList toolCompletions() const { return m_completions; }

    /// Frames of the Python tracebacks in `stderrText` (`File "…", line N`), in order.
    static QList<TracebackFrame> parseTraceback(const QString &stderrText);
    /// Marks the lines of this file named in `stderrText`'s traceback, matching frames
    /// by basename (a run executes a copy of the script under the same name). Each
    /// marked line gets an indicator, a margin marker and the exception line as its
    /// hover message. Returns the marked lines (1-based, ascending).
    QList<int> markTraceback(const QString &stderrText);
    void clearTraceback();
    QList<int> tracebackLines() const;
    /// The hover message of a marked line (1-based); empty when unmarked.
    QString tracebackMessage(int line) const { return m_tracebackMessages.value(line); }

    /// True when the file on disk differs from what was loaded or saved last.
    bool changedOnDisk() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyColours();
    void updateMarginWidth();
    void applyCompletions();
    void showDwellTip(int position, int x, int y);

    QString m_filePath;
    QString m_language;
    QFont m_font;
    int m_tabWidth = 4;
    QStringList m_completions;
    QHash<int, QString> m_tracebackMessages; ///< 1-based line → message
    QByteArray m_diskContent;
};
