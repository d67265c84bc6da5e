// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/durationtext.h"

#include <QCoreApplication>
#include <QLocale>

QString durationText(qint64 ms, DurationStyle style)
{
    if (style == DurationStyle::Plain)
        return ms < 1000 ? QStringLiteral("%1 ms").arg(ms) : QStringLiteral("%1 s").arg(decimalSeconds(ms, 2));
    // Translated styles write the decimal separator of the locale, as sizes do
    // (QLocale::formattedDataSize): "4,1 s" beside "256,0 KiB" in German.
    const auto seconds = [ms] { return QLocale().toString(double(ms) / 1000.0, 'f', 1); };
    if (style == DurationStyle::Seconds)
        return QCoreApplication::translate("TraceModel", "%1 s").arg(seconds());
    if (ms < 1000)
        return QCoreApplication::translate("TraceModel", "%1 ms").arg(ms);
    if (ms < 60000)
        return QCoreApplication::translate("TraceModel", "%1 s").arg(seconds());
    return QCoreApplication::translate("TraceModel", "%1 min %2 s").arg(ms / 60000).arg((ms % 60000) / 1000);
}

QString unbrokenDurationText(qint64 ms, DurationStyle style)
{
    return durationText(ms, style).replace(QLatin1Char(' '), QChar::Nbsp);
}

QString decimalSeconds(qint64 ms, int decimals)
{
    return QString::number(double(ms) / 1000.0, 'f', decimals);
}
