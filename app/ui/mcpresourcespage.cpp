// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpresourcespage.h"

#include "answerpane.h"
#include "mcp/mcpserverfeatures.h"
#include "mcpcompletionfield.h"
#include "mcpinputquestionview.h"
#include "mcpresultpane.h"
#include "plaintextlabel.h"
#include "project/printabletext.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QTime>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <utility>

using nlohmann::json;

namespace {

constexpr int UriRole = Qt::UserRole + 1;
constexpr int KindRole = Qt::UserRole + 2;
enum Kind { ResourceKind = 1, TemplateKind = 2 };

/// A file name for Save As from the last segment of `uri` (printable, no slashes).
QString suggestedName(const QString &uri)
{
    QString name = uri.section(u'/', -1).section(u'?', 0, 0);
    name = printableText(name).replace(QRegularExpression(QStringLiteral("[^\\w.-]")), QStringLiteral("_"));
    return name.isEmpty() || name.startsWith(u'.') ? QStringLiteral("resource") : name.left(100);
}

} // namespace

McpResourcesPage::McpResourcesPage(const QString &server, Session session, QWidget *parent)
    : QSplitter(Qt::Horizontal, parent)
    , m_session(std::move(session))
{
    // The list on the left; the URI (a template's form), Read and the answer on the right.
    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_note = plainLabel(QStringLiteral("mcpResourcesNote"), left);
    leftLayout->addWidget(m_note);
    m_resources = new QTreeWidget(left);
    m_resources->setObjectName(QStringLiteral("mcpResources"));
    m_resources->setHeaderLabels({tr("Resource"), tr("Type")});
    m_resources->header()->setStretchLastSection(false);
    m_resources->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_resources->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    leftLayout->addWidget(m_resources, 1);
    auto *reloadButton = new QPushButton(tr("Reload"), left);
    reloadButton->setObjectName(QStringLiteral("mcpReload"));
    reloadButton->setToolTip(tr("List the server's resources, templates and prompts again"));
    connect(reloadButton, &QPushButton::clicked, this, &McpResourcesPage::reloadRequested);
    leftLayout->addWidget(reloadButton, 0, Qt::AlignLeft);
    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    m_templateBox = new QGroupBox(tr("Template"), right);
    m_templateBox->setObjectName(QStringLiteral("mcpTemplateBox"));
    auto *templateLayout = new QVBoxLayout(m_templateBox);
    m_templateNote = plainLabel(QStringLiteral("mcpTemplateNote"), m_templateBox);
    templateLayout->addWidget(m_templateNote);
    m_templateForm = new QFormLayout;
    templateLayout->addLayout(m_templateForm);
    m_templateBox->hide();
    rightLayout->addWidget(m_templateBox);
    auto *uriRow = new QHBoxLayout;
    auto *uriLabel = new QLabel(tr("&URI:"), right);
    m_uri = new QLineEdit(right);
    m_uri->setObjectName(QStringLiteral("mcpResourceUri"));
    m_uri->setPlaceholderText(tr("a resource's URI; pick one on the left or type it"));
    uriLabel->setBuddy(m_uri);
    m_read = new QPushButton(tr("&Read"), right);
    m_read->setObjectName(QStringLiteral("mcpResourceRead"));
    m_read->setToolTip(tr("Ask the server for this resource (resources/read)"));
    connect(m_read, &QPushButton::clicked, this, &McpResourcesPage::readResource);
    connect(m_uri, &QLineEdit::returnPressed, this, &McpResourcesPage::readResource);
    uriRow->addWidget(uriLabel);
    uriRow->addWidget(m_uri, 1);
    uriRow->addWidget(m_read);
    rightLayout->addLayout(uriRow);
    m_subscribe = new QCheckBox(tr("&Subscribe: read it again when the server says it changed"), right);
    m_subscribe->setObjectName(QStringLiteral("mcpResourceSubscribe"));
    connect(m_subscribe, &QCheckBox::toggled, this, &McpResourcesPage::setSubscribed);
    rightLayout->addWidget(m_subscribe);
    m_question = new McpInputQuestionView(server, right);
    rightLayout->addWidget(m_question);
    m_result = new McpResultPane(QStringLiteral("mcpResource"), true, right);
    rightLayout->addWidget(m_result, 1);
    setSizes({360, 540});
    connect(m_resources, &QTreeWidget::itemSelectionChanged, this, &McpResourcesPage::onResourceSelected);
    connect(m_resources, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        if (item->data(0, KindRole).toInt() == ResourceKind)
            readResource();
    });
}

