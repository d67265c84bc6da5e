// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "jpegscans.h"

namespace JpegScans {

int count(QByteArrayView bytes)
{
    const auto at = [&bytes](qsizetype i) { return quint8(bytes[i]); };
    const qsizetype size = bytes.size();
    if (size < 2 || at(0) != 0xFF || at(1) != 0xD8)
        return 0;
    int scans = 0;
    qsizetype i = 2;
    while (i < size) {
        // The next marker: libjpeg skips bytes that are not one (with a warning) and any
        // fill bytes (0xFF) before it.
        while (i < size && at(i) != 0xFF)
            ++i;
        while (i < size && at(i) == 0xFF)
            ++i;
        if (i >= size)
            break;
        const quint8 marker = at(i++);
        if (marker == 0xD9) // EOI
            break;
        if (marker == 0x00 || marker == 0x01 || marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7))
            continue; // no segment: a stuffed byte, TEM, SOI, a restart marker
        if (i + 2 > size)
            break; // a truncated length
        const qsizetype length = qsizetype(at(i)) << 8 | at(i + 1);
        if (length < 2 || i + length > size)
            break; // no valid segment: libjpeg stops there too
        i += length;
        if (marker != 0xDA)
            continue;
        ++scans;
        // The entropy-coded data: up to a 0xFF followed by a marker that is not a
        // restart marker (0xFF 0x00 is a stuffed 0xFF; 0xFF 0xFF a fill byte).
        while (i + 1 < size) {
            if (at(i) == 0xFF) {
                const quint8 next = at(i + 1);
                if (next != 0x00 && next != 0xFF && !(next >= 0xD0 && next <= 0xD7))
                    break;
            }
            ++i;
        }
        if (i + 1 >= size)
            break;
    }
    return scans;
}

} // namespace JpegScans
