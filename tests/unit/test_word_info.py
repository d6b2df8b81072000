"""`build.word_info`: each written word's kinds (Turkish, from nlptoolkit's flags) and the
lists that hold it; `encode_info` and `infos` round-trip."""

from __future__ import annotations

from typing import Any

from harftet.words.build import Hunspell, Zemberek, word_info
from harftet.words.info import encode_info, infos


def test_kinds_and_sources_come_from_each_list() -> None:
    entries = [
        ("kalem", frozenset({"CL_ISIM"})),
        ("güzel", frozenset({"IS_ADJ", "CL_ISIM"})),
        ("oku", frozenset({"CL_FIIL"})),
    ]
    zemberek = Zemberek(common={"KALEM", "OKUMAK"})
    hunspell = Hunspell(lower={"KALEM", "EĞLENDİRMEK"})
    words = {"KALEM", "GÜZEL", "OKU", "OKUMAK", "EĞLEN", "EĞLENDİR", "EĞLENDİRMEK", "ŞAHANE"}
    info = word_info(words, entries, zemberek, hunspell, allow={"ŞAHANE"})
    assert info["KALEM"] == (["isim"], ["nlptoolkit-dictionary", "zemberek", "hunspell-tr"])
    assert info["GÜZEL"] == (["isim", "sıfat"], ["nlptoolkit-dictionary"])
    assert info["OKU"] == (["fiil"], ["nlptoolkit-dictionary"])
    assert info["OKUMAK"] == (["fiil"], ["nlptoolkit-dictionary", "zemberek"])
    assert info["EĞLENDİRMEK"] == (["fiil"], ["hunspell-tr"])  # a causative hunspell adds
    assert info["EĞLENDİR"] == (["fiil"], ["hunspell-tr"])
    assert info["ŞAHANE"] == ([], ["allow.txt"])
    assert info["EĞLEN"] == ([], [])  # nothing here vouches for it: no made-up source


def test_the_file_round_trips(tmp_path: Any) -> None:
    path = tmp_path / "words.info.gz"
    path.write_bytes(
        encode_info({"EV": (["isim"], ["nlptoolkit-dictionary"]), "ŞAHANE": ([], ["allow.txt"])})
    )
    assert infos(str(path)) == {
        "EV": (("isim",), ("nlptoolkit-dictionary",)),
        "ŞAHANE": ((), ("allow.txt",)),
    }
    assert encode_info({"EV": (["isim"], ["x"])}) == encode_info({"EV": (["isim"], ["x"])})
