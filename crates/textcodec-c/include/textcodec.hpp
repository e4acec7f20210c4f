/* textcodec: the WHATWG Encoding Standard. C++17 API over textcodec.h: RAII decoders and
 * encoders, std::string_view / std::u16string_view in, caller buffers (pointer and
 * length, or std::span with C++20) or std::string / std::u16string out, std::optional
 * for lookups. Header-only; link with libtextcodec (pkg-config textcodec).
 *
 *   auto sjis = textcodec::Encoding::for_label("sjis");      // std::optional<Encoding>
 *   textcodec::Decoder decoder(*sjis);
 *   std::string text = decoder.decode_to_string("\x93\xfa\x96\x7b", true);   // "日本"
 *
 * The only exceptions are std::bad_alloc (a decoder or encoder that could not be
 * allocated; the growing std::string conveniences) and std::invalid_argument (an encoder
 * for replacement, which has none). */
#ifndef TEXTCODEC_HPP
#define TEXTCODEC_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#if __cplusplus >= 202002L
#include <span>
#endif

#include "textcodec.h"

namespace textcodec {

/// Why a decode or encode call returned.
enum class Status : uint32_t {
  InputEmpty = TEXTCODEC_INPUT_EMPTY,
  OutputFull = TEXTCODEC_OUTPUT_FULL,
  Malformed = TEXTCODEC_MALFORMED,
  Unmappable = TEXTCODEC_UNMAPPABLE,
  InvalidArgument = TEXTCODEC_INVALID_ARGUMENT,
};

enum class DecodeErrorMode : uint32_t {
  Replacement = TEXTCODEC_DECODE_REPLACEMENT,
  Fatal = TEXTCODEC_DECODE_FATAL,
};

enum class BomHandling : uint32_t {
  Sniff = TEXTCODEC_BOM_SNIFF,
  Remove = TEXTCODEC_BOM_REMOVE,
  Keep = TEXTCODEC_BOM_KEEP,
};

enum class EncodeErrorMode : uint32_t {
  Fatal = TEXTCODEC_ENCODE_FATAL,
  Html = TEXTCODEC_ENCODE_HTML,
  Replace = TEXTCODEC_ENCODE_REPLACE,
};

/// An encoding of the Standard (a value; compare with ==).
class Encoding {
 public:
  /// The number of encodings (40); `at(0)` to `at(count - 1)` in the Standard's order.
  static constexpr std::size_t count = TEXTCODEC_ENCODING_COUNT;

  constexpr explicit Encoding(TextcodecEncoding id) noexcept : id_(id) {}

  /// The encoding for a label (trimmed, ASCII case-insensitive), if it is one.
  static std::optional<Encoding> for_label(std::string_view label) noexcept {
    return from_id(textcodec_encoding_for_label(bytes(label), label.size()));
  }
  /// The encoding with this name (ASCII case-insensitive), if any.
  static std::optional<Encoding> for_name(std::string_view name) noexcept {
    return from_id(textcodec_encoding_for_name(bytes(name), name.size()));
  }
  /// The `index`-th encoding, if `index < count`.
  static std::optional<Encoding> at(std::size_t index) noexcept {
    return index < count ? std::optional<Encoding>(Encoding(static_cast<TextcodecEncoding>(index)))
                         : std::nullopt;
  }

  /// The name as the Standard spells it ("Shift_JIS").
  std::string_view name() const noexcept {
    const char *n = textcodec_encoding_name(id_);
    return n ? std::string_view(n) : std::string_view();
  }
  Encoding output_encoding() const noexcept {
    return Encoding(textcodec_encoding_output_encoding(id_));
  }
  bool is_ascii_compatible() const noexcept { return textcodec_encoding_is_ascii_compatible(id_); }
  bool is_single_byte() const noexcept { return textcodec_encoding_is_single_byte(id_); }
  bool is_utf16() const noexcept { return textcodec_encoding_is_utf16(id_); }
  bool has_encoder() const noexcept { return textcodec_encoding_has_encoder(id_); }
  /// The C API's number.
  constexpr TextcodecEncoding id() const noexcept { return id_; }

