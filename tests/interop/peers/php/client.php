<?php
// PHP ext/soap peer client: runs the VECTORS.md checks (plus the extra cases of
// tests/interop/peers/vectors.py) against an interop endpoint.
// usage: php client.php --url URL [--wsdl WSDL] [--encoded] [--soap12]
// Prints one line per check: PASS|FAIL <check> <detail>.
ini_set('soap.wsdl_cache_enabled', '0');
ini_set('precision', '17');  // ext/soap prints doubles with `precision` (default 14 digits)
ini_set('memory_limit', '512M');
ini_set('default_socket_timeout', '60');

$opt = getopt('', ['url:', 'wsdl:', 'encoded', 'soap12']);
$encoded = isset($opt['encoded']);
$soap12 = isset($opt['soap12']);
$shared = getenv('LATHER_SHARED_DIR') ?: __DIR__ . '/../../../../../shared';
$wsdl = $opt['wsdl'] ?? ($encoded ? __DIR__ . '/../../interop-encoded.wsdl'
                                  : $shared . '/interop/interop.wsdl');

$client = new SoapClient($wsdl, [
    'location' => $opt['url'],
    'soap_version' => $soap12 ? SOAP_1_2 : SOAP_1_1,
    'features' => SOAP_SINGLE_ELEMENT_ARRAYS,
    'cache_wsdl' => WSDL_CACHE_NONE,
    'trace' => true,
    'exceptions' => true,
    'connection_timeout' => 10,
]);

const WEIRD = "<&>\"'";
const UNICODE_TEXT = "héllo wörld ✓";
const NON_BMP = "clef 𝄞 grin 😀 cjk-ext-b 𠜎";

function s($name, $count, $price, $when, $tags, $note)
{
    return compact('name', 'count', 'price', 'when', 'tags', 'note');
}

$when = '2003-11-05T12:34:56Z';
$s1 = s(UNICODE_TEXT . ' ' . WEIRD, 7, 1234.5, $when, ['alpha', UNICODE_TEXT, WEIRD], 'a note');
$s2 = s('n', 0, -0.25, '1999-12-31T23:59:59Z', [], null);
$a1000 = [];
for ($i = 0; $i < 1000; $i++) {
    $even = $i % 2 === 0;
    $a1000[] = s("item-$i", $i, $i + 0.5, $when, $even ? ["t$i"] : [], $even ? "n$i" : null);
}
$zoned = array_merge($s1, ['when' => '2003-11-05T14:34:56.125+02:00']);
$extreme = fn($price) => array_merge($s2, ['name' => 'extreme', 'price' => $price]);
// 5 Mi characters (not bytes), as in vectors.py.
$big = str_repeat('lather é <&> 5MB ', 308404) . 'lather é <&>';
$bytes = implode('', array_map('chr', range(0, 255)));

function short($v)
{
    $t = is_string($v) ? '"' . $v . '"' : var_export($v, true);
    $t = str_replace("\n", ' ', $t);
    return strlen($t) > 120 ? substr($t, 0, 120) . '...(' . strlen($t) . ' bytes)' : $t;
}

function instant($text)
{
    if (!is_string($text)) {
        return null;
    }
    $d = new DateTime($text, new DateTimeZone('UTC'));  // no offset means UTC
    return $d->format('U.u');
}

function same_double($got, $want)
{
    if (!is_float($got) && !is_int($got)) {
        return false;
    }
    $got = (float)$got;
    if (is_nan($want)) {
        return is_nan($got);
    }
    return $got === $want && (fdiv(1, $got) < 0) === (fdiv(1, $want) < 0);
}

function field($obj, $key)
{
    return is_array($obj) ? ($obj[$key] ?? null) : ($obj->$key ?? null);
}

function struct_diff($got, $want)
{
    if (!is_object($got) && !is_array($got)) {
        return 'struct missing: ' . short($got);
    }
    foreach (['name', 'count'] as $k) {
        if (field($got, $k) !== $want[$k]) {
            return "$k: got " . short(field($got, $k));
        }
    }
    if (!same_double(field($got, 'price'), $want['price'])) {
        return 'price: got ' . short(field($got, 'price'));
    }
    if (instant(field($got, 'when')) !== instant($want['when'])) {
        return 'when: got ' . short(field($got, 'when'));
    }
    $tags = field($got, 'tags') ?? [];
    if (is_object($tags)) {  // an empty SOAP-ENC array may come back as an object
        $tags = (array)$tags;
    }
    if ($tags !== $want['tags']) {
        return 'tags: got ' . short($tags);
    }
    if (field($got, 'note') !== $want['note']) {
        return 'note: got ' . short(field($got, 'note'));
    }
    return null;
}

function array_diff_structs($got, $want)
{
    $got = $got ?? [];
    if (!is_array($got)) {
        return 'not an array: ' . short($got);
    }
    if (count($got) !== count($want)) {
        return 'length: got ' . count($got) . ' want ' . count($want);
    }
    foreach (array_values($got) as $i => $g) {
        if ($d = struct_diff($g, $want[$i])) {
            return "[$i] $d";
        }
    }
    return null;
}

