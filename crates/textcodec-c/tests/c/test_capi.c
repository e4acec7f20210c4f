/* The C API's tests: the Rust tests' vectors (vectors.h) one-shot and streamed with the
 * input split at every position and into tiny output buffers, every error path, sniffing
 * and detection. Prints "N passed, N failed"; exits 1 on any failure. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textcodec.h"
#include "vectors.h"

static unsigned long passed, failed;

#define CHECK(cond, ...)                                                   \
  do {                                                                     \
    if (cond) {                                                            \
      passed++;                                                            \
    } else {                                                               \
      failed++;                                                            \
      if (failed <= 40) {                                                  \
        fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
        fprintf(stderr, __VA_ARGS__);                                      \
        fputc('\n', stderr);                                               \
      }                                                                    \
    }                                                                      \
  } while (0)

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  return p;
}

static const char *name(TextcodecEncoding e) {
  const char *n = textcodec_encoding_name(e);
  return n ? n : "(none)";
}

/* ---------------------------------------------------------------- encodings, labels */

static void test_encodings(void) {
  CHECK(textcodec_label_count() == 228, "%zu labels", textcodec_label_count());
  for (uint32_t e = 0; e < TEXTCODEC_ENCODING_COUNT; e++) {
    const char *n = textcodec_encoding_name(e);
    CHECK(n != NULL, "encoding %u has no name", e);
    if (!n) continue;
    CHECK(textcodec_encoding_for_name((const uint8_t *)n, strlen(n)) == e, "name %s", n);
  }
  CHECK(textcodec_encoding_name(TEXTCODEC_ENCODING_COUNT) == NULL, "name past the end");
  CHECK(textcodec_encoding_name(TEXTCODEC_NO_ENCODING) == NULL, "name of none");
  CHECK(strcmp(name(TEXTCODEC_SHIFT_JIS), "Shift_JIS") == 0, "Shift_JIS");
  CHECK(strcmp(name(TEXTCODEC_X_USER_DEFINED), "x-user-defined") == 0, "x-user-defined");
  /* Every label names its encoding, also in upper case with whitespace around it. */
  size_t per_encoding[TEXTCODEC_ENCODING_COUNT] = {0};
  for (size_t i = 0; i < textcodec_label_count(); i++) {
    TextcodecEncoding e = TEXTCODEC_NO_ENCODING;
    const char *label = textcodec_label_at(i, &e);
    CHECK(label != NULL && e < TEXTCODEC_ENCODING_COUNT, "label %zu", i);
    if (!label || e >= TEXTCODEC_ENCODING_COUNT) continue;
    per_encoding[e]++;
    CHECK(textcodec_encoding_for_label((const uint8_t *)label, strlen(label)) == e, "%s", label);
    char padded[64];
    size_t n = strlen(label);
    CHECK(n + 4 < sizeof padded, "label too long");
    padded[0] = ' ';
    padded[1] = '\t';
    for (size_t k = 0; k < n; k++) {
      char c = label[k];
      padded[k + 2] = (c >= 'a' && c <= 'z') ? (char)(c - 32) : c;
    }
    padded[n + 2] = '\n';
    padded[n + 3] = '\f';
    CHECK(textcodec_encoding_for_label((const uint8_t *)padded, n + 4) == e, "padded %s", label);
  }
  CHECK(textcodec_label_at(textcodec_label_count(), NULL) == NULL, "label past the end");
  for (uint32_t e = 0; e < TEXTCODEC_ENCODING_COUNT; e++) {
    /* Every encoding but replacement has at least one label of its own... and replacement
     * has its labels too (iso-2022-kr, ...). */
    CHECK(per_encoding[e] > 0, "%s has no label", name(e));
  }
  /* Not labels. */
  static const char *not_labels[] = {"utf 8", "", " ", "utf-8\v", "latin-1", "x-user-defined2",
                                     "\xC3\xA9"};
  for (size_t i = 0; i < sizeof not_labels / sizeof not_labels[0]; i++) {
    const char *l = not_labels[i];
    CHECK(textcodec_encoding_for_label((const uint8_t *)l, strlen(l)) == TEXTCODEC_NO_ENCODING,
          "'%s' is not a label", l);
  }
  CHECK(textcodec_encoding_for_label(NULL, 5) == TEXTCODEC_NO_ENCODING, "NULL label");
  CHECK(textcodec_encoding_for_label(NULL, 0) == TEXTCODEC_NO_ENCODING, "empty label");
  CHECK(textcodec_encoding_for_name((const uint8_t *)"replacement", 11) == TEXTCODEC_REPLACEMENT,
        "replacement by name");
  CHECK(textcodec_encoding_for_label((const uint8_t *)"replacement", 11) == TEXTCODEC_REPLACEMENT,
        "replacement is a label too");
  CHECK(textcodec_encoding_for_label((const uint8_t *)"iso-2022-kr", 11) == TEXTCODEC_REPLACEMENT,
        "iso-2022-kr");
  CHECK(textcodec_encoding_for_label((const uint8_t *)"utf-16", 6) == TEXTCODEC_UTF_16LE, "utf-16");
  /* Queries. */
  CHECK(textcodec_encoding_output_encoding(TEXTCODEC_UTF_16BE) == TEXTCODEC_UTF_8, "output");
  CHECK(textcodec_encoding_output_encoding(TEXTCODEC_REPLACEMENT) == TEXTCODEC_UTF_8, "output");
  CHECK(textcodec_encoding_output_encoding(TEXTCODEC_GBK) == TEXTCODEC_GBK, "output");
  CHECK(textcodec_encoding_output_encoding(99) == TEXTCODEC_NO_ENCODING, "output of 99");
  CHECK(textcodec_encoding_is_ascii_compatible(TEXTCODEC_SHIFT_JIS), "ascii compatible");
  CHECK(!textcodec_encoding_is_ascii_compatible(TEXTCODEC_ISO_2022_JP), "not ascii compatible");
  CHECK(!textcodec_encoding_is_ascii_compatible(99), "99");
  CHECK(textcodec_encoding_is_single_byte(TEXTCODEC_KOI8_U), "single byte");
  CHECK(!textcodec_encoding_is_single_byte(TEXTCODEC_X_USER_DEFINED), "x-user-defined");
  CHECK(textcodec_encoding_is_utf16(TEXTCODEC_UTF_16LE), "utf16");
  CHECK(textcodec_encoding_has_encoder(TEXTCODEC_ISO_2022_JP), "has encoder");
  CHECK(!textcodec_encoding_has_encoder(TEXTCODEC_REPLACEMENT), "replacement");
  /* BOM sniff. */
  size_t bom = 99;
  CHECK(textcodec_bom_sniff((const uint8_t *)"\xFF\xFE" "a", 3, &bom) == TEXTCODEC_UTF_16LE &&
            bom == 2, "FF FE");
  CHECK(textcodec_bom_sniff((const uint8_t *)"\xEF\xBB\xBF", 3, &bom) == TEXTCODEC_UTF_8 &&
            bom == 3, "EF BB BF");
  CHECK(textcodec_bom_sniff((const uint8_t *)"\xEF\xBB", 2, &bom) == TEXTCODEC_NO_ENCODING &&
            bom == 0, "EF BB");
  CHECK(textcodec_bom_sniff(NULL, 0, NULL) == TEXTCODEC_NO_ENCODING, "empty");
  CHECK(textcodec_bom_sniff(NULL, 3, &bom) == TEXTCODEC_NO_ENCODING && bom == 0, "NULL");
  const char *v = textcodec_version();
  CHECK(v != NULL && strchr(v, '.') != NULL, "version %s", v ? v : "(null)");
}

