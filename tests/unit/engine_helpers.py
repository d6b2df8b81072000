"""Helpers for the engine's unit tests: started tables, arranged positions, a small dictionary.

Imported by name (``from engine_helpers import ...``): a module name no other test folder uses.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from harftet.engine.codec import encode
from harftet.engine.errors import EngineError, IllegalMoveError
from harftet.engine.hand import apply_move, deal
from harftet.engine.moves import Lay, Move
from harftet.engine.rules import HarftetRules, KastetRules, Rules
from harftet.engine.state import Face, Occupant, Placed, Seat, Table
from harftet.engine.tiles import HARFTET_TILES, KASTET_TILES, TILE_COUNT

NOW = 1_000_000.0

# A small Turkish dictionary (upper case) standing in for the real one in unit tests.
WORDS = frozenset(
    """
    ARI ARK ŞIK ŞARKI ALİM ZALİM KALEM EV SU AT AL EL ER EN AN AR İN ON OK AK AY ÖN UN İL
    AŞ EK ET İP İT OL OT ÜÇ YE KAR KAN KİR KEL KIL KOL KUL TEK TEL TER TAN TAM TAT NAR NAL
    NET NEM MAL MAT LAL İLK İKİ İRİ ELA ERK ALT ANT ART ARA ATA AİT ANA ANI EKİN EKMEK ELMA
    ELLİ EMEK EMİR ETEK İLAN İMAN İNEK KALE KANAT KARA KARE KEMAN KİRA KİRAZ KİLİM KİTAP
    KİŞİ KULE KUMAR KURT KUYU LALE LİMAN LİRA MAKAM MAKİNE MALİ MASA MASAL MEKAN MERAK
    METAL METİN MİRAS MİNARE NAKİL NAMAZ NANE NARİN NEDEN NİNE RAKAM RENK RESİM SAAT SABAH
    SAKAL SALI SARI SEL SERA SET SİS TAKIM TALİM TANE TARAK TARLA TAŞ TATİL TEKNE TELAŞ
    TEMEL TEPE TERLİK TİLKİ TUZ UÇAK ÜLKE YAKA YAKIN YALAN YARIN YAŞ YAZ YEL YEM YER YIL
    YOL YÜZ AKŞAM ARKA ASKER ATEŞ BAKAN BALIK BANKA BEDEN BİLET BİNA BÖLÜM CAM ÇAY ÇİÇEK
    DAL DAM DANA DAİRE DEMİR DERE DERİ DİL DİKEN DUMAN EKRAN ELMAS EMLAK ERKEK ETKİ GECE
    GÖL GÜN HALI HAYAT İNSAN İRADE İSİM KADIN KALP KAPI KAYIK KEDİ KİTLE KÖY KÖPEK LAMBA
    MANTI MEYVE MİLLET NEHİR OKUL ODA ORMAN OTEL OYUN PARA PEYNİR RÜYA SAYI SEKİZ SİLAH
    SOKAK TABAK TAKSİ TAVUK TERZİ TOPRAK UMUT ÜZÜM VATAN YAPRAK YEMEK YILDIZ ZAMAN
    ZEKİ ZEYTİN ANNE ERKEN DENİZ LEKE ENİŞTE İNANÇ KARAR KALAN ANKET ALAN ALKIŞ
    ARAMA ARTI ASLAN ATLAS BEKLE DALGA DENEK EKLEM ELEK ERİK ETEN İLKE İNAT KAİNAT KARTAL
    KASA KATİL KELİME KENAR KİLİT KIRK KOLAY KUMAŞ LAKAP MAKAS MANAV MEKİK MELEK MERA MİLAT
    NALAN NİKAH REKAT SAKİN SANAT SARAY TAKA TALAN TAMİR TARİH TEKER TENEKE TİKEL
    """.split()  # noqa: SIM905
)

HARFTET = HarftetRules(WORDS)
KASTET = KastetRules()


def rules_of(game: str) -> Rules:
    """The rules the unit tests play with (Harftet on the small dictionary)."""
    return HARFTET if game == "harftet" else KASTET


def make_table(
    game: str = "kastet",
    players: int = 4,
    *,
    hands: int = 1,
    seed: int = 1,
    partners: bool = False,
    now: float = NOW,
) -> Table:
    """A started table: every seat taken by p0, p1, ..., hand 1 dealt."""
    table = Table(
        table_id="t1",
        game=game,  # type: ignore[arg-type]
        seed=seed,
        manager="p0",
        hands=hands,
        partners=partners,
        status="playing",
        seats=[Seat(occupant=Occupant(f"p{i}", f"Oyuncu {i}")) for i in range(players)],
        hand_number=1,
    )
    deal(table, now)
    return table


def arrange(
    table: Table,
    hands: dict[int, Sequence[int]],
    series: Sequence[Sequence[Placed]] = (),
    pairs: Sequence[Sequence[Placed]] = (),
    *,
    turn: int = 0,
    pile: int | None = None,
) -> Table:
    """Put exactly these tiles in these places (turn to ``turn``, nobody laid yet); the other
    seats get 14 of the rest each and the pile the remainder, cut to ``pile`` tiles when
    given (the tiles cut off are then out of play)."""
    used = {t for h in hands.values() for t in h}
    used |= {p.id for m in (*series, *pairs) for p in m}
    rest = [t for t in range(TILE_COUNT) if t not in used]
    for i, seat in enumerate(table.seats):
        if i in hands:
            seat.hand = list(hands[i])
        else:
            seat.hand, rest = rest[:14], rest[14:]
    table.pile = rest if pile is None else rest[:pile]
    table.series = [list(m) for m in series]
    table.pairs = [list(p) for p in pairs]
    table.turn_seat = turn
    table.laid = False
    table.passes = 0
    return table


def letter_ids(letters: str | Sequence[str], avoid: set[int] | None = None) -> list[int]:
    """Harftet tile ids spelling ``letters`` (one id per letter or double given)."""
    taken = set(avoid or ())
    out = []
    for s in letters:
        tid = next(t.id for t in HARFTET_TILES if t.letter == s and t.id not in taken)
        taken.add(tid)
        out.append(tid)
    return out


def kastet_id(color: str, number: int, copy: int = 0) -> int:
    """The Kastet tile id of ``color`` ``number`` (copy 0 or 1)."""
    tile = next(t for t in KASTET_TILES[copy * 52 :] if t.color == color and t.number == number)
    return tile.id


def k(color: str, number: int, copy: int = 0) -> int:
    """``kastet_id`` as the Kastet tests write a tile: ``k("red", 5)``."""
    return kastet_id(color, number, copy)


def places(table: Table) -> list[int]:
    """Every tile id wherever it lies (hands, pile, series, pairs), with repeats."""
    ids = [t for s in table.seats for t in s.hand] + list(table.pile)
    ids += [p.id for m in (*table.series, *table.pairs) for p in m]
    return ids


class Lenient:
    """A dictionary that takes any string of 3+ letters, and the 2-letter words of WORDS:
    lets a test fill all 26 series places without spelling 26 real words."""

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and (len(word) >= 3 or word in WORDS)


LENIENT = HarftetRules(Lenient())


def meld(ids: Sequence[int], faces: dict[int, Face] | None = None) -> list[Placed]:
    """Placed tiles for ``ids`` (``faces`` gives jokers their declared faces)."""
    faces = faces or {}
    return [Placed(t, faces.get(t)) for t in ids]


def twenty_six_runs() -> list[list[Placed]]:
    """26 valid Kastet runs of 3: no 13 is among them, nor blue or black 7-12 of copy 1."""
    runs = [
        meld([k(c, s, cp), k(c, s + 1, cp), k(c, s + 2, cp)])
        for cp in (0, 1)
        for c in ("red", "yellow", "blue", "black")
        for s in (1, 4, 7, 10)
    ]
    return runs[:26]


def lay(*series: Sequence[Placed], pairs: Sequence[Sequence[Placed]] = ()) -> Lay:
    """A Lay move of these series melds (the whole new series area) and new pairs."""
    return Lay(tuple(tuple(m) for m in series), tuple(tuple(p) for p in pairs))


def rejected(
    table: Table,
    seat: int,
    move: Move,
    match: str,
    *,
    rules: Rules | None = None,
    error: type[EngineError] = IllegalMoveError,
) -> EngineError:
    """Assert ``move`` is refused with a message matching ``match`` and changes nothing."""
    before, snapshot = encode(table), table.clone()
    with pytest.raises(error, match=match) as caught:
        apply_move(table, seat, move, NOW + 1, rules=rules or rules_of(table.game))
    assert encode(table) == before
    assert table == snapshot
    return caught.value


def play(table: Table, seat: int, move: Move, *, rules: Rules | None = None) -> Table:
    """Apply ``move`` for ``seat`` with the test rules; the new table."""
    return apply_move(table, seat, move, NOW + 1, rules=rules or rules_of(table.game)).table


def past_break(table: Table) -> Table:
    """``table`` with the break between hands over (RULES §2a): the next hand dealt at the
    break's end, as the timer would; the table itself when there is no break."""
    if table.break_until is None or table.status != "playing":
        return table
    from harftet.engine import table as life

    out = life.sweep(table, table.break_until)
    assert out is not None and out.table.break_until is None
    return out.table
