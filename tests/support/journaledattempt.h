// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// An attempt as the journal keeps it, for suites that write steps by hand.
#pragma once

#include "project/step.h"

#include <optional>

/// Attempt `number` from `startedAt` to `endedAt` (ms; 0 while running); the live-only
/// fields (progress, streamed) stay empty, as the journal has them.
inline Attempt journaledAttempt(int number, qint64 startedAt, qint64 endedAt, bool succeeded,
                                const std::optional<StepError> &error = std::nullopt)
{
    Attempt attempt;
    attempt.number = number;
    attempt.startedAt = startedAt;
    attempt.endedAt = endedAt;
    attempt.succeeded = succeeded;
    attempt.error = error;
    return attempt;
}
