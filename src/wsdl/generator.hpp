// lather-wsdl2cpp's engine, shared by its passes: the plans of the generated structs and
// enumerations, and the generator that reaches, names, plans (generate_plan.cpp) and emits
// (generate_output.cpp) them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "generate_emit.hpp"
#include "generate_names.hpp"
#include "lather/wsdl/generate.hpp"
#include "lather/wsdl/load.hpp"
#include "lather/wsdl/model.hpp"

namespace lather::wsdl::detail {

/// The XSD facets of a field's simple type (lather::bind::facets), merged up its restriction
/// chain: the table gives the field .facets() of a constant of them.
struct facet_plan {
  std::string fields;  ///< the designated initializers before .enumeration ("" if none)
  std::vector<std::string> enumeration, patterns;
  std::optional<std::string> default_value;
  /// A list: its items' facets (.items), if their type has some.
  std::shared_ptr<const facet_plan> items;
  /// A union: its member types' facets (.members), empty where one of them accepts any text.
  std::vector<std::shared_ptr<const facet_plan>> members;
  /// A union's member type: the XSD built-in it derives from (.built_in), "" otherwise.
  std::string built_in;
  bool empty() const noexcept {
    return fields.empty() && enumeration.empty() && patterns.empty() && !items && members.empty() &&
           built_in.empty();
  }
};

struct field_plan {
  /// unknown: --keep-unknown's member, the child elements the type does not declare.
  /// any_attribute: an xs:anyAttribute (lather::bind::any_attributes), its constraint in
  /// `modifiers`.
  enum class kind {
    element,
    attribute,
    text,
    any,
    choice,
    unknown,
    any_attribute
  } what = kind::element;
  std::string xml_name;
  std::string member;
  std::string cpp_type;
  std::string modifiers;  ///< ".unqualified()", ".min(2)", ...
  /// The member's initializer (`T member = initializer;`) for an XSD default or fixed value:
  /// what reading the default gives; "" = `T member{};`.
  std::string initializer;
  facet_plan facets;  ///< a simple element, attribute or text of a restricted type
  std::vector<std::string> alternatives;
  /// A choice: each alternative's facets (as `facets`), empty where none has any.
  std::vector<facet_plan> alternative_facets;
  qname source;  ///< for names.txt
  /// An optional (0..1) struct member that may be boxed (std::shared_ptr) to break recursion.
  const complex_type* boxable = nullptr;
  std::string boxed_type;
  /// --mock: the statements that give this member of `v` its sample value ("" = none).
  std::string sample;
  const complex_type* concrete = nullptr;  ///< polymorphic member: the sample's type
  /// A lather::polymorphic<B> member (or optional, vector, nillable of one): B, a non-abstract
  /// type with derived types.
  const complex_type* holder = nullptr;
  /// The B of each lather::polymorphic<B> the member's type names: `holder`, or those of a
  /// choice's alternatives (each holds its object apart: no need of a complete B).
  std::vector<const complex_type*> holders;
  /// The types the member's C++ type names: struct_plan::deps[deps_from, deps_to).
  std::size_t deps_from = 0, deps_to = 0;
};

struct struct_plan {
  const complex_type* t = nullptr;
  std::string name, file, xml_name, ns;
  bool anonymous = false;
  const complex_type* base = nullptr;  ///< C++ base (xs:extension of a generated type)
  std::vector<field_plan> fields;
  std::vector<const type*> value_deps;  ///< must be complete before this struct
  std::vector<const type*> deps;        ///< every generated type the members name
  bool planned = false;
  bool boxed = false;  ///< has a shared_ptr member: no value operator==
  /// Generated types extending this one that an xsi:type may name, where it is in the
  /// hierarchy of an abstract type or of a polymorphic<B> member's B: meta<T>::derived.
  std::vector<const complex_type*> derived;
  /// Why this struct cannot be generated (its own construct or one of a type it uses): it is
  /// left out, and so is every operation that reaches it. "" = generated.
  std::string refused;
  /// An rpc operation's message (t is null): the parts are its fields, the RPC wrapper
  /// {ns}xml_name its element.
  const message* msg = nullptr;
  const binding_message* bound = nullptr;
  std::string op_name;
  bool response = false;
  bool encoded = false;
  /// An inline model group (meta<T>::group): a nested sequence that repeats, or a choice
  /// alternative that is not an element of the type's namespace; t is a type made for it.
  bool group = false;
};

struct enum_plan {
  const simple_type* t = nullptr;
  std::string name, file, xml_name, ns;
  std::vector<std::pair<std::string, std::string>> values;  ///< enumerator, lexical value
};

class generator {
 public:
  generator(const model& m, const generate_options& o) : m_(m), o_(o) {}

