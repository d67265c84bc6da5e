// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QLabel;
class QWidget;

/// A label for server text: plain text always (a server's "<img src=…>" is shown, not
/// loaded), wrapped, selectable.
QLabel *plainLabel(const QString &objectName, QWidget *parent);

/// A tooltip of server text: escaped (and clipped), so Qt does not take it for rich text.
QString plainToolTip(const QString &text);
