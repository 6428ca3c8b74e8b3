// lather/service/detail/streaming_operation.hpp — the template half of streaming handlers
// (lather/service/sequence.hpp): the request's head fields are bound with the binding's own
// field table, then its items one at a time as the body arrives; the response is written
// head first, then item by item.
#pragma once

#include <array>
#include <cstring>
#include <stdexcept>
#include <string>

#include "lather/service/detail/typed_operation.hpp"
#include "lather/service/sequence.hpp"
#include "lather/xml/error.hpp"
#include "lather/xml/reader.hpp"

namespace lather::detail {

/// Req's field table with the streamed field turned into a stop mark: reading a wrapper with
/// it binds the head fields (order, occurrences, nil, attributes: the binding's own rules)
/// and returns on the first item's start tag, item unread (failure with no error set).
template <class Req>
struct head_table {
  static bool stop(bind::detail::read_ctx&, void*, std::uint32_t, std::uint32_t) { return false; }
  static constexpr auto fields = [] {
    auto m = bind::detail::complex_vt_of<Req>::matches;
    m[stream_field<Req>::index].read_elem = &stop;
    m[stream_field<Req>::index].read_leaf = nullptr;  // simple items: not read whole either
    return m;
  }();
  static constexpr bind::detail::complex_vt vt = [] {
    bind::detail::complex_vt v = bind::detail::complex_vt_of<Req>::value;
    v.fields = fields.data();
    return v;
  }();
};

/// A streamed message being read (the server's request, the client's response): the head,
/// then the items on demand. Binding errors throw bind::error with the element path.
template <class Req>
class message_stream final : public item_source<typename stream_field<Req>::item> {
 public:
  using item = typename stream_field<Req>::item;

  /// `r` is on the message element's start tag.
  message_stream(xml::reader& r, const bind::read_options& opts, Req& head, Req& items)
      : r_(r), opts_(opts), wrapper_(r.local_name()), head_(head), items_(items) {}

  /// Bind the wrapper's attributes and the fields before the sequence into the head.
  void read_head() {
    bind::detail::read_ctx c{r_, opts_};
    std::array<std::uint32_t, bind::field_count<Req>> counts;
    if (!bind::detail::begin_read(c)) fail(bind::detail::finish_read(c));
    if (bind::detail::read_complex_body(c, head_table<Req>::vt, &head_, counts.data())) {
      at_ = position::done;  // the wrapper ended: no items
      return;
    }
    if (c.code != bind::errc::ok) fail(bind::detail::finish_read(c));
    // Stopped on the first item: reset the head fields that did not occur (pooled object).
    bind::detail::complex_vt_of<Req>::value.finalize(&head_, counts.data());
    at_ = position::on_item;
  }

  item* next() override {
    xml::reader& r = r_;
    if (at_ == position::done) return nullptr;
    if (at_ == position::after_item && !next_element(r)) return nullptr;
    constexpr const auto& f = stream_field<Req>::field;
    if (!r.is(f.ns, f.name)) {
      bind::error_info e;
      e.code = bind::errc::unexpected_element;
      e.path = "/" + wrapper_ + "/" + std::string(r.local_name());
      e.message = e.path + ": unexpected element {" + std::string(r.ns()) + "}" +
                  std::string(r.local_name()) + "; expected '" + std::string(f.name) + "'";
      fail(std::move(e));
    }
    at_ = position::after_item;
    bind::detail::read_ctx c{r, opts_};
    c.root_size = static_cast<std::uint32_t>(std::min(wrapper_.size(), c.root.size()));
    std::memcpy(c.root.data(), wrapper_.data(), c.root_size);
    c.depth = 1;
    const auto& match = bind::detail::complex_vt_of<Req>::matches[stream_field<Req>::index];
    if (!match.read_elem(c, &items_, 0, 0)) {
      c.segments.emplace_back(f.name, static_cast<std::uint32_t>(count_ + 1));
      fail(bind::detail::finish_read(c));
    }
    ++count_;
    return &(items_.*(f.member))[0];
  }
  std::size_t count() const noexcept override { return count_; }

  /// Skip the items the handler left unread, through the wrapper's end tag.
  void drain() {
    xml::reader& r = r_;
    if (at_ == position::on_item) {
      skip(r);
      at_ = position::after_item;
    }
    if (at_ == position::after_item)
      while (next_element(r)) skip(r);
    at_ = position::done;
  }

 private:
  enum class position { on_item, after_item, done };

