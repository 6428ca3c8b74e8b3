// lather/service/detail/streaming_operation.hpp — the template half of streaming handlers
// (lather/service/sequence.hpp): the request is read with bind::struct_reader (its head
// fields, then its items one at a time as the body arrives); the response is written head
// first, then item by item.
#pragma once

#include <optional>
#include <stdexcept>
#include <utility>

#include "lather/bind/bind.hpp"
#include "lather/service/detail/typed_operation.hpp"
#include "lather/service/sequence.hpp"
#include "lather/xml/reader.hpp"

namespace lather::detail {

/// A streamed message being read (the server's request, the client's response): the head,
/// then the items on demand, through bind::struct_reader. Binding errors throw bind::error
/// with the element path.
template <class Req>
class message_stream final : public item_source<typename stream_field<Req>::item> {
 public:
  using item = typename stream_field<Req>::item;

  /// `r` is on the message element's start tag; `items` holds the one reused item.
  message_stream(xml::reader& r, const bind::read_options& opts, Req& head, Req& items)
      : in_(r, head, opts), item_(slot(items)) {}

  /// Bind the wrapper's attributes and the fields before the sequence into the head.
  void read_head() { throw_if(in_.read_head()); }

  item* next() override {
    if (in_.next(item_)) return &item_;
    throw_if(in_.finish());  // the end of the sequence, or the error that ended it
    return nullptr;
  }
  std::size_t count() const noexcept override { return in_.count(); }

  /// Skip the items the handler left unread, through the wrapper's end tag.
  void drain() { throw_if(in_.finish()); }

 private:
  static item& slot(Req& items) {
    auto& sequence = items.*(stream_field<Req>::field.member);
    if (sequence.empty()) sequence.emplace_back();
    return sequence.front();
  }
  static void throw_if(bind::error_info e) {
    if (e) throw bind::error(std::move(e));
  }

  bind::struct_reader<Req, stream_field<Req>::field.member> in_;
  item& item_;
};

/// The writer of a streamed message's parts (the sequence is its last field: nothing follows).
template <class Msg>
using message_writer = bind::struct_writer<Msg, stream_field<Msg>::field.member>;

/// Items pushed into a message whose head is written already (the client's request).
template <class Msg>
class body_sink final : public item_sink<Msg, typename stream_field<Msg>::item> {
 public:
  using item = typename stream_field<Msg>::item;
  explicit body_sink(message_writer<Msg>& out) : out_(out) {}
  void begin(const Msg&) override {
    throw std::logic_error("sequence_writer::begin(): the request's head is the call's argument");
  }
  void push(const item& it) override { out_.write_item(it); }

 private:
  message_writer<Msg>& out_;
};

/// The response side of a streaming call: the wrapper and head fields once, then each item.
template <class Resp>
class response_stream final : public item_sink<Resp, typename stream_field<Resp>::item> {
 public:
  using item = typename stream_field<Resp>::item;
  response_stream(exchange& x, const operation_entry& op) : x_(x), op_(op) {}

  void begin(const Resp& head) override {
    if (out_) throw std::logic_error("sequence_writer::begin() after the response has begun");
    w_ = &start_literal(x_, op_);
    out_.emplace(*w_);
    out_->write_head(head);
  }
  void push(const item& it) override {
    if (!out_) begin(Resp{});
    out_->write_item(it);
  }
  void finish() {
    if (!out_) begin(Resp{});
    w_->end_element();
    x_.end_response();
  }

 private:
  exchange& x_;
  const operation_entry& op_;
  xml::writer* w_ = nullptr;
  std::optional<message_writer<Resp>> out_;
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
