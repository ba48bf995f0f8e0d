package dev.modelplane.common.tokenizer;

import java.beans.FeatureDescriptor;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import jinjava.javax.el.ELContext;
import jinjava.javax.el.ELResolver;

/**
 * Python's string methods for Jinjava, which otherwise offers Java's. Chat templates are written for Jinja2, where
 * a string is a Python {@code str}: they call {@code content.strip()}, {@code role.upper()},
 * {@code text.startswith('<tool')} or {@code text.split()}. This resolver answers those calls with Python's meaning
 * (its whitespace, its split rules), indexes a string by code point ({@code text[0]}, {@code text[-1]}), and leaves
 * everything else to Jinjava's own resolvers. Whitespace is Python's
 * {@code str.isspace}, which unlike Java's counts no-break spaces.
 */
final class PythonStrings extends ELResolver {
  private static final Pattern INDEX = Pattern.compile("-?\\d{1,9}");

  @Override
  public Object invoke(ELContext context, Object base, Object method, Class<?>[] types, Object[] params) {
    if (!(base instanceof String s) || !(method instanceof String name)) {
      return null;
    }
    Object[] p = params == null ? new Object[0] : params;
    Object result = switch (name) {
      case "strip" -> strip(s, chars(p), true, true);
      case "lstrip" -> strip(s, chars(p), true, false);
      case "rstrip" -> strip(s, chars(p), false, true);
      case "startswith" -> affix(s, p, true);
      case "endswith" -> affix(s, p, false);
      case "split" -> split(s, p.length > 0 && p[0] != null ? p[0].toString() : null,
          p.length > 1 ? ((Number) p[1]).intValue() : -1);
      case "upper" -> s.toUpperCase(Locale.ROOT);
      case "lower" -> s.toLowerCase(Locale.ROOT);
      case "title" -> title(s);
      case "capitalize" -> s.isEmpty() ? s
          : s.substring(0, s.offsetByCodePoints(0, 1)).toUpperCase(Locale.ROOT)
              + s.substring(s.offsetByCodePoints(0, 1)).toLowerCase(Locale.ROOT);
      case "replace" -> replace(s, p[0].toString(), p[1].toString(), p.length > 2 ? ((Number) p[2]).intValue() : -1);
      case "find" -> (long) s.indexOf(p[0].toString());
      case "join" -> join(s, p[0]);
      default -> null;
    };
    if (result != null) {
      context.setPropertyResolved(true);
    }
    return result;
  }

  private static String chars(Object[] p) {
    return p.length > 0 && p[0] != null ? p[0].toString() : null;
  }

  /** Python's {@code str.isspace} for one code point. */
  static boolean isSpace(int cp) {
    return cp >= 0x09 && cp <= 0x0d || cp >= 0x1c && cp <= 0x20 || cp == 0x85 || cp == 0xa0 || cp == 0x1680
        || cp >= 0x2000 && cp <= 0x200a || cp == 0x2028 || cp == 0x2029 || cp == 0x202f || cp == 0x205f
        || cp == 0x3000;
  }

  /** Python's {@code strip}: whitespace, or any of {@code chars} when given, off either end. */
  static String strip(String s, String chars, boolean left, boolean right) {
    int start = 0;
    int end = s.length();
    while (left && start < end && stripped(s.codePointAt(start), chars)) {
      start += Character.charCount(s.codePointAt(start));
    }
    while (right && end > start && stripped(s.codePointBefore(end), chars)) {
      end -= Character.charCount(s.codePointBefore(end));
    }
    return s.substring(start, end);
  }

  private static boolean stripped(int cp, String chars) {
    return chars == null ? isSpace(cp) : chars.codePoints().anyMatch(c -> c == cp);
  }

