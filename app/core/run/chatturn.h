// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/project.h"
#include "project/step.h"
#include "run/chatrun.h"
#include "run/runcontroller.h"

#include <QObject>

#include <nlohmann/json.hpp>

/// One user turn of a chat run in this process (docs/models.md "Chat"), for
/// `toolstudio chat` and the Chat dock: starts a chat with its first message, or resumes
/// a suspended one whose waiting input call has its answer kept in the journal, or
/// answers the input of a chat this process runs; then reports the turn's tool calls and,
/// when the chat asks for the next message, the reply. The run then waits for the person:
/// keep it (the window), or keepForLater() (the command line, the dock's New Chat) — the
/// run is suspended then, and the next turn resumes it.
class ChatTurn : public QObject
{
    Q_OBJECT
public:
    explicit ChatTurn(QObject *parent = nullptr);
    ~ChatTurn() override;

    RunController &controller() { return m_controller; }
    /// The chat's run id (once started or resumed).
    QString runId() const { return m_controller.record().id; }

    /// A new chat: its first message `message` to `model` (a model of the project), with
    /// the system prompt `system` if not empty. False with `error` when it cannot start.
    bool start(const Project &project, const QString &model, const QString &system, const QString &message,
               QString *error);
    /// Resumes the suspended chat `runId` whose input call `answered` has its answer kept
    /// in the journal (PendingAnswerIntake): the reply is the next input's.
    bool resume(const Project &project, const QString &runId, const ChatRun::Input &answered, QString *error);
    /// The next message of a chat this process runs and whose input call waits (the Chat
    /// dock after a reply): answers it; `model` (optional) switches the model.
    bool send(const QString &message, const QString &model, QString *error);
    /// The command line's end, the dock's New Chat: the sandbox goes, the input call stays
    /// waiting for the next message and the run is recorded suspended at once
    /// (RunController::suspend), so it can be continued or resumed while this process lives.
    void keepForLater();

Q_SIGNALS:
    /// A project tool's call of this turn ended (final status), or a model turn did.
    void stepEnded(const Step &step);
    /// A model turn's reply so far while it streams (docs/models.md "Streaming"): the
    /// running attempt's Attempt::streamed of the model step `sequence`; empty when that
    /// attempt ended (the step's end follows, or a retry streams anew). Delivered with the
    /// step batches, on this object's thread, at most once a frame.
    void replyStreamed(int sequence, const QString &text);
    /// A call of this turn waits for a person (a manual tool, a manual model's turn).
    void waitsForPerson(const Step &step);
    /// A tool call the model asked for is held for approval (RunController::setApprovesToolCalls):
    /// decide it with the controller's continueStep / answerStep.
    void held(const Step &step);
    /// The turn is over: the chat asks for the next message; `next.reply` is the model's
    /// final text, or `next.error` says why the turn failed (the chat goes on).
    void replied(const ChatRun::Input &next);
    /// The answer with the message was refused (`reason`); the input still waits.
    void refused(const QString &reason);
    /// The run ended (failed, timed out, stopped) instead of asking for a message.
    void ended(const RunRecord &run);

private:
    bool begin(const Project &project, QString *error);
    void onPendingCall(const Step &step);
    void answer(const Step &step, const nlohmann::json &value);

    RunController m_controller;
    /// The turn whose message is sent (or to send, `m_message` set): its reply is the
    /// input of the turn after it.
    int m_turn = 0;
    int m_afterSequence = 0; ///< steps up to this one are earlier turns' (a resumed chat)
    std::optional<nlohmann::json> m_message;
    std::optional<ChatRun::Input> m_waiting; ///< the input call that waits for the person
    std::vector<bool> m_reported;            ///< by sequence − 1: stepEnded went out
    int m_streaming = 0;                     ///< the model step whose reply was streamed last
    QString m_streamed;                      ///< what replyStreamed said of it last
};
