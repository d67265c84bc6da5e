// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "headlessrun.h"

#include "answerfile.h"
#include "engine/stepengine.h"
#include "project/durationtext.h"
#include "project/printabletext.h"
#include "questionprompt.h"
#include "run/warmlauncher.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <string>
#include <utility>

#include <fcntl.h>
#include <unistd.h>

namespace {

/// Self-pipe for SIGINT/SIGTERM: the handler only writes the signal number (one byte)
/// and puts the default action back, so a second Ctrl-C ends the process at once.
int interruptPipe[2] = {-1, -1};

extern "C" void onInterruptSignal(int signal)
{
    const int savedErrno = errno;
    const char byte = char(signal);
    [[maybe_unused]] const ssize_t written = ::write(interruptPipe[1], &byte, 1);
    struct sigaction defaultAction = {};
    defaultAction.sa_handler = SIG_DFL;
    ::sigaction(signal, &defaultAction, nullptr);
    errno = savedErrno;
}

} // namespace

void writeOut(FILE *stream, const QByteArray &bytes)
{
    std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stream);
    std::fflush(stream);
}

void printLine(FILE *stream, const QString &line)
{
    writeOut(stream, line.toUtf8() + '\n');
}

/// Compact JSON, elided to `limit` characters for the trace.
QString summary(const nlohmann::json &value, int limit)
{
    return clippedText(QString::fromStdString(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)),
                       limit);
}

nlohmann::json stepJson(const Step &step)
{
    nlohmann::json json = {
        {"event", "step"},
        {"sequence", step.sequence},
        {"call_id", step.callId.toStdString()},
        {"tool", step.tool.toStdString()},
        {"args", step.args},
        {"status", stepStatusName(step.status).toStdString()},
        {"attempts", step.attempts.size()},
        {"max_attempts", step.maxAttempts},
        {"idempotency_key", step.idempotencyKey.toStdString()},
        {"duration_ms", step.durationMs()},
    };
    if (const qint64 waited = step.waitedMs(); waited > 0)
        json["waited_ms"] = waited; // of duration_ms, waiting for a person

    if (step.result)
        json["result"] = *step.result;
    if (step.error)
        json["error"] = step.error->toJson();
    return json;
}

QString waitsForAnswerText(const QString &command, const QString &projectDir, const Step &step, int attempt)
{
    // Script-chosen text escaped; every word of the command shell-quoted, ready to paste.
    // An MCP server's question is named by its serial: an answer typed for it is refused
    // if the server withdraws it and asks another meanwhile.
    const Attempt *current = step.currentAttempt();
    const int serial = current && current->question ? current->question->value("serial", 0) : 0;
    return QStringLiteral("toolstudio %1: call %2 (%3, attempt %4) waits for an answer: "
                          "toolstudio answer %5 %6 %7%8 --result JSON | --error MESSAGE [--retryable]")
        .arg(command, printableText(step.callId), printableText(step.tool))
        .arg(attempt)
        .arg(shellQuoted(projectDir), shellQuoted(step.runId), shellQuoted(step.callId),
             serial > 0 ? QStringLiteral(" --question %1").arg(serial) : QString());
}

