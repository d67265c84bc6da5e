// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>

#include <functional>

/// The pace at which a server's tools are listed again after it announced they changed
/// (`notifications/tools/list_changed`), for McpServerPool: one listing at a time — a
/// change announced while one is under way asks for one more after it, however many come
/// (each used to send a tools/list of its own) — and the next at the earliest PauseMs
/// after the last ended, not at full speed (attack36 F1: a server announcing a change
/// after each listing had it listed again thousands of times a second).
class McpRelistPacing
{
public:
    static constexpr int PauseMs = 500;

    /// Whether a listing may start now; it is then under way until ended(). When one is
    /// under way, one more is noted for after it; within the pause, `schedule` is called
    /// with the milliseconds left — once, however many are asked meanwhile — and the
    /// caller asks again when they passed (after due()).
    bool start(const std::function<void(int)> &schedule);
    /// The time `schedule` was given came.
    void due() { m_due = false; }
    /// The listing under way ended; true when a change came meanwhile: start() again.
    bool ended();
    /// A new session: no listing under way, none more asked for.
    void reset();

private:
    bool m_listing = false;
    bool m_again = false;
    /// Since the last listing ended; the next starts PauseMs after it at the earliest
    /// (`m_due`: it is scheduled).
    QElapsedTimer m_sinceListed;
    bool m_due = false;
};
