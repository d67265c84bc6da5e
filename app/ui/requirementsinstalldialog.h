// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class PythonEnv;
class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;

/// Progress of PythonEnv::install (Install Requirements…): pip's output as it comes,
/// Cancel while it runs. Accepted (closes itself) when the install succeeded; on a
/// failure it stays open with the error (pip's last lines) above the output and a
/// Close button, and is rejected when closed.
class RequirementsInstallDialog : public QDialog
{
    Q_OBJECT
public:
    RequirementsInstallDialog(const QString &projectDir, const QStringList &requirements, QWidget *parent = nullptr);

    /// Starts the install (call before exec(); tests wait for finished()).
    void start();
    bool isRunning() const;
    /// Empty while running and after success; else what failed.
    QString errorText() const { return m_error; }
    QPlainTextEdit *outputView() const { return m_output; }

Q_SIGNALS:
    void installDone(bool ok);

private:
    void reject() override;
    void installFinished(bool ok, const QString &error);

    PythonEnv *m_env = nullptr;
    QStringList m_requirements;
    QLabel *m_status = nullptr;
    QPlainTextEdit *m_output = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QString m_error;
    bool m_cancelled = false;
};