  generate_result run();

 private:
  // ---------------------------------------------------------------- pass 1: reach
  void collect_roots();

  void reach_element(const element_decl& e) { reach(e.type); }
  /// A document-style body element of a simple type is a message like any other: a struct of
  /// one member `value` for its text (as if the element's type had simple content); so is a
  /// literal header element (`header`), which names.txt then says it is.
  const complex_type* simple_body(const element_decl& e, bool header);
  /// The struct type of a document-style body element: its complex type, or simple_body()'s.
  const complex_type* body_type(const element_decl& e) const;

  /// The complex types of the model that extend `c` directly.
  const std::vector<const complex_type*>& derived_of(const complex_type* c);

  /// An xsi:type hierarchy: every type extending `c`, transitively.
  void reach_hierarchy(const complex_type* c);

  /// The first non-abstract type of an abstract type's hierarchy (depth first), or nullptr.
  const complex_type* concrete_of(const complex_type* c);

  /// Whether an element of non-abstract type `c` is a lather::polymorphic<c>: a type an
  /// xsi:type may name (not an anonymous one) extends it in the schema. Those the generated
  /// code has are its meta<c>::derived; the others a client keeps as unknown subtypes, where
  /// a value of type c would make the whole message an error.
  bool has_named_derived(const complex_type* c);
  /// The base B of a lather::polymorphic<B> member for element `e` of struct `s`, or nullptr
  /// (by value): a non-abstract complex type with named derived types, in a struct that is not
  /// read as SOAP encoding (which reads every value as its declared type).
  const complex_type* holder_base(const element_decl& e, const struct_plan& s);
  /// The hierarchies of the holders' bases: every named type extending the base of a
  /// polymorphic<B> member of a reached struct, transitively, is reached too (JAXB's
  /// @XmlSeeAlso), so a client can make and send any of them; an operation that reaches no such
  /// member pulls in none (--operations). Runs once the operations are reached.
  void reach_holder_hierarchies();
  /// Adds the bases of the polymorphic<B> members particle `p` of struct `s` plans to `out`.
  void holder_bases(const particle& p, const struct_plan& s, std::vector<const complex_type*>& out);
  void holder_bases_of(const element_decl& e, const struct_plan& s,
                       std::vector<const complex_type*>& out);
  /// meta<T>::derived of the types under an abstract type or a polymorphic<B>'s B (poly_roots_).
  void list_derived();
  /// Whether struct `s` needs a virtual destructor: it or a base of it heads a hierarchy with
  /// an abstract type (held by std::shared_ptr, whose dynamic type typeid tells).
  bool dynamic(const struct_plan& s) const;

  static bool is_mixed(const complex_type* c);

  /// Adds `t` and every type its content reaches to `seen`.
  static void mark_reached(const type* t, std::unordered_set<const type*>& seen);

  static void mark_reached_particle(const particle& p, std::unordered_set<const type*>& seen);

  /// Whether a struct is read and written as literal XML (a document or rpc/literal message
  /// reaches it): only those get the literal binding and a schema description.
  bool literal(const struct_plan& s) const;
  /// A literal struct that no encoded one uses: its meta<T> only names it, its table binds
  /// and describes it (every translation unit reads the header; one reads the table).
  bool table_only(const struct_plan& s) const;

  /// A struct that uses a refused one (as a member, base or item type) is refused too.
  void spread_refusals();

  void reach(const type* t);

