/* textconv: an iconv-like converter over files with libtextcodec.
 *
 *   textconv -f FROM -t TO [-d replacement|fatal] [-e fatal|html|replace] IN OUT
 *
 * FROM and TO are any of the Encoding Standard's labels. The input is decoded as the
 * Standard's "decode" does (a byte order mark wins over FROM; -d fatal stops at the
 * first malformed sequence instead of writing U+FFFD) and encoded to TO (-e: stop at a
 * character TO lacks, the default, or write &#N; or ?). Memory is bounded: the file
 * streams through three fixed buffers. OUT is written to a temporary file beside it and
 * renamed over OUT only on success, so a failed conversion leaves no half-written file.
 * Exit status: 0 success, 1 conversion or I/O error, 2 usage error.
 *
 * Build:  cc textconv.c $(pkg-config --cflags --libs textcodec) -o textconv */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "textcodec.h"

enum { IN_SIZE = 64 * 1024, TEXT_SIZE = 16 * 1024, OUT_SIZE = 64 * 1024 };

static uint8_t in_buf[IN_SIZE], text_buf[TEXT_SIZE], out_buf[OUT_SIZE];

static int usage(const char *msg) {
  fprintf(stderr, "textconv: %s\nusage: textconv -f FROM -t TO [-d replacement|fatal] "
                  "[-e fatal|html|replace] IN OUT\n", msg);
  return 2;
}

static TextcodecEncoding label(const char *s) {
  return textcodec_encoding_for_label((const uint8_t *)s, strlen(s));
}

struct sink {
  FILE *file;
  size_t used;
};

static int flush_out(struct sink *s) {
  if (s->used && fwrite(out_buf, 1, s->used, s->file) != s->used) return -1;
  s->used = 0;
  return 0;
}

/* Encodes `len` bytes of UTF-8 text (whole characters), `last` at the end of the input.
 * Returns 0, or 1 after printing an error. */
static int encode_text(TextcodecEncoder *enc, const uint8_t *text, size_t len, int last,
                       struct sink *s, unsigned long long *chars_before) {
  size_t pos = 0;
  for (;;) {
    TextcodecEncodeResult r = textcodec_encoder_encode_from_utf8(
        enc, text + pos, len - pos, out_buf + s->used, OUT_SIZE - s->used, last);
    s->used += r.written;
    /* Count characters (UTF-8 lead bytes) for error messages. */
    for (size_t k = pos; k < pos + r.read; k++) *chars_before += (text[k] & 0xC0) != 0x80;
    pos += r.read;
    if (r.status == TEXTCODEC_INPUT_EMPTY) return 0;
    if (r.status == TEXTCODEC_OUTPUT_FULL) {
      if (flush_out(s)) return -1;
      continue;
    }
    if (r.status == TEXTCODEC_UNMAPPABLE) {
      fprintf(stderr, "textconv: U+%04X (character %llu) cannot be encoded in %s "
                      "(use -e html or -e replace)\n", r.unmappable_character, *chars_before,
              textcodec_encoding_name(textcodec_encoder_encoding(enc)));
      return 1;
    }
    fprintf(stderr, "textconv: internal error: encoder status %u\n", r.status);
    return 1;
  }
}

int main(int argc, char **argv) {
  const char *from = NULL, *to = NULL;
  uint32_t dmode = TEXTCODEC_DECODE_REPLACEMENT, emode = TEXTCODEC_ENCODE_FATAL;
  int opt;
  while ((opt = getopt(argc, argv, "f:t:d:e:")) != -1) {
    switch (opt) {
      case 'f': from = optarg; break;
      case 't': to = optarg; break;
      case 'd':
        if (!strcmp(optarg, "fatal")) dmode = TEXTCODEC_DECODE_FATAL;
        else if (strcmp(optarg, "replacement")) return usage("-d takes replacement or fatal");
        break;
      case 'e':
        if (!strcmp(optarg, "html")) emode = TEXTCODEC_ENCODE_HTML;
        else if (!strcmp(optarg, "replace")) emode = TEXTCODEC_ENCODE_REPLACE;
        else if (strcmp(optarg, "fatal")) return usage("-e takes fatal, html or replace");
        break;
      default: return usage("unknown option");
    }
  }
  if (!from || !to || argc - optind != 2) return usage("need -f, -t, IN and OUT");
  TextcodecEncoding src_enc = label(from), dst_enc = label(to);
  if (src_enc == TEXTCODEC_NO_ENCODING) {
    fprintf(stderr, "textconv: unknown encoding label '%s'\n", from);
    return 2;
  }
  if (dst_enc == TEXTCODEC_NO_ENCODING) {
    fprintf(stderr, "textconv: unknown encoding label '%s'\n", to);
    return 2;
  }
  TextcodecEncoder *enc = textcodec_encoder_new(dst_enc, emode);
  if (!enc) {
    fprintf(stderr, "textconv: %s has no encoder\n", textcodec_encoding_name(dst_enc));
    return 2;
  }
  TextcodecDecoder *dec = textcodec_decoder_new(src_enc, dmode, TEXTCODEC_BOM_SNIFF);
  const char *in_path = argv[optind], *out_path = argv[optind + 1];
  FILE *in = fopen(in_path, "rb");
  if (!in) {
    fprintf(stderr, "textconv: %s: %s\n", in_path, strerror(errno));
    return 1;
  }
  size_t tmp_len = strlen(out_path) + 16;
  char *tmp = malloc(tmp_len);
  if (!tmp) return 1;
  snprintf(tmp, tmp_len, "%s.tmpXXXXXX", out_path);
  int fd = mkstemp(tmp);
  struct sink s = {fd >= 0 ? fdopen(fd, "wb") : NULL, 0};
  if (!s.file) {
    fprintf(stderr, "textconv: %s: %s\n", out_path, strerror(errno));
    return 1;
  }
  int status = 0;
  unsigned long long chars = 0;
  for (int done = 0; !done && !status;) {
    size_t n = fread(in_buf, 1, IN_SIZE, in);
    if (ferror(in)) {
      fprintf(stderr, "textconv: %s: read error\n", in_path);
      status = 1;
      break;
    }
    int last = n < IN_SIZE && feof(in);
    size_t pos = 0;
    for (;;) {
      TextcodecDecodeResult r = textcodec_decoder_decode_to_utf8(dec, in_buf + pos, n - pos,
                                                                 text_buf, TEXT_SIZE, last);
      pos += r.read;
      int text_last = last && r.status == TEXTCODEC_INPUT_EMPTY;
      status = encode_text(enc, text_buf, r.written, text_last, &s, &chars);
      if (status) break;
      if (r.status == TEXTCODEC_OUTPUT_FULL) continue;
      if (r.status == TEXTCODEC_MALFORMED) {
        fprintf(stderr, "textconv: %s: malformed %s at byte %llu:", in_path,
                textcodec_encoding_name(r.encoding), (unsigned long long)r.malformed_offset);
        for (uint32_t k = 0; k < r.malformed_length; k++) fprintf(stderr, " %02X", r.malformed_bytes[k]);
        fputc('\n', stderr);
        status = 1;
        break;
      }
      break; /* INPUT_EMPTY */
    }
    done = last;
  }
  if (!status && flush_out(&s)) status = 1;
  if (fclose(s.file) != 0) status = 1;
  fclose(in);
  if (status == 0 && rename(tmp, out_path) != 0) {
    fprintf(stderr, "textconv: %s: %s\n", out_path, strerror(errno));
    status = 1;
  }
  if (status) unlink(tmp);
  free(tmp);
  textcodec_decoder_free(dec);
  textcodec_encoder_free(enc);
  return status;
}
