"""Fingerprint implementations from their conformance reports: which of our
rulesets each one plays closest to, and the articles where it deviates.

    python tools/fingerprint.py REPORT.json [REPORT.json ...] [--json] [--markdown]
    python tools/fingerprint.py --run NAME="COMMAND" [--run ...] [--save DIR]

A report is the JSON written by `canastra conformance --impl COMMAND --format
json`; --run produces one per implementation through that very runner (the
whole suite, every ruleset). Per implementation and ruleset it counts the
cases passed, failed, errored and skipped, and how many graded cases agree on
the verdicts alone (a case whose only mismatches are reasons, states or
scores agrees on verdicts). The closest ruleset is the one with the highest
pass rate among those with enough graded cases (at least MIN_GRADED, or a
tenth of the best-covered ruleset); its deviations are the articles cited by
its failed or errored cases, each with those fixture ids.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

MIN_GRADED = 10
GRADED = ("passed", "failed", "errored")


def load(path: str) -> dict:
    data = json.loads(Path(path).read_text())
    if data.get("format") != "canastra-conformance-report":
        raise SystemExit(f"{path}: not a canastra conformance report")
    return data


def impl_name(report: dict, fallback: str) -> str:
    impl = report.get("implementation") or {}
    return impl.get("name") or fallback


def verdict_agrees(record: dict) -> bool:
    if record["status"] == "passed":
        return True
    if record["status"] != "failed":
        return False
    return not any(m["path"].endswith(".verdict") for m in record.get("mismatches", []))


def case_kinds() -> dict[str, str]:
    """Fixture id -> "actions" | "query", from the suite when it can be loaded."""
    from canastra_conformance.fixtures import load_all
    from canastra_ref.errors import CanastraError
    try:
        return {c.id: c.kind for c in load_all()}
    except CanastraError:
        return {}


def per_ruleset(report: dict, kinds: dict[str, str] | None = None) -> dict[str, dict]:
    kinds = case_kinds() if kinds is None else kinds
    out: dict[str, dict] = defaultdict(lambda: {"passed": 0, "failed": 0, "errored": 0, "skipped": 0,
                                                "verdicts_agree": 0, "actions_graded": 0})
    for case_id, record in report["cases"].items():
        row = out[record["ruleset"]]
        row[record["status"]] += 1
        if record["status"] in ("passed", "failed") and kinds.get(case_id) == "actions":
            row["actions_graded"] += 1
            row["verdicts_agree"] += verdict_agrees(record)
    for row in out.values():
        graded = row["passed"] + row["failed"] + row["errored"]
        row["graded"] = graded
        row["rate"] = round(row["passed"] / graded, 3) if graded else None
    return dict(out)


def articles(report: dict, ruleset: str) -> dict[str, dict]:
    """article -> {passed, failed, errored, skipped, cases: [failing ids]}."""
    out: dict[str, dict] = defaultdict(lambda: {"passed": 0, "failed": 0, "errored": 0, "skipped": 0, "cases": []})
    for case_id, record in report["cases"].items():
        if record["ruleset"] != ruleset:
            continue
        for article in record["articles"]:
            cell = out[article]
            cell[record["status"]] += 1
            if record["status"] in ("failed", "errored"):
                cell["cases"].append(case_id)
    return dict(out)


def fingerprint(report: dict, kinds: dict[str, str] | None = None) -> dict:
    rows = per_ruleset(report, kinds)
    best_graded = max((r["graded"] for r in rows.values()), default=0)
    floor = max(MIN_GRADED, best_graded // 10)
    eligible = {k: r for k, r in rows.items() if r["graded"] >= floor}
    closest = None
    if eligible:
        closest = max(eligible, key=lambda k: (eligible[k]["rate"], eligible[k]["graded"]))
    deviations = {}
    if closest:
        for article, cell in sorted(articles(report, closest).items(), key=lambda kv: _natural(kv[0])):
            if cell["cases"]:
                deviations[article] = cell["cases"]
    return {"implementation": report.get("implementation"), "rulesets": rows, "closest": closest,
            "eligible_floor": floor, "deviations": deviations}


def _natural(key: str):
    import re
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", key) if p]


# ----------------------------------------------------------------- output

def text(prints: dict[str, dict]) -> str:
    from canastra_ref.display import printable
    lines = []
    for name, fp in prints.items():
        lines.append(printable(name, newlines=False))
        lines.append(f"  {'ruleset':<14} {'passed':>6} {'failed':>6} {'errored':>7} {'skipped':>7} "
                     f"{'rate':>6} {'verdicts':>9}")
        for ruleset, r in sorted(fp["rulesets"].items()):
            rate = f"{r['rate']:.0%}" if r["rate"] is not None else "-"
            verdicts = f"{r['verdicts_agree']}/{r['actions_graded']}" if r["actions_graded"] else "-"
            lines.append(f"  {ruleset:<14} {r['passed']:>6} {r['failed']:>6} {r['errored']:>7} {r['skipped']:>7} "
                         f"{rate:>6} {verdicts:>9}")
        lines.append(f"  closest ruleset: {fp['closest'] or '(none has enough graded cases)'}")
        if fp["deviations"]:
            lines.append(f"  deviates from {fp['closest']} at:")
            for article, cases in fp["deviations"].items():
                more = f" (+{len(cases) - 3} more)" if len(cases) > 3 else ""
                lines.append(f"    {article}: {', '.join(cases[:3])}{more}")
        lines.append("")
    return printable("\n".join(lines))        # names and ids come from the reports, as they were written


def markdown_matrix(reports: dict[str, dict]) -> str:
    """implementation x ruleset x article: one table per ruleset, a column per
    implementation, each cell passed/graded (skipped-only cells are '·')."""
    from canastra_ref.display import markdown_literal
    names = list(reports)
    rulesets = sorted({r["ruleset"] for rep in reports.values() for r in rep["cases"].values()})
    out = []
    for ruleset in rulesets:
        cells = {n: articles(reports[n], ruleset) for n in names}
        arts = sorted({a for c in cells.values() for a in c}, key=_natural)
        if not arts:
            continue
        out.append(f"#### {markdown_literal(ruleset)}\n")
        out.append("| article | " + " | ".join(markdown_literal(n) for n in names) + " |")
        out.append("|---|" + "---|" * len(names))
        for a in arts:
            row = []
            for n in names:
                c = cells[n].get(a)
                if not c:
                    row.append("")
                    continue
                graded = c["passed"] + c["failed"] + c["errored"]
                if not graded:
                    row.append("·")
                else:
                    mark = "" if c["passed"] == graded else " ✗"
                    row.append(f"{c['passed']}/{graded}{mark}")
            out.append(f"| {markdown_literal(a)} | " + " | ".join(row) + " |")
        out.append("")
    return "\n".join(out)


def run_reports(specs: list[str], save: str | None) -> dict[str, dict]:
    out = {}
    for spec in specs:
        name, _, command = spec.partition("=")
        if not command:
            raise SystemExit(f"--run takes NAME=COMMAND, not {spec!r}")
        target = Path(save or ".") / f"conformance-{name}.json"
        argv = [sys.executable, "-m", "canastra_cli", "conformance", "--impl", command,
                "--format", "json", "--output", str(target)]
        proc = subprocess.run(argv, capture_output=True, text=True)
        if not target.exists():
            raise SystemExit(f"{name}: the runner wrote no report:\n{proc.stderr[-2000:]}")
        out[name] = load(str(target))
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("reports", nargs="*", help="JSON reports of canastra conformance")
    p.add_argument("--run", action="append", default=[], metavar="NAME=COMMAND",
                   help="run the suite against COMMAND first (repeatable)")
    p.add_argument("--save", metavar="DIR", help="where --run writes its reports (default: .)")
    p.add_argument("--json", action="store_true", help="print the fingerprints as JSON")
    p.add_argument("--markdown", action="store_true", help="print the article matrix as Markdown")
    args = p.parse_args(argv)
    reports = {}
    for path in args.reports:
        report = load(path)
        reports[impl_name(report, Path(path).stem)] = report
    reports.update(run_reports(args.run, args.save))
    if not reports:
        p.error("give reports or --run")
    kinds = case_kinds()
    prints = {name: fingerprint(r, kinds) for name, r in reports.items()}
    if args.json:
        print(json.dumps(prints, indent=2, ensure_ascii=False))
    elif args.markdown:
        print(markdown_matrix(reports))
    else:
        print(text(prints))
    return 0


if __name__ == "__main__":
    sys.exit(main())
