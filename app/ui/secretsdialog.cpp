// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "secretsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

QString SecretsDialog::maskedText()
{
    return QString(8, QChar(0x2022)); // ••••••••, never the length of the value
}

SecretsDialog::SecretsDialog(const QString &projectDir, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Secrets"));
    QString loadError;
    m_secrets = Secrets::load(projectDir, &loadError);

    auto *layout = new QVBoxLayout(this);
    auto *about = new QLabel(tr("Secrets reach Python tools and command handlers as environment variables, never "
                                "scripts in the sandbox, and are masked in every view and export. They are stored "
                                "outside the project, readable only by you:\n%1")
                                 .arg(QDir::toNativeSeparators(Secrets::filePath(projectDir))),
                             this);
    about->setWordWrap(true);
    about->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(about);

    m_table = new QTableWidget(0, 3, this);
    m_table->setObjectName(QStringLiteral("secretsTable"));
    m_table->setHorizontalHeaderLabels({tr("Name"), tr("Value"), tr("Show")});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(ValueColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(ShowColumn, QHeaderView::ResizeToContents);
    layout->addWidget(m_table, 1);

    m_removeButton = new QPushButton(tr("&Remove…"), this);
    m_removeButton->setObjectName(QStringLiteral("removeSecret"));
    m_removeButton->setToolTip(tr("Delete the selected secret (Delete)"));
    auto *removeAction = new QAction(this);
    removeAction->setShortcut(QKeySequence::Delete);
    removeAction->setShortcutContext(Qt::WidgetShortcut);
    m_table->addAction(removeAction);
    connect(removeAction, &QAction::triggered, this, &SecretsDialog::removeSelected);
    auto *removeRow = new QHBoxLayout;
    removeRow->addStretch(1);
    removeRow->addWidget(m_removeButton);
    layout->addLayout(removeRow);

    auto *form = new QFormLayout;
    m_nameEdit = new QLineEdit(this);
    m_nameEdit->setObjectName(QStringLiteral("secretName"));
    m_nameEdit->setPlaceholderText(QStringLiteral("WEATHER_API_KEY")); // not translated: an example name
    form->addRow(tr("&Name:"), m_nameEdit);
    m_valueEdit = new QLineEdit(this);
    m_valueEdit->setObjectName(QStringLiteral("secretValue"));
    m_valueEdit->setEchoMode(QLineEdit::Password);
    form->addRow(tr("&Value:"), m_valueEdit);
    m_addButton = new QPushButton(tr("&Add"), this);
    m_addButton->setObjectName(QStringLiteral("addSecret"));
    form->addRow(QString(), m_addButton);
    layout->addLayout(form);

    m_errorLabel = new QLabel(this);
    m_errorLabel->setObjectName(QStringLiteral("secretError"));
    m_errorLabel->setWordWrap(true);
    QPalette pal = m_errorLabel->palette();
    pal.setColor(QPalette::WindowText, QColor(0xc0, 0x1c, 0x28));
    m_errorLabel->setPalette(pal);
    layout->addWidget(m_errorLabel);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    connect(m_addButton, &QPushButton::clicked, this, &SecretsDialog::add);
    connect(m_valueEdit, &QLineEdit::returnPressed, this, &SecretsDialog::add);
    connect(m_nameEdit, &QLineEdit::textChanged, this, &SecretsDialog::updateAddButton);
    connect(m_removeButton, &QPushButton::clicked, this, &SecretsDialog::removeSelected);
    connect(m_table, &QTableWidget::itemSelectionChanged, this,
            [this] { m_removeButton->setEnabled(!m_table->selectedItems().isEmpty()); });
    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (item->column() != ShowColumn)
            return;
        const QString name = m_table->item(item->row(), NameColumn)->text();
        m_table->item(item->row(), ValueColumn)
            ->setText(item->checkState() == Qt::Checked ? m_secrets.value(name) : maskedText());
    });
    m_confirm = [this](const QString &question) {
        return QMessageBox::question(this, tr("Remove Secret"), question, QMessageBox::Yes | QMessageBox::No,
                                     QMessageBox::No)
            == QMessageBox::Yes;
    };

    resize(620, 420);
    rebuild();
    showError(loadError);
    m_nameEdit->setFocus(); // adding is what the dialog is opened for most
}

