// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

/// The step inspector's Protocol tab (docs/trace.md): an MCP attempt's JSON-RPC
/// messages (Attempt::protocol), one row each — direction, time since the attempt
/// started, kind with method or id (McpExchangeText) — and the selected message
/// pretty-printed below; an attempt selector when several attempts have one; Copy
/// (the selected message) and Copy All (the messages as a JSON array).
class ProtocolView : public QWidget
{
    Q_OBJECT
public:
    explicit ProtocolView(QWidget *parent = nullptr);

    /// True when an attempt of `step` has a recorded exchange.
    static bool hasExchange(const Step &step);
    /// Shows the exchanges of `step`'s attempts (the last one first); kept as it is
    /// (selection included) when they did not change.
    void setStep(const Step &step);
    void clear();

public Q_SLOTS:
    void copyMessage() const;
    void copyAll() const;

private:
    void showAttempt(int index);
    void showMessage(int row);
    /// The "messages" of the shown attempt's exchange (an empty array for none).
    const nlohmann::json &shownMessages() const;
    /// The message of entry `row` of the shown exchange as JSON (a clipped one: the entry).
    nlohmann::json messageAt(int row) const;

    std::vector<std::pair<int, nlohmann::json>> m_exchanges; ///< attempt number, Attempt::protocol
    int m_shown = -1;
    QComboBox *m_attempt = nullptr;
    QLabel *m_omitted = nullptr;
    QTreeWidget *m_messages = nullptr;
    QPlainTextEdit *m_message = nullptr;
    QPushButton *m_copy = nullptr;
    QPushButton *m_copyAll = nullptr;
};
