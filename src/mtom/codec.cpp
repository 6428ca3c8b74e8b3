// lather::mtom on services (a service::codec) and clients (a client::codec).
#include <memory>
#include <optional>
#include <string>

#include "lather/mtom/mtom.hpp"
#include "lather/service/client.hpp"
#include "lather/service/service.hpp"

#include "message.hpp"

namespace lather::mtom {

namespace {

using detail::message_in;
using detail::message_out;

bool is_multipart_related(std::string_view content_type) {
  const std::optional<media_type> m = parse_media_type(content_type);
  return m && m->type == "multipart/related";
}

using detail::as_sender_fault;

/// One message read and one written, bound to the reader and writer that handle them for as
/// long as they do.
struct message_pair {
  std::optional<message_in> in;
  std::optional<message_out> out;
  const void* reader = nullptr;
  const void* writer = nullptr;

  void open_in(std::string_view content_type, byte_source body, const options& o,
               const xml::reader& r, std::string& envelope_type) {
    in.emplace(content_type, std::move(body), o, envelope_type);
    reader = &r;
    detail::bind_reader(reader, &*in);
  }
  std::string_view open_out(const options& o, soap::version v, std::string_view action) {
    out.emplace(o);
    return out->content_type(v, action);
  }
  void begin_out(xml::writer& w) {
    out->begin(w.out());
    writer = &w;
    detail::bind_writer(writer, &*out);
  }
  void end_in() {
    if (reader) detail::bind_reader(reader, nullptr);
    reader = nullptr;
  }
  void end_out(byte_buffer& b) {
    out->end(b);
    if (writer) detail::bind_writer(writer, nullptr);
    writer = nullptr;
  }
  void drop() noexcept {
    end_in();
    if (writer) detail::bind_writer(writer, nullptr);
    writer = nullptr;
    in.reset();
    out.reset();
  }
};

class server_codec final : public message_codec {
 public:
  explicit server_codec(options o) : opts_(std::move(o)) {}

  bool open_request(call_context& ctx, std::string_view content_type, const byte_source& body,
                    const xml::reader& r, std::string& envelope_type) override {
    if (!is_multipart_related(content_type)) return false;
    as_sender_fault([&] { call(ctx).open_in(content_type, body, opts_, r, envelope_type); });
    return true;
  }
  std::size_t read_envelope(call_context& ctx, char* dest, std::size_t capacity) override {
    message_pair& m = call(ctx);
    return as_sender_fault([&] { return m.in->read_envelope(dest, capacity); });
  }
  void request_read(call_context& ctx) override {
    message_pair& m = call(ctx);
    if (!opts_.stream_parts) as_sender_fault([&] { m.in->read_parts(); });
    m.end_in();
  }
  std::string_view begin_response(call_context& ctx, xml::writer& w) override {
    message_pair& m = call(ctx);
    if (!opts_.send || (opts_.respond_in_kind && !m.in)) return {};
    const std::string_view type = m.open_out(opts_, ctx.version(), {});
    m.begin_out(w);
    return type;
  }
  void end_response(call_context& ctx, byte_buffer& out) override { call(ctx).end_out(out); }
  void end_call(call_context& ctx) noexcept override { call(ctx).drop(); }
  byte_source request_part(call_context& ctx, std::string_view content_id) override {
    message_pair& m = call(ctx);
    if (!m.in) return {};
    return as_sender_fault([&] { return m.in->kept_part(content_id); });
  }

 private:
  struct state final : call_state, message_pair {
    void clear() override { drop(); }
  };
  message_pair& call(call_context& ctx) { return ctx.state<state>(this); }

  options opts_;
};

class client_call final : public client_message {
 public:
  client_call(std::shared_ptr<const options> o, soap::version v, std::string_view action)
      : opts_(std::move(o)), version_(v), action_(action) {}
  ~client_call() override { m_.drop(); }

  std::string_view request_type() override {
    if (!opts_->send) return {};
    return m_.open_out(*opts_, version_, action_);
  }
  void begin_request(xml::writer& w) override { m_.begin_out(w); }
  void end_request(byte_buffer& out) override { m_.end_out(out); }
  bool open_response(std::string_view content_type, const byte_source& body, const xml::reader& r,
                     std::string& envelope_type) override {
    if (!is_multipart_related(content_type)) return false;
    m_.open_in(content_type, body, *opts_, r, envelope_type);
    return true;
  }
  std::size_t read_envelope(char* dest, std::size_t capacity) override {
    return m_.in->read_envelope(dest, capacity);
  }
  void response_read() override {
    if (opts_->on_response_part)
      m_.in->deliver_parts(opts_->on_response_part);
    else
      m_.in->read_parts();
    m_.in->hand_over();  // the response value owns its attachments from here on
    m_.end_in();
  }
  byte_source response_part(std::string_view content_id) override {
    return m_.in ? m_.in->kept_part(content_id) : byte_source{};
  }

 private:
  std::shared_ptr<const options> opts_;
  soap::version version_;
  std::string action_;
  message_pair m_;
};

}  // namespace

void enable(service& s, options o) {
  s.codec(std::make_shared<server_codec>(std::move(o)));
}

void enable(client& c, options o) {
  auto shared = std::make_shared<const options>(std::move(o));
  c.codec([shared](std::string_view, soap::version v,
                   std::string_view action) -> std::unique_ptr<client_message> {
    return std::make_unique<client_call>(shared, v, action);
  });
}

}  // namespace lather::mtom
