// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpresultpane.h"

#include "contentblocksview.h"
#include "jsontreemodel.h"
#include "plaintextlabel.h"
#include "project/printabletext.h"

#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>

using nlohmann::json;

McpResultPane::McpResultPane(const QString &prefix, bool saveable, QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_busy = new QProgressBar(this);
    m_busy->setObjectName(prefix + QStringLiteral("Busy"));
    m_busy->setRange(0, 0); // "busy", no percentage
    m_busy->setMaximumHeight(8);
    m_busy->setTextVisible(false);
    m_busy->hide();
    layout->addWidget(m_busy);
    m_status = plainLabel(prefix + QStringLiteral("Status"), this);
    layout->addWidget(m_status);
    auto *tabs = new QTabWidget(this);
    m_content = new ContentBlocksView(tabs);
    m_content->setObjectName(prefix + QStringLiteral("Content"));
    tabs->addTab(m_content, tr("Content"));
    m_treeModel = new JsonTreeModel(this);
    auto *tree = new QTreeView(tabs);
    tree->setObjectName(prefix + QStringLiteral("Tree"));
    tree->setModel(m_treeModel);
    tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    tabs->addTab(tree, tr("Tree"));
    layout->addWidget(tabs, 1);
    auto *buttons = new QHBoxLayout;
    m_copy = new QPushButton(tr("Copy"), this);
    m_copy->setObjectName(prefix + QStringLiteral("Copy"));
    m_copy->setToolTip(tr("Copy the text to the clipboard"));
    m_copyJson = new QPushButton(tr("Copy as JSON"), this);
    m_copyJson->setObjectName(prefix + QStringLiteral("CopyJson"));
    buttons->addWidget(m_copy);
    buttons->addWidget(m_copyJson);
    if (saveable) {
        m_save = new QPushButton(tr("Save As…"), this);
        m_save->setObjectName(prefix + QStringLiteral("Save"));
        m_save->setToolTip(tr("Save the resource's text or its decoded blob to a file"));
        buttons->addWidget(m_save);
        connect(m_save, &QPushButton::clicked, this, [this] { save(); });
    }
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(m_copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(m_copyText); });
    connect(m_copyJson, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(
            QString::fromStdString(m_raw.dump(2, ' ', false, json::error_handler_t::replace)));
    });
    setAnswer({}, {}, {}, {}, {}, {});
}

int McpResultPane::begin(const QString &what, McpClientSession *session)
{
    m_session = session;
    setAnswer({}, {}, {}, {}, {}, {});
    m_busy->show();
    m_status->setText(what);
    return ++m_generation;
}

bool McpResultPane::isBusy() const
{
    return m_busy->isVisible();
}

void McpResultPane::fail(int generation, const QString &why)
{
    if (!isCurrent(generation))
        return;
    m_busy->hide();
    m_status->setText(printableLines(why));
}

void McpResultPane::failOpen(const QString &why)
{
    if (isBusy())
        fail(m_generation, why);
}

void McpResultPane::showAnswer(int generation, const json &blocks, const QStringList &labels, const json &raw,
                               const QString &note, const QString &copyText, const QByteArray &saveBytes,
                               const QString &saveName)
{
    if (!isCurrent(generation))
        return;
    m_busy->hide();
    m_status->setText(note);
    setAnswer(blocks, labels, raw, copyText, saveBytes, saveName);
}

void McpResultPane::setAnswer(const json &blocks, const QStringList &labels, const json &raw, const QString &copyText,
                              const QByteArray &saveBytes, const QString &saveName)
{
    m_content->setResult(blocks, labels);
    if (raw.is_null())
        m_treeModel->clear();
    else
        m_treeModel->setJson(raw, QStringLiteral("result"));
    m_raw = raw;
    m_copyText = copyText;
    m_saveBytes = saveBytes;
    m_saveName = saveName;
    m_copy->setEnabled(!copyText.isEmpty());
    m_copyJson->setEnabled(!raw.is_null());
    if (m_save)
        m_save->setEnabled(!saveName.isEmpty());
}

void McpResultPane::save()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Resource As"), m_saveName);
    if (path.isEmpty())
        return;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(m_saveBytes) != m_saveBytes.size() || !file.commit())
        m_status->setText(tr("Could not save %1: %2").arg(path, file.errorString()));
    else
        m_status->setText(tr("Saved %1 (%2).").arg(path, QLocale().formattedDataSize(m_saveBytes.size(), 1)));
}
