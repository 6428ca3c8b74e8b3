// lather/service.hpp — code-first services and clients: lather::service, lather::server,
// lather::client, WSDL. One include for the whole layer; link lather::service.
#pragma once

#include "lather/service/addressing_action.hpp"
#include "lather/service/call_options.hpp"
#include "lather/service/client.hpp"
#include "lather/service/current_call.hpp"
#include "lather/service/empty_body.hpp"
#include "lather/service/future.hpp"
#include "lather/service/message_type.hpp"
#include "lather/service/reply.hpp"
#include "lather/service/sequence.hpp"
#include "lather/service/server.hpp"
#include "lather/service/service.hpp"
#include "lather/service/wsdl.hpp"
