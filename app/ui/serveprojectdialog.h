// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QSpinBox;

/// *File ▸ Serve Project…*'s questions (docs/server.md "Serving from the window"): the
/// port (3112), the host (127.0.0.1, loopback only) and a token file, which any other
/// host needs; such a host also shows the no-TLS warning, as `toolstudio serve` prints.
class ServeProjectDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ServeProjectDialog(QWidget *parent = nullptr);

    int port() const;
    QString host() const;
    QString tokenFile() const;
    QSpinBox *portBox() const { return m_port; }
    QLineEdit *hostEdit() const { return m_host; }
    QLineEdit *tokenFileEdit() const { return m_tokenFile; }
    /// The token requirement and no-TLS warning for the host typed; hidden for loopback.
    QLabel *warningLabel() const { return m_warning; }

private:
    void updateWarning();

    QSpinBox *m_port = nullptr;
    QLineEdit *m_host = nullptr;
    QLineEdit *m_tokenFile = nullptr;
    QLabel *m_warning = nullptr;
};
