"""Benchmark: through `adjudicator serve`, the time from an orders email's delivery to
its receipt and the step's reports arriving, over 200 emails.

    .venv/bin/python benchmarks/bench_serve.py [--emails 200] [--campaigns 4] [--baseline 5]

(About a minute on two cores.) In a temporary folder: a referee key, a store with
CAMPAIGNS Port Arthur campaigns, `adjudicator serve --lmtp` as its own process, and a
loopback SMTP server (aiosmtpd, in this process) to which the service sends its
replies. For each email, the side the campaign waits for writes its orders (the
automatic commander; not timed), the orders are delivered by LMTP as a mail server
delivers them, and the clock stops when the receipt and both players' reports of the
step have arrived at the SMTP server. The campaigns take turns; a finished campaign is
replaced by a new one.

Printed: the median and p95 latency, the LMTP answer (message durable) alone, the
service's CPU time per email (from /proc), each against its target; and, as the
baseline measured in the same run, the same step as a referee's cron job runs it
without the service: `adjudicator step NAME FILE.eml` in a new process (BASELINE
emails, median), with the ratio.

Targets: delivery to receipt and reports under 50 ms at the median, under 150 ms at p95.

`--phases N` measures instead where the service's time goes: the desk (what `serve`
runs for each message) in this process, over N orders emails, with the CPU time of its
thread in each phase -- taking the mail in (durable: LMTP's 250), adjudicating (the
reports queued), sending (SMTP, then the referee's .eml copies) -- and the store
commits and file fsyncs per email.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import smtplib
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from email import policy
from email.parser import BytesParser
from pathlib import Path

from aiosmtpd.controller import Controller

from bench_campaign import PLAYERS, REFEREE, Writer, cli, command_env, orders_email, players
from common import calibration

from adjudicator.campaign import Campaigns
from adjudicator.fairdice import generate_keypair, save_private_key
from adjudicator.store import Store

MEDIAN_TARGET, P95_TARGET = 0.050, 0.150
REPORT = " - report for "  # in the subject of each player's report of a step
HOST = "127.0.0.1"


class Arrivals:
    """The loopback SMTP server's handler: when each message arrived, by In-Reply-To."""

    def __init__(self) -> None:
        self.lock = threading.Condition()
        self.log: list[tuple[float, str, str]] = []  # (time, in-reply-to, subject)

    async def handle_DATA(self, server, session, envelope):
        now = time.perf_counter()
        message = BytesParser(policy=policy.default).parsebytes(envelope.content, headersonly=True)
        with self.lock:
            self.log.append((now, str(message.get("In-Reply-To", "")).strip(), str(message["Subject"])))
            self.lock.notify_all()
        return "250 OK"

    def wait_step(self, since: int, message_id: str, timeout: float = 20.0) -> float | None:
        """When the receipt of ``message_id`` and two reports have arrived after ``since``."""
        end = time.perf_counter() + timeout
        with self.lock:
            while True:
                new = self.log[since:]
                # a player's report may thread under their orders mail too: told apart by subject
                receipt = [t for t, reply_to, subject in new if reply_to == message_id and REPORT not in subject]
                reports = [t for t, _, subject in new if REPORT in subject]
                if receipt and len(reports) >= 2:
                    return max(receipt[0], *reports[:2])
                left = end - time.perf_counter()
                if left <= 0:
                    return None
                self.lock.wait(left)


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def new_campaign(store_path: Path, key, index: int) -> str:
    name = f"bench-{index}"
    with Store.open(store_path) as store:
        Campaigns(store).create(name, "port-arthur", players(), key, referee_address=REFEREE)
    return name


