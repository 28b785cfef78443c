"""What Gemini accepts, in one place: each rule with Google's words.

- Reasoning goes back to the provider that made it only: another
  provider's is left out and reported (its signature would be refused).
- Gemini 3 refuses a function-calling turn whose first call carries no
  thought signature ("Function call is missing a thought_signature", 400).
  For a history made elsewhere Google's thought-signatures guide says: "you
  can set the following dummy signatures of either
  `context_engineering_is_the_way_to_go` or `skip_thought_signature_validator`"
  in place of a signature Gemini made; the encoder sets the second on the
  first call of each model turn that has none, and reports it. The field is
  bytes, so its JSON value is the base64 of that text.
- Tool-call ids made here for calls Gemini sent without one never go to
  Google; calls and results from elsewhere keep their ids (the API takes any).
- A tool result must name its function (`functionResponse.name` is
  required): the name is found from the call it answers.
- A file by id points into another provider's store: left out.
- Another provider's opaque blocks go back to that provider only.
- A response schema is always followed ("the model's response always follows
  your defined schema", Vertex AI's structured output guide): a format that
  asked for less (`strict: false`) is reported.
- Reasoning turned off goes as each model takes it (`LEAST_THINKING`).
"""

from __future__ import annotations

import base64

from interlingua import FilePart, OpaquePart, ReasoningPart
from interlingua.codec import ModelRules, ReasoningOff
from interlingua_google._wire import PROVIDER

__all__ = [
    "DUMMY_SIGNATURE",
    "LEAST_THINKING",
    "OFF",
    "RESULT_TEXT_FIRST",
    "SIGNATURE_FILLED",
    "STRICT_ALWAYS",
    "file_left_out",
    "opaque_left_out",
    "reasoning_left_out",
    "unsent_file_fields",
]

# Quirk: Google's thought-signatures guide, "FAQs", gives dummy signatures for a call that
# did not come from Gemini; `thoughtSignature` is bytes, base64 on the JSON wire (pydantic-ai's
# recorded Gemini 3 call sends `Y29udGV4dF9lbmdpbmVlcmluZ19pc190aGVfd2F5X3RvX2dv`, the other one).
# A functionResponse holds a result's text (`response`) apart from its files (`parts`).
RESULT_TEXT_FIRST = (
    "Gemini keeps a result's text apart from its files: a text after a file goes before it"
)
DUMMY_SIGNATURE = base64.b64encode(b"skip_thought_signature_validator").decode("ascii")
SIGNATURE_FILLED = (
    "a call made elsewhere carries no thought signature, which Gemini 3 requires of "
    "the first call of a turn; sent with the dummy signature 'skip_thought_signature_validator' "
    "that Google's thought-signatures guide gives for histories from other models"
)

STRICT_ALWAYS = "Gemini always holds the output to the schema"


def reasoning_left_out(part: ReasoningPart) -> str | None:
    if part.provider != PROVIDER:
        made_by = part.provider or "an unknown provider"
        return f"reasoning made by {made_by} goes back to {made_by} only"
    if part.redacted_data is not None:
        return "redacted reasoning has no Gemini form"
    return None


def opaque_left_out(part: OpaquePart) -> str | None:
    if part.provider == PROVIDER:
        return None
    return f"a {part.provider} block ({part.block_type}) goes back to {part.provider} only"


def file_left_out(part: FilePart) -> str | None:
    if part.file_id is not None:
        store = part.provider or "another provider"
        return f"a file id of {store}'s file store; Gemini takes files by URI or inline"
    return None


def unsent_file_fields(part: FilePart) -> list[tuple[str, str]]:
    """The fields of a file part Gemini has no place for."""
    unsent = []
    if part.filename is not None:
        unsent.append(("filename", "Gemini takes no file name with a part"))
    if part.detail is not None:
        unsent.append(("detail", "Gemini has no detail setting per part"))
    return unsent


# What Gemini's models take for reasoning turned off. Google's thinking guide: "If you
# set thinking_budget to 0 when using Gemini 2.5 Flash and Gemini 2.5 Flash-Lite, no
# thought content is returned"; "Thinking can't be turned off for Gemini 2.5 Pro"
# (its 400: "Thinking can't be disabled for this model"; a budget of 128 at least);
# Gemini 3 takes a `thinkingLevel` and no off ("If you use the thinking_level parameter
# with a model earlier than Gemini 3, the model returns an error"): `LOW` for Pro,
# `MINIMAL` for Flash. Gemini 2.0 and 1.5 do not think: no field. A model none of
# these match is sent the budget 0.
OFF: dict[str, int] = {"thinkingBudget": 0}
LEAST_THINKING: ModelRules = (
    (r"gemini-2\.5-flash.*", ReasoningOff(OFF)),
    (
        r"gemini-2\.5-pro.*",
        ReasoningOff({"thinkingBudget": 128}, "Gemini 2.5 Pro cannot turn thinking off"),
    ),
    (r"gemini-3.*-flash.*", ReasoningOff({"thinkingLevel": "MINIMAL"}, "Gemini 3 has no off")),
    (r"gemini-3.*", ReasoningOff({"thinkingLevel": "LOW"}, "Gemini 3 has no off")),
    (r"gemini-(1\.|2\.0).*", ReasoningOff()),
)
