"""A small set of web pages in legacy encodings, built from real text, for the engine tests
and the benchmarks: each text is encoded with textcodec's own encoders and wrapped in HTML
that declares its encoding the ways real sites do (Content-Type header, <meta charset>,
<meta http-equiv>, a BOM, or nothing at all)."""

import itertools
from pathlib import Path
from typing import Iterator, List, Optional, Tuple

import textcodec

REPO = Path(__file__).resolve().parents[3]

# (language, encodings a site in that language commonly used, text)
TEXTS = [
    ("ja", ["shift_jis", "euc-jp", "iso-2022-jp"],
     "東京の朝は早い。駅のホームには通勤客が並び、電車は数分おきに到着する。"
     "古い商店街では、豆腐屋が夜明け前から店を開け、湯気の立つ鍋の前で一日が始まる。"),
    ("zh-Hans", ["gbk", "gb18030"],
     "春节前后，火车站里挤满了回家的人。每个人都提着大包小包，脸上带着期待的笑容。"
     "对很多家庭来说，这是一年中唯一一次团聚的机会。"),
    ("zh-Hant", ["big5"],
     "台北的夜市總是熱鬧非凡。小吃攤一個接著一個，空氣中瀰漫著滷味和臭豆腐的香氣，"
     "遊客和本地人一起在擁擠的巷子裡慢慢地走著。"),
    ("ko", ["euc-kr"],
     "서울의 가을 하늘은 유난히 높고 푸르다. 사람들은 주말이면 한강 공원에 모여 "
     "자전거를 타거나 돗자리를 펴고 앉아 이야기를 나눈다."),
    ("ru", ["windows-1251", "koi8-r", "ibm866", "iso-8859-5"],
     "Зимой в Москве рано темнеет. Фонари зажигаются уже в четыре часа дня, "
     "и город наполняется светом витрин, шумом машин и запахом свежего хлеба."),
    ("uk", ["windows-1251", "koi8-u"],
     "Київ стоїть на берегах Дніпра. Навесні каштани на Хрещатику вкриваються білим цвітом, "
     "і місто ніби оживає після довгої зими."),
    ("el", ["windows-1253", "iso-8859-7"],
     "Το καλοκαίρι στα νησιά του Αιγαίου οι μέρες είναι μεγάλες και ο ήλιος καίει. "
     "Τα βράδια οι ταβέρνες γεμίζουν με κόσμο, μουσική και φρέσκο ψάρι."),
    ("pl", ["windows-1250", "iso-8859-2"],
     "Kraków jest jednym z najstarszych miast w Polsce. Na Rynku Głównym codziennie "
     "słychać hejnał, a gołębie krążą nad Sukiennicami."),
    ("cs", ["windows-1250", "iso-8859-2"],
     "Praha je protkána úzkými uličkami, kde se v zimě vznáší vůně svařeného vína "
     "a pečených kaštanů. Karlův most je plný turistů téměř celý rok."),
    ("fr", ["windows-1252", "iso-8859-15", "macintosh"],
     "À Paris, les cafés débordent sur les trottoirs dès les premiers beaux jours. "
     "On y lit le journal, on y refait le monde, et l'on paie son café 2,50 €."),
    ("de", ["windows-1252", "iso-8859-1"],
     "Im Herbst färben sich die Wälder im Schwarzwald gelb und rot. Wanderer genießen "
     "die frische Luft und kehren abends in gemütliche Gasthäuser ein."),
    ("tr", ["windows-1254", "iso-8859-9"],
     "İstanbul'da vapurla karşıya geçmek, şehrin en güzel deneyimlerinden biridir. "
     "Martılar simit parçaları için gemiyi takip eder."),
    ("he", ["windows-1255", "iso-8859-8"],
     "בירושלים האבנים זוהרות בצבע זהוב בשעת השקיעה. ברחובות העיר העתיקה נשמעים "
     "קולות של שווקים ופעמונים."),
    ("ar", ["windows-1256", "iso-8859-6"],
     "في القاهرة يمتزج صوت الأذان بضجيج السيارات. وعلى ضفاف النيل يجلس الناس "
     "في المساء يشربون الشاي ويتحدثون."),
    ("th", ["windows-874"],
     "กรุงเทพฯ เป็นเมืองที่ไม่เคยหลับ ตลาดน้ำและแผงขายอาหารริมทางเปิดจนดึกดื่น "
     "ผู้คนเดินทางด้วยเรือ รถตุ๊กตุ๊ก และรถไฟฟ้า"),
    ("vi", ["windows-1258"],
     "Hà Nội vào thu, lá vàng rơi trên những con phố cổ. Người ta ngồi bên hồ Hoàn Kiếm, "
     "nhâm nhi tách cà phê trứng."),
    ("lt", ["windows-1257", "iso-8859-13", "iso-8859-4"],
     "Vilniaus senamiestis garsėja baroko bažnyčiomis ir siauromis gatvelėmis, "
     "kuriose vasarą groja gatvės muzikantai."),
    ("multi", ["utf-8", "utf-16le", "utf-16be"],
     "Unicode pages mix scripts freely: 日本語, Ελληνικά, Русский, עברית, 한국어 — and emoji 😀."),
]