  void reach_particle(const particle& p, const complex_type* owner);
  /// The struct of inline group `content` (a choice alternative, or a repeated sequence, once)
  /// of `owner`: made while reaching, found while planning.
  const complex_type* group_struct(const complex_type* owner, const particle& content);
  /// A choice's alternatives: a sequence or choice of one particle is that particle, a choice
  /// of elements inside it is flattened (its occurrence carried to each).
  static std::vector<particle> alternatives_of(const particle& p);
  /// Whether choice alternative `a` of a type in namespace `ns` is an inline group.
  static bool group_alternative(const particle& a, const std::string& ns);
  /// Whether sequence `p` is an inline group (it repeats and has several particles).
  static bool group_sequence(const particle& p);
  /// The local name of the first element of `p` ("any" for a wildcard).
  static std::string first_name(const particle& p);
  /// The elements that may begin `p` ({ns}local; "*" for a wildcard); whether it may be empty.
  static bool start_set(const particle& p, std::set<std::string>& out);
  /// A member of inline groups: a repeated sequence of several particles.
  void plan_group_member(const particle& p, bool optional_ctx, struct_plan& s,
                         std::set<std::string>& used);
  std::deque<complex_type> group_types_;
  bool reaching_ = true;  ///< pass 1: group_struct() may make a struct
  std::map<std::pair<const complex_type*, std::string>, const complex_type*> group_of_;

  // ---------------------------------------------------------------- pass 2: names
  std::string file_for(const std::string& ns);

  void assign_names();

  /// The rpc message structs, after every type: "op", "opResponse" (suffixed on a clash).
  void assign_message_names();

  // ---------------------------------------------------------------- pass 3: plan
  std::string qualified(const std::string& name) const;

  /// The C++ type of a value of `t`; notes generated types it names in `s`.
  std::string value_type(const type* t, struct_plan& s, bool by_value, const source_location& at);

  /// Whether `s` is read and written in SOAP encoding (an encoded rpc message, or a type such a
  /// message reaches).
  bool encoded_struct(const struct_plan& s) const;
  std::string simple_cpp(const simple_type* t, struct_plan& s);
  /// The facets a value of `t` is checked against (restricted further by `own`, a simple
  /// content restriction's): none for enumerations (an enum class) and lists of them; a list's
  /// with its items', a union's with its member types' (`member`: one of those, whose
  /// enumeration is a facet and whose number or binary form is checked even without facets).
  /// None for values of rpc/encoded structs.
  /// A pattern the matcher cannot run is left out, with a note in names.txt (`field`: the
  /// field's name there).
  facet_plan facets_of(const type* t, const facets* own, const std::string& field,
                       bool member = false);
  /// The initializer of a member of type `t` whose XSD default (or fixed) value is `text`: the
  /// value the binding reads from `text` (xsd_traits<T>::parse, an enumerator), as a C++
  /// initializer clause; "" where there is none (a complex or QName type, a text the type does
  /// not accept: the binding then reads T{}).
  std::string initializer_of(const type* t, std::string_view text);

  std::string ns_modifier(const std::string& item_ns, const std::string& owner_ns, bool attribute);

  std::string member_name(std::string_view xml, struct_plan& s, std::set<std::string>& used);

  // ---------------------------------------------------------------- samples (--mock)
  /// A statement giving `expr` (a value of XSD type `t`) its sample value, "" when its
  /// default-constructed value is one (anyType, a generated enum: its first enumerator).
  std::string sample_of(const type* t, const std::string& expr, const std::string& fixed = {});
  /// A statement giving choice `variant` (holding its first alternative, element `e`) a sample
  /// value; a nillable alternative is given a value, not nil.
  std::string sample_first(const element_decl& e, const std::string& variant, bool holder);

  /// The XML of a sample element for wildcard `w`: for a strict wildcard a declared element,
  /// else (or when none fits) one in a namespace it allows (##targetNamespace: w.tns).
  std::string sample_any(const wildcard& w) const;

  /// For a strict wildcard: a declared global element with simple or empty content it allows,
  /// as sample XML; "" when none fits (or the wildcard is not strict).
  std::string declared_any(const wildcard& w) const;

  /// `value` (a statement on `x`) for every item of vector member `member`: max(min, 1) items;
  /// optional repetitions (min 0) only near the root, so recursive types stay finite.
  static std::string sample_items(const std::string& member, std::uint32_t min,
                                  const std::string& value);

  void plan_element(const particle& p, const element_decl& e, bool optional_ctx, struct_plan& s,
                    std::set<std::string>& used);

  /// An element of an abstract type: std::shared_ptr<Base> (a vector of them when repeated),
  /// read and written with xsi:type naming the type of the object; `.min(1)` when required.
  void plan_polymorphic(const element_decl& e, std::uint32_t min, std::uint32_t max, struct_plan& s,
                        field_plan f);

