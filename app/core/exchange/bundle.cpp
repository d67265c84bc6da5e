// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "exchange/bundle.h"

#include "project/jsonerror.h"
#include "project/jsonqt.h"
#include "project/printabletext.h"
#include "project/project.h"
#include "project/projecttrust.h"
#include "project/projectwriter.h"
#include "project/tool.h"
#include "python/secrets.h"
#include "python/toolworker.h"
#include "python/valvestore.h"

#include <quazip.h>
#include <quazipfile.h>
#include <quazipfileinfo.h>
#include <quazipnewinfo.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>

#include <map>

namespace Bundle {

namespace {

using ordered = nlohmann::ordered_json;

constexpr auto ManifestEntry = "bundle.json";
constexpr auto FormatName = "toolstudio-bundle";

QString tr(const char *text)
{
    return QCoreApplication::translate("Bundle", text);
}

/// `tools/NAME.py` with a plain file name: the only file entries a bundle may hold.
bool isToolFileEntry(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^tools/[A-Za-z0-9_][A-Za-z0-9_.-]*\\.py$"));
    return re.match(name).hasMatch() && !name.contains(QLatin1String(".."));
}

/// Zip-slip: an absolute path, a drive or backslash path, or a `..` component.
bool escapes(const QString &name)
{
    if (name.startsWith(QLatin1Char('/')) || name.startsWith(QLatin1Char('\\')) || name.contains(QLatin1Char('\\'))
        || (name.size() > 1 && name.at(1) == QLatin1Char(':')))
        return true;
    const QStringList parts = name.split(QLatin1Char('/'));
    return parts.contains(QStringLiteral(".."));
}

bool addEntry(QuaZip &zip, const QString &name, const QByteArray &data, QString *error)
{
    QuaZipFile out(&zip);
    QuaZipNewInfo info(name);
    info.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup
                        | QFileDevice::ReadOther);
    if (!out.open(QIODevice::WriteOnly, info) || out.write(data) != data.size()) {
        *error = tr("%1: cannot add %2 (zip error %3)").arg(zip.getZipName(), name).arg(out.getZipError());
        return false;
    }
    out.close();
    if (out.getZipError() != 0) {
        *error = tr("%1: cannot add %2 (zip error %3)").arg(zip.getZipName(), name).arg(out.getZipError());
        return false;
    }
    return true;
}

} // namespace

bool exportBundle(const QString &projectDir, const QString &zipPath, QStringList *exported, QString *error)
{
    QString reason;
    const auto manifest = ProjectWriter::readManifest(projectDir, &reason);
    if (!manifest) {
        *error = reason;
        return false;
    }
    const Secrets secrets = Secrets::load(projectDir);
    ordered bundle{{"format", FormatName}, {"version", 1}, {"tools", ordered::array()}};
    if (manifest->contains("tools") && (*manifest)["tools"].is_array())
        for (const ordered &tool : (*manifest)["tools"]) {
            bundle["tools"].push_back(tool);
            *exported << tr("tool '%1'").arg(JsonQt::stringField(tool, "name"));
        }
    if (manifest->contains("python_tools") && (*manifest)["python_tools"].is_object()
        && !(*manifest)["python_tools"].empty())
        bundle["python_tools"] = (*manifest)["python_tools"];

    std::map<QString, QByteArray> files;
    const QDir toolsDir(projectDir + QStringLiteral("/tools"));
    for (const QString &name : toolsDir.entryList({QStringLiteral("*.py")}, QDir::Files, QDir::Name)) {
        const QString relative = QStringLiteral("tools/") + name;
        if (!isToolFileEntry(relative))
            continue;
        QFile file(toolsDir.filePath(name));
        if (!file.open(QIODevice::ReadOnly)) {
            *error = tr("%1: cannot read: %2").arg(file.fileName(), file.errorString());
            return false;
        }
        files[relative] = secrets.mask(file.readAll());
        *exported << relative;
    }
    ordered valves = ordered::object();
    const ValveStore store = ValveStore::load(projectDir);
    const nlohmann::json &stored = store.all();
    for (auto it = stored.begin(); it != stored.end(); ++it)
        if (files.count(JsonQt::fromStd(it.key())) && it->is_object() && !it->empty()) {
            valves[it.key()] = ordered::parse(it->dump());
            *exported << tr("valves of %1").arg(JsonQt::fromStd(it.key()));
        }
    bundle["valves"] = valves;

    const QString partial = zipPath + QStringLiteral(".part");
    QFile::remove(partial);
    QuaZip zip(partial);
    if (!zip.open(QuaZip::mdCreate)) {
        *error = tr("%1: cannot create (zip error %2)").arg(zipPath).arg(zip.getZipError());
        return false;
    }
    bool ok = addEntry(zip, QString::fromLatin1(ManifestEntry),
                       secrets.mask(QByteArray::fromStdString(bundle.dump(2) + '\n')), error);
    for (auto it = files.begin(); ok && it != files.end(); ++it)
        ok = addEntry(zip, it->first, it->second, error);
    zip.close();
    if (ok && zip.getZipError() != 0) {
        *error = tr("%1: cannot write (zip error %2)").arg(zipPath).arg(zip.getZipError());
        ok = false;
    }
    if (ok) {
        QFile::remove(zipPath);
        if (!QFile::rename(partial, zipPath)) {
            *error = tr("%1: cannot write").arg(zipPath);
            ok = false;
        }
    }
    if (!ok)
        QFile::remove(partial);
    return ok;
}

