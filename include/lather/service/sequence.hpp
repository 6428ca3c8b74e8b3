// lather/service/sequence.hpp — typed streaming handlers: a request sequence read lazily,
// item by item, while the body arrives; a response sequence written item by item into the
// (chunked) response. A 1 GB message goes through in bounded memory.
//
//   struct upload { std::string name; std::vector<Row> row; };          // meta<upload> as usual
//   svc.operation("upload", [](const upload& head, lather::sequence_reader<Row> rows) {
//     std::size_t n = 0;
//     for (const Row& r : rows) n += consume(r);   // each r is bound as soon as it has arrived
//     return uploadResponse{head.name, n};
//   });
//
//   struct dumpResponse { std::int32_t total; std::vector<Row> row; };
//   svc.operation("dump", [](const dump& in, lather::sequence_writer<dumpResponse>& out) {
//     out.begin({.total = in.count});              // the fields before the sequence
//     for (int i = 0; i < in.count; ++i) out.push(make_row(i));   // serialized right away
//   });
//
// The streamed sequence is the LAST field of the request / response struct (a std::vector of
// elements); the other fields keep their places. The messages, wrapper elements and WSDL are
// exactly those of the same operation written with plain structs (the sequence is a
// maxOccurs="unbounded" element), so peers call a streaming operation like any other. Inside
// the handler the head struct's sequence is empty.
//
// Reading: an item that fails to bind ends the iteration with the usual Client fault naming
// its path (/upload/row[12345]/id). A handler that stops early gets the rest of the body read
// and discarded before its response goes out (the client can finish sending). Writing: once
// the first bytes are on the wire an exception can only cut the connection (the client sees a
// truncated message, never a bogus success).
#pragma once

#include <cstddef>
#include <iterator>
#include <tuple>
#include <type_traits>

#include "lather/bind/meta.hpp"

namespace lather {

namespace detail {
/// The streamed field of message type T: its last field, a sequence of elements.
template <class T>
struct stream_field {
  static constexpr std::size_t index = bind::field_count<T> - 1;
  static constexpr const auto& field = std::get<index>(bind::fields_of<T>);
  using member = typename std::remove_cvref_t<decltype(field)>::member_type;
  static_assert(field.kind == bind::field_kind::element && bind::shape<member>::is_vector,
                "the streamed sequence must be the message struct's last field, a std::vector "
                "bound as an element");
  using item = bind::slot_type<member>;
};

/// The operation's side of a request sequence (detail/streaming_operation.hpp).
template <class Item>
class item_source {
 public:
  /// Read the next item; nullptr at the end of the sequence.
  virtual Item* next() = 0;
  virtual std::size_t count() const noexcept = 0;

 protected:
  ~item_source() = default;
};
/// The operation's side of a response sequence.
template <class Head, class Item>
class item_sink {
 public:
  virtual void begin(const Head& head) = 0;
  virtual void push(const Item& item) = 0;

 protected:
  ~item_sink() = default;
};
}  // namespace detail

/// A request sequence read lazily: an input range over items bound one at a time into one
/// reused object (take or move from it freely; the next item overwrites it).
template <class Item>
class sequence_reader {
 public:
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = Item;
    using difference_type = std::ptrdiff_t;
    using pointer = Item*;
    using reference = Item&;
    iterator() = default;
    Item& operator*() const { return *item_; }
    Item* operator->() const { return item_; }
    iterator& operator++() {
      item_ = src_->next();
      return *this;
    }
    void operator++(int) { ++*this; }
    bool operator==(std::default_sentinel_t) const noexcept { return item_ == nullptr; }

   private:
    friend class sequence_reader;
    iterator(detail::item_source<Item>* src, Item* item) : src_(src), item_(item) {}
    detail::item_source<Item>* src_ = nullptr;
    Item* item_ = nullptr;
  };

  explicit sequence_reader(detail::item_source<Item>& src) : src_(&src) {}
  /// Reads the next item (iteration continues where the previous one stopped).
  iterator begin() { return {src_, src_->next()}; }
  std::default_sentinel_t end() const noexcept { return {}; }
  /// Pull style: the next item, or nullptr at the end of the sequence.
  Item* next() { return src_->next(); }
  /// Items read so far.
  std::size_t count() const noexcept { return src_->count(); }

 private:
  detail::item_source<Item>* src_;
};

/// A response written as it is produced: the wrapper and the fields before the sequence, then
/// one element per push(), each serialized straight into the response stream.
template <class Resp>
class sequence_writer {
 public:
  using item_type = typename detail::stream_field<Resp>::item;
  explicit sequence_writer(detail::item_sink<Resp, item_type>& sink) : sink_(&sink) {}
  sequence_writer(const sequence_writer&) = delete;
  sequence_writer& operator=(const sequence_writer&) = delete;
  /// Write the fields of `head` that precede the sequence (its sequence is ignored). At most
  /// once, before the first push(); without it the first push() writes a default Resp head.
  void begin(const Resp& head) { sink_->begin(head); }
  void push(const item_type& item) { sink_->push(item); }
  void operator()(const item_type& item) { push(item); }

 private:
  detail::item_sink<Resp, item_type>* sink_;
};

template <class T>
struct is_sequence_reader : std::false_type {};
template <class Item>
struct is_sequence_reader<sequence_reader<Item>> : std::true_type {
  using item = Item;
};
template <class T>
struct is_sequence_writer : std::false_type {};
template <class Resp>
struct is_sequence_writer<sequence_writer<Resp>> : std::true_type {
  using type = Resp;
};

}  // namespace lather
