// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpserverbrowser.h"

#include "contentblocksview.h"
#include "jsontreemodel.h"
#include "mcp/mcpserverfeatures.h"
#include "mcp/mcpserverpool.h"
#include "project/printabletext.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDateTime>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSplitter>
#include <QTabWidget>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

using nlohmann::json;

namespace {

constexpr int UriRole = Qt::UserRole + 1;
constexpr int KindRole = Qt::UserRole + 2;
enum Kind { ResourceKind = 1, TemplateKind = 2 };

/// A label for server text: plain text always (a server's "<img src=…>" is shown, not
/// loaded), wrapped, selectable.
QLabel *plainLabel(const QString &objectName, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

/// A tooltip of server text: escaped, so Qt does not take it for rich text.
QString plainToolTip(const QString &text)
{
    return text.isEmpty() ? QString()
                          : QStringLiteral("<p style=\"white-space: pre-wrap\">%1</p>")
                                .arg(clippedText(printableLines(text), 2000).toHtmlEscaped());
}

/// A file name for Save As from the last segment of `uri` (printable, no slashes).
QString suggestedName(const QString &uri)
{
    QString name = uri.section(u'/', -1).section(u'?', 0, 0);
    name = printableText(name).replace(QRegularExpression(QStringLiteral("[^\\w.-]")), QStringLiteral("_"));
    return name.isEmpty() || name.startsWith(u'.') ? QStringLiteral("resource") : name.left(100);
}

} // namespace

namespace McpBrowserDetail {

/// The lower half of a tab: a busy bar, a status line (errors in place), the answer as
/// content and as a tree, and Copy / Copy as JSON / Save As….
class ResultPane : public QWidget
{
public:
    ResultPane(const QString &prefix, bool saveable, QWidget *parent)
        : QWidget(parent)
    {
        auto *layout = new QVBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        m_busy = new QProgressBar(this);
        m_busy->setObjectName(prefix + QStringLiteral("Busy"));
        m_busy->setRange(0, 0); // "busy", no percentage
        m_busy->setMaximumHeight(8);
        m_busy->setTextVisible(false);
        m_busy->hide();
        layout->addWidget(m_busy);
        m_status = plainLabel(prefix + QStringLiteral("Status"), this);
        layout->addWidget(m_status);
        m_tabs = new QTabWidget(this);
        m_content = new ContentBlocksView(m_tabs);
        m_content->setObjectName(prefix + QStringLiteral("Content"));
        m_tabs->addTab(m_content, McpServerBrowser::tr("Content"));
        m_treeModel = new JsonTreeModel(this);
        auto *tree = new QTreeView(m_tabs);
        tree->setObjectName(prefix + QStringLiteral("Tree"));
        tree->setModel(m_treeModel);
        tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
        m_tabs->addTab(tree, McpServerBrowser::tr("Tree"));
        layout->addWidget(m_tabs, 1);
        auto *buttons = new QHBoxLayout;
        m_copy = new QPushButton(McpServerBrowser::tr("Copy"), this);
        m_copy->setObjectName(prefix + QStringLiteral("Copy"));
        m_copy->setToolTip(McpServerBrowser::tr("Copy the text to the clipboard"));
        m_copyJson = new QPushButton(McpServerBrowser::tr("Copy as JSON"), this);
        m_copyJson->setObjectName(prefix + QStringLiteral("CopyJson"));
        buttons->addWidget(m_copy);
        buttons->addWidget(m_copyJson);
        if (saveable) {
            m_save = new QPushButton(McpServerBrowser::tr("Save As…"), this);
            m_save->setObjectName(prefix + QStringLiteral("Save"));
            m_save->setToolTip(McpServerBrowser::tr("Save the resource's text or its decoded blob to a file"));
            buttons->addWidget(m_save);
            connect(m_save, &QPushButton::clicked, this, [this] { save(); });
        }
        buttons->addStretch(1);
        layout->addLayout(buttons);
        connect(m_copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(m_copyText); });
        connect(m_copyJson, &QPushButton::clicked, this, [this] {
            QApplication::clipboard()->setText(
                QString::fromStdString(m_raw.dump(2, ' ', false, json::error_handler_t::replace)));
        });
        setAnswer({}, {}, {}, {}, {}, {});
    }

