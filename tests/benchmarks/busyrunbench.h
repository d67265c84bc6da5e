// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <functional>

/// How the benchmark reads uibench's event timing (TimingApplication::notify).
struct EventTiming
{
    std::function<void()> reset;     ///< forget the slowest event so far
    std::function<double()> worstMs; ///< the slowest top-level event since reset, ms
    std::function<QString()> worst;  ///< "… ms in <receiver> event <type>"
};

/// `toolstudio-uibench busy`: prints the slowest GUI event per action; 0 on success.
int busyRunBenchmark(const EventTiming &timing);