McpResourcesPage::~McpResourcesPage()
{
    QString why;
    if (!m_subscribedUri.isEmpty())
        if (McpClientSession *open = m_session(&why))
            McpServerFeatures::subscribe(open, m_subscribedUri, false, [](const McpReply &) {});
}

void McpResourcesPage::forgetSubscription()
{
    m_subscribedUri.clear();
    m_readsInFlight = 0; // a session let go of answers none of its reads
    m_readAgain = false;
    const QSignalBlocker blocker(m_subscribe);
    m_subscribe->setChecked(false);
}

void McpResourcesPage::resourceUpdated(const QString &uri)
{
    if (m_subscribedUri.isEmpty() || uri != m_subscribedUri || m_uri->text() != uri)
        return;
    if (m_readsInFlight > 0) {
        m_readAgain = true;
        return;
    }
    readResource();
}

void McpResourcesPage::subscriptionEnded(const QString &why)
{
    if (m_subscribedUri.isEmpty())
        return;
    forgetSubscription();
    m_note->setText(tr("The server ended the subscription: %1").arg(printableText(why)));
}

void McpResourcesPage::list()
{
    const int generation = ++m_generation;
    m_resources->clear();
    m_subscribe->setEnabled(false);
    QString why;
    McpClientSession *open = m_session(&why);
    if (open)
        why = McpServerFeatures::missingCapability(*open, "resources");
    if (!why.isEmpty()) {
        m_note->setText(why);
        m_read->setEnabled(false);
        return;
    }
    m_read->setEnabled(true);
    m_subscribe->setEnabled(McpServerFeatures::canSubscribe(*open));
    if (!m_subscribe->isEnabled())
        m_subscribe->setToolTip(tr("The server does not offer subscriptions (resources.subscribe)"));
    m_note->setText(tr("Listing…"));
    auto *resources = new QTreeWidgetItem(m_resources, {tr("Resources")});
    auto *templates = new QTreeWidgetItem(m_resources, {tr("Templates")});
    resources->setFlags(Qt::ItemIsEnabled);
    templates->setFlags(Qt::ItemIsEnabled);
    auto notes = std::make_shared<QStringList>();
    auto pending = std::make_shared<int>(2);
    const QPointer<McpResourcesPage> self(this);
    const auto finished = [self, generation, notes, pending] {
        if (--*pending == 0 && self && self->m_generation == generation)
            self->m_note->setText(notes->join(u'\n'));
    };
    const auto noteOf = [](const QString &what, qint64 dropped, bool truncated, const QString &truncatedWhy) {
        QStringList lines;
        if (dropped > 0)
            lines << tr("%1: %2 entries left out (a name or uri missing, a uri with control characters or too "
                        "long)")
                         .arg(what)
                         .arg(dropped);
        if (truncated)
            lines << tr("%1 cut short: %2").arg(what, truncatedWhy);
        return lines;
    };
    McpServerFeatures::listResources(
        open,
        [self, generation, resources, notes, noteOf, finished](const McpListing<McpResource> &listing,
                                                               const McpReply &reply) {
            if (!self || self->m_generation != generation)
                return;
            if (!reply.ok())
                *notes << tr("resources/list failed: %1").arg(reply.errorText());
            *notes << noteOf(QStringLiteral("resources/list"), listing.dropped, listing.truncated,
                             listing.truncatedWhy);
            for (const McpResource &resource : listing.entries) {
                auto *item
                    = new QTreeWidgetItem(resources,
                                          {elidedText(resource.title.isEmpty() ? resource.name : resource.title, 200),
                                           printableText(resource.mimeType)});
                item->setData(0, UriRole, resource.uri);
                item->setData(0, KindRole, ResourceKind);
                QString tip = resource.uri;
                if (!resource.description.isEmpty())
                    tip += QStringLiteral("\n") + resource.description;
                if (resource.size >= 0)
                    tip += QStringLiteral("\n") + QLocale().formattedDataSize(resource.size, 1);
                item->setToolTip(0, plainToolTip(tip));
            }
            resources->setText(0, tr("Resources (%1)").arg(listing.entries.size()));
            resources->setExpanded(true);
            finished();
        });
    McpServerFeatures::listResourceTemplates(
        open,
        [self, generation, templates, notes, noteOf, finished](const McpListing<McpResourceTemplate> &listing,
                                                               const McpReply &reply) {
            if (!self || self->m_generation != generation)
                return;
            if (!reply.ok())
                *notes << tr("resources/templates/list failed: %1").arg(reply.errorText());
            *notes << noteOf(QStringLiteral("resources/templates/list"), listing.dropped, listing.truncated,
                             listing.truncatedWhy);
            for (const McpResourceTemplate &resource : listing.entries) {
                auto *item
                    = new QTreeWidgetItem(templates,
                                          {elidedText(resource.title.isEmpty() ? resource.name : resource.title, 200),
                                           printableText(resource.mimeType)});
                item->setData(0, UriRole, resource.uriTemplate);
                item->setData(0, KindRole, TemplateKind);
                item->setToolTip(0, plainToolTip(resource.uriTemplate + QStringLiteral("\n") + resource.description));
            }
            templates->setText(0, tr("Templates (%1)").arg(listing.entries.size()));
            templates->setExpanded(true);
            finished();
        });
}

