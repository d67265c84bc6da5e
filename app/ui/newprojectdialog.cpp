// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "newprojectdialog.h"

#include "project/projecttemplates.h"
#include "settings.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

NewProjectDialog::NewProjectDialog(const QString &folder, const QString &note, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("newProjectDialog"));
    setWindowTitle(tr("New Project"));
    auto *layout = new QVBoxLayout(this);
    if (!note.isEmpty()) {
        auto *noteLabel = new QLabel(note, this);
        noteLabel->setObjectName(QStringLiteral("newProjectNote"));
        noteLabel->setWordWrap(true);
        layout->addWidget(noteLabel);
    }
    auto *form = new QFormLayout;
    auto *folderRow = new QHBoxLayout;
    m_folder = new QLineEdit(this);
    m_folder->setObjectName(QStringLiteral("newProjectFolder"));
    m_folder->setPlaceholderText(tr("A new or empty folder"));
    m_folder->setMinimumWidth(360);
    auto *browse = new QPushButton(tr("&Browse…"), this);
    connect(browse, &QPushButton::clicked, this, &NewProjectDialog::browse);
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(browse);
    // A row of a layout gets no buddy from addRow: without one "&Folder:" shows its "&".
    auto *folderLabel = new QLabel(tr("&Folder:"), this);
    folderLabel->setBuddy(m_folder);
    form->addRow(folderLabel, folderRow);
    m_templates = new QListWidget(this);
    m_templates->setObjectName(QStringLiteral("newProjectTemplates"));
    for (const ProjectTemplate &t : ProjectTemplates::all()) {
        auto *item = new QListWidgetItem(t.title, m_templates);
        item->setData(Qt::UserRole, t.name);
        item->setToolTip(t.description);
    }
    m_templates->setCurrentRow(0);
    form->addRow(tr("&Template:"), m_templates);
    layout->addLayout(form);
    m_description = new QLabel(this);
    m_description->setWordWrap(true);
    layout->addWidget(m_description);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("newProjectError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_error->hide();
    layout->addWidget(m_error);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Create"));
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        if (create())
            accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_templates, &QListWidget::currentRowChanged, this, &NewProjectDialog::updateDescription);
    connect(m_folder, &QLineEdit::textChanged, this, [this] {
        m_error->hide();
        m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!m_folder->text().trimmed().isEmpty());
    });
    setFolder(folder);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!folder.isEmpty());
    updateDescription();
}

bool NewProjectDialog::selectTemplate(const QString &name)
{
    for (int row = 0; row < m_templates->count(); ++row) {
        if (m_templates->item(row)->data(Qt::UserRole).toString() == name) {
            m_templates->setCurrentRow(row);
            return true;
        }
    }
    return false;
}

void NewProjectDialog::setFolder(const QString &folder)
{
    m_folder->setText(QDir::toNativeSeparators(folder));
}

bool NewProjectDialog::create()
{
    const QString folder = m_folder->text().trimmed();
    QListWidgetItem *item = m_templates->currentItem();
    QString error;
    if (folder.isEmpty())
        error = tr("Choose a folder for the project.");
    else if (!QDir::isAbsolutePath(QDir::fromNativeSeparators(folder)))
        error = tr("The folder must be a full path (e.g. %1).")
                    .arg(QDir::toNativeSeparators(QDir::homePath() + QStringLiteral("/my-tools")));
    else if (!item)
        error = tr("Choose a template.");
    const QString dir = QDir::cleanPath(QDir::fromNativeSeparators(folder));
    if (error.isEmpty() && ProjectTemplates::create(item->data(Qt::UserRole).toString(), dir, nullptr, &error)) {
        Settings::instance()->setLastProjectParent(QFileInfo(dir).absolutePath());
        Q_EMIT projectCreated(dir);
        return true;
    }
    m_error->setText(error);
    m_error->show();
    return false;
}

void NewProjectDialog::browse()
{
    const QString start = m_folder->text().isEmpty()
        ? (Settings::instance()->lastProjectParent().isEmpty() ? QDir::homePath()
                                                               : Settings::instance()->lastProjectParent())
        : m_folder->text();
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder for the New Project"), start);
    if (!dir.isEmpty())
        setFolder(dir);
}

void NewProjectDialog::updateDescription()
{
    const QListWidgetItem *item = m_templates->currentItem();
    m_description->setText(item ? item->toolTip() : QString());
}
