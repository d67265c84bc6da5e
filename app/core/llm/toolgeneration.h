// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QString>

#include <nlohmann/json.hpp>

/// Generate Tool with AI (issue 19 item 6; docs/models.md "Generate Tool with AI"): the
/// request a model is sent for one Open WebUI-style `class Tools` file, and the code taken
/// out of its reply. No network here (ToolGenerator sends the request) and nothing runs
/// the code: the reply is untrusted text until a person accepts it, and then it is only
/// ever loaded by the confined tool worker, like any tool file.
class ToolGeneration
{
    Q_DECLARE_TR_FUNCTIONS(ToolGeneration)

public:
    /// The HTTP reply cap of a generation request: a tool file is a few KiB; a reply over
    /// this fails with reply_too_large and is not read further.
    static constexpr qint64 ReplyCapBytes = 1024 * 1024;
    /// The longest code (UTF-8) taken from a reply (a `mock` turn has no HTTP cap).
    static constexpr qsizetype CodeCapBytes = 512 * 1024;

    /// What the model is told (English, whatever the studio's language): one complete
    /// Python file in one ```python block — frontmatter, `class Tools`, typed parameters,
    /// a docstring with `:param name:` lines per tool (what docs/python-tools.md derives
    /// the schemas from).
    static QString systemPrompt();
    /// The user message: `description` for the file `fileName` (as "tools/x.py"); with
    /// `currentText` (the file as it is, "" for a new file) inside a fence longer than any
    /// run of backticks in it, so the file cannot end the fence early.
    static QString userPrompt(const QString &description, const QString &fileName, const QString &currentText);
    /// [{"role": "system", …}, {"role": "user", …}] in the neutral shape (docs/models.md).
    static nlohmann::json messages(const QString &description, const QString &fileName, const QString &currentText);

    /// The code of a model's reply, or why there is none.
    struct Extraction
    {
        QString code;  ///< LF line ends, one final '\n'; empty when `error` is set
        QString error; ///< for a person: what was wrong, quoting the reply's start
    };
    /// Takes the code out of `reply` (the assistant message's text): the first fenced block
    /// marked python/py/python3 (``` or ~~~, CommonMark's rules), else the first unmarked
    /// one, else — when the reply has no fence — the whole text. A block whose fence never
    /// closes runs to the end, unless `stopReason` is "length" (cut at the token limit).
    /// Refused, with the reason: no text, only blocks of other languages, a cut-off reply,
    /// code without a `class Tools` line, code over CodeCapBytes, a NUL character.
    static Extraction extractCode(const QString &reply, const QString &stopReason);

    /// True when `code` holds characters the diff shows escaped (printableLines: control
    /// and text-direction characters other than tab): code that can read differently
    /// than it runs ("Trojan Source", CVE-2021-42574).
    static bool hasHiddenCharacters(const QString &code);
};