    /// Starts a request: busy, the last answer cleared. Returns its generation.
    int begin(const QString &what, McpClientSession *session)
    {
        m_session = session;
        setAnswer({}, {}, {}, {}, {}, {});
        m_busy->show();
        m_status->setText(what);
        return ++m_generation;
    }
    bool isCurrent(int generation) const { return generation == m_generation; }
    bool isBusy() const { return m_busy->isVisible(); }
    /// The session of the open request (null once it was deleted).
    McpClientSession *session() const { return m_session; }

    void fail(int generation, const QString &why)
    {
        if (!isCurrent(generation))
            return;
        m_busy->hide();
        m_status->setText(printableLines(why));
    }
    /// Fails the open request, if any (the server stopped).
    void failOpen(const QString &why)
    {
        if (isBusy())
            fail(m_generation, why);
    }

    void show(int generation, const json &blocks, const QStringList &labels, const json &raw, const QString &note,
              const QString &copyText, const QByteArray &saveBytes, const QString &saveName)
    {
        if (!isCurrent(generation))
            return;
        m_busy->hide();
        m_status->setText(note);
        setAnswer(blocks, labels, raw, copyText, saveBytes, saveName);
    }

private:
    void setAnswer(const json &blocks, const QStringList &labels, const json &raw, const QString &copyText,
                   const QByteArray &saveBytes, const QString &saveName)
    {
        m_content->setResult(blocks, labels);
        if (raw.is_null())
            m_treeModel->clear();
        else
            m_treeModel->setJson(raw, QStringLiteral("result"));
        m_raw = raw;
        m_copyText = copyText;
        m_saveBytes = saveBytes;
        m_saveName = saveName;
        m_copy->setEnabled(!copyText.isEmpty());
        m_copyJson->setEnabled(!raw.is_null());
        if (m_save)
            m_save->setEnabled(!saveName.isEmpty());
    }

    void save()
    {
        const QString path = QFileDialog::getSaveFileName(this, McpServerBrowser::tr("Save Resource As"), m_saveName);
        if (path.isEmpty())
            return;
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(m_saveBytes) != m_saveBytes.size() || !file.commit())
            m_status->setText(McpServerBrowser::tr("Could not save %1: %2").arg(path, file.errorString()));
        else
            m_status->setText(
                McpServerBrowser::tr("Saved %1 (%2).").arg(path, QLocale().formattedDataSize(m_saveBytes.size(), 1)));
    }

    QProgressBar *m_busy = nullptr;
    QLabel *m_status = nullptr;
    QTabWidget *m_tabs = nullptr;
    ContentBlocksView *m_content = nullptr;
    JsonTreeModel *m_treeModel = nullptr;
    QPushButton *m_copy = nullptr;
    QPushButton *m_copyJson = nullptr;
    QPushButton *m_save = nullptr;
    json m_raw;
    QString m_copyText;
    QByteArray m_saveBytes;
    QString m_saveName;
    QPointer<McpClientSession> m_session;
    int m_generation = 0;
};

} // namespace McpBrowserDetail

using McpBrowserDetail::ResultPane;