HeadlessRun::HeadlessRun(const HeadlessOptions &options)
    : m_answers(options.answers)
    , m_json(options.json)
    , m_options(options)
{
    m_controller.setStepMode(options.stepMode);
    // One run, then the command exits: there is no next run to pre-warm for.
    m_controller.warmLauncher()->setEnabled(false);
    connect(&m_controller, &RunController::stepPaused, this,
            [this](const Step &step) { QTimer::singleShot(0, this, [this, step] { onStepPaused(step); }); });
    connect(&m_controller, &RunController::divergenceFound, this, [this](const Step &step) {
        // Against a cassette nothing runs for real: what is not in it fails.
        const bool offline = m_controller.record().kind == RunKind::Cassette;
        printLine(stderr,
                  QStringLiteral("divergence at step %1: %2 — %3")
                      .arg(step.sequence)
                      .arg(printableText(step.divergence),
                           offline
                               ? QStringLiteral("offline, so this call and every later one fails (not in the cassette)")
                               : QStringLiteral("this call and every later one runs for real")));
    });
    // The ordered feed (docs/trace.md "Console order"): steps and output in the order
    // the script made them; each step is printed once, when it is final (memoized and
    // refused steps arrive final).
    connect(&m_controller, &RunController::stepsUpdated, this, [this](const QList<Step> &steps) {
        for (const Step &step : steps) {
            if (!isFinal(step.status) || step.sequence < 1)
                continue;
            if (m_printed.size() < std::size_t(step.sequence))
                m_printed.resize(std::size_t(step.sequence), false);
            if (m_printed[std::size_t(step.sequence - 1)])
                continue;
            m_printed[std::size_t(step.sequence - 1)] = true;
            onStepChanged(step);
        }
    });
    connect(&m_controller, &RunController::outputReceived, this, &HeadlessRun::onOutput);
    connect(&m_controller, &RunController::pendingCallOpened, this, [this](const Step &step) {
        // Answer after the engine has finished opening the call.
        QTimer::singleShot(0, this, [this, step] { onPendingCall(step); });
    });
    connect(&m_controller, &RunController::policyEvent, this, &HeadlessRun::onPolicyEvent);
    connect(&m_controller, &RunController::finished, this, &HeadlessRun::onFinished);
    watchInterrupts();
}

HeadlessRun::~HeadlessRun()
{
    if (!m_interruptNotifier)
        return;
    struct sigaction defaultAction = {};
    defaultAction.sa_handler = SIG_DFL;
    ::sigaction(SIGINT, &defaultAction, nullptr);
    ::sigaction(SIGTERM, &defaultAction, nullptr);
}

