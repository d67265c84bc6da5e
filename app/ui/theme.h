// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "settings.h"

#include <QIcon>

/// The application palette for Preferences ▸ Theme: System (the palette the
/// application started with), Light (the style's standard palette) or Dark.
namespace Theme {

/// Remembers the system palette; call once before the first apply().
void rememberSystemPalette();
/// Sets the application palette for `theme`.
void apply(Settings::Theme theme);
/// For a projector (View ▸ Presenter Layout): black on white, a dark selection with
/// white text, disabled text still readable. apply() returns to a theme.
void applyHighContrast();
/// The desktop theme's icon `themeName`, else ours (`:/icons/RESOURCE.svg`).
QIcon icon(const char *themeName, const char *resourceName);

} // namespace Theme
