// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "runcommand.h"

#include "answerfile.h"
#include "project.h"
#include "runcontroller.h"
#include "stepengine.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>
#include <iostream>
#include <string>

#include <unistd.h>

namespace {

constexpr int ExitCompleted = 0;
constexpr int ExitRunFailed = 1;
constexpr int ExitBadInput = 2;

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
QString summary(const nlohmann::json &value, int limit = 200)
{
    QString text = QString::fromStdString(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    if (text.size() > limit)
        text = text.left(limit) + QStringLiteral("… (%1 bytes)").arg(text.toUtf8().size());
    return text;
}

QString durationText(qint64 ms)
{
    return ms < 1000 ? QStringLiteral("%1 ms").arg(ms) : QStringLiteral("%1 s").arg(ms / 1000.0, 0, 'f', 2);
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
    if (step.result)
        json["result"] = *step.result;
    if (step.error)
        json["error"] = step.error->toJson();
    return json;
}

class HeadlessRun : public QObject
{
public:
    HeadlessRun(const AnswerFile *answers, bool jsonLines)
        : m_answers(answers)
        , m_json(jsonLines)
    {
        connect(&m_controller, &RunController::stepChanged, this, &HeadlessRun::onStepChanged);
        connect(&m_controller, &RunController::outputReceived, this, &HeadlessRun::onOutput);
        connect(&m_controller, &RunController::pendingCallOpened, this, [this](const Step &step) {
            // Answer after the engine has finished opening the call.
            QTimer::singleShot(0, this, [this, step] { onPendingCall(step); });
        });
        connect(&m_controller, &RunController::finished, this, &HeadlessRun::onFinished);
    }

    int exec(const Project &project, const QString &script)
    {
        QString error;
        if (!m_controller.start(project, script, &error)) {
            printLine(stderr, QStringLiteral("toolstudio run: %1").arg(error));
            return ExitBadInput;
        }
        if (m_json) {
            printLine(stdout, QString::fromStdString(nlohmann::json{
                {"event", "run"}, {"id", m_controller.record().id.toStdString()},
                {"script", m_controller.record().scriptPath.toStdString()}, {"status", "running"}}.dump()));
        } else {
            printLine(stdout, QStringLiteral("run %1: %2").arg(m_controller.record().id,
                                                              QFileInfo(m_controller.record().scriptPath).fileName()));
        }
        return m_loop.exec();
    }

private:
    void onStepChanged(const Step &step)
    {
        if (!isFinal(step.status))
            return;
        if (m_json) {
            printLine(stdout, QString::fromStdString(stepJson(step).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
            return;
        }
        printLine(stdout, QStringLiteral("[step %1] %2 %3 (attempts %4, %5)")
                              .arg(step.sequence)
                              .arg(step.tool, stepStatusName(step.status), step.attemptsText(),
                                   durationText(step.durationMs())));
        printLine(stdout, QStringLiteral("         args:   %1").arg(summary(step.args)));
        if (step.result)
            printLine(stdout, QStringLiteral("         result: %1").arg(summary(*step.result)));
        if (step.error) {
            printLine(stdout, QStringLiteral("         error:  %1: %2")
                                  .arg(QString::fromStdString(step.error->code),
                                       QString::fromStdString(step.error->message)));
        }
    }

    void onOutput(int stream, const QByteArray &chunk)
    {
        if (m_json) {
            printLine(stdout, QString::fromStdString(nlohmann::json{
                {"event", "output"}, {"stream", stream == 1 ? "stdout" : "stderr"},
                {"text", chunk.toStdString()}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
            return;
        }
        writeOut(stream == 1 ? stdout : stderr, chunk);
    }

    void onPendingCall(const Step &step)
    {
        const Attempt *attempt = step.currentAttempt();
        const int attemptNumber = attempt ? attempt->number : 1;
        std::optional<ManualAnswer> answer = m_answers ? m_answers->answerFor(step.sequence, step.tool) : std::nullopt;
        if (!answer && ::isatty(STDIN_FILENO))
            answer = prompt(step, attemptNumber);
        if (!answer) {
            ManualAnswer refusal;
            refusal.isError = true;
            refusal.message = QStringLiteral("no answer for %1 (call #%2): give one with --answers FILE "
                                             "(keyed by \"%1\" or \"#%2\") or run on a terminal")
                                  .arg(step.tool)
                                  .arg(step.sequence);
            answer = refusal;
            printLine(stderr, QStringLiteral("toolstudio run: %1").arg(refusal.message));
        }
        QString reason;
        if (!m_controller.answer(step.callId, attemptNumber, *answer, &reason))
            printLine(stderr, QStringLiteral("toolstudio run: answer refused: %1").arg(reason));
    }

    std::optional<ManualAnswer> prompt(const Step &step, int attempt)
    {
        printLine(stderr, QStringLiteral("\n%1 is waiting for an answer (call #%2, attempt %3)\n  args: %4")
                              .arg(step.tool)
                              .arg(step.sequence)
                              .arg(attempt)
                              .arg(summary(step.args, 2000)));
        for (;;) {
            writeOut(stderr, "Result as JSON (or: !error MESSAGE, !retry MESSAGE): ");
            std::string line;
            if (!std::getline(std::cin, line))
                return std::nullopt;
            const QString text = QString::fromStdString(line).trimmed();
            if (text.isEmpty())
                continue;
            ManualAnswer answer;
            if (text.startsWith(QLatin1String("!error ")) || text.startsWith(QLatin1String("!retry "))) {
                answer.isError = true;
                answer.retryable = text.startsWith(QLatin1String("!retry "));
                answer.message = text.mid(7);
                return answer;
            }
            try {
                answer.result = nlohmann::json::parse(line);
                return answer;
            } catch (const nlohmann::json::parse_error &e) {
                printLine(stderr, QStringLiteral("not valid JSON (%1); strings need quotes, e.g. \"https://…\"")
                                      .arg(QString::fromUtf8(e.what())));
            }
        }
    }

    void onFinished(const RunRecord &run)
    {
        const int steps = m_controller.engine() ? int(m_controller.engine()->steps().size()) : 0;
        const qint64 ms = run.endedAt - run.startedAt;
        if (m_json) {
            nlohmann::json json = {{"event", "end"}, {"id", run.id.toStdString()},
                                   {"status", runStatusName(run.status).toStdString()},
                                   {"exit_code", run.exitCode}, {"duration_ms", ms}, {"steps", steps}};
            if (!run.error.isEmpty())
                json["error"] = run.error.toStdString();
            printLine(stdout, QString::fromStdString(json.dump()));
        } else {
            QString line = QStringLiteral("run %1 %2 in %3 (%4 step%5)")
                               .arg(run.id, runStatusName(run.status), durationText(ms))
                               .arg(steps)
                               .arg(steps == 1 ? QString() : QStringLiteral("s"));
            if (!run.error.isEmpty())
                line += QStringLiteral(": ") + run.error;
            printLine(stdout, line);
        }
        m_loop.exit(run.status == RunStatus::Completed ? ExitCompleted : ExitRunFailed);
    }

    const AnswerFile *m_answers;
    bool m_json;
    RunController m_controller;
    QEventLoop m_loop;
};

} // namespace

int runCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Run an agent script headless and print its trace."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("PROJECT"), QStringLiteral("The project folder (with toolstudio.json)."));
    parser.addPositionalArgument(QStringLiteral("SCRIPT"),
                                 QStringLiteral("Script to run (default: the project's default script); a path "
                                                "relative to the project, or any path."),
                                 QStringLiteral("[SCRIPT]"));
    const QCommandLineOption answersOption(QStringLiteral("answers"),
                                           QStringLiteral("Answers for manual calls: a JSON object keyed by tool "
                                                          "name or #N, each {\"result\": …} or {\"error\": …, "
                                                          "\"retryable\": false}."),
                                           QStringLiteral("FILE"));
    const QCommandLineOption jsonOption(QStringLiteral("json"), QStringLiteral("Print JSON lines instead of text."));
    parser.addOption(answersOption);
    parser.addOption(jsonOption);
    QStringList argv = arguments;
    argv.prepend(QStringLiteral("toolstudio run"));
    if (!parser.parse(argv)) {
        printLine(stderr, QStringLiteral("toolstudio run: %1\n%2").arg(parser.errorText(), parser.helpText()));
        return ExitBadInput;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        printLine(stdout, parser.helpText());
        return ExitCompleted;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty() || positional.size() > 2) {
        printLine(stderr, QStringLiteral("toolstudio run: expected PROJECT [SCRIPT]\n%1").arg(parser.helpText()));
        return ExitBadInput;
    }

    ProjectError projectError;
    const std::optional<Project> project = Project::load(positional.at(0), &projectError);
    if (!project) {
        printLine(stderr, QStringLiteral("toolstudio run: %1").arg(projectError.toString()));
        return ExitBadInput;
    }
    std::optional<AnswerFile> answers;
    if (parser.isSet(answersOption)) {
        QString error;
        answers = AnswerFile::load(parser.value(answersOption), &error);
        if (!answers) {
            printLine(stderr, QStringLiteral("toolstudio run: %1").arg(error));
            return ExitBadInput;
        }
    }
    QString script = positional.size() > 1 ? positional.at(1) : QString();
    if (!script.isEmpty() && QFileInfo::exists(script))
        script = QFileInfo(script).absoluteFilePath(); // a path from the caller's cwd
    HeadlessRun run(answers ? &*answers : nullptr, parser.isSet(jsonOption));
    return run.exec(*project, script);
}