McpServerBrowser::McpServerBrowser(McpServerPool *pool, const QString &server, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_pool(pool)
    , m_server(server)
{
    setObjectName(QStringLiteral("mcpBrowser"));
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("MCP Server %1 — Resources and Prompts").arg(printableText(server)));
    resize(900, 640);
    auto *layout = new QVBoxLayout(this);
    auto *tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("mcpBrowserTabs"));
    layout->addWidget(tabs);

    // Resources: the list on the left; the URI (a template's form), Read and the answer on the right.
    auto *resources = new QSplitter(Qt::Horizontal, tabs);
    auto *left = new QWidget(resources);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_resourcesNote = plainLabel(QStringLiteral("mcpResourcesNote"), left);
    leftLayout->addWidget(m_resourcesNote);
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
    connect(reloadButton, &QPushButton::clicked, this, &McpServerBrowser::reload);
    leftLayout->addWidget(reloadButton, 0, Qt::AlignLeft);
    auto *right = new QWidget(resources);
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
    connect(m_read, &QPushButton::clicked, this, &McpServerBrowser::readResource);
    connect(m_uri, &QLineEdit::returnPressed, this, &McpServerBrowser::readResource);
    uriRow->addWidget(uriLabel);
    uriRow->addWidget(m_uri, 1);
    uriRow->addWidget(m_read);
    rightLayout->addLayout(uriRow);
    m_subscribe = new QCheckBox(tr("&Subscribe: read it again when the server says it changed"), right);
    m_subscribe->setObjectName(QStringLiteral("mcpResourceSubscribe"));
    connect(m_subscribe, &QCheckBox::toggled, this, &McpServerBrowser::setSubscribed);
    rightLayout->addWidget(m_subscribe);
    m_resourceResult = new ResultPane(QStringLiteral("mcpResource"), true, right);
    rightLayout->addWidget(m_resourceResult, 1);
    resources->setSizes({360, 540});
    tabs->addTab(resources, tr("Resources"));
    connect(m_resources, &QTreeWidget::itemSelectionChanged, this, &McpServerBrowser::onResourceSelected);
    connect(m_resources, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        if (item->data(0, KindRole).toInt() == ResourceKind)
            readResource();
    });

    // Prompts: the list on the left; description, argument form, Get and the messages on the right.
    auto *prompts = new QSplitter(Qt::Horizontal, tabs);
    auto *promptsLeft = new QWidget(prompts);
    auto *promptsLeftLayout = new QVBoxLayout(promptsLeft);
    promptsLeftLayout->setContentsMargins(0, 0, 0, 0);
    m_promptsNote = plainLabel(QStringLiteral("mcpPromptsNote"), promptsLeft);
    promptsLeftLayout->addWidget(m_promptsNote);
    m_prompts = new QTreeWidget(promptsLeft);
    m_prompts->setObjectName(QStringLiteral("mcpPrompts"));
    m_prompts->setHeaderLabels({tr("Prompt"), tr("Title")});
    m_prompts->setRootIsDecorated(false);
    promptsLeftLayout->addWidget(m_prompts, 1);
    auto *promptsRight = new QWidget(prompts);
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
    connect(m_get, &QPushButton::clicked, this, &McpServerBrowser::getPrompt);
    promptsRightLayout->addWidget(m_get, 0, Qt::AlignLeft);
    m_promptResult = new ResultPane(QStringLiteral("mcpPrompt"), false, promptsRight);
    promptsRightLayout->addWidget(m_promptResult, 1);
    prompts->setSizes({300, 600});
    tabs->addTab(prompts, tr("Prompts"));
    connect(m_prompts, &QTreeWidget::itemSelectionChanged, this, &McpServerBrowser::onPromptSelected);

    if (m_pool) {
        connect(m_pool, &McpServerPool::serverChanged, this, &McpServerBrowser::onServerChanged);
        connect(m_pool, &McpServerPool::featureListChanged, this, [this](const QString &name, const QString &what) {
            if (name != m_server)
                return;
            if (what == QLatin1String("prompts"))
                listPrompts();
            else
                listResources();
        });
        connect(m_pool, &McpServerPool::resourceUpdated, this, [this](const QString &name, const QString &uri) {
            if (name == m_server && !m_subscribedUri.isEmpty() && uri == m_subscribedUri && m_uri->text() == uri)
                readResource();
        });
    }
    reload();
}

McpServerBrowser::~McpServerBrowser()
{
    // A subscription ends with the window (the server stops sending updates for it).
    QString why;
    if (!m_subscribedUri.isEmpty())
        if (McpClientSession *open = session(&why))
            McpServerFeatures::subscribe(open, m_subscribedUri, false, [](const McpReply &) {});
}

McpClientSession *McpServerBrowser::session(QString *why) const
{
    McpClientSession *ready = m_pool ? m_pool->readySession(m_server) : nullptr;
    if (!ready) {
        const McpServerStatus *status = m_pool ? m_pool->server(m_server) : nullptr;
        *why = tr("MCP server '%1' is not running (%2): start it with Restart in the MCP Servers dock")
                   .arg(printableText(m_server),
                        status ? McpServerStatus::stateName(status->state) : tr("not in the project"));
    }
    return ready;
}

void McpServerBrowser::reload()
{
    QString why;
    m_listedWith = session(&why);
    // A subscription lives in a session: a server started again has none.
    m_subscribedUri.clear();
    {
        const QSignalBlocker blocker(m_subscribe);
        m_subscribe->setChecked(false);
    }
    listResources();
    listPrompts();
}

