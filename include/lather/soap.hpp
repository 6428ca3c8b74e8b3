// lather/soap.hpp — the SOAP layer: envelopes, faults, binding styles, RPC/encoded.
// One include for the whole layer; link lather::soap.
#pragma once

#include "lather/soap/capture.hpp"
#include "lather/soap/encoded.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/soap/error.hpp"
#include "lather/soap/fault.hpp"
#include "lather/soap/fault_of.hpp"
#include "lather/soap/style.hpp"
#include "lather/soap/version.hpp"
