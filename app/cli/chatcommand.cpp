// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "chatcommand.h"

#include "answerdelivery.h"
#include "chatapproval.h"
#include "engine/modelstep.h"
#include "headlessrun.h"
#include "journal/journal.h"
#include "project/printabletext.h"
#include "run/chatrun.h"
#include "run/chatturn.h"
#include "run/warmlauncher.h"
#include "trustcommand.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QDir>
#include <QEventLoop>
#include <QThread>

namespace {

/// How one turn is printed: the reply on stdout, the rest on stderr; or JSON lines.
class ChatOutput
{
public:
    ChatOutput(const QString &projectDir, bool json)
        : m_dir(projectDir)
        , m_json(json)
    {}

    void json(const nlohmann::json &line) const
    {
        printLine(stdout, QString::fromStdString(line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
    }

    void started(const QString &runId) const
    {
        if (m_json)
            json({{"event", "run"}, {"id", runId.toStdString()}, {"kind", "chat"}});
    }

    /// A call of the turn, one line on stderr: `[tool] name {args} -> result`.
    void step(const Step &step) const
    {
        if (m_json) {
            json(stepJson(step));
            return;
        }
        if (ModelSteps::isModelStep(step.tool)) {
            const nlohmann::json usage = step.result ? step.result->value("usage", nlohmann::json()) : nlohmann::json();
            QString line = QStringLiteral("[%1] %2").arg(printableText(step.tool), stepStatusName(step.status));
            if (usage.is_object())
                line += QStringLiteral(" (%1 + %2 tokens)")
                            .arg(usage.value("input_tokens", 0))
                            .arg(usage.value("output_tokens", 0));
            if (step.error)
                line += QStringLiteral(": ") + printableText(QString::fromStdString(step.error->message));
            printLine(stderr, line);
            return;
        }
        QString line = QStringLiteral("[tool] %1 %2").arg(printableText(step.tool), printableText(summary(step.args)));
        if (step.result)
            line += QStringLiteral(" -> ") + printableText(summary(*step.result));
        if (step.error)
            line += QStringLiteral(" -> %1: %2")
                        .arg(printableText(step.error->codeName()),
                             printableText(QString::fromStdString(step.error->message)));
        printLine(stderr, line);
    }

    void waits(const Step &step) const
    {
        printLine(stderr,
                  QStringLiteral("toolstudio chat: call %1 (%2) waits for an answer: toolstudio answer %3 %4 %5 "
                                 "--result JSON | --error MESSAGE")
                      .arg(printableText(step.callId), printableText(step.tool), shellQuoted(m_dir),
                           shellQuoted(step.runId), shellQuoted(step.callId)));
    }

    /// The turn's end: the reply (exit 0) or why the turn failed (exit 1); the chat waits.
    int replied(const QString &runId, const ChatRun::Input &next) const
    {
        if (m_json) {
            nlohmann::json line = {{"event", "reply"}, {"id", runId.toStdString()}, {"turn", next.turn - 1}};
            if (next.reply)
                line["text"] = next.reply->toStdString();
            if (!next.error.isEmpty())
                line["error"] = next.error.toStdString();
            json(line);
        } else if (next.reply) {
            printLine(stdout, printableLines(*next.reply));
        }
        if (!next.error.isEmpty())
            printLine(stderr, QStringLiteral("toolstudio chat: the turn failed: %1").arg(printableText(next.error)));
        printLine(stderr,
                  QStringLiteral("chat run %1 waits for the next message: toolstudio chat %2 --continue %3 MESSAGE")
                      .arg(printableText(runId), shellQuoted(m_dir), shellQuoted(runId)));
        return next.error.isEmpty() ? ExitCompleted : ExitRunFailed;
    }

    int ended(const RunRecord &run) const
    {
        if (m_json) {
            nlohmann::json line
                = {{"event", "end"}, {"id", run.id.toStdString()}, {"status", runStatusName(run.status).toStdString()}};
            if (!run.error.isEmpty())
                line["error"] = run.error.toStdString();
            json(line);
        }
        printLine(stderr,
                  QStringLiteral("toolstudio chat: run %1 %2 before it asked for the next message%3")
                      .arg(printableText(run.id), runStatusName(run.status),
                           run.error.isEmpty() ? QString() : QStringLiteral(": ") + printableText(run.error)));
        return ExitRunFailed;
    }

private:
    QString m_dir;
    bool m_json;
};

/// Runs `turn` (started already) until it replies or its run ends; the run then stays
/// waiting for the next message.
/// `then` (a message and a model): sent when the turn replies, and that turn printed too.
/// `approval`: decides the tool calls held for approval (--approve).
int runTurn(ChatTurn &turn, const ChatOutput &output, ChatApproval *approval,
            std::optional<QPair<QString, QString>> then = std::nullopt)
{
    QEventLoop loop;
    if (approval)
        QObject::connect(&turn, &ChatTurn::held, &loop,
                         [&turn, approval](const Step &step) { approval->decide(step, turn.controller()); });
    QObject::connect(&turn, &ChatTurn::stepEnded, &loop, [&](const Step &step) { output.step(step); });
    QObject::connect(&turn, &ChatTurn::waitsForPerson, &loop, [&](const Step &step) { output.waits(step); });
    QObject::connect(&turn, &ChatTurn::replied, &loop, [&](const ChatRun::Input &next) {
        if (then) {
            // The cut-off turn's reply, then the message on the same run.
            output.replied(turn.runId(), next);
            const auto [message, model] = *std::exchange(then, std::nullopt);
            QString error;
            if (turn.send(message, model, &error))
                return;
            printLine(stderr, QStringLiteral("toolstudio chat: %1").arg(error));
            turn.keepForLater();
            loop.exit(ExitRunFailed);
            return;
        }
        turn.keepForLater();
        loop.exit(output.replied(turn.runId(), next));
    });
    QObject::connect(&turn, &ChatTurn::refused, &loop, [&](const QString &reason) {
        printLine(stderr, QStringLiteral("toolstudio chat: the message was refused: %1").arg(printableText(reason)));
        turn.keepForLater();
        loop.exit(ExitRunFailed);
    });
    QObject::connect(&turn, &ChatTurn::ended, &loop, [&](const RunRecord &run) { loop.exit(output.ended(run)); });
    output.started(turn.runId());
    return loop.exec();
}

/// --continue, when another process runs the chat (the window, a server) and took the
/// message: follows the journal until the chat asks for the next message or the run
/// stops, and prints the turn.
int followTurn(const Project &project, const ChatRun::Input &answered, const ChatOutput &output)
{
    output.started(answered.step.runId);
    for (;;) {
        QThread::msleep(100);
        Journal journal;
        QString error;
        if (!journal.open(project.journalPath(), &error)) {
            printLine(stderr, QStringLiteral("toolstudio chat: %1").arg(error));
            return ExitRunFailed;
        }
        const auto run = journal.run(answered.step.runId);
        if (!run)
            return ExitRunFailed;
        const std::vector<Step> steps = journal.steps(run->id);
        const auto next = ChatRun::openInput(steps);
        if (next && next->turn > answered.turn) {
            for (const Step &step : steps)
                if (step.sequence > answered.step.sequence && step.sequence < next->step.sequence)
                    output.step(step);
            return output.replied(run->id, *next);
        }
        if (isFinal(run->status) || run->status == RunStatus::Suspended)
            return output.ended(*run);
    }
}

int fail(const QString &message, int code = ExitBadInput)
{
    printLine(stderr, QStringLiteral("toolstudio chat: %1").arg(message));
    return code;
}

QString modelNames(const Project &project)
{
    QStringList names;
    for (const ModelConfig &model : project.models)
        names << model.name;
    return names.join(QStringLiteral(", "));
}

/// A chat's input for --continue: the call that waits for the message, or (`cutOff`)
/// the last answered one of a suspended chat whose turn after it was cut off (its
/// process was killed mid-turn): resuming finishes that turn, then the message goes.
struct ChatInput
{
    ChatRun::Input input;
    bool cutOff = false;
};

/// The chat run `runId`'s input for --continue, or nullopt after printing why there is
/// none (exit 2).
std::optional<ChatInput> waitingInput(const Project &project, const QString &runId)
{
    Journal journal; // opening it suspends runs whose process is gone (a chat's last turn)
    QString error;
    if (!journal.open(project.journalPath(), &error)) {
        fail(error);
        return std::nullopt;
    }
    const auto run = journal.run(runId);
    if (!run) {
        fail(QStringLiteral("no run '%1' in this project (toolstudio runs %2 lists them)")
                 .arg(printableText(runId), shellQuoted(project.dir)));
        return std::nullopt;
    }
    if (run->kind != RunKind::Chat && !ChatRun::isChatScript(project, run->scriptPath)) {
        fail(QStringLiteral("run %1 is not a chat run (it ran %2)")
                 .arg(run->id, printableText(QDir(project.dir).relativeFilePath(run->scriptPath))));
        return std::nullopt;
    }
    if (isFinal(run->status)) {
        fail(QStringLiteral("chat run %1 is %2; nothing waits for a message: start a new chat with toolstudio chat "
                            "%3 MESSAGE")
                 .arg(run->id, runStatusName(run->status), shellQuoted(project.dir)));
        return std::nullopt;
    }
    const std::vector<Step> steps = journal.steps(run->id);
    if (const auto input = ChatRun::openInput(steps))
        return ChatInput{*input, false};
    if (run->status == RunStatus::Suspended)
        if (const auto last = ChatRun::lastInput(steps))
            return ChatInput{*last, true};
    fail(QStringLiteral("chat run %1 is %2 and does not wait for a message (a turn is still going on)")
             .arg(run->id, runStatusName(run->status)));
    return std::nullopt;
}

} // namespace

int chatCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Chat with a model over the project's tools: one user turn, printed as the model's reply."));
    parser.addPositionalArgument(QStringLiteral("PROJECT"), QStringLiteral("The project folder (with models)."));
    parser.addPositionalArgument(QStringLiteral("MESSAGE"), QStringLiteral("The user's message."));
    const QCommandLineOption modelOption(QStringLiteral("model"),
                                         QStringLiteral("The model of toolstudio.json to ask (default: the first); "
                                                        "with --continue it switches the model."),
                                         QStringLiteral("NAME"));
    const QCommandLineOption systemOption(QStringLiteral("system"), QStringLiteral("A system prompt for a new chat."),
                                          QStringLiteral("TEXT"));
    const QCommandLineOption continueOption(QStringLiteral("continue"),
                                            QStringLiteral("Add the next user turn to the chat run RUN."),
                                            QStringLiteral("RUN"));
    const QCommandLineOption jsonOption(QStringLiteral("json"), QStringLiteral("Print JSON lines instead of text."));
    const QCommandLineOption approveOption(
        QStringLiteral("approve"),
        QStringLiteral("Hold each tool call the model asks for and read the decision from stdin, a line a call: y "
                       "(run it), n (reject it; the model reads the rejection), e JSON (run it with these "
                       "arguments), a JSON (answer instead with this result)."));
    parser.addOptions({modelOption, systemOption, continueOption, jsonOption, approveOption, trustOption()});
    int exitCode = ExitCompleted;
    const auto positional = parseArguments(parser, QStringLiteral("chat"), arguments, 2, 2, &exitCode);
    if (!positional)
        return exitCode;
    const QString message = positional->at(1);
    if (message.trimmed().isEmpty())
        return fail(QStringLiteral("the message is empty"));
    const bool continuing = parser.isSet(continueOption);
    if (continuing && parser.isSet(systemOption))
        return fail(QStringLiteral("--system is for a new chat; a chat keeps the system prompt it started with"));
    const auto project
        = loadProjectToRun(QStringLiteral("chat"), positional->at(0), parser.isSet(QStringLiteral("trust")), &exitCode);
    if (!project)
        return exitCode;
    if (project->models.empty())
        return fail(QStringLiteral("the project declares no models: add one under \"models\" in toolstudio.json "
                                   "(docs/models.md)"));
    QString model = parser.value(modelOption);
    if (!model.isEmpty() && !project->model(model))
        return fail(QStringLiteral("no model named '%1' in this project (toolstudio.json 'models' has: %2)")
                        .arg(printableText(model), modelNames(*project)));
    const ChatOutput output(project->dir, parser.isSet(jsonOption));
    ChatTurn turn;
    // One turn, then the command exits: there is no next run to pre-warm for.
    turn.controller().warmLauncher()->setEnabled(false);
    std::optional<ChatApproval> approval;
    if (parser.isSet(approveOption)) {
        approval.emplace(stdin, parser.isSet(jsonOption));
        turn.controller().setApprovesToolCalls(true);
    }
    ChatApproval *approver = approval ? &*approval : nullptr;
    QString error;
    if (!continuing) {
        if (model.isEmpty())
            model = project->models.front().name;
        if (!turn.start(*project, model, parser.value(systemOption), message, &error))
            return fail(error);
        return runTurn(turn, output, approver);
    }

