// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "answerdialog.h"

#include "runcontroller.h"
#include "schemaform.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>

namespace {

// nlohmann's messages start with "[json.exception.parse_error.101] "; the id means
// nothing to a person.
QString parseErrorText(const char *what)
{
    QString text = QString::fromUtf8(what);
    if (text.startsWith(QLatin1Char('['))) {
        const qsizetype end = text.indexOf(QLatin1String("] "));
        if (end > 0)
            text = text.mid(end + 2);
    }
    return text;
}

bool looksLikeJson(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return false;
    const QChar first = trimmed.front();
    return QStringLiteral("{[\"-0123456789").contains(first) || trimmed.startsWith(QLatin1String("true"))
        || trimmed.startsWith(QLatin1String("false")) || trimmed.startsWith(QLatin1String("null"));
}

} // namespace

AnswerDialog::AnswerDialog(RunController *run, QWidget *parent)
    : QDialog(parent)
    , m_run(run)
{
    setModal(false);
    setWindowTitle(tr("Answer Pending Call"));
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);

    m_headingLabel = new QLabel(this);
    m_headingLabel->setTextFormat(Qt::RichText);
    m_headingLabel->setWordWrap(true);

    m_argumentsView = new QPlainTextEdit(this);
    m_argumentsView->setReadOnly(true);
    m_argumentsView->setFont(mono);
    m_argumentsView->setMaximumHeight(140);

    m_resultEdit = new QPlainTextEdit(this);
    m_resultEdit->setFont(mono);
    m_resultEdit->setTabChangesFocus(true);
    m_resultEdit->setPlaceholderText(tr("Any JSON value, e.g. \"https://example.org/report.pdf\" or {\"url\": \"…\"}"));

    m_problemLabel = new QLabel(this);
    m_problemLabel->setWordWrap(true);
    m_problemLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problemLabel->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_problemLabel->hide();

    auto *errorBox = new QGroupBox(tr("Or answer with an error"), this);
    m_errorMessageEdit = new QLineEdit(errorBox);
    m_errorMessageEdit->setPlaceholderText(tr("What went wrong, as the script will see it"));
    m_retryableCheck = new QCheckBox(tr("Retryable (the step may try again)"), errorBox);
    m_sendErrorButton = new QPushButton(tr("Send Error"), errorBox);
    m_sendErrorButton->setAutoDefault(false);
    auto *errorLayout = new QFormLayout(errorBox);
    errorLayout->addRow(tr("Message:"), m_errorMessageEdit);
    auto *errorButtons = new QHBoxLayout;
    errorButtons->addWidget(m_retryableCheck);
    errorButtons->addStretch();
    errorButtons->addWidget(m_sendErrorButton);
    errorLayout->addRow(errorButtons);

    auto *buttons = new QDialogButtonBox(this);
    m_sendResultButton = buttons->addButton(tr("Send Result"), QDialogButtonBox::AcceptRole);
    m_sendResultButton->setDefault(true);
    m_sendResultButton->setToolTip(tr("Send the JSON above as the tool's result (Ctrl+Return)"));
    QPushButton *later = buttons->addButton(tr("Later"), QDialogButtonBox::RejectRole);
    later->setToolTip(tr("Close this dialog; the call keeps waiting (Run ▸ Answer Pending Call)"));

    m_resultForm = new SchemaForm(this);
    m_resultForm->setObjectName(QStringLiteral("answerForm"));
    m_resultForm->hide();
    connect(m_resultForm, &SchemaForm::valueChanged, this, [this] { showProblem(QString()); });
    connect(m_resultForm, &SchemaForm::submitted, this, &AnswerDialog::sendResult);
    m_resultLabel = new QLabel(tr("&Result (JSON):"), this);
    m_resultLabel->setBuddy(m_resultEdit);
    QLabel *resultLabel = m_resultLabel;

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_headingLabel);
    layout->addWidget(new QLabel(tr("Arguments:"), this));
    layout->addWidget(m_argumentsView);
    layout->addWidget(resultLabel);
    layout->addWidget(m_resultEdit, 1);
    layout->addWidget(m_resultForm, 1);
    layout->addWidget(m_problemLabel);
    layout->addWidget(errorBox);
    layout->addWidget(buttons);

    // Accept/reject roles would close the dialog before the answer is checked.
    connect(m_sendResultButton, &QPushButton::clicked, this, &AnswerDialog::sendResult);
    connect(later, &QPushButton::clicked, this, &QDialog::reject);
    connect(m_sendErrorButton, &QPushButton::clicked, this, &AnswerDialog::sendError);
    auto *sendShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
    connect(sendShortcut, &QShortcut::activated, this, &AnswerDialog::sendResult);
    connect(m_resultEdit, &QPlainTextEdit::textChanged, this, [this] { showProblem(QString()); });
    connect(m_errorMessageEdit, &QLineEdit::textChanged, this, [this] { showProblem(QString()); });

    resize(560, 520);
}

