// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "servedsessionrecord.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace {

/// A state file is small (the waiting calls' ids); a start file at most one request body.
constexpr qint64 MaxStateBytes = 4 * 1024 * 1024;
constexpr qint64 MaxStartBytes = 64 * 1024 * 1024;

QString servedDir(const QString &projectDir)
{
    return projectDir + QStringLiteral("/.toolstudio/served");
}

QString filePath(const QString &projectDir, const QString &runId, const char *suffix)
{
    return servedDir(projectDir) + QLatin1Char('/') + runId + QLatin1String(suffix);
}

/// Writes `bytes` to `path` (mode 0600) through a file beside it renamed over it: a
/// reader sees the old contents or the new, even when this process is killed midway. Not
/// synced to disk, as the journal's commits are not (its WAL): a crash of the studio
/// loses nothing, a crash of the machine may lose the latest state.
bool writePrivate(const QString &path, const QByteArray &bytes, QString *error)
{
    if (!QDir().mkpath(QFileInfo(path).path())) {
        *error = QStringLiteral("cannot create %1").arg(QFileInfo(path).path());
        return false;
    }
    const QString temporary = path + QStringLiteral(".new");
    QFile file(temporary);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || !file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)
        || file.write(bytes) != bytes.size()) {
        *error = QStringLiteral("cannot write %1: %2").arg(temporary, file.errorString());
        file.remove();
        return false;
    }
    file.close();
    if (::rename(QFile::encodeName(temporary).constData(), QFile::encodeName(path).constData()) != 0) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, QString::fromLocal8Bit(::strerror(errno)));
        QFile::remove(temporary);
        return false;
    }
    return true;
}

QByteArray readBounded(const QString &path, qint64 bound)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || file.size() > bound)
        return {};
    return file.readAll();
}

} // namespace

bool ServedSessionRecord::validId(const QString &runId)
{
    if (runId.isEmpty() || runId.size() > 64)
        return false;
    for (const QChar c : runId)
        if (!(c.isLetterOrNumber() && c.unicode() < 0x80) && c != QLatin1Char('-') && c != QLatin1Char('_'))
            return false;
    return true;
}

std::string ServedSessionRecord::hash(const std::string &token)
{
    return QCryptographicHash::hash(QByteArray::fromStdString(token), QCryptographicHash::Sha256).toHex().toStdString();
}

bool ServedSessionRecord::sameHash(const std::string &hash, const std::string &expected)
{
    if (expected.empty() || hash.size() != expected.size())
        return false;
    unsigned char difference = 0;
    for (std::size_t i = 0; i < hash.size(); ++i)
        difference |= static_cast<unsigned char>(hash[i] ^ expected[i]);
    return difference == 0;
}

std::optional<ServedSessionRecord> ServedSessionRecord::load(const QString &projectDir, const QString &runId)
{
    if (!validId(runId))
        return std::nullopt;
    const QByteArray bytes = readBounded(filePath(projectDir, runId, ".state.json"), MaxStateBytes);
    const nlohmann::json json = nlohmann::json::parse(bytes.toStdString(), nullptr, false);
    if (!json.is_object())
        return std::nullopt;
    ServedSessionRecord record;
    try {
        record.tokenHash = json.value("token_sha256", "");
        record.previousTokenHash = json.value("previous_token_sha256", "");
        record.pausedAt = json.value("paused_at", qint64(0));
        record.elapsedMs = json.value("elapsed_ms", qint64(0));
        record.stdoutSent = json.value("stdout_sent", qint64(0));
        record.stderrSent = json.value("stderr_sent", qint64(0));
        for (const nlohmann::json &call : json.value("waiting", nlohmann::json::array()))
            record.waiting.push_back(
                {call.value("sequence", 0), QString::fromStdString(call.value("call_id", std::string()))});
        if (const auto ended = json.find("ended"); ended != json.end() && ended->is_object()) {
            record.endedCode = QString::fromStdString(ended->value("code", "session_ended"));
            record.endedMessage = QString::fromStdString(ended->value("message", ""));
        }
    } catch (const nlohmann::json::exception &) {
        return std::nullopt; // not ours (a hand-edited file): no session
    }
    return record;
}

bool ServedSessionRecord::save(const QString &projectDir, const QString &runId, QString *error) const
{
    nlohmann::json waitingJson = nlohmann::json::array();
    for (const WaitingCall &call : waiting)
        waitingJson.push_back({{"sequence", call.sequence}, {"call_id", call.callId.toStdString()}});
    nlohmann::json json = {{"token_sha256", tokenHash}, {"previous_token_sha256", previousTokenHash},
                           {"paused_at", pausedAt},     {"elapsed_ms", elapsedMs},
                           {"stdout_sent", stdoutSent}, {"stderr_sent", stderrSent},
                           {"waiting", waitingJson}};
    if (!endedCode.isEmpty())
        json["ended"] = {{"code", endedCode.toStdString()}, {"message", endedMessage.toStdString()}};
    return writePrivate(filePath(projectDir, runId, ".state.json"), QByteArray::fromStdString(json.dump()), error);
}

bool ServedSessionRecord::saveStart(const QString &projectDir, const QString &runId, const std::string &spec,
                                    QString *error)
{
    return writePrivate(filePath(projectDir, runId, ".start.json"), QByteArray::fromStdString(spec), error);
}

std::string ServedSessionRecord::loadStart(const QString &projectDir, const QString &runId)
{
    if (!validId(runId))
        return {};
    return readBounded(filePath(projectDir, runId, ".start.json"), MaxStartBytes).toStdString();
}

void ServedSessionRecord::removeStart(const QString &projectDir, const QString &runId)
{
    if (validId(runId))
        QFile::remove(filePath(projectDir, runId, ".start.json"));
}