/* ---------------------------------------------------------------- decoding */

/* Decodes `input` split at `split` (and, if `unit` > 0, in pieces of `unit` bytes) into
 * output buffers of `room` units at a time, to UTF-8 or UTF-16; appends to `out`, returns
 * the total written (units), or SIZE_MAX on a status it did not expect. */
static size_t decode_streamed(TextcodecDecoder *d, const uint8_t *input, size_t len, size_t split,
                              size_t unit, size_t room, int utf16, void *out, size_t out_cap) {
  size_t total = 0;
  size_t pos = 0;
  while (1) {
    size_t end = len;
    if (pos < split) end = split;
    if (unit && pos + unit < end) end = pos + unit;
    int last = end == len;
    size_t chunk_pos = pos;
    for (;;) {
      size_t space = out_cap - total;
      if (room && room < space) space = room;
      TextcodecDecodeResult r;
      if (utf16) {
        r = textcodec_decoder_decode_to_utf16(d, input + chunk_pos, end - chunk_pos,
                                              (uint16_t *)out + total, space, last);
      } else {
        r = textcodec_decoder_decode_to_utf8(d, input + chunk_pos, end - chunk_pos,
                                             (uint8_t *)out + total, space, last);
      }
      if (r.read > end - chunk_pos || r.written > space) return SIZE_MAX;
      chunk_pos += r.read;
      total += r.written;
      if (r.status == TEXTCODEC_INPUT_EMPTY) {
        if (chunk_pos != end) return SIZE_MAX;
        break;
      }
      if (r.status != TEXTCODEC_OUTPUT_FULL) return SIZE_MAX;
      /* OUTPUT_FULL must only happen when the buffer cannot take a character, and a
       * buffer of 4 bytes (UTF-8) or 2 units (UTF-16) takes any character. */
      if (space >= 8 || (r.written == 0 && space >= (utf16 ? 2u : 4u))) return SIZE_MAX;
      if (total >= out_cap) return SIZE_MAX;
    }
    pos = end;
    if (last) return total;
  }
}

static void test_decode_vectors(void) {
  for (size_t i = 0; i < TC_COUNT(DECODE_VECTORS); i++) {
    const tc_decode_vector *v = &DECODE_VECTORS[i];
    /* One-shot, with the documented worst-case buffer. */
    size_t cap8 = textcodec_decode_max_utf8_length(v->input_len);
    uint8_t *out8 = xmalloc(cap8 + 1);
    TextcodecDecodeResult r = textcodec_decode_to_utf8(v->encoding, TEXTCODEC_DECODE_REPLACEMENT,
                                                       v->bom, v->input, v->input_len, out8, cap8);
    CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.read == v->input_len &&
              r.written == v->utf8_len && memcmp(out8, v->utf8, v->utf8_len) == 0,
          "vector %zu (%s): one-shot UTF-8 status %u written %zu", i, name(v->encoding), r.status,
          r.written);
    CHECK(r.encoding == v->used, "vector %zu: used %s", i, name(r.encoding));
    size_t cap16 = textcodec_decode_max_utf16_length(v->input_len);
    uint16_t *out16 = xmalloc((cap16 + 1) * sizeof(uint16_t));
    r = textcodec_decode_to_utf16(v->encoding, TEXTCODEC_DECODE_REPLACEMENT, v->bom, v->input,
                                  v->input_len, out16, cap16);
    CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.written == v->utf16_len &&
              memcmp(out16, v->utf16, v->utf16_len * 2) == 0,
          "vector %zu (%s): one-shot UTF-16", i, name(v->encoding));

    TextcodecDecoder *d = textcodec_decoder_new(v->encoding, TEXTCODEC_DECODE_REPLACEMENT, v->bom);
    CHECK(d != NULL, "decoder_new");
    if (!d) continue;
    /* Split at every position, both outputs; the decoder is reused (a `last` call that
     * returns INPUT_EMPTY starts a new stream). */
    for (size_t split = 0; split <= v->input_len; split++) {
      size_t n = decode_streamed(d, v->input, v->input_len, split, 0, 0, 0, out8, cap8);
      CHECK(n == v->utf8_len && memcmp(out8, v->utf8, n) == 0,
            "vector %zu (%s) split %zu: UTF-8 %zu bytes", i, name(v->encoding), split, n);
      n = decode_streamed(d, v->input, v->input_len, split, 0, 0, 1, out16, cap16);
      CHECK(n == v->utf16_len && memcmp(out16, v->utf16, n * 2) == 0,
            "vector %zu (%s) split %zu: UTF-16", i, name(v->encoding), split);
    }
    /* One byte at a time into 4-byte / 2-unit buffers (OUTPUT_FULL on every character
     * that does not fit; the documented minimum that takes any character). */
    size_t n = decode_streamed(d, v->input, v->input_len, 0, 1, 4, 0, out8, cap8);
    CHECK(n == v->utf8_len && memcmp(out8, v->utf8, n) == 0, "vector %zu: bytewise UTF-8", i);
    n = decode_streamed(d, v->input, v->input_len, 0, 1, 2, 1, out16, cap16);
    CHECK(n == v->utf16_len && memcmp(out16, v->utf16, n * 2) == 0, "vector %zu: bytewise UTF-16",
          i);
    /* Whole input into 5-byte buffers. */
    n = decode_streamed(d, v->input, v->input_len, 0, 0, 5, 0, out8, cap8);
    CHECK(n == v->utf8_len && memcmp(out8, v->utf8, n) == 0, "vector %zu: 5-byte buffers", i);
    textcodec_decoder_free(d);
    free(out8);
    free(out16);
  }
}