void AnswerDialog::setCall(const Step &step)
{
    m_callId = step.callId;
    m_tool = step.tool;
    m_attempt = step.currentAttempt() ? step.currentAttempt()->number : 1;

    m_headingLabel->setText(tr("<b>%1</b> is waiting for an answer — attempt %2 of %3<br>"
                               "<small>Call %4, step #%5</small>")
                                .arg(step.tool.toHtmlEscaped())
                                .arg(m_attempt)
                                .arg(qMax(step.maxAttempts, m_attempt))
                                .arg(step.callId.toHtmlEscaped())
                                .arg(step.sequence));
    m_argumentsView->setPlainText(
        QString::fromStdString(step.args.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)));
    m_resultEdit->clear();
    m_errorMessageEdit->clear();
    m_retryableCheck->setChecked(false);
    showProblem(QString());
    setWindowTitle(tr("Answer %1").arg(step.tool));
    if (m_usesForm) {
        const nlohmann::json schema = m_resultForm->schema(); // fresh, empty fields
        m_resultForm->setSchema(schema);
    }
    if (QWidget *first = m_usesForm ? m_resultForm->control(QString()) : nullptr)
        first->setFocus();
    else
        (m_usesForm ? static_cast<QWidget *>(m_resultForm) : m_resultEdit)->setFocus();
}

void AnswerDialog::setOutputSchema(const std::optional<nlohmann::json> &schema)
{
    m_usesForm = schema.has_value() && schema->is_object();
    if (m_usesForm)
        m_resultForm->setSchema(*schema);
    m_resultForm->setVisible(m_usesForm);
    m_resultEdit->setVisible(!m_usesForm);
    m_resultLabel->setText(m_usesForm ? tr("&Result (from the tool's output schema):") : tr("&Result (JSON):"));
    m_resultLabel->setBuddy(m_usesForm ? static_cast<QWidget *>(m_resultForm) : m_resultEdit);
}

QString AnswerDialog::problem() const
{
    return m_problemLabel->text();
}

bool AnswerDialog::sendResult()
{
    if (m_usesForm) {
        if (!m_resultForm->isValid()) {
            showProblem(m_resultForm->problem()->toString());
            return false;
        }
        ManualAnswer answer;
        answer.result = m_resultForm->value();
        return send(answer);
    }
    const QByteArray bytes = m_resultEdit->toPlainText().toUtf8();
    ManualAnswer answer;
    try {
        answer.result = nlohmann::json::parse(bytes.constBegin(), bytes.constEnd());
    } catch (const nlohmann::json::parse_error &error) {
        QString text = tr("Not valid JSON: %1").arg(parseErrorText(error.what()));
        if (bytes.trimmed().isEmpty())
            text = tr("Enter the result as JSON, e.g. \"done\", 42 or {\"url\": \"…\"}.");
        else if (!looksLikeJson(m_resultEdit->toPlainText()))
            text += QLatin1Char('\n') + tr("Text must be in double quotes to be a JSON string.");
        showProblem(text);
        // Put the cursor where the parser stopped (error.byte is 1-based, in UTF-8).
        const qsizetype byte = qBound<qsizetype>(0, qsizetype(error.byte) - 1, bytes.size());
        QTextCursor cursor = m_resultEdit->textCursor();
        cursor.setPosition(int(QString::fromUtf8(bytes.left(byte)).size()));
        m_resultEdit->setTextCursor(cursor);
        m_resultEdit->setFocus();
        return false;
    }
    return send(answer);
}

bool AnswerDialog::sendError()
{
    const QString message = m_errorMessageEdit->text().trimmed();
    if (message.isEmpty()) {
        showProblem(tr("Enter the error message the script should see."));
        m_errorMessageEdit->setFocus();
        return false;
    }
    ManualAnswer answer;
    answer.isError = true;
    answer.message = message;
    answer.retryable = m_retryableCheck->isChecked();
    return send(answer);
}

bool AnswerDialog::send(const ManualAnswer &answer)
{
    QString reason;
    if (!m_run) {
        showProblem(tr("There is no run to answer."));
        return false;
    }
    // The run may already have moved this dialog on to the next pending call (its
    // pendingCallClosed arrives inside answer()); only close it if it still shows ours.
    const QString callId = m_callId;
    if (!m_run->answer(callId, m_attempt, answer, &reason)) {
        showProblem(tr("The run refused the answer: %1").arg(reason));
        return false;
    }
    if (m_callId == callId)
        accept();
    Q_EMIT answered(callId);
    return true;
}

void AnswerDialog::showProblem(const QString &text)
{
    m_problemLabel->setText(text);
    m_problemLabel->setVisible(!text.isEmpty());
}
