// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArrayView>

/// The scans of a JPEG, counted from its markers without decoding it (attack42 B3). A
/// decoder (libjpeg) runs every scan over the whole picture; a progressive JPEG has about
/// 10, and one of a server's that repeats a scan thousands of times (88 KB for 2000) holds
/// whoever decodes it for seconds to minutes. Qt sets no limit of scans: a server's JPEG
/// is counted before it is decoded (the content view) or given to a model (SamplingMedia),
/// and one of more than MaxScans is refused, as djpeg's -maxscans does.
namespace JpegScans {
/// Scans of a JPEG decoded or sent; a progressive one has about 10.
constexpr int MaxScans = 100;
/// The SOS markers of `bytes` up to its EOI (or its end), read as libjpeg reads a
/// stream: marker segments skipped by their lengths, bytes that are no marker skipped,
/// the entropy-coded data after an SOS skipped up to the next 0xFF followed by a byte that
/// is neither 0x00 (a stuffed 0xFF) nor a restart marker (0xD0–0xD7). Linear in the bytes
/// and safe on any input: a truncated segment, a length below 2 or one running past the
/// end stops the count there. 0 when `bytes` do not start with an SOI (0xFF 0xD8).
int count(QByteArrayView bytes);
} // namespace JpegScans
