// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "contentblocksview.h"

#include "project/jpegscans.h"
#include "project/printabletext.h"

#include <QBuffer>
#include <QImage>
#include <QImageReader>
#include <QLocale>
#include <QPainter>
#include <QScrollBar>
#include <QTextDocument>

using nlohmann::json;

namespace {

QString stringOf(const json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

QString escaped(const QString &text)
{
    return printableText(text).toHtmlEscaped();
}

/// The block's text, cut at MaxTextChars with a note.
QString textHtml(const QString &text)
{
    QString shown = text.left(ContentBlocksView::MaxTextChars);
    QString html = QStringLiteral("<pre style=\"white-space: pre-wrap\">%1</pre>").arg(shown.toHtmlEscaped());
    if (text.size() > shown.size())
        html += QStringLiteral("<p><i>%1</i></p>")
                    .arg(ContentBlocksView::tr("… cut at %1 of %2 characters: the Tree tab and Copy as JSON have "
                                               "all of it")
                             .arg(QLocale().toString(shown.size()), QLocale().toString(text.size()))
                             .toHtmlEscaped());
    return html;
}

/// The decoded size of base64 `data`, without decoding it.
qint64 decodedSize(const QByteArray &base64)
{
    const qint64 padding = base64.endsWith("==") ? 2 : base64.endsWith('=') ? 1 : 0;
    return std::max<qint64>(0, base64.size() / 4 * 3 - padding);
}

/// The size an image of `size` is shown at: scaled down to fit MaxShownWidth ×
/// MaxShownHeight, an icon-sized one enlarged by a whole factor (so it can be seen at all).
QSize shownSize(const QSize &size)
{
    if (size.width() > ContentBlocksView::MaxShownWidth || size.height() > ContentBlocksView::MaxShownHeight)
        return size.scaled(ContentBlocksView::MaxShownWidth, ContentBlocksView::MaxShownHeight, Qt::KeepAspectRatio);
    if (const int longest = std::max(size.width(), size.height()); longest < ContentBlocksView::MinShownSide)
        return size * (ContentBlocksView::MinShownSide / std::max(1, longest));
    return size;
}

/// An image decoded (and scaled to shownSize()), or why not. Runs on any thread.
struct DecodedImage
{
    QImage image;
    QString error;
};

DecodedImage decodeImage(const QByteArray &bytes, const QByteArray &format)
{
    QBuffer buffer;
    buffer.setData(bytes);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer, format);
    reader.setAutoDetectImageFormat(false);
    reader.setAllocationLimit(ContentBlocksView::MaxImageAllocationMiB);
    DecodedImage decoded;
    if (!reader.read(&decoded.image)) {
        decoded.error = reader.errorString();
        decoded.image = QImage();
        return decoded;
    }
    const QSize shown = shownSize(decoded.image.size());
    if (shown != decoded.image.size())
        decoded.image = decoded.image.scaled(shown, Qt::KeepAspectRatio,
                                             shown.width() < decoded.image.width() ? Qt::SmoothTransformation
                                                                                   : Qt::FastTransformation);
    return decoded;
}

} // namespace

ContentBlocksView::ContentBlocksView(QWidget *parent)
    : QTextBrowser(parent)
{
    setObjectName(QStringLiteral("stepContent"));
    setOpenLinks(false);
    setOpenExternalLinks(false);
    setReadOnly(true);
}

bool ContentBlocksView::hasContent(const json &result)
{
    if (!result.is_object())
        return false;
    const auto content = result.find("content");
    if (content == result.end() || !content->is_array() || content->empty())
        return false;
    for (const json &block : *content)
        if (!block.is_object() || !block.contains("type") || !block["type"].is_string())
            return false;
    return true;
}

QVariant ContentBlocksView::loadResource(int type, const QUrl &name)
{
    if (type != QTextDocument::ImageResource)
        return {};
    if (const auto image = m_images.constFind(name); image != m_images.cend())
        return *image;
    if (const auto waiting = m_decoding.constFind(name); waiting != m_decoding.cend())
        return waiting->placeholder;
    return {};
}

QString ContentBlocksView::refusedHtml(const QString &what, const QString &why)
{
    return QStringLiteral("<p>%1</p>").arg(tr("%1: not shown: %2").arg(what, why).toHtmlEscaped());
}

