"""Error analysis of SRL predictions: breakdowns, He et al. (2017)'s oracle transformations, the report."""

from srl_zoo.analysis.report import analyse, write_report  # noqa: F401
