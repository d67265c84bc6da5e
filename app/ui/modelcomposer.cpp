// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "modelcomposer.h"

#include "llm/modelmessage.h"
#include "project/printabletext.h"
#include "schemaform.h"

#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>

namespace {

QString textOf(const nlohmann::json &value)
{
    if (value.is_string())
        return printableText(QString::fromStdString(value.get<std::string>()));
    if (value.is_null())
        return {};
    return QString::fromStdString(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

} // namespace

ModelComposer::ModelComposer(QWidget *parent)
    : QWidget(parent)
{
    m_conversation = new QPlainTextEdit(this);
    m_conversation->setObjectName(QStringLiteral("composerConversation"));
    m_conversation->setReadOnly(true);
    m_conversation->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_conversation->setMinimumHeight(fontMetrics().lineSpacing() * 5);

    m_text = new QPlainTextEdit(this);
    m_text->setObjectName(QStringLiteral("composerText"));
    m_text->setTabChangesFocus(true);
    m_text->setPlaceholderText(tr("The model's answer (a final answer when no tool is called)"));
    m_text->setMaximumHeight(fontMetrics().lineSpacing() * 4 + 12);
    // Ctrl+Enter sends the reply from its text as from a call's form (the forms had it, the text not).
    for (const QKeySequence &key : {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto *shortcut = new QShortcut(key, m_text);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, this, &ModelComposer::submitted);
    }
    auto *textLabel = new QLabel(tr("Reply &text:"), this);
    textLabel->setBuddy(m_text);

    m_toolCombo = new QComboBox(this);
    m_toolCombo->setObjectName(QStringLiteral("composerTool"));
    m_addCall = new QPushButton(tr("Add Tool &Call"), this);
    m_addCall->setObjectName(QStringLiteral("composerAddCall"));
    m_addCall->setToolTip(tr("The model calls the chosen tool; fill its arguments below"));
    auto *callRow = new QHBoxLayout;
    callRow->addWidget(new QLabel(tr("Call a tool:"), this));
    callRow->addWidget(m_toolCombo, 1);
    callRow->addWidget(m_addCall);

    m_callsLayout = new QVBoxLayout;
    m_callsLayout->setContentsMargins(0, 0, 0, 0);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("The conversation the model was sent:"), this));
    layout->addWidget(m_conversation, 1);
    layout->addWidget(textLabel);
    layout->addWidget(m_text);
    layout->addLayout(callRow);
    layout->addLayout(m_callsLayout);

    connect(m_text, &QPlainTextEdit::textChanged, this, &ModelComposer::changed);
    connect(m_addCall, &QPushButton::clicked, this, [this] { addCall(m_toolCombo->currentData().toString()); });
}

void ModelComposer::setRequest(const nlohmann::json &request)
{
    m_conversation->setPlainText(ModelMessage::conversationText(request.value("messages", nlohmann::json::array())));
    m_tools = request.value("tools", nlohmann::json::array());
    m_toolCombo->clear();
    for (const nlohmann::json &tool : m_tools) {
        const QString name = textOf(tool.value("name", nlohmann::json()));
        m_toolCombo->addItem(name, name);
        m_toolCombo->setItemData(m_toolCombo->count() - 1, textOf(tool.value("description", nlohmann::json())),
                                 Qt::ToolTipRole);
    }
    m_toolCombo->setEnabled(m_toolCombo->count() > 0);
    m_addCall->setEnabled(m_toolCombo->count() > 0);
    if (m_toolCombo->count() == 0)
        m_toolCombo->addItem(tr("(the model was offered no tools)"));
    m_text->clear();
    while (!m_calls.isEmpty())
        removeCall(m_calls.back());
}

SchemaForm *ModelComposer::addCall(const QString &name)
{
    const nlohmann::json *definition = nullptr;
    for (const nlohmann::json &tool : m_tools)
        if (tool.value("name", nlohmann::json()) == name.toStdString())
            definition = &tool;
    if (!definition)
        return nullptr;
    auto *box = new QGroupBox(tr("Call %1").arg(name), this);
    box->setObjectName(QStringLiteral("composerCall"));
    box->setProperty("tool", name);
    auto *form = new SchemaForm(box);
    form->setSchema(definition->value("input_schema", nlohmann::json::object()));
    auto *remove = new QPushButton(tr("Remove"), box);
    remove->setObjectName(QStringLiteral("composerRemoveCall"));
    auto *boxLayout = new QVBoxLayout(box);
    boxLayout->addWidget(form);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(remove);
    boxLayout->addLayout(buttons);
    m_callsLayout->addWidget(box);
    m_calls << box;
    connect(form, &SchemaForm::valueChanged, this, &ModelComposer::changed);
    connect(form, &SchemaForm::submitted, this, &ModelComposer::submitted);
    connect(remove, &QPushButton::clicked, this, [this, box] { removeCall(box); });
    Q_EMIT changed();
    return form;
}

void ModelComposer::removeCall(QWidget *box)
{
    m_calls.removeOne(box);
    box->hide();
    box->deleteLater();
    Q_EMIT changed();
}

QList<SchemaForm *> ModelComposer::callForms() const
{
    QList<SchemaForm *> forms;
    for (QWidget *box : m_calls)
        forms << box->findChild<SchemaForm *>();
    return forms;
}

std::optional<nlohmann::json> ModelComposer::reply(QString *problem) const
{
    nlohmann::json reply = nlohmann::json::object();
    const QString text = m_text->toPlainText();
    if (!text.trimmed().isEmpty())
        reply["content"] = text.toStdString();
    nlohmann::json calls = nlohmann::json::array();
    for (QWidget *box : m_calls) {
        auto *form = box->findChild<SchemaForm *>();
        const QString name = box->property("tool").toString();
        if (!form->isValid()) {
            form->revealErrors();
            *problem = tr("Call %1: %2").arg(name, form->problem()->toString());
            return std::nullopt;
        }
        calls.push_back({{"name", name.toStdString()}, {"arguments", form->value()}});
    }
    if (!calls.empty())
        reply["tool_calls"] = std::move(calls);
    if (reply.empty()) {
        *problem = tr("Write the reply text or add a tool call: the model's turn needs one of them.");
        return std::nullopt;
    }
    return reply;
}
