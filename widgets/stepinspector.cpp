// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "stepinspector.h"
#include "project/printabletext.h"

#include "contentblocksview.h"
#include "engine/modelstep.h"
#include "jsontreemodel.h"
#include "llm/modelmessage.h"
#include "project/durationtext.h"
#include "protocolview.h"
#include "tracemodel.h"

#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace {

QString dump(const nlohmann::json &value, int indent)
{
    return QString::fromStdString(value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace));
}

QString timeText(qint64 ms)
{
    return ms > 0 ? QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss.zzz")) : QString();
}

// Children of a container are expanded only when few: expanding lays out every row.
constexpr int MaxAutoExpandRows = 200;

} // namespace

StepInspector::StepInspector(QWidget *parent)
    : QWidget(parent)
    , m_model(new JsonTreeModel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    auto *top = new QHBoxLayout;
    m_header = new QLabel(tr("Select a step in the Trace to see its arguments, result and attempts."), this);
    m_header->setObjectName(QStringLiteral("stepHeader"));
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_copyButton = new QPushButton(tr("&Copy as JSON"), this);
    m_copyButton->setObjectName(QStringLiteral("copyStepJson"));
    m_copyButton->setToolTip(tr("Copy the step with its attempts as JSON"));
    m_showAllButton = new QPushButton(tr("Show &All"), this);
    m_showAllButton->setObjectName(QStringLiteral("showAllString"));
    m_showAllButton->setToolTip(tr("Show the whole value of the selected string"));
    top->addWidget(m_header, 1);
    top->addWidget(m_showAllButton);
    top->addWidget(m_copyButton);
    layout->addLayout(top);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_tabs = new QTabWidget(splitter);
    m_jsonView = new QTreeView(m_tabs);
    m_jsonView->setObjectName(QStringLiteral("stepJsonTree"));
    m_jsonView->setModel(m_model);
    m_jsonView->setUniformRowHeights(true);
    m_jsonView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_jsonView->setAllColumnsShowFocus(true);
    m_jsonView->header()->resizeSection(JsonTreeModel::Key, 160);
    m_tabs->addTab(m_jsonView, tr("Tree"));
    m_raw = new QPlainTextEdit(m_tabs);
    m_raw->setObjectName(QStringLiteral("stepView"));
    m_raw->setReadOnly(true);
    m_raw->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_tabs->addTab(m_raw, tr("JSON"));
    // A model step (docs/models.md): what the model saw and what it answered, as a chat.
    m_conversation = new QPlainTextEdit(m_tabs);
    m_conversation->setObjectName(QStringLiteral("stepConversation"));
    m_conversation->setReadOnly(true);
    m_conversationTab = m_tabs->addTab(m_conversation, tr("Conversation"));
    m_tabs->setTabVisible(m_conversationTab, false);
    m_content = new ContentBlocksView(m_tabs);
    m_contentTab = m_tabs->addTab(m_content, tr("Content"));
    m_tabs->setTabVisible(m_contentTab, false);
    m_protocol = new ProtocolView(m_tabs);
    m_protocol->setObjectName(QStringLiteral("stepProtocol"));
    m_protocolTab = m_tabs->addTab(m_protocol, tr("Protocol"));
    m_tabs->setTabVisible(m_protocolTab, false);
    connect(m_protocol, &ProtocolView::exchangesChanged, this,
            [this] { m_tabs->setTabVisible(m_protocolTab, m_protocol->hasAny()); });

    m_attempts = new QTreeWidget(splitter);
    m_attempts->setObjectName(QStringLiteral("stepAttempts"));
    m_attempts->setHeaderLabels({tr("Attempt"), tr("Outcome"), tr("Started"), tr("Duration"), tr("Error")});
    m_attempts->setRootIsDecorated(false);
    m_attempts->setUniformRowHeights(true);
    m_attempts->setAllColumnsShowFocus(true);
    m_detail = new QPlainTextEdit(splitter);
    m_detail->setObjectName(QStringLiteral("stepDetail"));
    m_detail->setReadOnly(true);
    m_detail->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_detail->setPlaceholderText(tr("Select an attempt to see its error and captured output."));
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setStretchFactor(2, 1);
    layout->addWidget(splitter, 1);

    connect(m_copyButton, &QPushButton::clicked, this, &StepInspector::copyAsJson);
    connect(m_showAllButton, &QPushButton::clicked, this, &StepInspector::showAll);
    connect(m_jsonView, &QTreeView::activated, this, [this](const QModelIndex &index) {
        if (index.data(JsonTreeModel::IsElidedRole).toBool())
            showAll();
    });
    connect(m_attempts, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem *item) { showAttempt(item ? m_attempts->indexOfTopLevelItem(item) : -1); });
    clear();
}