/* Fatal decoding, resuming after each error, input split at `split`. */
static void check_fatal(const tc_fatal_vector *v, size_t i, size_t split, int utf16) {
  TextcodecDecoder *d =
      textcodec_decoder_new(v->encoding, TEXTCODEC_DECODE_FATAL, TEXTCODEC_BOM_KEEP);
  uint8_t out8[256];
  uint16_t out16[256];
  size_t total = 0, errors = 0, pos = 0;
  int ok = d != NULL;
  while (ok) {
    size_t end = pos < split ? split : v->input_len;
    int last = end == v->input_len;
    TextcodecDecodeResult r =
        utf16 ? textcodec_decoder_decode_to_utf16(d, v->input + pos, end - pos, out16 + total,
                                                  256 - total, last)
              : textcodec_decoder_decode_to_utf8(d, v->input + pos, end - pos, out8 + total,
                                                 256 - total, last);
    pos += r.read;
    total += r.written;
    if (r.status == TEXTCODEC_MALFORMED) {
      if (errors >= v->error_count) {
        ok = 0;
        break;
      }
      const tc_error *e = &v->errors[errors++];
      CHECK(r.malformed_offset == e->offset && r.malformed_length == e->len &&
                memcmp(r.malformed_bytes, e->bytes, e->len) == 0,
            "fatal vector %zu split %zu: error %zu at %llu (%u bytes)", i, split, errors,
            (unsigned long long)r.malformed_offset, r.malformed_length);
      continue;
    }
    if (r.status != TEXTCODEC_INPUT_EMPTY) ok = 0;
    if (last) break;
  }
  CHECK(ok && errors == v->error_count, "fatal vector %zu (%s) split %zu: %zu errors", i,
        name(v->encoding), split, errors);
  if (utf16) {
    /* ASCII and the few characters of these vectors: compare as UTF-16 of the UTF-8. */
    uint16_t want[256];
    size_t n = 0;
    for (size_t k = 0; k < v->utf8_len;) {
      uint8_t b = v->utf8[k];
      uint32_t c;
      if (b < 0x80) {
        c = b;
        k += 1;
      } else if (b < 0xE0) {
        c = ((uint32_t)(b & 0x1F) << 6) | (v->utf8[k + 1] & 0x3F);
        k += 2;
      } else {
        c = ((uint32_t)(b & 0x0F) << 12) | ((uint32_t)(v->utf8[k + 1] & 0x3F) << 6) |
            (v->utf8[k + 2] & 0x3F);
        k += 3;
      }
      want[n++] = (uint16_t)c;
    }
    CHECK(total == n && memcmp(out16, want, n * 2) == 0, "fatal vector %zu UTF-16 text", i);
  } else {
    CHECK(total == v->utf8_len && memcmp(out8, v->utf8, total) == 0,
          "fatal vector %zu split %zu: text", i, split);
  }
  textcodec_decoder_free(d);
}

static void test_fatal_vectors(void) {
  for (size_t i = 0; i < TC_COUNT(FATAL_VECTORS); i++) {
    for (size_t split = 0; split <= FATAL_VECTORS[i].input_len; split++) {
      check_fatal(&FATAL_VECTORS[i], i, split, 0);
      check_fatal(&FATAL_VECTORS[i], i, split, 1);
    }
  }
  /* Switching to replacement after the first error (Decoder::set_error_mode). */
  TextcodecDecoder *d = textcodec_decoder_new(TEXTCODEC_UTF_8, TEXTCODEC_DECODE_FATAL,
                                              TEXTCODEC_BOM_SNIFF);
  const uint8_t in[] = "a\xFF" "b\xFF" "c";
  uint8_t out[32];
  TextcodecDecodeResult r = textcodec_decoder_decode_to_utf8(d, in, 5, out, sizeof out, true);
  CHECK(r.status == TEXTCODEC_MALFORMED && r.malformed_offset == 1 && r.read == 2 &&
            r.written == 1, "first error");
  CHECK(textcodec_decoder_set_error_mode(d, TEXTCODEC_DECODE_REPLACEMENT), "set mode");
  CHECK(!textcodec_decoder_set_error_mode(d, 7), "unknown mode");
  CHECK(!textcodec_decoder_set_error_mode(NULL, TEXTCODEC_DECODE_FATAL), "NULL decoder");
  r = textcodec_decoder_decode_to_utf8(d, in + 2, 3, out, sizeof out, true);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.written == 5 && memcmp(out, "b\xEF\xBF\xBD" "c", 5) == 0 &&
            r.replacements == 1, "rest replaced");
  CHECK(textcodec_decoder_replacements(d) == 1, "replacements");
  textcodec_decoder_free(d);
}

