// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/handlers/mainthreadhandler.h"

#include <QCoreApplication>
#include <QMutex>
#include <QPointer>
#include <QTimer>

#include <atomic>
#include <utility>
#include <vector>

namespace {

/// Inner handlers that have finished (main thread), deleted at the next start() on the
/// main thread, or within ReapMs when no call follows: a deleteLater() per call woke
/// the main thread's event loop once more per call. Both run from an event of their
/// own, never inside a finished handler's code. The rest go with the application.
class SpentHandlers : public QObject
{
public:
    static constexpr int ReapMs = 1000;

    static SpentHandlers *instance()
    {
        static QPointer<SpentHandlers> spent;
        if (!spent)
            spent = new SpentHandlers(QCoreApplication::instance());
        return spent;
    }

    explicit SpentHandlers(QObject *parent)
        : QObject(parent)
    {
        m_timer.setSingleShot(true);
        m_timer.setInterval(ReapMs);
        connect(&m_timer, &QTimer::timeout, this, &SpentHandlers::reap);
    }
    ~SpentHandlers() override { reap(); }

    void keep(ToolHandler *handler)
    {
        m_spent.emplace_back(handler);
        if (!m_timer.isActive())
            m_timer.start();
    }

    void reap()
    {
        for (const QPointer<ToolHandler> &handler : std::exchange(m_spent, {}))
            delete handler.data();
    }

private:
    QTimer m_timer;
    std::vector<QPointer<ToolHandler>> m_spent;
};

} // namespace

/// What the proxy (run thread) and the inner handler (main thread) share; the mutex
/// keeps the proxy alive while the main thread connects to it.
struct MainThreadHandler::Shared
{
    QMutex mutex;
    MainThreadHandler *proxy = nullptr;                        ///< null once the proxy is gone
    QPointer<ToolHandler> inner;                               ///< touched on the main thread only
    std::atomic<bool> cancelled = false;                       ///< also read without the lock (a finished handler)
    std::function<void(nlohmann::json)> cancelledProtocolSink; ///< set before start(), called on the main thread
    nlohmann::json finishedProtocol; ///< the record of an outcome that came once cancelled (main thread)
};

MainThreadHandler::MainThreadHandler(std::function<ToolHandler *()> make, QString cancelReport, QObject *parent)
    : ToolHandler(parent)
    , m_make(std::move(make))
    , m_cancelReport(std::move(cancelReport))
    , m_shared(std::make_shared<Shared>())
{
    m_shared->proxy = this;
}

MainThreadHandler::~MainThreadHandler()
{
    {
        const QMutexLocker lock(&m_shared->mutex);
        m_shared->proxy = nullptr;
    }
    // Finished: the inner handler deletes itself on the main thread, and there is
    // nothing to cancel — posting both woke the main thread twice after every call.
    if (m_innerFinished)
        return;
    cancel();
    // The inner handler is deleted on the main thread when this event has run — or when
    // it is dropped undelivered with the application (a run that ends right after its
    // attempt was cancelled: the handler, and what it holds, leaked). The guard lives in
    // the event only (moved in), so its deleter never runs on this thread.
    QMetaObject::invokeMethod(
        QCoreApplication::instance(),
        [inner = std::shared_ptr<void>(nullptr, [shared = m_shared](void *) { delete shared->inner.data(); })] {},
        Qt::QueuedConnection);
}

void MainThreadHandler::start(const HandlerRequest &request)
{
    QMetaObject::invokeMethod(
        QCoreApplication::instance(),
        [shared = m_shared, make = m_make, request] {
            SpentHandlers *spent = SpentHandlers::instance();
            spent->reap();
            const QMutexLocker lock(&shared->mutex);
            if (!shared->proxy || shared->cancelled)
                return;
            ToolHandler *inner = make();
            shared->inner = inner;
            MainThreadHandler *proxy = shared->proxy;
            // Done with once it has finished (before the queued connection: the proxy
            // counts on it once it hears of the end).
            // Kept for a cancel that crosses the answer (the attempt's timeout on the run
            // thread while the answer is read here): the record of the attempt it ends.
            QObject::connect(inner, &ToolHandler::finished, inner, [shared](const HandlerOutcome &outcome) {
                // No lock: a handler may finish inside start(), under it.
                if (shared->cancelled)
                    shared->finishedProtocol = outcome.protocol;
            });
            QObject::connect(inner, &ToolHandler::finished, spent, [spent, inner] { spent->keep(inner); });
            // Queued to the proxy's thread; Qt drops it if the proxy is deleted meanwhile.
            QObject::connect(inner, &ToolHandler::finished, proxy, [proxy](const HandlerOutcome &outcome) {
                proxy->m_innerFinished = true;
                Q_EMIT proxy->finished(outcome);
            });
            QObject::connect(inner, &ToolHandler::progressed, proxy,
                             [proxy](const QString &line) { Q_EMIT proxy->progressed(line); });
            QObject::connect(inner, &ToolHandler::personAsked, proxy,
                             [proxy](const nlohmann::json &question) { Q_EMIT proxy->personAsked(question); });
            QObject::connect(inner, &ToolHandler::personWithdrawn, proxy,
                             [proxy](const nlohmann::json &question) { Q_EMIT proxy->personWithdrawn(question); });
            inner->start(request);
        },
        Qt::QueuedConnection);
}

void MainThreadHandler::cancel()
{
    if (m_cancelled)
        return;
    m_cancelled = true;
    if (m_innerFinished)
        return;
    {
        const QMutexLocker lock(&m_shared->mutex);
        m_shared->cancelled = true;
    }
    QMetaObject::invokeMethod(
        QCoreApplication::instance(),
        [shared = m_shared] {
            nlohmann::json record;
            if (shared->inner) {
                shared->inner->cancel();
                record = shared->inner->cancelledProtocol();
            }
            // Finished before the cancel came: its outcome's record (the proxy no longer
            // listens to it).
            if (!record.is_object())
                record = std::move(shared->finishedProtocol);
            if (shared->cancelledProtocolSink && record.is_object())
                shared->cancelledProtocolSink(std::move(record));
        },
        Qt::QueuedConnection);
}

void MainThreadHandler::answerPerson(const nlohmann::json &question, const ManualAnswer &answer)
{
    QMetaObject::invokeMethod(
        QCoreApplication::instance(),
        [shared = m_shared, question, answer] {
            const QMutexLocker lock(&shared->mutex);
            if (shared->inner && !shared->cancelled)
                shared->inner->answerPerson(question, answer);
        },
        Qt::QueuedConnection);
}

void MainThreadHandler::setCancelledProtocolSink(std::function<void(nlohmann::json)> sink)
{
    m_shared->cancelledProtocolSink = std::move(sink);
}

QString MainThreadHandler::cancelReport() const
{
    return m_cancelled ? m_cancelReport : QString();
}
