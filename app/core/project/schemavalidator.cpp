// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/schemavalidator.h"

#include "project/printabletext.h"
#include "project/schemarefs.h"

// valijson aborts the process on a bad schema unless exceptions are enabled.
#define VALIJSON_USE_EXCEPTIONS 1
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <QStringList>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

QString fromStd(const std::string &s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString escapePointerToken(QString token)
{
    token.replace(QLatin1Char('~'), QStringLiteral("~0"));
    token.replace(QLatin1Char('/'), QStringLiteral("~1"));
    return token;
}

QString typeNameOf(const nlohmann::json &value)
{
    switch (value.type()) {
    case nlohmann::json::value_t::null:
        return QStringLiteral("null");
    case nlohmann::json::value_t::boolean:
        return QStringLiteral("boolean");
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
        return QStringLiteral("integer");
    case nlohmann::json::value_t::number_float:
        return QStringLiteral("number");
    case nlohmann::json::value_t::string:
        return QStringLiteral("string");
    case nlohmann::json::value_t::array:
        return QStringLiteral("array");
    case nlohmann::json::value_t::object:
        return QStringLiteral("object");
    default:
        return QStringLiteral("value");
    }
}

/// Appends `value` as compact JSON to `out`, stopping once `out` holds more than
/// `limit` bytes: a script's value may be megabytes long or thousands of levels deep,
/// and a message needs 60 characters of it.
void dumpBounded(const nlohmann::json &value, std::string &out, std::size_t limit)
{
    if (out.size() > limit)
        return;
    if (value.is_array()) {
        out += '[';
        bool first = true;
        for (const auto &element : value) {
            if (out.size() > limit)
                return;
            if (!first)
                out += ',';
            first = false;
            dumpBounded(element, out, limit);
        }
        out += ']';
    } else if (value.is_object()) {
        out += '{';
        bool first = true;
        for (auto it = value.begin(); it != value.end(); ++it) {
            if (out.size() > limit)
                return;
            if (!first)
                out += ',';
            first = false;
            out += nlohmann::json(it.key()).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            out += ':';
            dumpBounded(it.value(), out, limit);
        }
        out += '}';
    } else if (value.is_string() && value.get_ref<const std::string &>().size() > limit) {
        out += nlohmann::json(value.get_ref<const std::string &>().substr(0, limit))
                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    } else {
        out += value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
}

QString shortDump(const nlohmann::json &value)
{
    std::string text;
    dumpBounded(value, text, 80);
    QString dumped = fromStd(text);
    if (dumped.size() > 60)
        dumped = QString::fromUtf8(clipChars(dumped, 57).kept) + QStringLiteral("..."); // the dump itself was bounded
    return dumped;
}

// ---------------------------------------------------------------------------
// Numbers, compared exactly. nlohmann produces int64 (negative integers), uint64
// (non-negative integers) and double (anything with a fraction or exponent, and
// integers beyond uint64, possibly ±inf for 1e400). No comparison goes through a
// lossy conversion: 2^64-1 is not "equal to" 2^64 as a double.

constexpr double TwoTo63 = 9223372036854775808.0;
constexpr double TwoTo64 = 18446744073709551616.0;

int sign(double d)
{
    return d < 0 ? -1 : (d > 0 ? 1 : 0);
}

/// -1, 0, 1 for d <=> i; d is not NaN.
int compareDoubleInt(double d, std::int64_t i)
{
    if (d < -TwoTo63)
        return -1;
    if (d >= TwoTo63)
        return 1;
    const double whole = std::trunc(d);
    const auto t = static_cast<std::int64_t>(whole); // exact: |whole| < 2^63
    if (t != i)
        return t < i ? -1 : 1;
    return sign(d - whole);
}

int compareDoubleUint(double d, std::uint64_t u)
{
    if (d < 0)
        return -1;
    if (d >= TwoTo64)
        return 1;
    const double whole = std::trunc(d);
    const auto t = static_cast<std::uint64_t>(whole); // exact: 0 <= whole < 2^64
    if (t != u)
        return t < u ? -1 : 1;
    return sign(d - whole);
}

/// a <=> b for two JSON numbers; nullopt when either is NaN (never from the parser).
std::optional<int> compareNumbers(const nlohmann::json &a, const nlohmann::json &b)
{
    using T = nlohmann::json::value_t;
    const T ta = a.type();
    const T tb = b.type();
    if (ta == T::number_float && tb == T::number_float) {
        const double x = a.get<double>();
        const double y = b.get<double>();
        if (std::isnan(x) || std::isnan(y))
            return std::nullopt;
        return x < y ? -1 : (x > y ? 1 : 0);
    }
    if (ta == T::number_float || tb == T::number_float) {
        const bool flip = tb == T::number_float;
        const double d = (flip ? b : a).get<double>();
        const nlohmann::json &other = flip ? a : b;
        if (std::isnan(d))
            return std::nullopt;
        const int r = other.type() == T::number_unsigned ? compareDoubleUint(d, other.get<std::uint64_t>())
                                                         : compareDoubleInt(d, other.get<std::int64_t>());
        return flip ? -r : r;
    }
    // Both integers: int64 (only negative ones come from the parser, but a value
    // built in code may hold any) against uint64.
    if (ta == T::number_integer && tb == T::number_integer) {
        const auto x = a.get<std::int64_t>();
        const auto y = b.get<std::int64_t>();
        return x < y ? -1 : (x > y ? 1 : 0);
    }
    if (ta == T::number_unsigned && tb == T::number_unsigned) {
        const auto x = a.get<std::uint64_t>();
        const auto y = b.get<std::uint64_t>();
        return x < y ? -1 : (x > y ? 1 : 0);
    }
    const bool flip = ta == T::number_unsigned;
    const std::int64_t i = (flip ? b : a).get<std::int64_t>();
    const std::uint64_t u = (flip ? a : b).get<std::uint64_t>();
    const int r = i < 0 ? -1 : (std::uint64_t(i) < u ? -1 : (std::uint64_t(i) > u ? 1 : 0));
    return flip ? -r : r;
}

/// |n| of an integer-valued number as uint64, when it fits.
std::optional<std::uint64_t> integerMagnitude(const nlohmann::json &n)
{
    switch (n.type()) {
    case nlohmann::json::value_t::number_unsigned:
        return n.get<std::uint64_t>();
    case nlohmann::json::value_t::number_integer: {
        const auto i = n.get<std::int64_t>();
        return i < 0 ? std::uint64_t(0) - std::uint64_t(i) : std::uint64_t(i);
    }
    case nlohmann::json::value_t::number_float: {
        const double d = std::fabs(n.get<double>());
        if (std::isfinite(d) && d == std::trunc(d) && d < TwoTo64)
            return static_cast<std::uint64_t>(d);
        return std::nullopt;
    }
    default:
        return std::nullopt;
    }
}

/// Whether `value` is a multiple of `divisor` (> 0). Exact when the divisor is an
/// integer; for a fractional divisor (0.01, not representable in binary) the rule
/// valijson used: remainder within DBL_EPSILON.
bool isMultipleOf(const nlohmann::json &value, const nlohmann::json &divisor)
{
    if (const auto m = integerMagnitude(divisor)) {
        if (*m == 0)
            return true; // not a valid schema (valijson refuses it); do not divide by 0
        if (const auto v = integerMagnitude(value))
            return *v % *m == 0;
        const double d = std::fabs(value.get<double>());
        if (!std::isfinite(d) || d != std::trunc(d))
            return false;
        // d >= 2^64 is M * 2^E with a 53-bit M and E > 0: divisible by m = odd * 2^a
        // when the powers of two suffice and odd divides M's odd part.
        int exponent = 0;
        const double fraction = std::frexp(d, &exponent);
        std::uint64_t mantissa = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
        const int twos = std::countr_zero(mantissa) + (exponent - 53);
        mantissa >>= std::countr_zero(mantissa);
        const int divisorTwos = std::countr_zero(*m);
        return divisorTwos <= twos && mantissa % (*m >> divisorTwos) == 0;
    }
    const double m = divisor.get<double>();
    if (!std::isfinite(m) || m <= 0)
        return true;
    if (value.is_number_float()) {
        const double d = value.get<double>();
        if (!std::isfinite(d))
            return false;
        if (m == std::trunc(m)) // an integral divisor >= 2^64: fmod is exact
            return std::fmod(d, m) == 0;
        return d == 0 || std::fabs(std::remainder(d, m)) <= std::numeric_limits<double>::epsilon();
    }
    // An integer (|v| < 2^64) against an integral divisor >= 2^64: only 0 is a multiple.
    if (m == std::trunc(m))
        return integerMagnitude(value) == std::uint64_t(0);
    const long double v
        = value.is_number_unsigned() ? (long double)value.get<std::uint64_t>() : (long double)value.get<std::int64_t>();
    return v == 0 || std::fabs(std::remainder(double(v), m)) <= std::numeric_limits<double>::epsilon();
}

// ---------------------------------------------------------------------------
// JSON Schema equality (enum, const, uniqueItems): numbers by value (1 == 1.0),
// objects regardless of member order, arrays in order.

/// nullopt when deeper than `depthLeft` levels.
std::optional<bool> jsonEqual(const nlohmann::json &a, const nlohmann::json &b, int depthLeft)
{
    if (depthLeft <= 0)
        return std::nullopt;
    if (a.is_number() && b.is_number()) {
        const auto r = compareNumbers(a, b);
        return r && *r == 0;
    }
    if (a.type() != b.type())
        return false;
    switch (a.type()) {
    case nlohmann::json::value_t::array: {
        if (a.size() != b.size())
            return false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            const auto equal = jsonEqual(a[i], b[i], depthLeft - 1);
            if (!equal || !*equal)
                return equal;
        }
        return true;
    }
    case nlohmann::json::value_t::object: {
        if (a.size() != b.size())
            return false;
        for (auto x = a.begin(), y = b.begin(); x != a.end(); ++x, ++y) { // both sorted by key
            if (x.key() != y.key())
                return false;
            const auto equal = jsonEqual(x.value(), y.value(), depthLeft - 1);
            if (!equal || !*equal)
                return equal;
        }
        return true;
    }
    default:
        return a == b;
    }
}

std::uint64_t mix(std::uint64_t h, std::uint64_t v)
{
    // boost::hash_combine's constant, on 64 bits
    return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 12) + (h >> 4));
}

