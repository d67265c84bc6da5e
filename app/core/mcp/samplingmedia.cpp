// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/samplingmedia.h"

#include "llm/modelmessage.h"
#include "project/printabletext.h"

#include <QLocale>

using nlohmann::json;

namespace {

QString sizeText(std::size_t bytes)
{
    return QLocale::c().formattedDataSize(qint64(bytes), 1, QLocale::DataSizeIecFormat);
}

/// The data of a neutral image or audio `part`; null when it is none.
json partData(const json &part)
{
    if (!part.is_object())
        return {};
    if (const auto image = part.find("image_url"); image != part.end() && image->is_object()) {
        const auto url = image->find("url");
        const auto inline_ = url != image->end() && url->is_string()
            ? ModelMessage::dataUrl(url->get_ref<const std::string &>())
            : std::nullopt;
        return inline_ ? json(std::string(inline_->second)) : json();
    }
    if (const auto audio = part.find("input_audio"); audio != part.end() && audio->is_object())
        if (const auto data = audio->find("data"); data != audio->end() && data->is_string())
            return *data;
    return {};
}

} // namespace

SamplingMedia::SamplingMedia(const json &messages)
{
    if (!messages.is_array())
        return;
    for (const json &message : messages) {
        const auto content = message.is_object() ? message.find("content") : message.end();
        if (content == message.end())
            continue;
        const auto role = message.find("role");
        const QString name = role != message.end() && role->is_string()
            ? elidedText(QString::fromStdString(role->get_ref<const std::string &>().substr(0, 80)), 20)
            : QStringLiteral("?");
        const auto add = [&](const json &block) {
            if (!isMedia(block))
                return;
            // Past the named ones, a block not kept is only counted: no entry, no copy.
            if (!fits(block) && m_namedNotKept >= MaxNamedNotKept) {
                ++m_notChecked;
                return;
            }
            m_byBlock.emplace(&block, m_blocks.size());
            m_blocks.push_back(check(block, name));
        };
        if (content->is_array())
            for (const json &block : *content)
                add(block);
        else
            add(*content);
    }
}

bool SamplingMedia::isMedia(const json &block)
{
    const auto type = block.is_object() ? block.find("type") : block.end();
    return type != block.end() && (*type == "image" || *type == "audio");
}

bool SamplingMedia::fits(const json &block) const
{
    const auto data = block.find("data");
    const std::size_t bytes
        = data != block.end() && data->is_string() ? data->get_ref<const std::string &>().size() : 0;
    return bytes > 0 && m_kept < MaxBlocks && bytes <= MaxBlockBytes && m_bytes + bytes <= MaxTotalBytes;
}

SamplingMedia::Block *SamplingMedia::find(const json &block)
{
    const auto found = m_byBlock.find(&block);
    return found == m_byBlock.end() ? nullptr : &m_blocks[found->second];
}

void SamplingMedia::clearModelParts()
{
    for (Block &block : m_blocks)
        block.modelPart = nullptr;
}

