// lather-bench-xml — lather's reader vs expat (namespace mode) vs libxml2 (SAX2), plus lather's
// writer, on the documents of documents.hpp (issue #2).
//
// Correctness first: before anything is timed, every parser must accept every document and
// lather's reader must report the same elements, attributes and text bytes as expat. A parser
// that fails the check has its benchmarks reported as errors instead of figures.
//
// `--parses=N [--document=NAME|FILE]` parses each document (or the one named, or a file) N times
// with lather's reader and exits, timing nothing: instruction counts under callgrind are
// (run with 12 parses - run with 2 parses) / 10, stable on a loaded machine.
#include <benchmark/benchmark.h>
#include <expat.h>
#include <libxml/parser.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "documents.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace {

using lather::bench::xml_document;

struct event_counts {
  std::size_t elements = 0;
  std::size_t attributes = 0;
  std::size_t text_bytes = 0;
  bool operator==(const event_counts&) const = default;
};

std::string describe(const event_counts& c) {
  return std::to_string(c.elements) + " elements, " + std::to_string(c.attributes) +
         " attributes, " + std::to_string(c.text_bytes) + " text bytes";
}

// ---- lather --------------------------------------------------------------------------------

// Parses `doc`; returns false (with a message) if the reader reports an error.
bool lather_parse(lather::xml::reader& r, std::string_view doc, event_counts* counts,
                  std::string* message) {
  using lather::xml::token;
  r.reset(doc);
  for (token t = r.next(); t != token::end_document; t = r.next()) {
    if (t == token::error) {
      if (message != nullptr) *message = r.error().message();
      return false;
    }
    if (counts == nullptr) continue;
    if (t == token::start_element) {
      ++counts->elements;
      counts->attributes += r.attributes().size();
    } else if (t == token::text) {
      counts->text_bytes += r.text().size();
    }
  }
  return true;
}

// ---- expat ---------------------------------------------------------------------------------

void XMLCALL expat_start_empty(void*, const XML_Char*, const XML_Char**) {}
void XMLCALL expat_end_empty(void*, const XML_Char*) {}
void XMLCALL expat_text_empty(void*, const XML_Char*, int) {}

void XMLCALL expat_start_count(void* user, const XML_Char*, const XML_Char** atts) {
  auto* c = static_cast<event_counts*>(user);
  ++c->elements;
  for (; *atts != nullptr; atts += 2) ++c->attributes;
}
void XMLCALL expat_text_count(void* user, const XML_Char*, int len) {
  static_cast<event_counts*>(user)->text_bytes += static_cast<std::size_t>(len);
}

struct expat_parser {
  XML_Parser p = XML_ParserCreateNS(nullptr, '\x01');
  expat_parser() = default;
  expat_parser(const expat_parser&) = delete;
  expat_parser& operator=(const expat_parser&) = delete;
  ~expat_parser() { XML_ParserFree(p); }

  bool parse(std::string_view doc, event_counts* counts) {
    XML_ParserReset(p, nullptr);  // keeps namespace mode, clears handlers
    if (counts != nullptr) {
      XML_SetUserData(p, counts);
      XML_SetElementHandler(p, expat_start_count, expat_end_empty);
      XML_SetCharacterDataHandler(p, expat_text_count);
    } else {
      XML_SetElementHandler(p, expat_start_empty, expat_end_empty);
      XML_SetCharacterDataHandler(p, expat_text_empty);
    }
    return XML_Parse(p, doc.data(), static_cast<int>(doc.size()), XML_TRUE) == XML_STATUS_OK;
  }
};

// ---- libxml2 -------------------------------------------------------------------------------

void libxml2_start(void*, const xmlChar*, const xmlChar*, const xmlChar*, int, const xmlChar**, int,
                   int, const xmlChar**) {}
void libxml2_end(void*, const xmlChar*, const xmlChar*, const xmlChar*) {}
void libxml2_text(void*, const xmlChar*, int) {}
void libxml2_error(void*, xmlErrorPtr) {}

struct libxml2_parser {
  xmlSAXHandler sax{};
  xmlParserCtxtPtr ctxt = nullptr;
  libxml2_parser() {
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = libxml2_start;
    sax.endElementNs = libxml2_end;
    sax.characters = libxml2_text;
    sax.cdataBlock = libxml2_text;
    sax.serror = libxml2_error;  // keep errors off stderr; wellFormed tells the outcome
    ctxt = xmlCreatePushParserCtxt(&sax, nullptr, nullptr, 0, nullptr);
    xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_HUGE);
  }
  libxml2_parser(const libxml2_parser&) = delete;
  libxml2_parser& operator=(const libxml2_parser&) = delete;
  ~libxml2_parser() { xmlFreeParserCtxt(ctxt); }

  bool parse(std::string_view doc) {
    xmlCtxtResetPush(ctxt, nullptr, 0, nullptr, nullptr);
    xmlParseChunk(ctxt, doc.data(), static_cast<int>(doc.size()), 1);
    return ctxt->wellFormed != 0;
  }
};

// ---- benchmarks ----------------------------------------------------------------------------

