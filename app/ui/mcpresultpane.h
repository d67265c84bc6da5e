// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpclientsession.h"

#include <QPointer>
#include <QWidget>

#include <nlohmann/json.hpp>

class ContentBlocksView;
class JsonTreeModel;
class QLabel;
class QProgressBar;
class QPushButton;

/// The lower half of a tab of McpServerBrowser: a busy bar, a status line (errors in
/// place), the answer as content and as a tree, and Copy / Copy as JSON / Save As….
/// Object names start with `prefix` ("mcpResource" → mcpResourceBusy, …Status,
/// …Content, …Tree, …Copy, …CopyJson, …Save).
class McpResultPane : public QWidget
{
    Q_OBJECT
public:
    /// `saveable`: with Save As… (a resource's text or decoded blob).
    McpResultPane(const QString &prefix, bool saveable, QWidget *parent = nullptr);

    /// Starts a request: busy, the last answer cleared. Returns its generation.
    int begin(const QString &what, McpClientSession *session);
    bool isCurrent(int generation) const { return generation == m_generation; }
    bool isBusy() const;
    /// The session of the open request (null once it was deleted).
    McpClientSession *session() const { return m_session; }

    /// Ends request `generation` (if still current) with `why` in the status line.
    void fail(int generation, const QString &why);
    /// Fails the open request, if any (the server stopped).
    void failOpen(const QString &why);
    /// Ends request `generation` (if still current) with its answer: `blocks` (MCP
    /// content, `labels` one per block) in the content view, `raw` in the tree, `note`
    /// in the status line; Copy takes `copyText`, Save As `saveBytes` under `saveName`.
    void showAnswer(int generation, const nlohmann::json &blocks, const QStringList &labels, const nlohmann::json &raw,
                    const QString &note, const QString &copyText, const QByteArray &saveBytes, const QString &saveName);

private:
    void setAnswer(const nlohmann::json &blocks, const QStringList &labels, const nlohmann::json &raw,
                   const QString &copyText, const QByteArray &saveBytes, const QString &saveName);
    void save();

    QProgressBar *m_busy = nullptr;
    QLabel *m_status = nullptr;
    ContentBlocksView *m_content = nullptr;
    JsonTreeModel *m_treeModel = nullptr;
    QPushButton *m_copy = nullptr;
    QPushButton *m_copyJson = nullptr;
    QPushButton *m_save = nullptr;
    nlohmann::json m_raw;
    QString m_copyText;
    QByteArray m_saveBytes;
    QString m_saveName;
    QPointer<McpClientSession> m_session;
    int m_generation = 0;
};