void McpResourcesPage::onResourceSelected()
{
    const QList<QTreeWidgetItem *> selected = m_resources->selectedItems();
    const QTreeWidgetItem *item = selected.isEmpty() ? nullptr : selected.front();
    const int kind = item ? item->data(0, KindRole).toInt() : 0;
    // The old form goes: its fields belonged to another template.
    while (m_templateForm->rowCount() > 0)
        m_templateForm->removeRow(0);
    m_template.clear();
    m_templateBox->setVisible(kind == TemplateKind);
    if (kind == ResourceKind) {
        m_uri->setText(item->data(0, UriRole).toString());
        return;
    }
    if (kind != TemplateKind)
        return;
    m_template = item->data(0, UriRole).toString();
    QString why;
    const QStringList variables = McpServerFeatures::uriTemplateVariables(m_template, &why);
    m_templateNote->setText(why.isEmpty() ? printableText(m_template) : printableText(m_template) + u'\n' + why);
    if (!why.isEmpty()) {
        m_template.clear(); // beyond level 1: the URI is typed
        m_uri->clear();
        return;
    }
    for (const QString &variable : variables) {
        auto *field = new QLineEdit(m_templateBox);
        field->setObjectName(QStringLiteral("mcpTemplateVar_") + variable);
        new McpCompletionField(field, m_session, {McpCompletionRef::Kind::ResourceTemplate, m_template}, variable,
                               [this] { return templateValues(); });
        connect(field, &QLineEdit::textChanged, this, &McpResourcesPage::updateUriFromTemplate);
        connect(field, &QLineEdit::returnPressed, this, &McpResourcesPage::readResource);
        m_templateForm->addRow(printableText(variable) + QStringLiteral(":"), field);
    }
    updateUriFromTemplate();
}

void McpResourcesPage::updateUriFromTemplate()
{
    if (m_template.isEmpty())
        return;
    QString why;
    m_uri->setText(McpServerFeatures::expandUriTemplate(m_template, templateValues(), &why));
}

QMap<QString, QString> McpResourcesPage::templateValues() const
{
    QMap<QString, QString> values;
    for (QLineEdit *field : m_templateBox->findChildren<QLineEdit *>())
        values.insert(field->objectName().mid(QStringLiteral("mcpTemplateVar_").size()), field->text());
    return values;
}

