// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/handlers/toolhandler.h"
#include "project/step.h"

/// A person answers the attempt (a pending call). start() only opens the wait; the
/// engine checks an answer (call id, attempt number) and passes it to deliver().
class ManualHandler : public ToolHandler
{
    Q_OBJECT
public:
    explicit ManualHandler(QObject *parent = nullptr);
    ~ManualHandler() override;

    void start(const HandlerRequest &request) override;
    void cancel() override;
    bool waitsForPerson() const override { return true; }

    /// Checks a person's answer before deliver() and may rewrite it (a manual model's reply
    /// becomes the reply shape); returns why it is refused, "" when it is taken. Accepts
    /// every answer here.
    virtual QString prepare(ManualAnswer &answer) const;

    /// Ends the attempt with the person's answer: a result, or an error that is
    /// retryable as the person said. Returns false when the attempt is not open
    /// (not started, already answered or cancelled).
    bool deliver(const ManualAnswer &answer);
    bool isOpen() const { return m_open; }

private:
    bool m_open = false;
};
