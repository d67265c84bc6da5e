// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// libFuzzer target: a cassette file (`toolstudio replay … --cassette FILE`, shared with
// a demo or a bug report) through loadCassette, the path a user's file takes. Checks
// that nothing crashes, that a refusal names the file, and that a loaded cassette's
// steps have the args hash the engine computes (a stored hash is never trusted).

#include "engine/replaysource.h"
#include "engine/stepengine.h"

#include "fuzzcheck.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QString path = FuzzCheck::scratchDir() + QStringLiteral("/cassette.json");
    FuzzCheck::writeFile(path, FuzzCheck::bytes(data, size));
    QString error;
    const std::optional<ReplaySource> source = loadCassette(path, &error);
    if (!source) {
        FuzzCheck::check(error.startsWith(path));
        return 0;
    }
    for (const Step &step : source->steps)
        FuzzCheck::check(step.argsHash == StepEngine::argsHash(step.args));
    return 0;
}
