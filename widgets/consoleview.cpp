// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "consoleview.h"

#include <QEvent>
#include <QFontDatabase>
#include <QScrollBar>
#include <QTextCursor>

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
    const bool isStderr = stream == Stderr;
    QStringDecoder &decoder = isStderr ? m_stderrDecoder : m_stdoutDecoder;
    const QString text = decoder.decode(chunk);
    appendText(text, isStderr ? m_stderrFormat : m_stdoutFormat);
}

void ConsoleView::appendNotice(const QString &text)
{
    QString line = text;
    if (!m_atLineStart)
        line.prepend(QLatin1Char('\n'));
    line.append(QLatin1Char('\n'));
    appendText(line, m_noticeFormat);
}

void ConsoleView::clearOutput()
{
    clear();
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
}