def _example_text() -> str:
    path = REPO / "examples" / "shift_jis.txt"
    return textcodec.decode(path.read_bytes(), "shift_jis")[0] if path.exists() else ""


STYLES = ["header", "meta", "http-equiv", "none", "header-overrides-meta"]


def page(text: str, label: str, style: str, lang: str) -> Tuple[bytes, Optional[str]]:
    """An HTML page (bytes) and its Content-Type header for `text` in `label`."""
    name = textcodec.lookup(label).name
    head = ""
    content_type: Optional[str] = "text/html"
    if style == "header":
        content_type = f"text/html; charset={label}"
    elif style == "meta":
        head = f'<meta charset="{label}">'
    elif style == "http-equiv":
        head = f'<meta http-equiv="Content-Type" content="text/html; charset={label}">'
    elif style == "header-overrides-meta":
        head = '<meta charset="windows-1252">'
        content_type = f"text/html; charset={label}"
    elif style == "none":
        content_type = None
    html = (
        f"<!DOCTYPE html>\n<html lang=\"{lang}\"><head>{head}<title>{lang} · {name}</title></head>"
        f"<body><h1>{lang}</h1><p>{text}</p></body></html>\n"
    )
    body = textcodec.encode(html, label, errors="html", output_encoding=False)
    if textcodec.lookup(label).is_utf16:
        body = (b"\xfe\xff" if name == "UTF-16BE" else b"\xff\xfe") + body
    return body, content_type


def pages(copies: int = 1, scale: int = 1) -> Iterator[Tuple[bytes, Optional[str], str]]:
    """(body, content type, language) rows: every text in every encoding and style, the
    text repeated `scale` times (and 1-3 times more across copies)."""
    texts = list(TEXTS)
    example = _example_text()
    if example:
        texts.append(("ja-example", ["shift_jis", "euc-jp"], example))
    for n in range(copies):
        for (lang, labels, text), style in itertools.product(texts, STYLES):
            for label in labels:
                body, content_type = page(text * ((1 + n % 3) * scale), label, style, lang)
                yield body, content_type, lang


def table(copies: int = 1, scale: int = 1):  # -> pyarrow.Table
    import pyarrow as pa

    rows: List[Tuple[bytes, Optional[str], str]] = list(pages(copies, scale))
    return pa.table(
        {
            "id": pa.array(range(len(rows)), pa.int64()),
            "body": pa.array([r[0] for r in rows], pa.binary()),
            "content_type": pa.array([r[1] for r in rows], pa.string()),
            "lang": pa.array([r[2] for r in rows], pa.string()),
        }
    )