void StepInspector::setLiveProtocol(std::function<nlohmann::json(const QString &, int, bool, quint64 *)> source)
{
    m_protocol->setLiveSource(std::move(source));
}

void StepInspector::clear()
{
    m_callId.clear();
    m_step.reset();
    m_model->clear();
    m_raw->clear();
    m_attempts->clear();
    m_detail->clear();
    m_content->clear();
    m_shownContent = nullptr;
    m_tabs->setTabVisible(m_contentTab, false);
    m_protocol->clear();
    m_tabs->setTabVisible(m_protocolTab, false);
    m_header->setText(tr("Select a step in the Trace to see its arguments, result and attempts."));
    m_copyButton->setEnabled(false);
    m_showAllButton->setEnabled(false);
}

nlohmann::json StepInspector::stepJson(const Step &step)
{
    nlohmann::json j = {{"call_id", step.callId.toStdString()},
                        {"sequence", step.sequence},
                        {"tool", step.tool.toStdString()},
                        {"status", stepStatusName(step.status).toStdString()},
                        {"idempotency_key", step.idempotencyKey.toStdString()},
                        {"args", step.args},
                        {"max_attempts", step.maxAttempts},
                        {"queued_at", step.queuedAt},
                        {"started_at", step.startedAt},
                        {"ended_at", step.endedAt}};
    if (step.result)
        j["result"] = *step.result;
    if (step.error)
        j["error"] = step.error->toJson();
    if (step.originalArgs)
        j["original_args"] = *step.originalArgs;
    if (!step.divergence.isEmpty())
        j["divergence"] = step.divergence.toStdString();
    if (step.recordedEndedAt > 0) {
        j["recorded_started_at"] = step.recordedStartedAt;
        j["recorded_ended_at"] = step.recordedEndedAt;
    }
    nlohmann::json attempts = nlohmann::json::array();
    for (const Attempt &a : step.attempts) {
        nlohmann::json aj
            = {{"number", a.number}, {"started_at", a.startedAt}, {"ended_at", a.endedAt}, {"succeeded", a.succeeded}};
        if (a.error)
            aj["error"] = a.error->toJson();
        if (!a.output.isEmpty())
            aj["output"] = QString::fromUtf8(a.output).toStdString();
        if (!a.protocol.is_null())
            aj["protocol"] = a.protocol;
        attempts.push_back(std::move(aj));
    }
    j["attempts"] = std::move(attempts);
    return j;
}

QStringList StepInspector::truncationNotes(const Step &step)
{
    QStringList notes;
    for (const Attempt &a : step.attempts) {
        if (a.output.contains("\n[stderr clipped at "))
            notes.append(tr("Attempt %1: handler output clipped (the notice at its end says how many bytes were "
                            "dropped)")
                             .arg(a.number));
    }
    const auto fromDetails = [&](const StepError &error, const QString &what) {
        const nlohmann::json &d = error.details;
        if (d.is_object() && (d.contains("full_size") || d.value("truncated", false)))
            notes.append(
                tr("%1 truncated (full size: %2 bytes)")
                    .arg(what)
                    .arg(d.contains("full_size") ? QString::fromStdString(d["full_size"].dump()) : tr("unknown")));
    };
    if (step.error) {
        fromDetails(*step.error, tr("Error"));
        if (step.error->code == ErrorCode::ReplyTooLarge || step.error->code == ErrorCode::RequestTooLarge)
            notes.append(printableLines(QString::fromStdString(step.error->message)));
    }
    return notes;
}

