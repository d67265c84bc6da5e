// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "samplingmodelpanel.h"

#include "llm/samplingmodel.h"
#include "project/printabletext.h"
#include "project/project.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QNetworkAccessManager>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

SamplingModelPanel::SamplingModelPanel(QWidget *parent)
    : QWidget(parent)
{
    auto *label = new QLabel(tr("Or ask a &model:"), this);
    m_models = new QComboBox(this);
    m_models->setObjectName(QStringLiteral("samplingModelChooser"));
    label->setBuddy(m_models);
    m_askButton = new QPushButton(tr("Ask Model"), this);
    m_askButton->setObjectName(QStringLiteral("askModel"));
    m_askButton->setToolTip(tr("Send the server's messages to the chosen model; its text fills the reply, which you "
                               "may edit before Send Reply"));
    m_cancelButton = new QPushButton(tr("Stop"), this);
    m_cancelButton->setObjectName(QStringLiteral("cancelAskModel"));
    m_cancelButton->setToolTip(tr("Stop asking the model; nothing is filled in or sent"));
    m_busy = new QProgressBar(this);
    m_busy->setObjectName(QStringLiteral("askModelBusy"));
    m_busy->setRange(0, 0); // busy: a model's reply has no known length
    m_busy->setMaximumWidth(80);
    m_busy->setTextVisible(false);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("askModelStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(label);
    row->addWidget(m_models, 1);
    row->addWidget(m_busy);
    row->addWidget(m_cancelButton);
    row->addWidget(m_askButton);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_status);

    connect(m_askButton, &QPushButton::clicked, this, &SamplingModelPanel::ask);
    // What the chosen model is not given of the request depends on it (its provider, its params).
    connect(m_models, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_filling && !(m_call && m_call->isRunning()) && m_answer.is_null() && m_request.is_object()
            && !m_request.contains("error"))
            showStatus(beforeAsking(), false);
    });
    connect(m_cancelButton, &QPushButton::clicked, this, &SamplingModelPanel::cancel);
    setBusy(false);
    showStatus(QString(), false);
    hide();
}

SamplingModelPanel::~SamplingModelPanel() = default;

void SamplingModelPanel::setQuestion(const nlohmann::json &question, const std::optional<nlohmann::json> &modelRequest)
{
    cancel();
    m_answer = nullptr;
    const bool sampling = question.is_object() && question.value("kind", nlohmann::json()) == "sampling";
    setVisible(sampling);
    m_request = sampling && modelRequest ? *modelRequest : nlohmann::json();
    const auto tokens = question.is_object() ? question.find("max_tokens") : question.end();
    m_maxTokens = tokens != question.end() && tokens->is_number_integer()
        ? int(std::clamp<qint64>(tokens->get<qint64>(), 0, std::numeric_limits<int>::max()))
        : 0;
    m_note.clear();
    if (const int omitted = m_request.is_object() ? m_request.value("omitted", 0) : 0; omitted > 0)
        m_note = tr("%n block(s) of the messages (an image or audio a model cannot take, in a message or a tool's "
                    "result) are not sent to a model, each replaced by a note in the text.",
                    nullptr, omitted);
    if (!sampling)
        return;
    fillModels();
    preselect();
    if (!m_request.is_object()) { // a question read back without its request (not asked in this process)
        showStatus(tr("The server's messages are not at hand for a model here; write the reply."), false);
        return;
    }
    if (m_request.contains("error")) {
        m_askButton->setEnabled(false);
        showStatus(tr("A model cannot be asked: %1")
                       .arg(printableText(QString::fromStdString(
                           m_request["error"].is_string() ? m_request["error"].get<std::string>() : std::string()))),
                   false);
        return;
    }
    showStatus(beforeAsking(), false);
}

const ModelConfig *SamplingModelPanel::chosenModel() const
{
    const Project *project = m_project ? m_project() : nullptr;
    if (project)
        for (const ModelConfig &candidate : project->models)
            if (candidate.name == m_models->currentText() && candidate.provider != ModelConfig::Provider::Manual)
                return &candidate;
    return nullptr;
}

void SamplingModelPanel::preselect()
{
    m_preference.clear();
    const Project *project = m_project ? m_project() : nullptr;
    const auto hints = m_request.is_object() ? m_request.find("hints") : m_request.end();
    if (project && hints != m_request.end() && hints->is_array() && !hints->empty()) {
        QString hint;
        if (const auto index = SamplingModelCall::preferred(project->models, m_request, &hint)) {
            const QString name = project->models[*index].name;
            m_filling = true;
            m_models->setCurrentIndex(m_models->findText(name));
            m_filling = false;
            m_preference = tr("The server prefers a model like \"%1\": '%2' is chosen.").arg(printableText(hint), name);
        } else {
            QStringList names;
            for (const nlohmann::json &name : *hints)
                if (name.is_string())
                    names << u'"' + elidedText(printableText(QString::fromStdString(name.get<std::string>())), 40)
                            + u'"';
            m_preference = tr("The server prefers a model like %1; none of the project's models matches.")
                               .arg(names.join(QStringLiteral(", ")));
        }
    }
    const auto priorities = m_request.is_object() ? m_request.find("priorities") : m_request.end();
    if (priorities != m_request.end() && priorities->is_object() && !priorities->empty()) {
        QStringList shown;
        const std::pair<const char *, QString> names[] = {
            {"intelligencePriority", tr("intelligence")}, {"speedPriority", tr("speed")}, {"costPriority", tr("cost")}};
        for (const auto &[key, label] : names)
            if (const auto value = priorities->find(key); value != priorities->end() && value->is_number())
                shown << QStringLiteral("%1 %2").arg(label, QString::number(value->get<double>()));
        if (!m_preference.isEmpty())
            m_preference += u'\n';
        m_preference += tr("Its priorities (shown, not acted on): %1.").arg(shown.join(QStringLiteral(", ")));
    }
}

