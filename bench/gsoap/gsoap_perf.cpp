// bench/gsoap/gsoap_perf.cpp — gSOAP serializing/parsing echoComplexTypeDoc in memory.
//
// The send/receive sequences are the ones soapcpp2 generates in soap_send_/soap_recv_ and
// soap_serve_, minus the socket: gSOAP's fsend/frecv callbacks write to and read from memory.
#include "gsoap_perf.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "gsoap_perf_model.hpp"

struct gsoap_perf_codec::impl {
  explicit impl(gsoap_qname_prefix qname) : payload(qname) {
    // Buffered output (fewer fsend calls), no indentation (the default): gSOAP's fast settings.
    soap_init1(&ctx, SOAP_IO_BUFFER);
    soap_set_namespaces(&ctx, gsoap_perf::namespace_table(qname));
    ctx.user = this;
    ctx.fsend = &impl::append;
    ctx.frecv = &impl::read_input;
    request.in = &seq;
  }
  ~impl() {
    soap_destroy(&ctx);
    soap_end(&ctx);
    soap_done(&ctx);
  }
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;

  static int append(soap* ctx, const char* data, std::size_t size) {
    static_cast<impl*>(ctx->user)->output.append(data, size);
    return SOAP_OK;
  }
  static std::size_t read_input(soap* ctx, char* buffer, std::size_t size) {
    impl& self = *static_cast<impl*>(ctx->user);
    const std::size_t count = std::min(size, self.input.size());
    std::memcpy(buffer, self.input.data(), count);
    self.input.remove_prefix(count);
    return count;
  }

  soap ctx;
  gsoap_perf::cxf_payload payload;
  x1__NestedComplexTypeSeq seq;
  _x1__echoComplexTypeDoc request;
  std::string output;
  std::string_view input;
};

gsoap_perf_codec::gsoap_perf_codec(gsoap_qname_prefix qname)
    : impl_(std::make_unique<impl>(qname)) {}

gsoap_perf_codec::~gsoap_perf_codec() = default;

std::string_view gsoap_perf_codec::serialize(int items) {
  impl& self = *impl_;
  soap* ctx = &self.ctx;
  self.output.clear();
  self.payload.fill(self.seq, items);
  self.request.id = 1;
  struct __tns__echoComplexTypeDoc wrapper;
  wrapper.x1__echoComplexTypeDoc = &self.request;
  soap_begin(ctx);
  ctx->encodingStyle = nullptr;  // document/literal
  soap_serializeheader(ctx);
  soap_serialize___tns__echoComplexTypeDoc(ctx, &wrapper);
  const bool ok =
      soap_begin_send(ctx) == SOAP_OK && soap_envelope_begin_out(ctx) == SOAP_OK &&
      soap_putheader(ctx) == SOAP_OK && soap_body_begin_out(ctx) == SOAP_OK &&
      soap_put___tns__echoComplexTypeDoc(ctx, &wrapper, "-tns:echoComplexTypeDoc", "") == SOAP_OK &&
      soap_body_end_out(ctx) == SOAP_OK && soap_envelope_end_out(ctx) == SOAP_OK &&
      soap_end_send(ctx) == SOAP_OK;
  soap_end(ctx);
  if (!ok) self.output.clear();
  return self.output;
}

bool gsoap_perf_codec::parse(std::string_view xml, int expected_items) {
  impl& self = *impl_;
  soap* ctx = &self.ctx;
  self.input = xml;
  soap_begin(ctx);
  _x1__echoComplexTypeDoc parsed;
  parsed.soap_default(ctx);
  const bool ok = soap_begin_recv(ctx) == SOAP_OK && soap_envelope_begin_in(ctx) == SOAP_OK &&
                  soap_recv_header(ctx) == SOAP_OK && soap_body_begin_in(ctx) == SOAP_OK &&
                  parsed.soap_get(ctx, "x1:echoComplexTypeDoc", nullptr) != nullptr &&
                  soap_body_end_in(ctx) == SOAP_OK && soap_envelope_end_in(ctx) == SOAP_OK &&
                  soap_end_recv(ctx) == SOAP_OK && parsed.in != nullptr &&
                  parsed.in->item.size() == static_cast<std::size_t>(expected_items);
  // gSOAP's per-request cleanup: delete managed C++ objects, then free the rest.
  soap_destroy(ctx);
  soap_end(ctx);
  self.input = {};
  return ok;
}
