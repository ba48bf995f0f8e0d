package dev.modelplane.router.scheduling;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Streams the raw bytes of a body {@link RequestJson#scan} accepted once more, never as a tree: top-level members as
 * compact JSON, a completions prompt as text, the body with another model. Values are written as a tree would write
 * them, except that integers keep their digits.
 */
public final class AcceptedJson {
  /**
   * The shape limits were applied by the scan; the number limit is kept, so a body read again is never read more
   * permissively than it was checked.
   */
  private static final JsonFactory CHECKED = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(Integer.MAX_VALUE)
          .maxStringLength(Integer.MAX_VALUE).maxNameLength(Integer.MAX_VALUE).maxDocumentLength(-1)
          .maxNumberLength(RequestJson.MAX_NUMBER_LENGTH).build())
      .build();

  private AcceptedJson() {
  }

  /**
   * The compact JSON of top-level member {@code name} (its last occurrence), as a tree would serialise it; "null"
   * when absent. Empty when it cannot be written (e.g. a lone surrogate in a string).
   */
  static byte[] member(byte[] body, String name) {
    byte[][] found = members(body, name);
    return found[0] == null ? "null".getBytes(StandardCharsets.US_ASCII) : found[0];
  }

  /**
   * The compact JSON of each named top-level member's last occurrence ({@code null} for an absent one).
   *
   * @throws IllegalStateException when the body cannot be re-read or a value cannot be written
   */
  static byte[][] members(byte[] body, String... names) {
    byte[][] out = new byte[names.length][];
    try (JsonParser p = CHECKED.createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return out;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        p.nextToken();
        int i = indexOf(names, name);
        if (i < 0) {
          p.skipChildren();
          continue;
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (JsonGenerator g = CHECKED.createGenerator(buf)) {
          copyValue(p, g);
        }
        out[i] = buf.toByteArray();
      }
      return out;
    } catch (IOException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /**
   * A completions prompt given as token ids ({@code [1, 2, 3]}, or a batch of one, {@code [[1, 2, 3]]}), or null for
   * any other prompt. Ids are read as unsigned 32-bit values.
   */
  static int[] promptTokenIds(byte[] body) {
    JsonNode prompt;
    try {
      JsonNode root = new ObjectMapper(CHECKED).readTree(body);
      prompt = root == null ? null : root.get("prompt");
    } catch (IOException e) {
      return null;
    }
    if (prompt != null && prompt.isArray() && prompt.size() == 1 && prompt.get(0).isArray()) {
      prompt = prompt.get(0);
    }
    if (prompt == null || !prompt.isArray() || prompt.isEmpty()) {
      return null;
    }
    int[] ids = new int[prompt.size()];
    for (int i = 0; i < ids.length; i++) {
      JsonNode t = prompt.get(i);
      if (!t.canConvertToLong() || !t.isIntegralNumber() || t.longValue() < 0 || t.longValue() > 0xffff_ffffL) {
        return null;
      }
      ids[i] = (int) t.longValue();
    }
    return ids;
  }

  /**
   * A completions {@code prompt} as text: a string as is, an array's strings joined by spaces (token ids and other
   * values skipped); "" otherwise.
   */
  static String promptText(byte[] body) {
    String text = "";
    try (JsonParser p = CHECKED.createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return "";
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken t = p.nextToken();
        if (!name.equals("prompt")) {
          p.skipChildren();
          continue;
        }
        if (t == JsonToken.VALUE_STRING) {
          text = p.getText();
        } else if (t == JsonToken.START_ARRAY) {
          StringBuilder sb = new StringBuilder();
          for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
            if (e == JsonToken.VALUE_STRING) {
              if (!sb.isEmpty()) {
                sb.append(' ');
              }
              sb.append(p.getText());
            } else {
              p.skipChildren();
            }
          }
          text = sb.toString();
        } else {
          p.skipChildren();
          text = "";
        }
      }
    } catch (IOException e) {
      return text;
    }
    return text;
  }

  /**
   * The body with every top-level {@code model} set to {@code target}, written compactly as a tree would be; content
   * after the first JSON value is dropped.
   *
   * @throws IllegalStateException when the body cannot be re-read or written
   */
  public static byte[] withModel(byte[] body, String target) {
    ByteArrayOutputStream buf = new ByteArrayOutputStream(body.length + target.length() + 16);
    try (JsonParser p = CHECKED.createParser(body); JsonGenerator g = CHECKED.createGenerator(buf)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalStateException("expected a JSON object");
      }
      g.writeStartObject();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        p.nextToken();
        g.writeFieldName(name);
        if (name.equals("model")) {
          p.skipChildren();
          g.writeString(target);
        } else {
          copyValue(p, g);
        }
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
    return buf.toByteArray();
  }

  /**
   * Copies the value {@code p} is at, as a tree would serialise it, but writes integers as their text: no
   * {@code BigInteger} is made of a long one and turned back into digits. Iterative: depth costs no stack.
   */
  private static void copyValue(JsonParser p, JsonGenerator g) throws IOException {
    int depth = 0;
    for (JsonToken t = p.currentToken(); ; t = p.nextToken()) {
      if (t == null) {
        throw new IOException("Unexpected end-of-input");
      }
      if (t == JsonToken.VALUE_NUMBER_INT) {
        String digits = p.getText();
        if (digits.equals("-0")) {
          g.writeNumber(0); // as a tree reads it
        } else {
          g.writeNumber(digits);
        }
      } else {
        g.copyCurrentEvent(p);
      }
      if (t.isStructStart()) {
        depth++;
      } else if (t.isStructEnd()) {
        depth--;
      }
      if (depth == 0) {
        return;
      }
    }
  }

  private static int indexOf(String[] names, String name) {
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(name)) {
        return i;
      }
    }
    return -1;
  }
}
