#!/usr/bin/env python3
"""Checks that the API server refuses each malformed file for the rule the file breaks.

Usage: crd_agreement_reasons.py RESULTS_TSV EXPECTED_TXT ROOT

RESULTS_TSV is crd_agreement.sh's table (label, server=..., validate=...). For every file of
test/validation/malformed/ that both sides refuse, the server's message must name the field of
the file's `# expect: PATH: ...` line, or an ancestor of it: a CEL rule reports at the object or
list it is written on (`spec.tags` for a restricted tag key). List indices are ignored, and a
one-segment ancestor (`spec`) counts only as "spec:". Files listed in EXPECTED_TXT with the side
`server-reason-differs` are exempt, and must still be refused for another reason. Prints each
problem and exits 1 if there is any.
"""
import re
import sys


def ancestors(path):
    """PATH and each ancestor, longest first, with list indices and map keys removed."""
    bare = re.sub(r"\[[^\]]*\]", "", path)
    parts = bare.split(".")
    return [".".join(parts[:i]) for i in range(len(parts), 0, -1)]


def names(message, path):
    message = re.sub(r"\[[^\]]*\]", "", message)
    for candidate in ancestors(path):
        followers = ":" if "." not in candidate else ":.[ "
        for at in re.finditer(re.escape(candidate), message):
            end = at.end()
            before = message[at.start() - 1] if at.start() > 0 else " "
            if before in " .'\"(" and end < len(message) and message[end] in followers:
                return True
    return False


def main():
    results, expected_txt, root = sys.argv[1:4]
    exempt = set()
    with open(expected_txt) as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 2 and not fields[0].startswith("#") and \
                    fields[1] == "server-reason-differs":
                exempt.add(fields[0])
    problems = 0
    checked = 0
    with open(results) as f:
        for line in f:
            label, server, validate = line.rstrip("\n").split("\t")
            if not label.startswith("test/validation/malformed/"):
                continue
            if not (server.startswith("server=reject") and validate.startswith("validate=reject")):
                continue
            with open("%s/%s" % (root, label)) as corpus_file:
                first = corpus_file.readline()
            match = re.match(r"# expect: (\S*): ", first)
            if not match:
                continue
            checked += 1
            ok = names(server, match.group(1))
            if label in exempt:
                if ok:
                    problems += 1
                    print("  STALE %s: listed as server-reason-differs, but the server names %s"
                          % (label, match.group(1)))
                exempt.discard(label)
                continue
            if not ok:
                problems += 1
                print("  REASON %s: expected a refusal of %s, server said: %s"
                      % (label, match.group(1), server[:400]))
    for label in sorted(exempt):
        problems += 1
        print("  STALE %s: listed as server-reason-differs, but not refused by both sides" % label)
    print("  %d refusals of malformed files checked for the field they name, %d problems"
          % (checked, problems))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
