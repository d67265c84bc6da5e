// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/chatrun.h"

#include "project/project.h"
#include "run/dirtree.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QScopeGuard>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

static void initChatResources()
{
    Q_INIT_RESOURCE(runtime); // :/chat/chat.py is in the runtime resources
}

namespace ChatRun {

QString scriptPath(const QString &projectDir)
{
    return QDir(projectDir).absoluteFilePath(QStringLiteral(".toolstudio/chat/chat.py"));
}

QString writeScript(const QString &projectDir, QString *error)
{
    initChatResources();
    const QString path = scriptPath(projectDir);
    QFile in(QStringLiteral(":/chat/chat.py"));
    if (!in.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("the studio's chat script is missing from its resources");
        return {};
    }
    const QByteArray script = in.readAll();
    // Through directory fds, never following a symlink (a project may hold one at
    // .toolstudio, .toolstudio/chat or chat.py that points outside it): the script is
    // written to a new file renamed over the name, so a link there is replaced, not
    // written through.
    const auto fail = [&](int code) {
        *error = QStringLiteral("cannot write the chat script %1: %2%3")
                     .arg(path, QString::fromLocal8Bit(std::strerror(code)),
                          code == ELOOP || code == ENOTDIR ? QStringLiteral(" (a symlink on the way is not followed)")
                                                           : QString());
        return QString();
    };
    const int root = ::open(QFile::encodeName(projectDir).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root < 0)
        return fail(errno);
    const int dir = DirTree::makeDirsBeneath(root, QByteArrayLiteral(".toolstudio/chat"), 0755);
    const int dirError = errno;
    ::close(root);
    if (dir < 0)
        return fail(dirError);
    const auto closeDir = qScopeGuard([dir] { ::close(dir); });
    if (const int old = ::openat(dir, "chat.py", O_RDONLY | O_NOFOLLOW | O_CLOEXEC); old >= 0) {
        QFile current;
        const bool same = current.open(old, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)
            && current.read(script.size() + 1) == script;
        if (same)
            return path; // as it is: a running chat's copy is not touched
    }
    const QByteArray temporary
        = QByteArrayLiteral(".chat.py.") + QByteArray::number(QCoreApplication::applicationPid());
    ::unlinkat(dir, temporary.constData(), 0);
    const int out = ::openat(dir, temporary.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (out < 0)
        return fail(errno);
    qsizetype written = 0;
    while (written < script.size()) {
        const ssize_t n = ::write(out, script.constData() + written, std::size_t(script.size() - written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        written += n;
    }
    const int writeError = errno;
    ::close(out);
    if (written != script.size() || ::renameat(dir, temporary.constData(), dir, "chat.py") != 0) {
        const int code = written != script.size() ? writeError : errno;
        ::unlinkat(dir, temporary.constData(), 0);
        return fail(code);
    }
    return path;
}

bool isChatScript(const Project &project, const QString &script)
{
    if (script.isEmpty())
        return false;
    return QDir::cleanPath(QDir(project.dir).absoluteFilePath(script)) == QDir::cleanPath(scriptPath(project.dir));
}

Project projectFor(const Project &project)
{
    if (project.tool(QString::fromLatin1(InputTool)))
        return project;
    Project chat = project;
    Tool input;
    input.name = QString::fromLatin1(InputTool);
    input.description = QStringLiteral("The next message of the person in this chat.");
    input.inputSchema = {
        {"type", "object"},
        {"properties",
         {{"turn", {{"type", "integer"}}}, {"reply", {{"type", {"string", "null"}}}}, {"error", {{"type", "string"}}}}},
        {"required", {"turn"}}};
    input.parameterOrder = {QStringLiteral("turn"), QStringLiteral("reply"), QStringLiteral("error")};
    nlohmann::json modelNames = nlohmann::json::array();
    for (const ModelConfig &model : project.models)
        modelNames.push_back(model.name.toStdString());
    input.outputSchema = nlohmann::json{{"type", "object"},
                                        {"properties",
                                         {{"message", {{"type", "string"}, {"minLength", 1}}},
                                          {"model", {{"enum", modelNames}}},
                                          {"system", {{"type", "string"}}}}},
                                        {"required", {"message"}},
                                        {"additionalProperties", false}};
    input.handler = HandlerKind::Manual;
    input.active = true;
    // A person may take any time: one attempt, no timeout (a manual tool's defaults).
    input.retry = RetryPolicy{};
    input.retry.maxAttempts = 1;
    input.retry.attemptTimeoutMs = 0;
    input.retry.totalTimeoutMs = 0;
    chat.tools.push_back(std::move(input));
    return chat;
}

ManualAnswer rejection()
{
    ManualAnswer rejected;
    rejected.isError = true;
    // Read by the model (and journaled): the studio's own words, not translated.
    rejected.message = QStringLiteral("the person rejected this call; the tool did not run");
    return rejected;
}

nlohmann::json answer(const QString &message, const QString &model, const QString &system)
{
    nlohmann::json answer = {{"message", message.toStdString()}};
    if (!model.isEmpty())
        answer["model"] = model.toStdString();
    if (!system.isEmpty())
        answer["system"] = system.toStdString();
    return answer;
}

std::optional<Input> inputOf(const Step &step)
{
    if (step.tool != QLatin1String(InputTool) || !step.args.is_object())
        return std::nullopt;
    Input input;
    input.step = step;
    const nlohmann::json turn = step.args.value("turn", nlohmann::json());
    input.turn = turn.is_number_integer() ? turn.get<int>() : 0;
    const nlohmann::json reply = step.args.value("reply", nlohmann::json());
    if (reply.is_string())
        input.reply = QString::fromStdString(reply.get<std::string>());
    const nlohmann::json error = step.args.value("error", nlohmann::json());
    if (error.is_string())
        input.error = QString::fromStdString(error.get<std::string>());
    return input;
}

std::optional<Input> openInput(const std::vector<Step> &steps)
{
    for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
        if (isFinal(it->status))
            continue;
        if (auto input = inputOf(*it))
            return input;
    }
    return std::nullopt;
}

std::optional<Input> lastInput(const std::vector<Step> &steps)
{
    for (auto it = steps.rbegin(); it != steps.rend(); ++it)
        if (auto input = inputOf(*it))
            return input;
    return std::nullopt;
}

} // namespace ChatRun