/// A hash equal for values jsonEqual calls equal: integral numbers hash as their
/// integer value whatever their JSON type. nullopt when deeper than `depthLeft`.
std::optional<std::uint64_t> canonicalHash(const nlohmann::json &value, int depthLeft)
{
    if (depthLeft <= 0)
        return std::nullopt;
    switch (value.type()) {
    case nlohmann::json::value_t::number_integer: {
        const auto i = value.get<std::int64_t>();
        return i < 0 ? mix(1, std::uint64_t(i)) : mix(2, std::uint64_t(i));
    }
    case nlohmann::json::value_t::number_unsigned:
        return mix(2, value.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float: {
        const double d = value.get<double>();
        if (d == std::trunc(d) && d >= -TwoTo63 && d < 0)
            return mix(1, std::uint64_t(static_cast<std::int64_t>(d)));
        if (d == std::trunc(d) && d >= 0 && d < TwoTo64)
            return mix(2, static_cast<std::uint64_t>(d));
        return mix(3, std::bit_cast<std::uint64_t>(d));
    }
    case nlohmann::json::value_t::string:
        return mix(4, std::hash<std::string>{}(value.get_ref<const std::string &>()));
    case nlohmann::json::value_t::boolean:
        return mix(5, value.get<bool>() ? 1 : 0);
    case nlohmann::json::value_t::null:
        return mix(6, 0);
    case nlohmann::json::value_t::array: {
        std::uint64_t h = mix(7, value.size());
        for (const auto &element : value) {
            const auto e = canonicalHash(element, depthLeft - 1);
            if (!e)
                return std::nullopt;
            h = mix(h, *e);
        }
        return h;
    }
    case nlohmann::json::value_t::object: {
        std::uint64_t h = mix(8, value.size());
        for (auto it = value.begin(); it != value.end(); ++it) {
            const auto e = canonicalHash(it.value(), depthLeft - 1);
            if (!e)
                return std::nullopt;
            h = mix(mix(h, std::hash<std::string>{}(it.key())), *e);
        }
        return h;
    }
    default:
        return mix(9, 0);
    }
}

// ---------------------------------------------------------------------------
// format: RFC 3339 full-date, full-time and date-time, parsed by hand (linear, no
// regex), as JSON Schema draft 7 section 7.3.1 specifies.

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

// ---------------------------------------------------------------------------
// Regular expressions: PCRE2, compiled once per schema, matched with bounds.

/// One `pattern` or `patternProperties` key, compiled (JIT when the platform has it).
struct CompiledPattern
{
    std::string source;
    pcre2_code *code = nullptr;

    CompiledPattern() = default;
    CompiledPattern(const CompiledPattern &) = delete;
    CompiledPattern &operator=(const CompiledPattern &) = delete;
    ~CompiledPattern() { pcre2_code_free(code); }
};

/// ECMA-262 as PCRE2 approximates it: UTF-8 code points; `$` only at the very end
/// (no "before a final newline"); \uHHHH and \u{H…} escapes; no \C (it splits code
/// points). \d, \w, \s and \b keep PCRE2's ASCII meaning (ECMA's \s also covers
/// Unicode spaces). No anchoring: `pattern` is a search.
std::unique_ptr<CompiledPattern> compilePattern(const std::string &source, QString *error)
{
    auto pattern = std::make_unique<CompiledPattern>();
    pattern->source = source;
    pcre2_compile_context *context = pcre2_compile_context_create(nullptr);
    pcre2_set_compile_extra_options(context, PCRE2_EXTRA_ALT_BSUX);
    int code = 0;
    PCRE2_SIZE offset = 0;
    pattern->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(source.data()), source.size(),
                                  PCRE2_UTF | PCRE2_DOLLAR_ENDONLY | PCRE2_ALT_BSUX | PCRE2_NEVER_BACKSLASH_C, &code,
                                  &offset, context);
    pcre2_compile_context_free(context);
    if (!pattern->code) {
        if (error) {
            PCRE2_UCHAR buffer[256];
            pcre2_get_error_message(code, buffer, sizeof buffer);
            *error = QStringLiteral("%1 at offset %2")
                         .arg(QString::fromUtf8(reinterpret_cast<const char *>(buffer)))
                         .arg(qulonglong(offset));
        }
        return nullptr;
    }
    pcre2_jit_compile(pattern->code, PCRE2_JIT_COMPLETE); // falls back to the interpreter
    return pattern;
}