  /// The one particle of group particle `p`, its occurrences multiplied by the group's: a
  /// choice or sequence of one particle accepts exactly what that particle so repeated does.
  static particle only_particle(const particle& p);

  void plan_choice(const particle& p, bool optional_ctx, struct_plan& s,
                   std::set<std::string>& used);

  static bool heads_substitution(const particle& p);

  /// `e` if it may appear, then every member of its substitution group, in schema order.
  static void substitutable(const element_decl& e, std::vector<const element_decl*>& out);

  /// A std::variant tagged by element over `alternatives` (occurring as `p` does): an xs:choice,
  /// or an element that heads a substitutionGroup (a choice of the head and its members).
  /// `name` names the member (else the alternatives' names joined).
  void plan_alternatives(const particle& p, const std::vector<const particle*>& alternatives,
                         bool optional_ctx, struct_plan& s, std::set<std::string>& used,
                         const std::string& name);

  void plan_particle(const particle& p, bool optional_ctx, struct_plan& s,
                     std::set<std::string>& used);

  /// Attribute uses in effect: a restriction inherits the base's unless it changes or
  /// prohibits them.
  std::vector<attribute_use> effective_attributes(const complex_type& t);
  static std::string namespaces_modifier(const wildcard& w, const std::string& owner_ns);
  void plan_any_attribute(const wildcard& w, struct_plan& s, std::set<std::string>& used);

  /// An rpc message: one unqualified accessor per body part, in message order.
  void plan_message(struct_plan& s);

  void plan_struct(struct_plan& s);

  void plan_type(struct_plan& s);
  /// Whether `c` or a base of it has --keep-unknown's member (a derived type shares it).
  bool keeps_unknown(const complex_type* c) const;

  /// Structs in an order where every by-value member's type comes first. A cycle of by-value
  /// members is broken by boxing an optional member on it (box()), then the order starts over.
  void order_structs();

  /// order_ refined so that a struct named by any member (a vector's item type too) comes
  /// first where the members' references allow it: the strongly connected components of all
  /// references in dependency order (Tarjan), each component in the by-value order_.
  void order_by_all_members();

  struct tarjan {
    explicit tarjan(std::size_t n) : index(n, -1), low(n, 0), on_stack(n, false) {}
    std::vector<int> index, low;
    std::vector<bool> on_stack;
    std::vector<std::size_t> stack;
    int next = 0;
  };

  void strong_connect(std::size_t i, tarjan& t, const std::vector<std::size_t>& position,
                      std::vector<std::size_t>& order);

  /// False when it boxed a member to break a cycle (the caller starts over).
  bool visit(std::size_t i, std::vector<int>& state);

  /// Recursion through an optional member: hold it in a std::shared_ptr (the binding's 0..1
  /// pointer member), so the struct need not contain itself.
  bool box(struct_plan& s, const type* d);

  // ---------------------------------------------------------------- emit
  void check_namespace();

  /// The opening of meta<C++ name>: alias, XSD name and namespace.
  std::string meta_head(const std::string& name, const char* alias, const std::string& xml_name,
                        const std::string& ns, bool anonymous) const;

  /// Whether member `f` of `s` names a struct of the same header that is defined after `s` (a
  /// vector member: the structs are ordered by value members only). Such a member gets no `{}`:
  /// clang instantiates the vector's destructor there, which needs the item type complete.
  bool later_in_file(const struct_plan& s, const field_plan& f,
                     const std::set<const complex_type*>& defined) const;

  std::string file_of(const type* t) const;

  void emit();

  /// unit_structs_: emitted_ split evenly in order, except that a struct with a
  /// lather::polymorphic<B> member goes to the file of the first struct with a member of the
  /// same B (of its heaviest such B): each file that binds such a member compiles a reader and
  /// a writer per type of B's hierarchy, so a hierarchy bound in one file is compiled once.
  void assign_units();
  /// How many translation units share `items` (--sources, else one per `per_source`).
  std::size_t source_count(std::size_t items, std::size_t per_source) const;

