// lather/lather.hpp — all of lather: every layer's header. Link lather::lather.
#pragma once

#include "lather/bind.hpp"
#include "lather/byte_buffer.hpp"
#include "lather/dynamic.hpp"
#include "lather/http.hpp"
#include "lather/mtom.hpp"
#include "lather/service.hpp"
#include "lather/soap.hpp"
#include "lather/wsdl.hpp"
#include "lather/wsa.hpp"
#include "lather/wsse.hpp"
#include "lather/xml.hpp"