static void test_decoder_state(void) {
  /* BOM sniffing switches the encoding; reset goes back. */
  TextcodecDecoder *d =
      textcodec_decoder_new(TEXTCODEC_WINDOWS_1252, TEXTCODEC_DECODE_REPLACEMENT, TEXTCODEC_BOM_SNIFF);
  uint8_t out[64];
  TextcodecDecodeResult r =
      textcodec_decoder_decode_to_utf8(d, (const uint8_t *)"\xFE\xFF\x00" "A", 4, out, 64, false);
  CHECK(r.encoding == TEXTCODEC_UTF_16BE && r.written == 1 && out[0] == 'A', "BOM switches");
  CHECK(textcodec_decoder_encoding(d) == TEXTCODEC_UTF_16BE, "decoder encoding");
  textcodec_decoder_reset(d);
  CHECK(textcodec_decoder_encoding(d) == TEXTCODEC_WINDOWS_1252, "reset");
  /* Worst-case lengths count pending bytes. */
  r = textcodec_decoder_decode_to_utf8(d, (const uint8_t *)"\xEF\xBB", 2, out, 64, false);
  CHECK(r.read == 2 && r.written == 0, "pending BOM prefix");
  CHECK(textcodec_decoder_max_utf8_buffer_length(d, 10) == 36, "max utf8 %zu",
        textcodec_decoder_max_utf8_buffer_length(d, 10));
  CHECK(textcodec_decoder_max_utf16_buffer_length(d, 10) == 12, "max utf16");
  CHECK(textcodec_decoder_max_utf8_buffer_length(d, SIZE_MAX) == SIZE_MAX, "overflow");
  CHECK(textcodec_decoder_max_utf8_buffer_length(NULL, 1) == SIZE_MAX, "NULL");
  textcodec_decoder_free(d);
  /* BOM removal: only the decoder's own BOM, no switching. */
  d = textcodec_decoder_new(TEXTCODEC_UTF_16LE, TEXTCODEC_DECODE_REPLACEMENT, TEXTCODEC_BOM_REMOVE);
  uint16_t u[8];
  r = textcodec_decoder_decode_to_utf16(d, (const uint8_t *)"\xFF\xFE" "a\x00\xFF\xFE", 6, u, 8,
                                        true);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.written == 2 && u[0] == 'a' && u[1] == 0xFEFF,
        "BOM removed once");
  textcodec_decoder_free(d);
  /* A Big5 pointer that gives two code points does not fit one UTF-16 unit. */
  d = textcodec_decoder_new(TEXTCODEC_BIG5, TEXTCODEC_DECODE_REPLACEMENT, TEXTCODEC_BOM_SNIFF);
  r = textcodec_decoder_decode_to_utf16(d, (const uint8_t *)"\x88\x62", 2, u, 1, true);
  CHECK(r.status == TEXTCODEC_OUTPUT_FULL && r.written == 0, "Big5 pair into one unit");
  r = textcodec_decoder_decode_to_utf16(d, (const uint8_t *)"\x88\x62" + r.read, 2 - r.read, u, 2,
                                        true);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.written == 2 && u[0] == 0xCA && u[1] == 0x304,
        "Big5 pair");
  /* An empty output buffer (NULL, 0) is fine: OUTPUT_FULL before the first character
   * (the BOM stage may have taken a byte into the decoder's queue). */
  r = textcodec_decoder_decode_to_utf8(d, (const uint8_t *)"abc", 3, NULL, 0, true);
  CHECK(r.status == TEXTCODEC_OUTPUT_FULL && r.read <= 1 && r.written == 0, "no room");
  textcodec_decoder_reset(d);
  r = textcodec_decoder_decode_to_utf8(d, NULL, 0, NULL, 0, true);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY, "nothing at all");
  textcodec_decoder_free(d);
}

/* ---------------------------------------------------------------- encoding */

static size_t encode_streamed(TextcodecEncoder *e, const tc_encode_vector *v, size_t split,
                              size_t room, int utf16, uint8_t *out, size_t cap, int *ok) {
  size_t total = 0, pos = 0;
  size_t len = utf16 ? v->utf16_len : v->utf8_len;
  *ok = 1;
  for (;;) {
    size_t end = pos < split ? split : len;
    int last = end == len;
    size_t space = cap - total;
    if (room && room < space) space = room;
    TextcodecEncodeResult r =
        utf16 ? textcodec_encoder_encode_from_utf16(e, v->utf16 + pos, end - pos, out + total,
                                                    space, last)
              : textcodec_encoder_encode_from_utf8(e, v->utf8 + pos, end - pos, out + total,
                                                   space, last);
    if (r.read > end - pos || r.written > space) {
      *ok = 0;
      return total;
    }
    pos += r.read;
    total += r.written;
    if (r.status == TEXTCODEC_OUTPUT_FULL) {
      if (space >= 16 || total >= cap || (r.written == 0 && space >= 11)) {
        *ok = 0;
        return total;
      }
      continue;
    }
    if (r.status != TEXTCODEC_INPUT_EMPTY || pos != end) {
      *ok = 0;
      return total;
    }
    if (last) return total;
  }
}

