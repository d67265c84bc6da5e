// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "jsonrpcmessage.h"

#include "jsoninput.h"
#include "jsontypename.h"

using nlohmann::json;

namespace {

JsonRpcDecoded refused(std::int64_t code, std::string message, json id = nullptr)
{
    JsonRpcDecoded decoded;
    decoded.problem.code = code;
    decoded.problem.message = std::move(message);
    decoded.problemId = std::move(id);
    return decoded;
}

JsonRpcDecoded invalid(const std::string &what, json id = nullptr)
{
    return refused(JsonRpcError::InvalidRequest, "not a JSON-RPC 2.0 message: " + what, std::move(id));
}

std::string wrongType(const char *member, const char *expected, const json &value)
{
    return std::string("\"") + member + "\" must be " + expected + ", got "
        + jsonTypeName(value.type(), JsonNumberNames::IntegerApart);
}

} // namespace

json JsonRpcError::toJson() const
{
    json object = {{"code", code}, {"message", message}};
    if (!data.is_null())
        object["data"] = data;
    return object;
}

JsonRpcMessage JsonRpcMessage::request(json id, std::string method, json params)
{
    JsonRpcMessage message;
    message.kind = Kind::Request;
    message.id = std::move(id);
    message.method = std::move(method);
    message.params = std::move(params);
    return message;
}

JsonRpcMessage JsonRpcMessage::notification(std::string method, json params)
{
    JsonRpcMessage message;
    message.kind = Kind::Notification;
    message.method = std::move(method);
    message.params = std::move(params);
    return message;
}

JsonRpcMessage JsonRpcMessage::resultFor(json id, json result)
{
    JsonRpcMessage message;
    message.kind = Kind::Result;
    message.id = std::move(id);
    message.result = std::move(result);
    return message;
}

JsonRpcMessage JsonRpcMessage::errorFor(json id, JsonRpcError error)
{
    JsonRpcMessage message;
    message.kind = Kind::Error;
    message.id = std::move(id);
    message.error = std::move(error);
    return message;
}

json JsonRpcMessage::toJson() const
{
    json object = {{"jsonrpc", "2.0"}};
    switch (kind) {
    case Kind::Request:
        object["id"] = id;
        [[fallthrough]];
    case Kind::Notification:
        object["method"] = method;
        if (!params.is_null())
            object["params"] = params;
        break;
    case Kind::Result:
        object["id"] = id;
        object["result"] = result;
        break;
    case Kind::Error:
        object["id"] = id;
        object["error"] = error.toJson();
        break;
    }
    return object;
}

std::string JsonRpcMessage::encode() const
{
    // Written member by member in the order every implementation uses ("jsonrpc", "id",
    // then the rest), which nlohmann's sorted objects would not keep; easier to read in a
    // trace or a protocol log.
    const auto dump = [](const json &value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); };
    std::string line = R"({"jsonrpc":"2.0")";
    if (kind != Kind::Notification)
        line += R"(,"id":)" + dump(id);
    switch (kind) {
    case Kind::Request:
    case Kind::Notification:
        line += R"(,"method":)" + dump(method);
        if (!params.is_null())
            line += R"(,"params":)" + dump(params);
        break;
    case Kind::Result:
        line += R"(,"result":)" + dump(result);
        break;
    case Kind::Error:
        line += R"(,"error":)" + dump(error.toJson());
        break;
    }
    line += '}';
    return line;
}

namespace JsonRpc {

bool isValidId(const json &id)
{
    return id.is_string() || id.is_number_integer();
}

JsonRpcDecoded decode(std::string_view text)
{
    JsonInput::Problem problem;
    const json value = JsonInput::read<json>(text, &problem);
    if (value.is_discarded()) {
        std::string where;
        if (problem.byte != std::string_view::npos)
            where = " (byte offset " + std::to_string(problem.byte) + ")";
        if (problem.limit && problem.reason.rfind("nested", 0) != 0) // too many values
            return refused(JsonRpcError::ParseError, JsonInput::describe("the message", problem));
        return refused(JsonRpcError::ParseError, "not valid JSON: " + problem.reason + where);
    }
    return decodeValue(value);
}

JsonRpcDecoded decodeValue(const json &value)
{
    if (value.is_array())
        return invalid("a batch (an array of messages); MCP sends one message at a time");
    if (!value.is_object())
        return invalid(std::string("expected an object, got ")
                       + jsonTypeName(value.type(), JsonNumberNames::IntegerApart));

    // The id first, so that every later refusal of a request can name it.
    json id;
    const auto idMember = value.find("id");
    const bool hasId = idMember != value.end();
    if (hasId) {
        if (!idMember->is_null() && !isValidId(*idMember))
            return invalid(wrongType("id", "a string or an integer", *idMember));
        id = *idMember;
    }

    const auto version = value.find("jsonrpc");
    if (version == value.end())
        return invalid("\"jsonrpc\" is missing (it must be \"2.0\")", id);
    if (!version->is_string() || version->get_ref<const std::string &>() != "2.0")
        return invalid("\"jsonrpc\" must be \"2.0\"", id);

    const auto method = value.find("method");
    const auto result = value.find("result");
    const auto error = value.find("error");
    const bool isCall = method != value.end();
    const int answers = int(result != value.end()) + int(error != value.end());

    JsonRpcDecoded decoded;
    JsonRpcMessage message;
    if (isCall) {
        if (answers != 0)
            return invalid("a message with \"method\" has no \"result\" or \"error\"", id);
        if (!method->is_string())
            return invalid(wrongType("method", "a string", *method), id);
        if (method->get_ref<const std::string &>().empty())
            return invalid("\"method\" is empty", id);
        if (hasId && id.is_null())
            return invalid("a request's \"id\" must not be null", id);
        const auto params = value.find("params");
        if (params != value.end()) {
            if (!params->is_object() && !params->is_array())
                return invalid(wrongType("params", "an object or an array", *params), id);
            message.params = *params;
        }
        message.kind = hasId ? JsonRpcMessage::Kind::Request : JsonRpcMessage::Kind::Notification;
        message.method = method->get<std::string>();
    } else {
        if (answers == 0)
            return invalid("it has neither \"method\" (a request or notification) nor \"result\" or \"error\" "
                           "(a response)",
                           id);
        if (answers == 2)
            return invalid("a response has \"result\" or \"error\", not both", id);
        if (!hasId)
            return invalid("a response needs an \"id\"");
        if (result != value.end()) {
            if (id.is_null())
                return invalid("a result's \"id\" must not be null");
            message.kind = JsonRpcMessage::Kind::Result;
            message.result = *result;
        } else {
            if (!error->is_object())
                return invalid(wrongType("error", "an object", *error), id);
            const auto code = error->find("code");
            if (code == error->end())
                return invalid("\"error\" has no \"code\"", id);
            if (!code->is_number_integer())
                return invalid(wrongType("error.code", "an integer", *code), id);
            if (code->is_number_unsigned() && code->get<std::uint64_t>() > std::uint64_t(INT64_MAX))
                return invalid("\"error.code\" is beyond 64 bits", id);
            const auto text = error->find("message");
            if (text == error->end())
                return invalid("\"error\" has no \"message\"", id);
            if (!text->is_string())
                return invalid(wrongType("error.message", "a string", *text), id);
            message.kind = JsonRpcMessage::Kind::Error;
            message.error.code = code->get<std::int64_t>();
            message.error.message = text->get<std::string>();
            if (const auto data = error->find("data"); data != error->end())
                message.error.data = *data;
        }
    }
    message.id = std::move(id);
    decoded.message = std::move(message);
    return decoded;
}

} // namespace JsonRpc
