package dev.modelplane.common.tokenizer;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.LegacyOverrides;
import com.hubspot.jinjava.el.JinjavaInterpreterResolver;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.filter.Filter;
import com.hubspot.jinjava.lib.fn.ELFunctionDefinition;
import java.io.IOException;
import java.lang.reflect.Method;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jinjava.javax.el.CompositeELResolver;

/**
 * The Jinjava engine set up to render chat templates the way transformers' Jinja2 environment does: blocks trim
 * their newline and (with {@link #lstripBlocks} applied to the source) the indentation before them, a dictionary
 * iterates over its keys, {@code tojson} is Python's {@code json.dumps}, {@code trim} and the string methods use
 * Python's whitespace, and the template has
 * {@code raise_exception(message)} and {@code strftime_now(format)}. Text from the messages is never interpreted
 * again as a template, and templates cannot include files.
 */
final class JinjaEngine {
  /** The longest prompt a template may render; a template looping without end stops here. */
  private static final long MAX_OUTPUT_CHARS = 64L << 20;
  private static final Pattern TAG = Pattern.compile("\\{\\{.*?}}|\\{%.*?%}", Pattern.DOTALL);
  private static final Pattern STRING_LITERAL = Pattern.compile("'(?:[^'\\\\]|\\\\.)*'|\"(?:[^\"\\\\]|\\\\.)*\"");
  private static final Pattern FOR_IN = Pattern.compile("^\\{%[-+]?\\s*for\\s.*?\\sin\\s", Pattern.DOTALL);
  private static final Pattern WORD_IF = Pattern.compile("\\bif\\b");
  private static final Pattern FILTER = Pattern.compile("\\|\\s*([A-Za-z_][A-Za-z0-9_]*)");

  private JinjaEngine() {
  }

