#!/usr/bin/env python3
"""Prints the README's environment table from src/common/common_config.def,
the one table of environment variables (tests/unit/test_readme_env.sh checks
that the README carries exactly these rows)."""
import re
import sys
import os

here = os.path.dirname(os.path.abspath(__file__))
src = os.path.join(here, '..', 'src', 'common', 'common_config.def')
text = open(sys.argv[1] if len(sys.argv) > 1 else src).read()
rows = re.findall(r'ARMCII_CFG_(\w+)\s*\((\w+),\s*(\w+),\s*(?:"([^"]*)",\s*)?(-?\w+),'
                  r'\s*\n?\s*"([^"]*)"\)', text)
for kind, name, _field, choices, default, help_text in rows:
    if kind == 'BOOL':
        dv, typ = ('on' if default == '1' else 'off'), 'bool'
    elif kind == 'ENUM':
        dv, typ = choices.split('|')[int(default)], choices.replace('|', ' \\| ')
    else:
        dv, typ = default, 'integer'
    print(f"| `{name}` | {typ} | `{dv}` | {help_text} |")
