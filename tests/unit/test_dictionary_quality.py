"""The generated word list against fixed lists written by hand, independently of its sources.

EVERYDAY holds the everyday vocabulary of a Turkish speaker in dictionary form (headwords;
verbs as infinitives), grouped by topic; it was written down from general knowledge, not
taken from any of the build's sources. OUT holds names, places, peoples' names written with a
capital, abbreviations and inflected forms: none of them may be a game word.
"""

from __future__ import annotations

import pytest

from harftet.engine.words import WordList, default_words, turkish_upper


def _words(text: str) -> list[str]:
    """Game forms of the words in `text`, one or more a line; `#` starts a comment line."""
    lines = (line.split("#", 1)[0] for line in text.splitlines())
    return [turkish_upper(w) for line in lines for w in line.split()]


EVERYDAY = _words(
    """
    # the body
    baş saç göz kulak burun ağız diş dil dudak yüz boyun omuz kol dirsek bilek el parmak
    tırnak göğüs karın bel sırt kalça bacak diz ayak topuk kalp akciğer mide kan kemik deri
    kas beyin
    # family and people
    anne baba kardeş abla ağabey amca dayı teyze hala dede nine torun oğul kız çocuk bebek
    eş koca karı kadın erkek adam insan arkadaş komşu misafir akraba nişanlı gelin damat
    # the house
    ev oda mutfak banyo salon kapı pencere duvar tavan zemin çatı merdiven balkon bahçe masa
    sandalye koltuk yatak dolap raf halı perde lamba ayna yastık yorgan battaniye havlu sabun
    tarak anahtar kilit çekmece
    # food and drink
    ekmek su süt çay kahve yumurta peynir tereyağı zeytin bal reçel şeker tuz biber et tavuk
    balık pirinç bulgur makarna çorba salata meyve sebze elma armut portakal limon muz üzüm
    kiraz çilek karpuz kavun domates patates soğan sarımsak havuç fasulye nohut mercimek
    un yoğurt ayran kek pasta tatlı yemek kahvaltı akşam öğle
    # the kitchen
    tabak bardak kaşık çatal bıçak tencere tava fincan şişe fırın ocak buzdolabı
    # animals
    kedi köpek kuş at inek koyun keçi tavuk horoz ördek kaz eşek deve aslan kaplan ayı kurt
    tilki tavşan fare yılan kaplumbağa kelebek arı karınca sinek böcek balina yunus
    # nature and weather
    güneş ay yıldız gök bulut yağmur kar rüzgâr fırtına şimşek gökkuşağı deniz göl nehir
    dere dağ tepe orman ağaç çiçek yaprak dal kök çimen taş kum toprak ada kıyı çöl buz ateş
    hava sis dolu
    # time
    gün gece sabah öğlen hafta ay yıl saat dakika saniye mevsim ilkbahar yaz sonbahar kış
    bugün yarın dün zaman tarih
    # colours
    renk kırmızı mavi yeşil sarı siyah beyaz turuncu mor pembe kahverengi gri lacivert
    # numbers
    bir iki üç dört beş altı yedi sekiz dokuz on yüz bin milyon sıfır yarım çeyrek
    # town and travel
    şehir köy sokak cadde yol köprü meydan park okul hastane eczane market dükkân pazar
    fabrika banka postane otel lokanta kafe cami kilise müze sinema tiyatro istasyon
    havalimanı liman araba otobüs tren uçak gemi bisiklet taksi bilet bavul harita
    # school and work
    kitap defter kalem silgi tahta ders sınıf öğretmen öğrenci soru cevap sınav ödev
    iş işçi patron maaş para doktor hemşire polis asker avukat mühendis şoför aşçı garson
    berber terzi çiftçi satıcı yazar şair ressam
    # things
    telefon bilgisayar televizyon radyo gazete dergi mektup zarf kâğıt resim fotoğraf saat
    gözlük çanta cüzdan şemsiye ayakkabı çorap elbise gömlek pantolon etek ceket palto
    şapka kazak eldiven düğme yüzük kolye oyuncak top
    # feelings and the mind
    sevgi aşk korku öfke sevinç mutluluk üzüntü umut hayal rüya düşünce fikir akıl bilgi
    hafıza merak utanç gurur özlem
    # abstract words
    hayat ölüm sağlık hastalık barış savaş özgürlük adalet hak görev kural yasa devlet
    millet dünya ülke dil din kültür sanat müzik şarkı oyun spor haber olay sorun çözüm
    fiyat değer ses söz isim
    # verbs
    gelmek gitmek yapmak etmek olmak almak vermek görmek bakmak duymak dinlemek konuşmak
    söylemek demek sormak anlatmak okumak yazmak öğrenmek öğretmek bilmek düşünmek anlamak
    sevmek istemek beklemek bulmak aramak kaybetmek başlamak bitirmek çalışmak oynamak
    koşmak yürümek oturmak kalkmak uyumak uyanmak yemek içmek pişirmek açmak kapamak kapatmak
    girmek çıkmak inmek binmek dönmek durmak atmak tutmak çekmek itmek taşımak koymak
    satmak ödemek yıkamak temizlemek giymek çıkarmak gülmek ağlamak korkmak yaşamak ölmek
    doğmak büyümek beğenmek unutmak hatırlamak göstermek getirmek götürmek göndermek
    kazanmak kesmek kırmak dökmek sürmek çizmek boyamak saymak seçmek sarılmak
    # adjectives
    büyük küçük uzun kısa yüksek alçak geniş dar kalın ince ağır hafif sıcak soğuk ılık
    yeni eski genç yaşlı iyi kötü güzel çirkin temiz kirli zengin fakir kolay zor hızlı
    yavaş erken geç doğru yanlış açık kapalı dolu boş tatlı acı ekşi tuzlu mutlu üzgün
    yorgun hasta sağlam kuru ıslak sert yumuşak derin karanlık aydınlık sessiz gürültülü
    önemli akıllı ünlü saygılı zorlu ruhsal evrensel tembel çalışkan cesur
    # small words
    ve ama çünkü için gibi kadar ile daha çok az hiç her bazı bütün hep şimdi sonra önce
    evet hayır belki burada orada nerede nasıl neden kim ben sen biz siz
    # words the rules and the issue name
    alim zalim şık ark gözlük ağaç çiçek akış varış tanrıça demirci eğlendirmek
    """
)

