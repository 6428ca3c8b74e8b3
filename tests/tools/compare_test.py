"""bench/compare.py without servers: its statistics, the parsing of each peer's output, the
markdown rendered from the JSON, and the RESULTS.md block it rewrites."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
import compare  # noqa: E402


class Statistics(unittest.TestCase):
    def test_median_of_odd_and_even_counts_skips_missing(self):
        self.assertEqual(compare.median([3, 1, 2]), 2)
        self.assertEqual(compare.median([4, 1, 3, 2]), 2.5)
        self.assertEqual(compare.median([None, 5, "-", 1]), 3)
        self.assertIsNone(compare.median([]))
        self.assertIsNone(compare.median([None, "timeout"]))

    def test_best_and_lowest_ignore_missing(self):
        self.assertEqual(compare.best([None, 3.5, 2]), 3.5)
        self.assertEqual(compare.lowest([None, 3.5, 2]), 2)
        self.assertIsNone(compare.best([None]))
        self.assertIsNone(compare.lowest([]))

    def test_ratio_is_missing_when_either_side_is(self):
        self.assertEqual(compare.ratio(3, 2), 1.5)
        self.assertIsNone(compare.ratio(None, 2))
        self.assertIsNone(compare.ratio(3, 0))
        self.assertEqual(compare.fmt_ratio(1, 3), "0.33")
        self.assertEqual(compare.fmt_ratio(1, None), "-")

    def test_geomean_of_ratios(self):
        self.assertAlmostEqual(compare.geomean([2, 8]), 4)
        self.assertAlmostEqual(compare.geomean([0.5, 2, None]), 1)
        self.assertIsNone(compare.geomean([None]))

    def test_median_interval_brackets_the_median_by_order_statistics(self):
        values = list(range(1, 101))
        lo, hi = compare.median_interval(values)
        # n/2 -+ 0.98 sqrt(n) = 50 -+ 9.8: the 40th and 61st values.
        self.assertEqual((lo, hi), (40, 61))
        self.assertEqual(compare.median_interval([7]), (7, 7))

    def test_paired_ratios_pair_windows_of_the_same_cycle_and_skip_failed_ones(self):
        rounds = [{"1": [1.0, 2.0, None], "10": [1.5, 3.0, 9.0]}, {"1": [4.0], "10": [2.0]}]
        self.assertEqual(compare.paired_ratios(rounds, 1, 10), [1.5, 1.5, 0.5])

    def test_formatting(self):
        self.assertEqual(compare.fmt0(1234.5), "1234")  # round half to even, as printf
        self.assertEqual(compare.fmt0(None), "-")
        self.assertEqual(compare.fmt2(0.125), "0.12")
        self.assertEqual(compare.fmt_ms("timeout", 30), "> 30 s")
        self.assertEqual(compare.verdict(None), "not measured")
        self.assertEqual(compare.verdict(False), "not met")

    def test_sweep_call_counts_are_bounded(self):
        self.assertEqual(compare.sweep_calls(100, "full"), 300)
        self.assertEqual(compare.sweep_calls(50 << 20, "full"), 2)
        self.assertEqual(compare.sweep_calls(100_000, "quick"), 40)
        self.assertEqual(compare.gsoap_generated_calls(10), 30)
        self.assertEqual(compare.gsoap_generated_calls(50 << 20), 1)


class Parsing(unittest.TestCase):
    LATHER = ('warming up\n{"operation":"echoComplexTypeDoc","threads":16,"client_threads":0,'
              '"invocations":1000,"running_s":2.000,"overall_throughput":500.0,'
              '"overall_avg_ms":2.0,"total_tps":8000.5,"windows_ms":[],"errors":0}\n')

    def test_lather_bench_json_is_the_last_object_printed(self):
        r = compare.parse_lather_bench("noise {not json}\n" + self.LATHER)
        self.assertEqual(r["total_tps"], 8000.5)
        self.assertEqual(r["errors"], 0)
        self.assertEqual(compare.parse_lather_bench("lather-bench: connection refused\n"), {})

    def test_result_line_of_gsoap_grpc_and_drb(self):
        gsoap = ("Throughput: x\nRESULT stack=gsoap op=echoComplexTypeDoc threads=16 "
                 "packet_size=1 calls=100 errors=0 seconds=1.000 calls_per_s=14181.2 "
                 "per_thread=886.3 mean_ms=1.1\n")
        r = compare.parse_result_line(gsoap)
        self.assertEqual(r["calls_per_s"], 14181.2)
        self.assertEqual(r["stack"], "gsoap")
        drb = "RESULT stack=drb calls=100 runs=5 median_s=0.0183 min_s=0.0170\n"
        self.assertEqual(compare.parse_result_line(drb)["median_s"], 0.0183)
        self.assertEqual(compare.parse_result_line("no result\n"), {})
        two = "RESULT calls_per_s=1\nRESULT calls_per_s=2\n"
        self.assertEqual(compare.parse_result_line(two)["calls_per_s"], 2)

    def test_wrk_rate_and_non_2xx(self):
        ok = "Running 1s test\n  2 threads\nRequests/sec:  41425.31\nTransfer/sec: 1MB\n"
        self.assertEqual(compare.parse_wrk(ok), 41425.31)
        self.assertIsNone(compare.parse_wrk("  Non-2xx or 3xx responses: 5\n" + ok))
        self.assertIsNone(compare.parse_wrk("unable to connect\n"))

    def test_listening_port_of_each_server(self):
        self.assertEqual(compare.parse_listening_port(
            "lather-perf-server: listening on http://127.0.0.1:4711/perf"), 4711)
        self.assertEqual(compare.parse_listening_port("listening on druby://127.0.0.1:33"), 33)
        self.assertEqual(compare.parse_listening_port("listening on 127.0.0.1:9000"), 9000)
        self.assertIsNone(compare.parse_listening_port("listening on 127.0.0.1:0"))
        self.assertIsNone(compare.parse_listening_port("starting"))

    def test_tls_handshakes_from_metrics(self):
        metrics = ('# TYPE lather_tls_handshakes_total counter\n'
                   'lather_tls_handshakes_total{resumed="false"} 12\n'
                   'lather_tls_handshakes_total{resumed="true"} 30\n')
        self.assertEqual(compare.parse_tls_handshakes(metrics), (12, 30))
        self.assertIsNone(compare.parse_tls_handshakes("lather_in_flight 0\n"))

    def test_cpu_ticks_of_a_proc_stat_line(self):
        stat = "4711 (lather perf) S 1 2 3 4 5 6 7 8 9 10 250 50 0 0 20 0 3 0"
        self.assertEqual(compare.parse_cpu_ticks(stat), 300)
        self.assertIsNone(compare.parse_cpu_ticks("garbage"))

    def test_vm_hwm(self):
        status = "Name:\tx\nVmPeak:\t  9000 kB\nVmHWM:\t    5120 kB\nVmRSS:\t 100 kB\n"
        self.assertEqual(compare.parse_vm_hwm_kb(status), 5120)
        self.assertIsNone(compare.parse_vm_hwm_kb(""))

    def test_request_bytes_from_metrics_of_the_perf_mount(self):
        metrics = "\n".join([
            '# TYPE lather_requests_total counter',
            'lather_requests_total{path="/perf",operation="echoComplexTypeDoc"} 4',
            'lather_request_bytes_total{path="/perf",operation="echoComplexTypeDoc"} 4002',
            'lather_requests_total{path="/other",operation="echoComplexTypeDoc"} 100',
            'lather_request_bytes_total{path="/perf",operation="echoVoid"} 9'])
        self.assertEqual(compare.parse_request_bytes(metrics), 1000)
        self.assertIsNone(compare.parse_request_bytes("lather_requests_total{} 0"))

    def test_lather_splits_windows_and_cpu(self):
        line = json.dumps({"operation": "echoComplexTypeDoc", "splits": [
            {"calls": 1, "windows_ms": [2.0, -1.0], "cpu_ms": 3.0},
            {"calls": 10, "windows_ms": [], "cpu_ms": 0}]})
        windows, cpu = compare.parse_lather_splits("warm\n" + line + "\n")
        self.assertEqual(windows, {"1": [2.0, None], "10": []})
        self.assertEqual(cpu, {"1": 1.5})
        self.assertEqual(compare.parse_lather_splits("failed\n"), ({}, {}))

    def test_gsoap_splits_failed_window_is_missing(self):
        text = ("SPLIT calls=1 packet_size=1000 windows_ms=12.5000,-1.0000\n"
                "SPLIT calls=10 packet_size=100 windows_ms=\n"
                "RESULT stack=gsoap op=echoComplexTypeDoc splits=2 errors=1\n")
        self.assertEqual(compare.parse_gsoap_splits(text), {"1": [12.5, None], "10": []})

    def test_curl_mean_needs_every_answer_a_200_with_a_body(self):
        self.assertAlmostEqual(compare.parse_curl_mean_ms("200 10 0.5\n200 10 1.5\n", 2), 1000)
        self.assertIsNone(compare.parse_curl_mean_ms("200 10 0.5\n500 10 1.5\n", 2))
        self.assertIsNone(compare.parse_curl_mean_ms("200 0 0.5\n", 1))
        self.assertIsNone(compare.parse_curl_mean_ms("200 10 0.5\n", 2))

    def test_as_generated_request_declares_a_prefix_per_item(self):
        fixed = ('<e xmlns:cxf="http://cxf.apache.org" xmlns:x1="urn:x">'
                 '<x1:item><t>cxf:return</t></x1:item><x1:item><t>cxf:return</t></x1:item></e>')
        self.assertEqual(compare.as_generated_request(fixed), (
            '<e xmlns:x1="urn:x"><x1:item xmlns:_0="http://cxf.apache.org"><t>_0:return</t>'
            '</x1:item><x1:item xmlns:_1="http://cxf.apache.org"><t>_1:return</t></x1:item></e>'))


def section(**data):
    base = dict(ran_at="2000-01-01 00:00 UTC", mode="quick", load="0.10", notes=[],
                params=dict(compare.MODES["quick"], client_threads=2))
    base.update(data)
    return base


class Rendering(unittest.TestCase):
    def e2e(self, lather=(40000, 42000), gsoap=(8000,), grpc=(11000,)):
        return section(points=[
            dict(packet=1, threads=1, runs=dict(lather=list(lather), gsoap=list(gsoap),
                                                grpc=list(grpc))),
            dict(packet=100, threads=1, runs=dict(lather=[2000], gsoap=[None], grpc=[1500]))])

    def test_e2e_takes_the_best_pass_and_ratios_against_the_faster_gsoap(self):
        sec = self.e2e()
        sec["points"][0]["runs"]["gsoap_fixed"] = [10500]
        rows = compare.e2e_rows(sec)
        self.assertEqual(rows[0]["best"]["lather"], 42000)
        self.assertEqual(rows[0]["vs_gsoap"], 4)
        self.assertIsNone(rows[1]["vs_gsoap"])
        text = "\n".join(compare.render_e2e(sec))
        self.assertIn("| 1 | 1 | 42000 | 8000 | 10500 | 11000 | 4.00 | 3.82 |", text)
        self.assertIn("| 100 | 1 | 2000 | - | - | 1500 | - | 1.33 |", text)
        self.assertIn("aggregate at PacketSize 1: 42000 calls/s", text)

    def test_e2e_verdicts_and_geometric_means(self):
        s = compare.e2e_summary(self.e2e())
        self.assertIsNone(s["goal_gsoap"])  # PacketSize 100 has no gSOAP figure
        self.assertTrue(s["goal_grpc"])
        self.assertTrue(s["goal_aggregate"])
        self.assertAlmostEqual(s["geomean_grpc"], (42000 / 11000 * 2000 / 1500) ** 0.5)
        slow = compare.e2e_summary(self.e2e(lather=(9000,), grpc=(11000,)))
        self.assertFalse(slow["goal_grpc"])
        self.assertFalse(slow["goal_aggregate"])

    def test_tls_paired_ratios_resumed_shares_and_goals(self):
        sec = section(points=[
            dict(kind="keepalive", threads=16, client="own",
                 runs=dict(lather=[9000, 12000, 10000], gsoap=[3000, 5000, 4000]),
                 handshakes=dict(lather=[], gsoap=[])),
            dict(kind="resumed", threads=16, client="own", runs=dict(lather=[400, None],
                                                                     gsoap=[500, 300]),
                 handshakes=dict(lather=[[100, 90]], gsoap=[[50, 45], [40, 40]])),
            dict(kind="full", threads=16, client="common", runs=dict(lather=[300], gsoap=[100]),
                 handshakes=dict(lather=[], gsoap=[]))],
            params=dict(compare.MODES["quick"]))
        rows = compare.tls_rows(sec)
        self.assertEqual(rows[0]["lather"], 10000)  # the median pass, not the best
        self.assertEqual(rows[0]["paired"], 2.5)  # median of 3.0, 2.4 and 2.5
        self.assertEqual(rows[1]["paired"], 0.8)  # the failed pass has no pair
        self.assertAlmostEqual(rows[1]["resumed"]["gsoap"], 0.95)
        s = compare.tls_summary(sec)
        self.assertTrue(s["goal_e2e"])
        self.assertFalse(s["goal_handshakes"])  # the common client's 3.0 is not a goal's
        text = "\n".join(compare.render_tls(sec))
        self.assertIn("| keep-alive calls | 16 | own client | 10000 | 4000 | **2.50** | "
                      "2.40-3.00 |  |  |", text)
        self.assertIn("| new connection, resumed session | 16 | own client | 400 | 400 | **0.80** "
                      "| 0.80-0.80 | 90% | 95% |", text)
        self.assertIn("| new connection, full handshake | 16 | lather-bench for both | 300 | 100 | "
                      "3.00 |", text)
        sec["cpu"] = [
            dict(kind="full", threads=16, client="own", runs=dict(
                lather=[dict(client_us=600, server_us=400), None],
                gsoap=[dict(client_us=900, server_us=600)])),
            dict(kind="full", threads=16, client="common", runs=dict(
                lather=[dict(client_us=600, server_us=400)],
                gsoap=[dict(client_us=600, server_us=300)]))]
        text = "\n".join(compare.render_tls(sec))
        self.assertIn("| new connection, full handshake | own client | 1000 (600 + 400) | "
                      "1500 (900 + 600) | 1.50 |", text)
        # One load generator: the servers' CPU alone is compared.
        self.assertIn("| new connection, full handshake | lather-bench for both | 1000 (600 + 400) "
                      "| 900 (600 + 300) | 0.75 (servers) |", text)
        self.assertTrue(compare.tls_summary(sec)["cpu_handshakes"])

    def test_tls_configuration_of_both_sides(self):
        probe = ("CONNECTION ESTABLISHED\nProtocol version: TLSv1.3\n"
                 "Ciphersuite: TLS_AES_256_GCM_SHA384\nPeer certificate: CN = 127.0.0.1\n"
                 "Hash used: SHA256\nSignature type: ECDSA\nVerification: OK\n"
                 "Server Temp Key: X25519, 253 bits\nDONE\n")
        got = compare.parse_s_client(probe)
        self.assertEqual(got, dict(protocol="TLSv1.3", cipher="TLS_AES_256_GCM_SHA384",
                                   group="X25519", signature="ECDSA/SHA256"))
        same = "\n".join(compare.tls_config_lines(dict(lather=got, gsoap=dict(got))))
        self.assertIn("| lather | TLSv1.3 | TLS_AES_256_GCM_SHA384 | X25519 | ECDSA/SHA256 |", same)
        self.assertIn("Both sides alike: **yes**", same)
        other = dict(got, protocol="TLSv1.2")
        self.assertIn("Both sides alike: **NO", "\n".join(
            compare.tls_config_lines(dict(lather=got, gsoap=other))))
        self.assertEqual(compare.parse_schedstat_ns("123456 789 10\n"), 123456)
        self.assertIsNone(compare.parse_schedstat_ns(""))

    def clients(self, pairs):
        counts = [1, 16, 1024]
        return section(params=dict(compare.MODES["quick"], client_threads=2, client_counts=counts),
                       passes=dict(
                           lather={"1": [dict(total=30000, per=30000)],
                                   "16": [dict(total=90000, per=5625), dict(total=70000, per=1)],
                                   "1024": [dict(total=80000, per=78)]},
                           gsoap={"1": [], "16": [dict(total=15000, per=937)], "1024": []}),
                       errors=dict(lather=[dict(clients=1024, errors=3)], gsoap=[]),
                       best_count=16, pairs=pairs)

    def test_clients_rows_best_and_lowest_pass(self):
        rows = compare.clients_rows(self.clients([]))
        self.assertEqual(rows[1]["lather"], dict(total=90000, per=5625, low=70000))
        self.assertEqual(rows[0]["gsoap"], dict(total=None, per=None, low=None))
        self.assertEqual(compare.best_row_count(rows), 16)

    def test_clients_goal_is_read_on_the_median_of_the_pairs(self):
        pairs = [dict(largest=a, best=b) for a, b in ((93, 100), (66, 100), (105, 100))]
        s = compare.clients_summary(self.clients(pairs))
        self.assertEqual(s["ratios"], [0.93, 0.66, 1.05])
        self.assertEqual(s["median"], 0.93)
        self.assertTrue(s["goal"])
        self.assertAlmostEqual(s["table_ratio"], 80000 / 90000)
        text = "\n".join(compare.render_clients(self.clients(pairs)))
        self.assertIn("median **0.93**", text)
        self.assertIn("**0.93: met**", text)
        self.assertIn("lather 1024:3;", text)
        self.assertIn("| 16 | 5625 | 90000 | 70000 | 937 | 15000 | 15000 |", text)
        low = compare.clients_summary(self.clients([dict(largest=80, best=100)]))
        self.assertFalse(low["goal"])

    def test_clients_without_pairs_says_so(self):
        text = "\n".join(compare.render_clients(self.clients([])))
        self.assertIn("table 0.89 of best (no pair ran)", text)

    def axis(self, lather_rounds):
        return section(params=dict(compare.MODES["quick"], axis_calls=[1, 10, 100]),
                       rounds=dict(lather=lather_rounds, gsoap=[]), cpu={"1": [0.5]})

    def test_axis_monotonic_by_pairs_and_median(self):
        rounds = [{"1": [10.0] * 9, "10": [11.0] * 9, "100": [20.0] * 9}]
        s = compare.axis_summary(self.axis(rounds))
        self.assertEqual(s["by_pairs"], "monotonic")
        self.assertEqual(s["by_median"], "monotonic")
        self.assertEqual(s["above"], ["10 vs 1 calls", "100 vs 10 calls"])
        self.assertEqual(s["rows"][1]["vs_one"], (1.1, 1.1, 1.1))
        self.assertEqual(s["one_fastest"], [])

    def test_axis_inversion_is_reported(self):
        rounds = [{"1": [10.0] * 9, "10": [9.0] * 9, "100": [20.0] * 9}]
        s = compare.axis_summary(self.axis(rounds))
        self.assertEqual(s["by_median"], "not monotonic (lower at 10 calls)")
        self.assertEqual(s["inverted"], ["10 vs 1 calls"])
        self.assertEqual(s["one_fastest"], ["10 vs 1 calls"])
        text = "\n".join(compare.render_axis(self.axis(rounds)))
        self.assertIn("| 10 | 100 | 9.00 | 9.00 | 9.00-9.00 | 9.00 | 0.900 (0.900-0.900) |", text)

    def test_axis_without_lather_is_not_measured(self):
        text = "\n".join(compare.render_axis(self.axis([])))
        self.assertIn("not measured (lather missing)", text)

    def sizes(self):
        def v(ms, request_bytes, base, peak):
            return dict(ms=ms, request_bytes=request_bytes, rss_base_kb=base, rss_kb=peak)
        mb = 1048576
        return section(rows=[
            dict(items=64, calls=10, gsoap_request_bytes=mb // 10, variants=dict(
                default=v(0.4, mb // 10, 1000, 1050), never=None, gsoap=v(4.0, mb // 10, 1, 2))),
            dict(items=6400, calls=2, gsoap_request_bytes=10 * mb, variants=dict(
                default=v(52.0, 10 * mb, 1000, 6000)))],
            generated=dict(limit=30, rows=[dict(items=64, bytes=mb, fixed_bytes=mb // 2, n=2,
                                                gn=3, lather_ms=2.0, lather_fixed_ms=1.0,
                                                gsoap_ms="timeout", gsoap_roundtrip_ms=None)]))

    def test_size_cells_and_goals(self):
        cell = compare.size_cell(dict(ms=45.0, request_bytes=10 << 20, rss_base_kb=1000,
                                      rss_kb=6120))
        self.assertEqual(cell, dict(ms="45.000", mb="10.000", mspmb="4.50", rss="5.0",
                                    ratio="0.50"))
        self.assertEqual(compare.size_cell(None)["ms"], "-")
        s = compare.sizes_summary(self.sizes())
        self.assertFalse(s["goal_mspmb"])  # 5.2 ms/MB at the largest size
        self.assertFalse(s["goal_flat"])  # against 4.0 at 64 items: above 1.2x
        self.assertTrue(s["goal_rss"])

    def test_generated_table_gives_a_lower_bound_when_gsoap_timed_out(self):
        text = "\n".join(compare.render_sizes(self.sizes()))
        self.assertIn("| 64 | 1.000 | 2.000 | 2.00 | 2.00 | > 30 s | > 30 s | > 5000.00 | - |",
                      text)

    def test_drb_goal(self):
        text = "\n".join(compare.render_drb(section(drb_median_s=0.0183, lather_median_s=0.0036)))
        self.assertIn("| 0.0036 | 0.20 |", text)
        self.assertIn("(ratio < 1): **met**", text)
        text = "\n".join(compare.render_drb(section(drb_median_s=None, lather_median_s=0.0036)))
        self.assertIn("**not measured**", text)


class ResultsFile(unittest.TestCase):
    OLD = ("# results\n\nbefore\n\n" + compare.BEGIN + "\n## Peer comparison\n\n"
           "<!-- compare.sh:section 1 -->\n### 1. old one\n\nold table 1\n\n"
           "<!-- compare.sh:section 7 -->\n### 7. old seven\n\nold table 7\n"
           + compare.END + "\n\nafter\n")

    def results(self):
        return dict(version=1, run=dict(started="2000-01-01 00:00 UTC", mode="quick", only="7"),
                    sections={"7": section(drb_median_s=0.02, lather_median_s=0.01)})

    def test_block_replaces_rendered_sections_and_keeps_the_others(self):
        old_block = self.OLD.split(compare.BEGIN)[1].split(compare.END)[0]
        text = compare.splice_block(self.OLD, compare.render_block(self.results(), old_block))
        self.assertTrue(text.startswith("# results\n\nbefore\n\n"))
        self.assertTrue(text.endswith(compare.END + "\n\nafter\n"))
        self.assertIn("old table 1", text)
        self.assertNotIn("old table 7", text)
        self.assertIn("| lather (lather-fetch-server / lather-fetch-client) | 0.0100 | 0.50 |",
                      text)
        self.assertLess(text.index("section 1 -->"), text.index("section 7 -->"))

    def test_block_is_appended_when_there_is_none(self):
        text = compare.splice_block("# results\n", compare.render_block(self.results()))
        self.assertTrue(text.startswith("# results\n\n" + compare.BEGIN))

    def test_merge_keeps_older_sections(self):
        old = dict(version=1, run=dict(mode="full"), sections={"1": {"a": 1}, "7": {"b": 1}})
        merged = compare.merge_results(old, self.results())
        self.assertEqual(sorted(merged["sections"]), ["1", "7"])
        self.assertEqual(merged["run"]["mode"], "quick")
        self.assertEqual(merged["sections"]["7"]["drb_median_s"], 0.02)

    def test_render_command_rewrites_the_block_from_the_json(self):
        with tempfile.TemporaryDirectory() as d:
            js, md = os.path.join(d, "r.json"), os.path.join(d, "R.md")
            with open(js, "w") as f:
                json.dump(self.results(), f)
            with open(md, "w") as f:
                f.write(self.OLD)
            rc = compare.main(["render", "--json", js, "--results", md, "--plots",
                               os.path.join(d, "plots"), "--work", os.path.join(d, "work")])
            self.assertEqual(rc, 0)
            with open(md) as f:
                text = f.read()
            self.assertIn("0.0100 | 0.50 |", text)
            self.assertIn("old table 1", text)

    def test_plot_data_has_one_line_per_point(self):
        sec = Rendering().e2e()
        lines, command = compare.plot_data(1, sec)["e2e"]
        self.assertEqual(lines, ["1 1 42000 8000 ? 11000", "100 1 2000 ? ? 1500"])
        self.assertIn("plot 'DAT' using", command)


class CommandLine(unittest.TestCase):
    def test_only_accepts_sections_1_to_8(self):
        self.assertEqual(compare.parse_only("8,1,1"), [1, 8])
        for bad in ("9", "x", ""):
            with self.assertRaises(Exception):
                compare.parse_only(bad)

    def test_unknown_option_exits_2(self):
        with self.assertRaises(SystemExit) as e:
            compare.main(["--bogus"])
        self.assertEqual(e.exception.code, 2)


class Processes(unittest.TestCase):
    def test_server_port_is_read_from_its_listening_line(self):
        with tempfile.TemporaryDirectory() as d:
            procs = compare.Processes(d)
            script = ("import time; print('listening on http://127.0.0.1:4711/x', flush=True); "
                      "time.sleep(60)")
            proc, port = procs.start("fake", [sys.executable, "-c", script])
            self.assertEqual(port, 4711)
            self.assertIsNone(proc.poll())
            procs.stop_all()
            self.assertIsNotNone(proc.poll())
            self.assertEqual(procs.started, [])

    def test_server_that_exits_before_listening_is_no_server(self):
        with tempfile.TemporaryDirectory() as d:
            proc, port = compare.Processes(d).start("gone", [sys.executable, "-c", "print(1)"])
            self.assertIsNone(proc)
            self.assertIsNone(port)

    def test_bounded_client_is_killed_at_its_limit(self):
        rc, _ = compare.run_bounded(0.5, [sys.executable, "-c", "import time; time.sleep(30)"])
        self.assertEqual(rc, 124)
        rc, out = compare.run_bounded(10, [sys.executable, "-c", "print('RESULT a=1')"])
        self.assertEqual((rc, compare.parse_result_line(out)), (0, {"a": 1.0}))


if __name__ == "__main__":
    unittest.main()