  friend constexpr bool operator==(Encoding a, Encoding b) noexcept { return a.id_ == b.id_; }
  friend constexpr bool operator!=(Encoding a, Encoding b) noexcept { return a.id_ != b.id_; }

 private:
  static std::optional<Encoding> from_id(TextcodecEncoding id) noexcept {
    return id == TEXTCODEC_NO_ENCODING ? std::nullopt : std::optional<Encoding>(Encoding(id));
  }
  static const uint8_t *bytes(std::string_view s) noexcept {
    return reinterpret_cast<const uint8_t *>(s.data());
  }
  TextcodecEncoding id_;
};

/// The 40 encodings.
namespace encodings {
inline constexpr Encoding UTF_8{TEXTCODEC_UTF_8};
inline constexpr Encoding IBM866{TEXTCODEC_IBM866};
inline constexpr Encoding ISO_8859_2{TEXTCODEC_ISO_8859_2};
inline constexpr Encoding ISO_8859_3{TEXTCODEC_ISO_8859_3};
inline constexpr Encoding ISO_8859_4{TEXTCODEC_ISO_8859_4};
inline constexpr Encoding ISO_8859_5{TEXTCODEC_ISO_8859_5};
inline constexpr Encoding ISO_8859_6{TEXTCODEC_ISO_8859_6};
inline constexpr Encoding ISO_8859_7{TEXTCODEC_ISO_8859_7};
inline constexpr Encoding ISO_8859_8{TEXTCODEC_ISO_8859_8};
inline constexpr Encoding ISO_8859_8_I{TEXTCODEC_ISO_8859_8_I};
inline constexpr Encoding ISO_8859_10{TEXTCODEC_ISO_8859_10};
inline constexpr Encoding ISO_8859_13{TEXTCODEC_ISO_8859_13};
inline constexpr Encoding ISO_8859_14{TEXTCODEC_ISO_8859_14};
inline constexpr Encoding ISO_8859_15{TEXTCODEC_ISO_8859_15};
inline constexpr Encoding ISO_8859_16{TEXTCODEC_ISO_8859_16};
inline constexpr Encoding KOI8_R{TEXTCODEC_KOI8_R};
inline constexpr Encoding KOI8_U{TEXTCODEC_KOI8_U};
inline constexpr Encoding MACINTOSH{TEXTCODEC_MACINTOSH};
inline constexpr Encoding WINDOWS_874{TEXTCODEC_WINDOWS_874};
inline constexpr Encoding WINDOWS_1250{TEXTCODEC_WINDOWS_1250};
inline constexpr Encoding WINDOWS_1251{TEXTCODEC_WINDOWS_1251};
inline constexpr Encoding WINDOWS_1252{TEXTCODEC_WINDOWS_1252};
inline constexpr Encoding WINDOWS_1253{TEXTCODEC_WINDOWS_1253};
inline constexpr Encoding WINDOWS_1254{TEXTCODEC_WINDOWS_1254};
inline constexpr Encoding WINDOWS_1255{TEXTCODEC_WINDOWS_1255};
inline constexpr Encoding WINDOWS_1256{TEXTCODEC_WINDOWS_1256};
inline constexpr Encoding WINDOWS_1257{TEXTCODEC_WINDOWS_1257};
inline constexpr Encoding WINDOWS_1258{TEXTCODEC_WINDOWS_1258};
inline constexpr Encoding X_MAC_CYRILLIC{TEXTCODEC_X_MAC_CYRILLIC};
inline constexpr Encoding GBK{TEXTCODEC_GBK};
inline constexpr Encoding GB18030{TEXTCODEC_GB18030};
inline constexpr Encoding BIG5{TEXTCODEC_BIG5};
inline constexpr Encoding EUC_JP{TEXTCODEC_EUC_JP};
inline constexpr Encoding ISO_2022_JP{TEXTCODEC_ISO_2022_JP};
inline constexpr Encoding SHIFT_JIS{TEXTCODEC_SHIFT_JIS};
inline constexpr Encoding EUC_KR{TEXTCODEC_EUC_KR};
inline constexpr Encoding REPLACEMENT{TEXTCODEC_REPLACEMENT};
inline constexpr Encoding UTF_16BE{TEXTCODEC_UTF_16BE};
inline constexpr Encoding UTF_16LE{TEXTCODEC_UTF_16LE};
inline constexpr Encoding X_USER_DEFINED{TEXTCODEC_X_USER_DEFINED};
}  // namespace encodings

/// BOM sniff: UTF-8, UTF-16BE or UTF-16LE and the BOM's length, if `bytes` starts with one.
inline std::optional<std::pair<Encoding, std::size_t>> bom_sniff(std::string_view bytes) noexcept {
  std::size_t len = 0;
  TextcodecEncoding e =
      textcodec_bom_sniff(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size(), &len);
  if (e == TEXTCODEC_NO_ENCODING) return std::nullopt;
  return std::make_pair(Encoding(e), len);
}

/// A malformed byte sequence (fatal decoding).
struct Malformed {
  /// Stream offset of its first byte.
  uint64_t offset;
  /// Its bytes (`length` of them).
  std::array<uint8_t, 8> bytes;
  std::size_t length;
};

/// What a decode call did.
struct DecodeResult {
  Status status;
  std::size_t read;
  std::size_t written;
  /// The encoding in use after the call (a BOM may switch it).
  Encoding encoding;
  /// Errors replaced by U+FFFD in this call.
  uint64_t replacements;
  /// With Status::Malformed.
  std::optional<Malformed> malformed;
};

namespace detail {
inline DecodeResult from_c(const TextcodecDecodeResult &r) noexcept {
  DecodeResult out{static_cast<Status>(r.status), r.read, r.written, Encoding(r.encoding),
                   r.replacements, std::nullopt};
  if (r.status == TEXTCODEC_MALFORMED) {
    Malformed m{r.malformed_offset, {}, r.malformed_length};
    for (std::size_t i = 0; i < 8; i++) m.bytes[i] = r.malformed_bytes[i];
    out.malformed = m;
  }
  return out;
}
inline const uint8_t *u8(std::string_view s) noexcept {
  return reinterpret_cast<const uint8_t *>(s.data());
}
}  // namespace detail

/// A streaming decoder (#concept-encoding-run): owns a TextcodecDecoder.
class Decoder {
 public:
  explicit Decoder(Encoding encoding, DecodeErrorMode mode = DecodeErrorMode::Replacement,
                   BomHandling bom = BomHandling::Sniff)
      : d_(textcodec_decoder_new(encoding.id(), static_cast<uint32_t>(mode),
                                 static_cast<uint32_t>(bom))) {
    if (!d_) throw std::bad_alloc();
  }
  ~Decoder() { textcodec_decoder_free(d_); }
  Decoder(const Decoder &) = delete;
  Decoder &operator=(const Decoder &) = delete;
  Decoder(Decoder &&other) noexcept : d_(std::exchange(other.d_, nullptr)) {}
  Decoder &operator=(Decoder &&other) noexcept {
    std::swap(d_, other.d_);
    return *this;
  }

