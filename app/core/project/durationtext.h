// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

/// How durationText() writes a duration.
enum class DurationStyle {
    /// "850 ms" under a second, "2.5 s" under a minute, then "3 min 12 s"; translated
    /// (context TraceModel), with the locale's decimal separator ("2,5 s" in German):
    /// the trace, the meters, the clocks and the status bar.
    Adaptive,
    /// "0.9 s", "192.0 s": seconds with one decimal at any length; translated (context
    /// TraceModel), with the locale's decimal separator: the Runs list, where the column
    /// lines up.
    Seconds,
    /// "850 ms" under a second, then "2.50 s": two decimals, no minutes, never
    /// translated: the command line's output, which scripts read.
    Plain,
};

/// `ms` milliseconds as a person reads them, in `style`.
QString durationText(qint64 ms, DurationStyle style = DurationStyle::Adaptive);

/// durationText() with no-break spaces ("5.2\u00a0s", "1\u00a0min\u00a05\u00a0s"): a
/// label that wraps never puts the number and its unit on different lines.
QString unbrokenDurationText(qint64 ms, DurationStyle style = DurationStyle::Adaptive);

/// `ms` as seconds with `decimals` decimals and no unit ("2.5"), for sentences that name
/// the unit themselves ("Completed in %1 s"). Not localised (a '.' always).
QString decimalSeconds(qint64 ms, int decimals = 1);
