// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocolview.h"

#include "mcp/mcpexchangetext.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

using nlohmann::json;

namespace {

const json &messagesOf(const json &exchange)
{
    static const json none = json::array();
    const auto found = exchange.is_object() ? exchange.find("messages") : exchange.end();
    return exchange.is_object() && found != exchange.end() && found->is_array() ? *found : none;
}

QString pretty(const json &value)
{
    return QString::fromStdString(value.dump(2, ' ', false, json::error_handler_t::replace));
}

} // namespace

ProtocolView::ProtocolView(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *top = new QHBoxLayout;
    m_attempt = new QComboBox(this);
    m_attempt->setObjectName(QStringLiteral("protocolAttempt"));
    m_attempt->setSizeAdjustPolicy(QComboBox::AdjustToContents); // "Attempt 12" whole
    m_omitted = new QLabel(this);
    m_omitted->setObjectName(QStringLiteral("protocolOmitted"));
    m_copy = new QPushButton(tr("Copy"), this);
    m_copy->setObjectName(QStringLiteral("copyProtocolMessage"));
    m_copy->setToolTip(tr("Copy the selected message as JSON"));
    m_copyAll = new QPushButton(tr("Copy All"), this);
    m_copyAll->setObjectName(QStringLiteral("copyProtocolAll"));
    m_copyAll->setToolTip(tr("Copy the attempt's messages as a JSON array"));
    top->addWidget(m_attempt);
    top->addWidget(m_omitted, 1);
    top->addWidget(m_copy);
    top->addWidget(m_copyAll);
    layout->addLayout(top);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_messages = new QTreeWidget(splitter);
    m_messages->setObjectName(QStringLiteral("protocolMessages"));
    m_messages->setHeaderLabels({tr("Time"), tr("Message")});
    m_messages->setRootIsDecorated(false);
    m_messages->setUniformRowHeights(true);
    m_messages->setAllColumnsShowFocus(true);
    m_messages->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_message = new QPlainTextEdit(splitter);
    m_message->setObjectName(QStringLiteral("protocolMessage"));
    m_message->setReadOnly(true);
    m_message->setLineWrapMode(QPlainTextEdit::NoWrap); // JSON reads by its indentation
    m_message->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_message->setPlaceholderText(tr("Select a message to see it as JSON."));
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter, 1);

    m_livePoll = new QTimer(this);
    m_livePoll->setInterval(LivePollMs);
    connect(m_livePoll, &QTimer::timeout, this, &ProtocolView::pollLive);

    connect(m_attempt, &QComboBox::currentIndexChanged, this, &ProtocolView::showAttempt);
    connect(m_messages, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem *item) { showMessage(item ? m_messages->indexOfTopLevelItem(item) : -1); });
    connect(m_copy, &QPushButton::clicked, this, &ProtocolView::copyMessage);
    connect(m_copyAll, &QPushButton::clicked, this, &ProtocolView::copyAll);
}

