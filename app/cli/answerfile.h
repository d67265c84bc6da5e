// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>

/// Answers for manual calls in a headless run (`toolstudio run --answers FILE`).
///
/// The file is a JSON object keyed by tool name, or by `#N` for the N-th call of the
/// run (1-based; `#N` wins over the tool name). Each value is `{"result": …}` or
/// `{"error": "message", "retryable": false}`; any other value is short for
/// `{"result": value}`.
class AnswerFile
{
public:
    /// Parses `path`. Returns nullopt with `error` = "FILE:LINE:COLUMN: reason" when
    /// the file cannot be read, is not valid JSON, or is not a JSON object.
    static std::optional<AnswerFile> load(const QString &path, QString *error);
    static std::optional<AnswerFile> parse(const QByteArray &json, const QString &fileName, QString *error);

    /// The answer for call number `sequence` of `tool`, or nullopt when the file has none.
    /// Remembers the key it came from (unusedKeys()).
    std::optional<ManualAnswer> answerFor(int sequence, const QString &tool);

    /// The keys no answerFor() has used so far, sorted: after a run, those that matched
    /// no manual call (a typo in a tool name, a #N past the last call, a tool answered
    /// by its #N key instead).
    QStringList unusedKeys() const;
    /// The file name given to parse()/load(), for messages.
    QString fileName() const { return m_fileName; }

private:
    QHash<QString, ManualAnswer> m_answers;
    QSet<QString> m_used;
    QString m_fileName;
};
