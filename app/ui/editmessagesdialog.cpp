// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editmessagesdialog.h"

#include "llm/modelmessage.h"
#include "project/jsonerror.h"
#include "project/printabletext.h"
#include "scripteditor.h"
#include "submitkeys.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

EditMessagesDialog::EditMessagesDialog(const QString &model, const nlohmann::json &messages, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("editMessagesDialog"));
    setWindowTitle(tr("Edit Messages to %1").arg(printableText(model)));
    auto *intro = new QLabel(tr("The request goes with these messages instead of the script's (a JSON array in the "
                                "neutral shape: role, content, tool_calls, tool_call_id). The script sees the reply, "
                                "not the change; the trace keeps both."),
                             this);
    intro->setWordWrap(true);
    m_editor = new ScriptEditor(this);
    m_editor->setObjectName(QStringLiteral("editMessagesEditor"));
    m_editor->setLanguage(QStringLiteral("JSON"));
    m_editor->setTabSize(2);
    m_editor->setMinimumSize(320, 200);
    m_editor->setText(QString::fromStdString(messages.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)));
    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("editMessagesProblem"));
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText);
    m_problem->hide();
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_send = buttons->addButton(tr("&Send"), QDialogButtonBox::AcceptRole);
    m_send->setObjectName(QStringLiteral("editMessagesSend"));
    m_send->setToolTip(tr("Send the request with these messages (Ctrl+Return)"));
    connect(buttons, &QDialogButtonBox::accepted, this, &EditMessagesDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // Return inserts a line in the editor: Ctrl+Return sends from anywhere.
    SubmitKeys::install(this, {m_editor}, [this] { accept(); });
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_editor, 1);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    m_editor->setFocus();
    resize(640, 460);
}

QString EditMessagesDialog::problemWith(const QByteArray &text, nlohmann::json *messages)
{
    if (text.trimmed().isEmpty())
        return tr("Enter the messages as a JSON array, e.g. [{\"role\": \"user\", \"content\": \"Hello\"}].");
    JsonInput::Problem refused;
    nlohmann::json value
        = JsonInput::read<nlohmann::json>(std::string_view(text.constData(), std::size_t(text.size())), &refused);
    if (value.is_discarded())
        return tr("Not valid JSON at %1").arg(describeJsonProblem(text, refused));
    if (!value.is_array())
        return tr("The messages must be a JSON array ([…]), not %1.")
            .arg(clippedText(QString::fromStdString(value.dump()), 60));
    if (const QString problem = ModelMessage::checkMessages(value); !problem.isEmpty())
        return tr("These messages cannot be sent: %1").arg(problem);
    *messages = std::move(value);
    return {};
}

void EditMessagesDialog::accept()
{
    nlohmann::json messages;
    const QString problem = problemWith(m_editor->text().toUtf8(), &messages);
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    if (!problem.isEmpty())
        return; // stays open: the person fixes the text
    m_messages = std::move(messages);
    QDialog::accept();
}
