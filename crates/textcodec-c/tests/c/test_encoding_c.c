/* A program written against encoding_c's documented C API (encoding_rs.h), built
 * unchanged against libtextcodec's compatibility layer. Prints "N passed, N failed". */
#include <stdio.h>
#include <string.h>

#include "encoding_rs.h"

static unsigned long passed, failed;
#define CHECK(cond, what)                                                        \
  do {                                                                           \
    if (cond) {                                                                  \
      passed++;                                                                  \
    } else {                                                                     \
      failed++;                                                                  \
      fprintf(stderr, "%s:%d: CHECK(%s) failed: %s\n", __FILE__, __LINE__, #cond, what); \
    }                                                                            \
  } while (0)

/* Decodes a whole buffer with replacement, in chunks of `chunk` bytes. */
static size_t decode_all(const Encoding *enc, const uint8_t *in, size_t len, size_t chunk,
                         uint8_t *out, size_t cap, bool *replaced) {
  Decoder *d = encoding_new_decoder(enc);
  size_t total = 0, pos = 0;
  *replaced = false;
  for (;;) {
    size_t n = len - pos < chunk ? len - pos : chunk;
    bool last = pos + n == len;
    size_t src_len = n, dst_len = cap - total;
    bool had = false;
    uint32_t r = decoder_decode_to_utf8(d, in + pos, &src_len, out + total, &dst_len, last, &had);
    *replaced = *replaced || had;
    pos += src_len;
    total += dst_len;
    if (r == OUTPUT_FULL) break;
    if (last) break;
  }
  decoder_free(d);
  return total;
}

int main(void) {
  /* Labels and names. */
  const Encoding *sjis = encoding_for_label((const uint8_t *)" Shift-JIS ", 11);
  CHECK(sjis == SHIFT_JIS_ENCODING, "shift-jis label");
  CHECK(encoding_for_label((const uint8_t *)"bogus", 5) == NULL, "bogus label");
  CHECK(encoding_for_label((const uint8_t *)"iso-2022-kr", 11) == REPLACEMENT_ENCODING, "replacement");
  CHECK(encoding_for_label_no_replacement((const uint8_t *)"iso-2022-kr", 11) == NULL, "no replacement");
  uint8_t name[ENCODING_NAME_MAX_LENGTH];
  size_t n = encoding_name(X_MAC_CYRILLIC_ENCODING, name);
  CHECK(n == 14 && memcmp(name, "x-mac-cyrillic", 14) == 0, "name");
  n = encoding_name(sjis, name);
  CHECK(n == 9 && memcmp(name, "Shift_JIS", 9) == 0, "Shift_JIS name");
  CHECK(encoding_output_encoding(UTF_16LE_ENCODING) == UTF_8_ENCODING, "output encoding");
  CHECK(encoding_can_encode_everything(UTF_16BE_ENCODING), "UTF-16BE encodes everything");
  CHECK(!encoding_can_encode_everything(WINDOWS_1252_ENCODING), "windows-1252 does not");
  CHECK(encoding_is_single_byte(X_USER_DEFINED_ENCODING), "x-user-defined single byte");
  CHECK(!encoding_is_ascii_compatible(ISO_2022_JP_ENCODING), "ISO-2022-JP");
  size_t bom_len = 4;
  CHECK(encoding_for_bom((const uint8_t *)"\xFE\xFF\x00\x41", &bom_len) == UTF_16BE_ENCODING &&
            bom_len == 2, "BOM");
  CHECK(encoding_utf8_valid_up_to((const uint8_t *)"ab\xC3\xA9\xFF", 5) == 4, "utf8 valid up to");
  CHECK(encoding_ascii_valid_up_to((const uint8_t *)"ab\xC3", 3) == 2, "ascii valid up to");
  CHECK(encoding_iso_2022_jp_ascii_valid_up_to((const uint8_t *)"ab\x1B", 3) == 2, "iso-2022-jp ascii");

  /* Decoding with replacement, in chunks of every size. */
  const uint8_t sjis_text[] = "\x93\xfa\x96\x7b\x8c\xea!";
  uint8_t out[64];
  for (size_t chunk = 1; chunk <= 7; chunk++) {
    bool replaced;
    size_t w = decode_all(sjis, sjis_text, 7, chunk, out, sizeof out, &replaced);
    CHECK(w == 10 && memcmp(out, "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E!", 10) == 0 && !replaced,
          "Shift_JIS decode");
  }
  bool replaced;
  size_t w = decode_all(UTF_8_ENCODING, (const uint8_t *)"a\xFF" "b", 3, 3, out, sizeof out, &replaced);
  CHECK(w == 5 && memcmp(out, "a\xEF\xBF\xBD" "b", 5) == 0 && replaced, "UTF-8 replacement");

  /* Without replacement: the malformed sequence's length and the bytes after it. */
  Decoder *d = encoding_new_decoder_without_bom_handling(SHIFT_JIS_ENCODING);
  size_t src_len = 3, dst_len = sizeof out;
  uint32_t r = decoder_decode_to_utf8_without_replacement(d, (const uint8_t *)"a\x82\x22", &src_len,
                                                          out, &dst_len, true);
  CHECK(r != INPUT_EMPTY && r != OUTPUT_FULL && (r & 0xFF) == 1 && ((r >> 8) & 0xFF) == 0 &&
            src_len == 2 && dst_len == 1, "malformed 82 then 22 restored");
  size_t rest = 1;
  dst_len = sizeof out;
  r = decoder_decode_to_utf8_without_replacement(d, (const uint8_t *)"\x22", &rest, out, &dst_len, true);
  CHECK(r == INPUT_EMPTY && dst_len == 1 && out[0] == '"', "resumed");
  decoder_free(d);

  /* BOM sniffing changes the decoder's encoding; to UTF-16. */
  d = encoding_new_decoder(WINDOWS_1252_ENCODING);
  char16_t u[8];
  src_len = 4;
  dst_len = 8;
  bool had = true;
  r = decoder_decode_to_utf16(d, (const uint8_t *)"\xFF\xFE\x41\x00", &src_len, u, &dst_len, true, &had);
  CHECK(r == INPUT_EMPTY && dst_len == 1 && u[0] == 'A' && !had, "UTF-16LE via BOM");
  encoding_new_decoder_with_bom_removal_into(UTF_8_ENCODING, d);
  CHECK(decoder_encoding(d) == UTF_8_ENCODING, "decoder re-initialised");
  CHECK(decoder_max_utf16_buffer_length(d, 10) >= 10, "max utf16");
  decoder_free(d);

  /* Latin-1-compatible prefixes: windows-1252 maps 0xA0-0xFF to themselves, not 0x80; a
   * BOM's first byte ends it while one is looked for; a decoder holding bytes cannot say. */
  d = encoding_new_decoder_without_bom_handling(WINDOWS_1252_ENCODING);
  CHECK(decoder_latin1_byte_compatible_up_to(d, (const uint8_t *)"caf\xE9\x80", 5) == 4, "latin1 1252");
  decoder_free(d);
  d = encoding_new_decoder(WINDOWS_1252_ENCODING);
  CHECK(decoder_latin1_byte_compatible_up_to(d, (const uint8_t *)"\xEF", 1) == 0, "latin1 BOM");
  decoder_free(d);
  d = encoding_new_decoder(SHIFT_JIS_ENCODING);
  CHECK(decoder_latin1_byte_compatible_up_to(d, (const uint8_t *)"a\x80\x81", 3) == 2, "latin1 sjis");
  src_len = 1;
  dst_len = sizeof out;
  bool pending = false;
  r = decoder_decode_to_utf8(d, (const uint8_t *)"\x81", &src_len, out, &dst_len, false, &pending);
  CHECK(r == INPUT_EMPTY && decoder_latin1_byte_compatible_up_to(d, (const uint8_t *)"a", 1) == SIZE_MAX,
        "latin1 pending");
  CHECK(decoder_latin1_byte_compatible_up_to(NULL, (const uint8_t *)"a", 1) == SIZE_MAX, "latin1 NULL");
  decoder_free(d);

  /* Encoding with replacement: HTML numeric character references. */
  Encoder *e = encoding_new_encoder(WINDOWS_1252_ENCODING);
  src_len = 7;
  dst_len = sizeof out;
  had = false;
  r = encoder_encode_from_utf8(e, (const uint8_t *)"a\xE2\x82\xAC\xE2\x98\x83", &src_len, out,
                               &dst_len, true, &had);
  CHECK(r == INPUT_EMPTY && src_len == 7 && dst_len == 9 && memcmp(out, "a\x80&#9731;", 9) == 0 && had,
        "html replacement");
  /* Without replacement: the unmappable scalar value. */
  src_len = 5;
  dst_len = sizeof out;
  r = encoder_encode_from_utf8_without_replacement(e, (const uint8_t *)"b\xE2\x98\x83" "c", &src_len,
                                                   out, &dst_len, true);
  CHECK(r == 0x2603 && src_len == 4 && dst_len == 1 && out[0] == 'b', "unmappable U+2603");
  CHECK(encoder_max_buffer_length_from_utf8_without_replacement(e, 10) >= 10, "max");
  encoder_free(e);
  /* UTF-16's output encoding is UTF-8. */
  e = encoding_new_encoder(UTF_16LE_ENCODING);
  CHECK(encoder_encoding(e) == UTF_8_ENCODING, "UTF-16 encoder writes UTF-8");
  char16_t pair[2] = {0xD83D, 0xDE00};
  src_len = 2;
  dst_len = sizeof out;
  r = encoder_encode_from_utf16(e, pair, &src_len, out, &dst_len, true, &had);
  CHECK(r == INPUT_EMPTY && dst_len == 4 && memcmp(out, "\xF0\x9F\x98\x80", 4) == 0, "UTF-16 in");
  encoder_free(e);
  /* ISO-2022-JP's pending state. */
  e = encoding_new_encoder(ISO_2022_JP_ENCODING);
  src_len = 3;
  dst_len = sizeof out;
  r = encoder_encode_from_utf8(e, (const uint8_t *)"\xE6\x97\xA5", &src_len, out, &dst_len, false, &had);
  CHECK(r == INPUT_EMPTY && encoder_has_pending_state(e), "pending state");
  src_len = 0;
  dst_len = sizeof out;
  r = encoder_encode_from_utf8(e, (const uint8_t *)"", &src_len, out, &dst_len, true, &had);
  CHECK(r == INPUT_EMPTY && dst_len == 3 && !encoder_has_pending_state(e), "back to ASCII");
  encoder_free(e);

  printf("test_encoding_c: %lu passed, %lu failed\n", passed, failed);
  return failed ? 1 : 0;
}
