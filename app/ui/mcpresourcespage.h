// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMap>
#include <QSplitter>

#include <functional>

class McpClientSession;
class McpInputQuestionView;
class McpResultPane;
class QCheckBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;

/// The Resources tab of McpServerBrowser (docs/mcp.md "Resources and prompts"): the
/// server's resources and resource templates (resources/list and
/// resources/templates/list, every page) on the left; on the right a template's form
/// (RFC 6570 level 1: a field per `{variable}`, making the URI as it is typed, offering
/// the server's completions: McpCompletionField), the URI,
/// *Read* (resources/read) with its answer (McpResultPane, savable), and *Subscribe*
/// (when the server offers it): the resource is read again each time the server says it
/// changed. One subscription at a time; it ends with the page. A 2026-era server that
/// asks for input before it answers a read (`input_required`) is answered in place
/// (McpInputQuestionView); another read waits until that question is answered or
/// cancelled.
class McpResourcesPage : public QSplitter
{
    Q_OBJECT
public:
    /// The server's ready session, or nullptr with the reason in `why`.
    using Session = std::function<McpClientSession *(QString *why)>;

    /// `server`: the project's name of the server (shown with its questions).
    McpResourcesPage(const QString &server, Session session, QWidget *parent = nullptr);
    /// Ends the subscription, if any (the server stops sending updates for it).
    ~McpResourcesPage() override;

    /// Lists the resources and templates again.
    void list();
    /// A new session has no subscription: the one of the last is forgotten, not ended.
    void forgetSubscription();
    /// The server says `uri` changed: read again when it is the one subscribed to — at
    /// most one read at a time, the updates that come meanwhile one more read after it
    /// (a flood of updates is not a flood of resources/read, attack33 F2).
    void resourceUpdated(const QString &uri);
    /// The server ended the subscription (`why`): the box is cleared and says so.
    void subscriptionEnded(const QString &why);
    McpResultPane *result() const { return m_result; }

Q_SIGNALS:
    /// Reload was pressed: the resources, templates and prompts are to be listed again.
    void reloadRequested();

private:
    void onResourceSelected();
    void updateUriFromTemplate();
    /// The template's fields now, by variable.
    QMap<QString, QString> templateValues() const;
    void readResource();
    void setSubscribed(bool on);

    Session m_session;
    QLabel *m_note = nullptr;
    QTreeWidget *m_resources = nullptr;
    QGroupBox *m_templateBox = nullptr;
    QFormLayout *m_templateForm = nullptr;
    QLabel *m_templateNote = nullptr;
    QString m_template;
    QLineEdit *m_uri = nullptr;
    QPushButton *m_read = nullptr;
    QCheckBox *m_subscribe = nullptr;
    QString m_subscribedUri;
    McpResultPane *m_result = nullptr;
    McpInputQuestionView *m_question = nullptr;
    /// Generation of the lists: an answer for an older one is dropped.
    int m_generation = 0;
    int m_readsInFlight = 0;
    /// An update came while a read was in flight: read once more after it.
    bool m_readAgain = false;
};
