// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <QString>

/// The shape of what the tool worker writes on its protocol channel, checked before any
/// of it is used. A tool file's own code runs inside the worker and can write to that
/// channel (or print a last line that looks like a description), so a line may hold any
/// JSON: a number where an id belongs made the studio abort (issue 16). Members the
/// worker leaves null count as absent.
namespace WorkerMessage {

/// Empty when `message` is a worker message the studio can read — an object whose
/// `type` is a string, `id` and `output` strings when present, `error` an object with
/// string `message`/`code`, boolean `retryable` and string `traceback` when present, and
/// `files` a description (below) when present — else what is wrong, for the user.
QString problem(const nlohmann::json &message);

/// Empty when `files` is the worker's description of tools/*.py — an array of objects
/// whose `file`, `error` and `missing_module` are strings, `frontmatter` an object and
/// `tools` an array of tool objects (string `name`, `error` and `description`, object
/// `input_schema`, arrays `parameter_order` of strings and `warnings`) — else what is wrong.
QString describedProblem(const nlohmann::json &files);

} // namespace WorkerMessage
