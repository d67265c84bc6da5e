// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "serveprojectdialog.h"

#include "studioserver.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

ServeProjectDialog::ServeProjectDialog(QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Serve Project"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Serve the open project over HTTP: seed 003's programmatic API, the pending-calls "
                                "API and the project's tools over MCP at /mcp. Served runs show here live, and "
                                "you can answer their calls in Pending Calls."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto *form = new QFormLayout;
    m_port = new QSpinBox(this);
    m_port->setObjectName(QStringLiteral("servePort"));
    m_port->setRange(1, 65535);
    m_port->setValue(3112);
    form->addRow(tr("&Port:"), m_port);
    m_host = new QLineEdit(QStringLiteral("127.0.0.1"), this);
    m_host->setObjectName(QStringLiteral("serveHost"));
    m_host->setToolTip(tr("127.0.0.1 (or ::1, localhost) is reachable from this machine only; any other "
                          "address needs a token file."));
    form->addRow(tr("&Host:"), m_host);
    auto *tokenRow = new QHBoxLayout;
    m_tokenFile = new QLineEdit(this);
    m_tokenFile->setObjectName(QStringLiteral("serveTokenFile"));
    m_tokenFile->setPlaceholderText(tr("none (loopback only)"));
    m_tokenFile->setToolTip(tr("A file holding the token every request must send as 'Authorization: Bearer TOKEN' "
                               "(e.g. head -c 32 /dev/urandom | base64 > FILE)."));
    auto *browse = new QPushButton(tr("&Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Token File"), m_tokenFile->text());
        if (!path.isEmpty())
            m_tokenFile->setText(path);
    });
    tokenRow->addWidget(m_tokenFile, 1);
    tokenRow->addWidget(browse);
    auto *tokenLabel = new QLabel(tr("&Token file:"), this); // a layout's row gets no buddy from addRow
    tokenLabel->setBuddy(m_tokenFile);
    form->addRow(tokenLabel, tokenRow);
    layout->addLayout(form);
    m_warning = new QLabel(this);
    m_warning->setObjectName(QStringLiteral("serveWarning"));
    m_warning->setWordWrap(true);
    layout->addWidget(m_warning);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Serve"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(m_host, &QLineEdit::textChanged, this, &ServeProjectDialog::updateWarning);
    connect(m_tokenFile, &QLineEdit::textChanged, this, &ServeProjectDialog::updateWarning);
    updateWarning();
}

int ServeProjectDialog::port() const
{
    return m_port->value();
}

QString ServeProjectDialog::host() const
{
    return m_host->text().trimmed();
}

QString ServeProjectDialog::tokenFile() const
{
    return m_tokenFile->text().trimmed();
}

void ServeProjectDialog::updateWarning()
{
    const std::string host = this->host().toStdString();
    const QString needsToken
        = StudioServer::tokenRefusal(host, !tokenFile().isEmpty(), this->host(), tr("a token file"));
    const QString noTls = StudioServer::noTlsWarning(this->host());
    QStringList lines;
    if (!needsToken.isEmpty())
        lines << needsToken + QLatin1Char('.');
    if (!noTls.isEmpty())
        lines << tr("Warning: %1.").arg(noTls);
    m_warning->setText(lines.join(QLatin1Char('\n')));
    m_warning->setVisible(!lines.isEmpty());
}
