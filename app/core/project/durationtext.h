// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

/// A duration as the trace, the meters and the status bar show it: "850 ms" under a
/// second, "2.5 s" under a minute, then "3 min 12 s". Translated (context TraceModel).
QString durationText(qint64 ms);