/// Backtracking memory of one JIT match (reserved per thread, touched as used): a
/// group repeated once per character, as in ^([0-9]|[a-z])+$, takes ~20 bytes per
/// repetition, so 32 MiB covers strings far above the default request cap (256 KiB).
constexpr std::size_t JitStackBytes = 32 * 1024 * 1024;

/// Per-thread match state: validate() is const and may run on several threads.
struct MatchScratch
{
    pcre2_match_context *context = pcre2_match_context_create(nullptr);
    pcre2_jit_stack *jitStack = pcre2_jit_stack_create(32 * 1024, JitStackBytes, nullptr);
    pcre2_match_data *data = pcre2_match_data_create(1, nullptr);

    MatchScratch()
    {
        if (jitStack)
            pcre2_jit_stack_assign(context, nullptr, jitStack);
    }
    MatchScratch(const MatchScratch &) = delete;
    MatchScratch &operator=(const MatchScratch &) = delete;
    ~MatchScratch()
    {
        pcre2_match_data_free(data);
        pcre2_jit_stack_free(jitStack);
        pcre2_match_context_free(context);
    }
};

enum class MatchResult { Match, NoMatch, Abandoned, BadUtf8 };

// ---------------------------------------------------------------------------
// The compiled schema: one node per subschema, $refs resolved to the node.

enum TypeBit : unsigned {
    NullType = 1,
    BooleanType = 2,
    IntegerType = 4,
    NumberType = 8,
    StringType = 16,
    ArrayType = 32,
    ObjectType = 64,
};

enum class Format { None, Date, Time, DateTime };

struct Node
{
    std::string location;         // JSON pointer of this subschema in the document
    std::optional<bool> constant; // a boolean schema
    const Node *ref = nullptr;
    const nlohmann::json *source = nullptr;

    unsigned types = 0; // 0: any
    const nlohmann::json *enumValues = nullptr;
    const nlohmann::json *constValue = nullptr;

    const nlohmann::json *minimum = nullptr;
    const nlohmann::json *maximum = nullptr;
    const nlohmann::json *exclusiveMinimum = nullptr;
    const nlohmann::json *exclusiveMaximum = nullptr;
    const nlohmann::json *multipleOf = nullptr;

    std::optional<std::uint64_t> minLength, maxLength;
    const CompiledPattern *pattern = nullptr;
    Format format = Format::None;

    const Node *items = nullptr; // one schema for every item
    std::vector<const Node *> tupleItems;
    bool tuple = false;
    const Node *additionalItems = nullptr;
    std::optional<std::uint64_t> minItems, maxItems;
    bool uniqueItems = false;
    const Node *contains = nullptr;

    std::vector<std::string> required;
    std::unordered_map<std::string, const Node *> properties;
    std::vector<std::pair<const CompiledPattern *, const Node *>> patternProperties;
    const Node *additionalProperties = nullptr;
    std::vector<std::pair<std::string, std::vector<std::string>>> dependentRequired;
    std::vector<std::pair<std::string, const Node *>> dependentSchemas;
    const Node *propertyNames = nullptr;
    std::optional<std::uint64_t> minProperties, maxProperties;

    std::vector<const Node *> allOf, anyOf, oneOf;
    const Node *notSchema = nullptr;
    const Node *ifSchema = nullptr, *thenSchema = nullptr, *elseSchema = nullptr;
};

} // namespace

struct SchemaValidatorState
{
    nlohmann::json document;
    valijson::Schema schema; // only to check the schema's shape at compile time
    std::deque<Node> nodes;
    std::map<std::string, Node *> byLocation;
    std::map<std::string, std::unique_ptr<CompiledPattern>> patterns;
    const Node *root = nullptr;
};

namespace {

constexpr int MaxSchemaDepth = 256;

/// Depth of the deepest array or object in `value`, counted without recursion (a
/// schema deeper than valijson's parser can take would crash it).
int nestingDepth(const nlohmann::json &value, int stopAt)
{
    std::vector<std::pair<const nlohmann::json *, int>> stack{{&value, 1}};
    int deepest = 0;
    while (!stack.empty()) {
        const auto [node, depth] = stack.back();
        stack.pop_back();
        if (!node->is_structured())
            continue;
        deepest = std::max(deepest, depth);
        if (deepest > stopAt)
            return deepest;
        for (const auto &child : *node)
            stack.push_back({&child, depth + 1});
    }
    return deepest;
}

std::string appendToken(const std::string &pointer, const std::string &token)
{
    return pointer + '/' + SchemaRefs::escapeToken(token);
}

class Compiler
{
public:
    explicit Compiler(SchemaValidatorState &state)
        : m_state(state)
    {}

