// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "serveclient.h"

#include "jsoninput.h"

#include <httplib.h>

namespace ServeClient {

std::optional<Reply> post(const ServeFile &server, const std::string &path, const nlohmann::json &body,
                          int timeoutSeconds)
{
    httplib::Client client(server.host, server.port);
    client.set_connection_timeout(2, 0);
    client.set_read_timeout(timeoutSeconds, 0);
    client.set_tcp_nodelay(true);
    client.set_write_timeout(5, 0);
    httplib::Headers headers;
    if (!server.token.empty())
        headers.emplace("Authorization", "Bearer " + server.token);
    const auto result = client.Post(path, headers, body.dump(), "application/json");
    if (!result)
        return std::nullopt;
    Reply reply;
    reply.status = result->status;
    reply.body = JsonInput::read<nlohmann::json>(result->body);
    return reply;
}

} // namespace ServeClient
