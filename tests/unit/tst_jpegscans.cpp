// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// JpegScans::count (attack42 B3): the SOS markers of a server's JPEG, counted from its
// markers as libjpeg reads them, and safe on truncated and garbage input.
#include "project/jpegscans.h"

#include <QByteArray>
#include <QTest>

namespace {

QByteArray bytes(std::initializer_list<int> values)
{
    QByteArray out;
    for (int value : values)
        out.append(char(value));
    return out;
}

const QByteArray Soi = bytes({0xFF, 0xD8});
const QByteArray Eoi = bytes({0xFF, 0xD9});
/// A quantisation table's segment (its 2 bytes of length and 2 of payload).
const QByteArray Dqt = bytes({0xFF, 0xDB, 0x00, 0x04, 0x00, 0x01});
/// A scan: its header (length 8) and entropy-coded data with a stuffed 0xFF, a restart
/// marker and a fill byte before the next marker.
const QByteArray Scan = bytes(
    {0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD3, 0x56, 0xFF});

} // namespace

class TestJpegScans : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scansAreCountedToTheEnd()
    {
        QCOMPARE(JpegScans::count(Soi + Dqt + Scan + Eoi), 1);
        QCOMPARE(JpegScans::count(Soi + Dqt + Scan + Dqt + Scan + Scan + Eoi), 3);
        QCOMPARE(JpegScans::count(Soi + Dqt + Scan.repeated(101) + Eoi), 101);
        // After the EOI nothing is decoded: not counted.
        QCOMPARE(JpegScans::count(Soi + Scan + Eoi + Scan.repeated(5)), 1);
    }

    void whatIsNoJpegHasNone()
    {
        QCOMPARE(JpegScans::count(QByteArray()), 0);
        QCOMPARE(JpegScans::count(bytes({0xFF})), 0);
        QCOMPARE(JpegScans::count(QByteArray("\x89PNG\r\n\x1a\n") + Scan), 0);
        QCOMPARE(JpegScans::count(Soi), 0);
    }

    void bytesThatAreNoMarkerAreSkippedAsLibjpegDoes()
    {
        // Garbage between segments and fill bytes before a marker: libjpeg reads on.
        QCOMPARE(JpegScans::count(Soi + bytes({0x12, 0x34, 0xFF, 0xFF}) + Scan + bytes({0x00, 0x00}) + Scan + Eoi), 2);
        // Standalone markers (TEM, RST) have no length.
        QCOMPARE(JpegScans::count(Soi + bytes({0xFF, 0x01, 0xFF, 0xD0}) + Scan + Eoi), 1);
    }

    void truncatedOrBrokenSegmentsStopTheCount()
    {
        // A length cut off: nothing more is read.
        QCOMPARE(JpegScans::count(Soi + bytes({0xFF, 0xDA, 0x00})), 0);
        QCOMPARE(JpegScans::count(Soi + Scan + bytes({0xFF, 0xDA})), 1);
        // A length of 0 or 1 (it counts its own 2 bytes).
        QCOMPARE(JpegScans::count(Soi + bytes({0xFF, 0xE0, 0x00, 0x00}) + Scan + Eoi), 0);
        QCOMPARE(JpegScans::count(Soi + bytes({0xFF, 0xDA, 0x00, 0x01}) + Scan + Eoi), 0);
        // A length running past the end.
        QCOMPARE(JpegScans::count(Soi + Scan + bytes({0xFF, 0xDA, 0xFF, 0xFF, 0x01})), 1);
        QCOMPARE(JpegScans::count(Soi + bytes({0xFF, 0xDA, 0x00, 0x09}) + QByteArray(6, '\0')), 0);
        // A scan whose data runs to the end (no EOI) is counted once.
        QCOMPARE(JpegScans::count(Soi + bytes({0xFF, 0xDA, 0x00, 0x02, 0x11, 0x22, 0xFF, 0x00, 0x33})), 1);
    }

    void aScanOfManyMegabytesIsReadOnce()
    {
        // Entropy-coded data of stuffed bytes and restart markers, 8 MiB: one pass.
        QByteArray data = Soi + bytes({0xFF, 0xDA, 0x00, 0x02});
        data += bytes({0xFF, 0x00, 0xFF, 0xD5}).repeated(2 * 1024 * 1024);
        data += Scan + Eoi;
        QCOMPARE(JpegScans::count(data), 2);
    }
};

QTEST_GUILESS_MAIN(TestJpegScans)
#include "tst_jpegscans.moc"
