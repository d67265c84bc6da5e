// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "generatetooldialog.h"

#include "llm/toolgeneration.h"
#include "newfiledialog.h"
#include "project/printabletext.h"
#include "project/project.h"
#include "project/textdiff.h"
#include "python/secrets.h"
#include "scripteditor.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSaveFile>
#include <QTextBlock>
#include <QTextCursor>
#include <QVBoxLayout>

namespace {

QString readText(const QString &path, bool *exists)
{
    QFile file(path);
    *exists = file.exists();
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

} // namespace

GenerateToolDialog::GenerateToolDialog(Hooks hooks, QWidget *parent)
    : QDialog(parent)
    , m_hooks(std::move(hooks))
    , m_network(new QNetworkAccessManager(this))
{
    setObjectName(QStringLiteral("generateToolDialog"));
    setWindowTitle(tr("Generate Tool with AI"));
    const Project *project = m_hooks.project();

    m_model = new QComboBox(this);
    m_model->setObjectName(QStringLiteral("generateModel"));
    if (project)
        for (const ModelConfig &model : project->models)
            if (model.provider != ModelConfig::Provider::Manual)
                m_model->addItem(
                    model.model.isEmpty()
                        ? QStringLiteral("%1 (%2)").arg(model.name, ModelConfig::providerName(model.provider))
                        : QStringLiteral("%1 (%2, %3)")
                              .arg(model.name, ModelConfig::providerName(model.provider), model.model),
                    model.name);

    m_noModel = new QLabel(this);
    m_noModel->setObjectName(QStringLiteral("generateNoModel"));
    m_noModel->setWordWrap(true);
    m_noModel->setTextFormat(Qt::RichText);
    m_noModel->setText(
        tr("<p>This project has no model that can write code. Add one to <code>models</code> in "
           "toolstudio.json — provider <code>openai-chat</code> (OpenAI, Ollama, llama.cpp server, vLLM, LM "
           "Studio, OpenRouter), <code>anthropic</code>, or <code>mock</code> (a scripted answer) — then open this "
           "again. A <code>manual</code> model is a person and cannot write the file.</p>"
           "<p><a href=\"models.md#declaring-models\">How to declare a model</a></p>"));
    connect(m_noModel, &QLabel::linkActivated, this, [this](const QString &link) {
        if (m_hooks.showDocumentation)
            m_hooks.showDocumentation(link.section(QLatin1Char('#'), 0, 0), link.section(QLatin1Char('#'), 1));
    });
    m_noModel->setVisible(m_model->count() == 0);

    m_newFile = new QRadioButton(tr("A &new file: tools/"), this);
    m_newFile->setObjectName(QStringLiteral("generateNewFile"));
    m_fileName = new QLineEdit(QStringLiteral("my_tool"), this);
    m_fileName->setObjectName(QStringLiteral("generateFileName"));
    auto *suffix = new QLabel(QStringLiteral(".py"), this); // not translated: a file suffix
    const QString open = openToolFile();
    m_openFile = new QRadioButton(open.isEmpty() ? tr("The &open file (no Python tool file is open in the editor)")
                                                 : tr("The &open file: %1").arg(open),
                                  this);
    m_openFile->setObjectName(QStringLiteral("generateOpenFile"));
    m_openFile->setEnabled(!open.isEmpty());
    (open.isEmpty() ? m_newFile : m_openFile)->setChecked(true);
    if (!open.isEmpty())
        m_fileName->setText(QFileInfo(open).completeBaseName() + QStringLiteral("_2"));
    auto *newRow = new QHBoxLayout;
    newRow->setSpacing(0);
    newRow->addWidget(m_newFile);
    newRow->addWidget(m_fileName, 1);
    newRow->addWidget(suffix);
    connect(m_fileName, &QLineEdit::textEdited, this, [this] { m_newFile->setChecked(true); });

    m_description = new QPlainTextEdit(this);
    m_description->setObjectName(QStringLiteral("generateDescription"));
    m_description->setPlaceholderText(
        tr("What the tool does, its parameters and what it returns, e.g. \"Look up the current weather of a city "
           "with the Open-Meteo API; the unit is celsius or fahrenheit.\" For the open file: what to change."));
    m_description->setTabChangesFocus(true);

    auto *form = new QFormLayout;
    form->addRow(tr("&Model:"), m_model);
    form->addRow(tr("Write:"), newRow);
    form->addRow(QString(), m_openFile);
    form->addRow(tr("&Description:"), m_description);

    m_busy = new QProgressBar(this);
    m_busy->setObjectName(QStringLiteral("generateBusy"));
    m_busy->setRange(0, 0);
    m_busy->setTextVisible(false);
    m_busy->setMaximumHeight(8);
    m_busy->hide();
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("generateStatus"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warning = new QLabel(this);
    m_warning->setObjectName(QStringLiteral("generateWarning"));
    m_warning->setWordWrap(true);
    m_warning->setTextFormat(Qt::PlainText);
    m_warning->setStyleSheet(QStringLiteral("color: #b5651d"));
    m_warning->hide();

    m_diff = new QPlainTextEdit(this);
    m_diff->setObjectName(QStringLiteral("generateDiff"));
    m_diff->setReadOnly(true);
    m_diff->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_diff->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_diff->setPlaceholderText(tr("The generated file, as a diff against the file as it is, shows here for "
                                  "review before anything is written."));
    m_diff->setMinimumHeight(220);

    auto *buttons = new QDialogButtonBox(this);
    m_generate = buttons->addButton(tr("&Generate"), QDialogButtonBox::ActionRole);
    m_generate->setObjectName(QStringLiteral("generateButton"));
    m_generate->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_generate->setToolTip(tr("Ask the model (Ctrl+Return)"));
    m_accept = buttons->addButton(tr("&Accept and Save"), QDialogButtonBox::AcceptRole);
    m_accept->setObjectName(QStringLiteral("acceptButton"));
    m_accept->setToolTip(tr("Write the generated file (Ctrl+Z in the editor undoes a change to an open file)"));
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);
    m_cancel->setObjectName(QStringLiteral("cancelButton"));
    m_generate->setDefault(true);
    connect(m_generate, &QPushButton::clicked, this, &GenerateToolDialog::generate);
    connect(m_accept, &QPushButton::clicked, this, [this] {
        if (acceptGenerated())
            accept();
    });
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (isGenerating())
            stop();
        else
            reject();
    });
    connect(m_model, &QComboBox::currentIndexChanged, this, [this] { delete m_generator; });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_noModel);
    layout->addLayout(form);
    layout->addWidget(m_busy);
    layout->addWidget(m_status);
    layout->addWidget(m_warning);
    layout->addWidget(m_diff, 1);
    layout->addWidget(buttons);
    resize(760, 640);
    updateButtons();
    m_description->setFocus();
    m_confirm = [this](const QString &question) {
        return QMessageBox::question(this, windowTitle(), question, QMessageBox::Yes | QMessageBox::No, QMessageBox::No)
            == QMessageBox::Yes;
    };
}