NAMES = _words(
    """
    # Only words that are nothing but a name: many Turkish names are common words too (ALİ
    # high, AYDIN bright, DEMİR iron, KAYA rock, MURAT wish, DERYA sea, BODRUM basement,
    # MISIR maize, AĞRI pain), and those are rightly in.
    # first names
    ahmet mehmet mustafa hasan hüseyin ibrahim ismail osman yusuf emre burak fatma ayşe
    zeynep merve esra büşra hatice emine gökhan serkan cengiz orhan tarık sibel songül
    ayhan tuncay ömer halil süleyman fadime gülsüm nermin
    # family names
    öztürk özdemir özkan
    # cities, regions, countries, seas, rivers, mountains, capitals
    ankara istanbul izmir bursa antalya adana konya kayseri eskişehir trabzon diyarbakır
    erzurum gaziantep malatya denizli sakarya edirne çanakkale kapadokya anadolu trakya
    karadeniz akdeniz marmara fırat dicle kızılırmak uludağ bolu sinop rize muğla manisa
    balıkesir tekirdağ kocaeli zonguldak kastamonu çorum yozgat sivas erzincan hatay
    kahramanmaraş şanlıurfa mardin siirt hakkari iğdır kars ardahan artvin giresun amasya
    niğde nevşehir kırşehir aksaray isparta kütahya bilecik bartın karabük çankırı
    kırıkkale osmaniye kilis adıyaman elazığ tunceli bingöl bitlis
    türkiye almanya fransa ingiltere italya ispanya yunanistan rusya amerika japonya çin
    hindistan irak iran suriye azerbaycan portekiz hollanda belçika isveç norveç polonya
    macaristan romanya bulgaristan gürcistan ukrayna kanada brezilya meksika avustralya
    pakistan afganistan endonezya kore vietnam tayland cezayir libya etiyopya kenya
    avrupa asya afrika londra paris berlin moskova roma atina bağdat tahran kahire
    # peoples, languages and demonyms (Turkish capitalises them)
    türk türkçe kürt kürtçe ermeni ermenice rum rumca arapça fransız fransızca ingiliz
    ingilizce alman almanca rus rusça japon japonca çince yunanca farsça istanbullu
    ankaralı izmirli adanalı amerikalı avrupalı mısırlı ıraklı
    # abbreviations
    tdk tbmm thy trt ptt abd bm nato ünesko tl km kg cm mm ml vb vs dr prof sn tc
    # brands and institutions
    arçelik vestel turkcell migros google facebook twitter
    # inflected forms
    kitaplar evler evde evden kediler gözlüğüm geliyorum geldi gidecek okudum yaptı
    şarkılar kalemler arkadaşım annem çocuklar güzeller ağaçlar yıllar oldu
    """
)


@pytest.fixture(scope="module")
def words() -> WordList:
    """The generated default list (`make dictionary`)."""
    return default_words()


def test_the_lists_are_big_enough_to_measure() -> None:
    assert len(set(EVERYDAY)) >= 600
    assert len(set(NAMES)) >= 200
    assert not set(EVERYDAY) & set(NAMES)


def test_at_least_99_percent_of_everyday_words_are_in(words: WordList) -> None:
    everyday = sorted(set(EVERYDAY))
    missing = [w for w in everyday if w not in words]
    recall = 1 - len(missing) / len(everyday)
    assert recall >= 0.99, f"recall {recall:.1%}; missing: {' '.join(missing)}"


def test_the_words_the_issue_found_missing_are_in(words: WordList) -> None:
    found_missing = _words(
        "önemli akıllı ünlü saygılı evrensel zorlu ruhsal akış varış tanrıça demirci eğlendirmek"
    )
    assert [w for w in found_missing if w not in words] == []


def test_names_places_peoples_abbreviations_and_inflected_forms_stay_out(
    words: WordList,
) -> None:
    assert [w for w in sorted(set(NAMES)) if w in words] == []
