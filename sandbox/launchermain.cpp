// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later

// toolstudio-sandbox: applies a SandboxPolicy to itself, then execs the interpreter.
// Single-threaded, no QCoreApplication: everything happens in LaunchSequence.
#include "launchsequence.h"

#include <unistd.h>

int main(int argc, char **argv)
{
    // First thing: who started us, to notice a parent that dies before PR_SET_PDEATHSIG.
    const pid_t parentAtStart = ::getppid();

    SandboxPolicy policy;
    std::string error;
    switch (LaunchSequence::parseCommandLine(argc, argv, &policy, &error)) {
    case LaunchSequence::Request::Help: {
        const std::string text = LaunchSequence::usage();
        std::string_view rest = text;
        while (!rest.empty()) {
            const ssize_t n = ::write(STDOUT_FILENO, rest.data(), rest.size());
            if (n <= 0)
                return n == 0 ? 1 : 1;
            rest.remove_prefix(std::size_t(n));
        }
        return 0;
    }
    case LaunchSequence::Request::Report: {
        const std::string text = LaunchSequence::report();
        std::string_view rest = text;
        while (!rest.empty()) {
            const ssize_t n = ::write(STDOUT_FILENO, rest.data(), rest.size());
            if (n <= 0)
                return 1;
            rest.remove_prefix(std::size_t(n));
        }
        return 0;
    }
    case LaunchSequence::Request::Invalid:
        LaunchSequence::exitWith({SandboxExit::Usage, error});
    case LaunchSequence::Request::Run:
        break;
    }
    LaunchSequence sequence(std::move(policy), parentAtStart);
    LaunchSequence::exitWith(sequence.run());
}
