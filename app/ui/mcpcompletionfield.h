// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpcompletion.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>

class QCompleter;
class QLineEdit;
class QStringListModel;

/// The server's completions for one field of the Resources and Prompts window (a
/// template's variable, a prompt's argument; docs/mcp.md "Resources and prompts"): as
/// the person types, completion/complete is sent (McpCompletion) once the typing rests
/// DebounceMs, and its values pop up under the field (a QCompleter, unfiltered: the
/// server did the filtering; arrows choose, Enter or a click puts the value in the
/// field). Only when the server declared `completions`; nothing waits on the window.
///
/// One request per field is open at a time: text typed meanwhile is asked for once
/// that one is answered, and an answer for text that is no longer the field's is
/// dropped. A failure is said quietly in the field's tooltip (problem()), never in a
/// dialog; so is a server that has more values than it offered, and one that answered
/// -32601 in its session (McpCompletion::methodMissing()), which is not asked again.
/// The object belongs to the field (its child) and ends with it; a request still open
/// then is cancelled.
class McpCompletionField : public QObject
{
    Q_OBJECT
public:
    /// The server's ready session, or nullptr with the reason in `why`.
    using Session = std::function<McpClientSession *(QString *why)>;
    /// The form's values now, by argument name (the field's own is left out when sent).
    using Context = std::function<QMap<QString, QString>()>;
    static constexpr int DebounceMs = 250;

    /// Completes `field` (taking it as parent) for `argument` of `ref`; `toolTip`: the
    /// field's own tooltip text (plain), kept before any note.
    McpCompletionField(QLineEdit *field, Session session, McpCompletionRef ref, const QString &argument,
                       Context context, const QString &toolTip = {});
    ~McpCompletionField() override;

    QCompleter *completer() const { return m_completer; }
    /// The values offered now.
    QStringList values() const;
    /// Why the last completion failed; "" after one that was answered.
    QString problem() const { return m_problem; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

Q_SIGNALS:
    /// A completion/complete was answered for the field's text (its values offered, or
    /// its failure noted).
    void answered();

private:
    void ask();
    void onAnswer(const QString &asked, const McpCompletionResult &result, const McpReply &reply);
    /// No values, and `problem` in the tooltip.
    void showFailure(const QString &problem);
    void setNote(const QString &note);

    QLineEdit *m_field = nullptr;
    Session m_session;
    McpCompletionRef m_ref;
    QString m_argument;
    Context m_context;
    QString m_toolTip;
    QCompleter *m_completer = nullptr;
    QStringListModel *m_model = nullptr;
    QTimer m_debounce;
    QPointer<McpClientSession> m_asking; ///< the session of the request open now
    qint64 m_requestId = 0;
    int m_generation = 0; ///< of the request open now: a reply for another one is dropped
    bool m_askAgain = false;
    QString m_problem;
};
