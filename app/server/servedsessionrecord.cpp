// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "servedsessionrecord.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

/// Writes `bytes` to `path` (mode 0600), for a spec written once.
bool writePrivate(const QString &path, const QByteArray &bytes, QString *error)
{
    if (!QDir().mkpath(QFileInfo(path).path())) {
        *error = QStringLiteral("cannot create %1").arg(QFileInfo(path).path());
        return false;
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || !file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)
        || file.write(bytes) != bytes.size()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

/// Overwrites `path` from its start with `bytes`, padded with spaces to the file's
/// length, in one pwrite: no truncation, no rename — on ext4 either one makes the
/// write wait for the data blocks (~150-250 µs against ~5 µs, a third of a round
/// trip). A write cut short (the studio killed midway through a long one) leaves this
/// slot unreadable; the other slot still holds the state before it (load()).
bool overwrite(const QString &path, const QByteArray &bytes, QString *error)
{
    if (!QDir().mkpath(QFileInfo(path).path())) {
        *error = QStringLiteral("cannot create %1").arg(QFileInfo(path).path());
        return false;
    }
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    struct stat info = {};
    bool written = fd >= 0 && ::fstat(fd, &info) == 0;
    if (written) {
        QByteArray padded = bytes;
        if (padded.size() < info.st_size)
            padded.append(QByteArray(qsizetype(info.st_size) - padded.size(), ' '));
        written = ::pwrite(fd, padded.constData(), std::size_t(padded.size()), 0) == padded.size();
    }
    if (!written)
        *error = QStringLiteral("cannot write %1: %2").arg(path, QString::fromLocal8Bit(::strerror(errno)));
    if (fd >= 0)
        ::close(fd);
    return written;
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

namespace {

/// The state's two slots, written in turn (by serial).
QString slotPath(const QString &projectDir, const QString &runId, qint64 serial)
{
    return filePath(projectDir, runId, serial % 2 == 0 ? ".state.json" : ".state-b.json");
}

std::optional<ServedSessionRecord> parseState(const QByteArray &bytes)
{
    const nlohmann::json json = nlohmann::json::parse(bytes.toStdString(), nullptr, false);
    if (!json.is_object())
        return std::nullopt;
    ServedSessionRecord record;
    try {
        record.serial = json.value("serial", qint64(0));
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
        return std::nullopt; // not ours (a hand-edited file)
    }
    return record;
}

} // namespace

std::optional<ServedSessionRecord> ServedSessionRecord::load(const QString &projectDir, const QString &runId)
{
    if (!validId(runId))
        return std::nullopt;
    // The newer of the two slots that read whole.
    std::optional<ServedSessionRecord> latest;
    for (const qint64 slot : {0, 1})
        if (auto record = parseState(readBounded(slotPath(projectDir, runId, slot), MaxStateBytes));
            record && (!latest || record->serial > latest->serial))
            latest = std::move(record);
    return latest;
}

bool ServedSessionRecord::save(const QString &projectDir, const QString &runId, QString *error) const
{
    nlohmann::json waitingJson = nlohmann::json::array();
    for (const WaitingCall &call : waiting)
        waitingJson.push_back({{"sequence", call.sequence}, {"call_id", call.callId.toStdString()}});
    nlohmann::json json
        = {{"serial", serial},          {"token_sha256", tokenHash}, {"previous_token_sha256", previousTokenHash},
           {"paused_at", pausedAt},     {"elapsed_ms", elapsedMs},   {"stdout_sent", stdoutSent},
           {"stderr_sent", stderrSent}, {"waiting", waitingJson}};
    if (!endedCode.isEmpty())
        json["ended"] = {{"code", endedCode.toStdString()}, {"message", endedMessage.toStdString()}};
    return overwrite(slotPath(projectDir, runId, serial), QByteArray::fromStdString(json.dump()), error);
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
