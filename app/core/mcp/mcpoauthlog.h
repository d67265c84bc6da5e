// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <vector>

/// The step-by-step record of one sign-in (docs/mcp.md "When signing in fails"): each
/// HTTP request of discovery, registration and the token exchange with its URL, its
/// outcome and the fields that mattered. Secrets never enter it: the flow writes token
/// and code fields as "(N characters, not shown)".
class McpOAuthLog
{
public:
    struct Step
    {
        QString what;    ///< "protected resource metadata", …
        QString request; ///< "GET https://…"
        QString outcome; ///< "HTTP 200", "no reply: …"
        QStringList notes;
        bool failed = false;
        QString why;
    };

    void begin(const QString &what, const QString &request);
    void outcome(const QString &text);
    void note(const QString &text);
    /// Marks the last step failed (a step "sign-in" when there is none).
    void fail(const QString &why);
    bool failed() const;
    /// "step N (WHAT) failed: WHY", "" when nothing failed.
    QString failure() const;
    /// Every step, numbered, one line each plus its notes indented.
    QString text() const;
    const std::vector<Step> &steps() const { return m_steps; }

private:
    std::vector<Step> m_steps;
};
