// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// libFuzzer target: an exported run (File ▸ Import Run…, `docs/run-export.md`), a file
// that comes from other people, through readRunJson. Checks that nothing crashes, that a
// refusal says why, and that an accepted run exports again (runJson) without crashing.

#include "exchange/traceexport.h"

#include "fuzzcheck.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    QString error;
    const std::optional<TraceExport::ImportedRun> run = TraceExport::readRunJson(FuzzCheck::bytes(data, size), &error);
    if (!run) {
        FuzzCheck::check(!error.isEmpty());
        return 0;
    }
    const nlohmann::json again
        = TraceExport::runJson(run->run, run->steps, run->events, run->stdoutText, run->stderrText);
    FuzzCheck::check(again.is_object());
    return 0;
}
