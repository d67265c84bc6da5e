// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/projecttrust.h"

#include "jsoninput.h"
#include "posixutil.h"
#include "project/jsonqt.h"
#include "project/project.h"
#include "python/toolworker.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMutex>
#include <QSaveFile>
#include <QSet>
#include <QStandardPaths>

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <utility>

#include <sys/stat.h>

using nlohmann::json;

namespace {

constexpr auto ManifestFile = "toolstudio.json";

QString fromStd(const std::string &text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

/// The manifest as JSON — `given` bytes, or the file's —, or null when it is missing,
/// not a regular file, too large, malformed or too deep (then Project::load refuses the
/// project anyway).
json rawManifest(const QString &dir, const QByteArray *given)
{
    std::string read;
    if (!given
        && !PosixUtil::readRegularFile(
            QFile::encodeName(dir + QLatin1Char('/') + QLatin1String(ManifestFile)).toStdString(),
            Project::MaxManifestBytes, &read))
        return nullptr;
    const std::string_view text
        = given ? std::string_view(given->constData(), std::size_t(given->size())) : std::string_view(read);
    if (JsonInput::overLimit(text).limit)
        return nullptr;
    json root = json::parse(text.begin(), text.end(), nullptr, false);
    return root.is_discarded() ? json(nullptr) : root;
}

/// Entries of a manifest member that is an object (name → entry) or an array of
/// entries with a "name": (name, entry) pairs.
std::vector<std::pair<QString, json>> namedEntries(const json &root, const char *key)
{
    std::vector<std::pair<QString, json>> entries;
    if (!root.is_object() || !root.contains(key))
        return entries;
    const json &member = root[key];
    if (member.is_object()) {
        for (auto it = member.begin(); it != member.end(); ++it)
            entries.emplace_back(fromStd(it.key()), *it);
    } else if (member.is_array()) {
        for (std::size_t i = 0; i < member.size(); ++i) {
            const json &entry = member[i];
            const bool named = entry.is_object() && entry.contains("name") && entry["name"].is_string();
            entries.emplace_back(named ? fromStd(entry["name"].get<std::string>()) : QString::number(i), entry);
        }
    }
    return entries;
}

/// `entry` reduced to `keys` (those present), as compact JSON.
QString subset(const json &entry, std::initializer_list<const char *> keys)
{
    if (!entry.is_object())
        return fromStd(entry.dump());
    json kept = json::object();
    for (const char *key : keys)
        if (entry.contains(key))
            kept[key] = entry[key];
    return fromStd(kept.dump());
}

// The grants of this process only (grantForThisProcess), by folder.
QMutex processGrantsMutex;
QSet<QString> processGrants;

struct Store
{
    json root = json{{"version", 1}, {"projects", json::object()}};
    QString error; ///< set when the file exists but cannot be used
    bool exists = false;
};

Store readStore()
{
    Store store;
    QFile file(ProjectTrust::storePath());
    if (!file.exists())
        return store;
    store.exists = true;
    if (!file.open(QIODevice::ReadOnly)) {
        store.error = QStringLiteral("%1: cannot read: %2").arg(file.fileName(), file.errorString());
        return store;
    }
    const QByteArray data = file.readAll();
    const std::string_view text(data.constData(), std::size_t(data.size()));
    const json root = JsonInput::overLimit(text).limit ? json(json::value_t::discarded)
                                                       : json::parse(text.begin(), text.end(), nullptr, false);
    if (root.is_discarded() || !root.is_object() || !root.contains("projects") || !root["projects"].is_object()) {
        store.error = QStringLiteral("%1: not a valid trust file (expected a JSON object with \"projects\"); no "
                                     "project counts as trusted until it is fixed or removed")
                          .arg(file.fileName());
        return store;
    }
    for (const auto &[dir, grant] : root["projects"].items())
        if (!grant.is_object() || !grant.contains("fingerprint") || !grant["fingerprint"].is_string()) {
            store.error = QStringLiteral("%1: the grant of %2 has no \"fingerprint\"; no project counts as "
                                         "trusted until the file is fixed or removed")
                              .arg(file.fileName(), fromStd(dir));
            return store;
        }
    store.root = root;
    return store;
}

/// Writes `root` atomically, mode 0600 in a 0700 folder. An unreadable file is kept
/// aside first (never overwritten without a copy); `note` says where.
bool writeStore(const Store &store, QString *error, QString *note)
{
    const QString path = ProjectTrust::storePath();
    const QString folder = QFileInfo(path).absolutePath();
    if (!QDir().mkpath(folder)) {
        *error = QStringLiteral("cannot create %1").arg(folder);
        return false;
    }
    ::chmod(QFile::encodeName(folder).constData(), 0700);
    if (!store.error.isEmpty()) {
        QString kept = path + QStringLiteral(".bad");
        for (int n = 1; QFileInfo::exists(kept); ++n)
            kept = path + QStringLiteral(".bad-%1").arg(n);
        if (!QFile::rename(path, kept)) {
            *error = QStringLiteral("%1 cannot be read and cannot be kept aside as %2; move it away and try again")
                         .arg(path, kept);
            return false;
        }
        if (note)
            *note = QStringLiteral("%1 could not be used (%2); it was kept as %3 and a new one written")
                        .arg(path, store.error, kept);
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)) {
        *error = QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
        return false;
    }
    file.write(QByteArray::fromStdString(store.root.dump(2) + '\n'));
    if (!file.commit()) {
        *error = QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

QStringList itemsOf(const json &grant)
{
    QStringList items;
    for (const json &item : grant.value("items", json::array()))
        if (item.is_string())
            items << fromStd(item.get<std::string>());
    return items;
}

} // namespace

QString ProjectTrust::storePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + QStringLiteral("/trust.json");
}

QString ProjectTrust::canonicalDir(const QString &dir)
{
    const QFileInfo info(dir.isEmpty() ? QStringLiteral(".") : dir);
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? QDir::cleanPath(info.absoluteFilePath()) : canonical;
}

TrustFingerprint ProjectTrust::fingerprint(const QString &dir, const QByteArray *manifest)
{
    TrustFingerprint fingerprint;
    const QString folder = canonicalDir(dir);
    // The files Project::load would import (its loadPythonTools), and what runs them.
    const QStringList pythonFiles
        = QDir(folder + QStringLiteral("/tools")).entryList({QStringLiteral("*.py")}, QDir::Files, QDir::Name);
    for (const QString &name : pythonFiles)
        fingerprint.items << QStringLiteral("Python tool file: tools/%1").arg(name);
    if (!pythonFiles.isEmpty())
        fingerprint.items << QStringLiteral("Python interpreter: %1").arg(ToolWorker::pythonFor(folder));

    const json root = rawManifest(folder, manifest);
    for (const auto &[name, tool] : namedEntries(root, "tools")) {
        if (!tool.is_object() || !tool.contains("handler") || !tool["handler"].is_object())
            continue;
        const json &handler = tool["handler"];
        if (handler.value("kind", json()) == json("command"))
            fingerprint.items
                << QStringLiteral("command tool '%1': %2").arg(name, fromStd(handler.value("command", json()).dump()));
    }
    // Read raw for the model and MCP issues: the commands and URLs they would use, and
    // what goes with them — the headers of a remote server name the secrets sent to its
    // URL (a changed header could hand a key to another host, attack10).
    for (const auto &[name, server] : namedEntries(root, "mcp_servers"))
        fingerprint.items << QStringLiteral("MCP server '%1': %2")
                                 .arg(name,
                                      subset(server, {"command", "args", "url", "headers", "env", "cwd", "sandbox"}));
    // A model's key goes to its URL, which the provider decides when base_url is not
    // given: a changed provider, URL or secret name sends a key somewhere new.
    for (const auto &[name, model] : namedEntries(root, "models"))
        fingerprint.items
            << QStringLiteral("model '%1': %2").arg(name, subset(model, {"provider", "base_url", "api_key_secret"}));

    fingerprint.items.sort();
    fingerprint.hash = QString::fromLatin1(
        QCryptographicHash::hash(fingerprint.items.join(QLatin1Char('\n')).toUtf8(), QCryptographicHash::Sha256)
            .toHex());
    return fingerprint;
}

ProjectTrust::Check ProjectTrust::check(const QString &dir, const QByteArray *manifest)
{
    Check result;
    result.dir = canonicalDir(dir);
    result.now = fingerprint(result.dir, manifest);
    {
        const QMutexLocker lock(&processGrantsMutex);
        if (processGrants.contains(result.dir)) {
            result.state = State::Trusted;
            return result;
        }
    }
    const Store store = readStore();
    result.storeError = store.error;
    if (!store.error.isEmpty())
        return result;
    const json &projects = store.root["projects"];
    const auto grant = projects.find(result.dir.toStdString());
    if (grant == projects.end())
        return result;
    if (fromStd((*grant)["fingerprint"].get<std::string>()) == result.now.hash) {
        result.state = State::Trusted;
        return result;
    }
    result.state = State::Changed;
    const QStringList before = itemsOf(*grant);
    for (const QString &item : std::as_const(result.now.items))
        if (!before.contains(item))
            result.added << item;
    for (const QString &item : before)
        if (!result.now.items.contains(item))
            result.removed << item;
    return result;
}

bool ProjectTrust::grant(const QString &dir, QString *error, QString *note)
{
    QString localError;
    if (!error)
        error = &localError;
    const QString folder = canonicalDir(dir);
    if (!QFileInfo(folder + QLatin1Char('/') + QLatin1String(ManifestFile)).isFile()) {
        *error = QStringLiteral("%1: not a Tool Studio project (no toolstudio.json)").arg(folder);
        return false;
    }
    const TrustFingerprint now = fingerprint(folder);
    Store store = readStore();
    if (!store.error.isEmpty())
        store.root = Store().root;
    json items = json::array();
    for (const QString &item : now.items)
        items.push_back(item.toStdString());
    store.root["projects"][folder.toStdString()]
        = json{{"fingerprint", now.hash.toStdString()},
               {"items", items},
               {"granted_at", QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString()}};
    return writeStore(store, error, note);
}

bool ProjectTrust::revoke(const QString &dir, bool *removed, QString *error, QString *note)
{
    QString localError;
    if (!error)
        error = &localError;
    const QString folder = canonicalDir(dir);
    {
        const QMutexLocker lock(&processGrantsMutex);
        processGrants.remove(folder);
    }
    Store store = readStore();
    if (!store.error.isEmpty())
        store.root = Store().root;
    const bool had = store.root["projects"].erase(folder.toStdString()) > 0;
    if (removed)
        *removed = had;
    if (!had && store.error.isEmpty())
        return true; // nothing to write
    return writeStore(store, error, note);
}

std::vector<ProjectTrust::Grant> ProjectTrust::grants(QString *error)
{
    std::vector<Grant> list;
    const Store store = readStore();
    if (!store.error.isEmpty()) {
        if (error)
            *error = store.error;
        return list;
    }
    for (const auto &[dir, grant] : store.root["projects"].items())
        list.push_back({fromStd(dir), fromStd(grant["fingerprint"].get<std::string>()), itemsOf(grant),
                        JsonQt::stringField(grant, "granted_at")});
    return list;
}

void ProjectTrust::grantForThisProcess(const QString &dir)
{
    const QString folder = canonicalDir(dir);
    const QMutexLocker lock(&processGrantsMutex);
    processGrants.insert(folder);
}

QString ProjectTrust::untrustedReason(const QString &dir)
{
    return QStringLiteral("the project %1 is not trusted, so none of its code runs (Python tool files, command "
                          "tools, scripts); trust it with Trust Project in the window, or headless with "
                          "'toolstudio trust PROJECT' or --trust")
        .arg(canonicalDir(dir));
}

QString ProjectTrust::refusal(const Project &project)
{
    return project.trusted ? QString() : untrustedReason(project.dir);
}
