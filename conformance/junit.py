"""JUnit XML for CI systems: one <testsuite> per ruleset, one <testcase> per
fixture (classname ruleset.file, name the fixture id). Behaviour failures are
<failure>, errors <error>, skips <skipped>; other-reading cases and expected
failures (xfail) are <skipped> too, with type "other-reading" or "xfail"; an
unexpected pass (xpass) is a <failure type="xpass"> when the run is strict.
The citation tier and the implementation's stderr go to <system-out> and
<system-err>. CI systems show these texts in logs and terminals: the control
characters of anything an implementation wrote are spelled out
(canastra_ref.display)."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

from canastra_ref.display import printable

from .grading import ERRORED, FAILED, OTHER_READING, SKIPPED, XFAIL, XPASS
from .results import RunResult, citation_tier, counts, display_path

# Characters XML 1.0 cannot carry at all (lone surrogates, U+FFFE, U+FFFF).
_INVALID = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _clean(text: str) -> str:
    """Text for XML: control characters spelled out, what XML cannot carry replaced."""
    return _INVALID.sub("\ufffd", printable(text))


def _mismatch_text(items) -> str:
    return "\n".join(f"{m.path}: expected {m.expected!r}, got {m.actual!r}" for m in items)


def _tallies(c: dict, strict: bool) -> dict:
    return {"tests": str(c["total"]), "failures": str(c[FAILED] + (c[XPASS] if strict else 0)),
            "errors": str(c[ERRORED]), "skipped": str(c[SKIPPED] + c[OTHER_READING] + c[XFAIL])}


def junit_xml(result: RunResult) -> str:
    total = counts(result.outcomes)
    root = ET.Element("testsuites", name="canastra-conformance", **_tallies(total, result.strict),
                      time=f"{result.duration:.3f}")
    by_ruleset = defaultdict(list)
    for outcome in result.outcomes:
        by_ruleset[outcome.case.ruleset].append(outcome)
    impl = result.implementation or {}
    for ruleset, outcomes in sorted(by_ruleset.items()):
        c = counts(outcomes)
        suite = ET.SubElement(root, "testsuite", name=ruleset, **_tallies(c, result.strict),
                              time=f"{sum(o.duration for o in outcomes):.3f}")
        props = ET.SubElement(suite, "properties")
        for name, value in (("implementation", f"{impl.get('name', '?')} {impl.get('version', '')}".strip()),
                            ("suite.version", result.suite["version"]), ("suite.digest", result.suite["digest"]),
                            ("start_error", result.start_error), ("stopped", result.stopped)):
            if value is not None:
                ET.SubElement(props, "property", name=name, value=_clean(str(value)))
        for o in outcomes:
            case = o.case
            element = ET.SubElement(suite, "testcase", name=case.id,
                                    classname=f"{case.ruleset}.{Path(case.file).stem}",
                                    file=display_path(case.file), line=str(case.line), time=f"{o.duration:.6f}")
            if o.status == FAILED:
                first = o.grade.behaviour[0] if o.grade.behaviour else None
                failure = ET.SubElement(element, "failure", type="behaviour",
                                        message=_clean(str(first) if first else "failed"))
                failure.text = _clean(_mismatch_text(o.grade.behaviour))
            elif o.status == ERRORED:
                error = ET.SubElement(element, "error", type="errored", message=_clean(o.grade.message))
                error.text = _clean(o.grade.message)
            elif o.status == SKIPPED:
                ET.SubElement(element, "skipped", message=_clean(o.grade.message))
            elif o.status == OTHER_READING:
                ET.SubElement(element, "skipped", type="other-reading", message=_clean(o.grade.message))
            elif o.status == XFAIL:
                skipped = ET.SubElement(element, "skipped", type="xfail",
                                        message=_clean(f"expected failure ({o.xfail.where}): {o.xfail.reason}"))
                skipped.text = _clean(_mismatch_text(o.grade.behaviour) or o.grade.message)
            elif o.status == XPASS and result.strict:
                ET.SubElement(element, "failure", type="xpass",
                              message=_clean(f"passed, but listed as an expected failure at {o.xfail.where}: "
                                             f"{o.xfail.reason}"))
            tier = citation_tier(o)
            if tier in ("passed", "failed"):
                out = ET.SubElement(element, "system-out")
                out.text = f"citations: {tier}" + (("\n" + _clean(_mismatch_text(o.grade.citations)))
                                                   if o.grade.citations else "")
            if o.stderr:
                ET.SubElement(element, "system-err").text = _clean(o.stderr)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
