// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcppromptspage.h"

#include "answerpane.h"
#include "mcp/mcpserverfeatures.h"
#include "mcpcompletionfield.h"
#include "mcpinputquestionview.h"
#include "mcpresultpane.h"
#include "plaintextlabel.h"
#include "project/printabletext.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

using nlohmann::json;

namespace {

// A prompt's item: its name and arguments (name, description, required) in column 0,
// its description in column 1.
constexpr int NameRole = Qt::UserRole + 1;
constexpr int ArgumentsRole = Qt::UserRole + 2;
constexpr int DescriptionRole = Qt::UserRole + 1;

} // namespace

McpPromptsPage::McpPromptsPage(const QString &server, Session session, QWidget *parent)
    : QSplitter(Qt::Horizontal, parent)
    , m_session(std::move(session))
{
    // The list on the left; description, argument form, Get and the messages on the right.
    auto *promptsLeft = new QWidget(this);
    auto *promptsLeftLayout = new QVBoxLayout(promptsLeft);
    promptsLeftLayout->setContentsMargins(0, 0, 0, 0);
    m_note = plainLabel(QStringLiteral("mcpPromptsNote"), promptsLeft);
    promptsLeftLayout->addWidget(m_note);
    m_prompts = new QTreeWidget(promptsLeft);
    m_prompts->setObjectName(QStringLiteral("mcpPrompts"));
    m_prompts->setHeaderLabels({tr("Prompt"), tr("Title")});
    m_prompts->setRootIsDecorated(false);
    promptsLeftLayout->addWidget(m_prompts, 1);
    auto *promptsRight = new QWidget(this);
    auto *promptsRightLayout = new QVBoxLayout(promptsRight);
    promptsRightLayout->setContentsMargins(0, 0, 0, 0);
    m_promptDescription = plainLabel(QStringLiteral("mcpPromptDescription"), promptsRight);
    promptsRightLayout->addWidget(m_promptDescription);
    m_argumentsBox = new QGroupBox(tr("Arguments (* required)"), promptsRight);
    m_argumentsBox->setObjectName(QStringLiteral("mcpPromptArguments"));
    m_argumentsForm = new QFormLayout(m_argumentsBox);
    m_argumentsBox->hide();
    promptsRightLayout->addWidget(m_argumentsBox);
    m_get = new QPushButton(tr("&Get"), promptsRight);
    m_get->setObjectName(QStringLiteral("mcpPromptGet"));
    m_get->setToolTip(tr("Ask the server for this prompt's messages with these arguments (prompts/get)"));
    m_get->setEnabled(false);
    connect(m_get, &QPushButton::clicked, this, &McpPromptsPage::getPrompt);
    promptsRightLayout->addWidget(m_get, 0, Qt::AlignLeft);
    m_question = new McpInputQuestionView(server, promptsRight);
    promptsRightLayout->addWidget(m_question);
    m_result = new McpResultPane(QStringLiteral("mcpPrompt"), false, promptsRight);
    promptsRightLayout->addWidget(m_result, 1);
    setSizes({300, 600});
    connect(m_prompts, &QTreeWidget::itemSelectionChanged, this, &McpPromptsPage::onPromptSelected);
}

void McpPromptsPage::list()
{
    const int generation = ++m_generation;
    m_prompts->clear();
    QString why;
    McpClientSession *open = m_session(&why);
    if (open)
        why = McpServerFeatures::missingCapability(*open, "prompts");
    if (!why.isEmpty()) {
        m_note->setText(why);
        return;
    }
    m_note->setText(tr("Listing…"));
    const QPointer<McpPromptsPage> self(this);
    McpServerFeatures::listPrompts(
        open, [self, generation](const McpListing<McpPrompt> &listing, const McpReply &reply) {
            if (!self || self->m_generation != generation)
                return;
            QStringList notes;
            if (!reply.ok())
                notes << tr("prompts/list failed: %1").arg(reply.errorText());
            if (listing.dropped > 0)
                notes << tr("%1 prompts left out (no name, arguments that are not a list of named arguments)")
                             .arg(listing.dropped);
            if (listing.truncated)
                notes << tr("prompts/list cut short: %1").arg(listing.truncatedWhy);
            self->m_note->setText(notes.join(u'\n'));
            for (const McpPrompt &prompt : listing.entries) {
                auto *item = new QTreeWidgetItem(self->m_prompts,
                                                 {elidedText(prompt.name, 200), elidedText(prompt.title, 200)});
                item->setData(0, NameRole, prompt.name);
                item->setToolTip(0, plainToolTip(prompt.description));
                QVariantList arguments;
                for (const McpPromptArgument &argument : prompt.arguments)
                    arguments.append(QVariant(QVariantList{argument.name, argument.description, argument.required}));
                item->setData(0, ArgumentsRole, arguments);
                item->setData(1, DescriptionRole, prompt.description);
            }
        });
}

