// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/durationtext.h"

#include <QCoreApplication>

QString durationText(qint64 ms)
{
    if (ms < 1000)
        return QCoreApplication::translate("TraceModel", "%1 ms").arg(ms);
    if (ms < 60000)
        return QCoreApplication::translate("TraceModel", "%1 s").arg(QString::number(double(ms) / 1000.0, 'f', 1));
    return QCoreApplication::translate("TraceModel", "%1 min %2 s").arg(ms / 60000).arg((ms % 60000) / 1000);
}
