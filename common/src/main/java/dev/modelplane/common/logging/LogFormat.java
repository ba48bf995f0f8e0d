package dev.modelplane.common.logging;

import java.util.Locale;
import picocli.CommandLine;

/** How each log event is written: one line either way, on standard error. */
public enum LogFormat {
  /** {@code ts=… level=INFO logger=Router msg="…" key=value…}, logfmt style. */
  KEYVALUE("keyvalue"),
  /** One JSON object per line with the same fields. */
  JSON("json");

  private final String flag;

  LogFormat(String flag) {
    this.flag = flag;
  }

  /** The name on the command line. */
  public String flag() {
    return flag;
  }

  /**
   * Reads {@code keyvalue} or {@code json} (any case).
   *
   * @throws IllegalArgumentException naming the text and the choices
   */
  public static LogFormat parse(String text) {
    String s = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    for (LogFormat f : values()) {
      if (f.flag.equals(s)) {
        return f;
      }
    }
    throw new IllegalArgumentException("unknown log format \"" + text + "\": use keyvalue or json");
  }

  @Override
  public String toString() {
    return flag;
  }

  /** picocli converter for {@code --log-format}. */
  public static final class Converter implements CommandLine.ITypeConverter<LogFormat> {
    @Override
    public LogFormat convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }
}
