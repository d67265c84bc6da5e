// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/printabletext.h"
#include "project/project.h"
#include "project/step.h"
#include "run/runcontroller.h"

#include <QEventLoop>
#include <QObject>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <functional>
#include <optional>

class AnswerFile;
class QSocketNotifier;
class QCommandLineParser;

/// Exit statuses of every headless command (README "Headless use").
constexpr int ExitCompleted = 0;
constexpr int ExitRunFailed = 1;
constexpr int ExitBadInput = 2;

void writeOut(FILE *stream, const QByteArray &bytes);
void printLine(FILE *stream, const QString &line);
/// Compact JSON, elided to `limit` characters for the trace.
QString summary(const nlohmann::json &value, int limit = 200);
/// A step as one `--json` line ({"event": "step", …}).
nlohmann::json stepJson(const Step &step);
/// "toolstudio COMMAND: call C (TOOL, attempt N) waits for an answer: toolstudio answer …",
/// the command shell-quoted, ready to paste.
QString waitsForAnswerText(const QString &command, const QString &projectDir, const Step &step, int attempt);

/// Loads the project or prints "toolstudio COMMAND: reason" and returns nullopt.
std::optional<Project> loadProjectFor(const QString &command, const QString &dir);
/// The parser's help text with its first line as "usage: toolstudio COMMAND [options] …"
/// (Qt's says "Usage: /path/to/toolstudio [options] …", without the command).
QString usageText(const QCommandLineParser &parser, const QString &command);
/// Adds --help, parses `arguments` (those after the command name) and checks the
/// number of positional arguments. nullopt = stop with `*exitCode` (help printed,
/// or an error reported).
std::optional<QStringList> parseArguments(QCommandLineParser &parser, const QString &command,
                                          const QStringList &arguments, int minPositional, int maxPositional,
                                          int *exitCode);

struct HeadlessOptions
{
    QString command = QStringLiteral("run"); ///< for messages: "toolstudio COMMAND: …"
    QString projectDir;                      ///< for the `toolstudio answer` hint
    AnswerFile *answers = nullptr;           ///< its keys no call used are warned about at the end
    bool json = false;
    /// Pending calls without an answer in `answers` wait for `toolstudio answer`
    /// (picked up from the journal) instead of prompting or failing.
    bool waitForJournalAnswers = false;
    /// Step mode: each call is held; a decision per line on stdin (EOF = continue to end).
    bool stepMode = false;
};

/// One headless run printed as a trace (shared by run, replay, resume): each final
/// step, the script's output, divergences, the end line; manual calls answered from
/// the answer file, a prompt on a terminal, or the journal.
class HeadlessRun : public QObject
{
public:
    /// Also catches SIGINT and SIGTERM while it lives: the first stops the run like the
    /// window's Stop (exit 1, with the end line and a hint); a second one ends the
    /// process at once (the default action is back).
    explicit HeadlessRun(const HeadlessOptions &options);
    ~HeadlessRun() override;

    /// Starts the run through `start` (e.g. RunController::resume) and returns the
    /// exit status when it has ended.
    int exec(const std::function<bool(RunController &, QString *)> &start);

private:
    void onStepChanged(const Step &step);
    void onOutput(int stream, const QByteArray &chunk);
    /// The script's output as it is shown: escaped text, or a JSON output record.
    void writeOutput(int stream, const QByteArray &chunk);
    /// A step's line(s) or JSON record: out now, or held while the script's stdout is in
    /// the middle of a line (docs/cli.md "run").
    void writeStepText(const QByteArray &text);
    void onPolicyEvent(const PolicyEvent &event);
    void onPendingCall(const Step &step);
    void onStepPaused(const Step &step);
    std::optional<ManualAnswer> prompt(const Step &step, int attempt);
    void onFinished(const RunRecord &run);
    void watchInterrupts();

    AnswerFile *m_answers;
    bool m_json;
    HeadlessOptions m_options;
    RunController m_controller;
    QEventLoop m_loop;
    QSocketNotifier *m_interruptNotifier = nullptr;
    int m_interruptedBy = 0;        ///< the signal that stopped the run, 0 = none
    PrintableStream m_stdoutFilter; ///< the script's stdout on its way to ours
    PrintableStream m_stderrFilter; ///< and its stderr
    bool m_stdoutMidLine = false;   ///< the script's stdout so far does not end with a newline
    QByteArray m_heldSteps;         ///< step lines held until that line ends
    std::vector<bool> m_printed;    ///< by sequence − 1: the step's final line is out
};
