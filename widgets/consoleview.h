// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPlainTextEdit>
#include <QStringDecoder>

/// The script's output: stdout and stderr interleaved in arrival order, stderr in a
/// distinct colour, plus the studio's own notices (run started, finished). Read-only
/// and bounded by maximumBlockCount so a chatty script cannot exhaust memory.
class ConsoleView : public QPlainTextEdit
{
    Q_OBJECT
public:
    enum Stream { Stdout = 1, Stderr = 2 };
    /// Lines kept; older lines are dropped.
    static constexpr int DefaultMaximumLines = 20000;

    explicit ConsoleView(QWidget *parent = nullptr);

public Q_SLOTS:
    /// Appends a chunk of a stream (1 = stdout, 2 = stderr). Chunks may split lines
    /// and UTF-8 sequences; each stream is decoded with its own state.
    void appendOutput(int stream, const QByteArray &chunk);
    /// Appends a line from the studio itself (e.g. "Run 3f2a started"), set apart in
    /// italics on a line of its own.
    void appendNotice(const QString &text);
    /// Clears the text and the decoders' state (a new run).
    void clearOutput();

protected:
    void changeEvent(QEvent *event) override;

private:
    void appendText(const QString &text, const QTextCharFormat &format);
    void updateFormats();

    QStringDecoder m_stdoutDecoder;
    QStringDecoder m_stderrDecoder;
    QTextCharFormat m_stdoutFormat;
    QTextCharFormat m_stderrFormat;
    QTextCharFormat m_noticeFormat;
    bool m_atLineStart = true;
};