  /// Decodes into UTF-8 at `dst` (room for `dst_len` bytes). A moved-from decoder
  /// returns Status::InvalidArgument.
  DecodeResult decode_to_utf8(std::string_view src, char *dst, std::size_t dst_len,
                              bool last) noexcept {
    return detail::from_c(textcodec_decoder_decode_to_utf8(
        d_, detail::u8(src), src.size(), reinterpret_cast<uint8_t *>(dst), dst_len, last));
  }
  /// Decodes into UTF-16 at `dst`.
  DecodeResult decode_to_utf16(std::string_view src, char16_t *dst, std::size_t dst_len,
                               bool last) noexcept {
    return detail::from_c(textcodec_decoder_decode_to_utf16(
        d_, detail::u8(src), src.size(), reinterpret_cast<uint16_t *>(dst), dst_len, last));
  }
#if __cplusplus >= 202002L
  DecodeResult decode_to_utf8(std::string_view src, std::span<char> dst, bool last) noexcept {
    return decode_to_utf8(src, dst.data(), dst.size(), last);
  }
  DecodeResult decode_to_utf16(std::string_view src, std::span<char16_t> dst, bool last) noexcept {
    return decode_to_utf16(src, dst.data(), dst.size(), last);
  }
#endif

  /// Decodes all of `src` and appends it to `out` (growing it); returns at the end of the
  /// input or, in fatal mode, at a malformed sequence (never Status::OutputFull).
  DecodeResult decode_to_string(std::string_view src, std::string &out, bool last) {
    return grow(src, out, last, [this](std::string_view s, char *d, std::size_t n, bool l) {
      return decode_to_utf8(s, d, n, l);
    });
  }
  /// As decode_to_string, into UTF-16.
  DecodeResult decode_to_u16string(std::string_view src, std::u16string &out, bool last) {
    return grow(src, out, last, [this](std::string_view s, char16_t *d, std::size_t n, bool l) {
      return decode_to_utf16(s, d, n, l);
    });
  }
  /// Decodes all of `src` into a new string (replacement mode: the whole text).
  std::string decode_to_string(std::string_view src, bool last) {
    std::string out;
    decode_to_string(src, out, last);
    return out;
  }