void HeadlessRun::watchInterrupts()
{
    if (interruptPipe[0] < 0 && ::pipe2(interruptPipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return; // no pipe: Ctrl-C keeps its default action
    m_interruptNotifier = new QSocketNotifier(interruptPipe[0], QSocketNotifier::Read, this);
    connect(m_interruptNotifier, &QSocketNotifier::activated, this, [this] {
        char byte = 0;
        while (::read(interruptPipe[0], &byte, 1) == 1)
            m_interruptedBy = byte;
        if (!m_controller.isActive())
            return;
        // The window's Stop: in-flight steps cancelled, the script's process group killed;
        // onFinished prints the end line and says how to go on.
        m_controller.stop();
    });
    struct sigaction action = {};
    action.sa_handler = onInterruptSignal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
}

int HeadlessRun::exec(const std::function<bool(RunController &, QString *)> &start)
{
    QString error;
    if (!start(m_controller, &error)) {
        printLine(stderr, QStringLiteral("toolstudio %1: %2").arg(m_options.command, error));
        return ExitBadInput;
    }
    if (m_json) {
        printLine(stdout,
                  QString::fromStdString(nlohmann::json{
                      {"event", "run"},
                      {"id", m_controller.record().id.toStdString()},
                      {"script", m_controller.record().scriptPath.toStdString()},
                      {"status", "running"}}.dump()));
    } else {
        printLine(stdout,
                  QStringLiteral("run %1: %2")
                      .arg(m_controller.record().id, QFileInfo(m_controller.record().scriptPath).fileName()));
    }
    return m_loop.exec();
}

void HeadlessRun::onStepChanged(const Step &step)
{
    if (!isFinal(step.status))
        return;
    if (m_json) {
        writeStepText(
            QByteArray::fromStdString(stepJson(step).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
            + '\n');
        return;
    }
    // The time a person took is said apart: a tool answered by hand did not run 36 s.
    const qint64 waited = step.waitedMs();
    const QString duration = waited > 0
        ? QStringLiteral("%1, waited for a person %2")
              .arg(durationText(step.durationMs(), DurationStyle::Plain), durationText(waited, DurationStyle::Plain))
        : durationText(step.durationMs(), DurationStyle::Plain);
    QString text = QStringLiteral("[step %1] %2 %3 (attempts %4, %5)\n")
                       .arg(step.sequence)
                       .arg(printableText(step.tool), stepStatusName(step.status), step.attemptsText(), duration);
    text += QStringLiteral("         args:   %1\n").arg(printableText(summary(step.args)));
    if (step.result)
        text += QStringLiteral("         result: %1\n").arg(printableText(summary(*step.result)));
    if (step.error) {
        text += QStringLiteral("         error:  %1: %2\n")
                    .arg(printableText(step.error->codeName()),
                         printableText(QString::fromStdString(step.error->message)));
    }
    writeStepText(text.toUtf8());
}

void HeadlessRun::writeStepText(const QByteArray &text)
{
    // A step line never splits a line of the script's output: while that line is open
    // (a partial line was printed), step lines wait for its newline (onOutput) or for
    // the run's end (onFinished).
    if (m_stdoutMidLine)
        m_heldSteps += text;
    else
        writeOut(stdout, text);
}

void HeadlessRun::onOutput(int stream, const QByteArray &chunk)
{
    if (stream != 1 || chunk.isEmpty()) {
        writeOutput(stream, chunk);
        return;
    }
    const qsizetype newline = m_heldSteps.isEmpty() ? -1 : chunk.indexOf('\n');
    if (newline < 0) {
        writeOutput(stream, chunk);
        m_stdoutMidLine = !chunk.endsWith('\n');
        return;
    }
    // The open line ends in this chunk: its end, the held step lines, then the rest.
    writeOutput(stream, chunk.left(newline + 1));
    writeOut(stdout, std::exchange(m_heldSteps, {}));
    m_stdoutMidLine = false;
    if (newline + 1 < chunk.size())
        onOutput(stream, chunk.mid(newline + 1));
}

void HeadlessRun::writeOutput(int stream, const QByteArray &chunk)
{
    if (m_json) {
        printLine(stdout,
                  QString::fromStdString(nlohmann::json{
                      {"event", "output"}, {"stream", stream == 1 ? "stdout" : "stderr"}, {"text", chunk.toStdString()}}
                                             .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
        return;
    }
    // The script's own output, with what could drive the terminal escaped (issue 16).
    if (stream == 1)
        writeOut(stdout, m_stdoutFilter.filter(chunk));
    else
        writeOut(stderr, m_stderrFilter.filter(chunk));
}

void HeadlessRun::onPolicyEvent(const PolicyEvent &event)
{
    // The window shows these in its trace; headless they would otherwise be visible
    // only in the journal (a refused connect looks like a plain network error).
    if (m_json) {
        printLine(stdout,
                  QString::fromStdString(nlohmann::json{{"event", "policy"},
                                                        {"kind", policyEventKindName(event.kind).toStdString()},
                                                        {"sequence", event.sequence},
                                                        {"at", event.at},
                                                        {"detail", event.detail}}
                                             .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
        return;
    }
    const std::string text = event.detail.is_object() ? event.detail.value("text", std::string()) : std::string();
    printLine(stderr,
              QStringLiteral("[policy] %1: %2")
                  .arg(printableText(policyEventKindName(event.kind)), printableText(QString::fromStdString(text))));
}

void HeadlessRun::onPendingCall(const Step &step)
{
    const Attempt *attempt = step.currentAttempt();
    const int attemptNumber = attempt ? attempt->number : 1;
    std::optional<ManualAnswer> answer = m_answers ? m_answers->answerFor(step.sequence, step.tool) : std::nullopt;
    if (attempt && attempt->question)
        printLine(stderr, QuestionPrompt::questionText(m_options.command, *attempt->question));
    if (!answer && m_options.waitForJournalAnswers) {
        // Another process answers: `toolstudio answer`, picked up from the journal.
        printLine(stderr, waitsForAnswerText(m_options.command, m_options.projectDir, step, attemptNumber));
        return;
    }
    const bool fromFile = answer.has_value();
    if (!answer && ::isatty(STDIN_FILENO))
        answer = prompt(step, attemptNumber);
    const bool fromPrompt = !fromFile && answer.has_value();
    if (!answer) {
        ManualAnswer refusal;
        refusal.isError = true;
        refusal.message = QStringLiteral("no answer for %1 (call #%2): give one with --answers FILE "
                                         "(keyed by \"%1\" or \"#%2\") or run on a terminal")
                              .arg(step.tool)
                              .arg(step.sequence);
        answer = refusal;
        printLine(stderr, QStringLiteral("toolstudio run: %1").arg(printableText(refusal.message)));
    }
    QString reason;
    if (m_controller.answerAndWait(step.callId, attemptNumber, *answer, &reason))
        return;
    printLine(stderr, QStringLiteral("toolstudio run: answer refused: %1").arg(printableText(reason)));
    if (fromPrompt) {
        onPendingCall(step); // ask again
        return;
    }
    if (fromFile) {
        // The call would otherwise wait forever: nobody else answers a headless run.
        ManualAnswer refusal;
        refusal.isError = true;
        refusal.message = QStringLiteral("the answer for %1 (call #%2) in %3 was refused: %4")
                              .arg(step.tool)
                              .arg(step.sequence)
                              .arg(m_answers->fileName(), reason);
        if (!m_controller.answerAndWait(step.callId, attemptNumber, refusal, &reason))
            printLine(stderr, QStringLiteral("toolstudio run: answer refused: %1").arg(printableText(reason)));
    }
}

std::optional<ManualAnswer> HeadlessRun::prompt(const Step &step, int attempt)
{
    printLine(stderr,
              QStringLiteral("\n%1 is waiting for an answer (call #%2, attempt %3)\n  args: %4")
                  .arg(printableText(step.tool))
                  .arg(step.sequence)
                  .arg(attempt)
                  .arg(printableText(summary(step.args, 2000))));
    const Attempt *current = step.currentAttempt();
    const nlohmann::json *question = current && current->question ? &*current->question : nullptr;
    for (;;) {
        writeOut(stderr, QuestionPrompt::promptLabel(question).toUtf8());
        std::string line;
        if (!std::getline(std::cin, line))
            return std::nullopt;
        if (QString::fromStdString(line).trimmed().isEmpty())
            continue;
        QString problem;
        if (auto answer = QuestionPrompt::typedAnswer(line, question, &problem))
            return answer;
        printLine(stderr, problem);
    }
}

void HeadlessRun::onFinished(const RunRecord &run)
{
    writeOut(stdout, m_stdoutFilter.flush());
    writeOut(stderr, m_stderrFilter.flush());
    // A last line without a newline ends here, so the lines after it start a line.
    if (m_stdoutMidLine && !m_json)
        writeOut(stdout, "\n");
    m_stdoutMidLine = false;
    writeOut(stdout, std::exchange(m_heldSteps, {}));
    const int steps = m_controller.engine() ? int(m_controller.engine()->steps().size()) : 0;
    const qint64 ms = run.endedAt - run.startedAt;
    if (m_json) {
        nlohmann::json json = {{"event", "end"},
                               {"id", run.id.toStdString()},
                               {"status", runStatusName(run.status).toStdString()},
                               {"exit_code", run.exitCode},
                               {"duration_ms", ms},
                               {"steps", steps}};
        if (!run.error.isEmpty())
            json["error"] = run.error.toStdString();
        printLine(stdout, QString::fromStdString(json.dump()));
    } else {
        QString line = QStringLiteral("run %1 %2 in %3 (%4 step%5)")
                           .arg(run.id, runStatusName(run.status), durationText(ms, DurationStyle::Plain))
                           .arg(steps)
                           .arg(steps == 1 ? QString() : QStringLiteral("s"));
        if (!run.error.isEmpty())
            line += QStringLiteral(": ") + printableText(run.error);
        printLine(stdout, line);
    }
    if (m_interruptedBy != 0) {
        printLine(stderr,
                  QStringLiteral("toolstudio %1: stopped by %2; run %3 is %4 (only a suspended run can be "
                                 "resumed); run it again with its recorded steps memoized: "
                                 "toolstudio replay %5 %6")
                      .arg(m_options.command,
                           m_interruptedBy == SIGINT ? QStringLiteral("SIGINT (Ctrl-C)") : QStringLiteral("SIGTERM"),
                           run.id, runStatusName(run.status), shellQuoted(m_options.projectDir), shellQuoted(run.id)));
    }
    // Keys of --answers FILE that matched no manual call: a typo would otherwise go
    // unnoticed (the call it meant failed or prompted instead). The exit status stays.
    if (m_answers) {
        for (const QString &key : m_answers->unusedKeys())
            printLine(stderr,
                      QStringLiteral("toolstudio %1: warning: %2: key \"%3\" matched no manual call of "
                                     "this run (keys are tool names, or #N for the N-th call)")
                          .arg(m_options.command, m_answers->fileName(), printableText(key)));
    }
    m_loop.exit(run.status == RunStatus::Completed ? ExitCompleted : ExitRunFailed);
}

void HeadlessRun::onStepPaused(const Step &step)
{
    // Step mode on the command line: one decision per line on stdin; end of input =
    // continue to the end.
    printLine(
        stderr,
        QStringLiteral("\n[step %1] %2 %3 is held (step mode)\n"
                       "  c = continue, a JSON = answer instead, f MESSAGE = fail, r MESSAGE = fail (retryable),\n"
                       "  t = time out, e = continue to the end")
            .arg(step.sequence)
            .arg(printableText(step.tool), printableText(summary(step.args, 2000))));
    for (;;) {
        writeOut(stderr, "> ");
        std::string line;
        if (!std::getline(std::cin, line)) {
            m_controller.continueToEnd();
            return;
        }
        const QString text = QString::fromStdString(line).trimmed();
        QString reason;
        bool ok = false;
        if (text == QLatin1String("c")) {
            ok = m_controller.continueStepAndWait(step.callId, &reason);
        } else if (text == QLatin1String("e")) {
            m_controller.continueToEnd();
            return;
        } else if (text == QLatin1String("t")) {
            ok = m_controller.timeOutStepAndWait(step.callId, &reason);
        } else if (text.startsWith(QLatin1String("f ")) || text.startsWith(QLatin1String("r "))) {
            ManualAnswer answer;
            answer.isError = true;
            answer.retryable = text.startsWith(QLatin1Char('r'));
            answer.message = text.mid(2);
            ok = m_controller.answerStepAndWait(step.callId, answer, &reason);
        } else if (text.startsWith(QLatin1String("a "))) {
            // JSON, with the prompt's plain-words problem ("That is not JSON (…). An answer here is …").
            const auto answer = QuestionPrompt::typedAnswer(text.mid(2).toStdString(), nullptr, &reason);
            if (answer)
                ok = m_controller.answerStepAndWait(step.callId, *answer, &reason);
        } else {
            reason = QStringLiteral("unknown decision '%1'").arg(text);
        }
        if (ok)
            return;
        printLine(stderr, printableText(reason));
    }
}

std::optional<Project> loadProjectFor(const QString &command, const QString &dir)
{
    ProjectError projectError;
    std::optional<Project> project = Project::load(dir, &projectError);
    if (!project)
        printLine(stderr, QStringLiteral("toolstudio %1: %2").arg(command, projectError.toString()));
    return project;
}

QString usageText(const QCommandLineParser &parser, const QString &command)
{
    // Qt's first line is "Usage: <argv[0]> [options] …", argv[0] being the binary's path.
    QString text = parser.helpText();
    const QString qtPrefix = QStringLiteral("Usage: ") + QCoreApplication::arguments().value(0);
    if (text.startsWith(qtPrefix))
        text.replace(0, qtPrefix.size(), QStringLiteral("usage: toolstudio ") + command);
    return text;
}

std::optional<QStringList> parseArguments(QCommandLineParser &parser, const QString &command,
                                          const QStringList &arguments, int minPositional, int maxPositional,
                                          int *exitCode)
{
    parser.addHelpOption();
    QStringList argv = arguments;
    argv.prepend(QStringLiteral("toolstudio ") + command);
    if (!parser.parse(argv)) {
        printLine(stderr,
                  QStringLiteral("toolstudio %1: %2\n%3").arg(command, parser.errorText(), usageText(parser, command)));
        *exitCode = ExitBadInput;
        return std::nullopt;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        printLine(stdout, usageText(parser, command));
        *exitCode = ExitCompleted;
        return std::nullopt;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() < minPositional || positional.size() > maxPositional) {
        printLine(
            stderr,
            QStringLiteral("toolstudio %1: wrong number of arguments\n%2").arg(command, usageText(parser, command)));
        *exitCode = ExitBadInput;
        return std::nullopt;
    }
    return positional;
}
