// lather/service/current_call.hpp — the context of the call that a type-erased handler
// (service::operation with a message_handler, as lather-wsdl2cpp's generated services register)
// is running for, without a parameter for it. A generated service's methods reach it through
// their class's context(), as a JAX-WS implementation reaches its WebServiceContext.
#pragma once

namespace lather {

class call_context;  // lather/service/service.hpp

/// The context of the call whose message_handler runs on the calling thread (valid until that
/// handler returns). Throws std::logic_error on a thread that runs none.
call_context& current_call_context();

}  // namespace lather
