"""docs/implementations.md, generated from the saved runs of the third-party
engines (docs/implementations/).

    python tools/implementations.py                  # write docs/implementations.md from the saved runs
    python tools/implementations.py --check          # exit 1 when the page is not what they give
    python tools/implementations.py --refresh [NAME ...]   # run the engines again, save their runs, write the page
    python tools/implementations.py --refresh [NAME ...] --fuzz-only   # their fuzzing campaigns only

Every figure of the page comes from a saved run: per engine, NAME.json (the
engine's reading profile, canastra_conformance.profile's JSON form, with the
status and articles of every case sent, the answers of those that did not
pass, and the date and commits it ran at: tools/saved_runs.py),
NAME.random-play.json (the adapter's --random-play summary) and, for the
engines whose entry has a `fuzz` campaign, fuzz/NAME/ (the report of
`canastra fuzz` against it, each ruleset played under the engine's own
readings as NAME.json shows them, fuzz-report.json, and the shrunk fixture of
each difference it found, fuzz/NAME/<ruleset>/<id>.yaml). What is written by
people is in engines.yaml: how to run each engine, what it is, and the
defects found in it, each with the fixtures that fail, the random-play seeds
or the fuzzing fixtures that show it. The saved runs are committed beside
the page: refreshing them needs every engine's checkout and toolchain, which
a test run does not have, and the test that the page is current reads them.

--refresh needs each engine's checkout in the environment variable its entry
names (and the interpreter one, where given), and fixtures and specs as
committed: the page quotes the commit the suite is from. It prints each
engine's CPU time (the suite, the random play) as it finishes, goes on past
an engine that cannot run (its earlier saved run stays) and exits 1 then.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shlex
import subprocess
import sys
from pathlib import Path

import yaml

from canastra_conformance.profile_report import declaration, evidence, rate, verdict
from canastra_tools.fuzz_report import report_json
from canastra_tools.saved_runs import dump, saved_run

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "implementations.md"
SAVED = ROOT / "docs" / "implementations"
ENGINES = SAVED / "engines.yaml"


# ------------------------------------------------------------------ data

def engines() -> dict:
    return yaml.safe_load(ENGINES.read_text(encoding="utf-8"))


def saved(name: str) -> tuple[dict | None, dict | None]:
    """The saved run and random play of an engine (None where there is none)."""
    run, play = SAVED / f"{name}.json", SAVED / f"{name}.random-play.json"
    return (json.loads(run.read_text(encoding="utf-8")) if run.exists() else None,
            json.loads(play.read_text(encoding="utf-8")) if play.exists() else None)


def fuzz_dir(name: str) -> Path:
    return SAVED / "fuzz" / name


def saved_fuzz(name: str) -> dict | None:
    """The saved fuzzing report of an engine (canastra fuzz's JSON), or None."""
    report = fuzz_dir(name) / "fuzz-report.json"
    return json.loads(report.read_text(encoding="utf-8")) if report.exists() else None


# ------------------------------------------------------------------ refresh

def _git(*args, cwd=ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


def command(entry: dict) -> list[str]:
    """The adapter's command line for an engine entry of engines.yaml."""
    checkout = os.environ.get(entry["checkout"])
    if not checkout:
        raise SystemExit(f"set {entry['checkout']} to your checkout of {entry['homepage']}")
    python = os.environ.get(entry["python"]) if entry.get("python") else sys.executable
    if not python:
        raise SystemExit(f"set {entry['python']} to an interpreter that runs this adapter (its README says which)")
    adapter = shlex.split(entry["adapter"])
    return [python, str(ROOT / adapter[0]), *adapter[1:], "--checkout", checkout]


def own_readings(name: str, ruleset: str) -> dict[str, str]:
    """The engine's own readings of a ruleset's disputes (its reading card in the
    saved run), those the spec still has: a card saved before a dispute's
    readings changed gives the dispute's default instead, said on stderr."""
    from canastra_ref.dsl.loader import load
    run, _ = saved(name)
    card = (run["profile"]["rulesets"].get(ruleset) if run else None) or {"profile": {}}
    disputes = load(ruleset).disputes
    chosen = {}
    for dispute, reading in card["profile"].items():
        if dispute in disputes and disputes[dispute].reading(reading) is not None:
            chosen[dispute] = reading
        else:
            print(f"{name}: {ruleset}: its saved reading {dispute}={reading} is not in the spec: fuzzed under the "
                  f"default", file=sys.stderr)
    return chosen


def refresh_fuzz(name: str, entry: dict) -> str:
    """Run the engine's fuzzing campaign (its entry's `fuzz`: rulesets, hands a
    ruleset, seed), each ruleset under the engine's own readings, and save the
    report and the shrunk fixtures in fuzz/NAME/ (the earlier ones stay if it
    fails); what it cost, in CPU seconds, as a line to print."""
    import shutil
    campaign = entry["fuzz"]
    out = fuzz_dir(name)
    new = out.with_name(f"{name}.new")
    shutil.rmtree(new, ignore_errors=True)
    began = _cpu()
    header, rulesets = {}, []
    try:
        for ruleset in campaign["rulesets"]:
            argv = [sys.executable, "-m", "canastra_cli", "fuzz", "--impl", shlex.join(command(entry)),
                    "--ruleset", ruleset, "--cases", str(campaign["hands"]), "--seed", str(campaign.get("seed", 0)),
                    "--out", str(new), "--format", "json"]
            for dispute, reading in own_readings(name, ruleset).items():
                argv += ["--reading", f"{dispute}={reading}"]
            done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
            if done.returncode not in (0, 1):
                raise SystemExit(f"canastra fuzz failed on {ruleset}: {done.stderr.strip()[-2000:]}")
            try:
                report = json.loads(done.stdout)
            except ValueError:
                raise SystemExit(f"canastra fuzz on {ruleset} exited {done.returncode} without its report: "
                                 f"{done.stderr.strip()[-2000:]}") from None
            header = {k: v for k, v in report.items() if k not in ("format", "format_version", "rulesets", "summary")}
            rulesets += report["rulesets"]
        for group in (g for r in rulesets for g in r["groups"] if g["fixture"]):
            group["fixture"] = (out / Path(group["fixture"]).relative_to(new)).relative_to(ROOT).as_posix()
        report = report_json(header, rulesets)
        report["canastra_spec"] = {"commit": _git("rev-parse", "--short", "HEAD")}
        report["engine"] = {"commit": _git("rev-parse", "--short", "HEAD", cwd=os.environ[entry["checkout"]])}
        report["command"] = entry["adapter"]          # the machine's paths left out
        (new / "fuzz-report.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n",
                                              encoding="utf-8")
        shutil.rmtree(out, ignore_errors=True)
        new.rename(out)
    finally:
        shutil.rmtree(new, ignore_errors=True)
    return f"{name}: fuzzing ({len(rulesets)} rulesets, {report['summary']['steps']:,} steps compared) " \
           f"{_cpu() - began:,.0f} s of CPU"


def refresh(name: str, entry: dict, random_play: bool = True) -> str:
    """Run an engine through the suite (and its random play), save what they give;
    what it cost, in CPU seconds, as a line to print."""
    from canastra_conformance.fixtures import load_all
    from canastra_conformance.paths import FIXTURES_DIR
    from canastra_conformance.results import suite_info
    from canastra_conformance.runner import Runner
    from canastra_conformance.suite import run_suite

    argv = command(entry)
    began = _cpu()
    cases = load_all()
    suite = suite_info(FIXTURES_DIR, len(cases))
    result = run_suite(Runner(argv, judge_by_readings=False), cases, suite)
    if result.start_error:
        raise SystemExit(f"it did not start: {result.start_error}")
    run = saved_run(result.to_json(), cases, spec_commit=_git("rev-parse", "--short", "HEAD"),
                    engine_commit=_git("rev-parse", "--short", "HEAD", cwd=os.environ[entry["checkout"]]))
    (SAVED / f"{name}.json").write_text(dump(run), encoding="utf-8")
    ran = _cpu()
    cost = f"{name}: the suite ({len(run['cases'])} cases sent) {ran - began:,.0f} s of CPU"
    if not random_play:
        return cost + "; random play kept"
    play = subprocess.run([*argv, "--random-play", str(entry["random_play"])], capture_output=True, text=True)
    if play.returncode != 0:
        raise SystemExit(f"{name}: --random-play exited {play.returncode}: {play.stderr.strip()[-2000:]}")
    (SAVED / f"{name}.random-play.json").write_text(json.dumps(json.loads(play.stdout), indent=1) + "\n",
                                                    encoding="utf-8")
    return cost + f", random play ({entry['random_play']} hands) {_cpu() - ran:,.0f} s"


def _cpu() -> float:
    """CPU seconds used so far by this process and the processes it waited for: the
    adapters, and the engine processes each adapter reaps as it exits."""
    mine, theirs = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + theirs.ru_utime + theirs.ru_stime


def check_committed() -> None:
    dirty = _git("status", "--porcelain", "--", "conformance/fixtures", "spec", "grammar")
    if dirty:
        raise SystemExit("the fixtures, specs or grammar differ from the last commit; commit them first, so that "
                         "the page names the suite it ran:\n" + dirty)


# ------------------------------------------------------------------ render

def _changed(chosen: dict, card: dict) -> str:
    changed = [f"{d}={r}" for d, r in chosen.items() if card["disputes"][d]["default"] != r]
    return ", ".join(changed) or "the defaults"


def _declarations(run: dict) -> str:
    counts = {"kept": 0, "broken": 0, "unknown": 0}
    for card in run["profile"]["rulesets"].values():
        for d in card["disputes"].values():
            if d["declaration"]:
                counts[d["declaration"]] += 1
    if not any(counts.values()):
        return "none"
    return f"{counts['kept']} kept, {counts['broken']} broken, {counts['unknown']} not shown"


def _code(ids) -> str:
    return ", ".join(f"`{i}`" for i in ids)


def _natural(key: str):
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", key) if p]


def summary_table(names: list[str], entries: dict, runs: dict) -> list[str]:
    lines = ["| implementation | language | closest ruleset | under its own readings | under the default "
             "readings | under its declared readings | declared readings |", "|---|---|---|---|---|---|---|"]
    for name in names:
        run, entry = runs[name], entries[name]
        near = run["profile"]["closest"]
        if near is None:
            lines.append(f"| {entry['name']} | {entry['language']} | - | - | - | - | {_declarations(run)} |")
            continue
        card = run["profile"]["rulesets"][near["ruleset"]]
        lines.append(f"| {entry['name']} | {entry['language']} | {near['ruleset']} | {rate(card['under']['profile'])}"
                     f" | {rate(card['under']['default'])} | {rate(card['under'].get('declared'))} | "
                     f"{_declarations(run)} |")
    return lines


def engine_section(name: str, entry: dict, run: dict | None, play: dict | None) -> list[str]:
    lines = [f"## {entry['name']}", "", entry["about"].strip(), ""]
    if run is None:
        return lines + ["Not run yet: `python tools/implementations.py --refresh " + name + "`.", ""]
    engine = run["engine"]
    when = f" on {run['date'][:10]}" if run.get("date") else ""
    lines += [f"Run at its commit `{engine['commit']}`{when} through `{entry['adapter']}`; it claims "
              f"{', '.join(engine['rulesets'])}.", ""]
    cards = run["profile"]["rulesets"]
    graded = {r: c for r, c in cards.items() if c["under"]["profile"]["graded"] or c["under"]["default"]["graded"]}
    lines += ["| ruleset | under its own readings | under the default readings | under its declared readings "
              "| its own readings |", "|---|---|---|---|---|"]
    for ruleset, card in graded.items():
        lines.append(f"| {ruleset} | {rate(card['under']['profile'])} | {rate(card['under']['default'])} | "
                     f"{rate(card['under'].get('declared'))} | {_changed(card['profile'], card)} |")
    idle = [r for r in cards if r not in graded]
    if idle:
        lines += ["", f"No case graded: {', '.join(idle)}."]
    lines += ["", "Reading card (per reading, a/g +k (n): a of the g graded cases that tell it apart answered its "
              "way, k cases of the other readings answered its way too, n not graded; the disputes with graded "
              "evidence or a declaration):", "",
              "| ruleset | dispute | verdict | evidence | declared |", "|---|---|---|---|---|"]
    for ruleset, card in graded.items():
        for dispute, d in card["disputes"].items():
            tested = any(c["passed"] + c["failed"] for c in d["readings"].values())
            if tested or d["declared"] is not None:
                cells = ", ".join(f"{r} {evidence(c)}" for r, c in d["readings"].items())
                lines.append(f"| {ruleset} | {dispute} | {verdict(d)} | {cells} | {declaration(d)} |")
    lines += ["", "Defects:" if entry.get("defects") else "Defects: none found.", ""]
    cited = set()
    for i, defect in enumerate(entry.get("defects") or [], 1):
        cited.update(defect.get("cases", []))
        evidence_ = []
        if defect.get("cases"):
            evidence_.append(_code(defect["cases"]))
        if defect.get("seeds"):
            evidence_.append("random play, seed " + ", ".join(map(str, defect["seeds"])))
        if defect.get("fuzz"):
            evidence_.append("fuzzing, " + ", ".join(f"[`{i}`]({_fuzz_fixture(name, i)})" for i in defect["fuzz"]))
        if defect.get("probe"):
            evidence_.append(" ".join(defect["probe"].split()))
        text = " ".join(defect["text"].split())
        lines.append(f"{i}. **{defect['title']}** ({', '.join(defect['articles'])}) {text} "
                     f"Shown by: {'; '.join(evidence_)}.")
    if entry.get("defects"):
        lines.append("")
    near = run["profile"]["closest"]
    if near:
        failing = [i for i in cards[near["ruleset"]]["under"]["profile"]["failing"] if i not in cited]
        by_article: dict[str, list[str]] = {}
        for case_id in failing:
            by_article.setdefault(run["cases"][case_id][1][0], []).append(case_id)
        if failing:
            lines += [f"Its other failures in {near['ruleset']}, under its own readings (rule differences unless "
                      f"listed above), by first article:", ""]
            for article in sorted(by_article, key=_natural):
                lines.append(f"- {article}: {_code(by_article[article])}")
            lines.append("")
    fuzzed = saved_fuzz(name)
    if fuzzed:
        lines += fuzz_lines(name, entry, fuzzed)
    if play:
        findings = play.get("findings", {})
        found = "; ".join(f"{kind}: {f['count']} (seed {', '.join(str(e['seed']) for e in f['examples'])})"
                          for kind, f in findings.items()) or "nothing broke"
        lines += [f"Random play with its own move generator: {play['hands']} hands from seed "
                  f"{play['first_seed']}, {play['hands_ended']} ended, {play['actions']:,} moves; {found}.", ""]
    return lines


def _fuzz_fixture(name: str, ident: str) -> str:
    """The path, relative to the page, of a saved fuzzing fixture of an engine."""
    found = sorted(fuzz_dir(name).glob(f"*/{ident}.yaml"))
    if not found:
        raise SystemExit(f"{name}: no saved fuzzing fixture {ident} in {fuzz_dir(name)}")
    return found[0].relative_to(PAGE.parent).as_posix()


def fuzz_lines(name: str, entry: dict, report: dict) -> list[str]:
    """The engine's fuzzing campaign: what ran, what it found, the differences
    that are not defects listed above (rule differences)."""
    listed = {i for d in entry.get("defects") or [] for i in d.get("fuzz", [])}
    budget = report["budget"]
    amount = f"{budget['seconds']:g} s" if "seconds" in budget else f"{budget['cases']:,} hands"
    runs = "; ".join(f"{r['ruleset']}: {r['hands']:,} hands, {r['steps']:,} steps compared, {len(r['groups'])} "
                     f"difference{'s' if len(r['groups']) != 1 else ''} ({_findings(r)})"
                     + (f", left early: {r['abandoned']}" if r.get("abandoned") else "")
                     for r in report["rulesets"])
    lines = [f"Differential fuzzing (`canastra fuzz`, seed {report['seed']}, {amount} a ruleset under its own "
             f"readings, canastra-spec `{report['canastra_spec']['commit']}`, engine "
             f"`{report['engine']['commit']}`): {runs}. Each difference is shrunk to a fixture in "
             f"[fuzz/{name}/](implementations/fuzz/{name}/).", ""]
    if entry.get("fuzz_notes"):
        lines += [" ".join(entry["fuzz_notes"].split()), ""]
    others = [(r["ruleset"], g) for r in report["rulesets"] for g in r["groups"]
              if (g["case"] or {}).get("id") not in listed]
    if others:
        lines += ["Its other differences (rule differences unless listed above), by reason, article and kind:", ""]
        for ruleset, g in others:
            ident = (g["case"] or {}).get("id")
            where = f" [`{ident}`]({_fuzz_fixture(name, ident)})" if ident else ""
            lines.append(f"- {ruleset}: {g['reason']} ({g['article'] or 'no article cited'}), {g['kind']}, "
                         f"{g['count']:,}x: the engine answers {g['answer']}.{where}")
        lines.append("")
    return lines


def _findings(ruleset: dict) -> str:
    count = sum(g["count"] for g in ruleset["groups"])
    return f"{count:,} finding{'s' if count != 1 else ''}"


def render() -> str:
    data = engines()
    entries = data["engines"]
    runs, plays = {}, {}
    for name in entries:
        runs[name], plays[name] = saved(name)
    done = [n for n in entries if runs[n] is not None]
    spec = {(runs[n]["canastra_spec"]["commit"], runs[n]["canastra_spec"]["digest"], runs[n]["canastra_spec"]["cases"])
            for n in done}
    lines = ["# Third-party implementations through the conformance suite", "",
             "<!-- Generated by `python tools/implementations.py` from docs/implementations/: the saved runs "
             "(*.json) and engines.yaml. Edit those, not this page. -->", "",
             data["introduction"].strip(), ""]
    for commit, digest, count in sorted(spec):
        lines.append(f"The saved runs are of canastra-spec commit `{commit}`: suite digest `{digest}`, "
                     f"{count} cases.")
    lines += ["", "## Summary", "", *summary_table(done, entries, runs), "",
              data["reading"].strip(), "", "## Reproducing", "", "```sh", *_reproducing(entries), "```", ""]
    for name, entry in entries.items():
        lines += engine_section(name, entry, runs[name], plays[name])
    if data.get("not_driven"):
        lines += ["## Not driven", "", data["not_driven"].strip(), ""]
    return "\n".join(lines).rstrip() + "\n"


def _reproducing(entries: dict) -> list[str]:
    lines = ["# each adapter's README says how to get the checkout and its toolchain"]
    seen = set()
    for entry in entries.values():
        for variable, what in ((entry["checkout"], f"your checkout of {entry['homepage']}"),
                               (entry.get("python"), f"see {Path(entry['adapter'].split()[0]).parent}/README.md")):
            if variable and variable not in seen:
                seen.add(variable)
                lines.append(f"export {variable}=...   # {what}")
    lines += ["python tools/implementations.py --refresh        # every engine: run, profile, random play, this page",
              "python tools/implementations.py --refresh NAME   # one of: " + ", ".join(entries),
              "canastra profile --impl \"python tools/adapters/canastra_thesis/adapter.py --checkout ...\"   "
              "# one engine's reading card"]
    return lines


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="exit 1 when docs/implementations.md is not current")
    p.add_argument("--refresh", nargs="*", metavar="NAME",
                   help="run these engines (all without a name) and save their runs before writing the page")
    p.add_argument("--keep-random-play", action="store_true",
                   help="with --refresh: keep the saved random play (it takes long) and rerun the suite only")
    p.add_argument("--keep-fuzz", action="store_true",
                   help="with --refresh: keep the saved fuzzing campaign (it takes long)")
    p.add_argument("--fuzz-only", action="store_true",
                   help="with --refresh: run the fuzzing campaigns only, keeping the other saved runs")
    args = p.parse_args(argv)
    failed = []
    if args.refresh is not None:
        check_committed()
        entries = engines()["engines"]
        unknown = [n for n in args.refresh if n not in entries]
        if unknown:
            p.error(f"unknown engine {unknown[0]!r}; engines.yaml has {', '.join(entries)}")
        for name in args.refresh or list(entries):
            print(f"running {name}...", file=sys.stderr, flush=True)
            try:
                if not args.fuzz_only:
                    print(refresh(name, entries[name], random_play=not args.keep_random_play), file=sys.stderr,
                          flush=True)
                if entries[name].get("fuzz") and not args.keep_fuzz:
                    print(refresh_fuzz(name, entries[name]), file=sys.stderr, flush=True)
            except SystemExit as exc:           # one engine's checkout or toolchain missing: go on with the others
                print(f"{name}: not refreshed: {exc}", file=sys.stderr, flush=True)
                failed.append(name)
    page = render()
    if args.check:
        if PAGE.read_text(encoding="utf-8") != page:
            print(f"{PAGE} is not what the saved runs give: run python tools/implementations.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(page, encoding="utf-8")
    if failed:
        print(f"not refreshed: {', '.join(failed)} (their saved runs are the earlier ones)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