    /// The node of the subschema at `location`; compiled on first use, so a $ref loop
    /// ends at the node being compiled.
    const Node *compile(const nlohmann::json &schema, const std::string &location, QString *error)
    {
        if (const auto found = m_state.byLocation.find(location); found != m_state.byLocation.end())
            return found->second;
        Node &node = m_state.nodes.emplace_back();
        m_state.byLocation.emplace(location, &node);
        node.location = location;
        node.source = &schema;
        if (schema.is_boolean()) {
            node.constant = schema.get<bool>();
            return &node;
        }
        if (!schema.is_object()) {
            node.constant = true; // valijson has refused what is not a schema
            return &node;
        }
        if (!fill(node, schema, location, error))
            return nullptr;
        return &node;
    }

private:
    const Node *sub(const nlohmann::json &object, const char *key, const std::string &location, QString *error,
                    bool *ok)
    {
        const auto it = object.find(key);
        if (it == object.end() || !*ok)
            return nullptr;
        const Node *node = compile(*it, appendToken(location, key), error);
        *ok = node != nullptr;
        return node;
    }

    const CompiledPattern *pattern(const std::string &source, const std::string &at, QString *error)
    {
        if (const auto found = m_state.patterns.find(source); found != m_state.patterns.end())
            return found->second.get();
        QString reason;
        auto compiled = compilePattern(source, &reason);
        if (!compiled) {
            if (error)
                *error = QStringLiteral("invalid regular expression %1 at %2: %3")
                             .arg(shortDump(nlohmann::json(source)), fromStd(at), reason);
            return nullptr;
        }
        return m_state.patterns.emplace(source, std::move(compiled)).first->second.get();
    }

    static std::optional<std::uint64_t> count(const nlohmann::json &object, const char *key)
    {
        const auto it = object.find(key);
        if (it == object.end() || !it->is_number())
            return std::nullopt;
        if (it->is_number_unsigned())
            return it->get<std::uint64_t>();
        if (it->is_number_integer())
            return std::uint64_t(std::max<std::int64_t>(0, it->get<std::int64_t>()));
        const double d = it->get<double>();
        return d <= 0 ? 0 : (d >= TwoTo64 ? std::numeric_limits<std::uint64_t>::max() : std::uint64_t(std::ceil(d)));
    }

    static const nlohmann::json *number(const nlohmann::json &object, const char *key)
    {
        const auto it = object.find(key);
        return it != object.end() && it->is_number() ? &*it : nullptr;
    }

    bool fill(Node &node, const nlohmann::json &schema, const std::string &location, QString *error)
    {
        bool ok = true;
        if (const auto ref = schema.find("$ref"); ref != schema.end() && ref->is_string()) {
            // Draft 7: a $ref's siblings are ignored.
            const auto target = SchemaRefs::resolve(m_state.document, ref->get<std::string>());
            if (!target) {
                if (error)
                    *error = QStringLiteral("$ref %1 at %2 could not be resolved")
                                 .arg(shortDump(*ref), fromStd(location.empty() ? std::string("/") : location));
                return false;
            }
            node.ref = compile(*target->value, target->pointer, error);
            // Definitions elsewhere in this object are still compiled (their patterns checked).
            for (const char *key : {"definitions", "$defs"})
                if (const auto defs = schema.find(key); defs != schema.end() && defs->is_object())
                    for (auto it = defs->begin(); it != defs->end() && ok; ++it)
                        ok = compile(it.value(), appendToken(appendToken(location, key), it.key()), error);
            return node.ref && ok;
        }

        if (const auto type = schema.find("type"); type != schema.end()) {
            auto bit = [](const std::string &name) -> unsigned {
                static const std::map<std::string, unsigned> bits = {
                    {"null", NullType},     {"boolean", BooleanType}, {"integer", IntegerType}, {"number", NumberType},
                    {"string", StringType}, {"array", ArrayType},     {"object", ObjectType}};
                const auto found = bits.find(name);
                return found == bits.end() ? 0 : found->second;
            };
            if (type->is_string())
                node.types = bit(type->get<std::string>());
            else if (type->is_array())
                for (const auto &t : *type)
                    if (t.is_string())
                        node.types |= bit(t.get<std::string>());
        }
        if (const auto it = schema.find("enum"); it != schema.end() && it->is_array())
            node.enumValues = &*it;
        if (const auto it = schema.find("const"); it != schema.end())
            node.constValue = &*it;

        node.minimum = number(schema, "minimum");
        node.maximum = number(schema, "maximum");
        node.exclusiveMinimum = number(schema, "exclusiveMinimum");
        node.exclusiveMaximum = number(schema, "exclusiveMaximum");
        node.multipleOf = number(schema, "multipleOf");

        node.minLength = count(schema, "minLength");
        node.maxLength = count(schema, "maxLength");
        if (const auto it = schema.find("pattern"); it != schema.end() && it->is_string()) {
            node.pattern = pattern(it->get<std::string>(), appendToken(location, "pattern"), error);
            if (!node.pattern)
                return false;
        }
        if (const auto it = schema.find("format"); it != schema.end() && it->is_string()) {
            const std::string &format = it->get_ref<const std::string &>();
            node.format = format == "date" ? Format::Date
                : format == "time"         ? Format::Time
                : format == "date-time"    ? Format::DateTime
                                           : Format::None;
        }

        if (const auto items = schema.find("items"); items != schema.end() && items->is_array()) {
            node.tuple = true;
            for (std::size_t i = 0; i < items->size() && ok; ++i) {
                const Node *item
                    = compile((*items)[i], appendToken(appendToken(location, "items"), std::to_string(i)), error);
                ok = item != nullptr;
                node.tupleItems.push_back(item);
            }
            node.additionalItems = sub(schema, "additionalItems", location, error, &ok);
        } else {
            node.items = sub(schema, "items", location, error, &ok);
        }
        node.minItems = count(schema, "minItems");
        node.maxItems = count(schema, "maxItems");
        if (const auto it = schema.find("uniqueItems"); it != schema.end() && it->is_boolean())
            node.uniqueItems = it->get<bool>();
        node.contains = sub(schema, "contains", location, error, &ok);

        if (const auto it = schema.find("required"); it != schema.end() && it->is_array())
            for (const auto &name : *it)
                if (name.is_string())
                    node.required.push_back(name.get<std::string>());
        if (const auto it = schema.find("properties"); it != schema.end() && it->is_object())
            for (auto p = it->begin(); p != it->end() && ok; ++p) {
                const Node *property
                    = compile(p.value(), appendToken(appendToken(location, "properties"), p.key()), error);
                ok = property != nullptr;
                node.properties.emplace(p.key(), property);
            }
        if (const auto it = schema.find("patternProperties"); it != schema.end() && it->is_object())
            for (auto p = it->begin(); p != it->end() && ok; ++p) {
                const std::string at = appendToken(appendToken(location, "patternProperties"), p.key());
                const CompiledPattern *regex = pattern(p.key(), at, error);
                const Node *property = regex ? compile(p.value(), at, error) : nullptr;
                ok = property != nullptr;
                node.patternProperties.emplace_back(regex, property);
            }
        node.additionalProperties = sub(schema, "additionalProperties", location, error, &ok);
        if (const auto it = schema.find("dependencies"); it != schema.end() && it->is_object())
            for (auto p = it->begin(); p != it->end() && ok; ++p) {
                if (p->is_array()) {
                    std::vector<std::string> names;
                    for (const auto &name : *p)
                        if (name.is_string())
                            names.push_back(name.get<std::string>());
                    node.dependentRequired.emplace_back(p.key(), std::move(names));
                } else {
                    const Node *dependency
                        = compile(p.value(), appendToken(appendToken(location, "dependencies"), p.key()), error);
                    ok = dependency != nullptr;
                    node.dependentSchemas.emplace_back(p.key(), dependency);
                }
            }
        node.propertyNames = sub(schema, "propertyNames", location, error, &ok);
        node.minProperties = count(schema, "minProperties");
        node.maxProperties = count(schema, "maxProperties");

        for (const auto &[key, list] :
             {std::pair{"allOf", &node.allOf}, std::pair{"anyOf", &node.anyOf}, std::pair{"oneOf", &node.oneOf}}) {
            const auto it = schema.find(key);
            if (it == schema.end() || !it->is_array())
                continue;
            for (std::size_t i = 0; i < it->size() && ok; ++i) {
                const Node *branch
                    = compile((*it)[i], appendToken(appendToken(location, key), std::to_string(i)), error);
                ok = branch != nullptr;
                list->push_back(branch);
            }
        }
        node.notSchema = sub(schema, "not", location, error, &ok);
        node.ifSchema = sub(schema, "if", location, error, &ok);
        node.thenSchema = sub(schema, "then", location, error, &ok);
        node.elseSchema = sub(schema, "else", location, error, &ok);

        // Not applied to values, but a bad pattern there is still a bad schema.
        for (const char *key : {"definitions", "$defs"})
            if (const auto defs = schema.find(key); defs != schema.end() && defs->is_object())
                for (auto it = defs->begin(); it != defs->end() && ok; ++it)
                    ok = compile(it.value(), appendToken(appendToken(location, key), it.key()), error);
        return ok;
    }

