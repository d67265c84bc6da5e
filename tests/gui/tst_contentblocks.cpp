// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The step inspector's Content tab (ContentBlocksView, docs/mcp.md): an MCP result's
// content blocks shown as what they are — text as text (never markup), images
// rendered, audio sized, resources and links named — and hostile blocks (bad base64, a
// picture that declares 10 000 megapixels, a markup injection) refused in words.

#include "contentblocksview.h"
#include "project/jpegscans.h"
#include "stepinspector.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QImageWriter>
#include <QLocale>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTextDocument>

using nlohmann::json;

namespace {

/// A 3×2 PNG (red row, blue row).
const char *SmallPng
    = "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAEUlEQVR4nGP4z8AAQQwwxn8AO9gF+zlNlqUAAAAASUVORK5CYII=";
/// A valid PNG header declaring 100 000 × 100 000 pixels, 69 bytes in all.
const char *BombPng = "iVBORw0KGgoAAAANSUhEUgABhqAAAYagCAIAAAAnMJyfAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC";

json block(const char *type)
{
    json b = json::object();
    b["type"] = type;
    return b;
}

} // namespace

class TstContentBlocks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void blocksAreShownAsWhatTheyAre()
    {
        json text = block("text");
        text["text"] = "hello <b>bold</b> <img src=\"file:///etc/passwd\">";
        json image = block("image");
        image["data"] = SmallPng;
        image["mimeType"] = "image/png";
        json audio = block("audio");
        audio["data"] = "AAAAAAAA";
        audio["mimeType"] = "audio/wav";
        json link = block("resource_link");
        link["uri"] = "file:///project/report.pdf";
        link["name"] = "report.pdf";
        link["size"] = 1024;
        json resource = block("resource");
        resource["resource"] = {{"uri", "test://static/1"}, {"mimeType", "text/plain"}, {"text", "Resource 1"}};
        json result = json::object();
        result["content"] = json::array({text, image, audio, link, resource, block("hologram")});

        QVERIFY(ContentBlocksView::hasContent(result));
        ContentBlocksView view;
        view.setResult(result);
        QCOMPARE(view.imageCount(), 1);
        const QString shown = view.toPlainText();
        QVERIFY2(shown.contains(QStringLiteral("hello <b>bold</b> <img src=\"file:///etc/passwd\">")),
                 qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("image/png, 74 bytes, 3×2")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("audio/wav, 6 bytes (not played here; Copy as JSON has the data)")),
                 qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("link to file:///project/report.pdf\nname: report.pdf\nsize: 1.0 KiB")),
                 qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("embedded test://static/1 (text/plain)\nResource 1")),
                 qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("6 · hologram\nnot shown here: see the Tree tab")), qPrintable(shown));
        // The only image the document holds is the one decoded; the text's <img> is text.
        QVERIFY(view.toHtml().count(QStringLiteral("<img")) == 1);

        // For a person to look at: screenshots/content-blocks.png under the build dir.
        view.resize(640, 560);
        const QString out = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
        QVERIFY(QDir().mkpath(out));
        QVERIFY(view.grab().save(out + QStringLiteral("/content-blocks.png")));
    }

    void hostileImagesAreRefusedInWords()
    {
        json notBase64 = block("image");
        notBase64["data"] = "%%% not base64 %%%";
        notBase64["mimeType"] = "image/png";
        json bomb = block("image");
        bomb["data"] = BombPng;
        bomb["mimeType"] = "image/png";
        json garbage = block("image");
        garbage["data"] = "aGVsbG8gd29ybGQ="; // "hello world"
        json svg = block("image");
        svg["data"] = QByteArray("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>")
                          .toBase64()
                          .toStdString();
        svg["mimeType"] = "image/svg+xml";
        json result = json::object();
        result["content"] = json::array({notBase64, bomb, garbage, svg});
        ContentBlocksView view;
        view.setResult(result);
        QCOMPARE(view.imageCount(), 0);
        const QString shown = view.toPlainText();
        QVERIFY2(shown.contains(QStringLiteral("4 · image\nimage/svg+xml, ")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("image/svg+xml, 64 bytes: not shown: ")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("1 · image\nimage/png: not shown: its data is not base64")),
                 qPrintable(shown));
        QVERIFY2(
            shown.contains(QStringLiteral(
                "image/png, 69 bytes: not shown: it declares 100000×100000 pixels, more than the 40 million shown")),
            qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral(
                     "no mimeType, 11 bytes: not shown: not an image format shown here (PNG, JPEG, GIF, BMP, "
                     "WebP)")),
                 qPrintable(shown));
    }

    // attack42 B3: a JPEG "scan bomb". A progressive JPEG of 2000×2000 pixels (4 million,
    // well within the bounds) whose last AC refinement scan is repeated 2000 times: 88 KB,
    // and libjpeg runs every scan over every block of the picture, ~1.3 ms each. Qt sets no
    // limit of scans: setResult decodes it on the GUI thread for ~2.6 s (20 000 copies,
    // 736 KB: 28 s; a 5 MiB block: minutes).
    void aJpegOfManyScansIsNotDecodedForSeconds()
    {
        QImage gray(2000, 2000, QImage::Format_Grayscale8);
        gray.fill(128);
        QBuffer out;
        out.open(QIODevice::WriteOnly);
        QImageWriter writer(&out, "jpeg");
        writer.setProgressiveScanWrite(true);
        writer.setQuality(90);
        QVERIFY(writer.write(gray));
        QByteArray jpeg = out.data();
        // The last scan and its Huffman table before it: from the last DHT to the EOI.
        const qsizetype table = jpeg.lastIndexOf(QByteArray("\xff\xc4", 2));
        QVERIFY(table > 0 && jpeg.endsWith(QByteArray("\xff\xd9", 2)));
        const QByteArray scan = jpeg.mid(table, jpeg.size() - 2 - table);
        jpeg.insert(jpeg.size() - 2, scan.repeated(2000));
        json image = block("image");
        image["data"] = jpeg.toBase64().toStdString();
        image["mimeType"] = "image/jpeg";
        ContentBlocksView view;
        QElapsedTimer clock;
        clock.start();
        view.setResult(json{{"content", json::array({image})}});
        const qint64 ms = clock.elapsed();
        qInfo("%lld bytes decoded in %lld ms", qint64(jpeg.size()), ms);
        QVERIFY2(ms < 500, qPrintable(QStringLiteral("the GUI thread was busy %1 ms").arg(ms)));
        const QString shown = view.toPlainText();
        // Qt's 6 scans and the 2000 copies, counted from the markers: not decoded.
        QCOMPARE(JpegScans::count(jpeg), 2006);
        QVERIFY2(shown.contains(QStringLiteral("image/jpeg, %1: not shown: 2006 scans, more than the 100 decoded (a "
                                               "progressive JPEG has about 10)")
                                    .arg(QLocale().formattedDataSize(jpeg.size(), 1))),
                 qPrintable(shown));
        // The picture as Qt wrote it, progressive, is shown.
        image["data"] = out.data().toBase64().toStdString();
        view.setResult(json{{"content", json::array({image})}});
        QVERIFY2(view.toPlainText().contains(QStringLiteral("2000×2000")), qPrintable(view.toPlainText()));
        QCOMPARE(JpegScans::count(out.data()), 6); // libjpeg's progression for one component
    }

    void manyLargeImagesAreNotAllDecoded()
    {
        // Three pictures that declare 6000×6000 pixels each (36 million, one row of data):
        // 108 million together is more than one view decodes, so the third is refused
        // before Qt allocates for it (a sampling request may carry twenty such).
        const char *large
            = "iVBORw0KGgoAAAANSUhEUgAAF3AAABdwCAAAAADGP9ifAAAAHUlEQVR4nO3BMQEAAADCoPVPbQhfoAAAAAAAgNsAF3EAAW1SnXoA"
              "AAAASUVORK5CYII=";
        json image = block("image");
        image["data"] = large;
        image["mimeType"] = "image/png";
        ContentBlocksView view;
        view.setResult(json{{"content", json::array({image, image, image})}});
        const QString shown = view.toPlainText();
        QVERIFY2(shown.contains(QStringLiteral("3 · image\nimage/png, 86 bytes: not shown: the images above declare 72 "
                                               "million pixels; at most 80 million are decoded in one view")),
                 qPrintable(shown));
        QCOMPARE(shown.count(QStringLiteral("at most 80 million are decoded")), 1);
        // A new result starts counting again.
        view.setResult(json{{"content", json::array({image})}});
        QVERIFY2(!view.toPlainText().contains(QStringLiteral("at most 80 million")), qPrintable(view.toPlainText()));
    }

    // A picture of more than a million pixels is decoded on a pool thread: setResult()
    // shows a placeholder of its shown size and its caption, the picture replaces the
    // placeholder when decoded, and one Qt cannot decode after all is said in words then.
    void largeImagesAreDecodedOffTheGuiThread()
    {
        QImage red(2000, 1000, QImage::Format_RGB32);
        red.fill(Qt::red);
        QBuffer out;
        out.open(QIODevice::WriteOnly);
        QVERIFY(red.save(&out, "png"));
        json image = block("image");
        image["data"] = out.data().toBase64().toStdString();
        image["mimeType"] = "image/png";
        ContentBlocksView view;
        QSignalSpy decoded(&view, &ContentBlocksView::imagesDecoded);
        view.setResult(json{{"content", json::array({image})}});
        QVERIFY(view.isDecoding());
        QCOMPARE(view.imageCount(), 0);
        const QString caption
            = QStringLiteral("image/png, %1, 2000×1000").arg(QLocale().formattedDataSize(out.size(), 1));
        QVERIFY2(view.toPlainText().contains(caption), qPrintable(view.toPlainText()));
        const QUrl url(QStringLiteral("content:image/0"));
        const QImage placeholder = view.document()->resource(QTextDocument::ImageResource, url).value<QImage>();
        QCOMPARE(placeholder.size(), QSize(640, 320));
        QVERIFY(placeholder.pixelColor(2, 2) != QColor(Qt::red));
        // For a person to look at: screenshots/content-image-decoding.png under the build dir.
        view.resize(700, 420);
        const QString shots = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
        QDir().mkpath(shots);
        QVERIFY(view.grab().save(shots + QStringLiteral("/content-image-decoding.png")));
        QVERIFY(decoded.wait(10000));
        QVERIFY(!view.isDecoding());
        QCOMPARE(view.imageCount(), 1);
        const QImage shown = view.document()->resource(QTextDocument::ImageResource, url).value<QImage>();
        QCOMPARE(shown.size(), QSize(640, 320));
        QCOMPARE(shown.pixelColor(320, 160), QColor(Qt::red));
        QVERIFY2(view.toPlainText().contains(caption), qPrintable(view.toPlainText()));

        // Its header whole, its pixel data cut: the words replace the placeholder.
        const QByteArray cut = out.data().left(out.size() / 2);
        image["data"] = cut.toBase64().toStdString();
        view.setResult(json{{"content", json::array({image})}});
        QVERIFY(view.isDecoding());
        QVERIFY(decoded.wait(10000));
        QCOMPARE(view.imageCount(), 0);
        const QString words = view.toPlainText();
        QVERIFY2(words.contains(QStringLiteral("image/png, %1: not shown: Unable to read image data")
                                    .arg(QLocale().formattedDataSize(cut.size(), 1))),
                 qPrintable(words));
        QVERIFY2(!words.contains(QStringLiteral("2000×1000")), qPrintable(words));

        // A new result before the decode ends: the old picture never arrives.
        image["data"] = out.data().toBase64().toStdString();
        view.setResult(json{{"content", json::array({image})}});
        json text = block("text");
        text["text"] = "next";
        view.setResult(json{{"content", json::array({text})}});
        QVERIFY(!view.isDecoding());
        QTest::qWait(300);
        QCOMPARE(decoded.size(), 2);
        QCOMPARE(view.imageCount(), 0);
        QCOMPARE(view.toPlainText(), QStringLiteral("1 · text\nnext"));

        // The view deleted while a picture decodes: nothing is delivered to it.
        auto *gone = new ContentBlocksView;
        gone->setResult(json{{"content", json::array({image})}});
        delete gone;
        QTest::qWait(300);
    }

    void resultsWithoutBlocksHaveNoContentTab_data()
    {
        QTest::addColumn<QString>("result");
        QTest::newRow("a number") << QStringLiteral("0.92");
        QTest::newRow("no content") << QStringLiteral("{\"rate\": 0.92}");
        QTest::newRow("empty content") << QStringLiteral("{\"content\": []}");
        QTest::newRow("content of strings") << QStringLiteral("{\"content\": [\"a\"]}");
        QTest::newRow("block without type") << QStringLiteral("{\"content\": [{\"text\": \"a\"}]}");
    }

    void resultsWithoutBlocksHaveNoContentTab()
    {
        QFETCH(QString, result);
        const json value = json::parse(result.toStdString());
        QVERIFY(!ContentBlocksView::hasContent(value));
        StepInspector inspector;
        Step step;
        step.callId = QStringLiteral("c1");
        step.tool = QStringLiteral("t");
        step.result = value;
        inspector.setStep(&step);
        auto *tabs = inspector.findChild<QTabWidget *>();
        QVERIFY(tabs);
        QVERIFY(!tabs->isTabVisible(tabs->indexOf(inspector.contentView())));
    }

    void theInspectorShowsTheContentTabForBlocks()
    {
        StepInspector inspector;
        Step step;
        step.callId = QStringLiteral("mcp-1");
        step.tool = QStringLiteral("everything__get-tiny-image");
        json image = block("image");
        image["data"] = SmallPng;
        image["mimeType"] = "image/png";
        step.result = json::object();
        (*step.result)["content"] = json::array({image});
        inspector.setStep(&step);
        auto *tabs = inspector.findChild<QTabWidget *>();
        QVERIFY(tabs);
        const int tab = tabs->indexOf(inspector.contentView());
        QVERIFY(tabs->isTabVisible(tab));
        QCOMPARE(tabs->tabText(tab), QStringLiteral("Content"));
        QCOMPARE(inspector.contentView()->imageCount(), 1);
        inspector.clear();
        QVERIFY(!tabs->isTabVisible(tab));
    }
};

QTEST_MAIN(TstContentBlocks)
#include "tst_contentblocks.moc"