  void reset() noexcept { textcodec_decoder_reset(d_); }
  Encoding encoding() const noexcept { return Encoding(textcodec_decoder_encoding(d_)); }
  bool set_error_mode(DecodeErrorMode mode) noexcept {
    return textcodec_decoder_set_error_mode(d_, static_cast<uint32_t>(mode));
  }
  uint64_t replacements() const noexcept { return textcodec_decoder_replacements(d_); }
  std::size_t max_utf8_buffer_length(std::size_t byte_length) const noexcept {
    return textcodec_decoder_max_utf8_buffer_length(d_, byte_length);
  }
  std::size_t max_utf16_buffer_length(std::size_t byte_length) const noexcept {
    return textcodec_decoder_max_utf16_buffer_length(d_, byte_length);
  }
  TextcodecDecoder *get() noexcept { return d_; }

 private:
  template <typename String, typename F>
  DecodeResult grow(std::string_view src, String &out, bool last, F step) {
    DecodeResult total{Status::InputEmpty, 0, 0, encoding(), 0, std::nullopt};
    for (;;) {
      std::size_t room = src.size() - total.read + 16;
      std::size_t old = out.size();
      out.resize(old + room);
      DecodeResult r = step(src.substr(total.read), &out[old], room, last);
      out.resize(old + r.written);
      total.read += r.read;
      total.written += r.written;
      total.replacements += r.replacements;
      total.status = r.status;
      total.encoding = r.encoding;
      total.malformed = r.malformed;
      if (r.status != Status::OutputFull) return total;
    }
  }
  TextcodecDecoder *d_;
};

/// What an encode call did.
struct EncodeResult {
  Status status;
  std::size_t read;
  std::size_t written;
  /// With Status::Unmappable: the input character and the Standard's error code point.
  char32_t unmappable_character;
  char32_t unmappable_code_point;
  /// With Status::Malformed (UTF-8 input that is not UTF-8): how many bytes.
  std::size_t malformed_length;
};

/// A streaming encoder: owns a TextcodecEncoder.
class Encoder {
 public:
  /// Throws std::invalid_argument for replacement (no encoder: use its output encoding).
  explicit Encoder(Encoding encoding, EncodeErrorMode mode = EncodeErrorMode::Fatal)
      : e_(textcodec_encoder_new(encoding.id(), static_cast<uint32_t>(mode))) {
    if (!e_) throw std::invalid_argument("textcodec: this encoding has no encoder");
  }
  ~Encoder() { textcodec_encoder_free(e_); }
  Encoder(const Encoder &) = delete;
  Encoder &operator=(const Encoder &) = delete;
  Encoder(Encoder &&other) noexcept : e_(std::exchange(other.e_, nullptr)) {}
  Encoder &operator=(Encoder &&other) noexcept {
    std::swap(e_, other.e_);
    return *this;
  }

