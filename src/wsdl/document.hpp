// A read-only element tree of one WSDL/XSD document, built with lather::xml::reader.
//
// Contracts are small (vSphere, the largest we know, is 2.4 MB) and their components refer to
// each other in any order, so the loader keeps each document as a tree of elements with their
// attributes, in-scope namespaces and positions; the text of the document is kept alive and
// names/values point into it where the reader handed out undecoded views.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lather/wsdl/model.hpp"

namespace lather::wsdl::detail {

/// Namespace declarations of one element, chained to the enclosing element's.
struct ns_scope {
  const ns_scope* parent = nullptr;
  std::vector<std::pair<std::string_view, std::string_view>> declarations;  ///< prefix, uri
};

struct node_attribute {
  std::string_view ns, local, value;
};

struct node {
  std::string_view ns, local;
  std::vector<node_attribute> attributes;
  const node* parent = nullptr;
  const node* first_child = nullptr;
  const node* next_sibling = nullptr;
  const ns_scope* scope = nullptr;
  std::string_view text;  ///< character data directly inside (documentation); trimmed
  std::string_view file;  ///< the document's path
  std::uint32_t line = 0, column = 0;

  source_location where() const noexcept { return {file, line, column}; }

  bool is(std::string_view n, std::string_view l) const noexcept { return local == l && ns == n; }
  /// Unqualified attribute `name`, or nullopt.
  std::optional<std::string_view> attr(std::string_view name) const noexcept;
  std::optional<std::string_view> attr(std::string_view ns, std::string_view name) const noexcept;
  /// The namespace bound to `prefix` here ("" = default namespace), or nullopt.
  std::optional<std::string_view> lookup(std::string_view prefix) const noexcept;

  struct child_range {
    const node* first;
    struct iterator {
      const node* n;
      const node& operator*() const noexcept { return *n; }
      iterator& operator++() noexcept {
        n = n->next_sibling;
        return *this;
      }
      bool operator!=(const iterator& o) const noexcept { return n != o.n; }
    };
    iterator begin() const noexcept { return {first}; }
    iterator end() const noexcept { return {nullptr}; }
  };
  child_range children() const noexcept { return {first_child}; }
};

/// One parsed document. Immovable: nodes point into it.
class document {
 public:
  /// Parse `text` (read from `path`). Throws wsdl::error with the XML error's position.
  document(std::string path, std::string text);
  document(const document&) = delete;
  document& operator=(const document&) = delete;

  const std::string& path() const noexcept { return path_; }
  const node& root() const noexcept { return *root_; }

 private:
  std::string_view keep(std::string_view v);

  std::string path_;
  std::string text_;
  std::deque<node> nodes_;
  std::deque<ns_scope> scopes_;
  std::deque<std::string> copies_;  ///< decoded values that do not point into text_
  const node* root_ = nullptr;
};

/// `s` without leading and trailing XML whitespace.
std::string_view trim(std::string_view s) noexcept;
/// The whitespace-separated tokens of `s` (memberTypes, parameterOrder, parts).
std::vector<std::string> split_tokens(std::string_view s);

/// Read a whole file; throws wsdl::error naming `referenced_at` when it cannot be read.
std::string read_file(const std::string& path, const source_location& referenced_at);

}  // namespace lather::wsdl::detail
