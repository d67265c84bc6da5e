// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/handlers/toolhandler.h"

class QTimer;

/// Answers an attempt with one entry of a mock tool's sequence after the entry's
/// delay. The engine keeps a counter per (run, tool) over attempts and passes the
/// entry to use: entry i answers the i-th attempt on the tool; after the last entry,
/// the last one repeats (see MockHandler::entryFor). An entry without a delay needs no
/// handler object at all: the engine answers it with outcomeOf() at once (no timer
/// round through the event loop on the hot path).
class MockHandler : public ToolHandler
{
    Q_OBJECT
public:
    MockHandler(MockResponse response, QObject *parent = nullptr);
    ~MockHandler() override;

    /// The entry that answers the `attemptIndex`-th (0-based) attempt on `tool`.
    static const MockResponse &entryFor(const Tool &tool, int attemptIndex);

    /// The outcome of `response` (a result, or an error with its retryable flag).
    static HandlerOutcome outcomeOf(const MockResponse &response);

    void start(const HandlerRequest &request) override;
    void cancel() override;

private:
    MockResponse m_response;
    QTimer *m_timer = nullptr;
};
