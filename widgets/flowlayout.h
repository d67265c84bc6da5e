// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLayout>
#include <QList>

/// Lays its widgets out left to right and wraps to a new row when the next one
/// does not fit, so a row of buttons in a narrow dock stays whole and visible
/// (the Runs dock's buttons at the default layout, issue 20).
/// Its height follows its width (heightForWidth), so the dock gives it the rows it needs.
class FlowLayout : public QLayout
{
public:
    explicit FlowLayout(QWidget *parent = nullptr, int spacing = -1);
    ~FlowLayout() override;

    void addItem(QLayoutItem *item) override;
    int count() const override;
    QLayoutItem *itemAt(int index) const override;
    QLayoutItem *takeAt(int index) override;
    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect &rect) override;

private:
    /// Places the items in rect (or only measures when place is false); returns the height used.
    int arrange(const QRect &rect, bool place) const;
    int gap() const;

    QList<QLayoutItem *> m_items;
    int m_spacing;
};
