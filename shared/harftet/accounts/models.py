"""Request and answer bodies of the account and phrase routes (API.md v3 "Identity",
"People"), for validation and the OpenAPI document."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

Id = Annotated[str, StringConstraints(min_length=1, max_length=64)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class PasskeyResponse(Strict):
    """A ceremony's answer: the options' ``challengeId`` and the browser's credential as
    JSON (``PublicKeyCredential.toJSON()``: id, rawId, type, response, …)."""

    challengeId: Id
    credential: dict[str, Any] = Field(description="PublicKeyCredential.toJSON()")


class TransferSignIn(Strict):
    code: Annotated[str, StringConstraints(min_length=1, max_length=16)]


class Refresh(Strict):
    refreshToken: Annotated[str, StringConstraints(min_length=1, max_length=512)]


class SendPhrase(Strict):
    phrase: Annotated[str, StringConstraints(min_length=1, max_length=32)]


class FriendRequest(Strict):
    code: Annotated[str, StringConstraints(min_length=1, max_length=16)]


class Invitation(Strict):
    playerId: Id


# -- answers (documentation only) -------------------------------------------------------
class PasskeyOptions(BaseModel):
    challengeId: str = Field(description="send it back with the credential (single use, 5 min)")
    publicKey: dict[str, Any] = Field(
        description="PublicKeyCredentialCreationOptions / RequestOptions as JSON "
        "(PublicKeyCredential.parseCreationOptionsFromJSON / parseRequestOptionsFromJSON)"
    )


class Passkey(BaseModel):
    id: str = Field(description="the credential id, base64url")
    createdAt: int
    lastUsedAt: int | None
    backedUp: bool = Field(description="a synced passkey (moves with the phone)")


class Passkeys(BaseModel):
    passkeys: list[Passkey]


class SignedIn(BaseModel):
    playerId: str
    name: str
    token: str = Field(description="access token (Authorization: Bearer), valid expiresIn s")
    refreshToken: str = Field(description="POST /sessions/refresh; rotates on every use")
    rating: int
    expiresIn: int


class TransferCode(BaseModel):
    code: str = Field(description="8 characters of 23456789ABCDEFGHJKMNPQRSTUVWXYZ")
    expiresAt: int = Field(description="epoch seconds (10 minutes); single use")


class Export(BaseModel):
    model_config = {"extra": "allow"}
    player: dict[str, Any]
    passkeys: list[dict[str, Any]]
    sessions: list[dict[str, Any]]
    tables: list[str]
    transferCode: str | None
    leagues: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Per game: the player's league place (week, tier, division) and their own "
        "entry in every division they played in (week, division, name, pts, g, at)",
    )
    tournaments: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Every tournament the player entered: tournamentId, her entry (name, "
        "rating, at; null once withdrawn) and her podium badge (name, place; null: none)",
    )


class PhraseEntry(BaseModel):
    id: str
    tr: str
    en: str


class PhraseList(BaseModel):
    phrases: list[PhraseEntry]


class PhraseSent(BaseModel):
    seat: int
    phrase: str


class PersonEntry(BaseModel):
    playerId: str
    name: str


class Presence(BaseModel):
    status: Literal["online", "table", "away"]
    game: Literal["kastet", "harftet"] | None = Field(None, description="at a table of this game")


class Friend(PersonEntry):
    presence: Presence | None = Field(None, description="shown for the first 50 friends")


class Friends(BaseModel):
    code: str = Field(description="the caller's friend code: others send it to ask")
    friends: list[Friend]
    incoming: list[PersonEntry]
    outgoing: list[PersonEntry]
    blocked: list[PersonEntry] = Field(
        default_factory=list, description="the players the caller blocked (to unblock)"
    )


class Invited(BaseModel):
    tableId: str
    playerId: str
