// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// libFuzzer target: a request body of `toolstudio serve`'s exec routes (docs/server.md:
// `POST /v1/exec/programmatic` when the first byte is even, `POST /v1/exec` when odd;
// the rest is the body) through ProgrammaticRequest::parse, which runs on the server's
// Qt thread. Checks that nothing crashes or takes long (libFuzzer's -timeout), that a
// refusal is a 400 or 413 with a code and a short message, and that what is accepted
// holds within the documented bounds.

#include "programmaticrequest.h"

#include "fuzzcheck.h"

#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const bool withTools = (data[0] & 1) == 0;
    const std::string body(reinterpret_cast<const char *>(data) + 1, size - 1);
    ProgrammaticRequest::Problem problem;
    const std::optional<ProgrammaticRequest> request = ProgrammaticRequest::parse(body, withTools, &problem);
    if (!request) {
        FuzzCheck::check(problem.status == 400 || problem.status == 413);
        FuzzCheck::check(problem.code != nullptr && std::strlen(problem.code) > 0);
        FuzzCheck::check(!problem.message.isEmpty());
        // Names and values from the body are elided in messages (at most ~200 of their
        // characters each, a few of them per message).
        FuzzCheck::check(problem.message.size() < 2000);
        return 0;
    }
    if (request->continuation) {
        FuzzCheck::check(withTools);
        FuzzCheck::check(!request->sessionId.isEmpty() && request->sessionId.size() <= 200);
        FuzzCheck::check(!request->continuationToken.empty());
        for (const ProgrammaticResult &result : request->results) {
            FuzzCheck::check(!result.callId.isEmpty() && result.callId.size() <= 200);
            FuzzCheck::check(!result.isError || !result.errorMessage.trimmed().isEmpty());
            FuzzCheck::check(result.result.dump().size() <= ProgrammaticRequest::MaxResultBytes);
        }
        return 0;
    }
    FuzzCheck::check(!request->code.isEmpty());
    FuzzCheck::check(request->language == QLatin1String("python") || request->language == QLatin1String("bash"));
    FuzzCheck::check(withTools || request->tools.empty());
    FuzzCheck::check(request->tools.size() <= std::size_t(ProgrammaticRequest::MaxTools));
    for (const Tool &tool : request->tools) {
        FuzzCheck::check(Tool::isValidName(tool.name));
        FuzzCheck::check(tool.inputSchema.is_object());
        const auto properties = tool.inputSchema.find("properties");
        if (properties != tool.inputSchema.end() && properties->is_object())
            FuzzCheck::check(std::size_t(tool.parameterOrder.size()) == properties->size());
    }
    FuzzCheck::check(request->files.size() <= ProgrammaticRequest::MaxFiles);
    for (const auto &[name, content] : request->files)
        FuzzCheck::check(!name.isEmpty() && !name.startsWith(QLatin1Char('/')) && !name.contains(QLatin1String("..")));
    FuzzCheck::check(request->timeoutSeconds >= 0 && request->timeoutSeconds <= ProgrammaticRequest::MaxTimeoutSeconds);
    return 0;
}
