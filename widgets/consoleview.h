// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPlainTextEdit>

class QTimer;
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
    /// Markers of steps with no output after them are shown after this delay (ms).
    static constexpr int MarkerDelayMs = 200;

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
    /// A step marker ("▸ #3 fetch_page") between the output written before and after
    /// the call; clicking it emits stepClicked. Steps that arrive with no output
    /// between them share one marker line ("▸ #3 fetch_page … #9 (7 steps)"), so a
    /// burst of calls costs one line.
    void appendStepMarker(int sequence, const QString &callId, const QString &tool);
    /// Finds `text` (case-insensitive) after the cursor, wrapping around; selects it.
    bool findText(const QString &text, bool backward = false);

Q_SIGNALS:
    /// A step marker was clicked.
    void stepClicked(const QString &callId);

public:
    /// Lines with step markers inserted so far (for tests).
    int markerCount() const { return m_markerCount; }
    /// The call id of the marker at `pos` (viewport coordinates); empty when none.
    QString callIdAt(const QPoint &pos) const;

protected:
    void changeEvent(QEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    void appendText(const QString &text, const QTextCharFormat &format);
    void updateFormats();

    QStringDecoder m_stdoutDecoder;
    QStringDecoder m_stderrDecoder;
    QTextCharFormat m_stdoutFormat;
    QTextCharFormat m_stderrFormat;
    QTextCharFormat m_noticeFormat;
    bool m_atLineStart = true;
    void flushMarkers();
    struct MarkerRun
    {
        int firstSequence = 0;
        int lastSequence = 0;
        QString callId;
        QString tool;
        int count = 0;
    };
    MarkerRun m_markers;
    QTextCharFormat m_markerFormat;
    QTextCharFormat m_truncationFormat;
    int m_markerCount = 0;
    QTimer *m_markerTimer = nullptr;
};