QString ContentBlocksView::imageHtml(const QByteArray &base64, const QString &mimeType)
{
    const QString type = mimeType.isEmpty() ? tr("no mimeType") : mimeType;
    if (base64.isEmpty()) // none sent, or not at hand (a sampling question without its model request)
        return QStringLiteral("<p>%1</p>").arg(tr("%1: not shown: no data at hand").arg(type).toHtmlEscaped());
    const QByteArray bytes = QByteArray::fromBase64(base64, QByteArray::AbortOnBase64DecodingErrors);
    if (bytes.isEmpty())
        return QStringLiteral("<p>%1</p>").arg(tr("%1: not shown: its data is not base64").arg(type).toHtmlEscaped());
    const QString what = QStringLiteral("%1, %2").arg(type, QLocale().formattedDataSize(bytes.size(), 1));
    const auto refused = [&](const QString &why) { return refusedHtml(what, why); };
    QBuffer buffer;
    buffer.setData(bytes);
    buffer.open(QIODevice::ReadOnly);
    // Raster formats only, told by their bytes (not by the block's mimeType): a vector
    // or container format (SVG, PDF, TIFF, ICNS, …) is not decoded from a server's data.
    const QByteArray format = QImageReader::imageFormat(&buffer);
    static const QList<QByteArray> raster = {"png", "jpeg", "jpg", "gif", "bmp", "webp"};
    if (!raster.contains(format))
        return refused(format.isEmpty() ? tr("not an image format shown here (PNG, JPEG, GIF, BMP, WebP)")
                                        : tr("%1 is not shown here (PNG, JPEG, GIF, BMP, WebP are)")
                                              .arg(QString::fromLatin1(format).toUpper()));
    // libjpeg runs every scan over the whole picture: a JPEG of thousands would hold the
    // GUI thread for seconds to minutes (attack42 B3). Counted from its markers first.
    if (format == "jpeg" || format == "jpg")
        if (const int scans = JpegScans::count(bytes); scans > JpegScans::MaxScans)
            return refused(tr("%1 scans, more than the %2 decoded (a progressive JPEG has about 10)")
                               .arg(scans)
                               .arg(JpegScans::MaxScans));
    QImageReader reader(&buffer, format);
    reader.setAutoDetectImageFormat(false);
    reader.setAllocationLimit(MaxImageAllocationMiB);
    const QSize declared = reader.size();
    if (!declared.isValid())
        return refused(reader.errorString().isEmpty() ? tr("not an image Qt can read") : reader.errorString());
    if (qint64(declared.width()) * declared.height() > MaxImagePixels)
        return refused(tr("it declares %1×%2 pixels, more than the %3 million shown")
                           .arg(declared.width())
                           .arg(declared.height())
                           .arg(MaxImagePixels / 1'000'000));
    if (m_pixels + qint64(declared.width()) * declared.height() > MaxViewPixels)
        return refused(tr("the images above declare %1 million pixels; at most %2 million are decoded in one view")
                           .arg(m_pixels / 1'000'000)
                           .arg(MaxViewPixels / 1'000'000));
    m_pixels += qint64(declared.width()) * declared.height();
    const QUrl url(QStringLiteral("content:image/%1").arg(m_images.size() + m_decoding.size()));
    const QString caption = tr("%1, %2×%3").arg(what).arg(declared.width()).arg(declared.height()).toHtmlEscaped();
    const auto html = [&](const QSize &shown) {
        return QStringLiteral("<p><img src=\"%1\" width=\"%2\" height=\"%3\"><br>%4</p>")
            .arg(url.toString())
            .arg(shown.width())
            .arg(shown.height())
            .arg(caption);
    };
    if (qint64(declared.width()) * declared.height() <= MaxPixelsDecodedAtOnce) {
        const DecodedImage decoded = decodeImage(bytes, format);
        if (decoded.image.isNull())
            return refused(decoded.error);
        m_images.insert(url, decoded.image);
        return html(decoded.image.size());
    }
    // A large picture is decoded on a pool thread (a 40-million-pixel PNG takes the
    // better part of a second); a placeholder of its shown size stands in for it.
    const QSize shown = shownSize(declared);
    QImage placeholder(shown, QImage::Format_RGB32);
    placeholder.fill(palette().color(QPalette::AlternateBase));
    QPainter painter(&placeholder);
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(placeholder.rect(), Qt::AlignCenter, tr("decoding…"));
    painter.end();
    const QString placeholderHtml = html(shown);
    m_decoding.insert(url, {bytes, format, placeholderHtml, what, placeholder});
    return placeholderHtml;
}

