// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "project/schemarefs.h"

#include "project/jsonqt.h"

#include <QStringList>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <unordered_map>
#include <utility>

namespace SchemaRefs {

using JsonQt::fromStd;

namespace {

/// How valijson is told that a ref cannot be followed: an absolute URI it asks the
/// (refusing) fetch function for, and names in its error.
const std::string UnfollowablePrefix = "urn:toolstudio:unfollowable:";

/// A token as valijson reads it: "~1", "~0" and then %-escapes are decoded; so '~',
/// '/', '%' and '#' are escaped.
std::string parserToken(const std::string &token)
{
    std::string spelt;
    for (const char c : token) {
        switch (c) {
        case '~':
            spelt += "~0";
            break;
        case '/':
            spelt += "~1";
            break;
        case '%':
            spelt += "%25";
            break;
        case '#':
            spelt += "%23";
            break;
        default:
            spelt += c;
        }
    }
    return spelt;
}

/// "/a/b~1c" → {"a", "b/c"}; nullopt for a malformed escape.
std::optional<std::vector<std::string>> pointerTokens(const std::string &pointer)
{
    std::vector<std::string> tokens;
    if (pointer.empty())
        return tokens;
    std::size_t at = 1; // past the leading '/'
    while (true) {
        const std::size_t end = std::min(pointer.find('/', at), pointer.size());
        std::string token;
        for (std::size_t i = at; i < end; ++i) {
            if (pointer[i] != '~') {
                token += pointer[i];
                continue;
            }
            if (i + 1 >= end || (pointer[i + 1] != '0' && pointer[i + 1] != '1'))
                return std::nullopt;
            token += pointer[i + 1] == '0' ? '~' : '/';
            ++i;
        }
        tokens.push_back(std::move(token));
        if (end == pointer.size())
            return tokens;
        at = end + 1;
    }
}

bool isIndex(const std::string &token)
{
    if (token.empty() || token.size() > 18 || (token.size() > 1 && token[0] == '0'))
        return false;
    return std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool inData(const std::string &at)
{
    for (const char *key : {"/enum", "/const", "/default", "/examples"}) {
        const std::size_t found = at.find(key);
        if (found != std::string::npos
            && (found + std::strlen(key) == at.size() || at[found + std::strlen(key)] == '/'))
            return true;
    }
    return false;
}

QString unresolvedMessage(const std::string &target, const std::string &at)
{
    const QString ref = fromStd(target);
    const QString where = at.empty() ? QStringLiteral("/") : fromStd(at);
    if (target.empty() || target[0] != '#')
        return QStringLiteral("$ref \"%1\" at %2 could not be resolved: references to other documents are not "
                              "fetched; copy the definition into this schema (under \"definitions\") and refer to it "
                              "as \"#/definitions/NAME\"")
            .arg(ref, where);
    return QStringLiteral("$ref \"%1\" at %2 could not be resolved: this schema has nothing at \"%3\"; add the "
                          "definition there (e.g. under \"definitions\") or correct the $ref")
        .arg(ref, where, ref.mid(1));
}

struct Site
{
    const nlohmann::json *object = nullptr;
    nlohmann::json *viewObject = nullptr;
    std::string at; ///< the JSON Pointer of the object holding the $ref
    std::string ref;
    std::optional<Target> target;
    std::vector<std::string> targetTokens;
};

enum class Chain { Unvisited, Following, Ends, Loops };

/// Finds every object with a string "$ref" in `schema`, walking `view` (a copy) in
/// step, and drops string "$id"s from the copy: valijson would key its ref cache by
/// them (and expand one target once per scope), the studio resolves by pointer only.
std::vector<Site> findSites(const nlohmann::json &schema, nlohmann::json &view)
{
    std::vector<Site> sites;
    std::vector<std::tuple<const nlohmann::json *, nlohmann::json *, std::string>> stack{{&schema, &view, {}}};
    while (!stack.empty()) {
        auto [node, copy, at] = std::move(stack.back());
        stack.pop_back();
        if (node->is_array()) {
            for (std::size_t i = 0; i < node->size(); ++i)
                if ((*node)[i].is_structured())
                    stack.emplace_back(&(*node)[i], &(*copy)[i], at + '/' + std::to_string(i));
            continue;
        }
        for (auto it = node->begin(); it != node->end(); ++it)
            if (it->is_structured())
                stack.emplace_back(&*it, &(*copy)[it.key()], at + '/' + escapeToken(it.key()));
        if (const auto id = node->find("$id"); id != node->end() && id->is_string())
            copy->erase("$id");
        if (const auto ref = node->find("$ref"); ref != node->end() && ref->is_string())
            sites.push_back(Site{node, copy, std::move(at), ref->get<std::string>(), {}, {}});
    }
    return sites;
}

/// Deepest nesting under `value`, and the sites under it (itself included).
std::pair<int, std::vector<std::size_t>>
unitShape(const nlohmann::json &value, const std::unordered_map<const nlohmann::json *, std::size_t> &siteOf)
{
    int deepest = 0;
    std::vector<std::size_t> sites;
    std::vector<std::pair<const nlohmann::json *, int>> stack{{&value, 1}};
    while (!stack.empty()) {
        const auto [node, depth] = stack.back();
        stack.pop_back();
        if (!node->is_structured())
            continue;
        deepest = std::max(deepest, depth);
        if (const auto found = siteOf.find(node); found != siteOf.end())
            sites.push_back(found->second);
        for (const auto &child : *node)
            stack.push_back({&child, depth + 1});
    }
    return {deepest, std::move(sites)};
}

/// The most levels a parser can nest through the refs: per unit (the root, each ref
/// target) its own nesting plus one, summed along the longest way through the units
/// — within a cycle each unit at most once, as valijson and the compiler expand a
/// target once and then reuse it. Tarjan's strongly connected components, without
/// recursion; they come out sinks first.
long long nestingThroughRefs(const nlohmann::json &schema, const std::vector<Site> &sites,
                             const std::unordered_map<const nlohmann::json *, std::size_t> &siteOf)
{
    std::unordered_map<const nlohmann::json *, std::size_t> unitOf{{&schema, 0}};
    std::vector<const nlohmann::json *> units{&schema};
    for (const Site &site : sites)
        if (site.target && unitOf.emplace(site.target->value, units.size()).second)
            units.push_back(site.target->value);
    std::vector<long long> weight(units.size());
    std::vector<std::vector<std::size_t>> edges(units.size());
    for (std::size_t u = 0; u < units.size(); ++u) {
        auto [depth, inside] = unitShape(*units[u], siteOf);
        weight[u] = depth + 1;
        for (const std::size_t s : inside)
            if (sites[s].target)
                edges[u].push_back(unitOf.at(sites[s].target->value));
    }

    const std::size_t none = std::size_t(-1);
    std::vector<std::size_t> index(units.size(), none), low(units.size()), component(units.size(), none);
    std::vector<std::size_t> open;
    std::vector<bool> onOpen(units.size());
    std::vector<long long> componentCost;
    std::size_t counter = 0;
    for (std::size_t start = 0; start < units.size(); ++start) {
        if (index[start] != none)
            continue;
        std::vector<std::pair<std::size_t, std::size_t>> frames{{start, 0}}; // unit, next edge
        index[start] = low[start] = counter++;
        open.push_back(start);
        onOpen[start] = true;
        while (!frames.empty()) {
            auto &[u, next] = frames.back();
            if (next < edges[u].size()) {
                const std::size_t v = edges[u][next++];
                if (index[v] == none) {
                    index[v] = low[v] = counter++;
                    open.push_back(v);
                    onOpen[v] = true;
                    frames.push_back({v, 0});
                } else if (onOpen[v]) {
                    low[u] = std::min(low[u], index[v]);
                }
                continue;
            }
            const std::size_t done = u;
            frames.pop_back();
            if (!frames.empty())
                low[frames.back().first] = std::min(low[frames.back().first], low[done]);
            if (low[done] != index[done])
                continue;
            // A component: its members' weights, plus the costliest component it leads to
            // (all of those are finished: Tarjan emits sinks first).
            const std::size_t id = componentCost.size();
            std::vector<std::size_t> members;
            std::size_t member;
            do {
                member = open.back();
                open.pop_back();
                onOpen[member] = false;
                component[member] = id;
                members.push_back(member);
            } while (member != done);
            long long own = 0, below = 0;
            for (const std::size_t m : members) {
                own += weight[m];
                for (const std::size_t v : edges[m])
                    if (component[v] != id)
                        below = std::max(below, componentCost[component[v]]);
            }
            componentCost.push_back(own + below);
        }
    }
    return componentCost[component[0]];
}

/// "$ref loop #/definitions/a -> #/definitions/b -> #/definitions/a": the targets from
/// `start` until one comes again (at most 16 named).
QString loopMessage(const std::vector<Site> &sites,
                    const std::unordered_map<const nlohmann::json *, std::size_t> &siteOf, std::size_t start)
{
    QStringList hops;
    std::vector<const nlohmann::json *> seen;
    for (std::size_t at = start;;) {
        const Target &target = *sites[at].target;
        if (hops.size() == 16) {
            hops << QStringLiteral("…");
            break;
        }
        hops << QLatin1Char('#') + fromStd(target.pointer);
        if (std::find(seen.begin(), seen.end(), target.value) != seen.end())
            break;
        seen.push_back(target.value);
        at = siteOf.at(target.value);
    }
    return QStringLiteral("$ref loop %1: a $ref must lead to a schema").arg(hops.join(QStringLiteral(" -> ")));
}

} // namespace

std::string escapeToken(const std::string &token)
{
    std::string escaped;
    for (const char c : token) {
        if (c == '~')
            escaped += "~0";
        else if (c == '/')
            escaped += "~1";
        else
            escaped += c;
    }
    return escaped;
}

std::optional<std::string> localPointer(const std::string &ref)
{
    if (ref.empty() || ref[0] != '#')
        return std::nullopt;
    std::string pointer;
    for (std::size_t i = 1; i < ref.size(); ++i) {
        if (ref[i] == '%' && i + 2 < ref.size() && std::isxdigit(static_cast<unsigned char>(ref[i + 1]))
            && std::isxdigit(static_cast<unsigned char>(ref[i + 2]))) {
            pointer += char(std::stoi(ref.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            pointer += ref[i];
        }
    }
    if (!pointer.empty() && pointer[0] != '/')
        return std::nullopt;
    return pointer;
}

namespace {

std::optional<Target> resolveTokens(const nlohmann::json &document, const std::string &ref,
                                    std::vector<std::string> *tokensOut)
{
    const auto pointer = localPointer(ref);
    if (!pointer)
        return std::nullopt;
    const auto tokens = pointerTokens(*pointer);
    if (!tokens)
        return std::nullopt;
    const nlohmann::json *at = &document;
    std::string canonical;
    for (const std::string &token : *tokens) {
        if (at->is_object()) {
            const auto found = at->find(token);
            if (found == at->end())
                return std::nullopt;
            at = &*found;
        } else if (at->is_array() && isIndex(token) && std::stoull(token) < at->size()) {
            at = &(*at)[std::stoull(token)];
        } else {
            return std::nullopt;
        }
        canonical += '/' + escapeToken(token);
    }
    if (tokensOut)
        *tokensOut = *tokens;
    return Target{at, canonical};
}

} // namespace

std::optional<Target> resolve(const nlohmann::json &document, const std::string &ref)
{
    return resolveTokens(document, ref, nullptr);
}

QString Checked::explain(const std::string &what) const
{
    const std::size_t found = what.find(UnfollowablePrefix);
    if (found == std::string::npos)
        return QString();
    const std::size_t i = std::strtoull(what.c_str() + found + UnfollowablePrefix.size(), nullptr, 10);
    return i < unfollowable.size() ? unfollowable[i] : QString();
}

Checked check(const nlohmann::json &schema, int maxDepth)
{
    Checked checked;
    checked.parserView = schema;
    std::vector<Site> sites = findSites(schema, checked.parserView);
    std::unordered_map<const nlohmann::json *, std::size_t> siteOf;
    for (std::size_t i = 0; i < sites.size(); ++i) {
        siteOf.emplace(sites[i].object, i);
        sites[i].target = resolveTokens(schema, sites[i].ref, &sites[i].targetTokens);
    }

    // Chains of refs that lead to a ref again: those that come back are loops.
    std::vector<Chain> chain(sites.size(), Chain::Unvisited);
    for (std::size_t start = 0; start < sites.size(); ++start) {
        std::vector<std::size_t> path;
        std::size_t at = start;
        Chain outcome = Chain::Ends;
        while (true) {
            if (chain[at] == Chain::Ends || chain[at] == Chain::Loops) {
                outcome = chain[at];
                break;
            }
            if (chain[at] == Chain::Following) {
                outcome = Chain::Loops;
                break;
            }
            chain[at] = Chain::Following;
            path.push_back(at);
            if (!sites[at].target)
                break;
            const auto next = siteOf.find(sites[at].target->value);
            if (next == siteOf.end())
                break;
            at = next->second;
        }
        for (const std::size_t hop : path)
            chain[hop] = outcome;
    }

    // What valijson reads: a ref it can follow to the same target, or one it cannot.
    for (Site &site : sites) {
        QString unfollowable;
        if (!site.target)
            unfollowable = unresolvedMessage(site.ref, site.at);
        else if (chain[&site - sites.data()] == Chain::Loops)
            unfollowable = loopMessage(sites, siteOf, std::size_t(&site - sites.data()));
        else if (std::any_of(site.targetTokens.begin(), site.targetTokens.end(),
                             [](const std::string &token) { return token.empty(); }))
            unfollowable = QStringLiteral("$ref \"%1\" at %2 passes through a property with an empty name, which is "
                                          "not supported; rename the property")
                               .arg(fromStd(site.ref), site.at.empty() ? QStringLiteral("/") : fromStd(site.at));
        if (!unfollowable.isEmpty()) {
            (*site.viewObject)["$ref"] = UnfollowablePrefix + std::to_string(checked.unfollowable.size());
            checked.unfollowable.push_back(unfollowable);
            // A loop in the schema proper is refused now; in data (an enum value, a
            // default) only if it is ever applied as a schema.
            if (chain[&site - sites.data()] == Chain::Loops && !inData(site.at) && checked.error.isEmpty())
                checked.error = unfollowable;
            continue;
        }
        std::string spelt = "#";
        for (const std::string &token : site.targetTokens)
            spelt += '/' + parserToken(token);
        (*site.viewObject)["$ref"] = spelt;
    }
    if (!checked.error.isEmpty())
        return checked;

    const long long depth = nestingThroughRefs(schema, sites, siteOf);
    if (depth > maxDepth)
        checked.error = QStringLiteral("the schema nests deeper than %1 levels through its $refs (definitions that "
                                       "refer to one another, %2 levels in all); flatten them or break the chain")
                            .arg(maxDepth)
                            .arg(depth);
    return checked;
}

} // namespace SchemaRefs
