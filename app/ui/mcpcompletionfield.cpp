// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpcompletionfield.h"

#include "plaintextlabel.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QKeyEvent>
#include <QLineEdit>
#include <QStringListModel>

#include <climits>
#include <utility>

McpCompletionField::McpCompletionField(QLineEdit *field, Session session, McpCompletionRef ref, const QString &argument,
                                       Context context, const QString &toolTip)
    : QObject(field)
    , m_field(field)
    , m_session(std::move(session))
    , m_ref(std::move(ref))
    , m_argument(argument)
    , m_context(std::move(context))
    , m_toolTip(toolTip)
{
    setObjectName(QStringLiteral("mcpCompletion_") + argument);
    m_model = new QStringListModel(this);
    m_completer = new QCompleter(m_model, this);
    // The server filters (by prefix, or as it likes): every value it gave is shown.
    m_completer->setCompletionMode(QCompleter::UnfilteredPopupCompletion);
    m_completer->setMaxVisibleItems(10);
    m_field->setCompleter(m_completer);
    // QCompleter hands Enter on its list to the field too, which would Read or Get at
    // once: Enter on a chosen value only puts it in the field (this filter runs first).
    m_completer->popup()->installEventFilter(this);
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(DebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &McpCompletionField::ask);
    connect(m_field, &QLineEdit::textEdited, this, [this] {
        // The values were for the text before: none are offered until the new answer.
        m_model->setStringList({});
        m_debounce.start();
    });
}

McpCompletionField::~McpCompletionField()
{
    ++m_generation; // the reply of the open request, if it comes, is dropped
    if (m_asking && m_requestId != 0)
        m_asking->cancel(m_requestId, QStringLiteral("the field was closed"));
}

bool McpCompletionField::eventFilter(QObject *watched, QEvent *event)
{
    QAbstractItemView *popup = m_completer->popup();
    if (watched == popup && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        const QModelIndex chosen = popup->currentIndex();
        if ((key == Qt::Key_Return || key == Qt::Key_Enter) && popup->isVisible() && chosen.isValid()) {
            popup->hide();
            m_field->setText(chosen.data().toString());
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

QStringList McpCompletionField::values() const
{
    return m_model->stringList();
}

void McpCompletionField::ask()
{
    if (m_asking) {
        m_askAgain = true; // once the open one is answered
        return;
    }
    QString why;
    McpClientSession *session = m_session(&why);
    if (!McpCompletion::offered(session)) {
        // Not connected, or the server offers no completions: nothing to ask. One that
        // answered -32601 earlier in its session is said, as that answer was.
        if (const QString missing = McpCompletion::methodMissing(session); !missing.isEmpty())
            showFailure(missing);
        return;
    }
    const QString asked = m_field->text();
    const int generation = ++m_generation;
    m_asking = session;
    const QPointer<McpCompletionField> self(this);
    m_requestId
        = McpCompletion::complete(session, m_ref, m_argument, asked, m_context ? m_context() : QMap<QString, QString>{},
                                  [self, generation, asked](const McpCompletionResult &result, const McpReply &reply) {
                                      if (self && self->m_generation == generation)
                                          self->onAnswer(asked, result, reply);
                                  });
}

void McpCompletionField::onAnswer(const QString &asked, const McpCompletionResult &result, const McpReply &reply)
{
    m_asking.clear();
    m_requestId = 0;
    if (asked != m_field->text()) {
        // Typed on meanwhile: this answer is stale; ask for the text now.
        if (std::exchange(m_askAgain, false))
            ask();
        return;
    }
    m_askAgain = false;
    if (!reply.ok()) {
        showFailure(reply.errorText());
        Q_EMIT answered();
        return;
    }
    m_problem.clear();
    m_model->setStringList(result.values);
    QStringList notes;
    if (result.hasMore)
        notes << (result.total > result.values.size()
                      ? tr("The server has %1 values; the first %2 are offered: type more to narrow them.")
                            .arg(result.total)
                            .arg(result.values.size())
                      : tr("The server has more values than it offered: type more to narrow them."));
    if (result.dropped > 0)
        notes << tr("%n value(s) of the server left out (not text, empty, repeated, longer than %1 characters or "
                    "with control characters).",
                    nullptr, int(std::min<qint64>(result.dropped, INT_MAX)))
                     .arg(McpCompletion::MaxValueChars);
    setNote(notes.join(u'\n'));
    if (!result.values.isEmpty() && m_field->hasFocus()) {
        m_completer->setCompletionPrefix(asked);
        m_completer->complete();
    } else {
        m_completer->popup()->hide();
    }
    Q_EMIT answered();
}

void McpCompletionField::showFailure(const QString &problem)
{
    m_problem = problem;
    m_model->setStringList({});
    setNote(tr("Completions failed: %1").arg(problem));
}

void McpCompletionField::setNote(const QString &note)
{
    QString tip = m_toolTip;
    if (!note.isEmpty())
        tip += (tip.isEmpty() ? QString() : QStringLiteral("\n")) + note;
    m_field->setToolTip(tip.isEmpty() ? QString() : plainToolTip(tip));
}
