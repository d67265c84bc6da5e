// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "llm/toolgenerator.h"
#include "project/jobslot.h"
#include "project/textdiff.h"

#include <QDialog>
#include <QPointer>

#include <functional>

class Project;
class QComboBox;
class QLabel;
class QLineEdit;
class QNetworkAccessManager;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class ScriptEditor;

/// Tools ▸ Generate Tool with AI… (issue 19 item 6; docs/user/models.md "Generate a tool
/// with AI"): a description in, a `class Tools` file out from one of the project's models
/// that can answer on their own (openai-chat, anthropic, mock — not manual), for a new
/// file in tools/ or for the Python tool file open in the editor (the model gets its text
/// to change). The request goes through ToolGenerator (ModelClient, on the studio's side,
/// never the sandbox). The result is shown as a unified diff against the file as it is;
/// Accept writes it — the open file as one undoable edit of its editor, then saved; a new
/// file with QSaveFile, never over a different file without asking — and the project
/// reloads, so the tools derive or the load problem shows. An error keeps everything the
/// person typed.
class GenerateToolDialog : public QDialog
{
    Q_OBJECT
public:
    struct Hooks
    {
        std::function<const Project *()> project;
        /// The editor of the current tab (nullptr when none).
        std::function<ScriptEditor *()> currentEditor;
        /// The editor showing `path`, or nullptr.
        std::function<ScriptEditor *(const QString &path)> editorFor;
        /// A new tool file was written: reload the project and open it (New Tool…'s path).
        std::function<void(const QString &path)> toolFileWritten;
        /// An open file was saved: reload the project.
        std::function<void()> reloadProject;
        /// Shows a page of the user docs ("models.md", anchor).
        std::function<void(const QString &page, const QString &anchor)> showDocumentation;
    };

    explicit GenerateToolDialog(Hooks hooks, QWidget *parent = nullptr);
    ~GenerateToolDialog() override;

    /// Asks before replacing a different file; the default shows a question box. Tests replace it.
    void setConfirmation(std::function<bool(const QString &question)> confirm) { m_confirm = std::move(confirm); }

    /// Generate: checks the form, then asks the model. False (reason in the status line)
    /// when it did not start.
    bool generate();
    /// Accept: writes the generated file (see the class comment). False with the reason.
    bool acceptGenerated();
    /// Stops a generation in progress (the form stays as it is).
    void stop();
    bool isGenerating() const;
    /// The code of the last generation (empty when none or after an error).
    QString generatedCode() const { return m_code; }

    void reject() override;

private:
    /// The project-relative file the form targets ("tools/x.py"), or "" with `error` set.
    QString targetFile(QString *error) const;
    bool targetsOpenFile() const;
    /// The Python tool file of the current editor, project-relative; "" when it is none.
    QString openToolFile() const;
    void finished(const ToolGenerator::Outcome &outcome);
    void showDiff(const std::vector<DiffLine> &lines);
    void setBusy(bool busy, const QString &status = {});
    void setStatus(const QString &text, bool error = false);
    bool writeNewFile(const QString &relative, QString *error);
    bool applyToEditor(const QString &relative, QString *error);
    void updateButtons();

    Hooks m_hooks;
    std::function<bool(const QString &)> m_confirm;
    QNetworkAccessManager *m_network;
    QPointer<ToolGenerator> m_generator;
    JobSlot m_diffJob;

    QComboBox *m_model = nullptr;
    QRadioButton *m_newFile = nullptr;
    QLineEdit *m_fileName = nullptr;
    QRadioButton *m_openFile = nullptr;
    QPlainTextEdit *m_description = nullptr;
    QLabel *m_noModel = nullptr;
    QProgressBar *m_busy = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_warning = nullptr;
    QPlainTextEdit *m_diff = nullptr;
    QPushButton *m_generate = nullptr;
    QPushButton *m_accept = nullptr;
    QPushButton *m_cancel = nullptr;

    QString m_target; ///< the file the result is for, project-relative
    bool m_targetIsOpen = false;
    QString m_before;       ///< its text when the request was made
    QString m_code;         ///< the generated file
    bool m_working = false; ///< asking the model or diffing its answer
};
