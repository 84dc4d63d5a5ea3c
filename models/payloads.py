"""How ajr reads its Temporal payloads: one data converter for workers and the replayer.

A job's workflow outlives many ajr releases, so its history holds payloads written by earlier
ones. Two forms they hold are read here as today's types, never as errors:

- `""` where a field is now `SomeEnum | None`: earlier releases wrote an empty string for "none"
  (`RequeueResult.ended_state`, `Observation.category`);
- a bare value where a signal or update argument or an activity result is now a dataclass with
  one required field (`LEGACY_BARE_VALUES`): earlier releases sent the value itself, as does an
  operator who types `temporal workflow signal --name stop --input '"maintenance"'`.

Everything else decodes exactly as Temporal's default converter does.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from typing import Any

from temporalio.converter import (
    CompositePayloadConverter,
    DataConverter,
    DefaultPayloadConverter,
    JSONPlainPayloadConverter,
    JSONTypeConverter,
    value_to_type,
)

from models.recovery import (
    CancelResult,
    MaxRequeuesRequest,
    RecordResult,
    StopRequest,
    SuspectsResult,
)

# Dataclass -> the field a bare value of an earlier release fills.
LEGACY_BARE_VALUES: dict[type, str] = {
    StopRequest: "reason",
    MaxRequeuesRequest: "max_requeues",
    CancelResult: "detail",
    RecordResult: "written",
    SuspectsResult: "suspects",
}


def _optional_enum(hint: Any) -> bool:
    """`SomeEnum | None` (or Optional[SomeEnum])."""
    origin = typing.get_origin(hint)
    if origin is not typing.Union and origin is not types.UnionType:
        return False
    args = typing.get_args(hint)
    return type(None) in args and any(
        isinstance(arg, type) and issubclass(arg, enum.Enum) for arg in args
    )


class LegacyForms(JSONTypeConverter):
    """Reads the payload forms of earlier releases listed in the module docstring."""

    def to_typed_value(self, hint: type, value: Any) -> Any:
        if value == "" and _optional_enum(hint):
            return None
        field_name = LEGACY_BARE_VALUES.get(hint) if isinstance(hint, type) else None
        if field_name is not None and value is not None and not isinstance(value, dict):
            field_hint = typing.get_type_hints(hint)[field_name]
            return hint(**{field_name: value_to_type(field_hint, value, [self])})
        return JSONTypeConverter.Unhandled


class AjrPayloadConverter(CompositePayloadConverter):
    """Temporal's default converters, with JSON decoding that also reads `LegacyForms`."""

    def __init__(self) -> None:
        super().__init__(
            *(
                JSONPlainPayloadConverter(custom_type_converters=[LegacyForms()])
                if isinstance(converter, JSONPlainPayloadConverter)
                else converter
                for converter in DefaultPayloadConverter.default_encoding_payload_converters
            )
        )


DATA_CONVERTER = dataclasses.replace(
    DataConverter.default, payload_converter_class=AjrPayloadConverter
)
