// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "schemaform.h"

#include "schemaformfield.h"

#include "project/jsonerror.h"
#include "project/printabletext.h"
#include "project/schemavalidator.h"

#include <QCheckBox>
#include <QFrame>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QShortcut>
#include <QStackedWidget>
#include <QVBoxLayout>

using json = nlohmann::json;
using namespace schemaform;

namespace {

// RFC 6901 tokens of a pointer.
std::vector<std::string> tokens(const QString &pointer)
{
    std::vector<std::string> out;
    const QStringList parts = pointer.split(QLatin1Char('/'));
    for (qsizetype i = 1; i < parts.size(); ++i) {
        QString part = parts[i];
        part.replace(QStringLiteral("~1"), QStringLiteral("/")).replace(QStringLiteral("~0"), QStringLiteral("~"));
        out.push_back(part.toStdString());
    }
    return out;
}

/// Field names for a sentence: "base", "base and quote", "a, b and c"; more than four
/// as "a, b, c and 2 more". The separators are translated (a list of names).
QString nameList(const QStringList &names)
{
    QStringList head = names.size() > 4 ? names.first(3) : names;
    const QString last = names.size() > 4
        ? SchemaForm::tr("%n more", "the end of a long list of field names", int(names.size() - 3))
        : head.takeLast();
    if (head.isEmpty())
        return last;
    QString list = head.first();
    for (qsizetype i = 1; i < head.size(); ++i)
        list = SchemaForm::tr("%1, %2", "a list of field names").arg(list, head[i]);
    return SchemaForm::tr("%1 and %2", "the last two of a list of field names").arg(list, last);
}

} // namespace

QString SchemaForm::Problem::toString() const
{
    return (pointer.isEmpty() ? QStringLiteral("(root)") : pointer) + QStringLiteral(": ") + message;
}

SchemaForm::SchemaForm(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_rawToggle = new QCheckBox(SchemaForm::tr("Raw &JSON"), this);
    m_rawToggle->setObjectName(QStringLiteral("rawToggle"));
    m_rawToggle->setToolTip(SchemaForm::tr("Edit the value as JSON text; the form follows"));
    layout->addWidget(m_rawToggle);
    m_stack = new QStackedWidget(this);
    auto *scroll = new QScrollArea(m_stack);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_formPage = new QWidget(scroll);
    m_formPage->setObjectName(QStringLiteral("formPage"));
    auto *formLayout = new QVBoxLayout(m_formPage);
    formLayout->setContentsMargins(0, 0, 0, 0);
    formLayout->addStretch();
    scroll->setWidget(m_formPage);
    m_stack->addWidget(scroll);
    m_rawEdit = new QPlainTextEdit(m_stack);
    m_rawEdit->setObjectName(QStringLiteral("rawEdit"));
    m_rawEdit->setTabChangesFocus(true);
    // The form's height follows its fields, not the text edit's default size hint.
    m_rawEdit->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    m_stack->addWidget(m_rawEdit);
    layout->addWidget(m_stack, 1);
    m_problemLabel = new QLabel(this);
    m_problemLabel->setObjectName(QStringLiteral("problem"));
    m_problemLabel->setWordWrap(true);
    m_problemLabel->setTextFormat(Qt::PlainText); // it quotes names and values from a schema
    m_problemLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_problemLabel);

    connect(m_rawToggle, &QCheckBox::toggled, this, &SchemaForm::setRawMode);
    connect(m_rawEdit, &QPlainTextEdit::textChanged, this, &SchemaForm::rawTextChanged);
    for (const QKeySequence &key : {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto *shortcut = new QShortcut(key, this);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, this, &SchemaForm::submitted);
    }
}

SchemaForm::~SchemaForm() = default;

void SchemaForm::setSchema(const nlohmann::json &schema, const QStringList &order)
{
    m_schema = schema;
    QString error;
    m_validator = SchemaValidator::compile(schema, &error);
    delete m_root;
    m_root = createField(
        schema, [this] { fieldChanged(); }, m_formPage, order);
    static_cast<QVBoxLayout *>(m_formPage->layout())->insertWidget(0, m_root);
    m_rawValue.reset();
    m_rawError.clear();
    m_revealAll = false;
    m_updating = true;
    m_rawEdit->setPlainText(QString::fromStdString(m_root->value().dump(2)));
    m_updating = false;
    setTabOrder(m_rawToggle, m_root);
    validate();
}

