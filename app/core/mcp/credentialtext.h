// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

/// Whether a name or a value of a config file is a credential, so that an import moves it
/// to the project's secrets instead of toolstudio.json (McpConfigImport). A heuristic:
/// it errs towards moving (a secret that was not one costs a line in Tools ▸ Secrets, a
/// token in a committed file costs the token). Linear in the text, whatever it holds.
namespace CredentialText {
/// A variable or header name that names a credential: it holds TOKEN, KEY, SECRET,
/// PASSWORD, PASSWD, AUTH, CREDENTIAL, COOKIE or SESSION, ends in PASS or is/ends in _PAT
/// (a personal access token), in any case.
bool looksLikeCredentialName(const QString &name);
/// A value that is a credential whatever its name: it holds a token of a well-known
/// shape (GitHub ghp_/gho_/ghu_/ghs_/ghr_/github_pat_, GitLab glpat-, Slack xox?-,
/// OpenAI and Anthropic sk-, Stripe sk_live_/rk_live_, Hugging Face hf_, npm_, pypi-,
/// AWS AKIA/ASIA, Google AIza, each followed by 16 or more token characters) or a URL
/// with a password (postgres://user:password@host/db).
bool looksLikeCredentialValue(const QString &value);
/// `value` holds scheme://user:password@… (a non-empty password before the host).
bool hasUrlPassword(const QString &value);
} // namespace CredentialText