    SchemaValidatorState &m_state;
};

// ---------------------------------------------------------------------------
// Validation

/// Thrown out of the walk when the value cannot be checked within the bounds.
struct Abandon
{
    SchemaValidator::Failure failure;
};

class Walk
{
public:
    Walk(const SchemaValidator::Limits &limits)
        : m_limits(limits)
        , m_deadline(std::chrono::steady_clock::now() + limits.timeBudget)
    {}

    bool eval(const Node &node, const nlohmann::json &value, SchemaValidator::Failure *out)
    {
        if ((++m_steps & 1023) == 0)
            checkTime();
        if (m_depth >= m_limits.maxDepth)
            abandon(QStringLiteral("the schema applies more than %1 nested subschemas here (a $ref loop that does not "
                                   "descend into the value, or a value nested too deeply); validation was abandoned")
                        .arg(m_limits.maxDepth));
        ++m_depth;
        const bool ok = evalNode(node, value, out);
        --m_depth;
        return ok;
    }

private:
    /// A member name or an item index on the way from the root to the current value.
    struct Token
    {
        const std::string *name = nullptr;
        std::size_t index = 0;
    };

    struct Descend
    {
        Descend(Walk &walk, Token token)
            : m_walk(walk)
        {
            m_walk.m_path.push_back(token);
        }
        ~Descend() { m_walk.m_path.pop_back(); }
        Walk &m_walk;
    };

    QString pointer(const std::string *extra = nullptr) const
    {
        QString text;
        for (const Token &token : m_path)
            text += QLatin1Char('/')
                + (token.name ? escapePointerToken(fromStd(*token.name)) : QString::number(qulonglong(token.index)));
        if (extra)
            text += QLatin1Char('/') + escapePointerToken(fromStd(*extra));
        return text;
    }

    bool fail(SchemaValidator::Failure *out, const QString &message, const std::string *extra = nullptr)
    {
        if (out) {
            out->pointer = pointer(extra);
            out->message = message;
        }
        return false;
    }

    [[noreturn]] void abandon(const QString &message, const std::string *extra = nullptr)
    {
        SchemaValidator::Failure failure;
        failure.pointer = pointer(extra);
        failure.message = message;
        failure.abandoned = true;
        throw Abandon{failure};
    }

    void checkTime()
    {
        if (std::chrono::steady_clock::now() > m_deadline)
            abandon(QStringLiteral("validation took longer than its %1 ms bound and was abandoned here; send smaller "
                                   "arguments or simplify the schema")
                        .arg(qlonglong(m_limits.timeBudget.count())));
    }

    MatchScratch &scratch()
    {
        static thread_local MatchScratch perThread;
        if (!m_limitsSet) {
            pcre2_set_match_limit(perThread.context, m_limits.regexMatchLimit);
            pcre2_set_depth_limit(perThread.context, m_limits.regexDepthLimit);
            pcre2_set_heap_limit(perThread.context, m_limits.regexHeapLimitKiB);
            m_limitsSet = true;
        }
        return perThread;
    }