static void test_encode_vectors(void) {
  for (size_t i = 0; i < TC_COUNT(ENCODE_VECTORS); i++) {
    const tc_encode_vector *v = &ENCODE_VECTORS[i];
    size_t cap = textcodec_encode_max_length_from_utf8(v->encoding, v->mode, v->utf8_len);
    size_t cap16 = textcodec_encode_max_length_from_utf16(v->encoding, v->mode, v->utf16_len);
    CHECK(cap != SIZE_MAX && cap >= v->bytes_len && cap16 >= v->bytes_len, "vector %zu cap", i);
    if (cap16 > cap) cap = cap16;
    uint8_t *out = xmalloc(cap);
    TextcodecEncodeResult r =
        textcodec_encode_from_utf8(v->encoding, v->mode, v->utf8, v->utf8_len, out, cap);
    CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.read == v->utf8_len && r.written == v->bytes_len &&
              memcmp(out, v->bytes, v->bytes_len) == 0,
          "encode vector %zu (%s): one-shot status %u written %zu", i, name(v->encoding), r.status,
          r.written);
    r = textcodec_encode_from_utf16(v->encoding, v->mode, v->utf16, v->utf16_len, out, cap);
    CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.written == v->bytes_len &&
              memcmp(out, v->bytes, v->bytes_len) == 0,
          "encode vector %zu (%s): one-shot UTF-16", i, name(v->encoding));
    TextcodecEncoder *e = textcodec_encoder_new(v->encoding, v->mode);
    CHECK(e != NULL, "encoder_new");
    if (!e) continue;
    CHECK(textcodec_encoder_encoding(e) == v->encoding, "encoder encoding");
    int ok;
    /* UTF-8 split at every byte (inside characters too) and UTF-16 at every unit
     * (between surrogates too). */
    for (size_t split = 0; split <= v->utf8_len; split++) {
      size_t n = encode_streamed(e, v, split, 0, 0, out, cap, &ok);
      CHECK(ok && n == v->bytes_len && memcmp(out, v->bytes, n) == 0,
            "encode vector %zu (%s) split %zu", i, name(v->encoding), split);
    }
    for (size_t split = 0; split <= v->utf16_len; split++) {
      size_t n = encode_streamed(e, v, split, 0, 1, out, cap, &ok);
      CHECK(ok && n == v->bytes_len && memcmp(out, v->bytes, n) == 0,
            "encode vector %zu (%s) UTF-16 split %zu", i, name(v->encoding), split);
    }
    /* Output buffers of 11 bytes (the most one character needs: ISO-2022-JP's escape and
     * a reference), then of one byte more than that per call. */
    size_t n = encode_streamed(e, v, 0, 11, 0, out, cap, &ok);
    CHECK(ok && n == v->bytes_len && memcmp(out, v->bytes, n) == 0, "vector %zu 11-byte out", i);
    n = encode_streamed(e, v, 0, 11, 1, out, cap, &ok);
    CHECK(ok && n == v->bytes_len && memcmp(out, v->bytes, n) == 0, "vector %zu 11-byte out", i);
    textcodec_encoder_free(e);
    free(out);
  }
  for (size_t i = 0; i < TC_COUNT(UNMAPPABLE_VECTORS); i++) {
    const tc_unmappable_vector *v = &UNMAPPABLE_VECTORS[i];
    uint8_t out[64];
    TextcodecEncodeResult r = textcodec_encode_from_utf8(v->encoding, TEXTCODEC_ENCODE_FATAL,
                                                         v->utf8, v->utf8_len, out, sizeof out);
    CHECK(r.status == TEXTCODEC_UNMAPPABLE && r.read == v->read && r.written == v->bytes_len &&
              memcmp(out, v->bytes, v->bytes_len) == 0 && r.unmappable_character == v->character &&
              r.unmappable_code_point == v->code_point,
          "unmappable vector %zu: status %u read %zu written %zu U+%04X", i, r.status, r.read,
          r.written, r.unmappable_character);
  }
}

