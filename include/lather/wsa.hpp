// lather/wsa.hpp — WS-Addressing 1.0 and the 2004/08 submission for lather's clients and
// services: MessageID, RelatesTo, To, Action, ReplyTo/FaultTo, reference parameters, the
// WS-Addressing faults. One include for the whole layer; link lather::wsa. See docs/wsa.md.
#pragma once

#include "lather/wsa/addressing.hpp"
#include "lather/wsa/client.hpp"
#include "lather/wsa/fault.hpp"
#include "lather/wsa/server.hpp"
