// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// libFuzzer target: a project's toolstudio.json (a project downloaded or cloned from
// elsewhere, or half written) through Project::load, the path the window and every
// command take. Checks that nothing crashes, that a refusal names the manifest, and
// that a loaded project's tools have unique names.

#include "project/project.h"

#include "fuzzcheck.h"

#include <QSet>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QString dir = FuzzCheck::scratchDir() + QStringLiteral("/project");
    static const bool made = QDir().mkpath(dir);
    FuzzCheck::check(made);
    FuzzCheck::writeFile(dir + QStringLiteral("/toolstudio.json"), FuzzCheck::bytes(data, size));
    ProjectError error;
    const std::optional<Project> project = Project::load(dir, &error);
    if (!project) {
        FuzzCheck::check(!error.message.isEmpty());
        return 0;
    }
    QSet<QString> names;
    for (const Tool &tool : project->tools) {
        FuzzCheck::check(!names.contains(tool.name));
        names.insert(tool.name);
    }
    return 0;
}
