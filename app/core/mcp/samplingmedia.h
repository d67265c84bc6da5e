// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <unordered_map>
#include <vector>

/// The image and audio blocks of an MCP server's `sampling/createMessage` messages
/// ({"type": "image" | "audio", "data": base64, "mimeType"}), checked once for both
/// readers (docs/mcp.md "Images and audio"): a person sees the ones within the budget
/// (the answer pane's ContentBlocksView decodes them safely), a model is given those of
/// them it can take as neutral parts (llm/modelmessage.h). Every byte is the server's: a
/// block is measured before anything of it is copied or decoded.
class SamplingMedia
{
public:
    /// Image and audio blocks of one request kept; later ones are named only.
    static constexpr std::size_t MaxBlocks = 20;
    /// Base64 characters of one block (5 MiB: Anthropic's limit for an image).
    static constexpr std::size_t MaxBlockBytes = 5 * 1024 * 1024;
    /// Base64 characters of the blocks of one request together (8 MiB).
    static constexpr std::size_t MaxTotalBytes = 8 * 1024 * 1024;
    /// Characters of a mimeType kept (printable).
    static constexpr qsizetype MaxMimeChars = 100;
    /// Blocks not kept (over the budget, without data) checked and named one by one;
    /// later ones are only counted (notChecked()), so that a request of millions of
    /// blocks costs no entry for each (attack42 B1).
    static constexpr std::size_t MaxNamedNotKept = 20;

    struct Block
    {
        QString type;          ///< "image" or "audio"
        QString role;          ///< its message's role, printable, at most 20 characters
        QString mimeType;      ///< as sent, printable, at most MaxMimeChars ("" when none)
        std::size_t bytes = 0; ///< base64 characters of its data
        int shown = 0;         ///< its number among those a person is shown (from 1); 0 when not kept
        QString notKept;       ///< why a person is not shown it (the budget, no data); "" when kept
        nlohmann::json part;   ///< the neutral part a model is given; null when none
        QString notSent;       ///< why a model is not given it; "" when `part` is set
        /// Where its part is in the model's request, [message, part]; set by whoever builds it.
        nlohmann::json modelPart;
        const nlohmann::json *source = nullptr; ///< the server's block
    };

    /// Checks the image and audio blocks of `messages` (alone or in arrays of blocks), in
    /// order, against the budget: at most MaxBlocks kept and MaxNamedNotKept not kept
    /// are checked, the others counted. A model is given PNG, JPEG, GIF and WebP images
    /// (ModelMessage::ImageMimeTypes) whose bytes are of their type, and WAV or MP3 audio,
    /// of a `user` message, as base64. `messages` must outlive this.
    explicit SamplingMedia(const nlohmann::json &messages);

    /// The checked block `block` of the messages is (found by its address); nullptr for
    /// any other block (one only counted among notChecked() included).
    Block *find(const nlohmann::json &block);
    const std::vector<Block> &blocks() const { return m_blocks; }
    /// Image and audio blocks neither kept nor checked: past MaxNamedNotKept not kept.
    std::size_t notChecked() const { return m_notChecked; }
    /// `block` is an image or audio block ({"type": "image" | "audio"}).
    static bool isMedia(const nlohmann::json &block);
    /// No block's part is in a model's request (it could not be built): shown() gives their data.
    void clearModelParts();

    /// The question's "media": the blocks a person is shown, {"type", "role",
    /// "mimeType"} and "model_part" when set (the data is in the model's request: the
    /// journal keeps it once), else "data".
    nlohmann::json shown() const;
    /// The media of a sampling `question` as MCP content blocks {"type", "role",
    /// "mimeType", "data"}, the data of one given to a model taken from `modelRequest`
    /// (Attempt::modelRequest) where its "model_part" says; a block whose data is not
    /// found there has none (a view says it is not base64).
    static nlohmann::json blocksFor(const nlohmann::json &question, const std::optional<nlohmann::json> &modelRequest);

private:
    Block check(const nlohmann::json &block, const QString &role);
    /// `block` would be kept: data within the budget (measured, nothing copied).
    bool fits(const nlohmann::json &block) const;

    std::vector<Block> m_blocks;
    std::unordered_map<const nlohmann::json *, std::size_t> m_byBlock;
    std::size_t m_kept = 0;
    std::size_t m_bytes = 0;
    std::size_t m_namedNotKept = 0;
    std::size_t m_notChecked = 0;
};