    const QString runId = parser.value(continueOption);
    const auto waiting = waitingInput(*project, runId);
    if (!waiting)
        return ExitBadInput;
    if (waiting->cutOff) {
        if (!turn.resume(*project, runId, waiting->input, &error))
            return fail(error, ExitRunFailed);
        return runTurn(turn, output, approver, qMakePair(message, model));
    }
    const ChatRun::Input *input = &waiting->input;
    PendingAnswer pending;
    pending.runId = runId;
    pending.callId = input->step.callId;
    pending.createdAt = QDateTime::currentMSecsSinceEpoch();
    pending.answer.result = ChatRun::answer(message, model);
    const AnswerDelivery delivery = AnswerDelivery::deliver(ChatRun::projectFor(*project), pending, false, 10);
    switch (delivery.state) {
    case AnswerDelivery::State::Failed:
        return fail(delivery.message, delivery.exitCode);
    case AnswerDelivery::State::Accepted:
        if (approver) // the process running the chat holds its calls, not this one
            printLine(stderr,
                      QStringLiteral("toolstudio chat: another process runs chat run %1 (the window, a "
                                     "server) and took the message; --approve has no effect here: "
                                     "its calls are decided there")
                          .arg(printableText(runId)));
        return followTurn(*project, *input, output);
    case AnswerDelivery::State::Kept:
        break;
    }
    if (!turn.resume(*project, runId, *input, &error))
        return fail(error, ExitRunFailed);
    return runTurn(turn, output, approver);
}
