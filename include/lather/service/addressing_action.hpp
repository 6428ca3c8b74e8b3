// lather/service/addressing_action.hpp — the request's WS-Addressing Action as the service
// dispatches by it: an empty Body whose SOAPAction names no operation goes to the one its
// wsa:Action header names (lather/service/empty_body.hpp).
#pragma once

#include <string_view>

namespace lather {

class call_context;

/// The request's WS-Addressing Action (its wsa:Action header, WS-Addressing 1.0 or 2004/08),
/// "" when it has none. The service reads the header when no header handler takes it (and it
/// is not mustUnderstand); a layer that does take it (lather::wsa) gives its value with
/// set_addressing_action().
std::string_view addressing_action(call_context& ctx);
void set_addressing_action(call_context& ctx, std::string_view action);

}  // namespace lather
