// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "pagequestion.h"

#include "project/printabletext.h"

#include <QDesktopServices>
#include <QMessageBox>
#include <QStringList>
#include <QUrl>

bool PageQuestion::is(const nlohmann::json &question)
{
    return question.is_object() && question.value("kind", nlohmann::json()) == "elicitation"
        && question.value("mode", nlohmann::json()) == "url";
}

QString PageQuestion::prompt(const nlohmann::json &question)
{
    // The studio's lines first, the server's message after them, quoted line by line
    // and without runs of blank lines: a message cannot pass for the page or push it
    // out of view (attack30 F3).
    QStringList quoted;
    for (const QString &line :
         printableLines(QString::fromStdString(question.value("message", std::string()))).split(u'\n')) {
        if (line.trimmed().isEmpty() && !quoted.isEmpty() && quoted.last() == QLatin1String(">"))
            continue;
        quoted << (line.trimmed().isEmpty() ? QStringLiteral(">") : QStringLiteral("> ") + line);
    }
    return tr("It asks you to open a page on %1 in your browser:\n%2\n\nIts message:\n%3")
        .arg(printableText(QString::fromStdString(question.value("host", std::string()))),
             printableText(QString::fromStdString(question.value("url", std::string()))), quoted.join(u'\n'));
}

bool PageQuestion::open(QWidget *parent, const nlohmann::json &question, const std::function<bool()> &stillAsked,
                        QString *problem) const
{
    problem->clear();
    const QString server = QString::fromStdString(question.value("server", std::string()));
    const QString host = QString::fromStdString(question.value("host", std::string()));
    const QString url = QString::fromStdString(question.value("url", std::string()));
    // A host of 253 characters, a URL of 8 KiB: both may break after a dot or a slash,
    // so the end of the host (whose site it is) is always in view (attack30 F2); the
    // URL is cut after 300 characters (the pane shows all of it).
    const auto breakable = [](QString text) {
        text.replace(u'.', QStringLiteral(".\u200b"));
        return text.replace(u'/', QStringLiteral("/\u200b"));
    };
    const bool agreed = m_confirm
        ? m_confirm(server, host, url)
        : QMessageBox::question(parent, tr("Open a Page for an MCP Server"),
                                tr("MCP server <b>%1</b> asks you to open a page on <b>%2</b>:<br><br>"
                                   "%3<br><br>Open it in your browser? What you enter there goes to "
                                   "that site, not through Tool Studio.")
                                    .arg(printableText(server).toHtmlEscaped(),
                                         breakable(printableText(host)).toHtmlEscaped(),
                                         breakable(elidedText(printableText(url), 300)).toHtmlEscaped()),
                                QMessageBox::Open | QMessageBox::Cancel, QMessageBox::Cancel)
            == QMessageBox::Open;
    if (!agreed)
        return false;
    // What opens is what the person agreed to, and only while it is still asked.
    if (!stillAsked()) {
        *problem = tr("The server withdrew that page while you decided; nothing was opened. Read what it asks now.");
        return false;
    }
    const QUrl page(url, QUrl::StrictMode);
    const bool opened = m_open ? m_open(page) : QDesktopServices::openUrl(page);
    if (!opened) {
        *problem
            = tr("The browser could not be started. Open the page yourself, then answer: %1").arg(printableText(url));
        return false;
    }
    return true;
}
