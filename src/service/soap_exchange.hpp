// Internal to lather_service: one SOAP call's reader, response buffer and writer, bound to
// the HTTP request and response in progress (pooled by the server, reused across calls).
#pragma once

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "lather/http/server.hpp"
#include "lather/service/service.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace lather {

inline soap::fault_error sender_fault(std::string reason, std::error_code ec = {}) {
  soap::fault f;
  f.code = soap::fault_code::sender;
  f.reason = std::move(reason);
  return soap::fault_error(std::move(f), ec);
}

// One SOAP call. Reused across calls (pooled); bound to the current HTTP request per call.
class soap_exchange final : public detail::exchange {
 public:
  explicit soap_exchange(const server_options& opts) : body_limit_(opts.body_limit) {
    reader_.set_source(request_body_);
    const std::size_t piece = std::max<std::size_t>(opts.response_chunking.threshold, 1);
    if (opts.response_chunking.never) {
      // The response collects in the HTTP body, sent with its Content-Length at the end; it is
      // bounded like a request body: past body_limit the call fails (a Server fault).
      buf_.set_sink(
          [this, limit = opts.body_limit](std::string_view bytes) {
            if (whole_response_) return collect_response(bytes);
            xml::output& body = res_->body();
            if (body.size() + bytes.size() > limit)
              throw std::length_error("the response exceeds body_limit (" + std::to_string(limit) +
                                      " bytes), the most a never-chunked response may buffer");
            body.append(bytes);
          },
          piece);
      return;
    }
    // Forward the serialized response to the HTTP body through the chunking threshold.
    buf_.set_sink(
        [this](std::string_view bytes) {
          if (whole_response_) return collect_response(bytes);
          // Streaming starts: the status and Content-Type go out with the first chunk.
          if (!head_set_) set_head(200, version_);
          xml::output& body = res_->body();
          body.append(bytes);
          body.maybe_flush();
        },
        piece);
  }

  void bind_call(http::request& req, http::response& res, service& svc, soap::version v,
                 std::string_view action) {
    req_ = &req;
    res_ = &res;
    svc_ = &svc;
    observer_ = nullptr;
    version_ = v;
    action_ = action;
    op_ = nullptr;
    head_set_ = false;
    codec_ = svc.codec();
    if (decoded_) {  // the previous call's envelope came through the codec
      reader_.set_source(request_body_);
      decoded_ = false;
    }
    response_type_ = {};
    response_headers_.clear();
    for (auto& st : states_) st.cleared = false;
    // A large request read whole does not pin its buffer for the life of the server.
    if (request_copy_.capacity() > (4u << 20)) std::string().swap(request_copy_);
    if (response_copy_.capacity() > (4u << 20)) std::string().swap(response_copy_);
    response_copy_.clear();
    divert_ = nullptr;
    diverted_ = false;
    whole_response_ = false;
    for (const auto& ic : svc.interceptors())
      whole_response_ |= static_cast<bool>(ic.whole_response);
    reader_.reset();
    reader_.set_limits(svc.options().xml_limits);
    buf_.clear();
    writer_.reset();
  }

  // ---- call_context ----
  soap::version version() const override { return version_; }
  std::string_view operation() const override { return op_ ? std::string_view(op_->name()) : ""; }
  std::string_view soap_action() const override { return action_; }
  std::string_view http_header(std::string_view name) const override { return req_->header(name); }
  std::string_view remote_user() const override {
    const std::string* u = req_->authenticated_user();
    return u ? std::string_view(*u) : std::string_view{};
  }
  std::string_view remote_address() const override { return req_->remote_address(); }
  std::uint16_t remote_port() const override { return req_->remote_port(); }
  void add_response_header(std::function<void(xml::writer&)> write_entry) override {
    response_headers_.push_back(std::move(write_entry));
  }
  void divert_response(response_taker take) override {
    if (head_set_) throw std::logic_error("divert_response: the response has started");
    divert_ = std::move(take);
    whole_response_ = true;
  }
  byte_source request_part(std::string_view content_id) override {
    return decoded_ ? codec_->request_part(*this, content_id) : byte_source{};
  }
  call_state& state(const void* key, std::unique_ptr<call_state> (*make)()) override {
    for (auto& st : states_)
      if (st.key == key) {
        if (!st.cleared) {
          st.object->clear();
          st.cleared = true;
        }
        return *st.object;
      }
    states_.push_back({key, make(), true});
    return *states_.back().object;
  }

  // ---- exchange ----
  xml::reader& reader() override { return reader_; }
  const bind::read_options& read_options() const override { return svc_->options().read; }
  const bind::write_options& write_options() const override { return svc_->options().write; }
  std::chrono::milliseconds handler_timeout() const override {
    return svc_->options().handler_timeout;
  }
  soap::envelope_reader& envelope() override { return env_; }
  void finish_request(bool body_consumed) override {
    if (!body_consumed && env_.next_body_element()) {
      throw sender_fault("unexpected second Body element {" + std::string(reader_.ns()) + "}" +
                         std::string(reader_.local_name()));
    }
    env_.finish();
    if (decoded_) codec_->request_read(*this);
  }
  xml::writer& begin_response(bool encoded) override {
    if (codec_) response_type_ = codec_->begin_response(*this, writer_);
    response_writer_.emplace(writer_, version_);
    response_writer_->begin(svc_->envelope_starts(), encoded);
    if (!response_headers_.empty()) {
      response_writer_->begin_header();
      for (auto& h : response_headers_) h(writer_);
    }
    response_writer_->begin_body();
    return writer_;
  }
  void end_response() override {
    response_writer_->end();
    response_writer_.reset();
    if (!response_type_.empty()) codec_->end_response(*this, buf_);
    // A response that already streams is complete: its last chunk goes out now, not when the
    // call returns, so the client does not wait while the operation frees a large message's
    // objects (32,000 CXF items take ~10 ms to free).
    if (head_set_) {
      buf_.flush();
      if (observer_) observer_->response_complete();
      res_->finish();
    }
  }
  void accept_one_way() override { one_way_ = true; }
  [[noreturn]] void request_error(const bind::error_info& e) override {
    throw sender_fault(e.message, make_error_code(e.code));
  }

