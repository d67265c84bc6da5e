// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "python/secrets.h"

#include "jsoninput.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUrl>

#include <nlohmann/json.hpp>

#include <sys/stat.h>

namespace {

QString canonicalDir(const QString &projectDir)
{
    const QFileInfo info(projectDir);
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? QDir::cleanPath(info.absoluteFilePath()) : canonical;
}

} // namespace

QString Secrets::filePath(const QString &projectDir)
{
    const QByteArray hash
        = QCryptographicHash::hash(canonicalDir(projectDir).toUtf8(), QCryptographicHash::Sha256).toHex();
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + QStringLiteral("/secrets/")
        + QString::fromLatin1(hash.left(32)) + QStringLiteral(".json");
}

bool Secrets::isValidName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    return pattern.match(name).hasMatch();
}

Secrets Secrets::load(const QString &projectDir, QString *error)
{
    Secrets secrets;
    secrets.m_projectDir = canonicalDir(projectDir);
    QFile file(filePath(projectDir));
    if (!file.exists())
        return secrets;
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot read: %2").arg(file.fileName(), file.errorString());
        return secrets;
    }
    const QByteArray data = file.readAll();
    const auto root = JsonInput::read<nlohmann::json>(std::string_view(data.constData(), std::size_t(data.size())));
    if (!root.is_object() || !root.contains("secrets") || !root["secrets"].is_object()) {
        if (error)
            *error = QStringLiteral("%1: not a secrets file").arg(file.fileName());
        return secrets;
    }
    for (auto it = root["secrets"].begin(); it != root["secrets"].end(); ++it)
        if (it->is_string())
            secrets.m_values.insert(QString::fromStdString(it.key()), QString::fromStdString(it->get<std::string>()));
    if (const auto hosts = root.find("hosts"); hosts != root.end() && hosts->is_object()) {
        for (auto it = hosts->begin(); it != hosts->end(); ++it) {
            QStringList list;
            if (it->is_array())
                for (const auto &host : *it)
                    if (host.is_string())
                        list << QString::fromStdString(host.get<std::string>());
            secrets.setHosts(QString::fromStdString(it.key()), list);
        }
    }
    if (const auto oauth = root.find("oauth"); oauth != root.end() && oauth->is_object())
        for (auto it = oauth->begin(); it != oauth->end(); ++it)
            if (it->is_object())
                secrets.m_oauth.insert(QString::fromStdString(it.key()), QString::fromStdString(it->dump()));
    secrets.collectOAuthValues();
    return secrets;
}

void Secrets::setOAuth(const QString &server, const QString &jsonText)
{
    const QByteArray text = jsonText.toUtf8();
    const auto value = JsonInput::read<nlohmann::json>(std::string_view(text.constData(), std::size_t(text.size())));
    if (jsonText.isEmpty() || !value.is_object())
        m_oauth.remove(server);
    else
        m_oauth.insert(server, QString::fromStdString(value.dump()));
    collectOAuthValues();
}

void Secrets::collectOAuthValues()
{
    m_oauthValues.clear();
    for (const QString &text : std::as_const(m_oauth)) {
        const QByteArray bytes = text.toUtf8();
        const auto value
            = JsonInput::read<nlohmann::json>(std::string_view(bytes.constData(), std::size_t(bytes.size())));
        for (const char *key : {"access_token", "refresh_token", "client_secret"})
            if (value.is_object() && value.contains(key) && value[key].is_string())
                m_oauthValues << QString::fromStdString(value[key].get<std::string>());
    }
}

bool Secrets::set(const QString &name, const QString &value, QString *error)
{
    if (!isValidName(name)) {
        if (error)
            *error = QStringLiteral("invalid secret name '%1' (an environment variable name: a letter or '_', "
                                    "then letters, digits or '_')")
                         .arg(name);
        return false;
    }
    if (value.isEmpty()) {
        if (error)
            *error = QStringLiteral("empty value for secret '%1': a secret needs a value (to delete it, remove it)")
                         .arg(name);
        return false;
    }
    if (m_values.value(name) != value)
        m_hosts.remove(name); // a new key: bound again to the host it is entered for
    m_values.insert(name, value);
    return true;
}

void Secrets::setHosts(const QString &name, const QStringList &hosts)
{
    QStringList normalised;
    for (const QString &host : hosts)
        if (!host.trimmed().isEmpty() && !normalised.contains(host.trimmed().toLower()))
            normalised << host.trimmed().toLower();
    if (normalised.isEmpty())
        m_hosts.remove(name);
    else
        m_hosts.insert(name, normalised);
}

