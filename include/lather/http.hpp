// lather/http.hpp — the HTTP/1.1 layer: server and pooled client, optional TLS.
// One include for the whole layer; link lather::http.
#pragma once

#include "lather/http/client.hpp"
#include "lather/http/error.hpp"
#include "lather/http/options.hpp"
#include "lather/http/server.hpp"
