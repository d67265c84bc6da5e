// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "servefile.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

/// A request to the project's own server (`toolstudio serve`), as `toolstudio answer`
/// makes it: to the address and with the token of its serve.json.
namespace ServeClient {

struct Reply
{
    int status = 0;
    nlohmann::json body; ///< the server's JSON (discarded if it sent none)
};

/// POSTs `body` to `path` (with its query) and waits at most `timeoutSeconds` for the
/// reply; nullopt when the server cannot be reached (then the caller uses the journal).
std::optional<Reply> post(const ServeFile &server, const std::string &path, const nlohmann::json &body,
                          int timeoutSeconds);

} // namespace ServeClient