nlohmann::json SchemaForm::value() const
{
    if (isRawMode() && m_rawValue)
        return *m_rawValue;
    return m_root ? m_root->value() : json();
}

void SchemaForm::setValue(const nlohmann::json &value)
{
    if (!m_root)
        return;
    m_updating = true;
    m_root->setValue(value);
    m_rawValue = value;
    m_rawError.clear();
    m_rawEdit->setPlainText(QString::fromStdString(value.dump(2)));
    m_updating = false;
    validate();
    Q_EMIT valueChanged();
}

bool SchemaForm::isRawMode() const
{
    return m_stack->currentIndex() == 1;
}

void SchemaForm::setRawMode(bool raw)
{
    if (raw == isRawMode())
        return;
    const QSignalBlocker blocker(m_rawToggle);
    m_rawToggle->setChecked(raw);
    if (raw) {
        m_updating = true;
        const json v = m_root ? m_root->value() : json();
        m_rawEdit->setPlainText(QString::fromStdString(v.dump(2)));
        m_rawValue = v;
        m_rawError.clear();
        m_updating = false;
    }
    m_stack->setCurrentIndex(raw ? 1 : 0);
    validate();
}

void SchemaForm::fieldChanged()
{
    if (m_updating)
        return;
    m_updating = true;
    m_rawEdit->setPlainText(QString::fromStdString(m_root->value().dump(2)));
    m_updating = false;
    validate();
    Q_EMIT valueChanged();
}

void SchemaForm::rawTextChanged()
{
    if (m_updating)
        return;
    const QByteArray text = m_rawEdit->toPlainText().toUtf8();
    JsonInput::Problem refused;
    const json v = JsonInput::read<json>(std::string_view(text.constData(), std::size_t(text.size())), &refused);
    if (v.is_discarded()) {
        m_rawValue.reset();
        m_rawError = SchemaForm::tr("malformed JSON at %1").arg(describeJsonProblem(text, refused));
    } else {
        m_rawValue = v;
        m_rawError.clear();
        m_updating = true;
        if (m_root)
            m_root->setValue(v); // the form follows the text
        m_updating = false;
    }
    validate();
    Q_EMIT valueChanged();
}

Field *SchemaForm::fieldAt(const QString &pointer) const
{
    Field *field = m_root;
    for (const std::string &token : tokens(pointer)) {
        if (!field)
            return nullptr;
        field = field->child(token);
    }
    return field;
}