QString SecretsDialog::errorText() const
{
    return m_errorLabel->text();
}

void SecretsDialog::rebuild()
{
    const QSignalBlocker blocker(m_table);
    m_table->setRowCount(0);
    const QStringList names = m_secrets.names();
    for (const QString &name : names) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setItem(row, NameColumn, new QTableWidgetItem(name));
        m_table->setItem(row, ValueColumn, new QTableWidgetItem(maskedText()));
        auto *show = new QTableWidgetItem(tr("Show"));
        show->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
        show->setCheckState(Qt::Unchecked);
        show->setToolTip(tr("Show the value of %1").arg(name));
        m_table->setItem(row, ShowColumn, show);
    }
    m_removeButton->setEnabled(!m_table->selectedItems().isEmpty());
    updateAddButton();
}

void SecretsDialog::updateAddButton()
{
    const bool exists = m_secrets.names().contains(m_nameEdit->text().trimmed());
    m_addButton->setText(exists ? tr("&Replace") : tr("&Add"));
    m_addButton->setToolTip(exists ? tr("Replace the value of the secret of this name")
                                   : tr("Add a secret of this name and value"));
}

void SecretsDialog::showError(const QString &message)
{
    m_errorLabel->setText(message);
    m_errorLabel->setVisible(!message.isEmpty());
}

bool SecretsDialog::save()
{
    QString error;
    if (!m_secrets.save(&error)) {
        showError(error);
        return false;
    }
    return true;
}

void SecretsDialog::add()
{
    const QString name = m_nameEdit->text().trimmed();
    const QString value = m_valueEdit->text();
    if (name.isEmpty()) {
        showError(tr("Enter a name for the secret."));
        m_nameEdit->setFocus();
        return;
    }
    if (!Secrets::isValidName(name)) {
        showError(tr("“%1” is not an environment variable name: use letters, digits and _, and do not start "
                     "with a digit.")
                      .arg(name));
        m_nameEdit->setFocus();
        return;
    }
    if (value.isEmpty()) {
        showError(tr("Enter a value for %1. To delete a secret, select it and click Remove.").arg(name));
        m_valueEdit->setFocus();
        return;
    }
    const Secrets before = m_secrets;
    QString error;
    if (!m_secrets.set(name, value, &error) || !save()) {
        if (!error.isEmpty())
            showError(error);
        m_secrets = before;
        return;
    }
    // Secrets::mask leaves values under 4 characters alone (they would mask common text).
    showError(value.size() < 4 ? tr("%1 was saved, but a value shorter than 4 characters is not masked in views and "
                                    "exports.")
                                     .arg(name)
                               : QString());
    m_nameEdit->clear();
    m_valueEdit->clear();
    rebuild();
    const QList<QTableWidgetItem *> found = m_table->findItems(name, Qt::MatchExactly);
    if (!found.isEmpty())
        m_table->selectRow(found.first()->row());
    m_nameEdit->setFocus();
}

void SecretsDialog::removeSelected()
{
    const QList<QTableWidgetItem *> selected = m_table->selectedItems();
    if (selected.isEmpty())
        return;
    const QString name = m_table->item(selected.first()->row(), NameColumn)->text();
    if (!m_confirm(tr("Remove the secret %1? Tools that read it will no longer get it.").arg(name)))
        return;
    const Secrets before = m_secrets;
    m_secrets.remove(name);
    if (!save()) {
        m_secrets = before;
        return;
    }
    showError(QString());
    rebuild();
}