static void test_encoder_errors(void) {
  uint8_t out[64];
  /* Not UTF-8: the text before is encoded, the bad byte reported, then resume. */
  TextcodecEncoder *e = textcodec_encoder_new(TEXTCODEC_WINDOWS_1252, TEXTCODEC_ENCODE_FATAL);
  TextcodecEncodeResult r =
      textcodec_encoder_encode_from_utf8(e, (const uint8_t *)"a\xFF" "b", 3, out, 64, true);
  CHECK(r.status == TEXTCODEC_MALFORMED && r.read == 2 && r.written == 1 &&
            r.malformed_length == 1 && out[0] == 'a', "malformed UTF-8: status %u read %zu",
        r.status, r.read);
  r = textcodec_encoder_encode_from_utf8(e, (const uint8_t *)"b", 1, out, 64, true);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.written == 1 && out[0] == 'b', "resumed");
  /* A surrogate's UTF-8 form, an overlong form: malformed. */
  r = textcodec_encoder_encode_from_utf8(e, (const uint8_t *)"x\xED\xA0\x80", 4, out, 64, true);
  CHECK(r.status == TEXTCODEC_MALFORMED && r.written == 1, "surrogate UTF-8");
  textcodec_encoder_reset(e);
  r = textcodec_encoder_encode_from_utf8(e, (const uint8_t *)"\xC0\xAF", 2, out, 64, true);
  CHECK(r.status == TEXTCODEC_MALFORMED && r.written == 0, "overlong");
  textcodec_encoder_reset(e);
  /* A character cut at the end of the last input: malformed; held across calls. */
  r = textcodec_encoder_encode_from_utf8(e, (const uint8_t *)"\xE2\x82", 2, out, 64, true);
  CHECK(r.status == TEXTCODEC_MALFORMED && r.read == 2 && r.malformed_length == 2, "cut at end");
  r = textcodec_encoder_encode_from_utf8(e, (const uint8_t *)"\xE2", 1, out, 64, false);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.read == 1 && r.written == 0, "held");
  CHECK(textcodec_encoder_max_buffer_length_from_utf8(e, 2) == 3, "max counts held bytes");
  r = textcodec_encoder_encode_from_utf8(e, (const uint8_t *)"\x82", 1, out, 64, false);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.read == 1 && r.written == 0, "still held");
  r = textcodec_encoder_encode_from_utf8(e, (const uint8_t *)"\xAC" "z", 2, out, 64, true);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.read == 2 && r.written == 2 && out[0] == 0x80 &&
            out[1] == 'z', "completed: status %u written %zu", r.status, r.written);
  /* Held lead, then a byte that is not a continuation. */
  r = textcodec_encoder_encode_from_utf8(e, (const uint8_t *)"\xE2", 1, out, 64, false);
  r = textcodec_encoder_encode_from_utf8(e, (const uint8_t *)"A", 1, out, 64, true);
  CHECK(r.status == TEXTCODEC_MALFORMED && r.read == 0 && r.malformed_length == 1, "bad trail");
  r = textcodec_encoder_encode_from_utf8(e, (const uint8_t *)"A", 1, out, 64, true);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.written == 1 && out[0] == 'A', "after bad trail");
  /* A held character that does not fit: OUTPUT_FULL, nothing read. */
  textcodec_encoder_set_error_mode(e, TEXTCODEC_ENCODE_HTML);
  r = textcodec_encoder_encode_from_utf8(e, (const uint8_t *)"\xE2\x98", 2, out, 64, false);
  r = textcodec_encoder_encode_from_utf8(e, (const uint8_t *)"\x83", 1, out, 3, true);
  CHECK(r.status == TEXTCODEC_OUTPUT_FULL && r.read == 0 && r.written == 0, "held, no room");
  r = textcodec_encoder_encode_from_utf8(e, (const uint8_t *)"\x83", 1, out, 64, true);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.written == 7 && memcmp(out, "&#9731;", 7) == 0,
        "held, html");
  CHECK(textcodec_encoder_unmappables(e) == 1, "unmappables %llu",
        (unsigned long long)textcodec_encoder_unmappables(e));
  CHECK(!textcodec_encoder_set_error_mode(e, 9), "unknown mode");
  textcodec_encoder_free(e);
  /* Encoders that do not exist. */
  CHECK(textcodec_encoder_new(TEXTCODEC_REPLACEMENT, TEXTCODEC_ENCODE_FATAL) == NULL, "replacement");
  CHECK(textcodec_encoder_new(99, TEXTCODEC_ENCODE_FATAL) == NULL, "99");
  CHECK(textcodec_encoder_new(TEXTCODEC_UTF_8, 3) == NULL, "mode 3");
  r = textcodec_encode_from_utf8(TEXTCODEC_REPLACEMENT, TEXTCODEC_ENCODE_HTML,
                                 (const uint8_t *)"a", 1, out, 64);
  CHECK(r.status == TEXTCODEC_INVALID_ARGUMENT && r.written == 0, "one-shot replacement");
  CHECK(textcodec_encode_max_length_from_utf8(TEXTCODEC_REPLACEMENT, 0, 1) == SIZE_MAX, "max");
  /* UTF-16 encoders are an extension. */
  uint16_t pair[2] = {0xD83D, 0xDE00};
  r = textcodec_encode_from_utf16(TEXTCODEC_UTF_16BE, TEXTCODEC_ENCODE_FATAL, pair, 2, out, 64);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.written == 4 && out[0] == 0xD8 && out[1] == 0x3D,
        "UTF-16BE encoder");
  /* A lone surrogate becomes U+FFFD. */
  r = textcodec_encode_from_utf16(TEXTCODEC_UTF_8, TEXTCODEC_ENCODE_FATAL, pair, 1, out, 64);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.written == 3 && memcmp(out, "\xEF\xBF\xBD", 3) == 0,
        "lone surrogate");
  /* ISO-2022-JP's end of stream with an empty last call. */
  e = textcodec_encoder_new(TEXTCODEC_ISO_2022_JP, TEXTCODEC_ENCODE_FATAL);
  r = textcodec_encoder_encode_from_utf8(e, (const uint8_t *)"\xE4\xBA\x9C", 3, out, 64, false);
  CHECK(r.written == 5, "kanji");
  r = textcodec_encoder_encode_from_utf8(e, NULL, 0, out, 64, true);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.written == 3 && memcmp(out, "\x1B(B", 3) == 0,
        "return to ASCII");
  textcodec_encoder_free(e);
}

/* ---------------------------------------------------------------- invalid arguments */

static void test_invalid_arguments(void) {
  uint8_t out[16];
  uint16_t units[16];
  CHECK(textcodec_decoder_new(99, TEXTCODEC_DECODE_FATAL, TEXTCODEC_BOM_SNIFF) == NULL, "enc 99");
  CHECK(textcodec_decoder_new(TEXTCODEC_NO_ENCODING, 0, 0) == NULL, "no encoding");
  CHECK(textcodec_decoder_new(TEXTCODEC_UTF_8, 2, TEXTCODEC_BOM_SNIFF) == NULL, "mode 2");
  CHECK(textcodec_decoder_new(TEXTCODEC_UTF_8, 0, 3) == NULL, "bom 3");
  TextcodecDecodeResult r = textcodec_decoder_decode_to_utf8(NULL, (const uint8_t *)"a", 1, out, 16,
                                                             true);
  CHECK(r.status == TEXTCODEC_INVALID_ARGUMENT && r.read == 0 && r.written == 0, "NULL decoder");
  TextcodecDecoder *d = textcodec_decoder_new(TEXTCODEC_UTF_8, 0, 0);
  r = textcodec_decoder_decode_to_utf8(d, NULL, 1, out, 16, true);
  CHECK(r.status == TEXTCODEC_INVALID_ARGUMENT, "NULL src with a length");
  r = textcodec_decoder_decode_to_utf8(d, (const uint8_t *)"a", 1, NULL, 16, true);
  CHECK(r.status == TEXTCODEC_INVALID_ARGUMENT, "NULL dst with a length");
  /* A misaligned UTF-16 buffer. */
  uint16_t *odd = (uint16_t *)(void *)((uint8_t *)units + 1);
  r = textcodec_decoder_decode_to_utf16(d, (const uint8_t *)"a", 1, odd, 4, true);
  CHECK(r.status == TEXTCODEC_INVALID_ARGUMENT, "misaligned dst");
  /* Input and output that overlap: refused, nothing read or written. */
  memcpy(out, "abcdef", 6);
  r = textcodec_decoder_decode_to_utf8(d, out, 6, out + 3, 8, true);
  CHECK(r.status == TEXTCODEC_INVALID_ARGUMENT && r.read == 0 && r.written == 0 && out[3] == 'd',
        "overlapping decode");
  r = textcodec_decode_to_utf8(TEXTCODEC_UTF_8, 0, 0, out, 6, out, 6);
  CHECK(r.status == TEXTCODEC_INVALID_ARGUMENT, "one-shot in place");
  r = textcodec_decoder_decode_to_utf8(d, (const uint8_t *)"a", 1, out, 16, true);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.written == 1, "decoder still works");
  textcodec_decoder_free(d);
  textcodec_decoder_free(NULL);
  textcodec_decoder_reset(NULL);
  CHECK(textcodec_decoder_encoding(NULL) == TEXTCODEC_NO_ENCODING, "encoding of NULL");
  r = textcodec_decode_to_utf8(99, 0, 0, (const uint8_t *)"a", 1, out, 16);
  CHECK(r.status == TEXTCODEC_INVALID_ARGUMENT, "one-shot enc 99");
  r = textcodec_decode_to_utf16(TEXTCODEC_UTF_8, 0, 0, (const uint8_t *)"a", 1, odd, 4);
  CHECK(r.status == TEXTCODEC_INVALID_ARGUMENT, "one-shot misaligned");

  TextcodecEncoder *e = textcodec_encoder_new(TEXTCODEC_UTF_8, TEXTCODEC_ENCODE_FATAL);
  TextcodecEncodeResult er = textcodec_encoder_encode_from_utf8(e, NULL, 2, out, 16, true);
  CHECK(er.status == TEXTCODEC_INVALID_ARGUMENT, "encoder NULL src");
  er = textcodec_encoder_encode_from_utf16(e, (const uint16_t *)(const void *)((const uint8_t *)units + 1),
                                           2, out, 16, true);
  CHECK(er.status == TEXTCODEC_INVALID_ARGUMENT, "encoder misaligned src");
  er = textcodec_encoder_encode_from_utf8(NULL, (const uint8_t *)"a", 1, out, 16, true);
  CHECK(er.status == TEXTCODEC_INVALID_ARGUMENT, "NULL encoder");
  memcpy(out, "abcdef", 6);
  er = textcodec_encoder_encode_from_utf8(e, out + 2, 4, out, 6, true);
  CHECK(er.status == TEXTCODEC_INVALID_ARGUMENT && er.read == 0 && er.written == 0 && out[0] == 'a',
        "overlapping encode");
  /* A zero-length output: OUTPUT_FULL, nothing read. */
  er = textcodec_encoder_encode_from_utf8(e, (const uint8_t *)"a", 1, out, 0, true);
  CHECK(er.status == TEXTCODEC_OUTPUT_FULL && er.read == 0, "no room");
  textcodec_encoder_free(e);
  textcodec_encoder_free(NULL);
  CHECK(textcodec_encoder_max_buffer_length_from_utf8(NULL, 1) == SIZE_MAX, "NULL max");
  CHECK(textcodec_decode_max_utf8_length(SIZE_MAX) == SIZE_MAX, "one-shot max overflow");
}