SamplingMedia::Block SamplingMedia::check(const json &block, const QString &role)
{
    Block checked;
    checked.source = &block;
    checked.role = role;
    checked.type = QString::fromStdString(block.value("type", std::string()));
    const auto mime = block.find("mimeType");
    if (mime != block.end() && mime->is_string())
        checked.mimeType = elidedText(
            QString::fromUtf8(mime->get_ref<const std::string &>().substr(0, std::size_t(MaxMimeChars) * 4)),
            MaxMimeChars);
    const auto data = block.find("data");
    const std::string *base64
        = data != block.end() && data->is_string() ? &data->get_ref<const std::string &>() : nullptr;
    checked.bytes = base64 ? base64->size() : 0;
    if (!base64 || base64->empty())
        checked.notKept = QStringLiteral("it has no data");
    else if (m_kept >= MaxBlocks)
        checked.notKept = QStringLiteral("the request has more than %1 images and audio clips").arg(MaxBlocks);
    else if (checked.bytes > MaxBlockBytes)
        checked.notKept = QStringLiteral("%1 of base64, more than the %2 of one")
                              .arg(sizeText(checked.bytes), sizeText(MaxBlockBytes));
    else if (m_bytes + checked.bytes > MaxTotalBytes)
        checked.notKept
            = QStringLiteral("the request's images and audio are more than %1 together").arg(sizeText(MaxTotalBytes));
    if (!checked.notKept.isEmpty()) {
        ++m_namedNotKept;
        checked.notSent = checked.notKept;
        return checked;
    }
    checked.shown = int(++m_kept);
    m_bytes += checked.bytes;
    // A MIME type is case-insensitive (RFC 2045); the providers are sent it in lower case.
    const std::string type
        = mime != block.end() && mime->is_string() && mime->get_ref<const std::string &>().size() <= 64
        ? QString::fromStdString(mime->get<std::string>()).toLower().toStdString()
        : std::string();
    if (role != QLatin1String("user")) {
        checked.notSent = QStringLiteral("a model takes images and audio in user messages only");
    } else if (!ModelMessage::isBase64(*base64)) {
        checked.notSent = QStringLiteral("its data is not base64");
    } else if (checked.type == QLatin1String("image")) {
        bool known = false;
        for (std::string_view accepted : ModelMessage::ImageMimeTypes)
            known = known || type == accepted;
        if (!known)
            checked.notSent = QStringLiteral("a model is given PNG, JPEG, GIF and WebP images only");
        else if (const QString problem = ModelMessage::imageDataProblem(type, *base64); !problem.isEmpty())
            checked.notSent = problem;
        else
            checked.part = ModelMessage::imagePart(type, *base64);
    } else if (const std::string format = ModelMessage::audioFormat(type); format.empty()) {
        checked.notSent = QStringLiteral("a model is given WAV and MP3 audio only");
    } else {
        checked.part = ModelMessage::audioPart(format, *base64);
    }
    return checked;
}

json SamplingMedia::shown() const
{
    json media = json::array();
    for (const Block &block : m_blocks) {
        if (block.shown == 0)
            continue;
        json entry = {{"type", block.type.toStdString()}, {"role", block.role.toStdString()}};
        if (!block.mimeType.isEmpty())
            entry["mimeType"] = block.mimeType.toStdString();
        if (!block.modelPart.is_null())
            entry["model_part"] = block.modelPart;
        else
            entry["data"] = (*block.source)["data"];
        media.push_back(std::move(entry));
    }
    return media;
}

json SamplingMedia::blocksFor(const json &question, const std::optional<json> &modelRequest)
{
    json blocks = json::array();
    const auto media = question.is_object() ? question.find("media") : question.end();
    if (media == question.end() || !media->is_array())
        return blocks;
    const json *messages = nullptr;
    if (modelRequest && modelRequest->is_object())
        if (const auto found = modelRequest->find("messages"); found != modelRequest->end() && found->is_array())
            messages = &*found;
    for (const json &entry : *media) {
        if (!entry.is_object())
            continue;
        json block = {{"type", entry.value("type", std::string("?"))}, {"role", entry.value("role", std::string())}};
        if (entry.contains("mimeType"))
            block["mimeType"] = entry["mimeType"];
        if (const auto data = entry.find("data"); data != entry.end() && data->is_string())
            block["data"] = *data;
        // [message, part] of the model's request, read back from a journal: checked.
        const auto at = entry.find("model_part");
        if (messages && at != entry.end() && at->is_array() && at->size() == 2 && (*at)[0].is_number_unsigned()
            && (*at)[1].is_number_unsigned() && (*at)[0].get<std::size_t>() < messages->size()) {
            const json &message = (*messages)[(*at)[0].get<std::size_t>()];
            const auto parts = message.is_object() ? message.find("content") : message.end();
            if (parts != message.end() && parts->is_array() && (*at)[1].get<std::size_t>() < parts->size())
                if (json data = partData((*parts)[(*at)[1].get<std::size_t>()]); data.is_string())
                    block["data"] = std::move(data);
        }
        blocks.push_back(std::move(block));
    }
    return blocks;
}