QString StepInspector::errorText(const StepError &error)
{
    QString text = error.text();
    text += QLatin1Char('\n') + (error.retryable ? tr("retryable") : tr("not retryable"));
    if (error.attempts > 0)
        text += QStringLiteral(", ") + (error.attempts == 1 ? tr("1 attempt") : tr("%1 attempts").arg(error.attempts));
    if (error.details.is_object()) {
        for (auto it = error.details.begin(); it != error.details.end(); ++it) {
            text += QStringLiteral("\n\n") + QString::fromStdString(it.key()) + QStringLiteral(":\n");
            text
                += it.value().is_string() ? QString::fromStdString(it.value().get<std::string>()) : dump(it.value(), 2);
        }
    }
    return printableLines(text);
}

QString StepInspector::conversationOf(const Step &step)
{
    nlohmann::json messages
        = step.args.is_object() ? step.args.value("messages", nlohmann::json::array()) : nlohmann::json::array();
    if (!messages.is_array())
        messages = nlohmann::json::array();
    QString text;
    if (step.result && step.result->is_object() && step.result->contains("message")) {
        messages.push_back((*step.result)["message"]);
        const nlohmann::json usage = step.result->value("usage", nlohmann::json::object());
        const auto tokens = [&usage](const char *key) {
            const auto it = usage.is_object() ? usage.find(key) : usage.end();
            return it != usage.end() && it->is_number_integer() ? it->get<qint64>() : 0;
        };
        const nlohmann::json stop = step.result->value("stop_reason", nlohmann::json());
        text = tr("\n\nTokens: %1 in, %2 out; stop reason: %3")
                   .arg(tokens("input_tokens"))
                   .arg(tokens("output_tokens"))
                   .arg(stop.is_string() ? printableText(QString::fromStdString(stop.get<std::string>())) : tr("none"));
    } else if (step.error) {
        text = QStringLiteral("\n\n") + tr("No reply: %1").arg(printableText(step.error->text()));
    }
    return ModelMessage::conversationText(messages) + text;
}

void StepInspector::setStep(const Step *step, qint64 heldMs)
{
    if (!step) {
        clear();
        return;
    }
    const bool sameStep = step->callId == m_callId;
    const int currentAttempt
        = m_attempts->currentItem() ? m_attempts->indexOfTopLevelItem(m_attempts->currentItem()) : -1;
    m_callId = step->callId;
    m_step = *step;
    m_copyButton->setEnabled(true);
    m_showAllButton->setEnabled(true);

    QString header = tr("<b>#%1 %2</b> — %3 — attempts %4<br>call id <tt>%5</tt>, idempotency key <tt>%6</tt>")
                         .arg(step->sequence)
                         .arg(printableText(step->tool).toHtmlEscaped(), TraceModel::statusText(step->status),
                              step->attemptsText(), printableText(step->callId).toHtmlEscaped(),
                              printableText(step->idempotencyKey).toHtmlEscaped());
    if (!step->divergence.isEmpty())
        header += QStringLiteral("<br>") + tr("Divergence: %1").arg(printableText(step->divergence).toHtmlEscaped());
    if (step->recordedEndedAt > 0)
        header += QStringLiteral("<br>")
            + tr("Memoized: answered at once from the recorded run, where it started %1 and took %2")
                  .arg(timeText(step->recordedStartedAt), durationText(step->recordedEndedAt - step->recordedStartedAt))
                  .toHtmlEscaped();
    if (heldMs > 0)
        header += QStringLiteral("<br>")
            + tr("Held for a person %1 before it went on (not part of its duration)")
                  .arg(durationText(heldMs))
                  .toHtmlEscaped();
    for (const QString &note : truncationNotes(*step))
        header += QStringLiteral("<br><span style=\"color:#b26a00\">%1</span>").arg(note.toHtmlEscaped());
    m_header->setText(header);

    nlohmann::json shown = nlohmann::json::object();
    shown["args"] = step->args;
    if (step->originalArgs)
        shown["original_args"] = *step->originalArgs;
    if (step->result)
        shown["result"] = *step->result;
    if (step->error)
        shown["error"] = step->error->toJson();
    m_model->setJson(shown, step->tool);
    const QModelIndex root = m_model->index(0, 0);
    m_jsonView->expand(root);
    for (int row = 0; row < m_model->rowCount(root); ++row) {
        const QModelIndex member = m_model->index(row, 0, root);
        if (m_model->rowCount(member) <= MaxAutoExpandRows)
            m_jsonView->expand(member);
    }

    const nlohmann::json all = stepJson(*step);
    const std::string raw = all.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    if (raw.size() <= size_t(MaxRawJsonBytes))
        m_raw->setPlainText(QString::fromStdString(raw));
    else
        m_raw->setPlainText(
            tr("The step's JSON is %1 bytes: browse it in the Tree tab, or use Copy as JSON.").arg(raw.size()));

    const bool model = ModelSteps::isModelStep(step->tool);
    m_tabs->setTabVisible(m_conversationTab, model);
    if (model)
        m_conversation->setPlainText(conversationOf(*step));
    const bool content = step->result && ContentBlocksView::hasContent(*step->result);
    m_tabs->setTabVisible(m_contentTab, content);
    // Decoded again only when the result changed (a live step is set again and again).
    if (content && (!sameStep || m_shownContent != *step->result)) {
        m_content->setResult(*step->result);
        m_shownContent = *step->result;
    } else if (!content) {
        m_content->clear();
        m_shownContent = nullptr;
    }

    m_protocol->setStep(*step); // its tab shown when it has something (exchangesChanged)
    m_tabs->setTabVisible(m_protocolTab, m_protocol->hasAny());

    m_attempts->clear();
    for (const Attempt &a : step->attempts) {
        auto *item = new QTreeWidgetItem(m_attempts);
        item->setText(0, QString::number(a.number));
        item->setText(1,
                      a.endedAt == 0    ? TraceModel::statusText(step->status)
                          : a.succeeded ? TraceModel::statusText(StepStatus::Succeeded)
                                        : TraceModel::statusText(StepStatus::Failed));
        item->setText(2, timeText(a.startedAt));
        item->setText(3, a.endedAt > 0 ? durationText(a.endedAt - a.startedAt) : QString());
        if (a.error)
            item->setText(4, printableText(a.error->text()));
    }
    const int select = sameStep && currentAttempt >= 0 ? currentAttempt : m_attempts->topLevelItemCount() - 1;
    if (select >= 0 && select < m_attempts->topLevelItemCount())
        m_attempts->setCurrentItem(m_attempts->topLevelItem(select));
    else
        showAttempt(-1);
}

