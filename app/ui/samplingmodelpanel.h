// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>

class Project;
struct ModelConfig;
class QComboBox;
class QLabel;
class QNetworkAccessManager;
class QProgressBar;
class QPushButton;
class SamplingModelCall;

/// **Ask Model** for an MCP server's sampling request in the answer pane (docs/mcp.md "A
/// model writes the reply"): a chooser of the project's models that are not `manual`,
/// the button, a busy bar with **Cancel** while the model is asked (a
/// SamplingModelCall: the request never blocks the GUI thread) and a line for what went
/// wrong or what was left out. The model's text goes to replied() (the pane fills its
/// Reply field with it), its tool calls to repliedWithToolCalls() (SamplingToolsView); nothing is sent to the server from here. answerFor() tells the
/// pane what to send: the model's answer when the text is still what the model wrote.
/// Without a model to ask the chooser is disabled and its tooltip says how to add one.
class SamplingModelPanel : public QWidget
{
    Q_OBJECT
public:
    using ProjectLookup = std::function<const Project *()>;

    explicit SamplingModelPanel(QWidget *parent = nullptr);
    ~SamplingModelPanel() override;

    /// Where the models and the secrets come from: the window's open project.
    void setProjectLookup(ProjectLookup lookup) { m_project = std::move(lookup); }
    const ProjectLookup &projectLookup() const { return m_project; }
    /// Shown for a sampling `question` (Attempt::question) with the request a model is
    /// given (Attempt::modelRequest); hidden for anything else. Stops a running ask.
    void setQuestion(const nlohmann::json &question, const std::optional<nlohmann::json> &modelRequest);
    /// What to send for the reply `text`: {"text", "model", "stopReason"} while it is the
    /// model's text unedited, else {"text"} (a person wrote it: "model": "person").
    nlohmann::json answerFor(const QString &text) const;

public Q_SLOTS:
    /// Asks the chosen model; replied() or a message in the pane follows.
    void ask();
    /// Stops the running ask; nothing is filled in.
    void cancel();

Q_SIGNALS:
    /// The model wrote `text` for the reply.
    void replied(const QString &text);
    /// The model answered with tool calls: `answer` is {"content": [tool_use blocks],
    /// "model", "stopReason": "toolUse"} (SamplingModelCall::answerOf).
    void repliedWithToolCalls(const nlohmann::json &answer);

private:
    void fillModels();
    /// Chooses the model the request's hints prefer (SamplingModelCall::preferred) and
    /// words the server's preferences in m_preference.
    void preselect();
    /// What a person reads before asking: the server's preferences, what the chosen model
    /// is not given as asked (SamplingModelCall::notes), what the text leaves out.
    QString beforeAsking() const;
    const ModelConfig *chosenModel() const;
    void showStatus(const QString &text, bool problem);
    void setBusy(bool busy);

    ProjectLookup m_project;
    nlohmann::json m_request; ///< Attempt::modelRequest of the shown question
    int m_maxTokens = 0;      ///< the server's maxTokens, 0 when it sent none
    nlohmann::json m_answer;  ///< the model's last answer, null when none
    QString m_note;           ///< what the request leaves out, said under the button
    QString m_preference;     ///< the server's model hints and priorities, worded
    bool m_filling = false;   ///< the chooser is being filled: not the person's choice
    QNetworkAccessManager *m_network = nullptr;
    SamplingModelCall *m_call = nullptr;
    QComboBox *m_models = nullptr;
    QPushButton *m_askButton = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QProgressBar *m_busy = nullptr;
    QLabel *m_status = nullptr;
};
