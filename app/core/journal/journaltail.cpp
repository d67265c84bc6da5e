// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "journal/journaltail.h"

#include <QDir>
#include <QFileInfo>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

namespace {

/// u32 length + u32 CRC-32, then the payload (which starts with the u64 serial).
constexpr qsizetype HeaderBytes = 8;
constexpr qsizetype SerialBytes = 8;

/// CRC-32 (IEEE 802.3) of the payload, zlib's.
quint32 crc32Of(const char *data, qsizetype size)
{
    return quint32(::crc32_z(::crc32_z(0L, Z_NULL, 0), reinterpret_cast<const Bytef *>(data), std::size_t(size)));
}

template<typename T>
void put(QByteArray &out, T value)
{
    char bytes[sizeof(T)];
    for (std::size_t i = 0; i < sizeof(T); ++i)
        bytes[i] = char(quint64(value) >> (8 * i));
    out.append(bytes, qsizetype(sizeof(T)));
}

template<typename T>
void putAt(QByteArray &out, qsizetype at, T value)
{
    char *bytes = out.data() + at;
    for (std::size_t i = 0; i < sizeof(T); ++i)
        bytes[i] = char(quint64(value) >> (8 * i));
}

template<typename T>
T get(const char *data)
{
    quint64 value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
        value |= quint64(quint8(data[i])) << (8 * i);
    return T(value);
}

QString errnoText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

} // namespace

TailRecord::TailRecord()
{
    clear();
}

void TailRecord::clear()
{
    m_bytes.resize(HeaderBytes + SerialBytes); // filled by seal()
    m_countAt = -1;
    m_ops = 0;
}

TailRecord &TailRecord::op(TailStatement statement)
{
    m_bytes.append(char(statement));
    m_countAt = m_bytes.size();
    m_bytes.append(char(0));
    ++m_ops;
    return *this;
}

TailRecord &TailRecord::add(qint64 value)
{
    ++m_bytes.data()[m_countAt];
    m_bytes.append(char(TailValue::Integer));
    put<quint64>(m_bytes, quint64(value));
    return *this;
}

void TailRecord::bytesOf(const char *data, qsizetype size, quint8 type)
{
    ++m_bytes.data()[m_countAt];
    m_bytes.append(char(type));
    put<quint32>(m_bytes, quint32(size));
    m_bytes.append(data, size);
}

TailRecord &TailRecord::add(const QString &value)
{
    const QByteArray utf8 = value.toUtf8();
    bytesOf(utf8.constData(), utf8.size(), TailValue::Text);
    return *this;
}

TailRecord &TailRecord::add(const std::string &value)
{
    bytesOf(value.data(), qsizetype(value.size()), TailValue::Text);
    return *this;
}

TailRecord &TailRecord::addBlob(const QByteArray &value)
{
    if (value.isNull())
        return addNull();
    bytesOf(value.constData(), value.size(), TailValue::Blob);
    return *this;
}

TailRecord &TailRecord::addNull()
{
    ++m_bytes.data()[m_countAt];
    m_bytes.append(char(TailValue::Null));
    return *this;
}

void TailRecord::seal(quint64 serial)
{
    putAt<quint64>(m_bytes, HeaderBytes, serial);
    const qsizetype payload = m_bytes.size() - HeaderBytes;
    putAt<quint32>(m_bytes, 0, quint32(payload));
    putAt<quint32>(m_bytes, 4, crc32Of(m_bytes.constData() + HeaderBytes, payload));
}

JournalTail::~JournalTail()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

QString JournalTail::fileName(const QString &journalPath, qint64 pid, qint64 startTicks, int serial)
{
    return QStringLiteral("%1-tail.%2.%3.%4").arg(journalPath).arg(pid).arg(startTicks).arg(serial);
}

bool JournalTail::parseName(const QString &journalPath, const QString &fileName, qint64 *pid, qint64 *startTicks)
{
    const QString prefix = QFileInfo(journalPath).fileName() + QStringLiteral("-tail.");
    const QString name = QFileInfo(fileName).fileName();
    if (!name.startsWith(prefix))
        return false;
    const QStringList fields = name.mid(prefix.size()).split(QLatin1Char('.'));
    if (fields.size() != 3)
        return false;
    bool ok[3] = {false, false, false};
    *pid = fields[0].toLongLong(&ok[0]);
    *startTicks = fields[1].toLongLong(&ok[1]);
    fields[2].toInt(&ok[2]);
    return ok[0] && ok[1] && ok[2];
}

