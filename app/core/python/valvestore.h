// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <nlohmann/json.hpp>

/// Valve values of a project's Python tool files (DESIGN.md "Valves"): the settings a
/// `class Valves` / `class UserValves` pydantic model of a tool file declares, as set
/// by a person. Stored in `PROJECT/.toolstudio/valves.json`:
/// `{"tools/weather.py": {"Valves": {"units": "imperial"}, "UserValves": {}}}` — in the
/// project (they travel in a bundle as defaults) but next to the journal, not meant
/// for git. Every invoke passes the whole map to the worker, which applies the entry
/// of the method's file (`tools.valves = Tools.Valves(**values)`; UserValves go in
/// `__user__["valves"]`). Values missing here take the model's defaults.
class ValveStore
{
public:
    static ValveStore load(const QString &projectDir, QString *error = nullptr);
    static QString filePath(const QString &projectDir);

    /// `kind` is "Valves" or "UserValves"; an empty object when nothing is set.
    nlohmann::json values(const QString &file, const QString &kind = QStringLiteral("Valves")) const;
    /// Replaces the values of `file`/`kind` (an object; empty = back to the defaults).
    void setValues(const QString &file, const QString &kind, const nlohmann::json &values);
    /// Everything, keyed by file.
    const nlohmann::json &all() const { return m_values; }
    void merge(const nlohmann::json &other);
    bool save(QString *error = nullptr) const;

private:
    QString m_projectDir;
    nlohmann::json m_values = nlohmann::json::object();
};