bool importBundle(const QString &projectDir, const QString &zipPath, QStringList *imported, QStringList *errors)
{
    // 1. Read and check every entry before anything is written.
    QuaZip zip(zipPath);
    if (!zip.open(QuaZip::mdUnzip)) {
        *errors << tr("%1: not a zip file (or it cannot be read)").arg(zipPath);
        return false;
    }
    if (zip.getEntriesCount() > MaxEntries) {
        *errors << tr("%1: %2 entries, more than the %3 a bundle may hold")
                       .arg(zipPath)
                       .arg(zip.getEntriesCount())
                       .arg(MaxEntries);
        return false;
    }
    QByteArray manifestData;
    bool haveManifest = false;
    std::map<QString, QByteArray> files;
    qint64 unpacked = 0; // bytes read from every entry so far
    for (bool more = zip.goToFirstFile(); more; more = zip.goToNextFile()) {
        QuaZipFileInfo64 info;
        if (!zip.getCurrentFileInfo(&info)) {
            *errors << tr("%1: a damaged entry (zip error %2)").arg(zipPath).arg(zip.getZipError());
            continue;
        }
        const QString name = info.name;
        if (escapes(name)) {
            *errors << tr("entry '%1': a path outside the project (absolute or with '..') is refused").arg(name);
            continue;
        }
        if (name.endsWith(QLatin1Char('/')))
            continue; // a directory entry (e.g. "tools/")
        const bool isManifest = name == QLatin1String(ManifestEntry);
        if (!isManifest && !isToolFileEntry(name)) {
            *errors << tr("entry '%1': not part of a bundle (only bundle.json and tools/NAME.py)").arg(name);
            continue;
        }
        if (info.uncompressedSize > quint64(MaxEntryBytes)) {
            *errors << tr("entry '%1': %2 bytes, more than the %3 bytes a bundle entry may hold")
                           .arg(name)
                           .arg(info.uncompressedSize)
                           .arg(MaxEntryBytes);
            continue;
        }
        QuaZipFile in(&zip);
        if (!in.open(QIODevice::ReadOnly)) {
            *errors << tr("entry '%1': cannot read (zip error %2)").arg(name).arg(in.getZipError());
            continue;
        }
        // The header's size may lie: never read more than the limits.
        const qint64 room = std::min(MaxEntryBytes, MaxTotalBytes - unpacked);
        const QByteArray data = in.read(room + 1);
        in.close();
        if (data.size() > room) {
            if (room == MaxEntryBytes) {
                *errors
                    << tr("entry '%1': more than the %2 bytes a bundle entry may hold").arg(name).arg(MaxEntryBytes);
                continue;
            }
            *errors << tr("entry '%1': the entries unpack to more than the %2 bytes a bundle may hold")
                           .arg(name)
                           .arg(MaxTotalBytes);
            break; // nothing more is read
        }
        unpacked += data.size();
        if (in.getZipError() != 0) {
            *errors << tr("entry '%1': damaged (zip error %2)").arg(name).arg(in.getZipError());
            continue;
        }
        if (isManifest) {
            manifestData = data;
            haveManifest = true;
        } else {
            files[name] = data;
        }
    }
    zip.close();
    if (!errors->isEmpty())
        return false;
    if (!haveManifest) {
        *errors << tr("%1: no bundle.json: not a Tool Studio bundle").arg(zipPath);
        return false;
    }
    JsonInput::Problem problem;
    const ordered bundle = JsonInput::read<ordered>(
        std::string_view(manifestData.constData(), std::size_t(manifestData.size())), &problem);
    if (bundle.is_discarded()) {
        *errors << tr("%1: bundle.json is not valid JSON: %2").arg(zipPath, describeJsonProblem(manifestData, problem));
        return false;
    }
    if (!bundle.is_object() || JsonQt::stringField(bundle, "format") != QLatin1String(FormatName)
        || !bundle.value("tools", ordered::array()).is_array() || !bundle.value("valves", ordered::object()).is_object()
        || !bundle.value("python_tools", ordered::object()).is_object()) {
        *errors << tr("%1: bundle.json is not a Tool Studio bundle manifest").arg(zipPath);
        return false;
    }
    const ordered version = bundle.value("version", ordered());
    if (version != ordered(1)) {
        *errors << tr("%1: bundle version %2 is not supported (this studio reads version 1)")
                       .arg(zipPath, elidedText(JsonQt::fromStd(version.dump())));
        return false;
    }

    // 2. Names: the Python tools the files define, then collisions with the project.
    ProjectError loadError;
    const auto project = Project::load(projectDir, &loadError);
    if (!project) {
        *errors << loadError.toString();
        return false;
    }
    QStringList newTools;         // in bundle order
    QHash<QString, QString> from; // tool → where in the bundle
    const auto claim = [&](const QString &name, const QString &where) {
        if (project->tool(name)) {
            const PythonToolFile *file = project->pythonFileOf(name);
            *errors << tr("tool '%1' (%2): the project already has a tool of that name%3")
                           .arg(name, where, file ? tr(" (in %1)").arg(file->path) : QString());
        } else if (from.contains(name)) {
            *errors << tr("tool '%1': defined twice in the bundle (%2 and %3)").arg(name, from.value(name), where);
        } else {
            from.insert(name, where);
            newTools << name;
        }
    };
    for (const ordered &tool : bundle.value("tools", ordered::array())) {
        const QString name = JsonQt::stringField(tool, "name");
        if (!Tool::isValidName(name))
            *errors << tr("bundle.json: tool '%1': invalid name (%2)").arg(name, Tool::nameRule());
        else
            claim(name, QStringLiteral("bundle.json"));
    }
    for (const auto &[name, data] : files)
        if (QFileInfo::exists(projectDir + QLatin1Char('/') + name))
            *errors << tr("%1: the project already has a file of that name").arg(name);
    if (!files.empty() && !project->trusted) { // describing the files would run their top-level code
        *errors << tr("the bundle has Python tool files, and reading their tools runs their code: %1")
                       .arg(ProjectTrust::refusal(*project));
        return false;
    }
    if (!files.empty()) {
        QTemporaryDir staging;
        for (const auto &[name, data] : files) {
            QDir().mkpath(staging.filePath(QStringLiteral("tools")));
            QFile out(staging.filePath(name));
            if (!out.open(QIODevice::WriteOnly) || out.write(data) != data.size()) {
                *errors << tr("%1: cannot stage: %2").arg(name, out.errorString());
                return false;
            }
        }
        QString reason;
        const auto described = ToolWorker::describeSync(staging.path(), Project::pythonTimeoutMs, &reason);
        if (!described) {
            *errors << tr("the bundle's tool files cannot be described: %1").arg(reason);
            return false;
        }
        for (const nlohmann::json &file : *described) {
            const QString path = JsonQt::stringField(file, "file");
            for (const nlohmann::json &tool : file.value("tools", nlohmann::json::array()))
                if (!tool.contains("error"))
                    claim(JsonQt::stringField(tool, "name"), path);
        }
    }
    if (!errors->isEmpty())
        return false;

    // 3. Apply: manifest, files, valves; then the project must load, or all is undone.
    QString reason;
    auto manifest = ProjectWriter::readManifest(projectDir, &reason);
    if (!manifest) {
        *errors << reason;
        return false;
    }
    const ProjectWriter::Manifest original = *manifest;
    for (const ordered &tool : bundle.value("tools", ordered::array()))
        if (!ProjectWriter::addTool(*manifest, tool, &reason)) {
            *errors << reason;
            return false;
        }
    const ordered overrides = bundle.value("python_tools", ordered::object());
    for (auto it = overrides.begin(); it != overrides.end(); ++it)
        if (from.contains(JsonQt::fromStd(it.key())))
            (*manifest)["python_tools"][it.key()] = *it;
    QStringList written;
    const auto undo = [&] {
        for (const QString &name : std::as_const(written))
            QFile::remove(projectDir + QLatin1Char('/') + name);
        ProjectWriter::writeManifest(projectDir, original, nullptr);
    };
    if (*manifest != original && !ProjectWriter::writeManifest(projectDir, *manifest, &reason)) {
        *errors << reason;
        return false;
    }
    QDir().mkpath(projectDir + QStringLiteral("/tools"));
    for (const auto &[name, data] : files) {
        QFile out(projectDir + QLatin1Char('/') + name);
        if (!out.open(QIODevice::NewOnly) || out.write(data) != data.size()) {
            *errors << tr("%1: cannot write: %2").arg(out.fileName(), out.errorString());
            undo();
            return false;
        }
        written << name;
    }
    if (!Project::load(projectDir, &loadError)) {
        undo();
        *errors << loadError.toString();
        return false;
    }
    const ordered valves = bundle.value("valves", ordered::object());
    ValveStore store = ValveStore::load(projectDir);
    bool valvesChanged = false;
    for (auto it = valves.begin(); it != valves.end(); ++it)
        if (files.count(JsonQt::fromStd(it.key())) && it->is_object()) {
            store.merge(nlohmann::json{{it.key(), nlohmann::json::parse(it->dump())}});
            valvesChanged = true;
        }
    if (valvesChanged && !store.save(&reason)) {
        undo();
        *errors << reason;
        return false;
    }
    *imported = newTools;
    return true;
}

} // namespace Bundle
