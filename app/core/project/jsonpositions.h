// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/jsonerror.h"

#include <QByteArray>

#include <nlohmann/json.hpp>

#include <optional>
#include <unordered_map>

/// Where the values of a parsed JSON document are in its text, so that an error found
/// after parsing can point at a line and column ("toolstudio.json:7:23: …") as a parse
/// error does; nlohmann::json keeps no positions.
///
/// Built from the text and the document nlohmann::json::parse made of it: a small
/// scanner walks the text and the document together, recording for each node (by its
/// address in the document) where its value starts and, for an object member, where
/// its key starts. A key given twice points at the last one, the one nlohmann keeps.
class JsonPositions
{
public:
    /// `text` must be the valid JSON `root` was parsed from (a UTF-8 BOM is skipped, as
    /// nlohmann does). `root` must outlive this index and not change.
    JsonPositions(const QByteArray &text, const nlohmann::json &root);

    /// 1-based line and column (characters) of `node`'s value — or of its key when
    /// `key` is true and `node` is an object member. nullopt when `node` is not part of
    /// the indexed document (e.g. a copy).
    std::optional<TextPosition> positionOf(const nlohmann::json *node, bool key = false) const;

private:
    struct Offsets
    {
        std::size_t value = 0;
        std::optional<std::size_t> key;
    };
    std::size_t scan(std::size_t pos, const nlohmann::json *node);
    std::size_t skipSpace(std::size_t pos) const;
    std::size_t skipString(std::size_t pos) const;

    QByteArray m_text;
    std::unordered_map<const nlohmann::json *, Offsets> m_offsets;
};
