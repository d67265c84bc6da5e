// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QWidget>

#include <functional>
#include <map>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTimer;
class QTreeWidget;

/// The step inspector's Protocol tab (docs/trace.md): an MCP attempt's JSON-RPC
/// messages (Attempt::protocol), one row each — direction, time since the attempt
/// started, kind with method or id (McpExchangeText) — and the selected message
/// pretty-printed below; an attempt selector when several attempts have one; Copy
/// (the selected message) and Copy All (the messages as a JSON array).
///
/// A running attempt is followed live when a live source is set: it is asked for the
/// attempt's exchange so far every LivePollMs while the attempt runs (only the step
/// shown here, so nothing is copied for the others), shown as "Attempt N (running)";
/// the attempt, message and scroll a person chose stay as it grows, and its journaled
/// record takes its place when it ends. An attempt ended by its timeout or Stop has no
/// journaled record: what the source kept of it is shown, "(cancelled, not journaled)".
class ProtocolView : public QWidget
{
    Q_OBJECT
public:
    /// The exchange of attempt `attempt` of the step with `idempotencyKey`: `ended` false,
    /// the running attempt's so far (McpServerPool::liveExchange: null and `*revision`
    /// unchanged when its record is still at `*revision`, `*revision` 0 when there is
    /// none); `ended` true, what was kept of a cancelled one
    /// (McpServerPool::cancelledExchange; `revision` null).
    using LiveSource
        = std::function<nlohmann::json(const QString &idempotencyKey, int attempt, bool ended, quint64 *revision)>;
    static constexpr int LivePollMs = 250;
    /// Cancelled attempts shown from the source: the last this many (as the pool keeps).
    static constexpr int MaxUnjournaled = 16;

    explicit ProtocolView(QWidget *parent = nullptr);

    void setLiveSource(LiveSource source) { m_liveSource = std::move(source); }
    /// Shows the exchanges of `step`'s attempts (the last one first), and follows its
    /// running attempt; kept as it is (selection included) when they did not change.
    void setStep(const Step &step);
    void clear();
    /// True when there is an exchange to show (journaled or live).
    bool hasAny() const { return !m_exchanges.empty(); }

Q_SIGNALS:
    /// The exchanges shown changed (one grew, a live one appeared or ended): hasAny() may
    /// differ.
    void exchangesChanged();

public Q_SLOTS:
    void copyMessage() const;
    void copyAll() const;

private:
    using Exchanges = std::vector<std::pair<int, nlohmann::json>>;
    /// The journaled exchanges, and the live one after them.
    Exchanges composed() const;
    /// Shows `exchanges`; `changed`: the caller knows they differ (no comparison).
    void apply(Exchanges exchanges, bool changed = false);
    /// Rows for the shown attempt's messages from `from` on, and its omitted line.
    void addRows(int from);
    void pollLive();
    void showAttempt(int index);
    void showMessage(int row);
    /// The "messages" of the shown attempt's exchange (an empty array for none).
    const nlohmann::json &shownMessages() const;
    /// The message of entry `row` of the shown exchange as JSON (a clipped one: the entry).
    nlohmann::json messageAt(int row) const;

    Exchanges m_exchanges; ///< attempt number, Attempt::protocol (the live one last)
    Exchanges m_journaled; ///< the step's attempts' own, and the pool's of those cancelled
    QString m_stepKey;     ///< the idempotency key of the step shown
    /// Attempts of that step that ended without a record: what the live source kept of
    /// each (null: nothing), asked once.
    std::map<int, nlohmann::json> m_unjournaled;
    LiveSource m_liveSource;
    QString m_liveKey; ///< the step whose running attempt is followed ("" when none)
    int m_liveAttempt = 0;
    nlohmann::json m_live;       ///< its exchange as last asked (null before)
    quint64 m_liveRevision = 0;  ///< the revision of m_live's record (0: none)
    bool m_labelledLive = false; ///< the last attempt shown is labelled running
    QTimer *m_livePoll = nullptr;
    int m_shown = -1;
    QComboBox *m_attempt = nullptr;
    QLabel *m_omitted = nullptr;
    QTreeWidget *m_messages = nullptr;
    QPlainTextEdit *m_message = nullptr;
    QPushButton *m_copy = nullptr;
    QPushButton *m_copyAll = nullptr;
};
