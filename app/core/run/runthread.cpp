// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/runthread.h"

#include "engine/stepengine.h"
#include "journal/journal.h"

#include <QCoreApplication>
#include <QPointer>

RunThread::RunThread(QObject *home)
    : m_home(home)
{
    m_thread.setObjectName(QStringLiteral("toolstudio-run"));
    m_thread.start();
    m_context = new QObject;
    m_context->moveToThread(&m_thread);
}

RunThread::~RunThread()
{
    tearDown();
    m_context->deleteLater(); // on the run thread, as its event loop ends
    m_thread.quit();
    m_thread.wait();
}

void RunThread::tearDown()
{
    run([this] {
        delete m_session;
        m_session = nullptr;
        m_journal.reset();
    });
}

bool RunThread::openJournal(const QString &path, QString *error)
{
    run([this, &path, error] {
        auto journal = std::make_unique<Journal>();
        if (journal->open(path, error)) {
            // Step commits go to the journal's tail and into SQLite in groups every
            // 10 ms (docs/steps.md "The commit path"): this thread runs an event loop.
            journal->setGroupCommit(10);
            m_journal = std::move(journal);
        }
    });
    return m_journal != nullptr;
}

void RunThread::startSession(RunSession::Setup setup, const std::function<void(RunSession *)> &connect)
{
    run([&, this] {
        m_session = new RunSession(std::move(setup), m_context);
        connect(m_session);
    });
}

QString RunThread::noRunText()
{
    return QCoreApplication::translate("RunController", "no run is active");
}

void RunThread::handBack(QPointer<QObject> context, Outcome done, bool accepted, const QString &reason) const
{
    // The guard is only read on the home thread, where `context` lives and dies.
    QMetaObject::invokeMethod(
        m_home,
        [context = std::move(context), done = std::move(done), accepted, reason] {
            if (context && done)
                done(accepted, reason);
        },
        Qt::QueuedConnection);
}

void RunThread::postDecision(bool available, Decision decide, QObject *context, Outcome done)
{
    QPointer<QObject> guard(context);
    if (!available || !m_session) {
        handBack(std::move(guard), std::move(done), false, noRunText());
        return;
    }
    post([this, decide = std::move(decide), guard = std::move(guard), done = std::move(done)]() mutable {
        QString reason;
        bool accepted = false;
        if (m_session)
            accepted = decide(m_session->engine(), &reason);
        else
            reason = noRunText();
        handBack(std::move(guard), std::move(done), accepted, reason);
    });
}

bool RunThread::decideAndWait(bool available, const Decision &decide, QString *reason)
{
    Q_ASSERT_X(!QCoreApplication::instance() || !QCoreApplication::instance()->inherits("QGuiApplication"),
               "RunThread::decideAndWait", "a GUI thread must not wait for the run thread: post the decision");
    if (!available || !m_session) {
        if (reason)
            *reason = noRunText();
        return false;
    }
    bool accepted = false;
    run([&] { accepted = decide(m_session->engine(), reason); });
    return accepted;
}
