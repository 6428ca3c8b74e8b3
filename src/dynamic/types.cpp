#include "types.hpp"

namespace lather::dynamic::detail {

using namespace lather::wsdl;

type_model::type_model(const wsdl::model& m) : model_(m) {
  for (const schema* s : m.schemas())
    for (const type* t : s->types) {
      const type* base = nullptr;
      if (t->kind == type_kind::complex)
        base = static_cast<const complex_type*>(t)->base;
      else
        base = static_cast<const simple_type*>(t)->base;
      if (base && base != t) derived_.emplace(base, t);
    }
}

std::string type_label(const type& t) {
  if (t.builtin) return "xsd:" + t.name.local;
  if (t.anonymous()) return t.context.local + "{}";
  return t.name.local;
}

const flat_type& type_model::flat(const complex_type& t) const {
  std::lock_guard lock(mutex_);
  auto& slot = flat_[&t];
  if (!slot) {
    auto f = std::make_unique<flat_type>();
    add_type(*f, t);
    for (std::size_t i = 0; i < f->fields.size(); ++i) f->by_key.emplace(f->fields[i].key, i);
    slot = std::move(f);
  }
  return *slot;
}

void type_model::add_field(flat_type& f, field x) const {
  for (field& have : f.fields)
    if (have.key == x.key && have.what == x.what) {
      // The same name twice in one content model (a repeated name, or one per choice branch):
      // one array member.
      have.repeated = true;
      have.required = have.required || x.required;
      have.sample = have.sample || x.sample;
      return;
    }
  f.fields.push_back(std::move(x));
}

void type_model::add_type(flat_type& f, const complex_type& t) const {
  const bool extends = t.derived == complex_type::derivation::extension;
  if (t.base && t.base != &t && t.base->kind == type_kind::complex && !t.base->builtin &&
      (extends || t.derived == complex_type::derivation::restriction)) {
    const auto& base = static_cast<const complex_type&>(*t.base);
    if (extends) {
      add_type(f, base);
    } else {
      // A restriction restates the content; attributes it does not mention are inherited.
      for (const attribute_use& a : base.attributes) {
        bool restated = false;
        for (const attribute_use& own : t.attributes)
          restated = restated || (own.decl && a.decl && own.decl->name == a.decl->name);
        if (!restated && a.use != attribute_use::use::prohibited && a.decl)
          add_field(f, {.what = field::kind::attribute,
                        .key = a.decl->name.local,
                        .attribute = &a,
                        .required = a.use == attribute_use::use::required,
                        .sample = a.use == attribute_use::use::required});
      }
    }
  }
  for (const attribute_use& a : t.attributes) {
    if (a.use == attribute_use::use::prohibited || !a.decl) continue;
    const bool required = a.use == attribute_use::use::required;
    add_field(f, {.what = field::kind::attribute,
                  .key = a.decl->name.local,
                  .attribute = &a,
                  .required = required,
                  .sample = required});
  }
  if (t.content_model) add_particle(f, *t.content_model, true, true, false);
  if (t.content_kind == complex_type::content::simple || (t.builtin && t.mixed)) {
    field x{.what = field::kind::text,
            .key = std::string(text_key),
            .text = t.text_type,
            .text_facets = &t.text_facets};
    if (x.text) x.sample = true;
    std::erase_if(f.fields, [](const field& y) { return y.what == field::kind::text; });
    f.fields.push_back(std::move(x));
  }
}

void type_model::add_particle(flat_type& f, const particle& p, bool must, bool want,
                              bool repeated) const {
  must = must && p.min > 0;
  want = want && p.min > 0;
  repeated = repeated || p.max > 1;
  switch (p.what) {
    case particle::kind::element: {
      const element_decl* e = p.element;
      if (!e) return;
      const bool alternatives = !e->substitutes.empty();
      if (!e->abstract)
        add_field(f, {.key = e->name.local,
                      .element = e,
                      .required = must && !alternatives,
                      .sample = want,
                      .repeated = repeated});
      bool first = e->abstract;
      for (const element_decl* s : e->substitutes) {
        if (s->abstract) continue;
        add_field(
            f, {.key = s->name.local, .element = s, .sample = want && first, .repeated = repeated});
        first = false;
      }
      return;
    }
    case particle::kind::group: {
      if (!p.group) return;
      const bool choice = p.group->kind == compositor::choice;
      const std::size_t n = p.group->particles.size();
      for (std::size_t i = 0; i < n; ++i)
        add_particle(f, p.group->particles[i], must && (!choice || n == 1),
                     want && (!choice || i == 0), repeated);
      return;
    }
    case particle::kind::any:
      add_field(f, {.what = field::kind::any,
                    .key = std::string(any_key),
                    .any = &p.any,
                    .required = must,
                    .sample = want,
                    .repeated = true});
      return;
  }
}

const type* type_model::derived(const type& base, std::string_view name) const {
  auto matches = [&](const type& t) {
    return t.name.local == name || ("{" + t.name.ns + "}" + t.name.local) == name;
  };
  if (matches(base)) return &base;
  auto [lo, hi] = derived_.equal_range(&base);
  for (auto it = lo; it != hi; ++it)
    if (const type* t = derived(*it->second, name)) return t;
  return nullptr;
}

const type* type_model::concrete(const type& t) const {
  if (t.kind != type_kind::complex || !static_cast<const complex_type&>(t).abstract) return &t;
  auto [lo, hi] = derived_.equal_range(&t);
  for (auto it = lo; it != hi; ++it)
    if (const type* c = concrete(*it->second)) return c;
  return nullptr;
}

const element_decl* type_model::element_in(std::string_view ns) const {
  for (const schema* s : model_.schemas())
    if (s->target_namespace == ns)
      for (const element_decl* e : s->elements)
        if (!e->abstract) return e;
  return nullptr;
}

}  // namespace lather::dynamic::detail
