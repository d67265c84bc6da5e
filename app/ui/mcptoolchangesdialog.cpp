// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcptoolchangesdialog.h"

#include "mcp/mcpserverpool.h"
#include "project/printabletext.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

McpToolChangesDialog::McpToolChangesDialog(McpServerPool *pool, const QString &server, QWidget *parent)
    : QDialog(parent)
    , m_pool(pool)
    , m_server(server)
{
    setObjectName(QStringLiteral("mcpToolChanges"));
    setWindowTitle(tr("Changed Tools of %1").arg(printableText(server)));
    auto *layout = new QVBoxLayout(this);
    QStringList blocks;
    const McpServerStatus *status = pool ? pool->server(server) : nullptr;
    if (status) {
        for (const McpToolChange &change : status->changedTools) {
            m_changes.push_back(change);
            const QString name = elidedText(McpServerConfig::toolName(server, change.tool));
            const QString heading = change.isNew ? tr("%1: new since the server's tools were accepted").arg(name)
                                                 : tr("%1: changed since accepted: %2").arg(name, change.summary());
            blocks << heading + u'\n' + printableLines(change.diff());
        }
    }
    auto *intro = new QLabel(m_changes.empty()
                                 ? tr("Every tool of %1 is accepted as it is listed now.").arg(printableText(server))
                                 : tr("%n tool(s) of %1 changed since you accepted them. Until you accept the changes, "
                                      "each of their calls asks you first in the Pending Calls dock (headless "
                                      "runs fail them); scripts keep their bindings either way.",
                                      nullptr, int(m_changes.size()))
                                       .arg(printableText(server)),
                             this);
    intro->setTextFormat(Qt::PlainText);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    if (status && !status->acceptedError.isEmpty()) {
        auto *error = new QLabel(printableLines(status->acceptedError), this);
        error->setObjectName(QStringLiteral("mcpAcceptedError"));
        error->setTextFormat(Qt::PlainText);
        error->setWordWrap(true);
        layout->addWidget(error);
    }
    m_text = new QPlainTextEdit(this);
    m_text->setObjectName(QStringLiteral("mcpToolDiff"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlainText(blocks.join(u'\n'));
    layout->addWidget(m_text, 1);
    auto *buttons = new QDialogButtonBox(this);
    QPushButton *acceptButton = buttons->addButton(tr("Accept"), QDialogButtonBox::AcceptRole);
    acceptButton->setObjectName(QStringLiteral("mcpAcceptChanges"));
    acceptButton->setEnabled(!m_changes.empty());
    QPushButton *refuse = buttons->addButton(tr("Keep Refusing"), QDialogButtonBox::RejectRole);
    refuse->setObjectName(QStringLiteral("mcpKeepRefusing"));
    refuse->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &McpToolChangesDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(720, 480);
}

QString McpToolChangesDialog::reviewText() const
{
    return m_text->toPlainText();
}

void McpToolChangesDialog::accept()
{
    QString error;
    if (!m_pool || !m_pool->acceptTools(m_server, m_changes, &error)) {
        QMessageBox::warning(this, tr("Accept Changes"),
                             m_pool ? printableLines(error) : tr("The project's MCP servers are gone."));
        return;
    }
    QDialog::accept();
}