void ProtocolView::setStep(const Step &step)
{
    if (step.idempotencyKey != m_stepKey) {
        m_stepKey = step.idempotencyKey;
        m_unjournaled.clear();
    }
    m_journaled.clear();
    for (const Attempt &attempt : step.attempts) {
        if (attempt.protocol.is_object()) {
            m_journaled.emplace_back(attempt.number, attempt.protocol);
            continue;
        }
        // Ended without a record (its timeout, Stop): what the pool kept of it, asked once
        // — for the last MaxUnjournaled attempts (the pool keeps no more), and again when
        // the attempt ran again (a resumed run reopens it under its number).
        if (attempt.endedAt == 0) {
            m_unjournaled.erase(attempt.number);
            continue;
        }
        if (!m_liveSource || m_stepKey.isEmpty() || attempt.number <= step.attempts.back().number - MaxUnjournaled)
            continue;
        auto known = m_unjournaled.find(attempt.number);
        if (known == m_unjournaled.end())
            known = m_unjournaled.emplace(attempt.number, m_liveSource(m_stepKey, attempt.number, true, nullptr)).first;
        if (known->second.is_object())
            m_journaled.emplace_back(attempt.number, known->second);
    }
    if (!step.attempts.empty())
        std::erase_if(m_unjournaled,
                      [&](const auto &entry) { return entry.first <= step.attempts.back().number - MaxUnjournaled; });
    // Its running attempt, when it has no record yet: followed while it runs.
    const Attempt *running = step.attempts.empty() ? nullptr : &step.attempts.back();
    const bool live = m_liveSource && running && running->endedAt == 0 && !running->protocol.is_object()
        && !isFinal(step.status) && !step.idempotencyKey.isEmpty();
    const QString key = live ? step.idempotencyKey : QString();
    const int number = live ? running->number : 0;
    if (key != m_liveKey || number != m_liveAttempt) {
        m_liveKey = key;
        m_liveAttempt = number;
        m_live = nullptr;
        m_liveRevision = 0;
        if (live) {
            m_live = m_liveSource(m_liveKey, m_liveAttempt, false, &m_liveRevision);
            m_livePoll->start();
        } else {
            m_livePoll->stop();
        }
    }
    apply(composed());
}

ProtocolView::Exchanges ProtocolView::composed() const
{
    Exchanges exchanges = m_journaled;
    if (m_live.is_object())
        exchanges.emplace_back(m_liveAttempt, m_live);
    return exchanges;
}

void ProtocolView::pollLive()
{
    if (m_liveKey.isEmpty() || !m_liveSource) {
        m_livePoll->stop();
        return;
    }
    quint64 revision = m_liveRevision;
    json now = m_liveSource(m_liveKey, m_liveAttempt, false, &revision);
    if (revision == m_liveRevision)
        return; // the same record: nothing was copied
    m_liveRevision = revision;
    m_live = std::move(now);
    apply(composed(), true);
}

void ProtocolView::apply(Exchanges exchanges, bool changed)
{
    const bool following = m_live.is_object();
    if (!changed && following == m_labelledLive && exchanges == m_exchanges)
        return; // a live step set again: the selection stays
    // The running attempt's exchange grew (or its final one came): the attempt, message
    // and scroll position a person chose stay.
    const bool grew = exchanges.size() == m_exchanges.size()
        && std::equal(exchanges.begin(), exchanges.end(), m_exchanges.begin(),
                      [](const auto &a, const auto &b) { return a.first == b.first; });
    const int keptAttempt = grew ? m_shown : -1;
    const int keptRow
        = grew && m_messages->currentItem() ? m_messages->indexOfTopLevelItem(m_messages->currentItem()) : -1;
    const int keptScroll = m_messages->verticalScrollBar()->value();
    // Only the shown attempt's messages grew (a record only grows): its new rows are
    // added, the rest — the message shown above all — left as it is.
    const int shownRows = m_messages->topLevelItemCount();
    const bool appended = grew && keptAttempt >= 0 && keptAttempt < int(exchanges.size()) && following == m_labelledLive
        && int(messagesOf(exchanges[std::size_t(keptAttempt)].second).size()) >= shownRows;
    m_exchanges = std::move(exchanges);
    if (appended) {
        addRows(shownRows);
        return;
    }
    m_labelledLive = following;
    const QSignalBlocker blocker(m_attempt);
    m_attempt->clear();
    bool unjournaled = false;
    for (std::size_t index = 0; index < m_exchanges.size(); ++index) {
        const int number = m_exchanges[index].first;
        const auto kept = m_unjournaled.find(number);
        const bool cancelled = kept != m_unjournaled.end() && kept->second.is_object();
        unjournaled = unjournaled || cancelled;
        m_attempt->addItem(
            following && index + 1 == m_exchanges.size()
                ? tr("Attempt %1 (running)").arg(number)
                : (cancelled ? tr("Attempt %1 (cancelled, not journaled)").arg(number) : tr("Attempt %1").arg(number)));
    }
    m_attempt->setVisible(m_exchanges.size() > 1 || following || unjournaled);
    const int shown = keptAttempt >= 0 ? keptAttempt : int(m_exchanges.size()) - 1;
    m_attempt->setCurrentIndex(shown);
    showAttempt(shown);
    if (keptRow > 0 && keptRow < m_messages->topLevelItemCount())
        m_messages->setCurrentItem(m_messages->topLevelItem(keptRow));
    if (grew)
        m_messages->verticalScrollBar()->setValue(keptScroll);
    Q_EMIT exchangesChanged();
}

