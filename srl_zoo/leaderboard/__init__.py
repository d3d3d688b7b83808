"""The leaderboard: every row of a spec (a config each) trained and scored at one budget, resumable,
written as a table, a JSON file and a plot (`python scripts/leaderboard.py SPEC`)."""
