// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/tool.h"

#include <algorithm>
#include <cmath>

/// The wait before the next attempt after `attemptsMade` (≥ 1) attempts, in ms (DESIGN.md
/// "Steps: the engine"): min(initial × factor^(attemptsMade−1), cap) ± jitter, never
/// above the cap; `random` (0 ≤ random < 1) picks the jitter. The step engine's retries
/// and Generate Tool with AI's (ToolGenerator) both wait this long.
inline int retryBackoffMs(const RetryPolicy &policy, int attemptsMade, double random)
{
    const double n = double(attemptsMade);
    double backoff = std::min(policy.initialBackoffMs * std::pow(policy.factor, n - 1), double(policy.maxBackoffMs));
    if (policy.jitter > 0)
        backoff *= 1.0 + policy.jitter * (2.0 * random - 1.0);
    return int(std::clamp(backoff, 0.0, double(std::max(policy.maxBackoffMs, 0))));
}
