// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

/// `toolstudio chat PROJECT [--model NAME] [--system TEXT] MESSAGE` and
/// `toolstudio chat PROJECT --continue RUN MESSAGE` (docs/models.md "Chat"): one user
/// turn of a chat run — the studio's chat script running the stock agent loop over the
/// project's tools, every model turn and tool call a step. Prints the model's reply on
/// stdout, the turn's calls and the run id on stderr (or JSON lines with --json); the
/// run then waits for the next message (suspended once this process has exited).
///
/// `arguments` are those after "chat". Needs a QCoreApplication. Returns 0 = replied,
/// 1 = the turn failed (the model, the run), 2 = bad input (an empty message, an unknown
/// model, a project without models, an unknown or ended run for --continue).
int chatCommand(const QStringList &arguments);