void StepInspector::showAttempt(int row)
{
    if (!m_step) {
        m_detail->clear();
        return;
    }
    QString text;
    if (m_step->status == StepStatus::Failed && m_step->error)
        text += tr("Step failed:") + QLatin1Char('\n') + errorText(*m_step->error) + QStringLiteral("\n\n");
    if (row >= 0 && row < int(m_step->attempts.size())) {
        const Attempt &a = m_step->attempts[size_t(row)];
        text += tr("Attempt %1").arg(a.number);
        if (a.endedAt > 0) {
            text += QStringLiteral(" (") + durationText(a.endedAt - a.startedAt);
            // The time a person took apart from the time the handler ran (the timeline's
            // waiting segment).
            if (const qint64 waited = waitedMs(a.personWaits, a.startedAt, a.endedAt); !a.personWaits.empty())
                text += QStringLiteral("; ")
                    + tr("ran %1, waited for a person %2")
                          .arg(durationText(a.endedAt - a.startedAt - waited), durationText(waited));
            text += QLatin1Char(')');
        }
        text += QLatin1Char('\n');
        if (a.error)
            text += errorText(*a.error) + QLatin1Char('\n');
        text += QLatin1Char('\n') + tr("Captured output:") + QLatin1Char('\n');
        text += a.output.isEmpty() ? tr("(none)") : QString::fromUtf8(a.output);
    }
    m_detail->setPlainText(text);
}

void StepInspector::copyAsJson() const
{
    if (m_step)
        QApplication::clipboard()->setText(dump(stepJson(*m_step), 2));
}

void StepInspector::showAll()
{
    const QModelIndex index = m_jsonView->currentIndex();
    if (!index.isValid())
        return;
    auto *dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("showAllDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Value of %1").arg(index.data(JsonTreeModel::JsonPointerRole).toString()));
    auto *layout = new QVBoxLayout(dialog);
    auto *text = new QPlainTextEdit(dialog);
    text->setReadOnly(true);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text->setPlainText(index.siblingAtColumn(0).data(JsonTreeModel::FullTextRole).toString());
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog->resize(640, 480);
    dialog->show();
}
