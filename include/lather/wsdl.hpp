// lather/wsdl.hpp — the WSDL layer: read WSDL 1.1 contracts and their schemas into a resolved
// model, and generate C++ from it (lather-wsdl2cpp). One include for the layer; link lather::wsdl.
#pragma once

#include "lather/wsdl/generate.hpp"
#include "lather/wsdl/load.hpp"
#include "lather/wsdl/model.hpp"
#include "lather/wsdl/sample.hpp"