void ProtocolView::clear()
{
    m_livePoll->stop();
    m_liveKey.clear();
    m_liveAttempt = 0;
    m_live = nullptr;
    m_liveRevision = 0;
    m_labelledLive = false;
    m_stepKey.clear();
    m_unjournaled.clear();
    m_journaled.clear();
    m_exchanges.clear();
    const QSignalBlocker blocker(m_attempt);
    m_attempt->clear();
    showAttempt(-1);
}

void ProtocolView::showAttempt(int index)
{
    m_shown = index >= 0 && index < int(m_exchanges.size()) ? index : -1;
    m_messages->clear();
    m_message->clear();
    if (m_shown < 0) {
        m_omitted->clear();
        m_copy->setEnabled(false);
        m_copyAll->setEnabled(false);
        return;
    }
    addRows(0);
    m_copy->setEnabled(false);
    if (m_messages->topLevelItemCount() > 0)
        m_messages->setCurrentItem(m_messages->topLevelItem(0));
}

void ProtocolView::addRows(int from)
{
    if (m_shown < 0)
        return;
    const json &exchange = m_exchanges[std::size_t(m_shown)].second;
    const json &entries = messagesOf(exchange);
    QList<QTreeWidgetItem *> rows;
    for (std::size_t index = std::size_t(std::max(from, 0)); index < entries.size(); ++index) {
        auto *item = new QTreeWidgetItem;
        item->setText(0, McpExchangeText::offset(entries[index]));
        item->setText(1, McpExchangeText::summary(entries[index]));
        rows << item;
    }
    m_messages->addTopLevelItems(rows);
    m_omitted->setText(McpExchangeText::omitted(exchange));
    m_copyAll->setEnabled(m_messages->topLevelItemCount() > 0);
}

void ProtocolView::showMessage(int row)
{
    const json &messages = shownMessages();
    if (row < 0 || row >= int(messages.size())) {
        m_message->clear();
        m_copy->setEnabled(false);
        return;
    }
    m_message->setPlainText(McpExchangeText::pretty(messages[std::size_t(row)]));
    m_copy->setEnabled(true);
}

const json &ProtocolView::shownMessages() const
{
    static const json none;
    return messagesOf(m_shown >= 0 ? m_exchanges[std::size_t(m_shown)].second : none);
}

json ProtocolView::messageAt(int row) const
{
    const json &messages = shownMessages();
    if (row < 0 || row >= int(messages.size()))
        return nullptr;
    const json &entry = messages[std::size_t(row)];
    const auto message = entry.is_object() ? entry.find("message") : entry.end();
    return entry.is_object() && message != entry.end() ? *message : entry;
}

void ProtocolView::copyMessage() const
{
    if (QTreeWidgetItem *item = m_messages->currentItem())
        QApplication::clipboard()->setText(pretty(messageAt(m_messages->indexOfTopLevelItem(item))));
}

void ProtocolView::copyAll() const
{
    if (m_shown < 0)
        return;
    json all = json::array();
    for (int row = 0; row < m_messages->topLevelItemCount(); ++row)
        all.push_back(messageAt(row));
    QApplication::clipboard()->setText(pretty(all));
}