def bench(emails: int, campaign_count: int, baseline_count: int) -> None:
    calibration_seconds = calibration()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        key = generate_keypair()[0]
        save_private_key(folder / "referee.key", key, None)
        store_path = folder / "campaigns.sqlite3"
        names = [new_campaign(store_path, key, i) for i in range(campaign_count)]
        made = campaign_count
        arrivals = Arrivals()
        smtp = Controller(arrivals, hostname=HOST, port=free_port())
        smtp.start()
        lmtp_port = free_port()
        env = command_env(folder, True)
        env.update(ADJUDICATOR_STORE=str(store_path), ADJUDICATOR_KEY=str(folder / "referee.key"),
                   ADJUDICATOR_KEY_PASSPHRASE="", ADJUDICATOR_SMTP_HOST=HOST,
                   ADJUDICATOR_SMTP_PORT=str(smtp.port), ADJUDICATOR_SMTP_SECURITY="none")
        health = folder / "health"
        service = subprocess.Popen(cli() + ["serve", "--lmtp", f"{HOST}:{lmtp_port}", "--health-file", str(health),
                                            "--outbox", str(folder / "outbox"), "--remind-hours", "0"],
                                   env=env, cwd=folder, stderr=subprocess.DEVNULL)
        try:
            while not (health.exists() and health.read_text().startswith("ok ")):
                if service.poll() is not None:
                    sys.exit("adjudicator serve did not start")
                time.sleep(0.05)
            writer = Writer(random.Random(1904))
            latencies, answers, failures = [], [], 0
            cpu_before = cpu_seconds(service.pid)
            for index in range(emails + 1):  # the first email warms the service and is not counted
                name = names[index % len(names)]
                with Store.open(store_path) as store:
                    text = writer.orders(Campaigns(store), name)
                if text is None:  # finished: a new campaign takes its place
                    names[index % len(names)] = name = new_campaign(store_path, key, made)
                    made += 1
                    with Store.open(store_path) as store:
                        text = writer.orders(Campaigns(store), name)
                raw = orders_email(name, text)
                message_id = re.search(rb"^Message-ID: (<[^>]+>)", raw, re.M | re.I).group(1).decode()
                since = len(arrivals.log)
                start = time.perf_counter()
                with smtplib.LMTP(HOST, lmtp_port) as lmtp:
                    lmtp.sendmail(PLAYERS["japan"][0], [REFEREE], raw)
                answered = time.perf_counter()
                done = arrivals.wait_step(since, message_id)
                if index == 0:
                    cpu_before = cpu_seconds(service.pid)
                    continue
                if done is None:
                    failures += 1
                    continue
                latencies.append(done - start)
                answers.append(answered - start)
            cpu_per_email = (cpu_seconds(service.pid) - cpu_before) / max(1, emails)
        finally:
            service.terminate()
            service.wait(30)
            smtp.stop()
        baseline = cold_steps(folder, env, key, baseline_count)

    median, p95 = statistics.median(latencies), percentile(latencies, 0.95)
    print(f"through serve: {len(latencies)} orders emails, {made} campaigns, {failures} not answered in 20 s")
    print(f"  delivery -> receipt and reports: median {median * 1000:.1f} ms (target < {MEDIAN_TARGET * 1000:.0f},"
          f" {median / MEDIAN_TARGET:.2f}x target), p95 {p95 * 1000:.1f} ms (target < {P95_TARGET * 1000:.0f},"
          f" {p95 / P95_TARGET:.2f}x target)  {'MET' if median < MEDIAN_TARGET and p95 < P95_TARGET else 'NOT MET'}")
    print(f"  LMTP 250 (message durable): median {statistics.median(answers) * 1000:.1f} ms, "
          f"p95 {percentile(answers, 0.95) * 1000:.1f} ms")
    print(f"  service CPU per email: {cpu_per_email * 1000:.1f} ms")
    if baseline:
        print(f"baseline, the same step as `adjudicator step NAME FILE.eml` (a new process each): median "
              f"{baseline * 1000:.0f} ms over {baseline_count}; serve is {baseline / median:.1f}x faster")
    print(f"calibration (200,000 dice from random.Random): {calibration_seconds * 1000:.0f} ms; "
          f"median = {median / calibration_seconds:.2f} calibrations")
    print(f"machine load (1, 5, 15 min): {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def cold_steps(folder: Path, env: dict, key, count: int) -> float | None:
    """Median wall time of `adjudicator step NAME FILE.eml` on a fresh campaign."""
    if count <= 0:
        return None
    env = {k: v for k, v in env.items() if not k.startswith("ADJUDICATOR_SMTP")}
    store_path = Path(env["ADJUDICATOR_STORE"])
    name = new_campaign(store_path, key, 9999)
    writer = Writer(random.Random(7))
    times = []
    for index in range(count + 1):
        with Store.open(store_path) as store:
            text = writer.orders(Campaigns(store), name)
        eml = folder / f"cold-{index}.eml"
        eml.write_bytes(orders_email(name, text))
        start = time.perf_counter()
        done = subprocess.run(cli() + ["step", name, str(eml), "--outbox", str(folder / "cold-outbox")],
                              env=env, cwd=folder, capture_output=True, text=True)
        elapsed = time.perf_counter() - start
        if done.returncode != 0:
            sys.exit(f"adjudicator step failed: {done.stderr}")
        if index:
            times.append(elapsed)
    return statistics.median(times)


def phases(emails: int, campaign_count: int) -> None:
    """CPU time of the desk's thread per phase, over ``emails`` orders emails."""
    from adjudicator.mail import SmtpSettings
    from adjudicator.service.desk import Desk, Tally, settle_heap
    from adjudicator.service.settings import ServiceSettings
    from adjudicator.store import db

    calibration_seconds = calibration()
    counts = {"commits": 0, "fsyncs": 0}
    commit, fsync = db.Database.commit, os.fsync

    def counted_commit(self):
        counts["commits"] += 1
        return commit(self)

    def counted_fsync(fd):
        counts["fsyncs"] += 1
        return fsync(fd)

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        key = generate_keypair()[0]
        store_path = folder / "campaigns.sqlite3"
        names = [new_campaign(store_path, key, i) for i in range(campaign_count)]
        made = campaign_count
        smtp = Controller(Arrivals(), hostname=HOST, port=free_port())
        smtp.start()
        desk = Desk(ServiceSettings(store=store_path, outbox=folder / "outbox", remind_hours=0), key,
                    SmtpSettings.from_env({"ADJUDICATOR_SMTP_HOST": HOST, "ADJUDICATOR_SMTP_PORT": str(smtp.port),
                                           "ADJUDICATOR_SMTP_SECURITY": "none"}), Tally())
        writer = Writer(random.Random(1904))
        spent: dict[str, list[float]] = {"take in": [], "adjudicate": [], "send": []}
        db.Database.commit, os.fsync = counted_commit, counted_fsync
        try:
            for index in range(emails + 1):  # the first email warms the desk and is not counted
                name = names[index % len(names)]
                text = writer.orders(desk.campaigns, name)
                if text is None:
                    names[index % len(names)] = name = new_campaign(store_path, key, made)
                    made += 1
                    text = writer.orders(desk.campaigns, name)
                raw = orders_email(name, text)
                if index == 1:
                    counts.update(commits=0, fsyncs=0)
                    settle_heap()  # as the service does after its first message
                moments = [time.thread_time()]
                taken = desk.take(raw, "bench")
                moments.append(time.thread_time())
                if taken.outcome == "accepted":
                    desk.advance(taken.campaign)
                moments.append(time.thread_time())
                desk.send(taken.campaign)
                moments.append(time.thread_time())
                if index:
                    for (phase, values), start, end in zip(spent.items(), moments, moments[1:]):
                        values.append(end - start)
        finally:
            db.Database.commit, os.fsync = commit, fsync
            desk.close()
            smtp.stop()
    totals = [sum(step) for step in zip(*spent.values())]
    print(f"the desk's CPU time per orders email, {emails} emails ({made} campaigns; the first players' "
          "passwords checked in full once each):")
    for phase, values in spent.items():
        print(f"  {phase:<11} median {statistics.median(values) * 1000:6.1f} ms, mean {statistics.mean(values) * 1000:6.1f} ms")
    print(f"  {'all':<11} median {statistics.median(totals) * 1000:6.1f} ms, mean {statistics.mean(totals) * 1000:6.1f} ms"
          f" = {statistics.median(totals) / calibration_seconds:.3f} calibrations")
    print(f"  store commits per email: {counts['commits'] / emails:.1f}; file fsyncs per email: "
          f"{counts['fsyncs'] / emails:.1f} (SQLite's own fsyncs not counted)")
    print(f"calibration (200,000 dice from random.Random): {calibration_seconds * 1000:.0f} ms")
    print(f"machine load (1, 5, 15 min): {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--emails", type=int, default=200)
    parser.add_argument("--campaigns", type=int, default=4)
    parser.add_argument("--baseline", type=int, default=5, help="cold `step` commands timed as the baseline")
    parser.add_argument("--phases", type=int, metavar="N", help="CPU time per phase of the desk, over N emails")
    args = parser.parse_args()
    if args.phases:
        phases(args.phases, args.campaigns)
    else:
        bench(args.emails, args.campaigns, args.baseline)


if __name__ == "__main__":
    main()
