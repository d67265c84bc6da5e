// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "chatapproval.h"

#include "headlessrun.h"
#include "jsoninput.h"
#include "project/printabletext.h"
#include "run/chatrun.h"
#include "run/runcontroller.h"

namespace {

/// A line longer than this is not a decision (arguments are capped far below it anyway).
constexpr int MaxLineBytes = 4 * 1024 * 1024;

} // namespace

std::optional<ChatApproval::Decision> ChatApproval::parse(const QString &line, QString *error)
{
    const QString text = line.trimmed();
    const QString word = text.section(QLatin1Char(' '), 0, 0).toLower();
    Decision decision;
    if (text.isEmpty() || word == QLatin1String("y") || word == QLatin1String("yes")) {
        if (!text.isEmpty() && text.size() != word.size()) {
            *error = QStringLiteral("'y' takes nothing after it (to change the arguments: e JSON)");
            return std::nullopt;
        }
        return decision;
    }
    if (word == QLatin1String("n") || word == QLatin1String("no")) {
        if (text.size() != word.size()) {
            *error = QStringLiteral("'n' takes nothing after it");
            return std::nullopt;
        }
        decision.kind = Decision::Kind::Reject;
        return decision;
    }
    if (word != QLatin1String("e") && word != QLatin1String("a")) {
        *error = QStringLiteral("answer y, n, e JSON or a JSON, not \"%1\"").arg(printableText(text.left(40)));
        return std::nullopt;
    }
    const QByteArray json = text.mid(word.size()).trimmed().toUtf8();
    if (json.isEmpty()) {
        *error = word == QLatin1String("e")
            ? QStringLiteral("'e' needs the arguments as a JSON object: e {\"base\": \"EUR\"}")
            : QStringLiteral("'a' needs the result as JSON: a 1.08");
        return std::nullopt;
    }
    JsonInput::Problem problem;
    decision.value
        = JsonInput::read<nlohmann::json>(std::string_view(json.constData(), std::size_t(json.size())), &problem);
    if (problem.limit) {
        *error = QString::fromStdString(JsonInput::describe("that", problem));
        return std::nullopt;
    }
    if (decision.value.is_discarded()) {
        *error = QStringLiteral("that is not JSON: %1").arg(printableText(QString::fromUtf8(json.left(80))));
        return std::nullopt;
    }
    if (word == QLatin1String("e")) {
        if (!decision.value.is_object()) {
            *error = QStringLiteral("the arguments must be a JSON object");
            return std::nullopt;
        }
        decision.kind = Decision::Kind::RunWith;
        return decision;
    }
    decision.kind = Decision::Kind::AnswerWith;
    return decision;
}

ChatApproval::ChatApproval(FILE *in, bool json)
    : m_in(in)
    , m_json(json)
{}

void ChatApproval::ask(const Step &step) const
{
    if (m_json) {
        printLine(stdout,
                  QString::fromStdString(nlohmann::json({{"event", "held"},
                                                         {"call", step.callId.toStdString()},
                                                         {"tool", step.tool.toStdString()},
                                                         {"arguments", step.args}})
                                             .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
        return;
    }
    printLine(stderr,
              QStringLiteral("toolstudio chat: the model asks for %1 %2 — y: run it, n: reject it, e JSON: run it "
                             "with these arguments, a JSON: answer instead with this result")
                  .arg(printableText(step.tool),
                       printableText(QString::fromStdString(
                           step.args.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)))));
}

std::optional<QString> ChatApproval::readLine()
{
    QByteArray line;
    for (;;) {
        const int c = std::fgetc(m_in);
        if (c == EOF)
            return line.isEmpty() ? std::nullopt : std::optional<QString>(QString::fromUtf8(line));
        if (c == '\n')
            return QString::fromUtf8(line);
        if (line.size() < MaxLineBytes)
            line.append(char(c));
    }
}

void ChatApproval::decide(const Step &step, RunController &controller)
{
    ask(step);
    std::optional<Decision> decision;
    while (!decision) {
        const std::optional<QString> line = readLine();
        if (!line) {
            printLine(stderr,
                      QStringLiteral("toolstudio chat: the input ended: call %1 (%2) is rejected")
                          .arg(printableText(step.callId), printableText(step.tool)));
            decision = Decision{Decision::Kind::Reject, {}};
            break;
        }
        QString error;
        decision = parse(*line, &error);
        if (!decision)
            printLine(stderr, QStringLiteral("toolstudio chat: %1; try again").arg(error));
    }
    const QString &callId = step.callId;
    // Refused (arguments the schema does not take, a result the output schema does not):
    // the call is still held, so the person is asked again.
    const RunController::Outcome done = [this, step, &controller](bool accepted, const QString &reason) {
        if (accepted)
            return;
        printLine(stderr,
                  QStringLiteral("toolstudio chat: the decision on call %1 was not taken: %2")
                      .arg(printableText(step.callId), printableText(reason)));
        decide(step, controller); // still held: ask again
    };
    switch (decision->kind) {
    case Decision::Kind::Approve:
        controller.continueStep(callId, &controller, done);
        break;
    case Decision::Kind::RunWith:
        controller.continueStepWith(callId, decision->value, &controller, done);
        break;
    case Decision::Kind::Reject:
        controller.answerStep(callId, ChatRun::rejection(), &controller, done);
        break;
    case Decision::Kind::AnswerWith: {
        ManualAnswer answer;
        answer.result = decision->value;
        controller.answerStep(callId, answer, &controller, done);
        break;
    }
    }
}
