<?php
// PHP ext/soap peer server, run as: php -S 127.0.0.1:PORT router.php
//   /interop          interop.wsdl (document/literal wrapped; SOAP 1.1 and 1.2 envelopes)
//   /interop/encoded  tests/interop/interop-encoded.wsdl (RPC/encoded, SOAP 1.1)
// GET <path>?wsdl returns the WSDL with its address pointing at this server.
ini_set('soap.wsdl_cache_enabled', '0');
// ext/soap prints doubles with `precision` (default 14 digits), which loses bits.
ini_set('precision', '17');

$shared = getenv('LATHER_SHARED_DIR') ?: __DIR__ . '/../../../../../shared';
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$routes = [
    '/interop' => [$shared . '/interop/interop.wsdl', 'LiteralInterop'],
    '/interop/encoded' => [__DIR__ . '/../../interop-encoded.wsdl', 'EncodedInterop'],
];
if (!isset($routes[$path])) {
    http_response_code(404);
    echo "not found\n";
    return true;
}
[$wsdl, $handler] = $routes[$path];
$address = 'http://' . $_SERVER['HTTP_HOST'] . $path;

if ($_SERVER['REQUEST_METHOD'] === 'GET') {
    header('Content-Type: text/xml; charset=utf-8');
    echo preg_replace('/(<soap:address location=")[^"]*"/', '${1}' . $address . '"',
                      file_get_contents($wsdl));
    return true;
}

function negative_check($a, $b)
{
    if ($a < 0 || $b < 0) {
        throw new SoapFault('Client', 'negative');
    }
    return $a + $b;
}

// Document/literal wrapped: each call gets the wrapper element as one object.
class LiteralInterop
{
    public function echoString($p) { return ['result' => $p->value]; }
    public function echoInt($p) { return ['result' => $p->value]; }
    public function echoStruct($p) { return ['result' => $p->value]; }
    public function echoArray($p) { return ['result' => $p->value ?? []]; }
    public function addNumbers($p) { return ['result' => negative_check($p->a, $p->b)]; }
    public function echoBinary($p) { return ['result' => $p->value]; }
}

// RPC/encoded: parts arrive as positional arguments.
class EncodedInterop
{
    public function echoString($value) { return $value; }
    public function echoInt($value) { return $value; }
    public function echoStruct($value) { return $value; }
    public function echoArray($value) { return $value ?? []; }
    public function addNumbers($a, $b) { return negative_check($a, $b); }
    public function echoBinary($value) { return $value; }
}

$server = new SoapServer($wsdl, ['features' => SOAP_SINGLE_ELEMENT_ARRAYS, 'cache_wsdl' => WSDL_CACHE_NONE]);
$server->setClass($handler);
$server->handle();
return true;
