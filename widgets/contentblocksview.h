// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/jobslot.h"

#include <QHash>
#include <QImage>
#include <QStringList>
#include <QTextBrowser>
#include <QUrl>

#include <nlohmann/json.hpp>

/// The step inspector's *Content* tab (docs/mcp.md "Progress, log messages and
/// content"): an MCP tool result's content blocks shown as what they are — `text` as
/// text, `image` rendered (scaled to fit), `audio` with its type and size, `resource`
/// (embedded text, or its blob's size; an image blob rendered) and `resource_link` with
/// their URI, name and size. A block the view does not know is named and left to the
/// Tree tab.
///
/// The blocks come from a server the studio does not trust: every string is shown as
/// text (never markup), nothing is loaded from a URI, links are not followed, and an
/// image is decoded only when its header declares at most MaxImagePixels pixels and
/// within an allocation limit of its own, so a small file that declares a huge picture
/// (a decompression bomb) is refused in words instead of exhausting memory; a JPEG only
/// when it has at most JpegScans::MaxScans scans (a scan bomb holds the decoder for
/// minutes). A picture of more than MaxPixelsDecodedAtOnce pixels is decoded on a pool
/// thread, a placeholder of its size shown meanwhile (imagesDecoded() when done).
class ContentBlocksView : public QTextBrowser
{
    Q_OBJECT
public:
    static constexpr qint64 MaxImagePixels = 40'000'000;
    /// Pixels the images of one setResult() may declare together: twenty pictures of
    /// MaxImagePixels each would hold the GUI thread for seconds.
    static constexpr qint64 MaxViewPixels = 2 * MaxImagePixels;
    static constexpr int MaxImageAllocationMiB = 256;
    /// A picture up to this many pixels is decoded in setResult(), a larger one later.
    static constexpr qint64 MaxPixelsDecodedAtOnce = 1'000'000;
    static constexpr int MaxShownWidth = 640;
    static constexpr int MaxShownHeight = 480;
    /// A smaller picture is enlarged by a whole factor to about this many pixels.
    static constexpr int MinShownSide = 96;
    /// Text of a block beyond this is cut (the Tree tab and Copy as JSON have it all).
    static constexpr qsizetype MaxTextChars = 64 * 1024;

    explicit ContentBlocksView(QWidget *parent = nullptr);

    /// True when `result` is an object with a non-empty `content` array of blocks
    /// (objects with a string `type`).
    static bool hasContent(const nlohmann::json &result);
    /// Shows `result`'s content blocks (hasContent), or nothing. `labels` (may be
    /// shorter than the blocks) name a block in its heading, e.g. a prompt message's role
    /// ("2 · assistant · text"); shown printable.
    void setResult(const nlohmann::json &result, const QStringList &labels = {});
    /// What an audio block's line says after its type and size, for the next
    /// setResult(); default "not played here; Copy as JSON has the data" (the inspector's).
    void setAudioNote(const QString &note) { m_audioNote = note; }
    /// Images shown by the last setResult(), decoded (a large one once imagesDecoded()).
    int imageCount() const { return int(m_images.size()); }
    /// Whether large images of the last setResult() are still being decoded.
    bool isDecoding() const { return !m_decoding.isEmpty(); }

Q_SIGNALS:
    /// The large images of the last setResult() are decoded (or said in words why not).
    void imagesDecoded();

protected:
    /// Only the images this view decoded: nothing is read from a file or the network.
    QVariant loadResource(int type, const QUrl &name) override;

private:
    /// A large image waiting for its decode on a pool thread.
    struct Decoding
    {
        QByteArray bytes, format;
        QString placeholderHtml; ///< its <p> in m_html
        QString what;            ///< its type and size, for refusedHtml()
        QImage placeholder;      ///< shown until then
    };

    QString imageHtml(const QByteArray &base64, const QString &mimeType);
    /// "TYPE, SIZE: not shown: WHY" as a paragraph.
    static QString refusedHtml(const QString &what, const QString &why);
    /// Decodes the images waiting in m_decoding on a pool thread, then shows them.
    void decodeLater();

    QHash<QUrl, QImage> m_images;     ///< the decoded images by their content: URL
    QHash<QUrl, Decoding> m_decoding; ///< large images being decoded, by their URL
    JobSlot m_decodes;                ///< their decode: the last setResult()'s only
    QString m_html;                   ///< the last setResult()'s HTML
    QString m_audioNote;              ///< setAudioNote(); "" for the default
    qint64 m_pixels = 0;              ///< pixels the images of the last setResult() declared, decoded or not
};
