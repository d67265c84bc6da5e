// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// run-1 as the journal suites of tests/unit/ write it: the run, a step retried once
// (an error, binary output, a result), a step whose one attempt folds into its row,
// and that step while it waits for a person.
#pragma once

#include "project/step.h"

#include <QByteArray>
#include <QString>

#include <nlohmann/json.hpp>

#include <string>

inline RunRecord sampleRun()
{
    RunRecord run;
    run.id = QStringLiteral("run-1");
    run.projectDir = QStringLiteral("/home/ada/exchange-rate");
    run.scriptPath = QStringLiteral("/home/ada/exchange-rate/scripts/main.py");
    run.status = RunStatus::Completed;
    run.startedAt = 1700000000000;
    run.endedAt = 1700000001500;
    run.exitCode = 0;
    return run;
}

inline Step sampleStep()
{
    Step step;
    step.runId = QStringLiteral("run-1");
    step.callId = QStringLiteral("c1");
    step.sequence = 1;
    step.tool = QStringLiteral("get_exchange_rate");
    step.args = {{"base", "USD"}, {"quote", "EUR"}};
    step.idempotencyKey = QStringLiteral("run-1:1");
    step.status = StepStatus::Succeeded;
    step.maxAttempts = 3;
    step.queuedAt = 1700000000100;
    step.startedAt = 1700000000101;
    step.endedAt = 1700000000900;

    Attempt first;
    first.number = 1;
    first.startedAt = 1700000000101;
    first.endedAt = 1700000000200;
    StepError error;
    error.code = ErrorCode::ToolFailed;
    error.message = "rate service down";
    error.retryable = true;
    error.attempts = 1;
    first.error = error;
    first.output = QByteArray("traceback\n\x00\xff binary", 20);

    Attempt second;
    second.number = 2;
    second.startedAt = 1700000000700;
    second.endedAt = 1700000000900;
    second.succeeded = true;

    step.attempts = {first, second};
    step.result = nlohmann::json(0.92);
    return step;
}

/// A step whose one attempt succeeded at once (its attempt folded into its row).
inline Step foldedStep(int sequence)
{
    Step step;
    step.runId = QStringLiteral("run-1");
    step.callId = QStringLiteral("c%1").arg(sequence);
    step.sequence = sequence;
    step.tool = QStringLiteral("echo");
    step.args = {{"n", sequence}};
    step.idempotencyKey = QStringLiteral("run-1:%1").arg(sequence);
    step.status = StepStatus::Succeeded;
    step.maxAttempts = 1;
    step.queuedAt = 1700000000000 + sequence;
    step.startedAt = step.queuedAt;
    step.endedAt = step.queuedAt + 1;
    Attempt attempt;
    attempt.number = 1;
    attempt.startedAt = step.startedAt;
    attempt.endedAt = step.endedAt;
    attempt.succeeded = true;
    step.attempts = {attempt};
    step.result = nlohmann::json("ok " + std::to_string(sequence));
    return step;
}

/// foldedStep(sequence) while it waits for a person: its attempt open, no result.
inline Step waitingStep(int sequence)
{
    Step step = foldedStep(sequence);
    step.status = StepStatus::Waiting;
    step.attempts.front().succeeded = false;
    step.attempts.front().endedAt = 0;
    step.result.reset();
    return step;
}
