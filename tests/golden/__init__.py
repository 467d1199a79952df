"""Golden game records and the script that makes them (see make_golden.py)."""
