// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/projecttrust.h"

#include <QFrame>

class QLabel;
class QPushButton;

/// The restricted-mode bar above the editor (VS Code's workspace trust banner is the
/// model): shown while the open project is not trusted, it names what would run — or
/// what changed since the grant — and offers Trust Project and Stay Restricted. It
/// never blocks the window; the window disables running meanwhile (ProjectTrust).
class TrustBar : public QFrame
{
    Q_OBJECT
public:
    explicit TrustBar(QWidget *parent = nullptr);

    /// Shows the bar for `check` (a project that is not trusted).
    void showFor(const ProjectTrust::Check &check);
    /// At most this many items are named in the text; the tooltip lists all.
    static constexpr int ShownItems = 4;

Q_SIGNALS:
    void trustRequested();
    void stayRestricted();

private:
    QLabel *m_text = nullptr;
    QPushButton *m_trust = nullptr;
    QPushButton *m_stay = nullptr;
};
