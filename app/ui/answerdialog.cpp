// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "answerdialog.h"
#include "project/printabletext.h"

#include <QDialogButtonBox>
#include <QPushButton>
#include <QVBoxLayout>

AnswerDialog::AnswerDialog(RunController *run, QWidget *parent)
    : QDialog(parent)
    , m_pane(new AnswerPane(run, this))
{
    setModal(false);
    setWindowTitle(tr("Answer Pending Call"));
    auto *buttons = new QDialogButtonBox(this);
    QPushButton *later = buttons->addButton(tr("Later"), QDialogButtonBox::RejectRole);
    later->setToolTip(tr("Close this window; the call keeps waiting (Pending Calls dock)"));
    connect(later, &QPushButton::clicked, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_pane, 1);
    layout->addWidget(buttons);
    // Only close when the answered call is still the one shown (the run may have moved
    // the dialog on to the next call while answer() ran).
    connect(m_pane, &AnswerPane::answered, this, [this](const QString &callId) {
        if (m_pane->callId() == callId)
            accept();
        Q_EMIT answered(callId);
    });
    resize(560, 520);
}

void AnswerDialog::setCall(const Step &step)
{
    if (step.paused) // held by step mode or tool approval: decided, not answered
        m_pane->setHeldCall(step);
    else
        m_pane->setCall(step);
    setWindowTitle(tr("Answer %1").arg(printableText(step.tool)));
    m_pane->focusResult();
}