// ext/soap hands the fault code over as raw text (prefix included) and, for SOAP 1.1,
// without its namespace, so the received envelope is parsed (DOM, php-xml) and the code's
// QName resolved against the declarations in scope of the element that carries it.
function resolved_fault_code($xml, $soap12)
{
    $doc = new DOMDocument();
    if (!is_string($xml) || !@$doc->loadXML($xml)) {
        return [null, null];
    }
    $envelope = $soap12 ? 'http://www.w3.org/2003/05/soap-envelope'
                        : 'http://schemas.xmlsoap.org/soap/envelope/';
    $xpath = new DOMXPath($doc);
    $xpath->registerNamespace('env', $envelope);
    $path = $soap12 ? '/env:Envelope/env:Body/env:Fault/env:Code/env:Value'
                    : '/env:Envelope/env:Body/env:Fault/faultcode';
    $code = $xpath->query($path)->item(0);
    if ($code === null) {
        return [null, null];
    }
    $parts = explode(':', trim($code->textContent), 2);
    [$prefix, $name] = count($parts) === 2 ? $parts : [null, $parts[0]];
    return [$code->lookupNamespaceURI($prefix), $name];
}

$equal = fn($want) => fn($got) => $got === $want ? null : 'got ' . short($got);
$struct = fn($want) => fn($got) => struct_diff($got, $want);
$structs = fn($want) => fn($got) => array_diff_structs($got, $want);

// [check, operation, arguments (by part name), compare]
$checks = [
    ['echoString.unicode', 'echoString', ['value' => UNICODE_TEXT], $equal(UNICODE_TEXT)],
    ['echoString.xmlchars', 'echoString', ['value' => WEIRD], $equal(WEIRD)],
    ['echoString.empty', 'echoString', ['value' => ''], $equal('')],
    ['echoInt.42', 'echoInt', ['value' => 42], $equal(42)],
    ['echoInt.min', 'echoInt', ['value' => -2147483648], $equal(-2147483648)],
    ['echoInt.max', 'echoInt', ['value' => 2147483647], $equal(2147483647)],
    ['echoStruct.full', 'echoStruct', ['value' => $s1], $struct($s1)],
    ['echoStruct.nilnote', 'echoStruct', ['value' => $s2], $struct($s2)],
    ['echoArray.empty', 'echoArray', ['value' => []], $structs([])],
    ['echoArray.one', 'echoArray', ['value' => [$s1]], $structs([$s1])],
    ['echoArray.1000', 'echoArray', ['value' => $a1000], $structs($a1000)],
    ['addNumbers.ok', 'addNumbers', ['a' => 2, 'b' => 3], $equal(5)],
    ['addNumbers.fault', 'addNumbers', ['a' => -1, 'b' => 5], null],
    ['echoBinary.bytes', 'echoBinary', ['value' => $bytes], $equal($bytes)],
    ['echoString.nonbmp', 'echoString', ['value' => NON_BMP], $equal(NON_BMP)],
    ['echoString.5mb', 'echoString', ['value' => $big], $equal($big)],
    ['echoStruct.zoned', 'echoStruct', ['value' => $zoned], $struct($zoned)],
    ['echoStruct.dblmax', 'echoStruct', ['value' => $extreme(1.7976931348623157e308)],
     $struct($extreme(1.7976931348623157e308))],
    ['echoStruct.dbldenorm', 'echoStruct', ['value' => $extreme(5e-324)], $struct($extreme(5e-324))],
    ['echoStruct.negzero', 'echoStruct', ['value' => $extreme(-0.0)], $struct($extreme(-0.0))],
    ['echoStruct.inf', 'echoStruct', ['value' => $extreme(-INF)], $struct($extreme(-INF))],
    ['echoStruct.nan', 'echoStruct', ['value' => $extreme(NAN)], $struct($extreme(NAN))],
];

$failures = 0;
foreach ($checks as [$name, $operation, $args, $compare]) {
    try {
        if ($encoded) {
            $answer = $client->__soapCall($operation, array_values($args));
        } else {
            $response = $client->__soapCall($operation, [$args]);
            $answer = $response->result ?? null;
        }
        $problem = $compare ? $compare($answer) : 'no fault, got ' . short($answer);
    } catch (SoapFault $fault) {
        if ($compare === null) {
            $want = $soap12 ? ['http://www.w3.org/2003/05/soap-envelope', 'Sender']
                            : ['http://schemas.xmlsoap.org/soap/envelope/', 'Client'];
            $got = resolved_fault_code($client->__getLastResponse(), $soap12);
            $problem = null;
            if ($got !== $want) {
                $problem = 'faultcode {' . $got[0] . '}' . $got[1];
            } elseif ($fault->faultstring !== 'negative') {
                $problem = 'faultstring ' . short($fault->faultstring);
            }
        } else {
            $problem = "fault {$fault->faultcode}: " . short($fault->faultstring);
        }
    } catch (Throwable $error) {
        $problem = get_class($error) . ': ' . short($error->getMessage());
    }
    if ($problem !== null) {
        $failures++;
    }
    echo ($problem === null ? "PASS $name" : "FAIL $name $problem"), "\n";
}
exit($failures ? 1 : 0);
