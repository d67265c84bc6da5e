// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "requirementsinstalldialog.h"

#include "python/pythonenv.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

RequirementsInstallDialog::RequirementsInstallDialog(const QString &projectDir, const QStringList &requirements,
                                                     QWidget *parent)
    : QDialog(parent)
    , m_env(new PythonEnv(projectDir, this))
    , m_requirements(requirements)
{
    setWindowTitle(tr("Install Requirements"));
    resize(640, 400);
    auto *layout = new QVBoxLayout(this);
    m_status
        = new QLabel(tr("Installing into .toolstudio/venv: %1").arg(requirements.join(QStringLiteral(", "))), this);
    m_status->setObjectName(QStringLiteral("installStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_output = new QPlainTextEdit(this);
    m_output->setObjectName(QStringLiteral("installOutput"));
    m_output->setReadOnly(true);
    m_output->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    layout->addWidget(m_status);
    layout->addWidget(m_output, 1);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &RequirementsInstallDialog::reject);
    connect(m_env, &PythonEnv::output, this, [this](const QString &text) {
        m_output->moveCursor(QTextCursor::End);
        m_output->insertPlainText(text);
        m_output->ensureCursorVisible();
    });
    connect(m_env, &PythonEnv::finished, this, &RequirementsInstallDialog::installFinished);
}

void RequirementsInstallDialog::start()
{
    m_error.clear();
    m_cancelled = false;
    m_env->install(m_requirements);
}

bool RequirementsInstallDialog::isRunning() const
{
    return m_env->isRunning();
}

void RequirementsInstallDialog::reject()
{
    if (m_env->isRunning()) {
        m_cancelled = true;
        m_env->cancel(); // installFinished follows and rejects
        return;
    }
    QDialog::reject();
}

void RequirementsInstallDialog::installFinished(bool ok, const QString &error)
{
    m_error = error;
    Q_EMIT installDone(ok);
    if (ok) {
        accept();
        return;
    }
    m_status->setText(tr("The install failed; the project loads as before.\n%1").arg(error));
    m_buttons->setStandardButtons(QDialogButtonBox::Close);
    if (m_cancelled)
        QDialog::reject();
}
