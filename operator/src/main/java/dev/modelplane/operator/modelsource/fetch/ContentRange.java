package dev.modelplane.operator.modelsource.fetch;

/** Reads the start offset out of a {@code Content-Range: bytes start-end/total} header. */
final class ContentRange {
  private ContentRange() {
  }

  /** The first byte's offset, or -1 when the header is missing or malformed. */
  static long start(String header) {
    String value = header.strip();
    if (!value.startsWith("bytes ")) {
      return -1;
    }
    int dash = value.indexOf('-');
    if (dash < 0) {
      return -1;
    }
    try {
      return Long.parseLong(value.substring("bytes ".length(), dash).strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
