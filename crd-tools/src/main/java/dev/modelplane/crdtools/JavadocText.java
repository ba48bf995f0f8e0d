package dev.modelplane.crdtools;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Turns raw Javadoc comment text into plain prose suitable for an OpenAPI description. */
final class JavadocText {
  private static final Pattern INLINE_TAG = Pattern.compile("\\{@(code|literal|link|linkplain|value)\\s+([^}]*)}");
  private static final Pattern HTML_TAG = Pattern.compile("</?[a-zA-Z][^>]*>");
  private static final Pattern LITERAL = Pattern.compile("\u0000(\\d+)\u0000");
  private static final Pattern PARAM = Pattern.compile("^@param\\s+(\\S+)\\s*(.*)$");

  private JavadocText() {
  }

  /** The comment without its block tags ({@code @param}, {@code @see}, …). */
  static String withoutBlockTags(String doc) {
    if (doc == null) {
      return null;
    }
    StringBuilder out = new StringBuilder();
    for (String line : doc.split("\n", -1)) {
      if (line.strip().startsWith("@")) {
        break;
      }
      out.append(line).append('\n');
    }
    return out.toString();
  }

  /** The text of each {@code @param} tag, by parameter name (record components are documented this way). */
  static Map<String, String> paramTags(String doc) {
    Map<String, String> params = new LinkedHashMap<>();
    if (doc == null) {
      return params;
    }
    String current = null;
    StringBuilder text = new StringBuilder();
    for (String line : doc.split("\n", -1)) {
      String stripped = line.strip();
      if (stripped.startsWith("@")) {
        if (current != null) {
          params.put(current, text.toString());
        }
        current = null;
        text.setLength(0);
        Matcher m = PARAM.matcher(stripped);
        if (m.matches()) {
          current = m.group(1);
          text.append(m.group(2)).append('\n');
        }
      } else if (current != null) {
        text.append(line).append('\n');
      }
    }
    if (current != null) {
      params.put(current, text.toString());
    }
    return params;
  }

  /**
   * Resolves inline tags to their text, drops HTML, joins wrapped lines and keeps blank-line paragraph breaks as a
   * single newline.
   */
  static String clean(String doc) {
    if (doc == null) {
      return null;
    }
    // Inline tags are set aside first, so that "<...>" inside {@code ...} survives the removal of HTML tags.
    java.util.List<String> literals = new java.util.ArrayList<>();
    String text = INLINE_TAG.matcher(doc).replaceAll(m -> {
      literals.add(m.group(1).startsWith("link") ? linkText(m.group(2).strip()) : m.group(2).strip());
      return "\u0000" + (literals.size() - 1) + "\u0000";
    });
    text = text.replace("<p>", "\n\n");
    text = HTML_TAG.matcher(text).replaceAll("");
    text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    text = LITERAL.matcher(text).replaceAll(m -> Matcher.quoteReplacement(literals.get(Integer.parseInt(m.group(1)))));
    StringBuilder out = new StringBuilder();
    for (String paragraph : text.strip().split("\\n\\s*\\n")) {
      String joined = String.join(" ", paragraph.strip().split("\\s*\\n\\s*")).replaceAll("\\s+", " ").strip();
      if (!joined.isEmpty()) {
        if (!out.isEmpty()) {
          out.append('\n');
        }
        out.append(joined);
      }
    }
    return out.toString();
  }

  /** {@code {@link Foo#bar label}} reads as "label", {@code {@link Foo#bar}} as "bar". */
  private static String linkText(String target) {
    int space = target.indexOf(' ');
    if (space > 0) {
      return target.substring(space + 1).strip();
    }
    int hash = target.lastIndexOf('#');
    return hash >= 0 ? target.substring(hash + 1) : target.substring(target.lastIndexOf('.') + 1);
  }
}