    /// Searches `subject` for `pattern`; an abandoned match abandons the whole call
    /// (under `not` or `anyOf`, "no match" would decide the result wrongly).
    bool search(const CompiledPattern &pattern, const std::string &subject, bool isName, const std::string *name)
    {
        MatchScratch &s = scratch();
        const int rc = pcre2_match(pattern.code, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), 0, 0,
                                   s.data, s.context);
        checkTime();
        if (rc >= 0)
            return true;
        if (rc == PCRE2_ERROR_NOMATCH)
            return false;
        const QString what = isName ? QStringLiteral("the property name") : QStringLiteral("this string");
        if (rc <= PCRE2_ERROR_UTF8_ERR1 && rc >= PCRE2_ERROR_UTF8_ERR21)
            abandon(QStringLiteral("%1 is not valid UTF-8; it cannot be matched against the pattern %2")
                        .arg(what, shortDump(nlohmann::json(pattern.source))),
                    name);
        QString limit;
        switch (rc) {
        case PCRE2_ERROR_MATCHLIMIT:
            limit = QStringLiteral("the match limit (%1 steps)").arg(m_limits.regexMatchLimit);
            break;
        case PCRE2_ERROR_DEPTHLIMIT:
            limit = QStringLiteral("the backtracking depth limit (%1)").arg(m_limits.regexDepthLimit);
            break;
        case PCRE2_ERROR_HEAPLIMIT:
        case PCRE2_ERROR_NOMEMORY:
            limit = QStringLiteral("the heap limit (%1 KiB)").arg(m_limits.regexHeapLimitKiB);
            break;
        case PCRE2_ERROR_JIT_STACKLIMIT:
            limit = QStringLiteral("the JIT stack limit (%1 MiB)").arg(JitStackBytes >> 20);
            break;
        default: {
            PCRE2_UCHAR buffer[256];
            pcre2_get_error_message(rc, buffer, sizeof buffer);
            limit = QString::fromUtf8(reinterpret_cast<const char *>(buffer));
        }
        }
        abandon(QStringLiteral("matching %1 (%2 bytes) against the pattern %3 was abandoned at %4: the pattern "
                               "backtracks too much on it; simplify the pattern (e.g. no nested quantifiers) or send "
                               "a shorter value")
                    .arg(what)
                    .arg(qulonglong(subject.size()))
                    .arg(shortDump(nlohmann::json(pattern.source)), limit),
                name);
    }

    static bool hasType(unsigned types, const nlohmann::json &value)
    {
        switch (value.type()) {
        case nlohmann::json::value_t::null:
            return types & NullType;
        case nlohmann::json::value_t::boolean:
            return types & BooleanType;
        case nlohmann::json::value_t::number_integer:
        case nlohmann::json::value_t::number_unsigned:
            return types & (IntegerType | NumberType);
        case nlohmann::json::value_t::number_float:
            // As valijson's strong types did: 1.0 is a number, not an integer.
            return types & NumberType;
        case nlohmann::json::value_t::string:
            return types & StringType;
        case nlohmann::json::value_t::array:
            return types & ArrayType;
        case nlohmann::json::value_t::object:
            return types & ObjectType;
        default:
            return false;
        }
    }

    bool equal(const nlohmann::json &a, const nlohmann::json &b)
    {
        const auto result = jsonEqual(a, b, m_limits.maxDepth);
        if (!result)
            abandon(QStringLiteral("the value is nested deeper than %1 levels; validation was abandoned")
                        .arg(m_limits.maxDepth));
        return *result;
    }

    bool evalNode(const Node &node, const nlohmann::json &value, SchemaValidator::Failure *out)
    {
        if (node.constant)
            return *node.constant || fail(out, QStringLiteral("no value is allowed here (the schema is false)"));
        if (node.ref)
            return eval(*node.ref, value, out);

        if (node.types && !hasType(node.types, value)) {
            QStringList expected;
            const nlohmann::json &type = node.source->at("type");
            for (const auto &t : type.is_array() ? type : nlohmann::json::array({type}))
                if (t.is_string())
                    expected << fromStd(t.get<std::string>());
            return fail(
                out,
                QStringLiteral("expected %1, got %2").arg(expected.join(QStringLiteral(" or ")), typeNameOf(value)));
        }
        if (node.enumValues) {
            bool found = false;
            for (const auto &allowed : *node.enumValues)
                if ((found = equal(allowed, value)))
                    break;
            if (!found) {
                QStringList allowed;
                for (const auto &v : *node.enumValues) {
                    if (allowed.size() == 10) {
                        allowed << QStringLiteral("...");
                        break;
                    }
                    allowed << shortDump(v);
                }
                return fail(out,
                            QStringLiteral("must be one of %1 (got %2)")
                                .arg(allowed.join(QStringLiteral(", ")), shortDump(value)));
            }
        }
        if (node.constValue && !equal(*node.constValue, value))
            return fail(out, QStringLiteral("must be %1").arg(shortDump(*node.constValue)));

        if (value.is_number() && !checkNumber(node, value, out))
            return false;
        if (value.is_string() && !checkString(node, value.get_ref<const std::string &>(), out))
            return false;
        if (value.is_array() && !checkArray(node, value, out))
            return false;
        if (value.is_object() && !checkObject(node, value, out))
            return false;
        return checkCombinators(node, value, out);
    }

    bool checkNumber(const Node &node, const nlohmann::json &value, SchemaValidator::Failure *out)
    {
        const auto bound = [&](const nlohmann::json *limit, bool (*holds)(int), const char *words) {
            if (!limit)
                return true;
            const auto r = compareNumbers(value, *limit);
            return (r && holds(*r))
                || fail(out, QStringLiteral("expected number %1 %2").arg(QLatin1StringView(words), shortDump(*limit)));
        };
        return bound(
                   node.minimum, [](int r) { return r >= 0; }, "greater than or equal to")
            && bound(
                   node.exclusiveMinimum, [](int r) { return r > 0; }, "greater than")
            && bound(
                   node.maximum, [](int r) { return r <= 0; }, "less than or equal to")
            && bound(
                   node.exclusiveMaximum, [](int r) { return r < 0; }, "less than")
            && (!node.multipleOf || isMultipleOf(value, *node.multipleOf)
                || fail(out, QStringLiteral("expected a multiple of %1").arg(shortDump(*node.multipleOf))));
    }