GenerateToolDialog::~GenerateToolDialog() = default;

bool GenerateToolDialog::isGenerating() const
{
    return m_working;
}

QString GenerateToolDialog::openToolFile() const
{
    const Project *project = m_hooks.project();
    ScriptEditor *editor = m_hooks.currentEditor ? m_hooks.currentEditor() : nullptr;
    if (!project || !editor || editor->filePath().isEmpty())
        return {};
    const QFileInfo file(editor->filePath());
    const QString tools = QDir(project->dir).absoluteFilePath(QStringLiteral("tools"));
    if (file.suffix() != QLatin1String("py") || QDir::cleanPath(file.absolutePath()) != QDir::cleanPath(tools))
        return {};
    return QStringLiteral("tools/") + file.fileName();
}

bool GenerateToolDialog::targetsOpenFile() const
{
    return m_openFile->isChecked() && m_openFile->isEnabled();
}

QString GenerateToolDialog::targetFile(QString *error) const
{
    if (targetsOpenFile())
        return openToolFile();
    const QString name = m_fileName->text().trimmed();
    *error = NewFileDialog::nameRefusal(NewFileDialog::Kind::Tool, NewFileDialog::Language::Python, name);
    return error->isEmpty()
        ? NewFileDialog::relativePath(NewFileDialog::Kind::Tool, NewFileDialog::Language::Python, name)
        : QString();
}

void GenerateToolDialog::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: palette(link)") : QString());
}

void GenerateToolDialog::setBusy(bool busy, const QString &status)
{
    m_working = busy;
    m_busy->setVisible(busy);
    if (!status.isEmpty())
        setStatus(status);
    m_cancel->setText(busy ? tr("&Stop") : tr("Cancel"));
    m_cancel->setToolTip(busy ? tr("Stop asking the model; the description stays") : QString());
    updateButtons();
}