/* ---------------------------------------------------------------- sniff, detect */

static void test_sniff(void) {
  TextcodecSniffReport report;
  const char *page = "<!doctype html><meta charset=shift_jis><p>\x93\xfa\x96\x7b";
  TextcodecSniffOptions o = textcodec_sniff_options_default(TEXTCODEC_RESOURCE_HTML);
  o.content_type = (const uint8_t *)"text/html";
  o.content_type_len = 9;
  CHECK(textcodec_sniff((const uint8_t *)page, strlen(page), &o, &report), "sniff");
  CHECK(report.encoding == TEXTCODEC_SHIFT_JIS && report.confidence == TEXTCODEC_CONFIDENCE_TENTATIVE &&
            report.source == TEXTCODEC_SOURCE_META_PRESCAN && report.offset == 15,
        "meta: %s source %u offset %zu", name(report.encoding), report.source, report.offset);
  o.content_type = (const uint8_t *)"text/html; charset=euc-kr";
  o.content_type_len = strlen((const char *)o.content_type);
  CHECK(textcodec_sniff((const uint8_t *)page, strlen(page), &o, &report) &&
            report.encoding == TEXTCODEC_EUC_KR && report.confidence == TEXTCODEC_CONFIDENCE_CERTAIN &&
            report.source == TEXTCODEC_SOURCE_TRANSPORT_LAYER && report.offset == SIZE_MAX,
        "transport");
  o = textcodec_sniff_options_default(TEXTCODEC_RESOURCE_HTML);
  o.locale = "ja-JP";
  o.locale_len = 5;
  CHECK(textcodec_sniff((const uint8_t *)"<p>x", 4, &o, &report) &&
            report.encoding == TEXTCODEC_SHIFT_JIS && report.source == TEXTCODEC_SOURCE_LOCALE_DEFAULT,
        "locale");
  o = textcodec_sniff_options_default(TEXTCODEC_RESOURCE_CSS);
  CHECK(textcodec_sniff((const uint8_t *)"@charset \"iso-8859-5\";", 22, &o, &report) &&
            report.encoding == TEXTCODEC_ISO_8859_5 && report.source == TEXTCODEC_SOURCE_CSS_CHARSET,
        "css");
  o = textcodec_sniff_options_default(TEXTCODEC_RESOURCE_XML);
  CHECK(textcodec_sniff((const uint8_t *)"\xEF\xBB\xBF<?xml version='1.0'?>", 24, &o, &report) &&
            report.encoding == TEXTCODEC_UTF_8 && report.bom_length == 3 &&
            report.error_mode == TEXTCODEC_DECODE_FATAL && report.source == TEXTCODEC_SOURCE_BOM,
        "xml");
  CHECK(textcodec_sniff((const uint8_t *)"abc", 3, NULL, &report) &&
            report.encoding == TEXTCODEC_WINDOWS_1252 && !report.has_detection,
        "NULL options: HTML default");
  /* Detection inside sniffing. */
  o = textcodec_sniff_options_default(TEXTCODEC_RESOURCE_PLAIN_TEXT);
  o.detect = true;
  const char *sjis = "\x93\xfa\x96\x7b\x8c\xea\x82\xcc\x83\x65\x83\x4c\x83\x58\x83\x67";
  CHECK(textcodec_sniff((const uint8_t *)sjis, strlen(sjis), &o, &report) &&
            report.encoding == TEXTCODEC_SHIFT_JIS && report.source == TEXTCODEC_SOURCE_DETECTION &&
            report.has_detection && report.detection.encoding == TEXTCODEC_SHIFT_JIS,
        "sniff with detection");
  /* Invalid arguments. */
  CHECK(!textcodec_sniff((const uint8_t *)"a", 1, &o, NULL), "NULL report");
  o.kind = 9;
  CHECK(!textcodec_sniff((const uint8_t *)"a", 1, &o, &report), "kind 9");
  o = textcodec_sniff_options_default(TEXTCODEC_RESOURCE_HTML);
  o.user_override = 77;
  CHECK(!textcodec_sniff((const uint8_t *)"a", 1, &o, &report), "override 77");
  o = textcodec_sniff_options_default(TEXTCODEC_RESOURCE_HTML);
  o.locale = "\xFF";
  o.locale_len = 1;
  CHECK(!textcodec_sniff((const uint8_t *)"a", 1, &o, &report), "locale not UTF-8");
  o = textcodec_sniff_options_default(TEXTCODEC_RESOURCE_HTML);
  o.content_type_len = 3;
  CHECK(!textcodec_sniff((const uint8_t *)"a", 1, &o, &report), "NULL content type, length 3");
  CHECK(!textcodec_sniff(NULL, 1, NULL, &report), "NULL prefix with a length");
}