void SchemaForm::validate()
{
    m_problem.reset();
    if (m_root)
        m_root->clearErrors();
    QList<Problem> local;
    if (isRawMode() && !m_rawError.isEmpty()) {
        m_problem = Problem{QString(), m_rawError};
    } else {
        if (m_root && !isRawMode())
            m_root->collectLocalErrors(QString(), local);
        if (!local.isEmpty()) {
            m_problem = local.first();
        } else if (m_validator) {
            if (const auto failure = m_validator->validate(value()))
                m_problem = Problem{failure->pointer, failure->message};
        }
    }

    // What is shown: before Send only the errors of fields the person edited, and of
    // those only the field's own value (a required property still missing waits for
    // Send); after Send every error, starting with problem().
    std::optional<Problem> shown;
    const auto show = [&](const Problem &p) {
        // At the deepest field that exists on the way to the pointer.
        QString pointer = p.pointer;
        Field *field = fieldAt(pointer);
        while (!field && !pointer.isEmpty()) {
            pointer.truncate(pointer.lastIndexOf(QLatin1Char('/')));
            field = fieldAt(pointer);
        }
        if (field && !isRawMode() && field->error().isEmpty())
            field->setError(p.message);
        if (!shown)
            shown = p;
    };
    if (m_problem && (m_revealAll || isRawMode()))
        show(*m_problem);
    if (m_root && !isRawMode()) {
        for (const Problem &p : std::as_const(local)) {
            Field *field = fieldAt(p.pointer);
            if (m_revealAll || (field && field->isEdited()))
                show(p);
        }
        m_root->visit(QString(), [&](Field *field, const QString &pointer) {
            if (!m_revealAll && !field->isEdited())
                return;
            for (const Problem &p : std::as_const(local))
                if (p.pointer == pointer)
                    return;
            if (const auto failure = field->check(); failure && failure->pointer.isEmpty())
                show(Problem{pointer, failure->message});
        });
    }
    if (shown) {
        m_problemLabel->setText(shown->toString());
        m_problemLabel->setStyleSheet(QStringLiteral("color: #c62828"));
        m_problemLabel->setToolTip(QString());
    } else if (m_problem) {
        m_problemLabel->clear();
        m_problemLabel->setStyleSheet(QString());
        m_problemLabel->setToolTip(QString());
    } else {
        QStringList empty = untouchedEmptyFields();
        for (QString &pointer : empty) {
            // "/base" → "base", "/a/zip" → "a/zip", "/a~1b" → "a/b": the names as written.
            QStringList names;
            for (const std::string &token : tokens(pointer))
                names.append(QString::fromStdString(token));
            pointer = elidedText(names.join(QLatin1Char('/')), 64);
        }
        // Not "Valid, but name is empty" beside "name *": a newcomer reads a required
        // field left empty as missing (nc-shot20), so it is named as such.
        if (empty.isEmpty())
            m_problemLabel->setText(SchemaForm::tr("Valid"));
        else
            m_problemLabel->setText(SchemaForm::tr("Required, still empty: %1",
                                                   "%1: the required fields the person has not filled in",
                                                   int(empty.size()))
                                        .arg(nameList(empty)));
        m_problemLabel->setStyleSheet(QString());
        m_problemLabel->setToolTip(
            empty.isEmpty() ? QString()
                            : SchemaForm::tr("The schema allows an empty text, so the form can be sent as it is "
                                             "(\"\" for these); type a value if one is needed"));
    }
}

QStringList SchemaForm::untouchedEmptyFields() const
{
    QStringList empty;
    QStringList edited;
    if (!m_root)
        return empty;
    // A member can be visited twice under one pointer (a union and its branch): edited
    // when either field was.
    m_root->visit(QString(), [&](Field *field, const QString &pointer) {
        if (field->isEdited())
            edited.append(pointer);
        if (pointer.isEmpty() || empty.contains(pointer))
            return;
        const json v = field->value();
        if (!v.is_string() || !v.get_ref<const std::string &>().empty())
            return;
        const Field *parent = fieldAt(pointer.left(pointer.lastIndexOf(QLatin1Char('/'))));
        if (parent && parent->requiresMember(tokens(pointer).back()))
            empty.append(pointer);
    });
    empty.removeIf([&](const QString &pointer) { return edited.contains(pointer); });
    return empty;
}

void SchemaForm::revealErrors()
{
    m_revealAll = true;
    validate();
}

void SchemaForm::setRawToggleVisible(bool visible)
{
    m_rawToggle->setVisible(visible);
}

void SchemaForm::setStatusLineVisible(bool visible)
{
    m_problemLabel->setVisible(visible);
}

QString SchemaForm::errorAt(const QString &pointer) const
{
    const Field *field = fieldAt(pointer);
    return field ? field->error() : QString();
}
QWidget *SchemaForm::control(const QString &pointer, const QString &role) const
{
    const std::vector<std::string> path = tokens(pointer);
    if (role == QLatin1String("include") || role == QLatin1String("remove") || role == QLatin1String("up")
        || role == QLatin1String("down")) {
        if (path.empty())
            return nullptr;
        QString parentPointer = pointer.left(pointer.lastIndexOf(QLatin1Char('/')));
        Field *parent = fieldAt(parentPointer);
        return parent ? parent->memberControl(path.back(), role) : nullptr;
    }
    Field *field = fieldAt(pointer);
    return field ? field->control(role) : nullptr;
}
