// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "stepstatuscolors.h"

#include <array>

namespace {

struct StatusColors
{
    QRgb trace;
    QRgb timeline;
};

// By StepStatus.
constexpr std::array<StatusColors, 8> Colors = {{
    {0x8a8a8a, 0x9e9e9e}, // Queued
    {0x1e88e5, 0x1e88e5}, // Running
    {0xfb8c00, 0xfb8c00}, // Retrying
    {0x8e24aa, 0x8e24aa}, // Waiting
    {0x2e7d32, 0x43a047}, // Succeeded
    {0xc62828, 0xe53935}, // Failed
    {0x00838f, 0x00897b}, // Memoized
    {0x616161, 0x757575}, // Cancelled
}};
static_assert(Colors.size() == size_t(StepStatus::Cancelled) + 1);

} // namespace

QColor stepStatusColor(StepStatus status, StatusColorUse use)
{
    const auto i = size_t(status);
    if (i >= Colors.size())
        return use == StatusColorUse::Timeline ? QColor(Qt::gray) : QColor();
    return QColor::fromRgb(use == StatusColorUse::Timeline ? Colors[i].timeline : Colors[i].trace);
}