  private static Boolean affix(String s, Object[] p, boolean prefix) {
    if (p.length == 0 || p[0] == null) {
      return false;
    }
    Iterable<?> candidates = p[0] instanceof Iterable<?> list ? list : List.of(p[0]);
    for (Object c : candidates) {
      if (prefix ? s.startsWith(c.toString()) : s.endsWith(c.toString())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Python's {@code split}: without a separator, on runs of whitespace with none at either end; with one, at every
   * occurrence, empty parts kept. At most {@code maxSplit} splits when it is not negative.
   */
  static List<String> split(String s, String sep, int maxSplit) {
    List<String> out = new ArrayList<>();
    if (sep == null) {
      int i = 0;
      int n = s.length();
      while (true) {
        while (i < n && isSpace(s.codePointAt(i))) {
          i += Character.charCount(s.codePointAt(i));
        }
        if (i >= n) {
          return out;
        }
        if (maxSplit >= 0 && out.size() == maxSplit) {
          out.add(s.substring(i));
          return out;
        }
        int start = i;
        while (i < n && !isSpace(s.codePointAt(i))) {
          i += Character.charCount(s.codePointAt(i));
        }
        out.add(s.substring(start, i));
      }
    }
    if (sep.isEmpty()) {
      throw new IllegalArgumentException("empty separator");
    }
    int from = 0;
    for (int at; (maxSplit < 0 || out.size() < maxSplit) && (at = s.indexOf(sep, from)) >= 0;
        from = at + sep.length()) {
      out.add(s.substring(from, at));
    }
    out.add(s.substring(from));
    return out;
  }

  private static String title(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    boolean previousCased = false;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      boolean cased = Character.isUpperCase(cp) || Character.isLowerCase(cp) || Character.isTitleCase(cp);
      sb.appendCodePoint(cased && !previousCased ? Character.toTitleCase(cp) : Character.toLowerCase(cp));
      previousCased = cased;
      i += Character.charCount(cp);
    }
    return sb.toString();
  }

  private static String replace(String s, String old, String replacement, int count) {
    if (count < 0) {
      return s.replace(old, replacement);
    }
    StringBuilder sb = new StringBuilder();
    if (old.isEmpty()) {
      // Python inserts the replacement before every character and at the end, up to count times.
      int i = 0;
      for (int done = 0; done < count && i <= s.length(); done++) {
        sb.append(replacement);
        int next = i < s.length() ? i + Character.charCount(s.codePointAt(i)) : i + 1;
        sb.append(s, Math.min(i, s.length()), Math.min(next, s.length()));
        i = next;
      }
      return sb.append(s, Math.min(i, s.length()), s.length()).toString();
    }
    int from = 0;
    int done = 0;
    for (int at; done < count && (at = s.indexOf(old, from)) >= 0; done++, from = at + old.length()) {
      sb.append(s, from, at).append(replacement);
    }
    return sb.append(s, from, s.length()).toString();
  }

  private static String join(String separator, Object items) {
    if (!(items instanceof Iterable<?> list)) {
      throw new IllegalArgumentException("can only join an iterable");
    }
    StringBuilder sb = new StringBuilder();
    boolean first = true;
    for (Object item : list) {
      if (!first) {
        sb.append(separator);
      }
      sb.append(item);
      first = false;
    }
    return sb.toString();
  }

  // ---- everything else is left to the next resolver ----------------------------------------------------------

  /**
   * {@code text[i]}: the code point at {@code i}, counted from the end when negative, as Python indexes (Jinjava
   * hands the index over as text).
   */
  @Override
  public Object getValue(ELContext context, Object base, Object property) {
    if (base instanceof String s && property != null && INDEX.matcher(property.toString()).matches()) {
      int count = s.codePointCount(0, s.length());
      long index = Long.parseLong(property.toString());
      long i = index < 0 ? index + count : index;
      if (i >= 0 && i < count) {
        context.setPropertyResolved(true);
        int at = s.offsetByCodePoints(0, (int) i);
        return s.substring(at, s.offsetByCodePoints(at, 1));
      }
    }
    return null;
  }

  @Override
  public Class<?> getType(ELContext context, Object base, Object property) {
    return null;
  }

  @Override
  public void setValue(ELContext context, Object base, Object property, Object value) {
    // Resolved by the next resolver, if by any.
  }

  @Override
  public boolean isReadOnly(ELContext context, Object base, Object property) {
    return true;
  }

  @Override
  public Iterator<FeatureDescriptor> getFeatureDescriptors(ELContext context, Object base) {
    return null;
  }

  @Override
  public Class<?> getCommonPropertyType(ELContext context, Object base) {
    return null;
  }
}