void ContentBlocksView::decodeLater()
{
    if (m_decoding.isEmpty())
        return;
    QList<std::pair<QUrl, std::pair<QByteArray, QByteArray>>> work;
    for (auto it = m_decoding.cbegin(); it != m_decoding.cend(); ++it)
        work.append({it.key(), {it->bytes, it->format}});
    m_decodes.schedule(
        this,
        [work] {
            QList<std::pair<QUrl, DecodedImage>> decoded;
            for (const auto &[url, image] : work)
                decoded.append({url, decodeImage(image.first, image.second)});
            return decoded;
        },
        [this](const QList<std::pair<QUrl, DecodedImage>> &decoded) {
            QString html = m_html;
            for (const auto &[url, image] : decoded) {
                const Decoding waiting = m_decoding.take(url);
                if (image.image.isNull()) {
                    html.replace(waiting.placeholderHtml, refusedHtml(waiting.what, image.error));
                } else {
                    m_images.insert(url, image.image);
                    document()->addResource(QTextDocument::ImageResource, url, image.image);
                }
            }
            if (html != m_html) { // a picture Qt could not decode after all: said in words
                const int scrolled = verticalScrollBar()->value();
                m_html = html;
                setHtml(m_html);
                verticalScrollBar()->setValue(scrolled);
            }
            viewport()->update();
            Q_EMIT imagesDecoded();
        });
}

void ContentBlocksView::setResult(const json &result, const QStringList &labels)
{
    clear();
    m_images.clear();
    m_decoding.clear();
    m_decodes.cancel();
    m_html.clear();
    m_pixels = 0;
    if (!hasContent(result))
        return;
    QString html;
    int number = 0;
    for (const json &block : result["content"]) {
        const QString type = stringOf(block, "type");
        const QString label = number < labels.size() ? labels.at(number) : QString();
        html += QStringLiteral("<h4>%1</h4>")
                    .arg(label.isEmpty() ? tr("%1 · %2").arg(number + 1).arg(escaped(type))
                                         : tr("%1 · %2 · %3").arg(number + 1).arg(escaped(label), escaped(type)));
        ++number;
        if (type == QLatin1String("text")) {
            html += textHtml(stringOf(block, "text"));
        } else if (type == QLatin1String("image")) {
            html += imageHtml(stringOf(block, "data").toLatin1(), stringOf(block, "mimeType"));
        } else if (type == QLatin1String("audio")) {
            const QString mime = stringOf(block, "mimeType");
            html += QStringLiteral("<p>%1</p>")
                        .arg(QStringLiteral("%1, %2 (%3)")
                                 .arg(mime.isEmpty() ? tr("no mimeType") : mime,
                                      QLocale().formattedDataSize(decodedSize(stringOf(block, "data").toLatin1()), 1),
                                      m_audioNote.isEmpty() ? tr("not played here; Copy as JSON has the data")
                                                            : m_audioNote)
                                 .toHtmlEscaped());
        } else if (type == QLatin1String("resource_link")) {
            QStringList lines = {tr("link to %1").arg(printableText(stringOf(block, "uri")))};
            for (const char *key : {"name", "title", "description", "mimeType"})
                if (const QString value = stringOf(block, key); !value.isEmpty())
                    lines << QStringLiteral("%1: %2").arg(QLatin1String(key), printableText(value));
            if (const auto size = block.find("size");
                size != block.end() && size->is_number_integer() && size->get<std::int64_t>() >= 0)
                lines << tr("size: %1").arg(QLocale().formattedDataSize(size->get<std::int64_t>(), 1));
            html += QStringLiteral("<p>%1</p>")
                        .arg(lines.join(QLatin1Char('\n'))
                                 .toHtmlEscaped()
                                 .replace(QLatin1Char('\n'), QLatin1String("<br>")));
        } else if (type == QLatin1String("resource") && block.contains("resource") && block["resource"].is_object()) {
            const json &resource = block["resource"];
            const QString mime = stringOf(resource, "mimeType");
            html += QStringLiteral("<p>%1</p>")
                        .arg(tr("embedded %1%2")
                                 .arg(printableText(stringOf(resource, "uri")),
                                      mime.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(printableText(mime)))
                                 .toHtmlEscaped());
            if (resource.contains("text"))
                html += textHtml(stringOf(resource, "text"));
            else if (mime.startsWith(QLatin1String("image/")))
                html += imageHtml(stringOf(resource, "blob").toLatin1(), mime);
            else if (const QByteArray blob = stringOf(resource, "blob").toLatin1();
                     !QByteArray::fromBase64Encoding(blob, QByteArray::AbortOnBase64DecodingErrors))
                // Sized by its text, a blob that is not base64 would claim a size it has not.
                html += QStringLiteral("<p>%1</p>")
                            .arg(tr("a blob that is not base64 (%1 characters): not shown")
                                     .arg(QLocale().toString(blob.size()))
                                     .toHtmlEscaped());
            else
                html += QStringLiteral("<p>%1</p>")
                            .arg(tr("a blob of %1")
                                     .arg(QLocale().formattedDataSize(decodedSize(blob), 1))
                                     .toHtmlEscaped());
        } else {
            html += QStringLiteral("<p>%1</p>").arg(tr("not shown here: see the Tree tab").toHtmlEscaped());
        }
    }
    m_html = html;
    setHtml(html);
    decodeLater();
}
