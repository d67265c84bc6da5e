// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "exchange/toolexport.h"
#include "project/tool.h"
#include "python/secrets.h"

#include <QByteArray>
#include <QDialog>
#include <QStringList>

#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

/// Tools ▸ Export Tools… (issue 6 item 6; docs/python-tools.md "Export"): the
/// project's tool definitions in a model API's shape — format (Anthropic, OpenAI Chat
/// Completions, OpenAI Responses) and Strict (OpenAI only) — as a read-only preview
/// of the exact JSON, copied to the clipboard or saved to a file.
///
/// The text is `ToolExport::exportTools(tools, format, strict, &refused)` dumped with
/// two spaces and a final newline, then `Secrets::mask`ed: byte for byte what
/// `toolstudio tools export PROJECT --format F [--strict]` prints when every tool
/// exports. A tool that cannot be exported in the chosen form (a top-level anyOf, a
/// schema strict mode cannot express) is listed with its reason under the preview and
/// left out of the text (the command refuses the whole export instead).
class ExportToolsDialog : public QDialog
{
    Q_OBJECT
public:
    ExportToolsDialog(const QString &projectDir, const QString &projectName, std::vector<Tool> tools,
                      QWidget *parent = nullptr);

    ToolExport::Format format() const;
    void setFormat(ToolExport::Format format);
    bool isStrict() const;
    void setStrict(bool strict);
    /// The exported JSON exactly as shown, copied and saved.
    QByteArray text() const { return m_text; }
    /// One "tool 'NAME': REASON" line per tool left out.
    QStringList refused() const { return m_refused; }
    /// Writes text() to `path` (atomically). False with the reason.
    bool saveTo(const QString &path, QString *error) const;
    void copyToClipboard() const;

private:
    void refresh();
    void chooseFileAndSave();

    QString m_projectDir;
    QString m_projectName;
    std::vector<Tool> m_tools;
    Secrets m_secrets;
    QByteArray m_text;
    QStringList m_refused;
    QComboBox *m_formatCombo = nullptr;
    QCheckBox *m_strictBox = nullptr;
    QPlainTextEdit *m_preview = nullptr;
    QLabel *m_refusedLabel = nullptr;
    QListWidget *m_refusedList = nullptr;
    QPushButton *m_copyButton = nullptr;
    QPushButton *m_saveButton = nullptr;
};
