// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "valvesform.h"

#include "project/project.h"
#include "python/valvestore.h"
#include "schemaform.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

ValvesForm::ValvesForm(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    m_heading = new QLabel(this);
    m_heading->setObjectName(QStringLiteral("valvesHeading"));
    m_heading->setWordWrap(true);
    m_heading->setTextFormat(Qt::PlainText);
    layout->addWidget(m_heading);
    const QString kinds[] = {QStringLiteral("Valves"), QStringLiteral("UserValves")};
    const QString titles[] = {tr("Valves (settings of the tool file)"), tr("User valves (settings per user)")};
    for (int i = 0; i < 2; ++i) {
        Section &s = m_sections[i];
        s.kind = kinds[i];
        s.box = new QGroupBox(titles[i], this);
        auto *boxLayout = new QVBoxLayout(s.box);
        s.form = new SchemaForm(s.box);
        s.form->setObjectName(s.kind + QStringLiteral("Form"));
        boxLayout->addWidget(s.form);
        auto *buttons = new QHBoxLayout;
        buttons->addStretch();
        s.save = new QPushButton(i == 0 ? tr("&Save Valves") : tr("Save &User Valves"), s.box);
        s.save->setObjectName(s.kind + QStringLiteral("Save"));
        s.save->setToolTip(tr("Store these values in .toolstudio/valves.json; the next call uses them (Ctrl+Enter)"));
        buttons->addWidget(s.save);
        boxLayout->addLayout(buttons);
        layout->addWidget(s.box); // the stretch at the end takes the spare height
        const QString kind = s.kind;
        connect(s.save, &QPushButton::clicked, this, [this, kind] { save(kind); });
        connect(s.form, &SchemaForm::submitted, this, [this, kind] { save(kind); });
    }
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("valvesMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);
    layout->addStretch();
    setTool(nullptr, QString());
}

ValvesForm::Section *ValvesForm::section(const QString &kind)
{
    for (Section &s : m_sections)
        if (s.kind == kind)
            return &s;
    return nullptr;
}

const ValvesForm::Section *ValvesForm::section(const QString &kind) const
{
    for (const Section &s : m_sections)
        if (s.kind == kind)
            return &s;
    return nullptr;
}

SchemaForm *ValvesForm::form(const QString &kind) const
{
    const Section *s = section(kind);
    return s && !s->box->isHidden() ? s->form : nullptr;
}

QPushButton *ValvesForm::saveButton(const QString &kind) const
{
    const Section *s = section(kind);
    return s && !s->box->isHidden() ? s->save : nullptr;
}

QString ValvesForm::message() const
{
    return m_message->text();
}

nlohmann::json ValvesForm::maskedSchema(const nlohmann::json &schema)
{
    static const QRegularExpression secretName(QStringLiteral("(key|token|secret|password|passwd)"),
                                               QRegularExpression::CaseInsensitiveOption);
    nlohmann::json out = schema;
    if (!out.is_object() || !out.contains("properties") || !out["properties"].is_object())
        return out;
    for (auto it = out["properties"].begin(); it != out["properties"].end(); ++it) {
        const bool secret = (it->is_object() && it->value("format", "") == "password")
            || secretName.match(QString::fromStdString(it.key())).hasMatch();
        if (secret && it->is_object())
            (*it)["writeOnly"] = true;
    }
    return out;
}

void ValvesForm::setTool(const Project *project, const QString &tool)
{
    const PythonToolFile *file = project ? project->pythonFileOf(tool) : nullptr;
    const QString projectDir = project ? project->dir : QString();
    if (file && file->path == m_file && projectDir == m_projectDir)
        return; // same valves: keep what is being typed
    m_projectDir = projectDir;
    m_file = file ? file->path : QString();
    m_message->clear();
    for (Section &s : m_sections)
        s.box->hide();
    if (tool.isEmpty() || !project) {
        m_heading->clear();
        return;
    }
    if (!file) {
        m_heading->setText(tr("%1 has no valves: only Python tools have settings of their own.").arg(tool));
        return;
    }
    const ValveStore store = ValveStore::load(project->dir);
    bool any = false;
    const std::pair<Section *, const nlohmann::json *> described[]
        = {{&m_sections[0], &file->valves}, {&m_sections[1], &file->userValves}};
    for (const auto &[s, valves] : described) {
        if (!valves->is_object())
            continue;
        if (valves->contains("error")) {
            m_message->setText(tr("%1 of %2 cannot be shown: %3")
                                   .arg(s->kind, file->path, QString::fromStdString(valves->value("error", ""))));
            continue;
        }
        const nlohmann::json schema = maskedSchema(valves->value("schema", nlohmann::json::object()));
        s->defaults = valves->value("defaults", nlohmann::json::object());
        s->form->setSchema(schema);
        nlohmann::json value = s->defaults;
        const nlohmann::json stored = store.values(file->path, s->kind);
        for (auto it = stored.begin(); it != stored.end(); ++it)
            value[it.key()] = it.value();
        s->form->setValue(value);
        bool secret = false;
        for (const auto &property : schema.value("properties", nlohmann::json::object()))
            secret = secret || (property.is_object() && property.value("writeOnly", nlohmann::json()) == true);
        if (secret)
            s->form->setRawMode(false); // raw text would show the secrets
        s->form->setRawToggleVisible(!secret);
        s->box->show();
        any = true;
    }
    m_heading->setText(any ? tr("Settings of %1, stored in .toolstudio/valves.json.").arg(file->path)
                           : tr("%1 declares no Valves or UserValves class.").arg(file->path));
}

bool ValvesForm::save(const QString &kind)
{
    Section *s = section(kind);
    if (!s || s->box->isHidden() || m_file.isEmpty())
        return false;
    if (!s->form->isValid()) {
        s->form->revealErrors();
        m_message->setText(tr("Not saved: %1").arg(s->form->problem()->toString()));
        return false;
    }
    // Only what differs from the model's defaults, so a changed default in the file
    // still applies to the values nobody set.
    nlohmann::json values = nlohmann::json::object();
    const nlohmann::json value = s->form->value();
    for (auto it = value.begin(); it != value.end(); ++it)
        if (!s->defaults.contains(it.key()) || s->defaults[it.key()] != it.value())
            values[it.key()] = it.value();
    QString error;
    ValveStore store = ValveStore::load(m_projectDir, &error);
    if (!error.isEmpty()) {
        m_message->setText(tr("Not saved: %1").arg(error));
        return false;
    }
    store.setValues(m_file, kind, values);
    if (!store.save(&error)) {
        m_message->setText(tr("Not saved: %1").arg(error));
        return false;
    }
    m_message->setText(tr("Saved %1 of %2; the next call uses them.").arg(kind, m_file));
    return true;
}
