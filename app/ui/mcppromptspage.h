// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMap>
#include <QSplitter>
#include <QStringList>

#include <functional>

class McpClientSession;
class McpInputQuestionView;
class McpResultPane;
class QFormLayout;
class QGroupBox;
class QLabel;
class QPushButton;
class QTreeWidget;

/// The Prompts tab of McpServerBrowser (docs/mcp.md "Resources and prompts"):
/// prompts/list on the left; on the right the prompt's description, an argument form
/// (required ones marked `*`; the server's completions offered as one types:
/// McpCompletionField), and *Get*, which shows the messages prompts/get returns,
/// each with its role (McpResultPane). A 2026-era server's questions before it answers
/// (`input_required`) are answered in place (McpInputQuestionView), as on the Resources tab.
class McpPromptsPage : public QSplitter
{
    Q_OBJECT
public:
    /// The server's ready session, or nullptr with the reason in `why`.
    using Session = std::function<McpClientSession *(QString *why)>;

    /// `server`: the project's name of the server (shown with its questions).
    McpPromptsPage(const QString &server, Session session, QWidget *parent = nullptr);

    /// Lists the prompts again.
    void list();
    McpResultPane *result() const { return m_result; }

private:
    void onPromptSelected();
    void getPrompt();
    /// The argument fields now, by argument name (empty ones too).
    QMap<QString, QString> argumentValues() const;

    Session m_session;
    QLabel *m_note = nullptr;
    QTreeWidget *m_prompts = nullptr;
    QLabel *m_promptDescription = nullptr;
    QGroupBox *m_argumentsBox = nullptr;
    QFormLayout *m_argumentsForm = nullptr;
    QStringList m_requiredArguments;
    QPushButton *m_get = nullptr;
    McpResultPane *m_result = nullptr;
    McpInputQuestionView *m_question = nullptr;
    /// Generation of the list: an answer for an older one is dropped.
    int m_generation = 0;
};
