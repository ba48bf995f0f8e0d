package dev.modelplane.router.extproc;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Rewrites {@code "model":"<target>"} back to the name the client sent, in response bodies (GIE does the same so a
 * rewritten or LoRA-routed request answers with the model the client asked for).
 */
final class ModelNameRewriter {
  private ModelNameRewriter() {
  }

  static byte[] rewrite(byte[] body, String targetModel, String incomingModel) {
    if (targetModel == null || incomingModel == null || targetModel.equals(incomingModel) || body.length == 0) {
      return body;
    }
    byte[] out = replace(body, ("\"model\":\"" + targetModel + "\"").getBytes(StandardCharsets.UTF_8),
        ("\"model\":\"" + incomingModel + "\"").getBytes(StandardCharsets.UTF_8));
    if (out != body) {
      return out;
    }
    return replace(body, ("\"model\": \"" + targetModel + "\"").getBytes(StandardCharsets.UTF_8),
        ("\"model\": \"" + incomingModel + "\"").getBytes(StandardCharsets.UTF_8));
  }

  /** Replaces every occurrence; returns {@code data} itself when there is none. */
  static byte[] replace(byte[] data, byte[] from, byte[] to) {
    int first = indexOf(data, from, 0);
    if (first < 0) {
      return data;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(data.length + 16);
    int pos = 0;
    for (int i = first; i >= 0; i = indexOf(data, from, pos)) {
      out.write(data, pos, i - pos);
      out.write(to, 0, to.length);
      pos = i + from.length;
    }
    out.write(data, pos, data.length - pos);
    return out.toByteArray();
  }

  private static int indexOf(byte[] data, byte[] pattern, int from) {
    outer:
    for (int i = from; i <= data.length - pattern.length; i++) {
      for (int j = 0; j < pattern.length; j++) {
        if (data[i + j] != pattern[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
