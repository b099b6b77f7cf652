#!/usr/bin/env python3
"""Checks a /metrics scrape against a list of selectors (dashboard_series.txt: every selector the
upstream Grafana dashboards query; upstream_metrics.txt: every metric of upstream's reference):
each resolves to at least one series, carrying the labels the panel groups by.

usage: dashboard_check.py SERIES_FILE METRICS_FILE
Prints one line per selector that does not resolve and exits 1 if any does not."""
import re
import sys

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)(=|!=)"((?:[^"\\]|\\.)*)"')


def parse_samples(path):
    samples = []
    for line in open(path):
        line = line.rstrip('\n')
        if not line or line.startswith('#'):
            continue
        match = SAMPLE.match(line)
        if not match:
            raise SystemExit(f'not a sample line: {line!r}')
        labels = {name: value for name, _, value in LABEL.findall(match.group(3) or '')}
        samples.append((match.group(1), labels))
    return samples


def parse_selector(line):
    selector, _, grouped = line.partition(' by ')
    name, _, matchers = selector.partition('{')
    return name.strip(), LABEL.findall(matchers.rstrip('}')), grouped.split()


def resolves(samples, name, matchers, grouped):
    matching = [labels for metric, labels in samples if metric == name and all(
        (labels.get(key, '') == value) == (op == '=') for key, op, value in matchers)]
    if not matching:
        return f'no series of {name} matches {matchers}'
    unset = [key for key in grouped if not any(labels.get(key) for labels in matching)]
    if unset:
        return f'{name}: no matching series sets {unset}'
    return None


def main():
    series_file, metrics_file = sys.argv[1:3]
    samples = parse_samples(metrics_file)
    failures = 0
    checked = 0
    for line in open(series_file):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        # `?name ...`: the run need not produce it; absent is fine, present must carry the labels.
        optional = line.startswith('?')
        name, matchers, grouped = parse_selector(line.lstrip('?'))
        if optional and not any(metric == name for metric, _ in samples):
            print(f'  {name}: not in this scrape (optional; the list says why)')
            continue
        checked += 1
        problem = resolves(samples, name, matchers, grouped)
        if problem:
            failures += 1
            print(f'  {line}: {problem}')
    print(f'  {checked - failures}/{checked} selectors resolve')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