void bm_lather(benchmark::State& state, const xml_document* doc, const std::string* problem) {
  if (!problem->empty()) {
    state.SkipWithError(problem->c_str());
    return;
  }
  lather::xml::reader r;
  for (auto _ : state) benchmark::DoNotOptimize(lather_parse(r, doc->bytes, nullptr, nullptr));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * doc->bytes.size()));
}

void bm_expat(benchmark::State& state, const xml_document* doc) {
  expat_parser p;
  for (auto _ : state) benchmark::DoNotOptimize(p.parse(doc->bytes, nullptr));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * doc->bytes.size()));
}

void bm_libxml2(benchmark::State& state, const xml_document* doc) {
  libxml2_parser p;
  for (auto _ : state) benchmark::DoNotOptimize(p.parse(doc->bytes));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * doc->bytes.size()));
}

void bm_writer(benchmark::State& state, int items) {
  const lather::bench::cxf_binary_values bin;
  lather::xml::output out;
  lather::xml::writer w{out};
  std::size_t bytes = 0;
  for (auto _ : state) {
    out.clear();
    w.reset();
    lather::bench::write_cxf_echo_complex_request(w, bin, items);
    bytes = out.size();
    benchmark::DoNotOptimize(out.view().data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}

}  // namespace

// The `--parses` mode: returns the exit status.
int count_parses(const std::vector<xml_document>& docs, long parses, std::string_view document) {
  std::vector<xml_document> chosen;
  for (const xml_document& d : docs) {
    if (document.empty() || d.name == document) chosen.push_back(d);
  }
  if (chosen.empty()) {
    std::ifstream in{std::string(document), std::ios::binary};
    if (!in) {
      std::fprintf(stderr, "no benchmark document or file named %.*s\n",
                   static_cast<int>(document.size()), document.data());
      return 2;
    }
    std::ostringstream bytes;
    bytes << in.rdbuf();
    chosen.push_back({std::string(document), bytes.str()});
  }
  lather::xml::reader reader;
  for (const xml_document& d : chosen) {
    for (long i = 0; i < parses; ++i) {
      std::string message;
      if (!lather_parse(reader, d.bytes, nullptr, &message)) {
        std::fprintf(stderr, "lather rejects %s: %s\n", d.name.c_str(), message.c_str());
        return 1;
      }
    }
  }
  return 0;
}

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  static const std::vector<xml_document> docs = lather::bench::benchmark_documents();
  {
    long parses = -1;
    std::string_view document;
    for (int i = 1; i < argc; ++i) {
      const std::string_view arg = argv[i];
      if (arg.starts_with("--parses=")) {
        parses = std::strtol(argv[i] + 9, nullptr, 10);
      } else if (arg.starts_with("--document=")) {
        document = arg.substr(11);
      } else {
        std::fprintf(stderr, "unknown option %s\n", argv[i]);
        return 2;
      }
    }
    if (parses >= 0) return count_parses(docs, parses, document);
  }
  xmlInitParser();

  static std::vector<std::string> lather_problems(docs.size());
  bool all_ok = true;
  {
    expat_parser expat;
    libxml2_parser libxml2;
    lather::xml::reader reader;
    for (std::size_t i = 0; i < docs.size(); ++i) {
      const xml_document& d = docs[i];
      event_counts expat_counts;
      if (!expat.parse(d.bytes, &expat_counts)) {
        std::fprintf(stderr, "FATAL: expat rejects %s: %s\n", d.name.c_str(),
                     XML_ErrorString(XML_GetErrorCode(expat.p)));
        return 1;
      }
      if (!libxml2.parse(d.bytes)) {
        std::fprintf(stderr, "FATAL: libxml2 rejects %s\n", d.name.c_str());
        return 1;
      }
      event_counts lather_counts;
      std::string message;
      if (!lather_parse(reader, d.bytes, &lather_counts, &message)) {
        lather_problems[i] = "lather rejects " + d.name + ": " + message;
      } else if (!(lather_counts == expat_counts)) {
        lather_problems[i] = "lather/expat disagree on " + d.name + ": " + describe(lather_counts) +
                             " vs " + describe(expat_counts);
      }
      if (!lather_problems[i].empty()) {
        std::fprintf(stderr, "CHECK FAILED: %s\n", lather_problems[i].c_str());
        all_ok = false;
      }
      std::fprintf(stderr, "checked %-18s %9zu bytes: %s\n", d.name.c_str(), d.bytes.size(),
                   describe(expat_counts).c_str());
    }
  }

  for (std::size_t i = 0; i < docs.size(); ++i) {
    const xml_document* d = &docs[i];
    benchmark::RegisterBenchmark(("parse/lather/" + d->name).c_str(), bm_lather, d,
                                 &lather_problems[i]);
    benchmark::RegisterBenchmark(("parse/expat/" + d->name).c_str(), bm_expat, d);
    benchmark::RegisterBenchmark(("parse/libxml2/" + d->name).c_str(), bm_libxml2, d);
  }
  benchmark::RegisterBenchmark("write/lather/cxf-complex-100", bm_writer, 100);

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  xmlCleanupParser();
  return all_ok ? 0 : 2;
}