  /// code_<k>.cpp: each a share of the operations (emit_port_types) and of the structs: their
  /// binding (LATHER_BIND_TABLE_DEFINE), the enumerations' description for a service's WSDL
  /// (wsdl_builder::type_of) and, for a message of an operation, its table for the proxies and
  /// services (LATHER_MESSAGE_TYPE_INSTANTIATE), all declared in the headers and compiled once
  /// for the whole program; the structs in dependency order, split evenly. With --mock,
  /// mock_<k>.cpp: the sample() of the structs.
  void emit_sources(const std::set<std::string>& type_headers);
  bool table_extension(const struct_plan& s) const;
  /// The structs whose fields make up the table of `s`: `s` alone for an extension, else its
  /// bases from the top down, then `s`.
  std::vector<const struct_plan*> table_levels(const struct_plan& s, bool extension) const;
  /// `shared`: the member types whose codecs are shared by the code files (several files'
  /// tables name them: table::element<M>, one COMDAT copy in the program), the rest local to
  /// the file (LATHER_BIND_TABLE_FILE's element<M>).
  /// `facets`: the facet constants of the file so far, by their text (bind_table adds the
  /// ones it names to `definitions`).
  std::string bind_table(const struct_plan& s, std::size_t k, bool extension,
                         const std::set<std::string>& shared,
                         std::map<std::string, std::string>& facets,
                         std::string& definitions) const;

  /// The body: parts= when given, else every part not bound to a header (header_plans()).
  static bool in_body(const part& p, const binding_message& bm);
  /// Whether no part of `msg` is in the body: an empty Body (an operation_plan type "").
  static bool no_body(const message& msg, const binding_message& bm);
  /// The typed soap:header parts of `bm` (literal element parts of a generated struct type);
  /// the others are noted in names.txt (call_options::headers still sends them).
  std::vector<detail::header_plan> header_plans(const std::string& key, const binding_message& bm,
                                                bool response, std::set<std::string>& includes);

  /// The one body part of a binding message, when the proxies can carry it: a single element
  /// part of a generated struct type, no SOAP headers. Else "" and `why`.
  const element_decl* body_element(const message* msg, const binding_message& bm,
                                   std::string& why) const;

  /// The typed faults of an operation: each wsdl:fault whose message is one literal element
  /// part of a generated struct type (its class named once per element); their types'
  /// headers go to `includes`. Other faults stay lather::soap::fault_error.
  std::vector<detail::fault_plan> typed_faults(const std::string& key, const binding_operation& bo,
                                               std::set<std::string>& includes);

  /// Per portType: a client proxy (one typed method per operation) and an abstract service
  /// class whose mount_on() registers every operation on a lather::service: their plans, the
  /// number of units and each unit's operations.
  void emit_port_types();
  /// The fault classes, the port type headers and each unit's operations (after
  /// plan_parts()).
  void emit_operations();

  /// With several units: which types each code_<k>.cpp needs complete (its structs' and its
  /// operations' types and what they name, transitively), and the parts of the type headers
  /// that hold them, one per header and set of units needing its types, so that each unit
  /// parses only those (unit_parts_, part_of_). Returns the parts: header, part name, and
  /// the units needing it (a string of '0' and '1').
  std::vector<std::array<std::string, 3>> plan_parts();
  /// The index of the emitted struct named `qualified_name` (::ns::name).
  std::size_t struct_of(const std::string& qualified_name);
  std::map<std::string, std::size_t> struct_by_name_;  ///< struct_of()'s index
  /// The part (plan_parts()) holding generated type `t`, "" when it is not one.
  const std::string& part_of_type(const type* t) const;

  /// --mock: the samples header and mock_server.cpp (generate_mock.cpp), served at every
  /// SOAP port's path.
  void emit_mock(const std::set<std::string>& type_headers);

  static bool reaches(const std::string& from, const std::string& to,
                      const std::map<std::string, std::set<std::string>>& g);

