// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpnpxpackage.h"

#include "jsoninput.h"
#include "project/mcpserverconfig.h"
#include "project/printabletext.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

#include <unistd.h>

namespace {

/// The file an install leaves last in its folder: the folder is complete.
constexpr auto InstalledMarker = ".toolstudio-npx";
/// A package.json the studio reads to find the bin: larger ones are refused.
constexpr qint64 MaxPackageJsonBytes = 1024 * 1024;

QString quoted(const QString &text)
{
    return QStringLiteral("\"%1\"").arg(elidedText(printableText(text), 120));
}

} // namespace

bool McpNpxPackage::isRegistrySpec(const QString &spec)
{
    // npm's package names (lowercase, URL-safe, at most 214 characters, an optional
    // scope) and, after "@", a version, range or dist-tag without spaces, slashes or colons.
    static const QRegularExpression registry(QStringLiteral(
        "^(?:@[a-z0-9~][a-z0-9._~-]*/)?[a-z0-9~][a-z0-9._~-]*(?:@[0-9A-Za-z^~<>=*][0-9A-Za-z.^~<>=*|+_-]{0,63})?$"));
    // npm takes a spec ending like an archive for a local file, whatever comes before
    // ("foo.tgz", "foo@x.tgz"), and a version of dots for a folder ("foo@.."): the
    // version must start with a letter, digit or range sign, and no archive ending.
    static const QRegularExpression archive(QStringLiteral("\\.(?:tgz|tar|tar\\.gz|gz)$"),
                                            QRegularExpression::CaseInsensitiveOption);
    return spec.size() <= 280 && registry.match(spec).hasMatch() && !archive.match(spec).hasMatch()
        && !spec.contains(QLatin1String(".."));
}

std::optional<McpNpxPackage> McpNpxPackage::of(const McpServerConfig &server, QString *error)
{
    error->clear();
    if (server.transport != McpServerConfig::Transport::Stdio || QFileInfo(server.command).fileName() != u"npx")
        return std::nullopt;
    McpNpxPackage package;
    QStringList args = server.args;
    while (!args.isEmpty()) {
        const QString arg = args.first();
        if (arg == u"-y" || arg == u"--yes" || arg == u"-q" || arg == u"--quiet") {
            args.removeFirst();
        } else if (arg == u"-p" || arg == u"--package") {
            args.removeFirst();
            if (args.isEmpty() || !package.m_spec.isEmpty()) {
                *error
                    = QStringLiteral("npx %1 needs one package (the studio installs one package per server)").arg(arg);
                return std::nullopt;
            }
            package.m_spec = args.takeFirst();
        } else if (arg.startsWith(u"--package=")) {
            if (!package.m_spec.isEmpty()) {
                *error = QStringLiteral("npx --package is given twice (the studio installs one package per server)");
                return std::nullopt;
            }
            package.m_spec = args.takeFirst().mid(10);
        } else if (arg == u"--") {
            args.removeFirst();
            break;
        } else if (arg.startsWith(u'-')) {
            *error = QStringLiteral("the npx option %1 is not one the studio knows (it takes -y, --yes, -q, -p "
                                    "PACKAGE, --package=PACKAGE and --); install the package and start it with node")
                         .arg(quoted(arg));
            return std::nullopt;
        } else {
            break;
        }
    }
    if (args.isEmpty()) {
        *error = QStringLiteral("npx names no package to run");
        return std::nullopt;
    }
    if (package.m_spec.isEmpty())
        package.m_spec = args.takeFirst();
    else
        package.m_command = args.takeFirst();
    if (!isRegistrySpec(package.m_spec)) {
        *error = QStringLiteral("npx package %1 is not a package of the npm registry (a name, and a version, range "
                                "or tag after @): the studio installs only those; install it into the project and "
                                "start it with node")
                     .arg(quoted(package.m_spec));
        return std::nullopt;
    }
    if (!package.m_command.isEmpty()
        && !QRegularExpression(QStringLiteral("^[A-Za-z0-9._-]{1,128}$")).match(package.m_command).hasMatch()) {
        *error = QStringLiteral("npx command %1 is not the name of a package's bin").arg(quoted(package.m_command));
        return std::nullopt;
    }
    const qsizetype at = package.m_spec.indexOf(u'@', 1);
    package.m_name = at < 0 ? package.m_spec : package.m_spec.left(at);
    package.m_arguments = args;
    return package;
}

QString McpNpxPackage::cacheRoot()
{
    const QString given = qEnvironmentVariable("TOOLSTUDIO_NPX_CACHE");
    if (!given.isEmpty())
        return QDir::cleanPath(QDir(given).absolutePath());
    if (::geteuid() == 0)
        return QStringLiteral("/var/cache/toolstudio/npx");
    return QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation) + QStringLiteral("/toolstudio/npx");
}

QString McpNpxPackage::installDir() const
{
    const QByteArray hash = QCryptographicHash::hash(m_spec.toUtf8(), QCryptographicHash::Sha256).toHex().left(16);
    // The readable part names the package; the hash tells specs apart.
    QString readable = m_name;
    readable.replace(u'/', u'+').remove(u'@');
    return cacheRoot() + u'/' + readable + u'-' + QString::fromLatin1(hash);
}

bool McpNpxPackage::isInstalled() const
{
    QFile marker(installDir() + u'/' + QLatin1String(InstalledMarker));
    return marker.open(QIODevice::ReadOnly) && marker.read(1024).trimmed() == m_spec.toUtf8();
}