void McpServerBrowser::listResources()
{
    const int generation = ++m_resourcesGeneration;
    m_resources->clear();
    m_subscribe->setEnabled(false);
    QString why;
    McpClientSession *open = session(&why);
    if (open)
        why = McpServerFeatures::missingCapability(*open, "resources");
    if (!why.isEmpty()) {
        m_resourcesNote->setText(why);
        m_read->setEnabled(false);
        return;
    }
    m_read->setEnabled(true);
    m_subscribe->setEnabled(McpServerFeatures::canSubscribe(*open));
    if (!m_subscribe->isEnabled())
        m_subscribe->setToolTip(tr("The server does not offer subscriptions (resources.subscribe)"));
    m_resourcesNote->setText(tr("Listing…"));
    auto *resources = new QTreeWidgetItem(m_resources, {tr("Resources")});
    auto *templates = new QTreeWidgetItem(m_resources, {tr("Templates")});
    resources->setFlags(Qt::ItemIsEnabled);
    templates->setFlags(Qt::ItemIsEnabled);
    auto notes = std::make_shared<QStringList>();
    auto pending = std::make_shared<int>(2);
    const QPointer<McpServerBrowser> self(this);
    const auto finished = [self, generation, notes, pending] {
        if (--*pending == 0 && self && self->m_resourcesGeneration == generation)
            self->m_resourcesNote->setText(notes->join(u'\n'));
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
            if (!self || self->m_resourcesGeneration != generation)
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
            if (!self || self->m_resourcesGeneration != generation)
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

void McpServerBrowser::onResourceSelected()
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
        connect(field, &QLineEdit::textChanged, this, &McpServerBrowser::updateUriFromTemplate);
        connect(field, &QLineEdit::returnPressed, this, &McpServerBrowser::readResource);
        m_templateForm->addRow(printableText(variable) + QStringLiteral(":"), field);
    }
    updateUriFromTemplate();
}

void McpServerBrowser::updateUriFromTemplate()
{
    if (m_template.isEmpty())
        return;
    QMap<QString, QString> values;
    for (QLineEdit *field : m_templateBox->findChildren<QLineEdit *>())
        values.insert(field->objectName().mid(QStringLiteral("mcpTemplateVar_").size()), field->text());
    QString why;
    m_uri->setText(McpServerFeatures::expandUriTemplate(m_template, values, &why));
}

void McpServerBrowser::readResource()
{
    const QString uri = m_uri->text();
    QString why;
    McpClientSession *open = session(&why);
    const int generation = m_resourceResult->begin(tr("Reading %1…").arg(elidedText(uri, 200)), open);
    if (uri.isEmpty()) {
        m_resourceResult->fail(generation, tr("Pick a resource or type a URI first."));
        return;
    }
    if (!open) {
        m_resourceResult->fail(generation, why);
        return;
    }
    const QPointer<McpServerBrowser> self(this);
    McpServerFeatures::readResource(
        open, uri, [self, generation, uri](const std::vector<McpResourceContents> &contents, const McpReply &reply) {
            if (!self)
                return;
            ResultPane *pane = self->m_resourceResult;
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
            pane->show(generation, {{"content", blocks}}, {}, reply.result, note,
                       !first.problem.isEmpty() ? QString()
                           : first.isBlob       ? QString::fromLatin1(first.blob.toBase64())
                                                : first.text,
                       first.problem.isEmpty() ? bytes : QByteArray(),
                       first.problem.isEmpty() ? suggestedName(uri) : QString());
        });
}

void McpServerBrowser::setSubscribed(bool on)
{
    QString why;
    McpClientSession *open = session(&why);
    const QString uri = on ? m_uri->text() : m_subscribedUri;
    if (!open || uri.isEmpty()) {
        if (on && uri.isEmpty())
            m_resourcesNote->setText(tr("Pick a resource or type a URI to subscribe to."));
        const QSignalBlocker blocker(m_subscribe);
        m_subscribe->setChecked(false);
        return;
    }
    const QPointer<McpServerBrowser> self(this);
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
            self->m_resourcesNote->setText(tr("resources/subscribe failed: %1").arg(reply.errorText()));
            return;
        }
        self->m_resourcesNote->setText(
            tr("Subscribed to %1: it is read again when the server says it changed.").arg(elidedText(uri, 200)));
    });
}