  /** A template's {@code raise_exception(message)}: the render fails with that message. */
  static final class Raised extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Raised(String message) {
      super(message, null, false, false);
    }
  }

  static Jinjava create() {
    CompositeELResolver resolver = new CompositeELResolver();
    resolver.add(new PythonStrings());
    resolver.add(JinjavaInterpreterResolver.DEFAULT_RESOLVER_READ_ONLY);
    Jinjava engine = new Jinjava(JinjavaConfig.newBuilder()
        .withTrimBlocks(true)
        // Jinjava also strips spaces before a block in mid-line; lstripBlocks() below does what Jinja2 does.
        .withLstripBlocks(false)
        .withNestedInterpretationEnabled(false)
        .withMaxOutputSize(MAX_OUTPUT_CHARS)
        .withElResolver(resolver)
        .withLegacyOverrides(LegacyOverrides.newBuilder()
            .withIterateOverMapKeys(true)
            .withEvaluateMapKeys(true)
            .withUsePyishObjectMapper(true)
            // {{- and {#- strip the whitespace before them, newlines included, as in Jinja2.
            .withUseTrimmingForNotesAndExpressions(true)
            .build())
        .build());
    engine.setResourceLocator((name, encoding, interpreter) -> {
      throw new IOException("a chat template cannot include other files (" + name + ")");
    });
    engine.getGlobalContext().registerFilter(new PythonFilter("tojson", JinjaEngine::toJson));
    engine.getGlobalContext().registerFilter(new PythonFilter("trim", JinjaEngine::trim));
    engine.getGlobalContext().registerFilter(new PythonFilter("items", JinjaEngine::items));
    engine.getGlobalContext().registerFunction(function("raise_exception", "raiseException"));
    engine.getGlobalContext().registerFunction(function("strftime_now", "strftimeNow"));
    return engine;
  }

  /**
   * Why {@code source} cannot be rendered as Jinja2 would render it, or null. Jinjava renders an inline loop filter
   * ({@code for x in xs if …}) without skipping anything and an unknown filter as an empty string, where Jinja2
   * skips items or refuses the template: such templates are refused before they produce a different prompt.
   */
  static String unsupported(Jinjava engine, String source) {
    Matcher tag = TAG.matcher(source);
    while (tag.find()) {
      String code = STRING_LITERAL.matcher(tag.group()).replaceAll("''");
      if (filtersLoop(code)) {
        return "it filters a for loop inline (" + tag.group() + ")";
      }
      Matcher filter = FILTER.matcher(code);
      while (filter.find()) {
        if (engine.getGlobalContext().getFilter(filter.group(1)) == null) {
          return "it uses the filter " + filter.group(1) + ", which this renderer does not have";
        }
      }
    }
    return null;
  }

  /** Whether a {@code for} tag has an {@code if} outside brackets after {@code in}: Jinja2's loop filter. */
  private static boolean filtersLoop(String tag) {
    Matcher m = FOR_IN.matcher(tag);
    if (!m.find()) {
      return false;
    }
    int depth = 0;
    for (int i = m.end(); i < tag.length(); i++) {
      char c = tag.charAt(i);
      if (c == '(' || c == '[' || c == '{') {
        depth++;
      } else if (c == ')' || c == ']' || c == '}') {
        depth--;
      } else if (depth == 0 && WORD_IF.matcher(tag).region(i, tag.length()).useTransparentBounds(true).lookingAt()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Jinja2's {@code lstrip_blocks}: spaces and tabs between the start of a line and a block or comment tag are
   * dropped, unless the tag opens with {@code +} ({@code {%+}). Only at the start of a line: Jinjava's own option
   * strips them before any tag.
   */
  static String lstripBlocks(String source) {
    StringBuilder out = new StringBuilder(source.length());
    int lineStart = 0;
    boolean blank = true;
    for (int i = 0; i < source.length(); i++) {
      char c = source.charAt(i);
      if (c == '{' && blank && i + 1 < source.length() && (source.charAt(i + 1) == '%' || source.charAt(i + 1) == '#')
          && (i + 2 >= source.length() || source.charAt(i + 2) != '+')) {
        out.setLength(lineStart);
      }
      out.append(c);
      if (c == '\n') {
        lineStart = out.length();
        blank = true;
      } else if (c != ' ' && c != '\t') {
        blank = false;
      }
    }
    return out.toString();
  }

  private static ELFunctionDefinition function(String name, String method) {
    try {
      Method m = JinjaEngine.class.getDeclaredMethod(method, Object.class);
      m.setAccessible(true);
      return new ELFunctionDefinition("", name, m);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
  }

  @SuppressWarnings("unused") // called by templates
  private static Object raiseException(Object message) {
    throw new Raised(String.valueOf(message));
  }

  /** Python's {@code datetime.now().strftime(format)} for the directives chat templates use. */
  @SuppressWarnings("unused") // called by templates
  private static String strftimeNow(Object format) {
    return strftime(String.valueOf(format), ZonedDateTime.now());
  }

  static String strftime(String format, ZonedDateTime t) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < format.length(); i++) {
      char c = format.charAt(i);
      if (c != '%' || i + 1 == format.length()) {
        sb.append(c);
        continue;
      }
      char d = format.charAt(++i);
      String pattern = switch (d) {
        case 'a' -> "EEE";
        case 'A' -> "EEEE";
        case 'b' -> "MMM";
        case 'B' -> "MMMM";
        case 'd' -> "dd";
        case 'm' -> "MM";
        case 'y' -> "yy";
        case 'Y' -> "yyyy";
        case 'H' -> "HH";
        case 'I' -> "hh";
        case 'M' -> "mm";
        case 'S' -> "ss";
        case 'p' -> "a";
        case 'j' -> "DDD";
        default -> null;
      };
      if (pattern != null) {
        sb.append(DateTimeFormatter.ofPattern(pattern, Locale.ENGLISH).format(t));
      } else if (d == 'e') {
        sb.append(String.format(Locale.ROOT, "%2d", t.getDayOfMonth()));
      } else if (d == '%') {
        sb.append('%');
      } else {
        sb.append('%').append(d);
      }
    }
    return sb.toString();
  }

  /** A filter's work: the value, then Python's positional and keyword arguments. */
  private interface FilterBody {
    Object apply(Object value, Object[] args, Map<String, Object> kwargs);
  }

  /** A filter that takes keyword arguments, as Jinja2's do. */
  private record PythonFilter(String name, FilterBody body) implements Filter {
    @Override
    public String getName() {
      return name;
    }

    @Override
    public Object filter(Object var, JinjavaInterpreter interpreter, Object[] args, Map<String, Object> kwargs) {
      return body.apply(var, args, kwargs);
    }

    @Override
    public Object filter(Object var, JinjavaInterpreter interpreter, String... args) {
      return body.apply(var, args, Map.of());
    }
  }

  private static Object argument(Object[] args, Map<String, Object> kwargs, int position, String name) {
    return kwargs.getOrDefault(name, args.length > position ? args[position] : null);
  }

  /** {@code value | tojson(indent=None, separators=None, sort_keys=False, ensure_ascii=False)}. */
  private static Object toJson(Object value, Object[] args, Map<String, Object> kwargs) {
    Object indent = argument(args, kwargs, 0, "indent");
    String indentText = switch (indent) {
      case null -> null;
      case Number n -> " ".repeat(Math.max(0, n.intValue()));
      default -> indent.toString();
    };
    String itemSeparator = null;
    String keySeparator = null;
    if (kwargs.get("separators") instanceof List<?> separators && separators.size() == 2) {
      itemSeparator = String.valueOf(separators.get(0));
      keySeparator = String.valueOf(separators.get(1));
    }
    return PythonJson.dumps(value, indentText, itemSeparator, keySeparator,
        Boolean.TRUE.equals(kwargs.get("sort_keys")), Boolean.TRUE.equals(kwargs.get("ensure_ascii")));
  }

  /** {@code mapping | items}: the key and value pairs, for {@code for key, value in mapping | items}. */
  private static Object items(Object value, Object[] args, Map<String, Object> kwargs) {
    return value instanceof Map<?, ?> map ? new ArrayList<>(map.entrySet()) : List.of();
  }

  /** {@code value | trim(chars=None)}: Python's {@code str.strip}. */
  private static Object trim(Object value, Object[] args, Map<String, Object> kwargs) {
    Object chars = argument(args, kwargs, 0, "chars");
    return PythonStrings.strip(value == null ? "" : value.toString(), chars == null ? null : chars.toString(), true,
        true);
  }
}
