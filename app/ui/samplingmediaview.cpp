// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "samplingmediaview.h"

#include "mcp/samplingmedia.h"

SamplingMediaView::SamplingMediaView(QWidget *parent)
    : ContentBlocksView(parent)
{
    setObjectName(QStringLiteral("samplingMedia"));
    // Under the transcript, above the reply: tall enough for a shown image (480) and its line.
    setMinimumHeight(160);
    setMaximumHeight(MaxShownHeight + 80);
    setAudioNote(tr("not played here"));
    hide();
}

void SamplingMediaView::setQuestion(const nlohmann::json &question, const std::optional<nlohmann::json> &modelRequest)
{
    const bool sampling = question.is_object() && question.value("kind", nlohmann::json()) == "sampling";
    const nlohmann::json blocks = sampling ? SamplingMedia::blocksFor(question, modelRequest) : nlohmann::json::array();
    QStringList roles;
    for (const nlohmann::json &block : blocks)
        roles << QString::fromStdString(block.value("role", std::string()));
    setResult(blocks.empty() ? nlohmann::json() : nlohmann::json{{"content", blocks}}, roles);
    setVisible(!blocks.empty());
}
