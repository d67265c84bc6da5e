// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMap>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

class QUrl;

/// Per-project secrets (API keys and the like; DESIGN.md "Tools and the project").
/// Stored outside the project folder, in
/// `QStandardPaths::AppConfigLocation/secrets/<sha256 of the project dir>.json` with
/// file mode 0600 (the folder 0700), so they never land in git or in a bundle.
/// They reach the tool worker and `command` handlers as environment variables —
/// never the sandbox, never the journal: captured output and error messages of
/// those handlers pass through mask() before they are recorded.
class Secrets
{
public:
    /// The secrets of `projectDir` (empty when none were saved). `error` is set when
    /// the file exists but cannot be read or parsed.
    static Secrets load(const QString &projectDir, QString *error = nullptr);
    /// The file the secrets of `projectDir` live in.
    static QString filePath(const QString &projectDir);
    /// Secret names are environment variable names: ^[A-Za-z_][A-Za-z0-9_]*$.
    static bool isValidName(const QString &name);
    static constexpr auto Mask = "********";

    QString projectDir() const { return m_projectDir; }
    QStringList names() const { return m_values.keys(); }
    QString value(const QString &name) const { return m_values.value(name); }
    bool isEmpty() const { return m_values.isEmpty(); }
    /// False with `error` (and nothing changed) for an invalid name or an empty value
    /// (an empty secret is almost always a mistake — an empty pipe, a missing
    /// variable — and would silently replace the real one; remove() deletes).
    bool set(const QString &name, const QString &value, QString *error = nullptr);
    void remove(const QString &name);
    /// Writes the file (mode 0600, atomically). False with the reason otherwise.
    bool save(QString *error = nullptr) const;

    /// Issue 16: a secret that goes over the network (a model's key) is bound to the hosts
    /// it was entered for, as "host" or "host:port" (a port other than the scheme's
    /// default), lowercase; empty when not bound yet. A new value clears the binding.
    QStringList hosts(const QString &name) const { return m_hosts.value(name); }
    /// Binds `name` to exactly `hosts` (normalised: lowercase, no empty entries).
    void setHosts(const QString &name, const QStringList &hosts);
    /// `url`'s host as hosts() holds it.
    static QString hostOf(const QUrl &url);
    /// Empty when secret `name` may be sent to `url`: it is bound to that host, or to none
    /// yet — then it is bound to it now, in the secrets file (the first host a key goes to
    /// is the one the project named when it was trusted) —; else why not and what to do.
    QString allowSend(const QString &name, const QUrl &url);

    /// The sign-in state of MCP server `server` (docs/mcp.md "Signing in"): its OAuth
    /// tokens, their expiry and its client registration, as the text of a JSON object;
    /// "" when none. Kept in the same file as the secrets (mode 0600, outside the
    /// project) but apart from them: it is in no names(), so it reaches no process's
    /// environment; its tokens are masked by mask().
    QString oauth(const QString &server) const { return m_oauth.value(server); }
    /// Sets (or, with "", removes) the sign-in state of `server`; save() writes it.
    /// Text that is not a JSON object is not kept.
    void setOAuth(const QString &server, const QString &jsonText);

    /// `base` plus every secret as NAME=value.
    QProcessEnvironment addTo(QProcessEnvironment base) const;
    /// `text` with every secret value (of 4 or more characters) replaced by Mask.
    QString mask(QString text) const;
    QByteArray mask(const QByteArray &text) const;

private:
    QString m_projectDir;
    QMap<QString, QString> m_values;
    QMap<QString, QStringList> m_hosts;
    QMap<QString, QString> m_oauth;
    QStringList m_oauthValues; ///< the tokens and client secrets in m_oauth, for mask()
    void collectOAuthValues();
};