QStringList JournalTail::filesOf(const QString &journalPath)
{
    const QFileInfo info(journalPath);
    QStringList result;
    const QDir dir = info.absoluteDir();
    const QStringList names = dir.entryList({info.fileName() + QStringLiteral("-tail.*")}, QDir::Files | QDir::Hidden);
    for (const QString &name : names) {
        qint64 pid = 0;
        qint64 ticks = 0;
        if (parseName(journalPath, name, &pid, &ticks))
            result << dir.filePath(name);
    }
    return result;
}

bool JournalTail::open(const QString &path, QString *error)
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_path = path;
    m_size = 0;
    m_fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (m_fd < 0) {
        *error = QStringLiteral("%1: cannot create the journal's tail: %2").arg(path, errnoText(errno));
        return false;
    }
    return true;
}

bool JournalTail::append(const QByteArray &record, QString *error)
{
    ssize_t written;
    do
        written = ::write(m_fd, record.constData(), std::size_t(record.size()));
    while (written < 0 && errno == EINTR);
    if (written == ssize_t(record.size())) {
        m_size += written;
        return true;
    }
    const int code = written < 0 ? errno : ENOSPC;
    *error = QStringLiteral("%1: cannot append to the journal's tail: %2").arg(m_path, errnoText(code));
    if (written > 0 && ::ftruncate(m_fd, m_size) != 0) {
        // The torn record stays; readRecords() stops before it.
    }
    return false;
}

bool JournalTail::rewind(QString *error)
{
    if (m_size == 0)
        return true;
    if (::ftruncate(m_fd, 0) != 0) {
        *error = QStringLiteral("%1: cannot empty the journal's tail: %2").arg(m_path, errnoText(errno));
        return false;
    }
    m_size = 0;
    return true;
}

void JournalTail::remove()
{
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
        ::unlink(QFile::encodeName(m_path).constData());
    }
    m_size = 0;
}

int JournalTail::readRecords(QByteArrayView bytes, const std::function<bool(quint64, QByteArrayView)> &record,
                             QString *note, bool verify)
{
    note->clear();
    int count = 0;
    qsizetype at = 0;
    while (at < bytes.size()) {
        const qsizetype left = bytes.size() - at;
        if (left < HeaderBytes + SerialBytes) {
            *note = QStringLiteral("record %1 at byte %2: torn (a header needs %3 bytes, %4 left)")
                        .arg(count + 1)
                        .arg(at)
                        .arg(HeaderBytes + SerialBytes)
                        .arg(left);
            break;
        }
        const char *header = bytes.data() + at;
        const qsizetype payload = qsizetype(get<quint32>(header));
        if (payload < SerialBytes || payload > left - HeaderBytes) {
            *note = payload < SerialBytes
                ? QStringLiteral("record %1 at byte %2: damaged (length %3)").arg(count + 1).arg(at).arg(payload)
                : QStringLiteral("record %1 at byte %2: torn (needs %3 bytes, %4 left)")
                      .arg(count + 1)
                      .arg(at)
                      .arg(payload + HeaderBytes)
                      .arg(left);
            break;
        }
        if (verify && crc32Of(header + HeaderBytes, payload) != get<quint32>(header + 4)) {
            *note = QStringLiteral("record %1 at byte %2: damaged (checksum mismatch)").arg(count + 1).arg(at);
            break;
        }
        ++count;
        if (!record(get<quint64>(header + HeaderBytes),
                    QByteArrayView(header + HeaderBytes + SerialBytes, payload - SerialBytes)))
            break;
        at += HeaderBytes + payload;
    }
    return count;
}

bool JournalTail::readOps(QByteArrayView ops,
                          const std::function<bool(TailStatement, const std::vector<TailValue> &)> &op)
{
    std::vector<TailValue> values;
    const char *p = ops.data();
    const char *end = p + ops.size();
    while (p < end) {
        if (end - p < 2)
            return false;
        const auto statement = TailStatement(quint8(p[0]));
        const int count = quint8(p[1]);
        p += 2;
        values.clear();
        for (int i = 0; i < count; ++i) {
            if (p >= end)
                return false;
            TailValue value;
            value.type = TailValue::Type(quint8(*p++));
            switch (value.type) {
            case TailValue::Null:
                break;
            case TailValue::Integer:
                if (end - p < 8)
                    return false;
                value.integer = qint64(get<quint64>(p));
                p += 8;
                break;
            case TailValue::Text:
            case TailValue::Blob: {
                if (end - p < 4)
                    return false;
                const qsizetype size = qsizetype(get<quint32>(p));
                p += 4;
                if (end - p < size)
                    return false;
                value.data = p;
                value.size = int(size);
                p += size;
                break;
            }
            default:
                return false;
            }
            values.push_back(value);
        }
        if (!op(statement, values))
            return false;
    }
    return true;
}
