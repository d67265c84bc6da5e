// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QColor>

/// Where a step status's colour is shown.
enum class StatusColorUse {
    Trace,    ///< the trace's status icons and error text: darker, readable on a row
    Timeline, ///< the timeline's bars: lighter
};

/// The colour of `status` for `use`; every status's colours are defined in one table.
QColor stepStatusColor(StepStatus status, StatusColorUse use);