QStringList McpNpxPackage::installCommand(const QString &prefix) const
{
    // No install scripts: a package's code runs only confined, as the server.
    return {QStringLiteral("npm"),
            QStringLiteral("install"),
            QStringLiteral("--prefix"),
            prefix,
            QStringLiteral("--ignore-scripts"),
            QStringLiteral("--no-audit"),
            QStringLiteral("--no-fund"),
            QStringLiteral("--no-save"),
            QStringLiteral("--loglevel=error"),
            QStringLiteral("--"),
            m_spec};
}

QString McpNpxPackage::binPath(const QString &installDir, QString *error) const
{
    const QString packageDir = QDir::cleanPath(installDir + QStringLiteral("/node_modules/") + m_name);
    QFile file(packageDir + QStringLiteral("/package.json"));
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("the installed package has no package.json (%1)").arg(file.fileName());
        return {};
    }
    const QByteArray bytes = file.read(MaxPackageJsonBytes + 1);
    std::string problem;
    const nlohmann::json manifest = JsonInput::parse(std::string_view(bytes.constData(), std::size_t(bytes.size())),
                                                     "its package.json", &problem);
    if (bytes.size() > MaxPackageJsonBytes || !problem.empty() || !manifest.is_object()) {
        *error = problem.empty() ? QStringLiteral("its package.json is not a JSON object of at most 1 MiB")
                                 : QString::fromStdString(problem);
        return {};
    }
    const nlohmann::json bin = manifest.value("bin", nlohmann::json());
    const QString unscoped = m_name.mid(m_name.lastIndexOf(u'/') + 1);
    QString relative;
    QStringList names;
    if (bin.is_string() && m_command.isEmpty()) {
        relative = QString::fromStdString(bin.get<std::string>());
    } else if (bin.is_object()) {
        for (const auto &[key, value] : bin.items())
            if (value.is_string())
                names << QString::fromStdString(key);
        const QString wanted = !m_command.isEmpty() ? m_command : names.size() == 1 ? names.first() : unscoped;
        if (names.contains(wanted))
            relative = QString::fromStdString(bin[wanted.toStdString()].get<std::string>());
    } else if (bin.is_string() && m_command == unscoped) {
        relative = QString::fromStdString(bin.get<std::string>());
    }
    if (relative.isEmpty()) {
        *error = names.isEmpty() ? QStringLiteral("package %1 has no bin to run").arg(quoted(m_name))
                                 : QStringLiteral("package %1 has no bin %2 (it has: %3)")
                                       .arg(quoted(m_name), quoted(m_command.isEmpty() ? unscoped : m_command),
                                            elidedText(printableText(names.join(QStringLiteral(", "))), 300));
        return {};
    }
    const QString path = QDir::cleanPath(packageDir + u'/' + relative);
    const QString real = QFileInfo(path).canonicalFilePath();
    const QString realPackage = QFileInfo(packageDir).canonicalFilePath();
    const QString realInstall = QFileInfo(installDir).canonicalFilePath();
    // The package itself inside the install (not a link to elsewhere), the bin a file in it.
    if (real.isEmpty() || realPackage.isEmpty() || realInstall.isEmpty() || !realPackage.startsWith(realInstall + u'/')
        || !real.startsWith(realPackage + u'/') || !QFileInfo(real).isFile()) {
        *error = QStringLiteral("package %1's bin %2 is not a file inside the package")
                     .arg(quoted(m_name), quoted(relative));
        return {};
    }
    return real;
}

QString McpNpxPackage::notFromTheRegistry(const QString &installDir)
{
    // npm's hidden lockfile lists every package it placed, with where it came from: a
    // registry package has an http(s) "resolved" (or none: npm leaves the registry's
    // out); a dependency from the machine ("file:…", a link) or from git has its own.
    QFile file(installDir + QStringLiteral("/node_modules/.package-lock.json"));
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("it left no node_modules/.package-lock.json to check where each package came from");
    const QByteArray bytes = file.read(MaxLockfileBytes + 1);
    std::string problem;
    const nlohmann::json lock
        = JsonInput::parse(std::string_view(bytes.constData(), std::size_t(bytes.size())), "its lockfile", &problem);
    if (bytes.size() > MaxLockfileBytes || !problem.empty() || !lock.is_object()
        || !lock.value("packages", nlohmann::json()).is_object())
        return QStringLiteral("its node_modules/.package-lock.json could not be read (%1)")
            .arg(problem.empty() ? QStringLiteral("not an object with \"packages\" of at most 16 MiB")
                                 : QString::fromStdString(problem));
    for (const auto &[path, entry] : lock["packages"].items()) {
        if (path.empty())
            continue; // the install folder itself
        const QString where = elidedText(printableText(QString::fromStdString(path)), 200);
        if (!entry.is_object() || entry.value("link", nlohmann::json()) == nlohmann::json(true))
            return QStringLiteral("%1 is a link").arg(where);
        const nlohmann::json resolved = entry.value("resolved", nlohmann::json());
        if (resolved.is_null())
            continue;
        const QString from = resolved.is_string() ? QString::fromStdString(resolved.get<std::string>()) : QString();
        if (!from.startsWith(QLatin1String("https://")) && !from.startsWith(QLatin1String("http://")))
            return QStringLiteral("%1 came from %2").arg(where, elidedText(printableText(from), 200));
    }
    return {};
}

QString McpNpxPackage::markerName()
{
    return QLatin1String(InstalledMarker);
}
