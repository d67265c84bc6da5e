// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "toolchangequestionview.h"

#include "project/printabletext.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBlock>
#include <QTextCursor>
#include <QVBoxLayout>

ToolChangeQuestionView::ToolChangeQuestionView(QWidget *parent)
    : QWidget(parent)
{
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("toolChangeMessage"));
    m_message->setTextFormat(Qt::PlainText);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_diff = new QPlainTextEdit(this);
    m_diff->setObjectName(QStringLiteral("toolChangeDiff"));
    m_diff->setReadOnly(true);
    // Wrapped: the end of a changed line (what a description now asks for) must be in
    // view without scrolling sideways.
    m_diff->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_diff->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_accept = new QPushButton(tr("&Accept"), this);
    m_accept->setObjectName(QStringLiteral("acceptToolChange"));
    m_accept->setToolTip(tr("Accept the tool's definition as shown (the project's record of accepted tools keeps "
                            "it) and send the call"));
    m_reject = new QPushButton(tr("&Reject"), this);
    m_reject->setObjectName(QStringLiteral("rejectToolChange"));
    m_reject->setToolTip(tr("Fail the call; the accepted definition stays and later calls ask again"));
    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_reject);
    buttons->addWidget(m_accept);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_message);
    layout->addWidget(m_diff, 1);
    layout->addLayout(buttons);
    connect(m_accept, &QPushButton::clicked, this, [this] { Q_EMIT answered({{"action", "accept"}}); });
    connect(m_reject, &QPushButton::clicked, this, [this] { Q_EMIT answered({{"action", "reject"}}); });
}

void ToolChangeQuestionView::setQuestion(const nlohmann::json &question)
{
    // Every byte came from the server (checked printable when asked; again here: the
    // journal may be read from another process).
    const auto text = [&question](const char *key) {
        const auto found = question.is_object() ? question.find(key) : question.end();
        return found != question.end() && found->is_string()
            ? printableLines(QString::fromStdString(found->get<std::string>()))
            : QString();
    };
    m_message->setText(text("message"));
    m_diff->setPlainText(text("diff"));
    markChangedLines();
}

void ToolChangeQuestionView::markChangedLines()
{
    // Removed lines on red, added ones on green, as diff views show them.
    QTextCharFormat removed;
    removed.setBackground(QColor(0xff, 0xeb, 0xee));
    removed.setForeground(QColor(0xb7, 0x1c, 0x1c));
    QTextCharFormat added;
    added.setBackground(QColor(0xe8, 0xf5, 0xe9));
    added.setForeground(QColor(0x1b, 0x5e, 0x20));
    for (QTextBlock block = m_diff->document()->begin(); block.isValid(); block = block.next()) {
        const QString line = block.text();
        const bool minus = line.startsWith(u'-') && !line.startsWith(QLatin1String("---"));
        const bool plus = line.startsWith(u'+') && !line.startsWith(QLatin1String("+++"));
        if (!minus && !plus)
            continue;
        QTextCursor cursor(block);
        cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        cursor.mergeCharFormat(minus ? removed : added);
    }
}