QString Secrets::hostOf(const QUrl &url)
{
    const QString host = url.host().toLower();
    const int defaultPort = url.scheme() == QLatin1String("https") ? 443 : 80;
    return url.port() < 0 || url.port() == defaultPort ? host : QStringLiteral("%1:%2").arg(host).arg(url.port());
}

QString Secrets::allowSend(const QString &name, const QUrl &url)
{
    const QString host = hostOf(url);
    if (host.isEmpty())
        return QStringLiteral("the URL %1 names no host").arg(url.toDisplayString());
    const QStringList bound = hosts(name);
    if (bound.contains(host))
        return {};
    if (!bound.isEmpty())
        return QStringLiteral("the secret %1 is bound to %2, not to %3 (a key goes only to the hosts it was entered "
                              "for); if %3 should get it, run `toolstudio tools secret PROJECT %1 --host %3` "
                              "(add --host for each host it may go to)")
            .arg(name, bound.join(QStringLiteral(", ")), host);
    // First use: bound in this copy, and in the file as it is now (another window may have
    // changed it since this copy was loaded) when it still holds this key.
    QString error;
    Secrets fresh = load(m_projectDir, &error);
    if (!error.isEmpty())
        return error;
    if (fresh.value(name) != value(name)) {
        setHosts(name, {host});
        return {};
    }
    if (fresh.hosts(name).isEmpty()) {
        fresh.setHosts(name, {host});
        if (!fresh.save(&error))
            return error;
    } else if (!fresh.hosts(name).contains(host)) {
        m_hosts.insert(name, fresh.hosts(name));
        return allowSend(name, url);
    }
    setHosts(name, fresh.hosts(name));
    return {};
}

void Secrets::remove(const QString &name)
{
    m_values.remove(name);
    m_hosts.remove(name);
}

bool Secrets::save(QString *error) const
{
    const QString path = filePath(m_projectDir);
    const QString folder = QFileInfo(path).absolutePath();
    if (!QDir().mkpath(folder)) {
        if (error)
            *error = QStringLiteral("cannot create %1").arg(folder);
        return false;
    }
    ::chmod(QFile::encodeName(folder).constData(), 0700);
    nlohmann::json root{{"project", m_projectDir.toStdString()}, {"secrets", nlohmann::json::object()}};
    for (auto it = m_values.cbegin(); it != m_values.cend(); ++it)
        root["secrets"][it.key().toStdString()] = it.value().toStdString();
    for (auto it = m_hosts.cbegin(); it != m_hosts.cend(); ++it) {
        if (!m_values.contains(it.key()))
            continue; // a deleted secret's binding goes with it
        for (const QString &host : it.value())
            root["hosts"][it.key().toStdString()].push_back(host.toStdString());
    }
    for (auto it = m_oauth.cbegin(); it != m_oauth.cend(); ++it) {
        const QByteArray text = it.value().toUtf8();
        const auto value
            = JsonInput::read<nlohmann::json>(std::string_view(text.constData(), std::size_t(text.size())));
        if (value.is_object())
            root["oauth"][it.key().toStdString()] = value;
    }
    QSaveFile file(path);
    // The temporary file is created 0600 before anything is written into it.
    if (!file.open(QIODevice::WriteOnly) || !file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)) {
        if (error)
            *error = QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
        return false;
    }
    file.write(QByteArray::fromStdString(root.dump(2) + '\n'));
    if (!file.commit()) {
        if (error)
            *error = QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

QProcessEnvironment Secrets::addTo(QProcessEnvironment base) const
{
    for (auto it = m_values.cbegin(); it != m_values.cend(); ++it)
        base.insert(it.key(), it.value());
    return base;
}

QString Secrets::mask(QString text) const
{
    for (const QString &value : m_values)
        if (value.size() >= 4)
            text.replace(value, QLatin1String(Mask));
    for (const QString &value : m_oauthValues)
        if (value.size() >= 4)
            text.replace(value, QLatin1String(Mask));
    return text;
}

QByteArray Secrets::mask(const QByteArray &text) const
{
    QByteArray masked = text;
    for (const QStringList &values : {QStringList(m_values.values()), m_oauthValues})
        for (const QString &value : values)
            if (value.size() >= 4)
                masked.replace(value.toUtf8(), Mask);
    return masked;
}
