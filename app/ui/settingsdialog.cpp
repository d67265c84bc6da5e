// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "settingsdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFontComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace {

QSpinBox *spin(QWidget *parent, int min, int max, const QString &suffix)
{
    auto *box = new QSpinBox(parent);
    box->setRange(min, max);
    box->setSuffix(suffix);
    box->setAccelerated(true);
    return box;
}

} // namespace

SettingsDialog::SettingsDialog(Settings *settings, QWidget *parent)
    : QDialog(parent)
    , m_settings(settings)
{
    setWindowTitle(tr("Preferences"));
    setObjectName(QStringLiteral("settingsDialog"));
    auto *layout = new QVBoxLayout(this);

    auto *runs = new QGroupBox(tr("Defaults for new tools and projects"), this);
    auto *runsForm = new QFormLayout(runs);
    m_maxAttempts = spin(runs, 1, 100, QString());
    m_backoff = spin(runs, 0, 600000, tr(" ms"));
    m_backoff->setSingleStep(100);
    m_attemptTimeout = spin(runs, 0, 3600000, tr(" ms"));
    m_attemptTimeout->setSingleStep(1000);
    m_attemptTimeout->setSpecialValueText(tr("no limit"));
    m_maxCalls = spin(runs, 1, 100000, QString());
    m_runTimeout = spin(runs, 0, 86400000, tr(" ms"));
    m_runTimeout->setSingleStep(1000);
    m_runTimeout->setSpecialValueText(tr("no limit"));
    runsForm->addRow(tr("Max &attempts:"), m_maxAttempts);
    runsForm->addRow(tr("Initial &backoff:"), m_backoff);
    runsForm->addRow(tr("Attempt &timeout:"), m_attemptTimeout);
    runsForm->addRow(tr("Max &calls per run:"), m_maxCalls);
    runsForm->addRow(tr("&Run timeout:"), m_runTimeout);
    layout->addWidget(runs);

    auto *interpreters = new QGroupBox(tr("Interpreters"), this);
    auto *interpForm = new QFormLayout(interpreters);
    const auto pathRow = [&](QLineEdit *&edit, const QString &label, const QString &placeholder) {
        edit = new QLineEdit(interpreters);
        edit->setPlaceholderText(placeholder);
        edit->setClearButtonEnabled(true);
        auto *browse = new QToolButton(interpreters);
        browse->setText(QStringLiteral("…"));
        browse->setToolTip(tr("Choose the interpreter"));
        QLineEdit *target = edit;
        connect(browse, &QToolButton::clicked, this, [this, target] {
            const QString path
                = QFileDialog::getOpenFileName(this, tr("Choose Interpreter"), QStringLiteral("/usr/bin"));
            if (!path.isEmpty())
                target->setText(path);
        });
        auto *row = new QHBoxLayout;
        row->addWidget(edit, 1);
        row->addWidget(browse);
        auto *labelWidget = new QLabel(label, interpreters);
        labelWidget->setBuddy(edit);
        interpForm->addRow(labelWidget, row);
    };
    pathRow(m_python, tr("&Python:"), tr("python3 from PATH"));
    pathRow(m_node, tr("&Node:"), tr("node from PATH"));
    layout->addWidget(interpreters);

    auto *editor = new QGroupBox(tr("Editor"), this);
    auto *editorForm = new QFormLayout(editor);
    m_font = new QFontComboBox(editor);
    m_font->setFontFilters(QFontComboBox::MonospacedFonts);
    m_fontSize = spin(editor, 6, 48, tr(" pt"));
    auto *fontRow = new QHBoxLayout;
    fontRow->addWidget(m_font, 1);
    fontRow->addWidget(m_fontSize);
    auto *fontLabel = new QLabel(tr("&Font:"), editor);
    fontLabel->setBuddy(m_font);
    editorForm->addRow(fontLabel, fontRow);
    m_tabWidth = spin(editor, 1, 16, QString());
    m_tabWidth->setObjectName(QStringLiteral("tabWidth"));
    editorForm->addRow(tr("Tab &width:"), m_tabWidth);
    layout->addWidget(editor);

    auto *look = new QGroupBox(tr("Appearance"), this);
    auto *lookForm = new QFormLayout(look);
    m_theme = new QComboBox(look);
    m_theme->setObjectName(QStringLiteral("theme"));
    m_theme->addItem(tr("Follow the system"), int(Settings::Theme::System));
    m_theme->addItem(tr("Light"), int(Settings::Theme::Light));
    m_theme->addItem(tr("Dark"), int(Settings::Theme::Dark));
    lookForm->addRow(tr("T&heme:"), m_theme);
    m_language = new QComboBox(look);
    m_language->setObjectName(QStringLiteral("language"));
    m_language->addItem(tr("Follow the system"), QString());
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_language->addItem(QStringLiteral("Deutsch"), QStringLiteral("de"));
    m_language->setToolTip(tr("Takes effect the next time Tool Studio starts"));
    lookForm->addRow(tr("&Language:"), m_language);
    layout->addWidget(look);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::Apply
                                             | QDialogButtonBox::RestoreDefaults,
                                         this);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        apply();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, &SettingsDialog::apply);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this, [this] {
        Settings::Values defaults = Settings::defaults();
        const Settings::Values current = m_settings->values();
        defaults.geometry = current.geometry;
        defaults.windowState = current.windowState;
        defaults.recentProjects = current.recentProjects;
        defaults.lastProjectParent = current.lastProjectParent;
        setValues(defaults);
    });

    setValues(m_settings->values());
}

Settings::Values SettingsDialog::values() const
{
    Settings::Values v = m_settings->values();
    v.maxAttempts = m_maxAttempts->value();
    v.initialBackoffMs = m_backoff->value();
    v.attemptTimeoutMs = m_attemptTimeout->value();
    v.maxCalls = m_maxCalls->value();
    v.runTimeoutMs = m_runTimeout->value();
    v.pythonPath = m_python->text().trimmed();
    v.nodePath = m_node->text().trimmed();
    QFont font = m_font->currentFont();
    font.setPointSize(m_fontSize->value());
    v.editorFont = font;
    v.tabWidth = m_tabWidth->value();
    v.theme = Settings::Theme(m_theme->currentData().toInt());
    v.language = m_language->currentData().toString();
    return v;
}

void SettingsDialog::setValues(const Settings::Values &v)
{
    m_maxAttempts->setValue(v.maxAttempts);
    m_backoff->setValue(v.initialBackoffMs);
    m_attemptTimeout->setValue(v.attemptTimeoutMs);
    m_maxCalls->setValue(v.maxCalls);
    m_runTimeout->setValue(v.runTimeoutMs);
    m_python->setText(v.pythonPath);
    m_node->setText(v.nodePath);
    m_font->setCurrentFont(v.editorFont);
    m_fontSize->setValue(v.editorFont.pointSize() > 0 ? v.editorFont.pointSize() : 10);
    m_tabWidth->setValue(v.tabWidth);
    m_theme->setCurrentIndex(m_theme->findData(int(v.theme)));
    m_language->setCurrentIndex(qMax(0, m_language->findData(v.language)));
}

void SettingsDialog::apply()
{
    m_settings->setValues(values());
    m_settings->save();
}
