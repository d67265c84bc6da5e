// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// libFuzzer target: the body of `toolstudio serve`'s `POST /v1/runs/{run}/calls/{call_id}`
// (docs/server.md), read by AnswerBody::read on the server's Qt thread, for the call
// id "c1". Checks that nothing crashes or takes long (libFuzzer's -timeout), that a
// refusal names what is wrong in a short message, and that an accepted answer is one
// the intake can take: an attempt of 0 (none given) or 1 to 1 000 000, an error with a
// message.

#include "answerbody.h"

#include "fuzzcheck.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string body(reinterpret_cast<const char *>(data), size);
    int attempt = -1;
    QString problem;
    const std::optional<ManualAnswer> answer = AnswerBody::read(body, QStringLiteral("c1"), &attempt, &problem);
    if (!answer) {
        FuzzCheck::check(!problem.isEmpty());
        // Names and values from the body are elided (AnswerBody::QuotedChars each).
        FuzzCheck::check(problem.size() < 1000);
        return 0;
    }
    FuzzCheck::check(problem.isEmpty());
    FuzzCheck::check(attempt >= 0 && attempt <= 1000000);
    FuzzCheck::check(!answer->isError || !answer->message.isEmpty());
    FuzzCheck::check(answer->isError || !answer->result.is_discarded());
    return 0;
}
