// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpoauthtokenrequest.h"

#include "jsoninput.h"
#include "mcp/mcpoauthstate.h"
#include "project/printabletext.h"

#include <nlohmann/json.hpp>

using nlohmann::json;

namespace McpOAuthTokenRequest {

namespace {

QByteArray formEncoded(const QString &text)
{
    return QUrl::toPercentEncoding(text);
}

QString field(const McpOAuthResponse &response, const char *key)
{
    const json root
        = JsonInput::read<json>(std::string_view(response.body.constData(), std::size_t(response.body.size())));
    const auto it = root.is_object() ? root.find(key) : root.end();
    return root.is_object() && it != root.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                                   : QString();
}

} // namespace

void send(McpOAuthHttp &http, const McpOAuthState &state, Form form, McpOAuthHttp::Done done)
{
    McpOAuthHttp::Headers headers{{"Content-Type", "application/x-www-form-urlencoded"}};
    form.append({QStringLiteral("client_id"), state.clientId});
    if (!state.resource.isEmpty())
        form.append({QStringLiteral("resource"), state.resource});
    if (!state.clientSecret.isEmpty()) {
        if (state.authMethod == QLatin1String("client_secret_basic"))
            headers.append(
                {"Authorization",
                 "Basic " + (formEncoded(state.clientId) + ':' + formEncoded(state.clientSecret)).toBase64()});
        else
            form.append({QStringLiteral("client_secret"), state.clientSecret});
    }
    QByteArray body;
    for (const auto &[key, value] : form) {
        if (!body.isEmpty())
            body += '&';
        body += formEncoded(key) + '=' + formEncoded(value);
    }
    http.post(QUrl(state.tokenEndpoint), headers, body, std::move(done));
}

QString errorCode(const McpOAuthResponse &response)
{
    return field(response, "error");
}

QString describeError(const McpOAuthResponse &response)
{
    if (response.status == 0)
        return response.error;
    QString text = QStringLiteral("HTTP %1").arg(response.status);
    if (!response.error.isEmpty())
        return text + QStringLiteral(": ") + response.error;
    const QString code = field(response, "error");
    const QString description = field(response, "error_description");
    if (!code.isEmpty())
        text += QStringLiteral(": ") + elidedText(printableText(code), 80);
    if (!description.isEmpty())
        text += QStringLiteral(": ") + elidedText(printableText(description), 300);
    return text;
}

} // namespace McpOAuthTokenRequest
