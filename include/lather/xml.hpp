// lather/xml.hpp — the XML layer: pull reader, streaming writer, their errors.
// One include for the whole layer; link lather::xml.
#pragma once

#include "lather/xml/bytes.hpp"
#include "lather/xml/error.hpp"
#include "lather/xml/name.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"