static void test_detect(void) {
  TextcodecGuess g;
  const char *ru = "\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0!";
  CHECK(textcodec_detect((const uint8_t *)ru, strlen(ru), NULL, &g), "detect");
  CHECK(g.encoding == TEXTCODEC_WINDOWS_1251 && g.confidence > 0.5f && g.margin > 0.0f &&
            g.binary == -1 && !g.ascii_only,
        "windows-1251: %s %f", name(g.encoding), (double)g.confidence);
  const char *sjis = "\x93\xfa\x96\x7b\x8c\xea\x82\xcc\x83\x65\x83\x4c\x83\x58\x83\x67";
  CHECK(textcodec_detect((const uint8_t *)sjis, strlen(sjis), NULL, &g) &&
            g.encoding == TEXTCODEC_SHIFT_JIS && g.language >= 0,
        "Shift_JIS");
  const char *code = textcodec_language_code(g.language);
  CHECK(code != NULL && strcmp(code, "ja") == 0, "language %s", code ? code : "(null)");
  CHECK(textcodec_language_name(g.language) != NULL &&
            strcmp(textcodec_language_name(g.language), "Japanese") == 0, "Japanese");
  CHECK(textcodec_language_for_code("JA", 2) == g.language, "for code");
  CHECK(textcodec_language_for_code("xx-none", 7) == -1, "unknown language");
  CHECK(textcodec_language_code(-1) == NULL && textcodec_language_count() > 10, "languages");
  /* Binary data. */
  const uint8_t png[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0};
  CHECK(textcodec_detect(png, sizeof png, NULL, &g) && g.binary >= 0 &&
            strcmp(textcodec_binary_name(g.binary), "PNG") == 0 && g.confidence == 0.0f,
        "PNG");
  CHECK(textcodec_binary_name(-1) == NULL, "binary -1");
  /* ASCII: the hints' default. */
  CHECK(textcodec_detect((const uint8_t *)"plain", 5, NULL, &g) && g.ascii_only &&
            g.encoding == TEXTCODEC_WINDOWS_1252 && g.confidence == 1.0f, "ASCII");
  /* Allowed candidates. */
  TextcodecDetectHints h = textcodec_detect_hints_default();
  TextcodecEncoding only[2] = {TEXTCODEC_KOI8_R, TEXTCODEC_ISO_8859_5};
  h.allow = only;
  h.allow_len = 2;
  CHECK(textcodec_detect((const uint8_t *)ru, strlen(ru), &h, &g) &&
            (g.encoding == TEXTCODEC_KOI8_R || g.encoding == TEXTCODEC_ISO_8859_5),
        "allowed: %s", name(g.encoding));
  TextcodecEncoding bad[1] = {123};
  h.allow = bad;
  h.allow_len = 1;
  CHECK(!textcodec_detect((const uint8_t *)ru, strlen(ru), &h, &g), "bad allow list");
  h = textcodec_detect_hints_default();
  h.tld = (const uint8_t *)"ru";
  h.tld_len = 2;
  CHECK(textcodec_detect((const uint8_t *)ru, strlen(ru), &h, &g) &&
            g.encoding == TEXTCODEC_WINDOWS_1251, "tld hint");
  CHECK(!textcodec_detect((const uint8_t *)ru, strlen(ru), NULL, NULL), "NULL guess");
  CHECK(!textcodec_detect(NULL, 3, NULL, &g), "NULL bytes");
  /* Streaming, split at every position: the same guess. */
  TextcodecGuess whole;
  textcodec_detect((const uint8_t *)sjis, strlen(sjis), NULL, &whole);
  for (size_t split = 0; split <= strlen(sjis); split++) {
    TextcodecDetector *det = textcodec_detector_new();
    textcodec_detector_feed(det, (const uint8_t *)sjis, split, false);
    CHECK(textcodec_detector_feed(det, (const uint8_t *)sjis + split, strlen(sjis) - split, true),
          "done after last");
    CHECK(textcodec_detector_guess(det, NULL, &g) && g.encoding == whole.encoding &&
              g.confidence == whole.confidence && g.score == whole.score,
          "streamed split %zu", split);
    CHECK(textcodec_detector_bytes_examined(det) == strlen(sjis), "examined");
    textcodec_detector_free(det);
  }
  CHECK(!textcodec_detector_guess(NULL, NULL, &g), "NULL detector");
  CHECK(textcodec_detector_feed(NULL, NULL, 0, true), "NULL detector feed");
  textcodec_detector_free(NULL);
}

int main(void) {
  test_encodings();
  test_decode_vectors();
  test_fatal_vectors();
  test_decoder_state();
  test_encode_vectors();
  test_encoder_errors();
  test_invalid_arguments();
  test_sniff();
  test_detect();
  printf("test_capi: %lu passed, %lu failed\n", passed, failed);
  return failed ? 1 : 0;
}