  // ---- driving a call ----
  /// A request whose Content-Type is not a SOAP type, offered to the service's codec: false
  /// when it refuses it; else the envelope is read through it from now on.
  bool open_with_codec(std::string_view content_type) {
    if (!codec_) return false;
    if (!codec_->open_request(*this, content_type, request_body_, reader_, envelope_type_))
      return false;
    decoded_ = true;
    reader_.set_source(codec_envelope_);
    return true;
  }

  /// Reads the whole request body (for interceptors that need it before anything is
  /// processed) and points the reader at it.
  std::string_view read_whole_request() {
    request_copy_.clear();
    constexpr std::size_t piece = 16384;
    for (;;) {
      const std::size_t used = request_copy_.size();
      request_copy_.resize(used + piece);
      char* dest = request_copy_.data() + used;
      const std::size_t n =
          decoded_ ? codec_->read_envelope(*this, dest, piece) : req_->read_body(dest, piece);
      request_copy_.resize(used + n);
      if (n == 0) break;
    }
    reader_.reset(request_copy_);
    return request_copy_;
  }

  /// Whole-response mode: the serialized response, collected instead of streamed, goes through
  /// the interceptors that rewrite it, then to the HTTP body (sent with its Content-Length).
  void rewrite_whole_response() {
    response_copy_.append(buf_.view());
    buf_.clear();
    for (const auto& ic : svc_->interceptors())
      if (ic.whole_response) ic.whole_response(*this, response_copy_);
    if (divert_) {
      const response_taker take = std::move(divert_);
      divert_ = nullptr;  // a fault its taker throws goes back on the HTTP response
      if (take(false, content_type(), response_copy_)) {
        diverted_ = true;
        return;
      }
    }
    res_->body().append(response_copy_);
  }
  /// The Content-Type of the response being written (a codec's, else the SOAP version's).
  std::string_view content_type() const noexcept {
    return response_type_.empty() ? soap::content_type_utf8(version_) : response_type_;
  }
  void collect_response(std::string_view bytes) {
    if (response_copy_.size() + bytes.size() > body_limit_)
      throw std::length_error("the response exceeds body_limit (" + std::to_string(body_limit_) +
                              " bytes), the most a response rewritten whole may buffer");
    response_copy_.append(bytes);
  }

  void set_head(unsigned status, soap::version v) {
    head_set_ = true;
    if (status != 200) res_->set_status(status);
    // The SOAP media types, checked once for every call.
    static const http::header_line content_type[2] = {
        {"Content-Type", soap::content_type_utf8(soap::version::soap11)},
        {"Content-Type", soap::content_type_utf8(soap::version::soap12)}};
    if (status == 202) return;
    if (!response_type_.empty())
      res_->set_header("Content-Type", response_type_);
    else
      res_->set_header(content_type[v == soap::version::soap12]);
  }
  /// Told when the call's response is complete, just before end_response sends it: it does so
  /// for every response the sink forwarded (all but those collected whole, since the
  /// envelope's end flushes the sink); the HTTP layer sends the others once the call returns.
  struct response_observer {
    virtual void response_complete() = 0;

   protected:
    ~response_observer() = default;
  };
  response_observer* observer_ = nullptr;  // set per call, after bind_call
  bool head_set_ = false;
  const operation_entry* op_ = nullptr;
  bool one_way_ = false;
  xml::reader reader_;
  soap::envelope_reader env_{reader_};  // kept with the reader: its scope strings stay warm
  xml::output buf_;
  xml::writer writer_{buf_};
  std::optional<soap::envelope_writer> response_writer_;
  std::vector<std::function<void(xml::writer&)>> response_headers_;
  // call_context::state objects, kept with the pooled exchange (few: one per user).
  struct keyed_state {
    const void* key;
    std::unique_ptr<call_state> object;
    bool cleared;  // in the current call
  };
  std::vector<keyed_state> states_;
  std::string request_copy_;     // the request, when an interceptor needs it whole
  bool whole_response_ = false;  // an interceptor rewrites each response whole
  std::string response_copy_;    // the response then, collected whole
  // divert_response: who takes this call's response, and whether it took it (answer 202).
  response_taker divert_;
  bool diverted_ = false;
  std::size_t body_limit_;
  // service::codec: the service's codec, whether it decodes this request, the SOAP type of
  // the envelope it carries and the Content-Type of an encoded response ("" = plain).
  message_codec* codec_ = nullptr;
  bool decoded_ = false;
  std::string envelope_type_;
  std::string_view response_type_;
  // The reader's sources: the HTTP body, or the envelope a codec decodes from it.
  const byte_source request_body_{
      [this](char* dest, std::size_t n) { return req_->read_body(dest, n); }};
  const byte_source codec_envelope_{
      [this](char* dest, std::size_t n) { return codec_->read_envelope(*this, dest, n); }};
  http::request* req_ = nullptr;
  http::response* res_ = nullptr;
  service* svc_ = nullptr;
  soap::version version_ = soap::version::soap11;
  std::string_view action_;
};

}  // namespace lather
