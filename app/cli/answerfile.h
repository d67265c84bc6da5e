// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "step.h"

#include <QHash>
#include <QString>

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
    std::optional<ManualAnswer> answerFor(int sequence, const QString &tool) const;

private:
    QHash<QString, ManualAnswer> m_answers;
};
