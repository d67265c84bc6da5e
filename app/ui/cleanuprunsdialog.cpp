// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "cleanuprunsdialog.h"

#include "journal/journalhousekeeping.h"

#include <QCheckBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace {

constexpr qint64 DayMs = 24LL * 60 * 60 * 1000;
/// Run ids named in the preview before "and N more".
constexpr int NamedRuns = 5;

/// A tick box followed by a spin box on one row: "[x] Runs started more than [30] days ago".
QWidget *ruleRow(QCheckBox *box, QSpinBox *spin, const QString &after, QWidget *parent)
{
    auto *row = new QWidget(parent);
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(box);
    layout->addWidget(spin);
    auto *tail = new QLabel(after, row);
    tail->setBuddy(spin);
    layout->addWidget(tail);
    layout->addStretch(1);
    return row;
}

} // namespace

CleanUpRunsDialog::CleanUpRunsDialog(const JournalHousekeeping &house, qint64 journalBytes, QWidget *parent)
    : QDialog(parent)
    , m_house(house)
    , m_now(QDateTime::currentMSecsSinceEpoch())
{
    setWindowTitle(tr("Clean Up Runs"));
    setObjectName(QStringLiteral("cleanUpRunsDialog"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Delete the runs that match a ticked rule, with their steps, output and events. "
                                "Live runs (running or waiting) are never deleted."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    m_olderThan = new QCheckBox(tr("Runs started more than"), this);
    m_olderThan->setObjectName(QStringLiteral("pruneOlderThan"));
    m_olderThan->setChecked(true);
    m_days = new QSpinBox(this);
    m_days->setObjectName(QStringLiteral("pruneDays"));
    m_days->setRange(0, 36500);
    m_days->setValue(30);
    layout->addWidget(ruleRow(m_olderThan, m_days, tr("days ago"), this));

    m_keep = new QCheckBox(tr("All but the"), this);
    m_keep->setObjectName(QStringLiteral("pruneKeep"));
    m_keepCount = new QSpinBox(this);
    m_keepCount->setObjectName(QStringLiteral("pruneKeepCount"));
    m_keepCount->setRange(0, 1000000);
    m_keepCount->setValue(20);
    m_keepCount->setEnabled(false);
    layout->addWidget(ruleRow(m_keep, m_keepCount, tr("newest runs"), this));

    m_compact = new QCheckBox(
        tr("Compact the journal afterwards (it is %1 now; compacting gives the space of deleted runs back to the disk)")
            .arg(QLocale().formattedDataSize(journalBytes, 1)),
        this);
    m_compact->setObjectName(QStringLiteral("pruneCompact"));
    m_compact->setChecked(true);
    layout->addWidget(m_compact);

    m_preview = new QLabel(this);
    m_preview->setObjectName(QStringLiteral("prunePreview"));
    m_preview->setWordWrap(true);
    m_preview->setTextFormat(Qt::PlainText);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_preview);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_cleanUp = buttons->addButton(tr("&Clean Up"), QDialogButtonBox::AcceptRole);
    m_cleanUp->setObjectName(QStringLiteral("cleanUpRuns"));
    m_cleanUp->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addStretch(1);
    layout->addWidget(buttons);

    connect(m_olderThan, &QCheckBox::toggled, m_days, &QWidget::setEnabled);
    connect(m_keep, &QCheckBox::toggled, m_keepCount, &QWidget::setEnabled);
    for (QCheckBox *box : {m_olderThan, m_keep, m_compact})
        connect(box, &QCheckBox::toggled, this, &CleanUpRunsDialog::preview);
    for (QSpinBox *spin : {m_days, m_keepCount})
        connect(spin, &QSpinBox::valueChanged, this, &CleanUpRunsDialog::preview);
    preview();
    resize(qMax(sizeHint().width(), 520), sizeHint().height());
}

bool CleanUpRunsDialog::compactAfter() const
{
    return m_compact->isChecked();
}

void CleanUpRunsDialog::preview()
{
    std::optional<qint64> startedBefore;
    std::optional<int> keep;
    if (m_olderThan->isChecked())
        startedBefore = m_now - m_days->value() * DayMs;
    if (m_keep->isChecked())
        keep = m_keepCount->value();
    m_candidates.clear();
    QString error;
    if (startedBefore || keep)
        m_candidates = m_house.pruneCandidates(startedBefore, keep, &error);
    if (!error.isEmpty()) {
        m_candidates.clear();
        m_preview->setText(tr("The journal's runs cannot be read: %1").arg(error));
        m_cleanUp->setEnabled(false);
        return;
    }
    QString text;
    if (m_candidates.isEmpty()) {
        text = !startedBefore && !keep ? tr("No rule is ticked: no run will be deleted.")
                                       : tr("No run matches: none will be deleted.");
        if (m_compact->isChecked())
            text += QLatin1Char(' ') + tr("The journal will only be compacted.");
    } else {
        const QString named = m_candidates.mid(0, NamedRuns).join(QStringLiteral(", "));
        text = m_candidates.size() <= NamedRuns
            ? tr("%n run(s) will be deleted: %1.", nullptr, int(m_candidates.size())).arg(named)
            : tr("%n runs will be deleted: %1 and %2 more.", nullptr, int(m_candidates.size()))
                  .arg(named)
                  .arg(m_candidates.size() - NamedRuns);
        text += QLatin1Char(' ') + tr("This cannot be undone.");
    }
    m_preview->setText(text);
    m_cleanUp->setEnabled(!m_candidates.isEmpty() || m_compact->isChecked());
}
