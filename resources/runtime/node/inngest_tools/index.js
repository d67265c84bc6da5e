// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Alias of `toolstudio`, so scripts written for Inngest's sandbox tools run unchanged.
"use strict";

module.exports = require("../toolstudio");