  const model& m_;
  generate_options o_;
  generate_result result_;
  std::unordered_set<const type*> seen_;
  std::vector<struct_plan> structs_;
  std::vector<enum_plan> enums_;
  std::unordered_map<const complex_type*, std::size_t> struct_index_;
  std::unordered_map<const simple_type*, std::size_t> enum_index_;
  std::vector<std::size_t> order_;
  std::vector<std::pair<std::size_t, const type*>> path_;  ///< by-value edges being visited
  /// The generated (document/literal) operations of each portType, first binding's.
  std::map<const port_type*, std::vector<const binding_operation*>> ports_;
  std::map<const port_type*, soap_version> port_version_;  ///< of the binding ports_ took
  /// The header of each port type of ports_, named before any other file: the one users
  /// include keeps the portType's name when a namespace's header would take it.
  std::map<const port_type*, std::string> port_files_;
  /// The `cls` of each port type of ports_ (its classes port_type_classes(cls)),
  /// named before the types, which then never take a class's name.
  std::map<const port_type*, std::string> port_classes_;
  detail::mock_input mock_;      ///< --mock
  int sample_var_ = 0;           ///< names of the loop variables of sample statements
  bool sample_encoded_ = false;  ///< the struct being planned is SOAP-encoded (sample_of)
  std::unordered_set<const type*> encoded_seen_, literal_seen_;  ///< by the messages of each use
  std::map<const complex_type*, std::vector<const complex_type*>> derived_index_;
  /// Abstract types and the B of each polymorphic<B> member: their hierarchies get
  /// meta<T>::derived.
  std::set<const complex_type*> poly_roots_;
  /// The top base of each hierarchy with an abstract type (a virtual destructor).
  std::set<const complex_type*> virtual_roots_;
  bool derived_index_built_ = false;
  std::unordered_set<const simple_type*> encoded_enums_;  ///< mapped to std::string
  /// rpc operations: their input and output message structs (indexes into structs_).
  std::map<const binding_operation*, std::pair<std::size_t, std::size_t>> rpc_plans_;
  std::map<const port_type*, std::size_t> mock_index_;  ///< into mock_.port_types
  /// The struct types of simple-type body and header elements (simple_body()), and whether
  /// names.txt noted the element as a body and as a header element.
  struct simple_body_type {
    std::unique_ptr<complex_type> type;
    std::array<bool, 2> noted{};  // [header]
  };
  std::map<const element_decl*, simple_body_type> simple_bodies_;
  /// Structs and operations per translation unit (code_<k>.cpp) when --sources does not say,
  /// and sample() functions per mock_<k>.cpp. Each unit parses the lather headers and the
  /// parts of the type headers it needs first, and a struct's binding and an operation's methods
  /// use the same instantiations, so the structs and the operations share the units, and fewer,
  /// larger units cost less CPU time for more memory per compile: ONVIF device+media's four
  /// files as two cut their CPU time by ~13 % for 1.5x the peak memory of one, Bing Ads' three
  /// as two by ~17 % for 1.2x (1.5 GB; bench/RESULTS.md).
  static constexpr std::size_t types_per_unit = 720, operations_per_unit = 600,
                               samples_per_source = 400;
  std::vector<std::size_t> emitted_;       ///< generated structs (indexes), in dependency order
  std::set<std::size_t> message_structs_;  ///< the request and response structs of operations
  /// Those of message_structs_ the code moves (requests and request headers, into an
  /// asynchronous call): the others' tables have no move_construct.
  std::set<std::size_t> moved_structs_;
  std::vector<std::string> library_sources_, mock_sources_;
  std::size_t units_ = 1;                                     ///< code_<k>.cpp files
  std::vector<detail::source_part> operation_parts_;          ///< the operations of each unit
  std::vector<std::vector<detail::operation_ref>> unit_ops_;  ///< the operations of each unit
  /// The structs whose binding each code_<k>.cpp defines (assign_units), in emitted_ order.
  std::vector<std::vector<std::size_t>> unit_structs_;
  /// The code_<k>.cpp (index) that binds each holder base: B's hierarchy is compiled there
  /// (LATHER_BIND_POLYMORPHIC_INSTANTIATE), declared extern in B's header (assign_units).
  std::map<const complex_type*, std::size_t> holder_home_;
  /// Several units: the type headers' parts each unit includes, and the part of each type.
  std::vector<std::vector<std::string>> unit_parts_;
  std::vector<std::string> part_of_;  ///< by struct index, then by enum index after them
  std::string faults_file_;
  std::string describe_header_;
  std::set<std::string> type_names_;
  std::set<std::string> noted_patterns_;              ///< field + pattern: names.txt notes it once
  file_stem_set file_stems_;                          ///< unique whatever the case (macOS, Windows)
  std::map<std::string, std::string> fault_classes_;  ///< {ns}element of a fault -> its class
  /// {ns}element of a soap:headerfault -> its class
  std::map<std::string, std::string> header_fault_classes_;
  std::map<std::string, std::string> files_;  ///< XSD namespace -> header
  std::vector<std::string> names_;
};

}  // namespace lather::wsdl::detail
