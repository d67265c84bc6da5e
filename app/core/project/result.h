// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <optional>
#include <utility>

/// The error half of a Result: what failed, in words a user can act on.
struct ResultError
{
    QString message;
};

/// A value or the reason there is none, for operations that can fail (Qt Creator's
/// Utils::Result is the model; std::expected<T, QString> once the code is C++23).
/// Return a T for success, `ResultError{message}` for failure.
template<typename T>
class [[nodiscard]] Result
{
public:
    Result(T value)
        : m_value(std::move(value))
    {}
    Result(ResultError error)
        : m_error(std::move(error.message))
    {}

    bool has_value() const { return m_value.has_value(); }
    explicit operator bool() const { return has_value(); }

    const T &value() const & { return *m_value; }
    T &value() & { return *m_value; }
    T &&value() && { return std::move(*m_value); }
    const T &operator*() const & { return *m_value; }
    T &operator*() & { return *m_value; }
    const T *operator->() const { return &*m_value; }
    T *operator->() { return &*m_value; }

    /// Why there is no value; empty when there is one.
    const QString &error() const { return m_error; }

private:
    std::optional<T> m_value;
    QString m_error;
};
