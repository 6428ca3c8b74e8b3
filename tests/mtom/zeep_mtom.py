#!/usr/bin/python3
"""zeep receives lather's MTOM: calls fetch(size=N) on a lather server whose response carries
the bytes as an xop:Include part, and checks them.

usage: zeep_mtom.py --wsdl URL --size N [--soap12]
Prints "ok <length> <content type of the response>" when the bytes are byte i = (31 i + 7) mod
256, "bad <length>" otherwise.
"""
import argparse
import sys

import zeep
import zeep.transports

sys.dont_write_bytecode = True


class Recording(zeep.transports.Transport):
    """Remembers the Content-Type of the last response (to show it was multipart)."""

    content_type = ""

    def post(self, address, message, headers):
        response = super().post(address, message, headers)
        Recording.content_type = response.headers.get("Content-Type", "")
        return response


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--wsdl", required=True)
    p.add_argument("--size", type=int, required=True)
    p.add_argument("--soap12", action="store_true")
    a = p.parse_args()
    client = zeep.Client(a.wsdl, transport=Recording())
    service = client.bind("Files", "FilesSoap12Port") if a.soap12 else client.service
    data = service.fetch(size=a.size)
    expected = bytes((31 * i + 7) & 0xFF for i in range(a.size))
    media = Recording.content_type.split(";")[0].strip()
    print("ok" if data == expected else "bad", len(data), media)


if __name__ == "__main__":
    main()
