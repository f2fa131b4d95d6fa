// Widgets in tests: finding a named child, clicking a button, a table row or a tab and typing into a field as
// a user does, and checking that a widget rendered offscreen shows something (its grab is not one flat
// colour; its main parts laid out visibly inside it, each at least its minimum size, none covering another).
#pragma once

#include <QAbstractButton>
#include <QAction>
#include <QHash>
#include <QImage>
#include <QRect>
#include <QString>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QWidget>
#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

// Whether `window` has an action (a menu entry) with this text, mnemonic included ("Export &report...").
inline bool hasAction(const QWidget& window, const QString& text) {
    const auto actions = window.findChildren<QAction*>();
    return std::any_of(actions.begin(), actions.end(), [&](const QAction* a) { return a->text() == text; });
}

// The child of `parent` with this object name; the test stops, naming it, when there is none.
template <typename T> T* child(QWidget& parent, const char* name) {
    T* widget = parent.findChild<T*>(QString::fromLatin1(name));
    INFO("no child " << name);
    REQUIRE(widget);
    return widget;
}

// The share of pixels, 0..1, whose colour is not the most common one (the background).
inline double foregroundFraction(const QImage& image) {
    QHash<QRgb, qint64> counts;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            ++counts[image.pixel(x, y)];
    qint64 background = 0;
    for (const qint64 count : counts)
        background = std::max(background, count);
    const qint64 pixels = qint64{image.width()} * image.height();
    return pixels == 0 ? 0 : static_cast<double>(pixels - background) / static_cast<double>(pixels);
}

inline int distinctColours(const QImage& image) {
    QHash<QRgb, bool> seen;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            seen.insert(image.pixel(x, y), true);
    return static_cast<int>(seen.size());
}

// Each named child of `top` is shown, inside top's rectangle, no smaller than its minimum size hint (else its
// content is cut off), and clear of every other named child.
inline void checkLaidOut(QWidget& top, const std::vector<const char*>& names) {
    std::vector<QRect> placed;
    for (const char* name : names) {
        INFO("child " << name);
        const auto* widget = top.findChild<QWidget*>(QString::fromLatin1(name));
        REQUIRE(widget);
        CHECK(widget->isVisible());
        const QRect rect(widget->mapTo(&top, QPoint(0, 0)), widget->size());
        INFO("at " << rect.x() << "," << rect.y() << " " << rect.width() << " x " << rect.height());
        CHECK_FALSE(rect.isEmpty());
        CHECK(top.rect().contains(rect));
        const QSize least = widget->minimumSizeHint();
        INFO("minimum size hint " << least.width() << " x " << least.height());
        CHECK(widget->width() >= least.width());
        CHECK(widget->height() >= least.height());
        for (std::size_t i = 0; i < placed.size(); ++i) {
            INFO("overlaps " << names[i]);
            CHECK_FALSE(rect.intersects(placed[i]));
        }
        placed.push_back(rect);
    }
}

// A mouse click on a button, as a user clicks it.
inline void click(QAbstractButton* button) {
    REQUIRE(button);
    QTest::mouseClick(button, Qt::LeftButton);
}

// A mouse click on a table's row (its cell in `column`), as a user picks it; the row must be in view.
inline void clickRow(QTableView& table, int row, int column = 0) {
    REQUIRE(row >= 0);
    const QRect cell = table.visualRect(table.model()->index(row, column));
    REQUIRE_FALSE(cell.isEmpty());
    QTest::mouseClick(table.viewport(), Qt::LeftButton, {}, cell.center());
}

// A mouse click on the tab whose page (or the scroll area around it) has this object name.
inline void clickTab(QTabWidget& tabs, const QString& page_name) {
    for (int i = 0; i < tabs.count(); ++i) {
        QWidget* page = tabs.widget(i);
        if (page->objectName() == page_name || page->findChild<QWidget*>(page_name)) {
            QTest::mouseClick(tabs.tabBar(), Qt::LeftButton, {}, tabs.tabBar()->tabRect(i).center());
            REQUIRE(tabs.currentIndex() == i);
            return;
        }
    }
    FAIL("no tab " << page_name.toStdString());
}

// Replaces a field's text as a user does: select all, then type over it (or delete it).
inline void typeInto(QWidget* field, const QString& text) {
    QTest::keyClick(field, Qt::Key_A, Qt::ControlModifier);
    if (text.isEmpty())
        QTest::keyClick(field, Qt::Key_Backspace);
    else
        QTest::keyClicks(field, text);
}
