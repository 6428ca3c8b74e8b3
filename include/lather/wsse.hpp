// lather/wsse.hpp — WS-Security 1.0/1.1 for lather's clients and services: UsernameToken
// (PasswordText, PasswordDigest), Timestamp, replay cache, the WS-Security faults.
// One include for the whole layer; link lather::wsse. See docs/wsse.md.
#pragma once

#include "lather/wsse/c14n.hpp"
#include "lather/wsse/client.hpp"
#include "lather/wsse/fault.hpp"
#include "lather/wsse/openssl_cache.hpp"
#include "lather/wsse/policy.hpp"
#include "lather/wsse/server.hpp"
#include "lather/wsse/signature.hpp"
