// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "projecttemplates.h"

#include "projectwriter.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

#include <algorithm>

// Outside any namespace: the macro declares the resource's init function.
static void initTemplateResources()
{
    Q_INIT_RESOURCE(templates);
}

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("ProjectTemplates", text);
}

QString sourceDir(const QString &name)
{
    return QStringLiteral(":/templates/") + name;
}

/// The template's files, relative to its folder, sorted.
QStringList templateFiles(const QString &name)
{
    initTemplateResources();
    QStringList files;
    const QDir source(sourceDir(name));
    QDirIterator it(source.path(), QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        files.append(source.relativeFilePath(it.next()));
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

namespace ProjectTemplates {

const std::vector<ProjectTemplate> &all()
{
    // Built on first use, after a translator may have been installed.
    static const std::vector<ProjectTemplate> templates{
        {QStringLiteral("empty"),
         tr("Empty project"),
         tr("A manifest with no tools and a script that prints a line: add your own tools."),
         {}},
        {QStringLiteral("python-tool"),
         tr("Python tool and a script"),
         tr("tools/text.py, a Python tool file whose methods are tools, and a script that calls them."),
         {}},
        {QStringLiteral("exchange-rate"),
         tr("Exchange rate"),
         tr("One mock tool with an input and output schema, called from a plain Python script."),
         {}},
        {QStringLiteral("customer-seats"),
         tr("Customer seats (Python and Node)"),
         tr("An async agent script in Python and the same in Node (script \"node\"), both awaiting one "
            "tool."),
         {}},
        {QStringLiteral("render-report"),
         tr("Render report (answered by a person)"),
         tr("A manual tool: the run waits in Pending Calls until a person sends the report's URL."),
         {QStringLiteral("--answers"), QStringLiteral("answers.json")}},
        {QStringLiteral("retries-and-human"),
         tr("Retries and a person"),
         tr("A flaky mock tool that fails twice and is retried, then a call a person approves."),
         {QStringLiteral("--answers"), QStringLiteral("answers.json")}},
        {QStringLiteral("model-agent"),
         tr("Model agent (offline)"),
         tr("The stock agent loop: a scripted mock model calls the exchange-rate tool; script \"teacher\" lets "
            "a person play the model."),
         {}},
    };
    return templates;
}

const ProjectTemplate *find(const QString &name)
{
    const auto &list = all();
    const auto it = std::find_if(list.begin(), list.end(), [&](const ProjectTemplate &t) { return t.name == name; });
    return it == list.end() ? nullptr : &*it;
}

QStringList names()
{
    QStringList result;
    for (const ProjectTemplate &t : all())
        result.append(t.name);
    return result;
}

bool create(const QString &name, const QString &dir, QStringList *written, QString *error)
{
    if (!find(name)) {
        *error = tr("no template called '%1' (templates: %2)").arg(name, names().join(QStringLiteral(", ")));
        return false;
    }
    const QDir target(QDir::cleanPath(QDir::current().absoluteFilePath(dir)));
    if (QFileInfo::exists(target.filePath(QStringLiteral("toolstudio.json")))) {
        *error = tr("%1 is a project already (it has a toolstudio.json); nothing was written. Open it, or choose "
                    "an empty folder or a new one.")
                     .arg(QDir::toNativeSeparators(target.path()));
        return false;
    }
    if (QFileInfo(target.path()).exists() && !QFileInfo(target.path()).isDir()) {
        *error = tr("%1 is a file, not a folder; nothing was written.").arg(QDir::toNativeSeparators(target.path()));
        return false;
    }
    const QStringList files = templateFiles(name);
    QStringList existing;
    for (const QString &file : files)
        if (QFileInfo::exists(target.filePath(file)))
            existing.append(file);
    if (!existing.isEmpty()) {
        *error = tr("%1 has %2 already; nothing was written (a new project never overwrites a file). Choose an "
                    "empty folder or a new one.")
                     .arg(QDir::toNativeSeparators(target.path()), existing.join(QStringLiteral(", ")));
        return false;
    }
    for (const QString &file : files) {
        const QString to = target.filePath(file);
        if (!QDir().mkpath(QFileInfo(to).absolutePath())) {
            *error = tr("cannot create the folder %1").arg(QDir::toNativeSeparators(QFileInfo(to).absolutePath()));
            return false;
        }
        QFile from(sourceDir(name) + QLatin1Char('/') + file);
        if (!from.copy(to)) {
            *error = tr("cannot write %1: %2").arg(QDir::toNativeSeparators(to), from.errorString());
            return false;
        }
        // A resource copies read-only; the project is the user's to edit.
        QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    }
    // Named after its folder, as a manifest without "name" would be.
    if (std::optional<ProjectWriter::Manifest> manifest = ProjectWriter::readManifest(target.path(), error)) {
        (*manifest)["name"] = QFileInfo(target.path()).fileName().toStdString();
        if (!ProjectWriter::writeManifest(target.path(), *manifest, error))
            return false;
    } else {
        return false;
    }
    if (written)
        *written = files;
    return true;
}

} // namespace ProjectTemplates