    bool checkString(const Node &node, const std::string &text, SchemaValidator::Failure *out)
    {
        if (node.minLength || node.maxLength) {
            // Code points, as JSON Schema counts: every byte that does not continue one.
            const auto length = std::uint64_t(
                std::count_if(text.begin(), text.end(), [](char c) { return (uchar(c) & 0xC0) != 0x80; }));
            if (node.minLength && length < *node.minLength)
                return fail(out,
                            QStringLiteral("expected a string of at least %1 characters, got %2")
                                .arg(qulonglong(*node.minLength))
                                .arg(qulonglong(length)));
            if (node.maxLength && length > *node.maxLength)
                return fail(out,
                            QStringLiteral("expected a string of at most %1 characters, got %2")
                                .arg(qulonglong(*node.maxLength))
                                .arg(qulonglong(length)));
        }
        if (node.pattern && !search(*node.pattern, text, false, nullptr))
            return fail(out, QStringLiteral("does not match the pattern %1").arg(shortDump(node.pattern->source)));
        switch (node.format) {
        case Format::None:
            return true;
        case Format::Date:
            return isFullDate(text)
                || fail(out, QStringLiteral("expected a date (RFC 3339 full-date, e.g. 2026-12-01)"));
        case Format::Time:
            return isFullTime(text)
                || fail(out, QStringLiteral("expected a time (RFC 3339 full-time, e.g. 16:52:45Z or 16:52:45+02:00)"));
        case Format::DateTime:
            return isDateTime(text)
                || fail(out, QStringLiteral("expected a date-time (RFC 3339, e.g. 2026-12-01T16:52:45Z)"));
        }
        return true;
    }

    bool checkArray(const Node &node, const nlohmann::json &array, SchemaValidator::Failure *out)
    {
        for (std::size_t i = 0; i < array.size(); ++i) {
            const Node *schema
                = node.tuple ? (i < node.tupleItems.size() ? node.tupleItems[i] : node.additionalItems) : node.items;
            if (!schema)
                continue;
            Descend descend(*this, {nullptr, i});
            if (!eval(*schema, array[i], out))
                return false;
        }
        if (node.minItems && array.size() < *node.minItems)
            return fail(out,
                        QStringLiteral("expected at least %1 items, got %2")
                            .arg(qulonglong(*node.minItems))
                            .arg(qulonglong(array.size())));
        if (node.maxItems && array.size() > *node.maxItems)
            return fail(out,
                        QStringLiteral("expected at most %1 items, got %2")
                            .arg(qulonglong(*node.maxItems))
                            .arg(qulonglong(array.size())));
        if (node.uniqueItems && array.size() > 1) {
            // Near-linear: a hash of each item's canonical form, exact equality only
            // between items whose hashes collide.
            std::unordered_multimap<std::uint64_t, std::size_t> seen;
            seen.reserve(array.size());
            for (std::size_t i = 0; i < array.size(); ++i) {
                if ((++m_steps & 1023) == 0)
                    checkTime();
                const auto hash = canonicalHash(array[i], m_limits.maxDepth);
                if (!hash) {
                    Descend descend(*this, {nullptr, i});
                    abandon(QStringLiteral("the value is nested deeper than %1 levels; validation was abandoned")
                                .arg(m_limits.maxDepth));
                }
                const auto [first, last] = seen.equal_range(*hash);
                for (auto it = first; it != last; ++it)
                    if (equal(array[it->second], array[i]))
                        return fail(out,
                                    QStringLiteral("items %1 and %2 are equal; items must be unique")
                                        .arg(qulonglong(it->second))
                                        .arg(qulonglong(i)));
                seen.emplace(*hash, i);
            }
        }
        if (node.contains) {
            bool found = false;
            for (std::size_t i = 0; i < array.size() && !found; ++i) {
                Descend descend(*this, {nullptr, i});
                found = eval(*node.contains, array[i], nullptr);
            }
            if (!found)
                return fail(out, QStringLiteral("expected at least one item that matches \"contains\""));
        }
        return true;
    }

    bool checkObject(const Node &node, const nlohmann::json &object, SchemaValidator::Failure *out)
    {
        for (const std::string &name : node.required)
            if (!object.contains(name))
                return fail(out, QStringLiteral("required property is missing"), &name);
        const bool membersChecked = !node.properties.empty() || !node.patternProperties.empty()
            || node.additionalProperties || node.propertyNames;
        for (auto it = object.begin(); membersChecked && it != object.end(); ++it) {
            const std::string &name = it.key();
            Descend descend(*this, {&name, 0});
            bool matched = false;
            if (const auto property = node.properties.find(name); property != node.properties.end()) {
                matched = true;
                if (!eval(*property->second, it.value(), out))
                    return false;
            }
            for (const auto &[regex, schema] : node.patternProperties) {
                if (!search(*regex, name, true, nullptr))
                    continue;
                matched = true;
                if (!eval(*schema, it.value(), out))
                    return false;
            }
            // additionalProperties applies to members that neither properties nor
            // patternProperties named (draft 7, 6.5.6).
            if (!matched && node.additionalProperties) {
                if (node.additionalProperties->constant == false)
                    return fail(out, QStringLiteral("property is not allowed by the schema"));
                if (!eval(*node.additionalProperties, it.value(), out))
                    return false;
            }
            if (node.propertyNames) {
                SchemaValidator::Failure nameFailure;
                if (!eval(*node.propertyNames, nlohmann::json(name), out ? &nameFailure : nullptr))
                    return fail(out,
                                QStringLiteral("property name %1: %2")
                                    .arg(shortDump(nlohmann::json(name)), nameFailure.message));
            }
        }
        for (const auto &[trigger, names] : node.dependentRequired) {
            if (!object.contains(trigger))
                continue;
            for (const std::string &name : names)
                if (!object.contains(name))
                    return fail(out,
                                QStringLiteral("required property is missing (%1 is present and depends on it)")
                                    .arg(shortDump(nlohmann::json(trigger))),
                                &name);
        }
        for (const auto &[trigger, schema] : node.dependentSchemas)
            if (object.contains(trigger) && !eval(*schema, object, out))
                return false;
        if (node.minProperties && object.size() < *node.minProperties)
            return fail(out,
                        QStringLiteral("expected at least %1 properties, got %2")
                            .arg(qulonglong(*node.minProperties))
                            .arg(qulonglong(object.size())));
        if (node.maxProperties && object.size() > *node.maxProperties)
            return fail(out,
                        QStringLiteral("expected at most %1 properties, got %2")
                            .arg(qulonglong(*node.maxProperties))
                            .arg(qulonglong(object.size())));
        return true;
    }

    /// "does not match any of the anyOf schemas (the first: /a: expected string, got integer)"
    bool failBranches(SchemaValidator::Failure *out, const char *keyword, const SchemaValidator::Failure &first)
    {
        if (!out)
            return false;
        const QString here = pointer();
        const QString detail = first.pointer == here
            ? first.message
            : (first.pointer.isEmpty() ? QStringLiteral("(root)") : first.pointer) + QStringLiteral(": ")
                + first.message;
        return fail(out,
                    QStringLiteral("does not match any of the %1 schemas (the first: %2)")
                        .arg(QLatin1StringView(keyword), detail));
    }

