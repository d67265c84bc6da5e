// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "consoleview.h"
#include "project/printabletext.h"

#include <QEvent>
#include <QFontDatabase>
#include <QMouseEvent>
#include <QScrollBar>
#include <QTextCursor>
#include <QTextDocument>
#include <QTimer>

namespace {

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

} // namespace

ConsoleView::ConsoleView(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_stdoutDecoder(QStringDecoder::Utf8)
    , m_stderrDecoder(QStringDecoder::Utf8)
{
    setReadOnly(true);
    setUndoRedoEnabled(false);
    setMaximumBlockCount(DefaultMaximumLines);
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setPlaceholderText(tr("The script's output appears here when it runs."));
    updateFormats();
}

void ConsoleView::appendOutput(int stream, const QByteArray &chunk)
{
    if (chunk.isEmpty())
        return;
    flushMarkers();
    // RunController sends the truncation notice as a chunk of its own.
    if (chunk.startsWith("\n[") && chunk.contains(" truncated at ")) {
        appendText(QString::fromUtf8(chunk), m_truncationFormat);
        return;
    }
    const bool isStderr = stream == Stderr;
    QStringDecoder &decoder = isStderr ? m_stderrDecoder : m_stdoutDecoder;
    // The script's output, with controls and bidi overrides shown escaped (issue 16).
    const QString text = printableLines(decoder.decode(chunk));
    appendText(text, isStderr ? m_stderrFormat : m_stdoutFormat);
}

void ConsoleView::appendNotice(const QString &text)
{
    flushMarkers();
    QString line = text;
    if (!m_atLineStart)
        line.prepend(QLatin1Char('\n'));
    line.append(QLatin1Char('\n'));
    appendText(line, m_noticeFormat);
}

void ConsoleView::clearOutput()
{
    clear();
    m_markers = {};
    m_markerCount = 0;
    m_stdoutDecoder.resetState();
    m_stderrDecoder.resetState();
    m_atLineStart = true;
}

void ConsoleView::appendText(const QString &text, const QTextCharFormat &format)
{
    if (text.isEmpty())
        return;
    QScrollBar *bar = verticalScrollBar();
    const bool follow = bar->value() >= bar->maximum() - 2;

    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(text, format);
    m_atLineStart = text.endsWith(QLatin1Char('\n'));

    if (follow)
        bar->setValue(bar->maximum());
}

void ConsoleView::appendStepMarker(int sequence, const QString &callId, const QString &tool)
{
    if (m_markers.count == 0) {
        m_markers.firstSequence = sequence;
        m_markers.callId = callId;
        m_markers.tool = printableText(tool);
    }
    m_markers.lastSequence = sequence;
    ++m_markers.count;
    // A marker with no output after it still shows, a moment later.
    if (!m_markerTimer) {
        m_markerTimer = new QTimer(this);
        m_markerTimer->setSingleShot(true);
        m_markerTimer->setInterval(MarkerDelayMs);
        connect(m_markerTimer, &QTimer::timeout, this, &ConsoleView::flushMarkers);
    }
    if (!m_markerTimer->isActive())
        m_markerTimer->start();
}

void ConsoleView::flushMarkers()
{
    if (m_markers.count == 0)
        return;
    QString line = m_markers.count == 1 ? tr("\u25b8 step #%1 %2").arg(m_markers.firstSequence).arg(m_markers.tool)
                                        : tr("\u25b8 steps #%1 %2 \u2026 #%3 (%4 steps)")
                                              .arg(m_markers.firstSequence)
                                              .arg(m_markers.tool)
                                              .arg(m_markers.lastSequence)
                                              .arg(m_markers.count);
    if (!m_atLineStart)
        line.prepend(QLatin1Char('\n'));
    QTextCharFormat format = m_markerFormat;
    format.setAnchor(true);
    format.setAnchorHref(QStringLiteral("step:") + m_markers.callId);
    m_markers = {};
    QScrollBar *bar = verticalScrollBar();
    const bool follow = bar->value() >= bar->maximum() - 2;
    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(line, format);
    cursor.insertText(QStringLiteral("\n"), QTextCharFormat());
    m_atLineStart = true;
    ++m_markerCount;
    if (follow)
        bar->setValue(bar->maximum());
}

QString ConsoleView::callIdAt(const QPoint &pos) const
{
    const QString href = anchorAt(pos);
    return href.startsWith(QLatin1String("step:")) ? href.mid(5) : QString();
}

void ConsoleView::mouseReleaseEvent(QMouseEvent *event)
{
    QPlainTextEdit::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton || textCursor().hasSelection())
        return;
    const QString callId = callIdAt(event->position().toPoint());
    if (!callId.isEmpty())
        Q_EMIT stepClicked(callId);
}

void ConsoleView::mouseMoveEvent(QMouseEvent *event)
{
    QPlainTextEdit::mouseMoveEvent(event);
    viewport()->setCursor(callIdAt(event->position().toPoint()).isEmpty() ? Qt::IBeamCursor : Qt::PointingHandCursor);
}

bool ConsoleView::findText(const QString &text, bool backward)
{
    flushMarkers();
    if (text.isEmpty())
        return false;
    const QTextDocument::FindFlags flags = backward ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    if (find(text, flags))
        return true;
    // Wrap around.
    QTextCursor cursor = textCursor();
    cursor.movePosition(backward ? QTextCursor::End : QTextCursor::Start);
    setTextCursor(cursor);
    return find(text, flags);
}

void ConsoleView::changeEvent(QEvent *event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        updateFormats();
}

void ConsoleView::updateFormats()
{
    const bool dark = isDark(palette());
    m_stdoutFormat = QTextCharFormat(); // the palette's text colour
    m_stderrFormat = QTextCharFormat();
    m_stderrFormat.setForeground(dark ? QColor(0xff, 0x6e, 0x6e) : QColor(0xb7, 0x1c, 0x1c));
    m_noticeFormat = QTextCharFormat();
    m_noticeFormat.setForeground(palette().color(QPalette::PlaceholderText));
    m_noticeFormat.setFontItalic(true);
    m_markerFormat = QTextCharFormat();
    m_markerFormat.setForeground(palette().color(QPalette::Link));
    m_markerFormat.setFontUnderline(false);
    m_truncationFormat = QTextCharFormat();
    m_truncationFormat.setForeground(dark ? QColor(0xff, 0xb7, 0x4d) : QColor(0xb2, 0x6a, 0x00));
    m_truncationFormat.setFontWeight(QFont::Bold);
}