  // From an end tag to the next child's start tag (true) or the wrapper's end tag (false).
  bool next_element(xml::reader& r) {
    for (;;) {
      const xml::token t = r.next();
      if (t == xml::token::start_element) return true;
      if (t == xml::token::end_element) {
        at_ = position::done;
        return false;
      }
      if (t != xml::token::text) throw xml::error(r.error());
      if (r.text().find_first_not_of(" \t\r\n") != std::string_view::npos)
        fail({bind::errc::unexpected_element, "/" + wrapper_,
              "/" + wrapper_ + ": unexpected text in element-only content"});
    }
  }
  static void skip(xml::reader& r) {
    if (r.skip_element() == xml::token::error) throw xml::error(r.error());
  }

  [[noreturn]] static void fail(bind::error_info e) { throw bind::error(std::move(e)); }

  xml::reader& r_;
  const bind::read_options& opts_;
  const std::string wrapper_;
  Req& head_;
  Req& items_;  // its sequence holds the one reused item
  std::size_t count_ = 0;
  position at_ = position::done;
};

/// Items pushed into a message whose head is written already (the client's request).
template <class Msg>
class body_sink final : public item_sink<Msg, typename stream_field<Msg>::item> {
 public:
  using item = typename stream_field<Msg>::item;
  explicit body_sink(xml::writer& w) : w_(w) {}
  void begin(const Msg&) override {
    throw std::logic_error("sequence_writer::begin(): the request's head is the call's argument");
  }
  void push(const item& it) override {
    constexpr const auto& f = stream_field<Msg>::field;
    bind::write(w_, f.ns, f.name, it);
  }

 private:
  xml::writer& w_;
};

/// The response side of a streaming call: the wrapper and head fields once, then each item.
template <class Resp>
class response_stream final : public item_sink<Resp, typename stream_field<Resp>::item> {
 public:
  using item = typename stream_field<Resp>::item;
  response_stream(exchange& x, const operation_entry& op) : x_(x), op_(op) {}

  void begin(const Resp& head) override {
    if (w_) throw std::logic_error("sequence_writer::begin() after the response has begun");
    w_ = &begin_literal(x_, op_, head);
  }
  void push(const item& it) override {
    if (!w_) begin(Resp{});
    constexpr const auto& f = stream_field<Resp>::field;
    bind::write(*w_, f.ns, f.name, it);
  }
  void finish() {
    if (!w_) begin(Resp{});
    w_->end_element();
    x_.end_response();
  }

 private:
  exchange& x_;
  const operation_entry& op_;
  xml::writer* w_ = nullptr;
};

/// An operation whose handler takes a sequence_reader (In), a sequence_writer (Out) or both.
/// Resp is the response message (no_response: one-way).
template <class Req, class Resp, class F, bool Ctx, bool In, bool Out>
class streaming_operation final : public operation_entry {
 public:
  streaming_operation(std::string name, F fn, operation_options opts, std::string_view tns)
      : fn_(std::move(fn)) {
    if (opts.style == soap::style::rpc_encoded)
      throw std::invalid_argument("operation " + name +
                                  ": streaming handlers take literal messages, not rpc/encoded");
    constexpr bool one_way = std::is_same_v<Resp, no_response>;
    set_names(std::move(name), std::move(opts), tns, meta<Req>::name, meta<Req>::ns,
              message_type_name<Resp>(), one_way);
  }

  void invoke(exchange& x) override {
    auto s = pool_.take();
    if constexpr (In) {
      message_stream<Req> in{x.reader(), x.read_options(), s->head, s->items};
      in.read_head();
      sequence_reader<typename message_stream<Req>::item> items{in};
      if constexpr (Out) {
        response_stream<Resp> sink{x, *this};
        sequence_writer<Resp> out{sink};
        call_handler<Ctx>(fn_, x, s->head, items, out);
        in.drain();
        x.finish_request(false);
        sink.finish();
      } else if constexpr (std::is_same_v<Resp, no_response>) {
        call_handler<Ctx>(fn_, x, s->head, items);
        in.drain();
        x.finish_request(false);
        x.accept_one_way();
      } else {
        s->resp = call_handler<Ctx>(fn_, x, s->head, items);
        in.drain();
        x.finish_request(false);
        write_literal(x, *this, s->resp);
      }
    } else {
      read_literal(x, *this, s->head);
      x.finish_request(false);
      response_stream<Resp> sink{x, *this};
      sequence_writer<Resp> out{sink};
      call_handler<Ctx>(fn_, x, s->head, out);
      sink.finish();
    }
  }

  void describe(wsdl_builder& b) const override;

 private:
  struct slot {
    Req head{}, items{};
    std::conditional_t<In && !Out, Resp, no_response> resp{};
  };

  F fn_;
  object_pool<slot> pool_;
};

}  // namespace lather::detail
