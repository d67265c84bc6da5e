// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editargumentsdialog.h"

#include "project/printabletext.h"
#include "project/tool.h"
#include "schemaform.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

EditArgumentsDialog::EditArgumentsDialog(const Tool &tool, const nlohmann::json &args, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Edit Arguments of %1").arg(printableText(tool.name)));
    auto *intro = new QLabel(tr("The call runs with these arguments instead of the model's. The model sees the "
                                "result, not the change; the trace keeps both."),
                             this);
    intro->setWordWrap(true);
    m_form = new SchemaForm(this);
    m_form->setObjectName(QStringLiteral("editArgumentsForm"));
    m_form->setSchema(tool.inputSchema, tool.parameterOrder);
    m_form->setValue(args);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_run = buttons->addButton(tr("&Run"), QDialogButtonBox::AcceptRole);
    m_run->setObjectName(QStringLiteral("editArgumentsRun"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    const auto update = [this] { m_run->setEnabled(m_form->isValid()); };
    connect(m_form, &SchemaForm::valueChanged, this, update);
    connect(m_form, &SchemaForm::submitted, this, [this] {
        if (m_form->isValid())
            accept();
        else
            m_form->revealErrors();
    });
    update();
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_form, 1);
    layout->addWidget(buttons);
    resize(520, 420);
}

nlohmann::json EditArgumentsDialog::arguments() const
{
    return m_form->value();
}
