// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/credentialtext.h"

#include <QRegularExpression>

namespace CredentialText {

bool looksLikeCredentialName(const QString &name)
{
    static const QRegularExpression pattern(
        QStringLiteral("TOKEN|KEY|SECRET|PASSWORD|PASSWD|PASS$|AUTH|CREDENTIAL|COOKIE|SESSION|(^|_)PAT$"),
        QRegularExpression::CaseInsensitiveOption);
    return pattern.match(name).hasMatch();
}

/// Without a regular expression: each `://` is looked at once, up to the end of its
/// authority (a pattern starting at every letter of a 4 MiB word would be quadratic).
bool hasUrlPassword(const QString &value)
{
    for (qsizetype at = value.indexOf(QLatin1String("://")); at >= 0;
         at = value.indexOf(QLatin1String("://"), at + 3)) {
        qsizetype colon = -1;
        for (qsizetype i = at + 3; i < value.size(); ++i) {
            const QChar c = value.at(i);
            if (c == u'/' || c == u'?' || c == u'#' || c.isSpace())
                break;
            if (c == u':' && colon < 0)
                colon = i;
            if (c == u'@') {
                if (colon >= 0 && colon + 1 < i)
                    return true; // "user:password@", not "user@" or "user:@"
                break;
            }
        }
    }
    return false;
}

bool looksLikeCredentialValue(const QString &value)
{
    static const QRegularExpression token(
        QStringLiteral("(?:^|[^A-Za-z0-9])(?:gh[pousr]_|github_pat_|glpat-|xox[abprs]-|sk-|sk_live_|rk_live_|hf_|npm_|"
                       "pypi-|AKIA|ASIA|AIza)[A-Za-z0-9_-]{16,}"));
    return token.match(value).hasMatch() || hasUrlPassword(value);
}

} // namespace CredentialText
