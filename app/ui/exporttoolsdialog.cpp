// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "exporttoolsdialog.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QVBoxLayout>

ExportToolsDialog::ExportToolsDialog(const QString &projectDir, const QString &projectName, std::vector<Tool> tools,
                                     QWidget *parent)
    : QDialog(parent)
    , m_projectDir(projectDir)
    , m_projectName(projectName)
    , m_tools(std::move(tools))
    , m_secrets(Secrets::load(projectDir))
{
    setWindowTitle(tr("Export Tools"));
    auto *layout = new QVBoxLayout(this);

    auto *form = new QFormLayout;
    m_formatCombo = new QComboBox(this);
    m_formatCombo->setObjectName(QStringLiteral("exportFormat"));
    m_formatCombo->addItem(tr("Anthropic"), int(ToolExport::Format::Anthropic));
    m_formatCombo->addItem(tr("OpenAI Chat Completions"), int(ToolExport::Format::OpenAIChat));
    m_formatCombo->addItem(tr("OpenAI Responses"), int(ToolExport::Format::OpenAIResponses));
    form->addRow(tr("&Format:"), m_formatCombo);
    m_strictBox = new QCheckBox(tr("&Strict mode (OpenAI only)"), this);
    m_strictBox->setObjectName(QStringLiteral("exportStrict"));
    m_strictBox->setToolTip(tr("OpenAI structured outputs: every property required, optional ones may be null, "
                               "no extra properties. Tools that cannot be expressed so are listed below."));
    form->addRow(QString(), m_strictBox);
    layout->addLayout(form);

    m_preview = new QPlainTextEdit(this);
    m_preview->setObjectName(QStringLiteral("exportPreview"));
    m_preview->setReadOnly(true);
    m_preview->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    layout->addWidget(m_preview, 1);

    m_refusedLabel = new QLabel(this);
    m_refusedLabel->setWordWrap(true);
    layout->addWidget(m_refusedLabel);
    m_refusedList = new QListWidget(this);
    m_refusedList->setObjectName(QStringLiteral("exportRefused"));
    m_refusedList->setMaximumHeight(m_refusedList->fontMetrics().height() * 6);
    m_refusedList->setWordWrap(true); // a reason is one long line: show it whole
    m_refusedList->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_refusedList->setTextElideMode(Qt::ElideNone);
    layout->addWidget(m_refusedList);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_copyButton = buttons->addButton(tr("&Copy"), QDialogButtonBox::ActionRole);
    m_copyButton->setToolTip(tr("Copy the JSON to the clipboard"));
    m_saveButton = buttons->addButton(tr("&Save…"), QDialogButtonBox::ActionRole);
    m_saveButton->setToolTip(tr("Save the JSON to a file"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_copyButton, &QPushButton::clicked, this, &ExportToolsDialog::copyToClipboard);
    connect(m_saveButton, &QPushButton::clicked, this, &ExportToolsDialog::chooseFileAndSave);
    connect(m_formatCombo, &QComboBox::currentIndexChanged, this, &ExportToolsDialog::refresh);
    connect(m_strictBox, &QCheckBox::toggled, this, &ExportToolsDialog::refresh);

    resize(640, 560);
    refresh();
    m_formatCombo->setFocus();
}

ToolExport::Format ExportToolsDialog::format() const
{
    return ToolExport::Format(m_formatCombo->currentData().toInt());
}

void ExportToolsDialog::setFormat(ToolExport::Format format)
{
    m_formatCombo->setCurrentIndex(m_formatCombo->findData(int(format)));
}

bool ExportToolsDialog::isStrict() const
{
    return m_strictBox->isEnabled() && m_strictBox->isChecked();
}

void ExportToolsDialog::setStrict(bool strict)
{
    m_strictBox->setChecked(strict);
}

void ExportToolsDialog::refresh()
{
    m_strictBox->setEnabled(format() != ToolExport::Format::Anthropic);
    m_refused.clear();
    QStringList changed;
    const nlohmann::ordered_json list = ToolExport::exportTools(m_tools, format(), isStrict(), &m_refused, &changed);
    // The same bytes `toolstudio tools export` prints: a secret quoted anywhere shows ********.
    m_text = m_secrets.mask(QByteArray::fromStdString(list.dump(2) + '\n'));
    m_preview->setPlainText(QString::fromUtf8(m_text));

    m_refusedList->clear();
    m_refusedList->addItems(m_refused);
    m_refusedList->addItems(changed); // a name mapped or a key added for the API is shown, never silent
    m_refusedLabel->setText(m_refused.isEmpty()
                                ? tr("What this form changed (%n):", nullptr, int(changed.size()))
                                : tr("%n tool(s) not exported in this form, and why:", nullptr, int(m_refused.size())));
    m_refusedLabel->setVisible(!m_refused.isEmpty() || !changed.isEmpty());
    m_refusedList->setVisible(!m_refused.isEmpty() || !changed.isEmpty());
    m_copyButton->setEnabled(!list.empty());
    m_saveButton->setEnabled(!list.empty());
}

bool ExportToolsDialog::saveTo(const QString &path, QString *error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(m_text) != m_text.size() || !file.commit()) {
        if (error)
            *error = tr("%1: cannot write: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    return true;
}

void ExportToolsDialog::copyToClipboard() const
{
    QApplication::clipboard()->setText(QString::fromUtf8(m_text));
}

void ExportToolsDialog::chooseFileAndSave()
{
    const QString suggested
        = QDir(m_projectDir)
              .filePath(QStringLiteral("%1-tools-%2.json")
                            .arg(m_projectName.isEmpty() ? QStringLiteral("project") : m_projectName,
                                 ToolExport::formatName(format())));
    const QString path
        = QFileDialog::getSaveFileName(this, tr("Save Tool Definitions"), suggested, tr("JSON files (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveTo(path, &error))
        QMessageBox::warning(this, tr("Save Tool Definitions"), error);
}
