// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/schemavalidator.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

/// OpenAI strict mode makes every property required and nullable, so a model sends
/// `null` for a parameter it leaves out (`{"n": null}` for `n: int = 3`). At call
/// admission such a null means "not given" (docs/steps.md "A null for a parameter
/// left out"): a top-level argument whose value is `null`, which the schema declares in
/// `properties` but not in `required`, and whose schema refuses `null`, is left out so
/// the tool's default applies. Every other null is checked as it is: a required
/// property's null is still refused, an Optional one (its schema takes null) keeps it,
/// an undeclared one is still "not allowed".
///
/// Returns what `validator` says of `args` once such nulls are left out (nullopt:
/// valid) and puts the names left out, in the order they were found, in `leftOut`.
/// Valid arguments cost one validate() and no copy; each null left out costs one more.
std::optional<SchemaValidator::Failure> validateLeavingOutNulls(const SchemaValidator &validator,
                                                                const nlohmann::json &args,
                                                                std::vector<std::string> *leftOut);

/// The detail of the `nulls_left_out` policy event of a step whose nulls were left out:
/// `{"properties": [...], "text": "null for 'n' left out: …"}` (the trace shows the text).
nlohmann::json nullsLeftOutDetail(const std::vector<std::string> &leftOut);
