/* The C API's mem functions: each against a hand-computed case (from the Rust docs'
 * examples), lossy against checked, and the error paths. Prints "N passed, N failed". */
#include <stdio.h>
#include <string.h>

#include "textcodec.h"

static unsigned long passed, failed;
#define CHECK(cond, what)                                                                \
  do {                                                                                   \
    if (cond) {                                                                          \
      passed++;                                                                          \
    } else {                                                                             \
      failed++;                                                                          \
      fprintf(stderr, "%s:%d: CHECK(%s) failed: %s\n", __FILE__, __LINE__, #cond, what); \
    }                                                                                    \
  } while (0)

int main(void) {
  uint16_t u[16];
  uint8_t b[32];
  /* UTF-8 -> UTF-16, lossy: F0 9F 98 is one U+FFFD, FF another. */
  TextcodecMemResult r = textcodec_mem_utf8_to_utf16_lossy((const uint8_t *)"a\xF0\x9F\x98" "b\xFF", 6, u, 16);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.read == 6 && r.written == 4 && u[0] == 'a' &&
            u[1] == 0xFFFD && u[2] == 'b' && u[3] == 0xFFFD, "utf8 -> utf16 lossy");
  CHECK(textcodec_mem_utf16_len_from_utf8_lossy((const uint8_t *)"a\xF0\x9F\x98" "b\xFF", 6) == 4, "len");
  /* Checked: the offset of the first error, the text before it converted. */
  r = textcodec_mem_utf8_to_utf16_checked((const uint8_t *)"ab\xC3", 3, u, 16);
  CHECK(r.status == TEXTCODEC_MALFORMED && r.read == 2 && r.written == 2, "checked");
  /* Output full: whole characters only, go on from read. */
  r = textcodec_mem_utf8_to_utf16_lossy((const uint8_t *)"a\xF0\x9F\x98\x80" "b", 6, u, 2);
  CHECK(r.status == TEXTCODEC_OUTPUT_FULL && r.read == 1 && r.written == 1, "output full");
  /* UTF-16 -> UTF-8. */
  const uint16_t lone[3] = {0x61, 0xD800, 0xE9};
  r = textcodec_mem_utf16_to_utf8_lossy(lone, 3, b, 32);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.written == 6 && memcmp(b, "a\xEF\xBF\xBD\xC3\xA9", 6) == 0,
        "utf16 -> utf8 lossy");
  CHECK(textcodec_mem_utf8_len_from_utf16_lossy(lone, 3) == 6, "lossy len");
  r = textcodec_mem_utf16_to_utf8_checked(lone, 3, b, 32);
  CHECK(r.status == TEXTCODEC_MALFORMED && r.read == 1 && r.written == 1, "utf16 checked");
  const uint16_t mixed[5] = {0x41, 0xE9, 0x20AC, 0xD83D, 0xDE00};
  CHECK(textcodec_mem_utf8_len_from_utf16(mixed, 5) == 10, "utf8 len");
  CHECK(textcodec_mem_char_count_utf16(mixed, 5) == 4, "char count");
  CHECK(textcodec_mem_utf16_valid_up_to(mixed, 5) == 5, "valid");
  /* Latin-1. */
  r = textcodec_mem_latin1_to_utf8((const uint8_t *)"caf\xE9", 4, b, 32);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.written == 5 && memcmp(b, "caf\xC3\xA9", 5) == 0, "latin1");
  CHECK(textcodec_mem_utf8_len_from_latin1((const uint8_t *)"caf\xE9", 4) == 5, "latin1 len");
  r = textcodec_mem_latin1_to_utf16((const uint8_t *)"\xFF" "a", 2, u, 16);
  CHECK(r.written == 2 && u[0] == 0xFF && u[1] == 'a', "latin1 -> utf16");
  const uint16_t euro[2] = {0xE9, 0x20AC};
  r = textcodec_mem_utf16_to_latin1(euro, 2, b, 32);
  CHECK(r.status == TEXTCODEC_MALFORMED && r.read == 1 && r.written == 1 && b[0] == 0xE9, "to latin1");
  r = textcodec_mem_utf8_to_latin1((const uint8_t *)"caf\xC3\xA9", 5, b, 32);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.written == 4 && b[3] == 0xE9, "utf8 to latin1");
  CHECK(textcodec_mem_is_latin1_utf8((const uint8_t *)"\xC3\xA9", 2), "is latin1");
  CHECK(!textcodec_mem_is_latin1_utf8((const uint8_t *)"\xC3", 1), "ill-formed");
  CHECK(textcodec_mem_is_latin1_utf16(euro, 1) && !textcodec_mem_is_latin1_utf16(euro, 2), "latin1 utf16");
  /* Validation, ASCII. */
  CHECK(textcodec_mem_utf8_valid_up_to((const uint8_t *)"ok \xE2\x82", 5) == 3, "utf8 valid up to");
  CHECK(textcodec_mem_is_ascii((const uint8_t *)"abc", 3) && !textcodec_mem_is_ascii((const uint8_t *)"\x80", 1), "ascii");
  CHECK(textcodec_mem_ascii_prefix_len((const uint8_t *)"ab\xC3\xA9", 4) == 2, "ascii prefix");
  CHECK(textcodec_mem_ascii_prefix_len_utf16(euro, 2) == 0 && textcodec_mem_is_ascii_utf16(mixed, 1), "ascii utf16");
  /* Well-formed in place. */
  uint16_t s[5] = {0xD800, 0x41, 0xD83D, 0xDE00, 0xDBFF};
  CHECK(textcodec_mem_utf16_make_well_formed(s, 5) == 2 && s[0] == 0xFFFD && s[4] == 0xFFFD && s[2] == 0xD83D,
        "well-formed");
  /* Bounds and invalid arguments. */
  CHECK(textcodec_mem_utf8_max_len_from_utf16(SIZE_MAX) == SIZE_MAX, "saturating");
  CHECK(textcodec_mem_utf16_max_len_from_utf8(7) == 7 && textcodec_mem_utf8_max_len_from_latin1(3) == 6, "bounds");
  r = textcodec_mem_utf8_to_utf16_lossy(NULL, 3, u, 16);
  CHECK(r.status == TEXTCODEC_INVALID_ARGUMENT && r.written == 0, "NULL src");
  r = textcodec_mem_latin1_to_utf16((const uint8_t *)"a", 1, (uint16_t *)(void *)((uint8_t *)u + 1), 4);
  CHECK(r.status == TEXTCODEC_INVALID_ARGUMENT, "misaligned");
  CHECK(textcodec_mem_utf16_len_from_utf8_lossy(NULL, 2) == (size_t)SIZE_MAX, "NULL len");
  /* Overlapping input and output: refused, nothing written; adjacent ones are fine. */
  uint8_t shared[16] = "caf\xE9 au lait";
  r = textcodec_mem_latin1_to_utf8(shared, 8, shared + 4, 12);
  CHECK(r.status == TEXTCODEC_INVALID_ARGUMENT && r.written == 0 && shared[4] == ' ', "overlap");
  r = textcodec_mem_utf16_to_utf8_lossy((const uint16_t *)(const void *)(u + 2), 2, (uint8_t *)(void *)u, 8);
  CHECK(r.status == TEXTCODEC_INVALID_ARGUMENT, "overlap across types");
  r = textcodec_mem_latin1_to_utf8(shared, 4, shared + 4, 12);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.written == 5 && memcmp(shared + 4, "caf\xC3\xA9", 5) == 0,
        "adjacent");
  r = textcodec_mem_utf8_to_utf16_lossy(NULL, 0, NULL, 0);
  CHECK(r.status == TEXTCODEC_INPUT_EMPTY && r.read == 0, "empty");
  printf("test_mem: %lu passed, %lu failed\n", passed, failed);
  return failed ? 1 : 0;
}
