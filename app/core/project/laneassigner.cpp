// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/laneassigner.h"

int LaneAssigner::place(qint64 start, qint64 end)
{
    size_t lane = 0;
    while (lane < m_freeAt.size() && m_freeAt[lane] > start)
        ++lane;
    if (lane == m_freeAt.size())
        m_freeAt.push_back(0);
    m_freeAt[lane] = end;
    return int(lane);
}
