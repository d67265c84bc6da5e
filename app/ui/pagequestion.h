// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QString>

#include <nlohmann/json.hpp>

#include <functional>

class QUrl;
class QWidget;

/// A URL-mode elicitation (an MCP server asks a person to open a page, no form;
/// docs/mcp.md "A server's requests") as AnswerPane shows and answers it: the studio's
/// lines about the page with the server's message quoted after them (prompt), and
/// **Open in Browser…**, which asks the person first, naming the server, the host and
/// the URL (the spec, client/elicitation "URL mode": show the host, ask before
/// navigating), then opens the page (open).
class PageQuestion
{
    // The pane's texts: tr() in its context, where their translations are.
    Q_DECLARE_TR_FUNCTIONS(AnswerPane)

public:
    /// What opens the page once the person agreed: true when it opened.
    using Opener = std::function<bool(const QUrl &)>;
    /// What asks the person before the page opens: true to open.
    using Confirmer = std::function<bool(const QString &server, const QString &host, const QString &url)>;

    /// True for an attempt's question (Attempt::question) that is a URL-mode elicitation.
    static bool is(const nlohmann::json &question);
    /// The text shown for `question`: the host and the URL (printable), then the
    /// server's message quoted line by line without runs of blank lines.
    static QString prompt(const nlohmann::json &question);

    /// Default: QDesktopServices::openUrl. Tests set one.
    void setOpener(Opener opener) { m_open = std::move(opener); }
    /// Default: a message box over the pane naming the server, the host and the URL. Tests set one.
    void setConfirmer(Confirmer confirmer) { m_confirm = std::move(confirmer); }

    /// Asks the person about `question`'s page (a message box over `parent`), then, while
    /// `stillAsked()` (the server may have withdrawn the page and asked another while
    /// the box was open), opens it. True when it opened; false when the person said no
    /// (`problem` empty) or with `problem` saying why it was not opened.
    bool open(QWidget *parent, const nlohmann::json &question, const std::function<bool()> &stillAsked,
              QString *problem) const;

private:
    Opener m_open;
    Confirmer m_confirm;
};
