// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QObject>
#include <QString>

#include <map>

class QTimer;

/// `toolstudio mcp call --protocol`: each attempt's JSON-RPC messages on stderr, one line
/// each (the Protocol tab's rows), as they come. The running attempt's record is asked of
/// the project's server pool four times a second (McpServerPool::liveExchange), and new
/// rows are printed; when the attempt ends, what its journaled record has past the rows
/// printed — or, for an attempt ended by its timeout or a Stop, which has none, what the
/// pool kept of it (McpServerPool::cancelledExchange: the `notifications/cancelled` sent
/// too). So a long call shows its progress notifications and a server's requests while
/// it runs, and a timed-out one what was said before it was given up.
class McpCallProtocol : public QObject
{
    Q_OBJECT
public:
    static constexpr int PollMs = 250;

    explicit McpCallProtocol(QString projectDir, QObject *parent = nullptr);

    /// The step as it is now (DirectToolCall::stepChanged): ended attempts are finished,
    /// the running one followed.
    void follow(const Step &step);

private:
    void poll();
    /// Prints the rows of `exchange` past those printed for `attempt` (its heading first);
    /// `last`: the attempt's final record (its note of messages not kept too).
    void print(int attempt, const nlohmann::json &exchange, bool last);

    QString m_projectDir;
    QTimer *m_poll;
    QString m_key;     ///< the step's idempotency key
    int m_running = 0; ///< the attempt followed, 0 when none
    quint64 m_revision = 0;
    std::map<int, std::size_t> m_printed; ///< rows printed, by attempt number
    std::map<int, bool> m_done;           ///< attempts whose last rows were printed
};