void McpServerBrowser::listPrompts()
{
    const int generation = ++m_promptsGeneration;
    m_prompts->clear();
    QString why;
    McpClientSession *open = session(&why);
    if (open)
        why = McpServerFeatures::missingCapability(*open, "prompts");
    if (!why.isEmpty()) {
        m_promptsNote->setText(why);
        return;
    }
    m_promptsNote->setText(tr("Listing…"));
    const QPointer<McpServerBrowser> self(this);
    McpServerFeatures::listPrompts(
        open, [self, generation](const McpListing<McpPrompt> &listing, const McpReply &reply) {
            if (!self || self->m_promptsGeneration != generation)
                return;
            QStringList notes;
            if (!reply.ok())
                notes << tr("prompts/list failed: %1").arg(reply.errorText());
            if (listing.dropped > 0)
                notes << tr("%1 prompts left out (no name, arguments that are not a list of named arguments)")
                             .arg(listing.dropped);
            if (listing.truncated)
                notes << tr("prompts/list cut short: %1").arg(listing.truncatedWhy);
            self->m_promptsNote->setText(notes.join(u'\n'));
            for (const McpPrompt &prompt : listing.entries) {
                auto *item = new QTreeWidgetItem(self->m_prompts,
                                                 {elidedText(prompt.name, 200), elidedText(prompt.title, 200)});
                item->setData(0, UriRole, prompt.name);
                item->setToolTip(0, plainToolTip(prompt.description));
                QVariantList arguments;
                for (const McpPromptArgument &argument : prompt.arguments)
                    arguments.append(QVariant(QVariantList{argument.name, argument.description, argument.required}));
                item->setData(0, KindRole, arguments);
                item->setData(1, UriRole, prompt.description);
            }
        });
}

void McpServerBrowser::onPromptSelected()
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
    m_promptDescription->setText(printableLines(item->data(1, UriRole).toString()));
    const QVariantList arguments = item->data(0, KindRole).toList();
    m_argumentsBox->setVisible(!arguments.isEmpty());
    for (const QVariant &entry : arguments) {
        const QVariantList argument = entry.toList();
        const QString name = argument.value(0).toString();
        const bool required = argument.value(2).toBool();
        auto *field = new QLineEdit(m_argumentsBox);
        field->setObjectName(QStringLiteral("mcpPromptArg_") + name);
        field->setPlaceholderText(printableText(argument.value(1).toString()).left(200));
        field->setToolTip(plainToolTip(argument.value(1).toString()));
        connect(field, &QLineEdit::returnPressed, this, &McpServerBrowser::getPrompt);
        auto *label = new QLabel(printableText(name) + (required ? QStringLiteral(" *:") : QStringLiteral(":")),
                                 m_argumentsBox);
        label->setTextFormat(Qt::PlainText);
        label->setBuddy(field);
        m_argumentsForm->addRow(label, field);
        if (required)
            m_requiredArguments << name;
    }
}

void McpServerBrowser::getPrompt()
{
    const QList<QTreeWidgetItem *> selected = m_prompts->selectedItems();
    if (selected.isEmpty())
        return;
    const QString name = selected.front()->data(0, UriRole).toString();
    QMap<QString, QString> arguments;
    QStringList missing;
    for (QLineEdit *field : m_argumentsBox->findChildren<QLineEdit *>()) {
        const QString argument = field->objectName().mid(QStringLiteral("mcpPromptArg_").size());
        if (!field->text().isEmpty())
            arguments.insert(argument, field->text());
        else if (m_requiredArguments.contains(argument))
            missing << printableText(argument);
    }
    QString why;
    McpClientSession *open = session(&why);
    const int generation = m_promptResult->begin(tr("Getting %1…").arg(elidedText(name, 200)), open);
    if (!missing.isEmpty()) {
        m_promptResult->fail(generation,
                             tr("Fill in the required arguments: %1").arg(missing.join(QStringLiteral(", "))));
        return;
    }
    if (!open) {
        m_promptResult->fail(generation, why);
        return;
    }
    const QPointer<McpServerBrowser> self(this);
    McpServerFeatures::getPrompt(
        open, name, arguments, [self, generation](const McpPromptResult &prompt, const McpReply &reply) {
            if (!self)
                return;
            ResultPane *pane = self->m_promptResult;
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
            pane->show(generation, {{"content", blocks}}, roles, reply.result, notes.join(u'\n'), texts.join(u'\n'), {},
                       {});
        });
}

void McpServerBrowser::onServerChanged(const QString &name)
{
    if (name != m_server || !m_pool)
        return;
    McpClientSession *now = m_pool->readySession(m_server);
    // A request on a session that ended gets no answer from it any more: said in place.
    const QString stopped = tr("MCP server '%1' stopped before it answered").arg(printableText(m_server));
    for (ResultPane *pane : {m_resourceResult, m_promptResult})
        if (pane->isBusy() && (!pane->session() || pane->session() != now))
            pane->failOpen(stopped);
    if (now && now != m_listedWith)
        reload(); // started again: list what it has now
}
