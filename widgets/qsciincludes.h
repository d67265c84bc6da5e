// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// QScintilla's headers use the `signals`/`slots` keywords that QT_NO_KEYWORDS
// removes; map them to Q_SIGNALS/Q_SLOTS for these headers only.
#ifdef QT_NO_KEYWORDS
#define signals Q_SIGNALS
#define slots Q_SLOTS
#define TOOLSTUDIO_QSCI_KEYWORDS
#endif

#include <Qsci/qsciapis.h>
#include <Qsci/qscicommand.h>
#include <Qsci/qscicommandset.h>
#include <Qsci/qscilexerbash.h>
#include <Qsci/qscilexerjavascript.h>
#include <Qsci/qscilexerjson.h>
#include <Qsci/qscilexerpython.h>
#include <Qsci/qsciscintilla.h>

#ifdef TOOLSTUDIO_QSCI_KEYWORDS
#undef signals
#undef slots
#undef TOOLSTUDIO_QSCI_KEYWORDS
#endif
