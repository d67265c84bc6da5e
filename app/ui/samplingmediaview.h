// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "contentblocksview.h"

#include <optional>

/// The images and audio of an MCP server's sampling request, shown in the answer pane
/// under its transcript (docs/mcp.md "Images and audio"): the question's "media"
/// (SamplingMedia::blocksFor) as content blocks, numbered as the transcript names
/// them ("[image 1: image/png]") and labelled with their message's role; images
/// rendered and audio sized by ContentBlocksView, which decodes safely. Hidden for a
/// question without media and for anything else.
class SamplingMediaView : public ContentBlocksView
{
    Q_OBJECT
public:
    explicit SamplingMediaView(QWidget *parent = nullptr);

    /// Shows `question`'s media, their data found in `modelRequest` (Attempt::modelRequest).
    void setQuestion(const nlohmann::json &question, const std::optional<nlohmann::json> &modelRequest);
};
