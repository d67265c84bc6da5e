// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// What the main window suites (tst_mainwindow, tst_mainwindowpending,
// tst_mainwindowtrace) share besides WindowFixture: scratch copies of the example
// projects, and a model cell's text.
#pragma once

#include "testfiles.h"
#include "windowfixture.h"

#include <QAbstractItemModel>
#include <QString>

/// The display text of `model`'s cell at `row`, `column`.
inline QString cell(const QAbstractItemModel *model, int row, int column)
{
    return model->index(row, column).data().toString();
}

/// WindowFixture with example(), for the main window suites (`class TstX : public
/// QObject, protected MainWindowFixture`).
class MainWindowFixture : protected WindowFixture
{
protected:
    // A scratch copy of resources/examples/NAME; empty (and a failure) when missing.
    QString example(const QString &name)
    {
        const QString copy = copyExample(name, m_scratch->path());
        if (copy.isEmpty())
            qWarning("example project missing or not copied: %s", qPrintable(name));
        return copy;
    }
};