  /// Encodes UTF-8 (split anywhere between calls) into `dst`.
  EncodeResult encode_from_utf8(std::string_view src, char *dst, std::size_t dst_len,
                                bool last) noexcept {
    return from_c(textcodec_encoder_encode_from_utf8(e_, detail::u8(src), src.size(),
                                                     reinterpret_cast<uint8_t *>(dst), dst_len,
                                                     last));
  }
  /// Encodes UTF-16 (lone surrogates become U+FFFD) into `dst`.
  EncodeResult encode_from_utf16(std::u16string_view src, char *dst, std::size_t dst_len,
                                 bool last) noexcept {
    return from_c(textcodec_encoder_encode_from_utf16(
        e_, reinterpret_cast<const uint16_t *>(src.data()), src.size(),
        reinterpret_cast<uint8_t *>(dst), dst_len, last));
  }
#if __cplusplus >= 202002L
  EncodeResult encode_from_utf8(std::string_view src, std::span<char> dst, bool last) noexcept {
    return encode_from_utf8(src, dst.data(), dst.size(), last);
  }
  EncodeResult encode_from_utf16(std::u16string_view src, std::span<char> dst, bool last) noexcept {
    return encode_from_utf16(src, dst.data(), dst.size(), last);
  }
#endif
  /// Encodes all of `src`, appending the bytes to `out`; returns at the end of the input
  /// or at an error (never Status::OutputFull).
  EncodeResult encode_to_string(std::string_view src, std::string &out, bool last) {
    return grow(out, [&](std::size_t read, char *d, std::size_t n) {
      return encode_from_utf8(src.substr(read), d, n, last);
    }, src.size());
  }
  EncodeResult encode_to_string(std::u16string_view src, std::string &out, bool last) {
    return grow(out, [&](std::size_t read, char *d, std::size_t n) {
      return encode_from_utf16(src.substr(read), d, n, last);
    }, src.size());
  }

  void reset() noexcept { textcodec_encoder_reset(e_); }
  Encoding encoding() const noexcept { return Encoding(textcodec_encoder_encoding(e_)); }
  bool set_error_mode(EncodeErrorMode mode) noexcept {
    return textcodec_encoder_set_error_mode(e_, static_cast<uint32_t>(mode));
  }
  std::size_t max_buffer_length_from_utf8(std::size_t byte_length) const noexcept {
    return textcodec_encoder_max_buffer_length_from_utf8(e_, byte_length);
  }
  std::size_t max_buffer_length_from_utf16(std::size_t unit_length) const noexcept {
    return textcodec_encoder_max_buffer_length_from_utf16(e_, unit_length);
  }
  TextcodecEncoder *get() noexcept { return e_; }