void McpPromptsPage::onPromptSelected()
{
    const QList<QTreeWidgetItem *> selected = m_prompts->selectedItems();
    while (m_argumentsForm->rowCount() > 0)
        m_argumentsForm->removeRow(0);
    m_requiredArguments.clear();
    m_get->setEnabled(!selected.isEmpty());
    if (selected.isEmpty()) {
        m_argumentsBox->hide();
        m_promptDescription->clear();
        return;
    }
    const QTreeWidgetItem *item = selected.front();
    const QString prompt = item->data(0, NameRole).toString();
    m_promptDescription->setText(printableLines(item->data(1, DescriptionRole).toString()));
    const QVariantList arguments = item->data(0, ArgumentsRole).toList();
    m_argumentsBox->setVisible(!arguments.isEmpty());
    for (const QVariant &entry : arguments) {
        const QVariantList argument = entry.toList();
        const QString name = argument.value(0).toString();
        const bool required = argument.value(2).toBool();
        auto *field = new QLineEdit(m_argumentsBox);
        field->setObjectName(QStringLiteral("mcpPromptArg_") + name);
        field->setPlaceholderText(printableText(argument.value(1).toString()).left(200));
        field->setToolTip(plainToolTip(argument.value(1).toString()));
        new McpCompletionField(
            field, m_session, {McpCompletionRef::Kind::Prompt, prompt}, name, [this] { return argumentValues(); },
            argument.value(1).toString());
        connect(field, &QLineEdit::returnPressed, this, &McpPromptsPage::getPrompt);
        auto *label = new QLabel(printableText(name) + (required ? QStringLiteral(" *:") : QStringLiteral(":")),
                                 m_argumentsBox);
        label->setTextFormat(Qt::PlainText);
        label->setBuddy(field);
        m_argumentsForm->addRow(label, field);
        if (required)
            m_requiredArguments << name;
    }
}

void McpPromptsPage::getPrompt()
{
    const QList<QTreeWidgetItem *> selected = m_prompts->selectedItems();
    if (selected.isEmpty())
        return;
    const QString name = selected.front()->data(0, NameRole).toString();
    if (m_question->isAsking()) {
        // One question at a time: the get that asked still waits for it.
        m_question->pane()->setClockText(
            tr("%1 waits for your answer to this question: answer it or press Cancel before getting again.")
                .arg(m_question->subject()));
        return;
    }
    QMap<QString, QString> arguments = argumentValues();
    QStringList missing;
    for (auto it = arguments.begin(); it != arguments.end();) {
        if (!it.value().isEmpty()) {
            ++it;
            continue;
        }
        if (m_requiredArguments.contains(it.key()))
            missing << printableText(it.key());
        it = arguments.erase(it);
    }
    QString why;
    McpClientSession *open = m_session(&why);
    const int generation = m_result->begin(tr("Getting %1…").arg(elidedText(name, 200)), open);
    if (!missing.isEmpty()) {
        m_result->fail(generation, tr("Fill in the required arguments: %1").arg(missing.join(QStringLiteral(", "))));
        return;
    }
    if (!open) {
        m_result->fail(generation, why);
        return;
    }
    const QPointer<McpPromptsPage> self(this);
    McpInputRequiredRounds::Asker asker = m_question->askerFor(
        open, McpServerFeatures::requestSubject(QStringLiteral("prompts/get"), name), generation);
    McpServerFeatures::getPrompt(
        open, name, arguments,
        [self, generation](const McpPromptResult &prompt, const McpReply &reply) {
            if (!self)
                return;
            self->m_question->finished(generation);
            McpResultPane *pane = self->m_result;
            if (!reply.ok()) {
                pane->fail(generation, tr("prompts/get failed: %1").arg(reply.errorText()));
                return;
            }
            json blocks = json::array();
            QStringList roles;
            QStringList texts;
            for (const McpPromptMessage &message : prompt.messages) {
                blocks.push_back(message.content);
                roles << message.role;
                const auto text = message.content.find("text");
                if (message.content.value("type", json()) == "text" && text != message.content.end()
                    && text->is_string())
                    texts << QStringLiteral("%1: %2").arg(message.role,
                                                          QString::fromStdString(text->get<std::string>()));
            }
            QStringList notes;
            if (!prompt.description.isEmpty())
                notes << printableLines(prompt.description);
            notes << tr("%n message(s).", nullptr, int(prompt.messages.size()));
            if (prompt.dropped > 0)
                notes << tr("%1 message(s) left out: not an object with a content object").arg(prompt.dropped);
            pane->showAnswer(generation, {{"content", blocks}}, roles, reply.result, notes.join(u'\n'),
                             texts.join(u'\n'), {}, {});
        },
        std::move(asker));
}

QMap<QString, QString> McpPromptsPage::argumentValues() const
{
    QMap<QString, QString> values;
    for (QLineEdit *field : m_argumentsBox->findChildren<QLineEdit *>())
        values.insert(field->objectName().mid(QStringLiteral("mcpPromptArg_").size()), field->text());
    return values;
}
