// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/chatturn.h"

#include "engine/modelstep.h"

#include <QTimer>

ChatTurn::ChatTurn(QObject *parent)
    : QObject(parent)
{
    connect(&m_controller, &RunController::pendingCallOpened, this, [this](const Step &step) {
        // Answer after the engine has finished opening the call.
        QTimer::singleShot(0, this, [this, step] { onPendingCall(step); });
    });
    connect(&m_controller, &RunController::stepsUpdated, this, [this](const QList<Step> &steps) {
        for (const Step &step : steps) {
            if (!isFinal(step.status) && step.sequence > m_afterSequence && ModelSteps::isModelStep(step.tool)) {
                const QString text = step.status == StepStatus::Running && !step.attempts.empty()
                    ? step.attempts.back().streamed
                    : QString();
                if (step.sequence != m_streaming || text != m_streamed) {
                    m_streaming = step.sequence;
                    m_streamed = text;
                    Q_EMIT replyStreamed(step.sequence, text);
                }
            }
            if (!isFinal(step.status) || step.sequence < 1 || step.tool == QLatin1String(ChatRun::InputTool))
                continue;
            if (m_reported.size() < std::size_t(step.sequence))
                m_reported.resize(std::size_t(step.sequence), false);
            // A resumed chat's recorded steps belong to earlier turns.
            if (m_reported[std::size_t(step.sequence - 1)] || step.sequence <= m_afterSequence)
                continue;
            m_reported[std::size_t(step.sequence - 1)] = true;
            Q_EMIT stepEnded(step);
        }
    });
    connect(&m_controller, &RunController::stepPaused, this, &ChatTurn::held);
    connect(&m_controller, &RunController::finished, this, [this](const RunRecord &run) { Q_EMIT ended(run); });
}

ChatTurn::~ChatTurn() = default;

bool ChatTurn::begin(const Project &project, QString *error)
{
    // The studio's script, as this studio ships it (a resumed chat memoizes its steps).
    return !ChatRun::writeScript(project.dir, error).isEmpty();
}

bool ChatTurn::start(const Project &project, const QString &model, const QString &system, const QString &message,
                     QString *error)
{
    if (!begin(project, error))
        return false;
    m_turn = 1;
    m_afterSequence = 0;
    m_message = ChatRun::answer(message, model, system);
    m_waiting.reset();
    m_reported.clear();
    return m_controller.start(project, ChatRun::scriptPath(project.dir), error);
}

bool ChatTurn::resume(const Project &project, const QString &runId, const ChatRun::Input &answered, QString *error)
{
    if (!begin(project, error))
        return false;
    m_turn = answered.turn;
    m_afterSequence = answered.step.sequence;
    m_message.reset(); // the journal has it
    m_waiting.reset();
    m_reported.clear();
    return m_controller.resume(project, runId, error);
}

bool ChatTurn::send(const QString &message, const QString &model, QString *error)
{
    if (!m_waiting || !m_controller.isActive()) {
        *error = tr("the chat does not wait for a message");
        return false;
    }
    m_turn = m_waiting->turn;
    const Step step = std::exchange(m_waiting, std::nullopt)->step;
    answer(step, ChatRun::answer(message, model));
    return true;
}

void ChatTurn::keepForLater()
{
    m_controller.suspend();
}

void ChatTurn::onPendingCall(const Step &step)
{
    const std::optional<ChatRun::Input> input = ChatRun::inputOf(step);
    if (!input) {
        Q_EMIT waitsForPerson(step);
        return;
    }
    if (input->turn == m_turn && m_message) {
        answer(step, *std::exchange(m_message, std::nullopt));
        return;
    }
    if (input->turn > m_turn) {
        m_waiting = input;
        Q_EMIT replied(*input);
    }
    // turn == m_turn without a message: a resumed input whose answer the journal keeps.
}

void ChatTurn::answer(const Step &step, const nlohmann::json &value)
{
    const Attempt *attempt = step.currentAttempt();
    ManualAnswer answer;
    answer.result = value;
    m_controller.answer(step.callId, attempt ? attempt->number : 1, answer, this,
                        [this, step](bool accepted, const QString &reason) {
                            if (accepted)
                                return;
                            // The input still waits: the person may send another message.
                            m_waiting = ChatRun::inputOf(step);
                            Q_EMIT refused(reason);
                        });
}
