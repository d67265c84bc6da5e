// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

/// Opens, on the studio's (trusted) side, a file the sandboxed script named — a path
/// relative to the run's work dir, e.g. a tool argument — without letting the script
/// point the studio anywhere else (SANDBOX.md "The studio's side": the judge0 symlink
/// mistake). The studio may run as root; the script writes the work dir.
///
/// The path is refused, before anything is opened, when it is empty, contains a NUL
/// byte, is not valid UTF-8, is absolute, or has a `..` component. It is then opened
/// read-only with openat2(work dir fd, path, O_NOFOLLOW | O_NONBLOCK,
/// RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS) — no symlink anywhere
/// in the path, nothing outside the work dir, a fifo does not block — and refused
/// unless it is a regular file with exactly one link (a hard link shares its inode,
/// and so its contents and owner, with a file that may be outside).
///
/// Plain C++/POSIX (Linux ≥ 5.6 for openat2; older kernels refuse every path).
class WorkDirFile
{
public:
    /// Why a path was refused; code() gives the stable name used in messages.
    enum class Refusal {
        None,
        Empty,      ///< "path_empty"
        NulByte,    ///< "path_nul_byte"
        BadUtf8,    ///< "path_bad_utf8"
        Absolute,   ///< "path_absolute"
        Traversal,  ///< "path_traversal": a ".." component, or resolution left the work dir
        Symlink,    ///< "path_symlink": a symbolic (or magic) link anywhere in the path
        NotFound,   ///< "path_not_found"
        NotRegular, ///< "path_not_regular": a directory, fifo, socket or device
        HardLink,   ///< "path_hard_link": st_nlink > 1
        OpenFailed, ///< "path_open_failed": another error (permissions, no openat2, …)
    };

    /// The result of open(): an fd (O_RDONLY | O_CLOEXEC, the caller closes it) or a
    /// refusal with a one-line message naming the path and what to do.
    struct Result
    {
        int fd = -1;
        Refusal refusal = Refusal::None;
        std::string message;
        bool ok() const { return fd >= 0; }
    };

    /// `workDir`: an absolute directory (opened with O_PATH | O_DIRECTORY, itself not
    /// followed if it is a symlink). `path`: the script's name for the file.
    static Result open(const std::string &workDir, std::string_view path);
    /// The same beneath an already open directory fd (not consumed).
    static Result openBeneath(int workDirFd, std::string_view path);

    /// "path_symlink", … ("" for None).
    static const char *code(Refusal refusal);
    /// True when `text` is well-formed UTF-8 (no overlongs, surrogates or values above
    /// U+10FFFF).
    static bool isValidUtf8(std::string_view text);
};
