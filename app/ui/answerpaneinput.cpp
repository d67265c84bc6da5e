// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// AnswerPane: its inputs — which one shows for the call (the composer, the form, the raw
// JSON edit) and how tall, and the raw JSON result read and bounded.
#include "answerpane.h"

#include "engine/personquestion.h"
#include "jsoninput.h"
#include "modelcomposer.h"
#include "pagequestion.h"
#include "project/jsonerror.h"
#include "schemaform.h"
#include "toolchangequestionview.h"

#include <QLabel>
#include <QLayout>
#include <QPlainTextEdit>

#include <algorithm>

namespace {

bool looksLikeJson(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return false;
    const QChar first = trimmed.front();
    return QStringLiteral("{[\"-0123456789").contains(first) || trimmed.startsWith(QLatin1String("true"))
        || trimmed.startsWith(QLatin1String("false")) || trimmed.startsWith(QLatin1String("null"));
}

} // namespace

void AnswerPane::applyInput()
{
    const bool toolChange = PersonQuestion::kind(m_question) == QLatin1String("tool_change"); // its own view, no input
    m_toolChange->setVisible(toolChange);
    m_composer->setVisible(m_usesComposer);
    m_argumentsLabel->setVisible(!m_usesComposer && !toolChange);
    m_argumentsLabel->setText(m_question.is_object() ? tr("The server asks:") : tr("Arguments:"));
    m_argumentsView->setVisible(!m_usesComposer && !toolChange);
    const bool page = PageQuestion::is(m_question) || toolChange; // nothing to enter
    // Three lines: the whole arguments are in the list's tooltip and the Step dock. A
    // page to open has no input below it: its message and URL get ten; a sampling
    // request with tools six, for the tool calls and results of its conversation.
    const bool tools = m_question.is_object() && m_question.contains("tools");
    m_argumentsView->setMaximumHeight(m_argumentsView->fontMetrics().lineSpacing()
                                          * (page        ? 10
                                                 : tools ? 6
                                                         : 3)
                                      + 2 * m_argumentsView->frameWidth() + 14);
    // A sampling reply is one text, labelled once, by its field ("Reply (text) *"), and
    // always valid as JSON: no Raw JSON, and what is missing is said beside Send Reply
    // (replyHint) rather than "Valid, but text is empty" under the field.
    const bool sampling = PersonQuestion::kind(m_question) == QLatin1String("sampling");
    m_resultLabel->setVisible(!m_usesComposer && !page && !sampling);
    m_resultForm->setVisible(m_usesForm && !m_usesComposer && !page);
    m_resultForm->setRawToggleVisible(!sampling);
    m_resultForm->setStatusLineVisible(!sampling);
    if (m_usesForm) {
        // The form is as tall as its fields (its inner scroll area would ask for more),
        // so Send Result and Send Error stay in view in the Pending Calls dock of a
        // 1440x900 window; the Raw JSON toggle and one field at least, and two lines for
        // the status line and a field's error. A sampling reply has its field alone.
        const QWidget *page = m_resultForm->findChild<QWidget *>(QStringLiteral("formPage"));
        const QWidget *toggle = m_resultForm->findChild<QWidget *>(QStringLiteral("rawToggle"));
        int fields = page && page->layout() ? page->layout()->sizeHint().height() : 0;
        // The fields of a new schema are shown from the event loop; till then the page's
        // layout leaves them out: a sampling reply's one line counts by its editor.
        if (const QWidget *reply = sampling ? m_resultForm->control(QStringLiteral("/text")) : nullptr)
            fields = std::max(fields, reply->sizeHint().height() + 4);
        const int content
            = sampling ? fields : fields + (toggle ? toggle->sizeHint().height() : 0) + 2 * fontMetrics().lineSpacing();
        const int least = sampling ? fields : fontMetrics().lineSpacing() * 4;
        m_resultForm->setMinimumHeight(least);
        m_resultForm->setMaximumHeight(std::max(least, content));
    }
    m_resultEdit->setVisible(!m_usesForm && !m_usesComposer && !page);
    m_resultLabel->setText(m_question.is_object() ? tr("&Answer (the form the server asks for):")
                               : m_usesForm       ? tr("&Result (from the tool's output schema):")
                                                  : tr("&Result (JSON):"));
    m_resultLabel->setBuddy(m_usesForm ? static_cast<QWidget *>(m_resultForm) : m_resultEdit);
}

bool AnswerPane::sendRawResult()
{
    const QByteArray bytes = m_resultEdit->toPlainText().toUtf8();
    if (const JsonInput::Problem bound
        = JsonInput::overLimit(std::string_view(bytes.constData(), std::size_t(bytes.size())));
        bound.limit) {
        showProblem(QString::fromStdString(JsonInput::describe("The result", bound)) + QLatin1Char('.'));
        return false;
    }
    ManualAnswer answer;
    try {
        answer.result = nlohmann::json::parse(bytes.constBegin(), bytes.constEnd());
    } catch (const nlohmann::json::parse_error &error) {
        QString text = tr("Not valid JSON: %1").arg(jsonParseErrorReason(error));
        if (bytes.trimmed().isEmpty())
            text = tr("Enter the result as JSON, e.g. \"done\", 42 or {\"url\": \"…\"}.");
        else if (!looksLikeJson(m_resultEdit->toPlainText()))
            text += QLatin1Char('\n') + tr("Text must be in double quotes to be a JSON string.");
        showProblem(text);
        // Put the cursor where the parser stopped (error.byte is 1-based, in UTF-8).
        const qsizetype byte = qBound<qsizetype>(0, qsizetype(error.byte) - 1, bytes.size());
        QTextCursor cursor = m_resultEdit->textCursor();
        cursor.setPosition(int(QString::fromUtf8(bytes.left(byte)).size()));
        m_resultEdit->setTextCursor(cursor);
        m_resultEdit->setFocus();
        return false;
    } catch (const nlohmann::json::exception &error) { // a number it cannot hold: 1e999
        showProblem(tr("Not valid JSON: %1").arg(jsonParseErrorReason(error)));
        m_resultEdit->setFocus();
        return false;
    }
    return send(answer);
}
