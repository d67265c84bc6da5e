// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "python/valvestore.h"

#include "jsoninput.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

QString ValveStore::filePath(const QString &projectDir)
{
    return projectDir + QStringLiteral("/.toolstudio/valves.json");
}

ValveStore ValveStore::load(const QString &projectDir, QString *error)
{
    ValveStore store;
    store.m_projectDir = projectDir;
    QFile file(filePath(projectDir));
    if (!file.exists())
        return store;
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot read: %2").arg(file.fileName(), file.errorString());
        return store;
    }
    const QByteArray data = file.readAll();
    // In the project folder: as outside as the manifest (a project from the internet).
    const auto root = JsonInput::read<nlohmann::json>(std::string_view(data.constData(), std::size_t(data.size())));
    if (!root.is_object()) {
        if (error)
            *error = QStringLiteral("%1: not a JSON object; the valves take their defaults").arg(file.fileName());
        return store;
    }
    store.m_values = root;
    return store;
}

nlohmann::json ValveStore::values(const QString &file, const QString &kind) const
{
    const auto fileIt = m_values.find(file.toStdString());
    if (fileIt == m_values.end() || !fileIt->is_object())
        return nlohmann::json::object();
    const auto kindIt = fileIt->find(kind.toStdString());
    return kindIt != fileIt->end() && kindIt->is_object() ? *kindIt : nlohmann::json::object();
}

void ValveStore::setValues(const QString &file, const QString &kind, const nlohmann::json &values)
{
    nlohmann::json &entry = m_values[file.toStdString()];
    if (!entry.is_object())
        entry = nlohmann::json::object();
    entry[kind.toStdString()] = values.is_object() ? values : nlohmann::json::object();
}

void ValveStore::merge(const nlohmann::json &other)
{
    if (!other.is_object())
        return;
    for (auto it = other.begin(); it != other.end(); ++it)
        if (it->is_object())
            for (auto kind = it->begin(); kind != it->end(); ++kind)
                setValues(QString::fromStdString(it.key()), QString::fromStdString(kind.key()), *kind);
}

bool ValveStore::save(QString *error) const
{
    const QString path = filePath(m_projectDir);
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
        return false;
    }
    file.write(QByteArray::fromStdString(m_values.dump(2) + '\n'));
    if (!file.commit()) {
        if (error)
            *error = QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}
