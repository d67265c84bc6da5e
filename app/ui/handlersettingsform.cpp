// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "handlersettingsform.h"

#include "project/jsonerror.h"
#include "project/project.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

#include <cmath>
#include <optional>

namespace {

constexpr auto SequenceKey = "sequence";
constexpr auto CommandKey = "command";

QString number(double value)
{
    return QString::number(value, 'g', 12);
}

// A number as typed: "0.5", or with the locale's decimal separator ("0,5").
std::optional<double> parseNumber(const QString &text)
{
    bool ok = false;
    double value = QLocale::c().toDouble(text.trimmed(), &ok);
    if (!ok)
        value = QLocale().toDouble(text.trimmed(), &ok);
    if (!ok || !std::isfinite(value))
        return std::nullopt;
    return value;
}

// The inverse of QProcess::splitCommand: arguments with white space in quotes, a
// quote as three quotes.
QString joinCommand(const QStringList &command)
{
    QStringList parts;
    for (QString argument : command) {
        const bool quote = argument.isEmpty() || argument.contains(QRegularExpression(QStringLiteral("\\s")));
        argument.replace(QStringLiteral("\""), QStringLiteral("\"\"\""));
        parts << (quote ? QStringLiteral("\"%1\"").arg(argument) : argument);
    }
    return parts.join(QLatin1Char(' '));
}

nlohmann::ordered_json sequenceOf(const Tool &tool)
{
    nlohmann::ordered_json sequence = nlohmann::ordered_json::array();
    for (const MockResponse &r : tool.mockSequence) {
        nlohmann::ordered_json entry = nlohmann::ordered_json::object();
        if (r.isError) {
            entry["error"] = r.errorMessage.toStdString();
            entry["retryable"] = r.retryable;
        } else {
            entry["result"] = nlohmann::ordered_json::parse(r.result.dump());
        }
        if (r.delayMs > 0)
            entry["delay_seconds"] = r.delayMs / 1000.0;
        sequence.push_back(entry);
    }
    return sequence;
}

} // namespace

HandlerSettingsForm::HandlerSettingsForm(QWidget *parent)
    : QWidget(parent)
{
    m_form = new QFormLayout(this);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_kind = new QLabel(this);
    m_kind->setObjectName(QStringLiteral("handlerKind"));
    m_form->addRow(tr("Kind:"), m_kind);
    m_active = new QLabel(this);
    m_active->setWordWrap(true);
    m_form->addRow(tr("Active:"), m_active);

    auto *sequence = new QPlainTextEdit(this);
    sequence->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    sequence->setTabChangesFocus(true);
    sequence->setMinimumHeight(90);
    sequence->setMaximumHeight(180);
    addRow(
        QLatin1String(SequenceKey), tr("Mock sequence:"), sequence,
        tr("JSON array; entry i answers the i-th attempt: {\"result\": …} or {\"error\": \"…\", \"retryable\": true}, "
           "optionally \"delay_seconds\""));
    m_applySequence = new QPushButton(tr("&Apply Sequence"), this);
    m_applySequence->setObjectName(QStringLiteral("applySequence"));
    row(QLatin1String(SequenceKey))->box->layout()->addWidget(m_applySequence);
    connect(m_applySequence, &QPushButton::clicked, this, [this] { apply(QLatin1String(SequenceKey)); });

    addRow(QLatin1String(CommandKey), tr("Command line:"), new QLineEdit(this),
           tr("Program, then arguments; quote an argument with spaces in \"…\""));
    addRow(QStringLiteral("max_attempts"), tr("Max attempts:"), new QLineEdit(this),
           tr("Attempts per call, the first included (at least 1)"));
    addRow(QStringLiteral("initial_backoff_seconds"), tr("Initial backoff (s):"), new QLineEdit(this),
           tr("Wait before the second attempt, in seconds"));
    addRow(QStringLiteral("factor"), tr("Backoff factor:"), new QLineEdit(this),
           tr("Each wait is the previous one times this (at least 1)"));
    addRow(QStringLiteral("max_backoff_seconds"), tr("Backoff cap (s):"), new QLineEdit(this),
           tr("No wait is longer than this, in seconds"));
    addRow(QStringLiteral("jitter"), tr("Jitter:"), new QLineEdit(this),
           tr("Fraction of each wait added or removed at random (0 to 1)"));
    addRow(QStringLiteral("attempt_timeout_seconds"), tr("Attempt timeout (s):"), new QLineEdit(this),
           tr("One attempt, in seconds; 0 = no bound"));
    addRow(QStringLiteral("total_timeout_seconds"), tr("Total timeout (s):"), new QLineEdit(this),
           tr("The whole call from its first attempt, in seconds; 0 = no bound"));
    row(QStringLiteral("max_attempts"))->integer = true;
    row(QStringLiteral("max_attempts"))->minimum = 1;
    row(QStringLiteral("factor"))->minimum = 1;
    row(QStringLiteral("jitter"))->maximum = 1;

    auto *note = new QLabel(tr("A field is saved to toolstudio.json when you press Enter or leave it; "
                               "Edit ▸ Undo takes it back."),
                            this);
    note->setWordWrap(true);
    note->setEnabled(false);
    m_form->addRow(note);
    setTool(nullptr, QString());
}

