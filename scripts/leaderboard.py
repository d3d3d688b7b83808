"""Train and score every row of a leaderboard spec at one budget and write the table (see
`python -m srl_zoo.leaderboard --help`; this script is the same command)."""

from srl_zoo.leaderboard.__main__ import main

if __name__ == "__main__":
    main()
