/* encoding_c source compatibility for textcodec: encoding_c's C API (the names and
 * signatures of its encoding_rs.h), implemented by libtextcodec, so that a program
 * written against encoding_c compiles and links unchanged:
 *
 *   cc prog.c $(pkg-config --cflags --libs textcodec-encoding-c)
 *
 * Differences (see the README, "encoding_c compatibility"): the _into functions take
 * only pointers from the matching _new function; NULL objects and buffers are checked
 * instead of being undefined behaviour; UTF-8 input to the encoders is validated (bytes
 * that are not UTF-8 are taken as U+FFFD). Do not link a program with both encoding_c and
 * libtextcodec: they export the same symbols. */
#ifndef TEXTCODEC_ENCODING_RS_H
#define TEXTCODEC_ENCODING_RS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <uchar.h>
#endif

#include "encoding_rs_statics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Get an encoding: the encoding for a label (trimmed, ASCII case-insensitive), or NULL. */
ENCODING_RS_ENCODING const* encoding_for_label(uint8_t const* label, size_t label_len);

/* encoding_for_label, but NULL instead of REPLACEMENT_ENCODING. */
ENCODING_RS_ENCODING const* encoding_for_label_no_replacement(uint8_t const* label,
                                                              size_t label_len);

/* BOM sniff: UTF-8, UTF-16LE or UTF-16BE for a buffer that starts with its byte order
 * mark, else NULL; *buffer_len becomes the BOM's length (0 without one). */
ENCODING_RS_ENCODING const* encoding_for_bom(uint8_t const* buffer, size_t* buffer_len);

/* Writes the name (ASCII, not NUL-terminated) to name_out, which has room for
 * ENCODING_NAME_MAX_LENGTH bytes; returns its length. */
size_t encoding_name(ENCODING_RS_ENCODING const* encoding, uint8_t* name_out);

/* Whether the output encoding is UTF-8 (so every scalar value can be encoded). */
bool encoding_can_encode_everything(ENCODING_RS_ENCODING const* encoding);

/* Whether bytes 0x00-0x7F and U+0000-U+007F map to each other in every state. */
bool encoding_is_ascii_compatible(ENCODING_RS_ENCODING const* encoding);

/* Whether one byte is one BMP code point both ways: the legacy single-byte encodings and
 * x-user-defined. */
bool encoding_is_single_byte(ENCODING_RS_ENCODING const* encoding);

/* Get an output encoding: UTF-8 for UTF-16BE, UTF-16LE and replacement, else itself. */
ENCODING_RS_ENCODING const* encoding_output_encoding(ENCODING_RS_ENCODING const* encoding);

/* New heap-allocated decoders (free with decoder_free): with BOM sniffing (the decoder
 * may switch to UTF-8 or UTF-16), with removal of the encoding's own BOM, or with no BOM
 * handling. */
ENCODING_RS_DECODER* encoding_new_decoder(ENCODING_RS_ENCODING const* encoding);
ENCODING_RS_DECODER* encoding_new_decoder_with_bom_removal(ENCODING_RS_ENCODING const* encoding);
ENCODING_RS_DECODER* encoding_new_decoder_without_bom_handling(
    ENCODING_RS_ENCODING const* encoding);

/* Re-initialise a decoder from encoding_new_decoder* in place. */
void encoding_new_decoder_into(ENCODING_RS_ENCODING const* encoding, ENCODING_RS_DECODER* decoder);
void encoding_new_decoder_with_bom_removal_into(ENCODING_RS_ENCODING const* encoding,
                                                ENCODING_RS_DECODER* decoder);
void encoding_new_decoder_without_bom_handling_into(ENCODING_RS_ENCODING const* encoding,
                                                    ENCODING_RS_DECODER* decoder);

/* A new heap-allocated encoder for the output encoding (free with encoder_free). */
ENCODING_RS_ENCODER* encoding_new_encoder(ENCODING_RS_ENCODING const* encoding);

/* Re-initialise an encoder from encoding_new_encoder in place. */
void encoding_new_encoder_into(ENCODING_RS_ENCODING const* encoding, ENCODING_RS_ENCODER* encoder);

/* The length of the longest prefix that is UTF-8, ASCII, or ASCII without ESC, SO and SI
 * (ISO-2022-JP's ASCII state). */
size_t encoding_utf8_valid_up_to(uint8_t const* buffer, size_t buffer_len);
size_t encoding_ascii_valid_up_to(uint8_t const* buffer, size_t buffer_len);
size_t encoding_iso_2022_jp_ascii_valid_up_to(uint8_t const* buffer, size_t buffer_len);

