// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QWidget>

#include <functional>

class ContentBlocksView;
class JsonTreeModel;
class ProtocolView;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTreeView;
class QTreeWidget;

/// The Step dock (DESIGN.md "The window"): a step's arguments and result/error as a
/// collapsible, lazy JSON tree (JsonTreeModel), its attempts with error, captured
/// handler output and duration, an MCP step's JSON-RPC messages (Protocol tab,
/// ProtocolView), the idempotency key, "Copy as JSON", "Show All" for an
/// elided string, and for a failed step the whole error with its traceback.
class StepInspector : public QWidget
{
    Q_OBJECT
public:
    /// Raw JSON is shown only for steps whose JSON is at most this long (bytes); larger
    /// ones are browsed in the tree (the text view would lay out megabytes).
    static constexpr int MaxRawJsonBytes = 256 * 1024;

    explicit StepInspector(QWidget *parent = nullptr);

    /// Shows `step`; nullptr clears the inspector. `heldMs`: how long a person held it
    /// before it went on (TraceModel::heldMs), said in the header when not 0.
    void setStep(const Step *step, qint64 heldMs = 0);
    /// Where the Protocol tab follows a running MCP attempt (ProtocolView::LiveSource).
    void setLiveProtocol(
        std::function<nlohmann::json(const QString &idempotencyKey, int attempt, bool ended, quint64 *revision)>
            source);
    void clear();
    QString callId() const { return m_callId; }

    /// The step as the JSON "Copy as JSON" puts on the clipboard (the shape of a step
    /// in docs/run-export.md).
    static nlohmann::json stepJson(const Step &step);
    /// "Handler output truncated …" notes for `step`; empty when nothing was truncated.
    static QStringList truncationNotes(const Step &step);
    /// The whole error text of a failed step: code, message, details (traceback as text).
    static QString errorText(const StepError &error);

    JsonTreeModel *jsonModel() const { return m_model; }
    QTreeView *jsonView() const { return m_jsonView; }
    QPlainTextEdit *rawView() const { return m_raw; }
    QTreeWidget *attemptsView() const { return m_attempts; }
    QPlainTextEdit *detailView() const { return m_detail; }
    QLabel *headerLabel() const { return m_header; }
    ContentBlocksView *contentView() const { return m_content; }

public Q_SLOTS:
    void copyAsJson() const;
    /// Shows the whole string under the JSON tree's current index.
    void showAll();

private:
    /// A model step's messages, then its reply, and the tokens used (or why it failed).
    static QString conversationOf(const Step &step);
    void showAttempt(int row);

    QString m_callId;
    std::optional<Step> m_step;
    QLabel *m_header = nullptr;
    QPushButton *m_copyButton = nullptr;
    QPushButton *m_showAllButton = nullptr;
    QTabWidget *m_tabs = nullptr;
    JsonTreeModel *m_model = nullptr;
    QTreeView *m_jsonView = nullptr;
    QPlainTextEdit *m_raw = nullptr;
    QPlainTextEdit *m_conversation = nullptr; ///< a model step's messages and reply as a chat
    int m_conversationTab = -1;
    ContentBlocksView *m_content = nullptr; ///< an MCP result's content blocks, rendered
    int m_contentTab = -1;
    ProtocolView *m_protocol = nullptr; ///< an MCP step's JSON-RPC messages, per attempt
    int m_protocolTab = -1;
    nlohmann::json m_shownContent; ///< the result m_content shows
    QTreeWidget *m_attempts = nullptr;
    QPlainTextEdit *m_detail = nullptr;
};