void GenerateToolDialog::updateButtons()
{
    const bool busy = m_working;
    m_generate->setEnabled(!busy && m_model->count() > 0);
    m_accept->setEnabled(!busy && !m_code.isEmpty() && m_code != m_before);
    m_model->setEnabled(!busy);
    m_description->setReadOnly(busy);
}

bool GenerateToolDialog::generate()
{
    const Project *project = m_hooks.project();
    if (!project || m_model->count() == 0) {
        setStatus(tr("There is no model to ask: add one to \"models\" in toolstudio.json."), true);
        return false;
    }
    if (isGenerating())
        return false;
    const QString description = m_description->toPlainText().trimmed();
    if (description.isEmpty()) {
        setStatus(tr("Describe the tool first: what it does, its parameters and what it returns."), true);
        m_description->setFocus();
        return false;
    }
    QString error;
    const QString target = targetFile(&error);
    if (target.isEmpty()) {
        setStatus(error.isEmpty() ? tr("Open the Python tool file in the editor, or choose a new file.") : error, true);
        return false;
    }
    const QString modelName = m_model->currentData().toString();
    const auto model = std::find_if(project->models.begin(), project->models.end(),
                                    [&](const ModelConfig &m) { return m.name == modelName; });
    if (model == project->models.end()) {
        setStatus(tr("The project has no model named %1 any more; open this dialog again.").arg(modelName), true);
        return false;
    }
    // A remote model gets a key and the file: only for a project the person trusts, as
    // for a model step (toolstudio.json decides where the key goes).
    if (model->isRemote() && !project->trusted) {
        setStatus(tr("The project is not trusted, so its model %1 is not asked (toolstudio.json decides where "
                     "your key and your file would go). Trust the project first.")
                      .arg(modelName),
                  true);
        return false;
    }

    m_target = target;
    m_targetIsOpen = targetsOpenFile();
    if (m_targetIsOpen) {
        ScriptEditor *editor = m_hooks.editorFor(QDir(project->dir).filePath(target));
        m_before = editor ? editor->text() : QString();
    } else {
        bool exists = false;
        m_before = readText(QDir(project->dir).filePath(target), &exists);
    }
    m_code.clear();
    m_diff->clear();
    m_warning->hide();
    if (!m_generator || m_generator->model().name != modelName) {
        delete m_generator;
        QString secretsError;
        Secrets secrets = Secrets::load(project->dir, &secretsError);
        m_generator = new ToolGenerator(*model, std::move(secrets), m_network, this);
        connect(m_generator, &ToolGenerator::finished, this, &GenerateToolDialog::finished);
        connect(m_generator, &ToolGenerator::retrying, this, [this](int attempt, int delayMs, const QString &why) {
            setStatus(tr("%1 Trying again in %2 s (attempt %3 of %4)…")
                          .arg(why)
                          .arg(delayMs / 1000.0, 0, 'f', 1)
                          .arg(attempt)
                          .arg(m_generator->model().retry.maxAttempts));
        });
    }
    m_generator->generate(description, target, m_before);
    setBusy(true, tr("Asking %1 for %2…").arg(modelName, target));
    return true;
}

void GenerateToolDialog::stop()
{
    if (m_generator)
        m_generator->cancel();
    m_diffJob.cancel();
    setBusy(false, tr("Stopped. The description is kept: change it or Generate again."));
}

void GenerateToolDialog::reject()
{
    if (m_generator)
        m_generator->cancel();
    m_diffJob.cancel();
    QDialog::reject();
}

void GenerateToolDialog::finished(const ToolGenerator::Outcome &outcome)
{
    if (!outcome.error.isEmpty()) {
        QString text = outcome.error;
        if (outcome.errorCode == QLatin1String("model_auth") || outcome.errorCode == QLatin1String("missing_secret"))
            text += QLatin1Char('\n') + tr("In the window: Tools ▸ Secrets… (Ctrl+Shift+K).");
        setBusy(false);
        setStatus(text, true);
        return;
    }
    m_code = outcome.code;
    if (m_code == m_before) {
        setBusy(false, tr("The generated file is the same as %1; nothing to write.").arg(m_target));
        return;
    }
    // A long file against a long, different one is slow to diff: off the GUI thread,
    // the busy bar stays until it is shown.
    const QString before = m_before;
    const QString after = m_code;
    m_diffJob.schedule(
        this, [before, after] { return TextDiff::unified(before, after); },
        [this](const std::vector<DiffLine> &lines) {
            showDiff(lines);
            const int added = TextDiff::count(lines, DiffLine::Kind::Added);
            const int removed = TextDiff::count(lines, DiffLine::Kind::Removed);
            setBusy(false,
                    tr("Review the change to %1: %n line(s) added", nullptr, added).arg(m_target)
                        + tr(", %n removed. Accept and Save writes it.", nullptr, removed));
            if (ToolGeneration::hasHiddenCharacters(m_code)) {
                m_warning->setText(tr("Careful: the generated code holds control or text-direction characters "
                                      "(shown as \\uXXXX in the diff). They can make code read differently than "
                                      "it runs."));
                m_warning->show();
            }
        });
}

