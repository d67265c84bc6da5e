// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpimportcommand.h"

#include "headlessrun.h"
#include "mcp/mcpconfigimport.h"
#include "mcp/mcpimportfolders.h"
#include "project/printabletext.h"
#include "project/projectwriter.h"
#include "python/secrets.h"

#include <QCoreApplication>
#include <QDir>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("mcpimportcommand", text);
}

} // namespace

int importMcpConfig(const QString &projectDir, const QString &file, bool replace)
{
    const QString dir = QDir::current().absoluteFilePath(projectDir);
    const QString fail = QStringLiteral("toolstudio mcp import: ");
    QString error;
    auto manifest = ProjectWriter::readManifest(dir, &error);
    if (!manifest) {
        printLine(stderr, fail + error);
        return ExitBadInput;
    }
    // A pipe too: `toolstudio mcp import p <(curl …)`.
    const auto text = McpConfigImport::readFile(QDir::current().absoluteFilePath(file), true, &error);
    if (!text) {
        printLine(stderr, fail + error);
        return ExitBadInput;
    }
    auto config = McpConfigImport::read(*text, &error);
    if (!config) {
        printLine(stderr, fail + tr("%1: %2").arg(file, error));
        return ExitBadInput;
    }
    McpImportFolders::note(*config, dir);
    Secrets secrets = Secrets::load(dir, &error);
    if (!error.isEmpty()) {
        printLine(stderr, fail + error);
        return ExitBadInput;
    }
    McpConfigImport::Outcome outcome;
    if (!McpConfigImport::apply(*manifest, secrets, *config, replace, &outcome, &error)) {
        printLine(stderr, fail + tr("%1 (%2): %3").arg(file, config->format, error));
        return ExitBadInput;
    }
    // The secrets first: a manifest naming secrets that were not saved would not start.
    if (!outcome.secretsSet.isEmpty() && !secrets.save(&error)) {
        printLine(stderr, fail + tr("the secrets were not saved, nothing was imported: %1").arg(error));
        return ExitBadInput;
    }
    if (!ProjectWriter::writeManifest(dir, *manifest, &error)) {
        printLine(stderr, fail + error);
        return ExitBadInput;
    }
    printLine(stdout, tr("read %1: %2").arg(file, config->format));
    if (!outcome.added.isEmpty())
        printLine(stdout, tr("added: %1").arg(outcome.added.join(QStringLiteral(", "))));
    if (!outcome.replaced.isEmpty())
        printLine(stdout, tr("replaced: %1").arg(outcome.replaced.join(QStringLiteral(", "))));
    for (const McpConfigImport::Server &server : config->servers)
        if (outcome.added.contains(server.name) || outcome.replaced.contains(server.name))
            for (const QString &note : server.notes + outcome.notes.value(server.name))
                printLine(stdout, QStringLiteral("  %1: %2").arg(server.name, note));
    for (const QString &skipped : std::as_const(outcome.skipped))
        printLine(stdout, tr("skipped %1").arg(skipped));
    if (!outcome.secretsSet.isEmpty())
        printLine(stdout,
                  tr("secrets saved in %1 (mode 0600): %2")
                      .arg(Secrets::filePath(dir), outcome.secretsSet.join(QStringLiteral(", "))));
    printLine(stdout, tr("next: toolstudio mcp list %1").arg(shellQuoted(projectDir)));
    return ExitCompleted;
}
