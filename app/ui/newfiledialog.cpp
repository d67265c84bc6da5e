// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "newfiledialog.h"

#include "exchange/typings.h"
#include "project/project.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

NewFileDialog::NewFileDialog(Kind kind, const Project *project, ManifestEdit editManifest, QWidget *parent)
    : QDialog(parent)
    , m_kind(kind)
    , m_project(project)
    , m_editManifest(std::move(editManifest))
{
    setObjectName(QStringLiteral("newFileDialog"));
    setWindowTitle(kind == Kind::Tool ? tr("New Tool") : tr("New Script"));
    m_name = new QLineEdit(kind == Kind::Tool ? QStringLiteral("my_tool") : QStringLiteral("my_script"), this);
    m_name->setObjectName(QStringLiteral("newFileName"));
    m_language = new QComboBox(this);
    m_language->setObjectName(QStringLiteral("newFileLanguage"));
    m_language->addItem(kind == Kind::Tool ? tr("Python (a method of class Tools)") : tr("Python"),
                        int(Language::Python));
    m_language->addItem(kind == Kind::Tool ? tr("Node (a command tool)") : tr("Node"), int(Language::Node));
    m_path = new QLabel(this);
    m_path->setObjectName(QStringLiteral("newFilePath"));
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("newFileError"));
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText);
    m_error->setStyleSheet(QStringLiteral("color: palette(link)"));
    m_error->hide();
    const auto update = [this] {
        m_path->setText(
            tr("Writes %1")
                .arg(relativePath(m_kind, Language(m_language->currentData().toInt()), m_name->text().trimmed())));
        m_error->hide();
    };
    connect(m_name, &QLineEdit::textChanged, this, update);
    connect(m_language, &QComboBox::currentIndexChanged, this, update);
    update();

    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Language:"), m_language);
    form->addRow(QString(), m_path);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Create"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        if (create())
            accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
    m_name->selectAll();
}

void NewFileDialog::setName(const QString &name)
{
    m_name->setText(name);
}

void NewFileDialog::setLanguage(Language language)
{
    m_language->setCurrentIndex(m_language->findData(int(language)));
}

QString NewFileDialog::error() const
{
    return m_error->text();
}

QString NewFileDialog::relativePath(Kind kind, Language language, const QString &name)
{
    return QStringLiteral("%1/%2.%3")
        .arg(kind == Kind::Tool ? QStringLiteral("tools") : QStringLiteral("scripts"), name,
             language == Language::Python ? QStringLiteral("py") : QStringLiteral("js"));
}

QString NewFileDialog::nameRefusal(Kind kind, Language language, const QString &name)
{
    const bool tool = kind == Kind::Tool;
    static const QRegularExpression identifier(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]{0,63}$"));
    if (name.isEmpty())
        return tool ? tr("Give the tool a name.") : tr("Give the script a name.");
    if (!identifier.match(name).hasMatch()) {
        static const QRegularExpression other(QStringLiteral("[^A-Za-z0-9_]"));
        const QString suggestion = QString(name).replace(other, QStringLiteral("_"));
        return (tool ? tr("'%1' is not a valid tool name: use up to 64 letters, digits and _, starting with a letter "
                          "or _ (for example %2).")
                     : tr("'%1' is not a valid script name: use up to 64 letters, digits and _, starting with a "
                          "letter or _ (for example %2)."))
            .arg(name, suggestion);
    }
    if (tool && language == Language::Python && Typings::isPythonKeyword(name))
        return tr("'%1' is a Python keyword, so it cannot name a tool. Choose another name.").arg(name);
    return {};
}

QString NewFileDialog::refusal(const QString &name, const QString &path) const
{
    if (QString invalid = nameRefusal(m_kind, Language(m_language->currentData().toInt()), name); !invalid.isEmpty())
        return invalid;
    if (m_kind == Kind::Tool && m_project->tool(name))
        return tr("The project has a tool named %1 already. Choose another name.").arg(name);
    if (m_kind == Kind::Script
        && std::any_of(m_project->scripts.begin(), m_project->scripts.end(),
                       [&](const ScriptEntry &script) { return script.name == name; }))
        return tr("The project has a script named %1 already. Choose another name.").arg(name);
    if (QFileInfo::exists(QDir(m_project->dir).filePath(path)))
        return tr("%1 exists already; nothing was written (a new file never overwrites one). Choose another name.")
            .arg(path);
    return {};
}

