// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "samplingtoolsview.h"

#include "project/printabletext.h"
#include "schemaform.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

using nlohmann::json;

namespace {

QString textOf(const json &object, const char *key)
{
    const auto found = object.is_object() ? object.find(key) : object.end();
    return found != object.end() && found->is_string() ? QString::fromStdString(found->get<std::string>()) : QString();
}

/// The first tool_use block of a tool-call answer; null when none.
json firstToolUse(const json &answer)
{
    const auto content = answer.is_object() ? answer.find("content") : answer.end();
    if (content != answer.end() && content->is_array())
        for (const json &block : *content)
            if (block.is_object() && block.value("type", json()) == "tool_use")
                return block;
    return nullptr;
}

} // namespace

SamplingToolsView::SamplingToolsView(QWidget *parent)
    : QWidget(parent)
{
    m_heading = new QLabel(this);
    m_heading->setObjectName(QStringLiteral("samplingToolsHeading"));
    m_heading->setWordWrap(true);
    m_list = new QTreeWidget(this);
    m_list->setObjectName(QStringLiteral("samplingTools"));
    m_list->setHeaderLabels({tr("Tool"), tr("Description")});
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(true);
    m_schemaButton = new QPushButton(tr("View &Schema…"), this);
    m_schemaButton->setObjectName(QStringLiteral("viewToolSchema"));
    m_schemaButton->setToolTip(tr("Show the chosen tool's inputSchema as the server sent it"));
    m_formLabel = new QLabel(this);
    m_formLabel->setWordWrap(true);
    m_form = new SchemaForm(this);
    m_form->setObjectName(QStringLiteral("toolUseForm"));
    m_form->setStatusLineVisible(false);
    m_send = new QPushButton(tr("Send &Tool Call"), this);
    m_send->setObjectName(QStringLiteral("sendToolUse"));
    m_send->setToolTip(tr("Answer the server with a call of the chosen tool and these arguments (a tool_use block, "
                          "stopReason toolUse): the server runs the tool and asks again with its result"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("toolUseStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_schemaButton);
    buttons->addStretch();
    buttons->addWidget(m_send);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_heading);
    layout->addWidget(m_list);
    layout->addWidget(m_formLabel);
    layout->addWidget(m_form);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    // No taller than its parts: the answer pane's spare height goes below it.
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);

    connect(m_list, &QTreeWidget::currentItemChanged, this,
            [this] { choose(m_list->indexOfTopLevelItem(m_list->currentItem())); });
    connect(m_schemaButton, &QPushButton::clicked, this, &SamplingToolsView::viewSchema);
    connect(m_send, &QPushButton::clicked, this, &SamplingToolsView::send);
    connect(m_form, &SchemaForm::submitted, this, &SamplingToolsView::send);
    hide();
}

void SamplingToolsView::setQuestion(const json &question)
{
    m_modelAnswer = nullptr;
    m_status->clear();
    m_status->hide();
    const auto tools = question.is_object() ? question.find("tools") : question.end();
    m_tools = tools != question.end() && tools->is_array() ? *tools : json::array();
    m_list->clear();
    setVisible(!m_tools.empty());
    if (m_tools.empty())
        return;
    const QString choice = textOf(question, "tool_choice");
    m_heading->setText(
        choice == QLatin1String("required")
            ? tr("The server offers %n tool(s) and requires a call of one (toolChoice \"required\"):", nullptr,
                 int(m_tools.size()))
            : choice == QLatin1String("none")
            ? tr("The server offers %n tool(s) but asks for no call of them (toolChoice \"none\"): reply with text.",
                 nullptr, int(m_tools.size()))
            : tr("The server offers %n tool(s) (toolChoice \"%1\"): reply with text or a call of one.", nullptr,
                 int(m_tools.size()))
                  .arg(choice.isEmpty() ? QStringLiteral("auto") : choice));
    for (const json &tool : m_tools) {
        const QString schema = QString::fromUtf8(printableJson(tool.value("inputSchema", json::object()))).left(4000);
        auto *item = new QTreeWidgetItem(
            m_list, {printableText(textOf(tool, "name")), elidedText(printableText(textOf(tool, "description")), 300)});
        item->setToolTip(0, schema);
        item->setToolTip(1, printableLines(textOf(tool, "description")));
    }
    // As tall as its tools, five at most, and the header.
    const int rows = int(std::min<std::size_t>(m_tools.size(), 5));
    m_list->setFixedHeight(m_list->header()->sizeHint().height() + m_list->sizeHintForRow(0) * rows
                           + 2 * m_list->frameWidth() + 2);
    const bool callable = choice != QLatin1String("none");
    m_form->setVisible(callable);
    m_formLabel->setVisible(callable);
    m_send->setVisible(callable);
    m_list->setCurrentItem(m_list->topLevelItem(0));
    choose(0);
}

void SamplingToolsView::choose(int index)
{
    if (index < 0 || std::size_t(index) >= m_tools.size())
        return;
    const json &tool = m_tools[std::size_t(index)];
    m_formLabel->setText(tr("Arguments of %1:").arg(printableText(textOf(tool, "name"))));
    m_form->setSchema(tool.value("inputSchema", json::object()));
    fitForm();
    // The fields of a new schema are laid out from the event loop: measured again then.
    QTimer::singleShot(0, this, &SamplingToolsView::fitForm);
}

void SamplingToolsView::fitForm()
{
    // As tall as its fields (its scroll area would take what the pane has), at least
    // four lines; a long schema scrolls.
    const QWidget *page = m_form->findChild<QWidget *>(QStringLiteral("formPage"));
    const QWidget *toggle = m_form->findChild<QWidget *>(QStringLiteral("rawToggle"));
    const int fields = page && page->layout() ? page->layout()->sizeHint().height() : 0;
    const int least = fontMetrics().lineSpacing() * 4;
    m_form->setMinimumHeight(least);
    m_form->setMaximumHeight(std::max(
        least, std::min(fields + (toggle ? toggle->sizeHint().height() : 0) + 8, fontMetrics().lineSpacing() * 16)));
}

void SamplingToolsView::showModelAnswer(const json &answer)
{
    const json use = firstToolUse(answer);
    if (use.is_null())
        return;
    const auto found = std::find_if(m_tools.begin(), m_tools.end(),
                                    [&use](const json &tool) { return tool.value("name", json()) == use["name"]; });
    if (found == m_tools.end())
        return; // the answer is refused when sent: PersonQuestion::check names the tool
    m_list->setCurrentItem(m_list->topLevelItem(int(found - m_tools.begin())));
    m_form->setValue(use.value("input", json::object()));
    m_modelAnswer = answer;
    std::size_t calls = 0;
    for (const json &block : answer["content"])
        calls += block.value("type", json()) == "tool_use" ? 1 : 0;
    m_status->setText(calls > 1 ? tr("The model calls %1 and %n more tool(s); Send Tool Call sends all its calls, "
                                     "unless you edit the first.",
                                     nullptr, int(calls - 1))
                                      .arg(printableText(textOf(use, "name")))
                                : tr("The model calls %1: edit its arguments or Send Tool Call; an edited call is "
                                     "sent as the person's.")
                                      .arg(printableText(textOf(use, "name"))));
    m_status->show();
}

json SamplingToolsView::answer() const
{
    const int index = m_list->indexOfTopLevelItem(m_list->currentItem()); // -1 for none
    if (index < 0 || std::size_t(index) >= m_tools.size())
        return nullptr;
    const json &name = m_tools[std::size_t(index)]["name"];
    const json input = m_form->value().is_object() ? m_form->value() : json::object();
    const json use = firstToolUse(m_modelAnswer);
    if (!use.is_null() && use["name"] == name && use.value("input", json()) == input)
        return m_modelAnswer;
    return {{"content", json::array({{{"type", "tool_use"}, {"name", name}, {"input", input}}})}};
}

void SamplingToolsView::viewSchema()
{
    const int index = m_list->indexOfTopLevelItem(m_list->currentItem()); // -1 for none
    if (index < 0 || std::size_t(index) >= m_tools.size())
        return;
    const json &tool = m_tools[std::size_t(index)];
    auto *dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("inputSchema of %1").arg(elidedText(printableText(textOf(tool, "name")), 60)));
    auto *text
        = new QPlainTextEdit(QString::fromUtf8(printableJson(tool.value("inputSchema", json::object()))), dialog);
    text->setReadOnly(true);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(close, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    layout->addWidget(close);
    dialog->resize(520, 420);
    dialog->open();
}

void SamplingToolsView::send()
{
    if (!m_form->isValid()) {
        m_form->revealErrors();
        m_status->setText(m_form->problem()->toString());
        m_status->show();
        return;
    }
    if (const json chosen = answer(); !chosen.is_null())
        Q_EMIT toolCallChosen(chosen);
}
