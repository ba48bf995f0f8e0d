package dev.modelplane.simulator;

/** JSON string quoting for the hand-written hot-path payloads (SSE chunks, errors). */
final class Json {
  private Json() {
  }

  static String quote(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2);
    appendQuoted(sb, s);
    return sb.toString();
  }

  static void appendQuoted(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
