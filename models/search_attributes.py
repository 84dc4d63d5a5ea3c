"""ajr's custom Temporal search attributes: the one place their names and types are defined.

Everything that registers (`ajr dev up`, test fixtures), sets (workflows) or queries (CLI, UI
filters) these attributes imports them from here, so a rename cannot drift between the parts.
The dev server caps custom attributes at 10 Keyword and 3 of each other type; stay below that.
"""

from __future__ import annotations

from typing import Any

from temporalio.common import SearchAttributeIndexedValueType, SearchAttributeKey

AJR_CLUSTER = SearchAttributeKey.for_keyword("AjrCluster")
SLURM_JOB_ID = SearchAttributeKey.for_keyword("SlurmJobId")
SLURM_JOB_NAME = SearchAttributeKey.for_keyword("SlurmJobName")
SLURM_USER = SearchAttributeKey.for_keyword("SlurmUser")
SLURM_PARTITION = SearchAttributeKey.for_keyword("SlurmPartition")
AJR_OUTCOME = SearchAttributeKey.for_keyword("AjrOutcome")
AJR_LAST_ANOMALY = SearchAttributeKey.for_keyword("AjrLastAnomaly")
SLURM_RESTART_COUNT = SearchAttributeKey.for_int("SlurmRestartCount")
# The last failure's attribution category (GPU, NETWORK, ...) and culprit nodes.
AJR_CATEGORY = SearchAttributeKey.for_keyword("AjrCategory")
AJR_CULPRIT_NODES = SearchAttributeKey.for_keyword_list("AjrCulpritNodes")

ALL_SEARCH_ATTRIBUTES: list[SearchAttributeKey[Any]] = [
    AJR_CLUSTER,
    SLURM_JOB_ID,
    SLURM_JOB_NAME,
    SLURM_USER,
    SLURM_PARTITION,
    AJR_OUTCOME,
    AJR_LAST_ANOMALY,
    SLURM_RESTART_COUNT,
    AJR_CATEGORY,
    AJR_CULPRIT_NODES,
]

# The names the `temporal` CLI accepts in `--search-attribute NAME=TYPE`.
_CLI_TYPE_NAMES: dict[SearchAttributeIndexedValueType, str] = {
    SearchAttributeIndexedValueType.TEXT: "Text",
    SearchAttributeIndexedValueType.KEYWORD: "Keyword",
    SearchAttributeIndexedValueType.INT: "Int",
    SearchAttributeIndexedValueType.DOUBLE: "Double",
    SearchAttributeIndexedValueType.BOOL: "Bool",
    SearchAttributeIndexedValueType.DATETIME: "Datetime",
    SearchAttributeIndexedValueType.KEYWORD_LIST: "KeywordList",
}


def cli_type_name(key: SearchAttributeKey[Any]) -> str:
    """The type name of `key` as `temporal server start-dev --search-attribute` spells it."""
    return _CLI_TYPE_NAMES[key.indexed_value_type]
