// The C++ header's tests: RAII objects, string_view/u16string_view in, buffers and
// strings out, std::optional lookups, std::span under C++20; the decode and encode
// vectors through the wrappers. Prints "N passed, N failed".
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "textcodec.hpp"
#include "vectors.h"

static unsigned long passed, failed;
#define CHECK(cond, what)                                                                 \
  do {                                                                                    \
    if (cond) {                                                                           \
      passed++;                                                                           \
    } else {                                                                              \
      failed++;                                                                           \
      std::fprintf(stderr, "%s:%d: CHECK(%s) failed: %s\n", __FILE__, __LINE__, #cond, what); \
    }                                                                                     \
  } while (0)

using namespace textcodec;

static std::string_view sv(const uint8_t *p, size_t n) {
  return std::string_view(reinterpret_cast<const char *>(p), n);
}

int main() {
  // Lookups.
  auto sjis = Encoding::for_label(" SJIS ");
  CHECK(sjis && *sjis == encodings::SHIFT_JIS && sjis->name() == "Shift_JIS", "sjis");
  CHECK(!Encoding::for_label("utf 8"), "not a label");
  CHECK(Encoding::for_name("replacement") == encodings::REPLACEMENT, "for_name");
  CHECK(!Encoding::at(Encoding::count) && Encoding::at(0) == encodings::UTF_8, "at");
  CHECK(encodings::UTF_16LE.output_encoding() == encodings::UTF_8, "output encoding");
  auto bom = bom_sniff("\xEF\xBB\xBFx");
  CHECK(bom && bom->first == encodings::UTF_8 && bom->second == 3, "bom");

  // Every decode vector through Decoder, whole and split at every position.
  for (size_t i = 0; i < TC_COUNT(DECODE_VECTORS); i++) {
    const tc_decode_vector &v = DECODE_VECTORS[i];
    Decoder d(Encoding(v.encoding), DecodeErrorMode::Replacement, static_cast<BomHandling>(v.bom));
    std::string_view in = sv(v.input, v.input_len);
    std::string want(reinterpret_cast<const char *>(v.utf8), v.utf8_len);
    std::u16string want16(reinterpret_cast<const char16_t *>(v.utf16), v.utf16_len);
    for (size_t split = 0; split <= in.size(); split += (in.size() > 40 ? 37 : 1)) {
      std::string text;
      d.decode_to_string(in.substr(0, split), text, false);
      DecodeResult r = d.decode_to_string(in.substr(split), text, true);
      CHECK(r.status == Status::InputEmpty && text == want, "decode vector");
      std::u16string text16;
      d.decode_to_u16string(in.substr(0, split), text16, false);
      d.decode_to_u16string(in.substr(split), text16, true);
      CHECK(text16 == want16, "decode vector UTF-16");
    }
    // Moving keeps the state; the moved-from object reports an invalid argument.
    Decoder moved = std::move(d);
    char buf[8];
    CHECK(d.decode_to_utf8("a", buf, sizeof buf, true).status == Status::InvalidArgument,
          "moved-from decoder");
    CHECK(moved.decode_to_utf8("", buf, sizeof buf, true).status == Status::InputEmpty, "moved");
  }
  // Fatal decoding with offsets.
  Decoder fatal(encodings::UTF_8, DecodeErrorMode::Fatal);
  std::string text;
  DecodeResult r = fatal.decode_to_string("ab\xE3\x81", text, true);
  CHECK(r.status == Status::Malformed && r.malformed && r.malformed->offset == 2 &&
            r.malformed->length == 2 && text == "ab", "fatal");

  // Every encode vector through Encoder, from UTF-8 and UTF-16.
  for (size_t i = 0; i < TC_COUNT(ENCODE_VECTORS); i++) {
    const tc_encode_vector &v = ENCODE_VECTORS[i];
    Encoder e(Encoding(v.encoding), static_cast<EncodeErrorMode>(v.mode));
    std::string_view in = sv(v.utf8, v.utf8_len);
    std::string want(reinterpret_cast<const char *>(v.bytes), v.bytes_len);
    std::string out;
    EncodeResult er = e.encode_to_string(in.substr(0, in.size() / 2), out, false);
    er = e.encode_to_string(in.substr(in.size() / 2), out, true);
    CHECK(er.status == Status::InputEmpty && out == want, "encode vector from UTF-8");
    std::u16string_view in16(reinterpret_cast<const char16_t *>(v.utf16), v.utf16_len);
    out.clear();
    er = e.encode_to_string(in16, out, true);
    CHECK(er.status == Status::InputEmpty && out == want, "encode vector from UTF-16");
  }
  // Unmappable in fatal mode.
  Encoder latin(encodings::WINDOWS_1252);
  char buf[16];
  EncodeResult er = latin.encode_from_utf8("a\u2603b", buf, sizeof buf, true);
  CHECK(er.status == Status::Unmappable && er.unmappable_character == U'\u2603' && er.written == 1,
        "unmappable");
  bool threw = false;
  try {
    Encoder none(encodings::REPLACEMENT);
  } catch (const std::invalid_argument &) {
    threw = true;
  }
  CHECK(threw, "replacement has no encoder");

  // The hooks.
  auto decoded = decode(std::string_view("\xFE\xFF\x00" "A", 4), encodings::WINDOWS_1252);
  CHECK(decoded.first == "A" && decoded.second == encodings::UTF_16BE, "decode hook");
  CHECK(encode("a\u20AC\u2603", encodings::WINDOWS_1252) == "a\x80&#9731;", "encode hook");

  // Detection and sniffing.
  Guess g = detect("\x93\xfa\x96\x7b\x8c\xea\x82\xcc\x83\x65\x83\x4c\x83\x58\x83\x67");
  CHECK(g.encoding == encodings::SHIFT_JIS && g.language && *g.language == "ja" && !g.binary,
        "detect");
  TextcodecSniffOptions o = textcodec_sniff_options_default(TEXTCODEC_RESOURCE_HTML);
  auto report = sniff("<meta charset=euc-kr>", o);
  CHECK(report && report->encoding == TEXTCODEC_EUC_KR, "sniff");

  // mem.
  CHECK(mem::utf8_to_utf16_lossy(std::string_view("a\xF0\x9F\x98" "b\xFF", 6)) ==
            u"a\uFFFDb\uFFFD", "mem utf8 -> utf16");
  const char16_t lone[3] = {u'a', 0xD800, 0xE9};
  CHECK(mem::utf16_to_utf8_lossy(std::u16string_view(lone, 3)) == "a\xEF\xBF\xBD\xC3\xA9",
        "mem utf16 -> utf8");
  CHECK(mem::utf8_valid_up_to("ok \xE2\x82") == 3 &&
            mem::utf16_valid_up_to(std::u16string_view(lone, 3)) == 1, "mem validation");

#if __cplusplus >= 202002L
  // std::span overloads.
  std::vector<char> out8(8);
  Decoder d(encodings::WINDOWS_1252);
  r = d.decode_to_utf8("caf\xE9", std::span<char>(out8), true);
  CHECK(r.written == 5 && std::string(out8.data(), 5) == "caf\xC3\xA9", "span");
  std::vector<char16_t> out16(8);
  r = d.decode_to_utf16("caf\xE9", std::span<char16_t>(out16), true);
  CHECK(r.written == 4 && out16[3] == u'\u00E9', "span UTF-16");
  std::printf("test_cpp (C++20): %lu passed, %lu failed\n", passed, failed);
#else
  std::printf("test_cpp (C++17): %lu passed, %lu failed\n", passed, failed);
#endif
  return failed ? 1 : 0;
}