    bool checkCombinators(const Node &node, const nlohmann::json &value, SchemaValidator::Failure *out)
    {
        for (const Node *branch : node.allOf)
            if (!eval(*branch, value, out))
                return false;
        if (!node.anyOf.empty()) {
            SchemaValidator::Failure first;
            bool any = false;
            for (std::size_t i = 0; i < node.anyOf.size() && !any; ++i)
                any = eval(*node.anyOf[i], value, out && i == 0 ? &first : nullptr);
            if (!any)
                return failBranches(out, "anyOf", first);
        }
        if (!node.oneOf.empty()) {
            SchemaValidator::Failure first;
            std::vector<std::size_t> matching;
            for (std::size_t i = 0; i < node.oneOf.size() && matching.size() < 2; ++i)
                if (eval(*node.oneOf[i], value, out && i == 0 ? &first : nullptr))
                    matching.push_back(i);
            if (matching.empty())
                return failBranches(out, "oneOf", first);
            if (matching.size() > 1)
                return fail(out,
                            QStringLiteral("matches more than one of the oneOf schemas (%1 and %2)")
                                .arg(qulonglong(matching[0]))
                                .arg(qulonglong(matching[1])));
        }
        if (node.notSchema && eval(*node.notSchema, value, nullptr))
            return fail(out, QStringLiteral("must not match the \"not\" schema"));
        if (node.ifSchema) {
            const Node *next = eval(*node.ifSchema, value, nullptr) ? node.thenSchema : node.elseSchema;
            if (next && !eval(*next, value, out))
                return false;
        }
        return true;
    }

    const SchemaValidator::Limits &m_limits;
    std::chrono::steady_clock::time_point m_deadline;
    std::uint64_t m_steps = 0;
    int m_depth = 0;
    bool m_limitsSet = false;
    std::vector<Token> m_path;
};

} // namespace

QString SchemaValidator::Failure::toString() const
{
    return QStringLiteral("%1: %2").arg(pointer.isEmpty() ? QStringLiteral("(root)") : pointer, message);
}

SchemaValidator::SchemaValidator()
    : d(std::make_unique<SchemaValidatorState>())
{}

SchemaValidator::~SchemaValidator() = default;

namespace {

/// Draft 7 (Validation §6.3, §6.4, §6.5; Core §4.2.2): maxLength, minLength, maxItems,
/// minItems, maxProperties and minProperties take a non-negative integer, and 2.0 is
/// one, but valijson takes only what the parser kept as an integer. Such a value is
/// rewritten as the integer it is, in subschema positions only (never in enum, const,
/// default or examples, which are data). The JSON Schema Test Suite's "maxLength
/// validation with a decimal" and its siblings.
void integralCounts(nlohmann::json &schema, int depthLeft)
{
    if (!schema.is_object() || depthLeft <= 0)
        return;
    for (const char *key : {"maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties"}) {
        const auto it = schema.find(key);
        if (it == schema.end() || !it->is_number_float())
            continue;
        const double d = it->get<double>();
        if (d >= 0 && d < TwoTo63 && std::floor(d) == d)
            *it = std::uint64_t(d);
    }
    // One subschema, or an array of them (items, allOf, anyOf, oneOf).
    for (const char *key : {"items", "additionalItems", "contains", "additionalProperties", "propertyNames", "not",
                            "if", "then", "else", "allOf", "anyOf", "oneOf"}) {
        const auto it = schema.find(key);
        if (it == schema.end())
            continue;
        if (it->is_array()) {
            for (nlohmann::json &sub : *it)
                integralCounts(sub, depthLeft - 1);
        } else {
            integralCounts(*it, depthLeft - 1);
        }
    }
    // An object of subschemas (a dependency may also be an array of names: skipped).
    for (const char *key : {"properties", "patternProperties", "definitions", "$defs", "dependencies"}) {
        const auto it = schema.find(key);
        if (it == schema.end() || !it->is_object())
            continue;
        for (nlohmann::json &sub : *it)
            integralCounts(sub, depthLeft - 1);
    }
}

} // namespace

std::unique_ptr<SchemaValidator> SchemaValidator::compile(const nlohmann::json &schema, QString *error)
{
    if (!schema.is_object() && !schema.is_boolean()) {
        if (error)
            *error = QStringLiteral("a schema must be a JSON object (got %1)").arg(typeNameOf(schema));
        return nullptr;
    }
    // valijson's parser and the compiler recurse through the schema and its $refs:
    // refuse what would take them too deep before either sees it.
    if (nestingDepth(schema, MaxSchemaDepth) > MaxSchemaDepth) {
        if (error)
            *error = QStringLiteral("the schema is nested deeper than %1 levels").arg(MaxSchemaDepth);
        return nullptr;
    }
    std::unique_ptr<SchemaValidator> validator(new SchemaValidator);
    validator->d->document = schema;
    integralCounts(validator->d->document, MaxSchemaDepth + 1);
    SchemaRefs::Checked refs = SchemaRefs::check(validator->d->document, MaxSchemaDepth);
    if (!refs.error.isEmpty()) {
        if (error)
            *error = refs.error;
        return nullptr;
    }
    try {
        valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
        const valijson::adapters::NlohmannJsonAdapter adapter(refs.parserView);
        // Never fetches: a ref check() could not resolve is spelt as a URI it asks for here.
        parser.populateSchema(
            adapter, validator->d->schema, [](const std::string &) -> const nlohmann::json * { return nullptr; },
            [](const nlohmann::json *) {});
    } catch (const std::exception &e) {
        if (error) {
            const QString unfollowable = refs.explain(e.what());
            *error = unfollowable.isEmpty() ? fromStd(e.what()) : unfollowable;
        }
        return nullptr;
    }
    Compiler compiler(*validator->d);
    validator->d->root = compiler.compile(validator->d->document, std::string(), error);
    if (!validator->d->root)
        return nullptr;
    return validator;
}

std::optional<SchemaValidator::Failure> SchemaValidator::validate(const nlohmann::json &value) const
{
    return validate(value, Limits());
}

std::optional<SchemaValidator::Failure> SchemaValidator::validate(const nlohmann::json &value,
                                                                  const Limits &limits) const
{
    Walk walk(limits);
    Failure failure;
    try {
        if (walk.eval(*d->root, value, &failure))
            return std::nullopt;
    } catch (const Abandon &abandoned) {
        return abandoned.failure;
    }
    return failure;
}

const nlohmann::json &SchemaValidator::schema() const
{
    return d->document;
}
