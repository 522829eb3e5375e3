# Prints the facts of a kiln report JSON that report.test checks, one a line.
import json
import sys

report = json.load(open(sys.argv[1]))
print("scenarios: " + " ".join(s["name"] + ":" + s["kind"] for s in report["scenarios"]))
for program in report["programs"]:
    decisions = program["decisions"]
    order = decisions["order"]
    if order["status"] == "recorded":
        print("order: recorded, groups " + " ".join(g["group"] for g in order["groups"]))
        for f in order["functions"]:
            print("function %s: group %s, counts %s" % (f["name"], f.get("group"), f["counts"]))
    else:
        print("order: %s: %s" % (order["status"], order["reason"]))
    split = decisions["split"]
    print("split: " + split["status"])
    for part in split.get("parts", []):
        print("part %s of %s" % (part["name"], part["split_from"]))
    for kind in ("imports", "inlining", "string_tables"):
        print("%s: %s: %s" % (kind, decisions[kind]["status"], decisions[kind]["reason"]))
    for layout in program["layouts"]:
        print("layout %s: %s, %d pages" % (layout["name"], layout["binary"], layout["page_count"]))
        for s in layout["scenarios"]:
            figures = [p for p in s["pages"] if p["page_size"] == layout["page_size"]][0]
            ran = sum(1 for b in s["heat_bytes"] if b > 0)
            agrees = ran == figures["pages"] and len(s["heat_bytes"]) == layout["page_count"]
            print("  %s: %d pages, lower bound %d, heat %s" % (
                s["name"], figures["pages"], figures["lower_bound"],
                "agrees" if agrees else "DISAGREES (%d cells ran)" % ran))
