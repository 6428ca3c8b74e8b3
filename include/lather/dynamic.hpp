// lather/dynamic.hpp — the dynamic layer: call any WSDL's operations with no generated code
// (lather::dynamic_client) with values that convert to and from JSON. One include for the
// layer; link lather::dynamic.
#pragma once

#include "lather/dynamic/client.hpp"
#include "lather/dynamic/value.hpp"