void GenerateToolDialog::showDiff(const std::vector<DiffLine> &lines)
{
    m_diff->clear();
    QTextCursor cursor(m_diff->document());
    cursor.beginEditBlock();
    const QColor added(46, 160, 67, 70);
    const QColor removed(248, 81, 73, 70);
    const QColor hunk = palette().color(QPalette::AlternateBase);
    bool first = true;
    for (const DiffLine &line : lines) {
        QTextBlockFormat format;
        QString marker;
        switch (line.kind) {
        case DiffLine::Kind::Hunk:
            format.setBackground(hunk);
            break;
        case DiffLine::Kind::Context:
            marker = QStringLiteral(" ");
            break;
        case DiffLine::Kind::Removed:
            format.setBackground(removed);
            marker = QStringLiteral("-");
            break;
        case DiffLine::Kind::Added:
            format.setBackground(added);
            marker = QStringLiteral("+");
            break;
        }
        if (first)
            cursor.setBlockFormat(format);
        else
            cursor.insertBlock(format);
        first = false;
        // Escaped: a control or text-direction character cannot hide what the code does.
        cursor.insertText(marker + printableLines(line.text));
    }
    cursor.endEditBlock();
    m_diff->moveCursor(QTextCursor::Start);
}

bool GenerateToolDialog::acceptGenerated()
{
    const Project *project = m_hooks.project();
    if (!project || m_code.isEmpty() || isGenerating())
        return false;
    QString error;
    const bool ok = m_targetIsOpen ? applyToEditor(m_target, &error) : writeNewFile(m_target, &error);
    if (!ok && !error.isEmpty())
        setStatus(error, true);
    return ok;
}

bool GenerateToolDialog::applyToEditor(const QString &relative, QString *error)
{
    const QString path = QDir(m_hooks.project()->dir).filePath(relative);
    ScriptEditor *editor = m_hooks.editorFor(path);
    if (!editor) {
        *error = tr("%1 is no longer open in the editor; open it and generate again.").arg(relative);
        return false;
    }
    if (editor->text() != m_before) {
        *error = tr("%1 changed in the editor since the code was generated; generate again to review the change "
                    "against it.")
                     .arg(relative);
        return false;
    }
    int line = 0;
    int index = 0;
    editor->getCursorPosition(&line, &index);
    // One undo step: Ctrl+Z in the editor gives the old text back.
    editor->beginUndoAction();
    editor->selectAll();
    editor->replaceSelectedText(m_code);
    editor->endUndoAction();
    editor->setCursorPosition(qMin(line, editor->lines() - 1), 0);
    if (!editor->save(error))
        return false;
    m_hooks.reloadProject();
    return true;
}

bool GenerateToolDialog::writeNewFile(const QString &relative, QString *error)
{
    const QString path = QDir(m_hooks.project()->dir).filePath(relative);
    bool exists = false;
    const QString now = readText(path, &exists);
    if (exists && now == m_code) {
        m_hooks.toolFileWritten(path); // nothing to write; show it
        return true;
    }
    if (exists
        && !m_confirm(now == m_before ? tr("%1 exists and is different from the generated file (the diff shows "
                                           "how). Replace it?")
                                            .arg(relative)
                                      : tr("%1 exists and changed since the code was generated, so the diff does not "
                                           "show what would be lost. Replace it anyway?")
                                            .arg(relative))) {
        *error = tr("Nothing was written: %1 was kept. Choose another file name.").arg(relative);
        return false;
    }
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        *error = tr("Cannot make the folder %1.").arg(QFileInfo(path).absolutePath());
        return false;
    }
    QSaveFile file(path); // atomic: a failed write leaves no half file
    if (!file.open(QIODevice::WriteOnly) || file.write(m_code.toUtf8()) < 0 || !file.commit()) {
        *error = tr("Cannot write %1: %2").arg(relative, file.errorString());
        return false;
    }
    m_hooks.toolFileWritten(path);
    return true;
}
