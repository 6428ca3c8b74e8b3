// lather/mtom.hpp — MTOM/XOP and SwA attachments for lather's clients and services: the
// attachment type for xsd:base64Binary fields, the streaming multipart reader, enable().
// One include for the whole layer; link lather::mtom. See docs/mtom.md.
#pragma once

#include "lather/mtom/attachment.hpp"
#include "lather/mtom/mtom.hpp"
#include "lather/mtom/multipart.hpp"
