// lather/service/empty_body.hpp — the message of a SOAP Body with no element: a WSDL message
// with no body part (no part at all, soap:body parts="", or only soap:header parts), as the
// W3C SOAP 1.2 test suite's emptyBody and echoOk have.
//
//   c.call("ping", lather::empty_body(), nullptr, lather::empty_body(), nullptr, o);
//   svc.operation("ping", lather::empty_body(), lather::empty_body(), handler, o);
//
// A client sends an empty Body and, as the response, accepts an empty Body (a Body element it
// is given is skipped, as clients tolerate what they do not know). A service dispatches an
// empty Body to the operation taking one that SOAPAction (SOAP 1.2: the action parameter)
// names, by its soapAction or its WS-Addressing Action, else that the request's wsa:Action
// header names (lather/service/addressing_action.hpp), else to the only operation
// taking one; with several and no such action it answers a Sender fault naming them (WS-I
// Basic Profile 1.1 R2710 asks for distinct wire signatures, which empty bodies only an action
// gives). Its handler's request and response pointers point to no value; service::find(ns, "",
// action) is that lookup.
#pragma once

namespace lather {

struct message_type;

/// The message_type of an empty Body (compared by address: there is one).
const message_type& empty_body() noexcept;

}  // namespace lather
