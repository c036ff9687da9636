"""Surveys: many deals of one game decided, counted and written to a resumable file.

runner.py runs a survey (chunks, executors, the batch path), stats.py counts what comes back and
its statistics, records.py reads and writes the JSON-lines file (docs/surveys.md).
"""

from .records import SurveyFileError, SurveyFileWarning
from .runner import survey
from .stats import SurveyResult, wilson_interval

__all__ = ["SurveyFileError", "SurveyFileWarning", "SurveyResult", "survey", "wilson_interval"]
