"""The VECTORS.md calls and comparison rules, shared by the Python interop clients.

Each check is (name, operation, kwargs, compare) where compare(answer) returns None when the
answer is right, else a one-line reason.  Extra checks beyond VECTORS.md exercise non-BMP
characters, a 5 MB payload, dateTime offsets with fractions and double extremes.
"""
import datetime
import math

UTC = datetime.timezone.utc
WEIRD = "<&>\"'"
UNICODE = "héllo wörld ✓"
NON_BMP = "clef 𝄞 grin 😀 cjk-ext-b 𠜎"
BIG = "lather é <&> 5MB " * 308404 + "lather é <&>"  # 5 Mi characters
WHEN = datetime.datetime(2003, 11, 5, 12, 34, 56, tzinfo=UTC)

S1 = dict(name=f"{UNICODE} {WEIRD}", count=7, price=1234.5, when=WHEN,
          tags=["alpha", UNICODE, WEIRD], note="a note")
S2 = dict(name="n", count=0, price=-0.25,
          when=datetime.datetime(1999, 12, 31, 23, 59, 59, tzinfo=UTC), tags=[], note=None)


def a1000():
    return [dict(name=f"item-{i}", count=i, price=i + 0.5, when=WHEN,
                 tags=[f"t{i}"] if i % 2 == 0 else [], note=f"n{i}" if i % 2 == 0 else None)
            for i in range(1000)]


def with_price(price):
    return dict(S2, name="extreme", price=price)


# 14:34:56.125+02:00 is the instant 12:34:56.125Z.
ZONED = dict(S1, when=datetime.datetime(2003, 11, 5, 14, 34, 56, 125000,
                                        tzinfo=datetime.timezone(datetime.timedelta(hours=2))))


def as_instant(value):
    if value is None:
        return None
    if isinstance(value, str):
        value = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def same_double(got, want):
    if got is None:
        return False
    got = float(got)
    if math.isnan(want):
        return math.isnan(got)
    return got == want and math.copysign(1, got) == math.copysign(1, want)


def field(obj, key):
    if isinstance(obj, dict):
        return obj.get(key)
    return getattr(obj, key, None)


def struct_diff(got, want):
    if got is None:
        return "struct missing"
    for key in ("name", "count"):
        if field(got, key) != want[key]:
            return f"{key}: got {short(field(got, key))} want {short(want[key])}"
    if not same_double(field(got, "price"), want["price"]):
        return f"price: got {field(got, 'price')!r} want {want['price']!r}"
    if as_instant(field(got, "when")) != as_instant(want["when"]):
        return f"when: got {field(got, 'when')} want {want['when']}"
    tags = list(field(got, "tags") or [])
    if tags != want["tags"]:
        return f"tags: got {short(tags)} want {short(want['tags'])}"
    if field(got, "note") != want["note"]:
        return f"note: got {field(got, 'note')!r} want {want['note']!r}"
    return None


def short(value, limit=120):
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"...({len(text)} chars)"


def equal(want):
    return lambda got: None if got == want and type(got) is type(want) else f"got {short(got)}"


def struct_equal(want):
    return lambda got: struct_diff(got, want)


def array_equal(want):
    def compare(got):
        got = list(got or [])
        if len(got) != len(want):
            return f"length: got {len(got)} want {len(want)}"
        for i, (g, w) in enumerate(zip(got, want)):
            diff = struct_diff(g, w)
            if diff:
                return f"[{i}] {diff}"
        return None
    return compare


def checks():
    """(check, operation, arguments, compare, raw-expectation) in VECTORS.md order, then extras."""
    a = a1000()
    return [
        ("echoString.unicode", "echoString", dict(value=UNICODE), equal(UNICODE)),
        ("echoString.xmlchars", "echoString", dict(value=WEIRD), equal(WEIRD)),
        ("echoString.empty", "echoString", dict(value=""), None),
        ("echoInt.42", "echoInt", dict(value=42), equal(42)),
        ("echoInt.min", "echoInt", dict(value=-2147483648), equal(-2147483648)),
        ("echoInt.max", "echoInt", dict(value=2147483647), equal(2147483647)),
        ("echoStruct.full", "echoStruct", dict(value=S1), struct_equal(S1)),
        ("echoStruct.nilnote", "echoStruct", dict(value=S2), struct_equal(S2)),
        ("echoArray.empty", "echoArray", dict(value=[]), array_equal([])),
        ("echoArray.one", "echoArray", dict(value=[S1]), array_equal([S1])),
        ("echoArray.1000", "echoArray", dict(value=a), array_equal(a)),
        ("addNumbers.ok", "addNumbers", dict(a=2, b=3), equal(5)),
        ("addNumbers.fault", "addNumbers", dict(a=-1, b=5), None),
        ("echoBinary.bytes", "echoBinary", dict(value=bytes(range(256))), equal(bytes(range(256)))),
        ("echoString.nonbmp", "echoString", dict(value=NON_BMP), equal(NON_BMP)),
        ("echoString.5mb", "echoString", dict(value=BIG), equal(BIG)),
        ("echoStruct.zoned", "echoStruct", dict(value=ZONED), struct_equal(ZONED)),
        ("echoStruct.dblmax", "echoStruct", dict(value=with_price(1.7976931348623157e308)),
         struct_equal(with_price(1.7976931348623157e308))),
        ("echoStruct.dbldenorm", "echoStruct", dict(value=with_price(5e-324)),
         struct_equal(with_price(5e-324))),
        ("echoStruct.negzero", "echoStruct", dict(value=with_price(-0.0)),
         struct_equal(with_price(-0.0))),
        ("echoStruct.inf", "echoStruct", dict(value=with_price(-math.inf)),
         struct_equal(with_price(-math.inf))),
        ("echoStruct.nan", "echoStruct", dict(value=with_price(math.nan)),
         struct_equal(with_price(math.nan))),
    ]