void McpResourcesPage::readResource()
{
    const QString uri = m_uri->text();
    if (m_question->isAsking()) {
        // One question at a time: the read that asked still waits for it.
        m_question->pane()->setClockText(
            tr("%1 waits for your answer to this question: answer it or press Cancel before reading again.")
                .arg(m_question->subject()));
        return;
    }
    QString why;
    McpClientSession *open = m_session(&why);
    const int generation = m_result->begin(tr("Reading %1…").arg(elidedText(uri, 200)), open);
    if (uri.isEmpty()) {
        m_result->fail(generation, tr("Pick a resource or type a URI first."));
        return;
    }
    if (!open) {
        m_result->fail(generation, why);
        return;
    }
    const QPointer<McpResourcesPage> self(this);
    ++m_readsInFlight;
    McpInputRequiredRounds::Asker asker = m_question->askerFor(
        open, McpServerFeatures::requestSubject(QStringLiteral("resources/read"), uri), generation);
    McpServerFeatures::readResource(
        open, uri,
        [self, generation, uri](const std::vector<McpResourceContents> &contents, const McpReply &reply) {
            if (!self)
                return;
            self->m_question->finished(generation);
            --self->m_readsInFlight;
            if (self->m_readsInFlight == 0 && std::exchange(self->m_readAgain, false))
                QTimer::singleShot(0, self, [self, uri] {
                    if (self)
                        self->resourceUpdated(uri);
                });
            McpResultPane *pane = self->m_result;
            if (!reply.ok()) {
                pane->fail(generation, tr("resources/read failed: %1").arg(reply.errorText()));
                return;
            }
            // The contents as the server sent them, each as an embedded resource block: the
            // content view shows text as text, renders an image blob and sizes another (a
            // blob that is not base64 is said so).
            json blocks = json::array();
            for (const json &entry : reply.result["contents"])
                if (entry.is_object() && blocks.size() < McpServerFeatures::MaxContents)
                    blocks.push_back({{"type", "resource"}, {"resource", entry}});
            QStringList problems;
            for (const McpResourceContents &part : contents)
                if (!part.problem.isEmpty())
                    problems << tr("%1: %2").arg(elidedText(part.uri, 200), part.problem);
            // Copy and Save As take the first contents (a read gives one as a rule).
            const McpResourceContents &first = contents.front();
            const QByteArray bytes = first.isBlob ? first.blob : first.text.toUtf8();
            QString note = tr("Read at %1: %n part(s).", nullptr, int(contents.size()))
                               .arg(QLocale().toString(QTime::currentTime(), QLocale::ShortFormat));
            if (contents.size() > 1)
                note += u' ' + tr("Copy and Save As take the first.");
            if (!problems.isEmpty())
                note += u'\n' + tr("Not shown: %1").arg(problems.join(QStringLiteral("; ")));
            pane->showAnswer(generation, {{"content", blocks}}, {}, reply.result, note,
                             !first.problem.isEmpty() ? QString()
                                 : first.isBlob       ? QString::fromLatin1(first.blob.toBase64())
                                                      : first.text,
                             first.problem.isEmpty() ? bytes : QByteArray(),
                             first.problem.isEmpty() ? suggestedName(uri) : QString());
        },
        McpClientSession::DefaultTimeoutMs, std::move(asker));
}

void McpResourcesPage::setSubscribed(bool on)
{
    QString why;
    McpClientSession *open = m_session(&why);
    const QString uri = on ? m_uri->text() : m_subscribedUri;
    if (!open || uri.isEmpty()) {
        if (on && uri.isEmpty())
            m_note->setText(tr("Pick a resource or type a URI to subscribe to."));
        const QSignalBlocker blocker(m_subscribe);
        m_subscribe->setChecked(false);
        return;
    }
    const QPointer<McpResourcesPage> self(this);
    if (!on) {
        m_subscribedUri.clear();
        McpServerFeatures::subscribe(open, uri, false, [](const McpReply &) {});
        return;
    }
    // One subscription per window: the one before ends.
    if (!m_subscribedUri.isEmpty() && m_subscribedUri != uri)
        McpServerFeatures::subscribe(open, m_subscribedUri, false, [](const McpReply &) {});
    m_subscribedUri = uri;
    McpServerFeatures::subscribe(open, uri, true, [self, uri](const McpReply &reply) {
        if (!self || self->m_subscribedUri != uri)
            return;
        if (!reply.ok()) {
            self->m_subscribedUri.clear();
            const QSignalBlocker blocker(self->m_subscribe);
            self->m_subscribe->setChecked(false);
            self->m_note->setText(tr("resources/subscribe failed: %1").arg(reply.errorText()));
            return;
        }
        self->m_note->setText(
            tr("Subscribed to %1: it is read again when the server says it changed.").arg(elidedText(uri, 200)));
    });
}
