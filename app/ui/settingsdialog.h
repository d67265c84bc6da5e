// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "settings.h"

#include <QDialog>

class QComboBox;
class QFontComboBox;
class QLineEdit;
class QSpinBox;

/// Edit ▸ Preferences (issue 7 item 6): default limits and retry policy, interpreter
/// paths, editor font and tab width, theme and language. OK and Apply write through
/// Settings, whose change signals apply them at once where Qt allows (the language
/// takes effect at the next start).
class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit SettingsDialog(Settings *settings, QWidget *parent = nullptr);

    /// The values as the dialog's fields show them.
    Settings::Values values() const;
    void setValues(const Settings::Values &values);
    /// Writes values() to the Settings and saves them.
    void apply();

    QSpinBox *tabWidthSpin() const { return m_tabWidth; }
    QComboBox *themeCombo() const { return m_theme; }
    QComboBox *languageCombo() const { return m_language; }

private:
    Settings *m_settings = nullptr;
    QSpinBox *m_maxAttempts = nullptr;
    QSpinBox *m_backoff = nullptr;
    QSpinBox *m_attemptTimeout = nullptr;
    QSpinBox *m_maxCalls = nullptr;
    QSpinBox *m_runTimeout = nullptr;
    QLineEdit *m_python = nullptr;
    QLineEdit *m_node = nullptr;
    QFontComboBox *m_font = nullptr;
    QSpinBox *m_fontSize = nullptr;
    QSpinBox *m_tabWidth = nullptr;
    QComboBox *m_theme = nullptr;
    QComboBox *m_language = nullptr;
};