QString SamplingModelPanel::beforeAsking() const
{
    QStringList lines;
    if (!m_preference.isEmpty())
        lines << m_preference;
    if (const ModelConfig *model = chosenModel())
        for (const QString &note : SamplingModelCall::notes(*model, m_request))
            lines << tr("Not as asked: %1.").arg(note);
    if (!m_note.isEmpty())
        lines << m_note;
    return lines.join(u'\n');
}

void SamplingModelPanel::fillModels()
{
    const QString chosen = m_models->currentText();
    m_filling = true;
    m_models->clear();
    const Project *project = m_project ? m_project() : nullptr;
    if (project)
        for (const ModelConfig &model : project->models)
            if (model.provider != ModelConfig::Provider::Manual)
                m_models->addItem(model.name);
    if (const int index = m_models->findText(chosen); index >= 0)
        m_models->setCurrentIndex(index);
    m_filling = false;
    const bool any = m_models->count() > 0;
    m_models->setEnabled(any);
    m_askButton->setEnabled(any && m_request.is_object());
    m_models->setToolTip(
        any ? tr("The project's models that answer by themselves (not provider manual)")
            : tr("No model to ask: add one to \"models\" in toolstudio.json (provider openai-chat, anthropic or "
                 "mock; docs/user/models.md \"Declaring models\"), its key as a secret (Tools ▸ Secrets…)"));
    m_askButton->setToolTip(any ? tr("Send the server's messages to the chosen model; its text fills the reply, "
                                     "which you may edit before Send Reply")
                                : m_models->toolTip());
}

void SamplingModelPanel::ask()
{
    const Project *project = m_project ? m_project() : nullptr;
    const ModelConfig *model = chosenModel();
    if (!project || !model || !m_request.is_object())
        return;
    // One call object per model, so a mock's turns go on from ask to ask.
    if (!m_call || m_call->model().name != model->name) {
        delete m_call;
        QString secretsError;
        Secrets secrets = Secrets::load(project->dir, &secretsError);
        if (!secretsError.isEmpty()) {
            m_call = nullptr;
            showStatus(tr("The project's secrets cannot be read: %1").arg(secretsError), true);
            return;
        }
        if (!m_network)
            m_network = new QNetworkAccessManager(this);
        m_call = new SamplingModelCall(*model, std::move(secrets), m_network, this);
        connect(m_call, &SamplingModelCall::finished, this, [this](const SamplingModelCall::Outcome &outcome) {
            setBusy(false);
            if (!outcome.error.isEmpty()) {
                showStatus(tr("Model '%1' did not answer; nothing was sent to the server: %2")
                               .arg(m_call->model().name, printableText(outcome.error)),
                           true);
                return;
            }
            m_answer = outcome.answer;
            const bool toolCalls = m_answer.contains("content");
            QStringList lines
                = {toolCalls ? tr("Model '%1' answered with a tool call (stop reason toolUse): see it under the tools; "
                                  "Send Tool Call sends it.")
                                   .arg(m_call->model().name)
                             : tr("Model '%1' wrote the reply (stop reason %2). Edit it or Send Reply; an edited reply "
                                  "is sent as the person's.")
                                   .arg(m_call->model().name,
                                        QString::fromStdString(m_answer.value("stopReason", std::string())))};
            const ModelConfig &model = m_call->model();
            const QString id = QString::fromStdString(m_answer.value("model", std::string()));
            if (id != (model.model.isEmpty() ? model.name : model.model))
                lines << tr("The reply names the model %1: the server gets that id.").arg(printableText(id));
            for (const QString &note : outcome.notes)
                lines << tr("Not as asked: %1.").arg(note);
            if (!m_note.isEmpty())
                lines << m_note;
            showStatus(lines.join(u'\n'), false);
            if (toolCalls)
                Q_EMIT repliedWithToolCalls(m_answer);
            else
                Q_EMIT replied(QString::fromStdString(m_answer.value("text", std::string())));
        });
    }
    m_answer = nullptr;
    setBusy(true);
    showStatus(tr("Asking model '%1'…").arg(model->name), false);
    m_call->ask(m_request, m_maxTokens);
}

void SamplingModelPanel::cancel()
{
    if (m_call && m_call->isRunning()) {
        m_call->cancel();
        showStatus(tr("Stopped asking the model."), false);
    }
    setBusy(false);
}

nlohmann::json SamplingModelPanel::answerFor(const QString &text) const
{
    if (m_answer.is_object() && QString::fromStdString(m_answer.value("text", std::string())) == text)
        return m_answer;
    return {{"text", text.toStdString()}};
}

void SamplingModelPanel::showStatus(const QString &text, bool problem)
{
    m_status->setText(text);
    m_status->setStyleSheet(problem ? QStringLiteral("color: #c62828;") : QString());
    m_status->setVisible(!text.isEmpty());
}

void SamplingModelPanel::setBusy(bool busy)
{
    m_busy->setVisible(busy);
    m_cancelButton->setVisible(busy);
    m_askButton->setVisible(!busy);
    m_models->setEnabled(!busy && m_models->count() > 0);
}