 private:
  static EncodeResult from_c(const TextcodecEncodeResult &r) noexcept {
    return EncodeResult{static_cast<Status>(r.status), r.read, r.written,
                        static_cast<char32_t>(r.unmappable_character),
                        static_cast<char32_t>(r.unmappable_code_point), r.malformed_length};
  }
  template <typename F>
  EncodeResult grow(std::string &out, F step, std::size_t len) {
    EncodeResult total{Status::InputEmpty, 0, 0, 0, 0, 0};
    for (;;) {
      std::size_t room = 2 * (len - total.read) + 32;
      std::size_t old = out.size();
      out.resize(old + room);
      EncodeResult r = step(total.read, &out[old], room);
      out.resize(old + r.written);
      std::size_t read = total.read + r.read, written = total.written + r.written;
      total = r;
      total.read = read;
      total.written = written;
      if (r.status != Status::OutputFull) return total;
    }
  }
  TextcodecEncoder *e_;
};

/// The Standard's *decode*: BOM sniffing (the BOM wins over `fallback`), replacement.
/// Returns the text and the encoding used.
inline std::pair<std::string, Encoding> decode(std::string_view bytes, Encoding fallback) {
  Decoder d(fallback);
  std::string text;
  DecodeResult r = d.decode_to_string(bytes, text, true);
  Encoding used = fallback;
  if (auto bom = bom_sniff(bytes)) used = bom->first;
  (void)r;
  return {std::move(text), used};
}

/// The Standard's *encode*: the output encoding, unmappable characters as &#N;.
inline std::string encode(std::string_view text, Encoding encoding) {
  Encoder e(encoding.output_encoding(), EncodeErrorMode::Html);
  std::string out;
  e.encode_to_string(text, out, true);
  return out;
}

/// `textcodec::mem`: whole-string conversions between UTF-8 and UTF-16 (lossy: errors
/// become U+FFFD as the Standard's UTF-8 decoder and WebIDL's USVString conversion do)
/// and checks, sized exactly by the length functions.
namespace mem {
inline std::u16string utf8_to_utf16_lossy(std::string_view src) {
  std::u16string out(textcodec_mem_utf16_len_from_utf8_lossy(detail::u8(src), src.size()), u'\0');
  TextcodecMemResult r = textcodec_mem_utf8_to_utf16_lossy(
      detail::u8(src), src.size(), reinterpret_cast<uint16_t *>(out.data()), out.size());
  out.resize(r.written);
  return out;
}
inline std::string utf16_to_utf8_lossy(std::u16string_view src) {
  const uint16_t *units = reinterpret_cast<const uint16_t *>(src.data());
  std::string out(textcodec_mem_utf8_len_from_utf16_lossy(units, src.size()), '\0');
  TextcodecMemResult r = textcodec_mem_utf16_to_utf8_lossy(
      units, src.size(), reinterpret_cast<uint8_t *>(out.data()), out.size());
  out.resize(r.written);
  return out;
}
/// The length of the longest valid UTF-8 prefix.
inline std::size_t utf8_valid_up_to(std::string_view src) noexcept {
  return textcodec_mem_utf8_valid_up_to(detail::u8(src), src.size());
}
/// The offset of the first lone surrogate (`src.size()` if none).
inline std::size_t utf16_valid_up_to(std::u16string_view src) noexcept {
  return textcodec_mem_utf16_valid_up_to(reinterpret_cast<const uint16_t *>(src.data()),
                                         src.size());
}
}  // namespace mem

/// The detector's guess.
struct Guess {
  Encoding encoding;
  float confidence;
  float score;
  float margin;
  /// The language's BCP 47 code ("ja"), if the model tells it.
  std::optional<std::string_view> language;
  /// Why the input is binary data ("PNG"), if it is.
  std::optional<std::string_view> binary;
  bool ascii_only;
};

/// Detects the encoding of unlabelled bytes (default hints, or `hints`).
inline Guess detect(std::string_view bytes, const TextcodecDetectHints *hints = nullptr) {
  TextcodecGuess g{};
  if (!textcodec_detect(detail::u8(bytes), bytes.size(), hints, &g)) {
    throw std::invalid_argument("textcodec: invalid detection hints");
  }
  Guess out{Encoding(g.encoding), g.confidence, g.score, g.margin, std::nullopt, std::nullopt,
            g.ascii_only};
  if (const char *code = textcodec_language_code(g.language)) out.language = code;
  if (const char *name = textcodec_binary_name(g.binary)) out.binary = name;
  return out;
}

/// Sniffs a resource's encoding as a browser would (`options`: textcodec_sniff_options_default).
inline std::optional<TextcodecSniffReport> sniff(std::string_view prefix,
                                                 const TextcodecSniffOptions &options) noexcept {
  TextcodecSniffReport r{};
  if (!textcodec_sniff(detail::u8(prefix), prefix.size(), &options, &r)) return std::nullopt;
  return r;
}

}  // namespace textcodec

#endif  // TEXTCODEC_HPP
