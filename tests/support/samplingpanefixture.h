// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// What the sampling panes' GUI suites (tst_samplingmodelui, tst_samplingtoolsui) share:
// an AnswerPane shown alone, the answers it sends collected, the project (its models)
// at hand for Ask Model, and a waiting step that asks a sampling question.
#pragma once

#include "project/project.h"
#include "run/runcontroller.h"
#include "ui/answerpane.h"
#include "ui/samplingmodelpanel.h"

#include <QSize>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <vector>

/// Step #1 (call "c1" of run "run1") of `tool`, waiting: its attempt asks `question`,
/// with `modelRequest` what a model is asked.
inline Step waitingSamplingStep(const QString &tool, const nlohmann::json &question,
                                const std::optional<nlohmann::json> &modelRequest)
{
    Step step;
    step.runId = QStringLiteral("run1");
    step.callId = QStringLiteral("c1");
    step.sequence = 1;
    step.tool = tool;
    step.status = StepStatus::Waiting;
    Attempt attempt;
    attempt.number = 1;
    attempt.question = question;
    attempt.modelRequest = modelRequest;
    step.attempts.push_back(attempt);
    return step;
}

/// `class TstX : public QObject, protected SamplingPaneFixture`: setUpPane() in init(),
/// m_pane.reset() in cleanup().
class SamplingPaneFixture
{
protected:
    /// A fresh pane of `size`, shown, answering into m_answers, asking m_project's models.
    void setUpPane(const QSize &size)
    {
        QStandardPaths::setTestModeEnabled(true);
        m_project = Project();
        m_project.dir = m_dir.path();
        m_answers.clear();
        m_pane = std::make_unique<AnswerPane>(&m_run);
        m_pane->setAnswerer([this](const QString &, int, const ManualAnswer &answer, QString *) {
            m_answers.push_back(answer.result);
            return true;
        });
        m_pane->samplingModel()->setProjectLookup([this] { return &m_project; });
        m_pane->resize(size);
        m_pane->show();
    }

    /// The pane's child `name`; fatal when there is none.
    template<typename W>
    W *child(const char *name) const
    {
        auto *found = m_pane->findChild<W *>(QString::fromLatin1(name));
        if (!found)
            qFatal("no child %s", name);
        return found;
    }

    QTemporaryDir m_dir;
    Project m_project;
    RunController m_run;
    std::unique_ptr<AnswerPane> m_pane;
    std::vector<nlohmann::json> m_answers;
};
