package dev.modelplane.router.request;

import dev.modelplane.router.scheduling.LlmRequestBody;
import dev.modelplane.router.scheduling.RequestJson;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Audio transcriptions and translations: a {@code multipart/form-data} upload of which only the {@code model} field
 * is read, never the audio. Nothing is refused: a form this reader cannot follow is forwarded without a model, and
 * the model server answers it. The scan is linear in the body and stops at the {@code model} field; a part's headers
 * are read only up to {@link #MAX_PART_HEADER_BYTES}, the model up to {@link RequestJson#MAX_MODEL_LENGTH} chars.
 */
final class AudioRequestParser implements RequestParser {
  /** Longest part header block read (a real one is a {@code Content-Disposition} and a {@code Content-Type}). */
  static final int MAX_PART_HEADER_BYTES = 8 * 1024;
  /** Longest boundary RFC 2046 allows. */
  private static final int MAX_BOUNDARY = 70;

  @Override
  public List<String> paths() {
    return List.of("audio/transcriptions", "audio/translations");
  }

  @Override
  public LlmRequestBody parse(byte[] body, String contentType, RequestJson json) {
    String boundary = boundary(contentType);
    RequestJson.Fields fields = boundary == null ? PassthroughParser.bestEffort(body, json)
        : RequestJson.Fields.opaque(formField(body, boundary, "model"));
    return new LlmRequestBody(LlmRequestBody.Api.AUDIO, body, fields);
  }

  @Override
  public boolean requiresModel() {
    return false;
  }

  @Override
  public ErrorShape errorShape() {
    return ErrorShape.OPENAI;
  }

  /**
   * The {@code model} field of a {@code multipart/form-data} body (an audio upload), or {@code null}: another content
   * type, or no such field.
   */
  static String multipartModel(String contentType, byte[] body) {
    String boundary = boundary(contentType);
    return boundary == null ? null : formField(body, boundary, "model");
  }

  /** The boundary of a {@code multipart/form-data} content type; {@code null} for anything else. */
  static String boundary(String contentType) {
    if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) {
      return null;
    }
    for (String param : contentType.split(";")) {
      String p = param.trim();
      if (p.toLowerCase(Locale.ROOT).startsWith("boundary=")) {
        String b = p.substring("boundary=".length());
        if (b.length() >= 2 && b.startsWith("\"") && b.endsWith("\"")) {
          b = b.substring(1, b.length() - 1);
        }
        return b.isEmpty() || b.length() > MAX_BOUNDARY ? null : b;
      }
    }
    return null;
  }

  /**
   * The value of the form field {@code name} (the first part whose {@code Content-Disposition} names it), decoded as
   * UTF-8; {@code null} when there is none, or it is longer than the model limit.
   */
  static String formField(byte[] body, String boundary, String name) {
    byte[] delimiter = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
    byte[] nextPart = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
    byte[] headersEnd = "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
    Pattern wanted = Pattern.compile("[;\\s]name=\"" + Pattern.quote(name) + "\"", Pattern.CASE_INSENSITIVE);
    int delim = startsWith(body, 0, delimiter) ? 0 : afterCrlf(indexOf(body, nextPart, 0));
    while (delim >= 0) {
      int afterDelim = delim + delimiter.length;
      if (startsWith(body, afterDelim, "--".getBytes(StandardCharsets.ISO_8859_1))) {
        return null; // the closing delimiter
      }
      int headers = lineEnd(body, afterDelim);
      if (headers < 0) {
        return null;
      }
      int end = indexOf(body, headersEnd, headers - 2);
      if (end < 0 || end - headers > MAX_PART_HEADER_BYTES) {
        return null;
      }
      String head = new String(body, headers, Math.max(0, end - headers), StandardCharsets.ISO_8859_1);
      int valueStart = end + headersEnd.length;
      int next = indexOf(body, nextPart, valueStart);
      if (next < 0) {
        return null;
      }
      if (wanted.matcher(disposition(head)).find()) {
        // A UTF-8 char takes at most 4 bytes: a longer value is refused before it is decoded.
        if (next - valueStart > 4 * RequestJson.MAX_MODEL_LENGTH) {
          return null;
        }
        String value = new String(body, valueStart, next - valueStart, StandardCharsets.UTF_8);
        return value.length() > RequestJson.MAX_MODEL_LENGTH ? null : value;
      }
      delim = afterCrlf(next);
    }
    return null;
  }

  /** The index of a delimiter found with its leading CRLF; -1 stays -1. */
  private static int afterCrlf(int index) {
    return index < 0 ? -1 : index + 2;
  }

  /** The {@code Content-Disposition} line of a part's headers (its name in any case); "" if none. */
  private static String disposition(String head) {
    for (String line : head.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-disposition:")) {
        return line;
      }
    }
    return "";
  }

  /** The index after the CRLF ending the line at {@code from}; -1 when none. */
  private static int lineEnd(byte[] body, int from) {
    for (int i = from; i + 1 < body.length; i++) {
      if (body[i] == '\r' && body[i + 1] == '\n') {
        return i + 2;
      }
    }
    return -1;
  }

  private static int indexOf(byte[] body, byte[] needle, int from) {
    for (int i = Math.max(0, from); i + needle.length <= body.length; i++) {
      if (startsWith(body, i, needle)) {
        return i;
      }
    }
    return -1;
  }

  private static boolean startsWith(byte[] body, int at, byte[] prefix) {
    if (at < 0 || at + prefix.length > body.length) {
      return false;
    }
    for (int j = 0; j < prefix.length; j++) {
      if (body[at + j] != prefix[j]) {
        return false;
      }
    }
    return true;
  }
}