bool NewFileDialog::create()
{
    const QString name = m_name->text().trimmed();
    const Language language = Language(m_language->currentData().toInt());
    const QString path = relativePath(m_kind, language, name);
    QString error = m_project ? refusal(name, path) : tr("Open a project first.");
    const QString absolute = m_project ? QDir(m_project->dir).filePath(path) : QString();
    if (error.isEmpty()) {
        QDir().mkpath(QFileInfo(absolute).absolutePath());
        QFile file(absolute);
        // NewOnly: a file that appeared since the check is not overwritten either.
        if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly))
            error = tr("Cannot write %1: %2").arg(path, file.errorString());
        else if (file.write(contents(name)) < 0 || !file.flush())
            error = tr("Cannot write %1: %2").arg(path, file.errorString());
        file.close();
        if (error.isEmpty() && !declare(name, path, &error))
            QFile::remove(absolute); // ours, just made: nothing half-done stays
    }
    m_error->setText(error);
    m_error->setVisible(!error.isEmpty());
    if (!error.isEmpty())
        return false;
    Q_EMIT fileCreated(absolute);
    return true;
}

bool NewFileDialog::declare(const QString &name, const QString &path, QString *error)
{
    const bool python = path.endsWith(QLatin1String(".py"));
    if (m_kind == Kind::Tool && python)
        return true; // a tools/*.py file is found by the project itself
    QString reason;
    const bool ok = m_editManifest(
        m_kind == Kind::Tool ? tr("New tool %1").arg(name) : tr("New script %1").arg(name),
        [&](ProjectWriter::Manifest &manifest, QString *editError) {
            if (m_kind == Kind::Script) {
                if (!manifest.contains("scripts") || !manifest["scripts"].is_array())
                    manifest["scripts"] = ProjectWriter::Manifest::array();
                manifest["scripts"].push_back({{"name", name.toStdString()}, {"path", path.toStdString()}});
                return true;
            }
            ProjectWriter::Manifest tool = {
                {"name", name.toStdString()},
                {"description", "Echoes its text (tools/" + name.toStdString() + ".js: edit it to do the real work)."},
                {"input_schema",
                 {{"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}, {"required", {"text"}}}},
                {"handler", {{"kind", "command"}, {"command", {"node", path.toStdString()}}}}};
            const bool added = ProjectWriter::addTool(manifest, tool, editError);
            reason = editError ? *editError : QString();
            return added;
        });
    if (!ok && error)
        *error = reason.isEmpty() ? tr("toolstudio.json could not be changed; %1 was not kept.").arg(path) : reason;
    return ok;
}

QByteArray NewFileDialog::contents(const QString &name) const
{
    QStringList toolNames;
    for (const Tool &tool : m_project->tools)
        toolNames.append(tool.name);
    const QString tools = toolNames.isEmpty() ? QStringLiteral("none yet") : toolNames.join(QStringLiteral(", "));
    const bool python = Language(m_language->currentData().toInt()) == Language::Python;
    QString text;
    if (m_kind == Kind::Tool && python) {
        text = QStringLiteral("\"\"\"\ntitle: %1\ndescription: A Python tool file: each public method of class Tools "
                              "is a tool.\n\"\"\"\n\n\nclass Tools:\n    def %1(self, text: str) -> str:\n"
                              "        \"\"\"Say here what %1 does (the model reads this).\n\n"
                              "        :param text: What it works on.\n        \"\"\"\n        return text\n");
    } else if (m_kind == Kind::Tool) {
        text = QStringLiteral(
            "// %1: a command tool. For each attempt the studio starts `node tools/%1.js`, writes the\n"
            "// arguments as one line of JSON on stdin and reads the result as JSON from stdout;\n"
            "// a non-zero exit fails the attempt (docs/project-format.md, \"kind\": \"command\").\n"
            "let input = \"\";\n"
            "process.stdin.on(\"data\", (chunk) => (input += chunk));\n"
            "process.stdin.on(\"end\", () => {\n"
            "  const args = JSON.parse(input);\n"
            "  process.stdout.write(JSON.stringify({ text: args.text }));\n"
            "});\n");
    } else if (python) {
        text = QStringLiteral("# %1: an agent script. Every tool bound to it is a global function here\n"
                              "# (the project's tools: %2), e.g. result = some_tool(text=\"hello\").\n"
                              "print(\"Hello from %1\")\n");
    } else {
        text = QStringLiteral("// %1: an agent script in Node. Tools are awaited through the toolstudio module\n"
                              "// (the project's tools: %2), e.g. await tools.some_tool({ text: \"hello\" }).\n"
                              "const { tools } = require(\"toolstudio\");\n\n"
                              "async function main() {\n  return \"Hello from %1\";\n}\n\n"
                              "main().then((result) => console.log(result));\n");
    }
    return text.replace(QStringLiteral("%1"), name).replace(QStringLiteral("%2"), tools).toUtf8();
}
