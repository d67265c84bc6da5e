// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/schemaformat.h"

namespace SchemaFormat {

namespace {

bool digits(std::string_view s, std::size_t at, std::size_t count, int *out)
{
    if (at + count > s.size())
        return false;
    int n = 0;
    for (std::size_t i = at; i < at + count; ++i) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        n = n * 10 + (s[i] - '0');
    }
    *out = n;
    return true;
}

bool isFullDate(std::string_view s)
{
    int year = 0, month = 0, day = 0;
    if (s.size() != 10 || !digits(s, 0, 4, &year) || s[4] != '-' || !digits(s, 5, 2, &month) || s[7] != '-'
        || !digits(s, 8, 2, &day))
        return false;
    static constexpr int DaysIn[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month < 1 || month > 12 || day < 1 || day > DaysIn[month - 1])
        return false;
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month != 2 || day <= 28 || leap;
}

bool isFullTime(std::string_view s)
{
    int hour = 0, minute = 0, second = 0;
    if (!digits(s, 0, 2, &hour) || s.size() < 8 || s[2] != ':' || !digits(s, 3, 2, &minute) || s[5] != ':'
        || !digits(s, 6, 2, &second) || hour > 23 || minute > 59 || second > 60)
        return false;
    std::size_t at = 8;
    if (at < s.size() && s[at] == '.') {
        const std::size_t first = ++at;
        while (at < s.size() && s[at] >= '0' && s[at] <= '9')
            ++at;
        if (at == first)
            return false;
    }
    if (at < s.size() && (s[at] == 'Z' || s[at] == 'z'))
        return at + 1 == s.size();
    int offsetHour = 0, offsetMinute = 0;
    return at + 6 == s.size() && (s[at] == '+' || s[at] == '-') && digits(s, at + 1, 2, &offsetHour) && s[at + 3] == ':'
        && digits(s, at + 4, 2, &offsetMinute) && offsetHour <= 23 && offsetMinute <= 59;
}

bool isDateTime(std::string_view s)
{
    return s.size() > 11 && (s[10] == 'T' || s[10] == 't') && isFullDate(s.substr(0, 10)) && isFullTime(s.substr(11));
}

} // namespace

Kind fromName(const std::string &name)
{
    return name == "date"     ? Kind::Date
        : name == "time"      ? Kind::Time
        : name == "date-time" ? Kind::DateTime
                              : Kind::None;
}

bool matches(Kind kind, std::string_view text)
{
    switch (kind) {
    case Kind::None:
        return true;
    case Kind::Date:
        return isFullDate(text);
    case Kind::Time:
        return isFullTime(text);
    case Kind::DateTime:
        return isDateTime(text);
    }
    return true;
}

QString expectation(Kind kind)
{
    switch (kind) {
    case Kind::None:
        break;
    case Kind::Date:
        return QStringLiteral("expected a date (RFC 3339 full-date, e.g. 2026-12-01)");
    case Kind::Time:
        return QStringLiteral("expected a time (RFC 3339 full-time, e.g. 16:52:45Z or 16:52:45+02:00)");
    case Kind::DateTime:
        return QStringLiteral("expected a date-time (RFC 3339, e.g. 2026-12-01T16:52:45Z)");
    }
    return {};
}

} // namespace SchemaFormat
