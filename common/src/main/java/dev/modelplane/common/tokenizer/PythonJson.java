package dev.modelplane.common.tokenizer;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * JSON as Python's {@code json.dumps} writes it, which is what the {@code tojson} filter of a chat template means:
 * transformers renders templates with {@code json.dumps(value, ensure_ascii=False, indent=…, separators=…,
 * sort_keys=…)}. That differs from Jinjava's own filter and from Jackson in ways that change the prompt text, and so
 * its tokens: {@code ", "} and {@code ": "} between items, keys in insertion order, non-ASCII text written as is,
 * floats as Python prints them ({@code 1e-05}, {@code 1e+16}, {@code 0.5}).
 */
final class PythonJson {
  private PythonJson() {
  }

  /**
   * The JSON text of {@code value}.
   *
   * @param indent null for one line, else the string each nesting level is indented by (Python's {@code indent})
   * @param itemSeparator null for Python's default ({@code ", "} on one line, {@code ","} when indented)
   * @param keySeparator null for {@code ": "}
   */
  static String dumps(Object value, String indent, String itemSeparator, String keySeparator, boolean sortKeys,
      boolean ensureAscii) {
    Writer w = new Writer(indent, itemSeparator != null ? itemSeparator : indent == null ? ", " : ",",
        keySeparator != null ? keySeparator : ": ", sortKeys, ensureAscii);
    w.value(value, 0);
    return w.out.toString();
  }

  private static final class Writer {
    final StringBuilder out = new StringBuilder();
    final String indent;
    final String itemSeparator;
    final String keySeparator;
    final boolean sortKeys;
    final boolean ensureAscii;

    Writer(String indent, String itemSeparator, String keySeparator, boolean sortKeys, boolean ensureAscii) {
      this.indent = indent;
      this.itemSeparator = itemSeparator;
      this.keySeparator = keySeparator;
      this.sortKeys = sortKeys;
      this.ensureAscii = ensureAscii;
    }

    void value(Object v, int depth) {
      switch (v) {
        case null -> out.append("null");
        case Boolean b -> out.append(b ? "true" : "false");
        case Double d -> out.append(floatRepr(d));
        case Float f -> out.append(floatRepr(new BigDecimal(Float.toString(f)), f.isNaN(), f.isInfinite(), f < 0));
        case BigDecimal d -> out.append(floatRepr(d, false, false, d.signum() < 0));
        case Number n -> out.append(n instanceof BigInteger || n instanceof Long || n instanceof Integer
            || n instanceof Short || n instanceof Byte ? n.toString() : floatRepr(n.doubleValue()));
        case CharSequence s -> string(s.toString());
        case Map<?, ?> m -> object(m, depth);
        case Iterable<?> items -> array(items, depth);
        case Object[] items -> array(List.of(items), depth);
        default -> throw new IllegalArgumentException("Object of type " + v.getClass().getSimpleName()
            + " is not JSON serializable");
      }
    }

    private void object(Map<?, ?> m, int depth) {
      if (m.isEmpty()) {
        out.append("{}");
        return;
      }
      List<Map.Entry<String, Object>> entries = new ArrayList<>();
      m.forEach((k, v) -> entries.add(Map.entry(key(k), v == null ? NULL : v)));
      if (sortKeys) {
        entries.sort(Comparator.comparing(Map.Entry::getKey));
      }
      out.append('{');
      for (int i = 0; i < entries.size(); i++) {
        separate(i, depth + 1);
        string(entries.get(i).getKey());
        out.append(keySeparator);
        Object v = entries.get(i).getValue();
        value(v == NULL ? null : v, depth + 1);
      }
      close(depth, '}');
    }

    private void array(Iterable<?> items, int depth) {
      int i = 0;
      out.append('[');
      for (Object item : items) {
        separate(i++, depth + 1);
        value(item, depth + 1);
      }
      if (i == 0) {
        out.append(']');
        return;
      }
      close(depth, ']');
    }

    private void separate(int index, int depth) {
      if (index > 0) {
        out.append(itemSeparator);
      }
      newline(depth);
    }

    private void close(int depth, char bracket) {
      newline(depth);
      out.append(bracket);
    }

    private void newline(int depth) {
      if (indent != null) {
        out.append('\n').append(indent.repeat(depth));
      }
    }

    private String key(Object k) {
      return switch (k) {
        case null -> "null";
        case String s -> s;
        case Boolean b -> b ? "true" : "false";
        case Double d -> floatRepr(d);
        case Number n -> n.toString();
        default -> throw new IllegalArgumentException("keys must be str, int, float, bool or None, not "
            + k.getClass().getSimpleName());
      };
    }

    private void string(String s) {
      out.append('"');
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        switch (c) {
          case '"' -> out.append("\\\"");
          case '\\' -> out.append("\\\\");
          case '\n' -> out.append("\\n");
          case '\r' -> out.append("\\r");
          case '\t' -> out.append("\\t");
          case '\b' -> out.append("\\b");
          case '\f' -> out.append("\\f");
          default -> {
            if (c < 0x20 || ensureAscii && c > 0x7e) {
              out.append(String.format("\\u%04x", (int) c));
            } else {
              out.append(c);
            }
          }
        }
      }
      out.append('"');
    }
  }

  /** Stands for a null map value while entries are collected ({@link Map#entry} refuses null). */
  private static final Object NULL = new Object();

  /** Python's {@code repr} of a float, as {@code json.dumps} writes it. */
  static String floatRepr(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return floatRepr(BigDecimal.ZERO, Double.isNaN(d), Double.isInfinite(d), d < 0);
    }
    // Double.toString gives the shortest digits that read back as d (JDK 19 and later), as Python's repr does,
    // except that where one digit would do it may give two closer ones (4.9E-324 for Python's 5e-324).
    BigDecimal shortest = new BigDecimal(Double.toString(d)).stripTrailingZeros();
    if (shortest.precision() == 2) {
      BigDecimal exact = new BigDecimal(d);
      BigDecimal best = null;
      for (RoundingMode mode : new RoundingMode[] {RoundingMode.FLOOR, RoundingMode.CEILING}) {
        BigDecimal one = shortest.round(new MathContext(1, mode));
        if (one.doubleValue() == d && (best == null
            || one.subtract(exact).abs().compareTo(best.subtract(exact).abs()) < 0)) {
          best = one;
        }
      }
      shortest = best != null ? best : shortest;
    }
    return floatRepr(shortest, false, false, d < 0 || d == 0 && 1 / d < 0);
  }

  private static String floatRepr(BigDecimal value, boolean nan, boolean infinite, boolean negative) {
    if (nan) {
      return "NaN";
    }
    if (infinite) {
      return negative ? "-Infinity" : "Infinity";
    }
    String sign = negative ? "-" : "";
    if (value.signum() == 0) {
      return sign + "0.0";
    }
    BigDecimal v = value.abs().stripTrailingZeros();
    String digits = v.unscaledValue().toString();
    // The value is 0.<digits> times 10^point.
    int point = digits.length() - v.scale();
    if (point > -4 && point <= 16) {
      if (point <= 0) {
        return sign + "0." + "0".repeat(-point) + digits;
      }
      if (point >= digits.length()) {
        return sign + digits + "0".repeat(point - digits.length()) + ".0";
      }
      return sign + digits.substring(0, point) + "." + digits.substring(point);
    }
    int exponent = point - 1;
    String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
    return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + (Math.abs(exponent) < 10 ? "0" : "")
        + Math.abs(exponent);
  }
}
