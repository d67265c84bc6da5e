// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// libFuzzer target: an answers file (`toolstudio run --answers FILE`, often written by
// hand or by another program) through AnswerFile::parse, then the lookups a headless
// run makes. Checks that nothing crashes, that a refusal names the file, and that the
// unused keys come back sorted and shrink as answers are used.

#include "cli/answerfile.h"

#include "fuzzcheck.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    QString error;
    std::optional<AnswerFile> answers
        = AnswerFile::parse(FuzzCheck::bytes(data, size), QStringLiteral("answers.json"), &error);
    if (!answers) {
        FuzzCheck::check(error.startsWith(QLatin1String("answers.json")));
        return 0;
    }
    const QStringList before = answers->unusedKeys();
    QStringList sorted = before;
    sorted.sort();
    FuzzCheck::check(before == sorted);
    for (const QString &key : before) {
        const bool numbered = key.startsWith(QLatin1Char('#'));
        const int sequence = numbered ? key.mid(1).toInt() : 1;
        (void)answers->answerFor(sequence, numbered ? QStringLiteral("any_tool") : key);
    }
    FuzzCheck::check(answers->unusedKeys().size() <= before.size());
    return 0;
}
