// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later

// toolstudio-sandbox: applies a SandboxPolicy to itself, then execs the interpreter.
// Single-threaded, no QCoreApplication: the command line is LaunchCommandLine's,
// everything after it happens in LaunchSequence.
#include "launchcommandline.h"
#include "launchreport.h"
#include "launchsequence.h"

#include <unistd.h>

namespace {

/// Writes `text` to stdout: 0 when all of it went out, else 1.
int print(const std::string &text)
{
    std::string_view rest = text;
    while (!rest.empty()) {
        const ssize_t n = ::write(STDOUT_FILENO, rest.data(), rest.size());
        if (n <= 0)
            return 1;
        rest.remove_prefix(std::size_t(n));
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    // First thing: who started us, to notice a parent that dies before PR_SET_PDEATHSIG.
    const pid_t parentAtStart = ::getppid();

    SandboxPolicy policy;
    std::string error;
    switch (LaunchCommandLine::parse(argc, argv, &policy, &error)) {
    case LaunchCommandLine::Request::Help:
        return print(LaunchCommandLine::usage());
    case LaunchCommandLine::Request::Report:
        return print(LaunchReport::text());
    case LaunchCommandLine::Request::Invalid:
        LaunchSequence::exitWith({SandboxExit::Usage, error});
    case LaunchCommandLine::Request::Run:
        break;
    }
    LaunchSequence sequence(std::move(policy), parentAtStart);
    LaunchSequence::exitWith(sequence.run());
}
