// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "answercommand.h"

#include "headlessrun.h"
#include "journal/journal.h"
#include "jsoninput.h"
#include "project/project.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QElapsedTimer>
#include <QThread>

namespace {

/// True when step mode holds `step` (or held it when its run stopped): its latest
/// step-mode event in the journal is `step_paused`, with no `step_decision` nor a
/// `resumed` (a resume takes the call up again) after it. The engine flushes a held
/// step and its event to SQLite at once (docs/steps.md "The commit path").
bool heldByStepMode(const Journal &journal, const QString &runId, const Step &step)
{
    if (isFinal(step.status))
        return false;
    std::optional<PolicyEventKind> last;
    for (const PolicyEvent &event : journal.events(runId))
        if (event.sequence == step.sequence
            && (event.kind == PolicyEventKind::StepPaused || event.kind == PolicyEventKind::StepDecision
                || event.kind == PolicyEventKind::Resumed))
            last = event.kind;
    return last == PolicyEventKind::StepPaused;
}

/// True when `tool` is answered by a person (a manual tool): only such a call waits
/// for an answer again when its suspended run is resumed.
bool waitsForPerson(const Project &project, const QString &tool)
{
    const Tool *found = project.tool(tool);
    return found && found->handler == HandlerKind::Manual;
}

} // namespace

int answerCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Answer a pending call of a run waiting in another process."));
    parser.addPositionalArgument(QStringLiteral("PROJECT"), QStringLiteral("The project folder."));
    parser.addPositionalArgument(QStringLiteral("RUN"), QStringLiteral("The run id."));
    parser.addPositionalArgument(QStringLiteral("CALL_ID"), QStringLiteral("The call id (e.g. c3)."));
    const QCommandLineOption resultOption(QStringLiteral("result"), QStringLiteral("The result, as JSON."),
                                          QStringLiteral("JSON"));
    const QCommandLineOption errorOption(QStringLiteral("error"), QStringLiteral("Fail the call with MESSAGE."),
                                         QStringLiteral("MESSAGE"));
    const QCommandLineOption retryableOption(QStringLiteral("retryable"),
                                             QStringLiteral("With --error: the engine may try again."));
    const QCommandLineOption attemptOption(QStringLiteral("attempt"),
                                           QStringLiteral("The attempt answered (default: the current one)."),
                                           QStringLiteral("N"));
    const QCommandLineOption timeoutOption(QStringLiteral("timeout"),
                                           QStringLiteral("Seconds to wait for the running process (default 10)."),
                                           QStringLiteral("SECONDS"), QStringLiteral("10"));
    parser.addOptions({resultOption, errorOption, retryableOption, attemptOption, timeoutOption});
    int exitCode = ExitCompleted;
    const auto positional = parseArguments(parser, QStringLiteral("answer"), arguments, 3, 3, &exitCode);
    if (!positional)
        return exitCode;
    auto fail = [](const QString &message, int code) {
        printLine(stderr, QStringLiteral("toolstudio answer: %1").arg(printableText(message)));
        return code;
    };
    if (parser.isSet(resultOption) == parser.isSet(errorOption))
        return fail(QStringLiteral("give exactly one of --result JSON and --error MESSAGE"), ExitBadInput);
    PendingAnswer pending;
    pending.runId = positional->at(1);
    pending.callId = positional->at(2);
    pending.createdAt = QDateTime::currentMSecsSinceEpoch();
    if (parser.isSet(resultOption)) {
        const std::string text = parser.value(resultOption).toStdString();
        if (const std::string bound = JsonInput::limitProblem(text, "--result"); !bound.empty())
            return fail(QString::fromStdString(bound), ExitBadInput);
        pending.answer.result = nlohmann::json::parse(text, nullptr, false);
        if (pending.answer.result.is_discarded())
            return fail(QStringLiteral("--result is not valid JSON (strings need quotes: '\"text\"')"), ExitBadInput);
    } else {
        pending.answer.isError = true;
        pending.answer.message = parser.value(errorOption);
        pending.answer.retryable = parser.isSet(retryableOption);
    }

    const auto project = loadProjectFor(QStringLiteral("answer"), positional->at(0));
    if (!project)
        return ExitBadInput;
    Journal journal;
    QString error;
    if (!journal.open(project->journalPath(), &error))
        return fail(error, ExitBadInput);
    const auto run = journal.run(pending.runId);
    if (!run)
        return fail(QStringLiteral("no run '%1' in this project").arg(pending.runId), ExitBadInput);
    std::optional<Step> step;
    // The latest step with that id, an unfinished one first: a resumed run's memoized
    // rows keep the call ids of the recorded run, which its new calls may reuse.
    for (Step &candidate : journal.steps(pending.runId))
        if (candidate.callId == pending.callId && (!step || !isFinal(candidate.status) || isFinal(step->status)))
            step = std::move(candidate);
    if (!step)
        return fail(QStringLiteral("run %1 has no call '%2'").arg(pending.runId, pending.callId), ExitRunFailed);
    if (isFinal(step->status))
        return fail(QStringLiteral("call '%1' already finished (%2)").arg(pending.callId, stepStatusName(step->status)),
                    ExitRunFailed);
    if (isFinal(run->status))
        return fail(QStringLiteral("run %1 is %2; nothing waits for this answer")
                        .arg(pending.runId, runStatusName(run->status)),
                    ExitRunFailed);
    // A call held by step mode is not waiting for an answer: the engine only takes
    // journal answers for calls waiting for a person (docs/steps.md "Manual answers
    // and fencing"), so refuse before writing anything rather than leave an answer
    // nobody picks up.
    const bool suspended = run->status == RunStatus::Suspended;
    if (heldByStepMode(journal, pending.runId, *step)) {
        if (!suspended)
            return fail(
                QStringLiteral("call %1 is held by step mode, not waiting for an answer: continue, answer instead or "
                               "fail it where it is held (the window's Pending Calls dock, or the stdin of "
                               "toolstudio run --step); nothing was written")
                    .arg(pending.callId),
                ExitBadInput);
        if (!waitsForPerson(*project, step->tool))
            return fail(
                QStringLiteral("call %1 was held by step mode when run %2 was suspended, not waiting for an answer; "
                               "nothing was written. Resuming runs its handler (toolstudio resume %3 %2); to "
                               "answer it instead, resume the run in the window with Step Mode on and choose "
                               "Answer Instead")
                    .arg(pending.callId, pending.runId, shellQuoted(project->dir)),
                ExitBadInput);
    }
    pending.attempt = parser.isSet(attemptOption)
        ? parser.value(attemptOption).toInt()
        : std::max(1, step->attempts.empty() ? 1 : step->attempts.back().number);
    const qint64 id = journal.addPendingAnswer(pending);
    if (id <= 0)
        return fail(QStringLiteral("cannot store the answer: %1").arg(journal.lastError()), ExitRunFailed);
    if (run->status == RunStatus::Suspended) {
        printLine(
            stdout,
            QStringLiteral("kept: run %1 is suspended; the answer to %2 (attempt %3) is applied when it is resumed "
                           "(toolstudio resume %4 %5)")
                .arg(printableText(pending.runId), printableText(pending.callId))
                .arg(pending.attempt)
                .arg(shellQuoted(project->dir), shellQuoted(pending.runId)));
        return ExitCompleted;
    }
    QElapsedTimer clock;
    clock.start();
    const qint64 timeoutMs = qint64(parser.value(timeoutOption).toDouble() * 1000);
    while (clock.elapsed() < timeoutMs) {
        const auto state = journal.pendingAnswer(id);
        if (state && state->state == QLatin1String("accepted")) {
            printLine(stdout,
                      QStringLiteral("accepted: %1 attempt %2 of run %3")
                          .arg(printableText(pending.callId))
                          .arg(pending.attempt)
                          .arg(printableText(pending.runId)));
            return ExitCompleted;
        }
        if (state && state->state == QLatin1String("refused"))
            return fail(QStringLiteral("refused: %1").arg(state->reason), ExitRunFailed);
        QThread::msleep(50);
    }
    return fail(QStringLiteral("the process running %1 did not pick the answer up within %2 s; it stays in the journal")
                    .arg(pending.runId, parser.value(timeoutOption)),
                ExitRunFailed);
}
