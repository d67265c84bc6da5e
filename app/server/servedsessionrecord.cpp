// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "servedsessionrecord.h"

#include "jsoninput.h"
#include "servedfolder.h"

#include <QCryptographicHash>

namespace {

/// A state file is small (the waiting calls' ids); a start file at most one request body.
constexpr qint64 MaxStateBytes = 4 * 1024 * 1024;
constexpr qint64 MaxStartBytes = 64 * 1024 * 1024;

QString startName(const QString &runId)
{
    return runId + QStringLiteral(".start.json");
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
QString slotName(const QString &runId, qint64 serial)
{
    return runId + QLatin1String(serial % 2 == 0 ? ".state.json" : ".state-b.json");
}

std::optional<ServedSessionRecord> parseState(const QByteArray &bytes)
{
    // The folder is the project's: a planted slot is outside input, bounded as any
    // (400 000 levels of `[` overflowed the stack when the value was copied).
    const nlohmann::json json
        = JsonInput::read<nlohmann::json>(std::string_view(bytes.constData(), std::size_t(bytes.size())));
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
        const auto waiting = json.find("waiting");
        if (waiting != json.end() && !waiting->is_array())
            return std::nullopt; // not ours (a hand-edited file)
        if (waiting != json.end())
            for (const nlohmann::json &call : *waiting)
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
    const ServedFolder folder(projectDir, false);
    // The newer of the two slots that read whole.
    std::optional<ServedSessionRecord> latest;
    for (const qint64 slot : {0, 1})
        if (auto record = parseState(folder.read(slotName(runId, slot), MaxStateBytes));
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
    const ServedFolder folder(projectDir, true);
    return folder.overwrite(slotName(runId, serial), QByteArray::fromStdString(json.dump()), MaxStateBytes, error);
}

bool ServedSessionRecord::saveStart(const QString &projectDir, const QString &runId, const std::string &spec,
                                    QString *error)
{
    const ServedFolder folder(projectDir, true);
    return folder.write(startName(runId), QByteArray::fromStdString(spec), error);
}

std::string ServedSessionRecord::loadStart(const QString &projectDir, const QString &runId)
{
    if (!validId(runId))
        return {};
    return ServedFolder(projectDir, false).read(startName(runId), MaxStartBytes).toStdString();
}

void ServedSessionRecord::removeStart(const QString &projectDir, const QString &runId)
{
    if (validId(runId))
        ServedFolder(projectDir, false).remove(startName(runId));
}