void HandlerSettingsForm::addRow(const QString &key, const QString &label, QWidget *editor, const QString &tip)
{
    Row r;
    r.key = key;
    r.editor = editor;
    editor->setObjectName(key);
    editor->setToolTip(tip);
    r.box = new QWidget(this);
    auto *layout = new QVBoxLayout(r.box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(editor);
    r.error = new QLabel(r.box);
    r.error->setObjectName(QStringLiteral("fieldError"));
    r.error->setWordWrap(true);
    QPalette pal = r.error->palette();
    pal.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
    r.error->setPalette(pal);
    r.error->hide();
    layout->addWidget(r.error);
    r.label = new QLabel(label, this);
    r.label->setBuddy(editor);
    m_form->addRow(r.label, r.box);
    if (auto *line = qobject_cast<QLineEdit *>(editor))
        connect(line, &QLineEdit::editingFinished, this, [this, key] { apply(key); });
    m_rows.push_back(r);
}

HandlerSettingsForm::Row *HandlerSettingsForm::row(const QString &key)
{
    for (Row &r : m_rows)
        if (r.key == key)
            return &r;
    return nullptr;
}

const HandlerSettingsForm::Row *HandlerSettingsForm::row(const QString &key) const
{
    for (const Row &r : m_rows)
        if (r.key == key)
            return &r;
    return nullptr;
}

QWidget *HandlerSettingsForm::editor(const QString &key) const
{
    const Row *r = row(key);
    return r ? r->editor : nullptr;
}

QString HandlerSettingsForm::errorAt(const QString &key) const
{
    const Row *r = row(key);
    return r && !r->error->isHidden() ? r->error->text() : QString();
}

bool HandlerSettingsForm::isRowShown(const QString &key) const
{
    const Row *r = row(key);
    return r && m_form->isRowVisible(r->box);
}

QString HandlerSettingsForm::text(const Row &r) const
{
    if (auto *line = qobject_cast<QLineEdit *>(r.editor))
        return line->text();
    return static_cast<QPlainTextEdit *>(r.editor)->toPlainText();
}

void HandlerSettingsForm::setText(Row &r, const QString &value, bool force)
{
    // A field whose text differs from what was loaded is being edited: keep it.
    if (!force && text(r) != r.loaded)
        return;
    r.loaded = value;
    if (auto *line = qobject_cast<QLineEdit *>(r.editor))
        line->setText(value);
    else
        static_cast<QPlainTextEdit *>(r.editor)->setPlainText(value);
    setError(r, {});
}

void HandlerSettingsForm::setError(Row &r, const QString &message)
{
    r.error->setText(message);
    r.error->setVisible(!message.isEmpty());
}

void HandlerSettingsForm::setTool(const Project *project, const QString &name)
{
    const Tool *tool = project ? project->tool(name) : nullptr;
    const bool same = tool && project->dir == m_projectDir && name == m_tool;
    m_tool = tool ? name : QString();
    m_projectDir = project ? project->dir : QString();
    setEnabled(tool != nullptr);
    for (Row &r : m_rows)
        m_form->setRowVisible(r.box, tool != nullptr);
    if (!tool) {
        m_kind->clear();
        m_active->clear();
        for (Row &r : m_rows)
            setText(r, QString(), true);
        return;
    }
    m_manual = tool->handler == HandlerKind::Manual;
    m_kind->setText(handlerKindName(tool->handler));
    m_active->setText(tool->active ? tr("yes") : tr("no (refused on the bridge; the Project dock's checkbox)"));
    m_form->setRowVisible(row(QLatin1String(SequenceKey))->box, tool->handler == HandlerKind::Mock);
    m_form->setRowVisible(row(QLatin1String(CommandKey))->box, tool->handler == HandlerKind::Command);
    Row *timeout = row(QStringLiteral("attempt_timeout_seconds"));
    timeout->label->setText(m_manual ? tr("Answer wait bound (s):") : tr("Attempt timeout (s):"));
    timeout->editor->setToolTip(m_manual ? tr("How long one attempt waits for a person, in seconds; 0 = no bound")
                                         : tr("One attempt, in seconds; 0 = no bound"));

    const RetryPolicy &p = tool->retry;
    const std::pair<const char *, QString> values[] = {
        {SequenceKey, QString::fromStdString(sequenceOf(*tool).dump(2))},
        {CommandKey, joinCommand(tool->command)},
        {"max_attempts", QString::number(p.maxAttempts)},
        {"initial_backoff_seconds", number(p.initialBackoffMs / 1000.0)},
        {"factor", number(p.factor)},
        {"max_backoff_seconds", number(p.maxBackoffMs / 1000.0)},
        {"jitter", number(p.jitter)},
        {"attempt_timeout_seconds", number(p.attemptTimeoutMs / 1000.0)},
        {"total_timeout_seconds", number(p.totalTimeoutMs / 1000.0)},
    };
    for (const auto &[key, value] : values)
        setText(*row(QLatin1String(key)), value, !same);
}

bool HandlerSettingsForm::apply(const QString &key)
{
    Row *r = row(key);
    if (!r || m_tool.isEmpty())
        return false;
    const QString typed = text(*r);
    const QString tool = m_tool;
    if (key == QLatin1String(SequenceKey)) {
        const QByteArray bytes = typed.toUtf8();
        JsonInput::Problem refused;
        const auto sequence = JsonInput::read<nlohmann::ordered_json>(
            std::string_view(bytes.constData(), std::size_t(bytes.size())), &refused);
        if (sequence.is_discarded()) {
            setError(*r, tr("Not valid JSON: %1").arg(describeJsonProblem(bytes, refused)));
            return false;
        }
        const QString problem = Project::mockSequenceProblem(nlohmann::json::parse(sequence.dump()));
        if (!problem.isEmpty()) {
            setError(*r, problem);
            return false;
        }
        setError(*r, {});
        if (JsonInput::read<nlohmann::ordered_json>(r->loaded.toStdString()) == sequence)
            return false;
        r->loaded = typed;
        Q_EMIT editRequested(tr("Set the mock sequence of %1").arg(tool), [tool, sequence](auto &m, QString *error) {
            return ProjectWriter::setMockSequence(m, tool, sequence, error);
        });
        return true;
    }
    if (key == QLatin1String(CommandKey)) {
        const QStringList command = QProcess::splitCommand(typed);
        if (command.isEmpty()) {
            setError(*r, tr("Give the program to run, then its arguments."));
            return false;
        }
        setError(*r, {});
        if (command == QProcess::splitCommand(r->loaded))
            return false;
        r->loaded = typed;
        Q_EMIT editRequested(tr("Set the command line of %1").arg(tool), [tool, command](auto &m, QString *error) {
            return ProjectWriter::setCommand(m, tool, command, error);
        });
        return true;
    }

    const std::optional<double> value = parseNumber(typed);
    QString problem;
    if (!value)
        problem = typed.trimmed().isEmpty() ? tr("Enter a number.") : tr("“%1” is not a number.").arg(typed.trimmed());
    else if (r->integer && *value != std::floor(*value))
        problem = tr("Enter a whole number.");
    else if (*value < r->minimum || (r->maximum > 0 && *value > r->maximum))
        problem = r->maximum > 0 ? tr("Must be between %1 and %2.").arg(number(r->minimum), number(r->maximum))
                                 : tr("Must be at least %1.").arg(number(r->minimum));
    if (!problem.isEmpty()) {
        setError(*r, problem);
        return false;
    }
    setError(*r, {});
    if (parseNumber(r->loaded) == value)
        return false;
    r->loaded = number(*value);
    if (auto *line = qobject_cast<QLineEdit *>(r->editor))
        line->setText(r->loaded);
    const double v = *value;
    Q_EMIT editRequested(tr("Set %1 of %2 to %3").arg(key, tool, number(v)), [tool, key, v](auto &m, QString *error) {
        return ProjectWriter::setToolRetryValue(m, tool, key, v, error);
    });
    return true;
}