void decoder_free(ENCODING_RS_DECODER* decoder);

/* The decoder's encoding (a BOM may change it). */
ENCODING_RS_ENCODING const* decoder_encoding(ENCODING_RS_DECODER const* decoder);

/* Worst-case output lengths for byte_length more bytes with last set (SIZE_MAX on
 * overflow). */
size_t decoder_max_utf8_buffer_length(ENCODING_RS_DECODER const* decoder, size_t byte_length);
size_t decoder_max_utf8_buffer_length_without_replacement(ENCODING_RS_DECODER const* decoder,
                                                          size_t byte_length);
size_t decoder_max_utf16_buffer_length(ENCODING_RS_DECODER const* decoder, size_t byte_length);
size_t decoder_latin1_byte_compatible_up_to(ENCODING_RS_DECODER const* decoder,
                                            uint8_t const* buffer, size_t buffer_len);

/* Streaming decode. In: *src_len bytes at src, room for *dst_len units at dst. Out:
 * *src_len = bytes read, *dst_len = units written; returns INPUT_EMPTY, OUTPUT_FULL or
 * (without replacement) a malformed sequence (see encoding_rs_statics.h). With
 * replacement, *had_replacements says whether an error became U+FFFD. */
uint32_t decoder_decode_to_utf8(ENCODING_RS_DECODER* decoder, uint8_t const* src, size_t* src_len,
                                uint8_t* dst, size_t* dst_len, bool last, bool* had_replacements);
uint32_t decoder_decode_to_utf8_without_replacement(ENCODING_RS_DECODER* decoder,
                                                    uint8_t const* src, size_t* src_len,
                                                    uint8_t* dst, size_t* dst_len, bool last);
uint32_t decoder_decode_to_utf16(ENCODING_RS_DECODER* decoder, uint8_t const* src, size_t* src_len,
                                 char16_t* dst, size_t* dst_len, bool last,
                                 bool* had_replacements);
uint32_t decoder_decode_to_utf16_without_replacement(ENCODING_RS_DECODER* decoder,
                                                     uint8_t const* src, size_t* src_len,
                                                     char16_t* dst, size_t* dst_len, bool last);

void encoder_free(ENCODING_RS_ENCODER* encoder);

ENCODING_RS_ENCODING const* encoder_encoding(ENCODING_RS_ENCODER const* encoder);

/* Whether ending the stream now would write bytes (ISO-2022-JP not in ASCII). */
bool encoder_has_pending_state(ENCODING_RS_ENCODER const* encoder);

size_t encoder_max_buffer_length_from_utf8_if_no_unmappables(ENCODING_RS_ENCODER const* encoder,
                                                             size_t byte_length);
size_t encoder_max_buffer_length_from_utf8_without_replacement(ENCODING_RS_ENCODER const* encoder,
                                                               size_t byte_length);
size_t encoder_max_buffer_length_from_utf16_if_no_unmappables(ENCODING_RS_ENCODER const* encoder,
                                                              size_t u16_length);
size_t encoder_max_buffer_length_from_utf16_without_replacement(ENCODING_RS_ENCODER const* encoder,
                                                                size_t u16_length);

/* Streaming encode, in/out lengths as for decoding. With replacement, unmappable
 * characters become "&#N;" and *had_replacements says whether any did; without, the
 * return value is the unmappable scalar value. */
uint32_t encoder_encode_from_utf8(ENCODING_RS_ENCODER* encoder, uint8_t const* src,
                                  size_t* src_len, uint8_t* dst, size_t* dst_len, bool last,
                                  bool* had_replacements);
uint32_t encoder_encode_from_utf8_without_replacement(ENCODING_RS_ENCODER* encoder,
                                                      uint8_t const* src, size_t* src_len,
                                                      uint8_t* dst, size_t* dst_len, bool last);
uint32_t encoder_encode_from_utf16(ENCODING_RS_ENCODER* encoder, char16_t const* src,
                                   size_t* src_len, uint8_t* dst, size_t* dst_len, bool last,
                                   bool* had_replacements);
uint32_t encoder_encode_from_utf16_without_replacement(ENCODING_RS_ENCODER* encoder,
                                                       char16_t const* src, size_t* src_len,
                                                       uint8_t* dst, size_t* dst_len, bool last);

#ifdef __cplusplus
}
#endif

#endif /* TEXTCODEC_ENCODING_RS_H */
