"""Rendering a reading profile (profile.py) as the implementation's reading
card: text for a terminal or a CI log, Markdown for pages. JSON is the
profile itself."""
from __future__ import annotations

import json

from canastra_ref.display import markdown_literal, printable

FORMATS = ("text", "json", "md")

LEGEND = ("per reading R, a/g +k (n): of the g graded cases that tell R apart, a were answered R's way, and k "
          "cases of the other readings too; n were not graded. An answer is read at the values the readings "
          "dispute only")


def render(data: dict, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if fmt == "md":
        return markdown(data)
    return text(data)


def rate(counts: dict | None) -> str:
    """'121/135 (90%)', or '-' when nothing was graded."""
    if not counts or not counts["graded"]:
        return "-"
    return f"{counts['passed']}/{counts['graded']} ({counts['passed'] / counts['graded']:.0%})"


def verdict(card: dict) -> str:
    if card["verdict"] == "follows":
        return f"follows {card['reading']}"
    if card["verdict"] == "inapplicable":
        keeping = card.get("inapplicable_under")
        return "not applicable under " + (", ".join(f"{d}={r}" for d, r in keeping.items()) if keeping
                                          else "its best readings")
    return card["verdict"]


def evidence(cell: dict) -> str:
    graded = cell["passed"] + cell["failed"]
    others = cell["support"] - cell["agree"]
    return f"{cell['agree']}/{graded}" + (f" +{others}" if others else "") \
        + (f" ({cell['not_graded']})" if cell["not_graded"] else "")


def declaration(card: dict) -> str:
    if card["declared"] is None:
        return "-"
    mark = {"kept": "kept", "broken": f"broken: follows {card['reading']}",
            "unknown": verdict(card)}[card["declaration"]]
    return f"{card['declared']} ({mark})"


def readings_text(chosen: dict[str, str], defaults: dict[str, str]) -> str:
    """The readings that differ from the defaults, or 'the default readings'."""
    changed = [f"{d}={r}" for d, r in chosen.items() if defaults.get(d) != r]
    return ", ".join(changed) if changed else "the default readings"


def _nothing_graded(card: dict) -> bool:
    return not card["under"]["default"]["graded"] and not card["under"]["profile"]["graded"]


def _why_not(card: dict) -> str:
    counts = card["under"]["default"]
    parts = [f"{counts['skipped']} skipped"] if counts["skipped"] else []
    if counts["other_reading"]:
        parts.append(f"{counts['other_reading']} under other readings")
    return ", ".join(parts) or "none sent"


def _silent(card: dict) -> bool:
    """Untested, with no evidence case at all and nothing declared: a line saying nothing."""
    return card["verdict"] == "untested" and card["declared"] is None \
        and not any(c["not_graded"] for c in card["readings"].values())


def _defaults(card: dict) -> dict[str, str]:
    return {name: d["default"] for name, d in card["disputes"].items()}


def _name(data: dict) -> str:
    """The implementation's own name and version, shown as text, never obeyed."""
    impl = data.get("implementation") or {}
    return printable(f"{impl.get('name', '?')} {impl.get('version', '')}".strip(), newlines=False)


def _rates_line(card: dict) -> str:
    under = card["under"]
    parts = [f"{rate(under['profile'])} under its best readings", f"{rate(under['default'])} under the default ones"]
    if "declared" in under:
        parts.append(f"{rate(under['declared'])} under the declared ones")
    return ", ".join(parts)


def _closest_line(data: dict) -> str:
    near = data.get("closest")
    if not near:
        return "closest ruleset: none has enough graded cases"
    card = data["rulesets"][near["ruleset"]]
    return (f"closest ruleset: {near['ruleset']}, {near['passed']}/{near['graded']} ({near['rate']:.0%}) under "
            f"{readings_text(near['profile'], _defaults(card))}")


def text(data: dict) -> str:
    suite = data.get("suite") or {}
    lines = [f"reading card of {_name(data)}",
             f"suite {suite.get('version', '?')} (fixtures digest {suite.get('digest', '?')}), "
             f"{suite.get('cases', '?')} cases", _closest_line(data), f"({LEGEND})"]
    for ruleset, card in data["rulesets"].items():
        if _nothing_graded(card):
            lines += ["", f"{ruleset}: no case graded ({_why_not(card)})"]
            continue
        lines += ["", f"{ruleset}: {_rates_line(card)}"]
        disputes = card["disputes"]
        if not disputes:
            lines.append("  (no disputes)")
            continue
        shown = {n: d for n, d in disputes.items() if not _silent(d)}
        if shown:
            width = max(len(n) for n in shown) + 2
            verdicts = {n: verdict(c) for n, c in shown.items()}
            vwidth = max(len(v) for v in verdicts.values()) + 2
            for name, d in shown.items():
                cells = "   ".join(f"{r} {evidence(c)}" for r, c in d["readings"].items())
                tail = f"   declared {declaration(d)}" if d["declared"] is not None else ""
                lines.append(f"  {name:<{width}}{verdicts[name]:<{vwidth}}{cells}{tail}")
        silent = [n for n, d in disputes.items() if _silent(d)]
        if silent:
            lines.append(f"  untested, no evidence case graded: {', '.join(silent)}")
        lines.append(f"  best readings: {readings_text(card['profile'], _defaults(card))}")
    return "\n".join(lines) + "\n"


def markdown(data: dict, heading: str = "##") -> str:
    suite = data.get("suite") or {}
    lines = [f"{heading} Reading card of {markdown_literal(_name(data))}", "",
             f"Suite {suite.get('version', '?')}, fixtures digest `{suite.get('digest', '?')}`, "
             f"{suite.get('cases', '?')} cases. {_closest_line(data).capitalize()}.", "", f"({LEGEND}.)", ""]
    for ruleset, card in data["rulesets"].items():
        if _nothing_graded(card):
            lines += [f"{heading}# {ruleset}", "", f"No case graded ({_why_not(card)}).", ""]
            continue
        lines += [f"{heading}# {ruleset}", "", f"{_rates_line(card).capitalize()}; best readings: "
                  f"{readings_text(card['profile'], _defaults(card))}.", ""]
        if not card["disputes"]:
            continue
        shown = {n: d for n, d in card["disputes"].items() if not _silent(d)}
        if shown:
            lines += ["| dispute | verdict | evidence per reading | declared |", "|---|---|---|---|"]
            for name, d in shown.items():
                cells = ", ".join(f"{r} {evidence(c)}" for r, c in d["readings"].items())
                lines.append(f"| {name} | {verdict(d)} | {cells} | {declaration(d)} |")
            lines.append("")
        silent = [n for n, d in card["disputes"].items() if _silent(d)]
        if silent:
            lines += [f"Untested (no evidence case graded): {', '.join(silent)}.", ""]
    return "\n".join(lines)
